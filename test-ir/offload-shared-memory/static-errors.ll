; offload-shared-memory refuses, naming the problem, a kernel whose static
; shared arrays (those of the functions it calls too, each padded to its
; alignment) exceed the target's limit — 64 KiB of LDS on AMDGPU (gfx90a),
; 48 KiB of static `.shared` on NVPTX (sm_90) — naming the kernel
; (demangled), the arrays' sizes, the total and the limit; and a malformed
; call of `__offload_static_shared`. Nothing is changed. A kernel at the
; limit is accepted.
; RUN: rm -rf %t && split-file %s %t
; RUN: not %opt -passes=offload-shared-memory -disable-output %t/amdgcn-over.ll 2>&1 | %FileCheck %s --check-prefix=AMDGCN-OVER
; RUN: %opt -passes=offload-shared-memory -S %t/amdgcn-at.ll | %FileCheck %s --check-prefix=AMDGCN-AT
; RUN: not %opt -passes=offload-shared-memory -disable-output %t/nvptx-over.ll 2>&1 | %FileCheck %s --check-prefix=NVPTX-OVER
; RUN: not %opt -passes=offload-shared-memory -disable-output %t/not-constant.ll 2>&1 | %FileCheck %s --check-prefix=NOT-CONSTANT
; RUN: not %opt -passes=offload-shared-memory -disable-output %t/two-sizes.ll 2>&1 | %FileCheck %s --check-prefix=TWO-SIZES
; RUN: not %opt -passes=offload-shared-memory -disable-output %t/defined.ll 2>&1 | %FileCheck %s --check-prefix=DEFINED
;
; AMDGCN-OVER: offload-shared-memory: kernel `kernels::tiles` uses 65544 bytes of static shared memory (arrays of [1, 65536] bytes), over the 65536 bytes a kernel may use on amdgcn-amd-amdhsa
; AMDGCN-AT: @__offload_static_shared.big = internal addrspace(3) global [65536 x i8] undef, align 16
; NVPTX-OVER: offload-shared-memory: kernel `kernels::tiles` uses 49156 bytes of static shared memory (arrays of [49152, 1] bytes), over the 49152 bytes a kernel may use on nvptx64-nvidia-cuda
; NOT-CONSTANT: offload-shared-memory: `__offload_static_shared` is used other than by a call `ptr (ptr @site, i64 <bytes below 4 GiB>, i64 <power-of-two align>)`: %p = call ptr @__offload_static_shared(ptr @site, i64 %n, i64 4)
; TWO-SIZES: offload-shared-memory: the static shared array of `site` is declared with 16 bytes (align 4) and with 32 bytes (align 4)
; DEFINED: offload-shared-memory: `__offload_static_shared` has a body: it must be the declaration the `offload` crate makes

;--- amdgcn-over.ll
target triple = "amdgcn-amd-amdhsa"
@big = internal global i8 0
@small = internal global i8 0
declare ptr @__offload_static_shared(ptr, i64, i64)
define internal void @helper() {
  %s = call ptr @__offload_static_shared(ptr @small, i64 1, i64 8)
  store i8 0, ptr %s
  ret void
}
define amdgpu_kernel void @_ZN7kernels5tiles17h0123456789abcdefE() {
  %b = call ptr @__offload_static_shared(ptr @big, i64 65536, i64 16)
  store i8 0, ptr %b
  call void @helper()
  ret void
}

;--- amdgcn-at.ll
target triple = "amdgcn-amd-amdhsa"
@big = internal global i8 0
declare ptr @__offload_static_shared(ptr, i64, i64)
define amdgpu_kernel void @_ZN7kernels5tiles17h0123456789abcdefE() {
  %b = call ptr @__offload_static_shared(ptr @big, i64 65536, i64 16)
  store i8 0, ptr %b
  ret void
}

;--- nvptx-over.ll
target triple = "nvptx64-nvidia-cuda"
@big = internal global i8 0
@small = internal global i8 0
declare ptr @__offload_static_shared(ptr, i64, i64)
define ptx_kernel void @_ZN7kernels5tiles17h0123456789abcdefE() {
  %b = call ptr @__offload_static_shared(ptr @big, i64 49152, i64 4)
  store i8 0, ptr %b
  %s = call ptr @__offload_static_shared(ptr @small, i64 1, i64 4)
  store i8 0, ptr %s
  ret void
}

;--- not-constant.ll
target triple = "nvptx64-nvidia-cuda"
@site = internal global i8 0
declare ptr @__offload_static_shared(ptr, i64, i64)
define void @f(i64 %n) {
  %p = call ptr @__offload_static_shared(ptr @site, i64 %n, i64 4)
  ret void
}

;--- two-sizes.ll
target triple = "nvptx64-nvidia-cuda"
@site = internal global i8 0
declare ptr @__offload_static_shared(ptr, i64, i64)
define void @f() {
  %p = call ptr @__offload_static_shared(ptr @site, i64 16, i64 4)
  %q = call ptr @__offload_static_shared(ptr @site, i64 32, i64 4)
  ret void
}

;--- defined.ll
target triple = "amdgcn-amd-amdhsa"
define ptr @__offload_static_shared(ptr %site, i64 %bytes, i64 %align) {
  ret ptr null
}
