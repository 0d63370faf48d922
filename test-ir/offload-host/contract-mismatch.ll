; Launches that do not fit their kernel are compile-time errors, each naming
; the kernel, the calling function, the argument and both types, with no
; output written. Each of these once compiled silently and misbehaved at run
; time on the host plugin (data unchanged, garbage, SIGBUS, SIGSEGV). The
; kernel's side comes from its manifest (offload-wrap-kernels) or, for an
; AMDGPU kernel without one, from .amdhsa.kernels.
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image '-passes=offload-wrap-kernels<kernels=scale:step:mix>' %t/dev.ll %t/dev.so
; RUN: %read-manifest %t/dev.so | %FileCheck %s --check-prefix=MANIFEST

; MANIFEST: kernel mix:
; MANIFEST: kernel scale:
; MANIFEST: kernel step:
; MANIFEST-NOT: kernel

; A host declaration with fewer arguments than the kernel:
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/fewer.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=FEWER -DIMAGE=%t/dev.so
; FEWER: error: offload-host: launch of 'scale' in function 'f': the call passes 1 argument, but kernel 'scale' takes 2 (ptr, i32) (its manifest in image '[[IMAGE]]')

; A wrong element size (an integer of another width):
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/width.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=WIDTH -DIMAGE=%t/dev.so
; WIDTH: error: offload-host: launch of 'scale' in function 'f': argument 1 is 'i64', but kernel 'scale' takes 'i32' (its manifest in image '[[IMAGE]]')
; ... a float of another kind, and an integer for a pointer (same message):
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/float.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=FLOAT
; FLOAT: error: offload-host: launch of 'mix' in function 'f': argument 0 is 'double', but kernel 'mix' takes 'float'
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/int-for-pointer.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=INT-FOR-POINTER
; INT-FOR-POINTER: error: offload-host: launch of 'scale' in function 'f': argument 0 is 'i64', but kernel 'scale' takes 'ptr'

; A struct by value of another size:
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/by-value-size.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=BY-VALUE-SIZE -DIMAGE=%t/dev.so
; BY-VALUE-SIZE: error: offload-host: launch of 'step' in function 'f': argument 0 is 'ptr byval(%T)' by value (16 bytes), but kernel 'step' takes 'ptr byval({24 bytes, align 8})' (its manifest in image '[[IMAGE]]')
; A pointer to the struct that maps fewer bytes than the struct:
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/mapped-small.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=MAPPED-SMALL -DIMAGE=%t/dev.so
; MAPPED-SMALL: error: offload-host: launch of 'step' in function 'f': argument 0 maps 8 bytes, fewer than the 24-byte struct kernel 'step' takes by value ('ptr byval({24 bytes, align 8})') (its manifest in image '[[IMAGE]]')
; ... or passes the host address itself (LITERAL):
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/literal.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=LITERAL -DIMAGE=%t/dev.so
; LITERAL: error: offload-host: launch of 'step' in function 'f': argument 0 is passed LITERAL, but kernel 'step' takes 'ptr byval({24 bytes, align 8})', which needs a TO-mapped copy (its manifest in image '[[IMAGE]]')

; A kernel left out of offload-wrap-kernels<kernels=...> (its unwrapped
; function would be launched), called with a descriptor:
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/left-out.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=LEFT-OUT -DIMAGE=%t/dev.so
; LEFT-OUT: error: offload-host: launch of 'left_out' in function 'f': 'left_out' is a function of image '[[IMAGE]]' but no kernel its manifest lists (mix, scale, step); only kernels offload-wrap-kernels wrapped are launched (name a kernel from another compiler in foreign=)
; A plain exported helper called by name is not a launch: the call stays (and
; fails to link, rather than launching a function that is no kernel):
; RUN: env RUST_LOG=offload_passes=debug %opt -passes='offload-host<image=%t/dev.so>' %t/helper.ll -S -o %t/helper.out.ll 2>&1 | %FileCheck %s --check-prefix=HELPER-LOG
; HELPER-LOG: offload-host: call of 'helper' in 'f' is not lowered: the image exports it, but it is not a kernel its manifest lists (nor foreign=)
; RUN: %FileCheck %s --check-prefix=HELPER < %t/helper.out.ll
; HELPER: call void @helper(ptr %p)
; HELPER-NOT: __tgt_target_kernel

; An image without any manifest (kernels from another compiler): a launch is
; an error unless foreign= names the kernel, which then goes unchecked.
; RUN: %device-image %t/foreign.ll %t/foreign.so
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/foreign.so>' %t/foreign-host.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=NO-MANIFEST -DIMAGE=%t/foreign.so
; NO-MANIFEST: error: offload-host: launch of 'ext' in function 'f': image '[[IMAGE]]' has no kernel manifest, so 'ext' is launched only when named in offload-host<...;foreign=ext> (a kernel following libomptarget's convention: a leading dyn pointer, 8-byte slots); run offload-wrap-kernels on the device code to give it one
; RUN: %opt -passes='offload-host<image=%t/foreign.so;foreign=ext>' %t/foreign-host.ll -S -o - | %FileCheck %s --check-prefix=FOREIGN
; FOREIGN: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.ext.region_id.

; AMDGPU code objects without a manifest carry their kernarg layout in
; .amdhsa.kernels: an OpenMP kernel (leading 8-byte dyn pointer, 8-byte
; slots) is checked against it.
; RUN: %device-image %t/amdgpu.ll %t/amdgpu.so -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a
; RUN: %opt -passes='offload-host<image=%t/amdgpu.so>' %t/amdgpu-ok.ll -S -o - | %FileCheck %s --check-prefix=AMDGPU-OK
; AMDGPU-OK: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.omp.region_id.
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/amdgpu.so>' %t/amdgpu-kind.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=AMDGPU-KIND -DIMAGE=%t/amdgpu.so
; AMDGPU-KIND: error: offload-host: launch of 'omp' in function 'f': argument 1 is 'ptr', but kernel 'omp' takes '8-byte by_value at offset 16' (its .amdhsa.kernels in image '[[IMAGE]]')
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/amdgpu.so>' %t/amdgpu-count.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=AMDGPU-COUNT
; AMDGPU-COUNT: error: offload-host: launch of 'omp' in function 'f': the call passes 1 argument, but kernel 'omp' takes 2 (8-byte global_buffer at offset 8, 8-byte by_value at offset 16) (its .amdhsa.kernels in image
; A HIP-style kernel: its i32 takes 4 bytes, not a launch's 8-byte slot ...
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/amdgpu.so>' %t/amdgpu-hip.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=AMDGPU-SLOT
; AMDGPU-SLOT: error: offload-host: launch of 'hip' in function 'f': argument 0 goes in an 8-byte slot at offset 8, but kernel 'hip' takes a 4-byte by_value at offset 8 (its .amdhsa.kernels in image
; ... and one without the leading dyn pointer cannot be launched at all:
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/amdgpu.so>' %t/amdgpu-no-dyn.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=AMDGPU-NO-DYN -DIMAGE=%t/amdgpu.so
; AMDGPU-NO-DYN: error: offload-host: launch of 'no_dyn' in function 'f': kernel 'no_dyn' does not take libomptarget's leading 8-byte dyn pointer (its first kernarg is 4-byte by_value at offset 0) (its .amdhsa.kernels in image '[[IMAGE]]'); it cannot be launched through libomptarget

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
%S = type { double, double, double }
define void @scale(ptr %p, i32 %n) {
  ret void
}
define void @step(ptr byval(%S) %s, ptr %out) {
  ret void
}
define void @mix(float %f, double %d) {
  ret void
}
define void @left_out(ptr %p) {
  ret void
}
define void @helper(ptr %p) {
  ret void
}

;--- fewer.ll
declare void @scale(ptr dereferenceable(16))
define void @f(ptr %p) {
  call void @scale(ptr %p)
  ret void
}

;--- width.ll
declare void @scale(ptr dereferenceable(16), i64)
define void @f(ptr %p) {
  call void @scale(ptr %p, i64 4)
  ret void
}

;--- float.ll
declare void @mix(double, double)
define void @f() {
  call void @mix(double 1.0, double 2.0)
  ret void
}

;--- int-for-pointer.ll
declare void @scale(i64, i32)
define void @f(i64 %address) {
  call void @scale(i64 %address, i32 4)
  ret void
}

;--- by-value-size.ll
%T = type { double, double }
declare void @step(ptr byval(%T), ptr dereferenceable(24))
define void @f(ptr %s, ptr %out) {
  call void @step(ptr byval(%T) %s, ptr %out)
  ret void
}

;--- mapped-small.ll
declare void @step(ptr dereferenceable(8), ptr dereferenceable(24))
define void @f(ptr %s, ptr %out) {
  call void @step(ptr %s, ptr %out)
  ret void
}

;--- literal.ll
declare void @step(ptr, ptr dereferenceable(24))
define void @f(ptr %s, ptr %out) {
  call void @step(ptr %s, ptr %out), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 2, i64 256, i64 0, i64 0, i64 0, i64 0, i64 0}

;--- left-out.ll
@"__offload_launch.left_out" = constant [12 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 1, i64 3, i64 4, i64 0]
declare void @left_out(ptr)
define void @f(ptr %p) {
  call void @left_out(ptr %p)
  ret void
}

;--- helper.ll
declare void @helper(ptr)
define void @f(ptr %p) {
  call void @helper(ptr %p)
  ret void
}

;--- foreign.ll
target triple = "x86_64-unknown-linux-gnu"
; A kernel in libomptarget's convention, from another compiler (no manifest).
define void @ext(ptr %dyn_ptr, ptr %x) {
  store i32 1, ptr %x
  ret void
}

;--- foreign-host.ll
@"__offload_launch.ext" = constant [12 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 1, i64 3, i64 4, i64 0]
declare void @ext(ptr)
define void @f(ptr %x) {
  call void @ext(ptr %x)
  ret void
}

;--- amdgpu.ll
; An OpenMP-convention kernel (what clang emits), a HIP-style one, and one
; without the dyn pointer; none has a manifest. Each has the kernel
; environment clang gives an OpenMP kernel, so each is checked against its
; kernargs (without one, a kernel is refused: amdgpu-hip-kernel.test).
@omp_kernel_environment = addrspace(1) constant i64 0
@hip_kernel_environment = addrspace(1) constant i64 0
@no_dyn_kernel_environment = addrspace(1) constant i64 0
define amdgpu_kernel void @omp(ptr %dyn_ptr, ptr %x, i64 %n) {
  ret void
}
define amdgpu_kernel void @hip(ptr addrspace(1) %x, i32 %n) {
  ret void
}
define amdgpu_kernel void @no_dyn(i32 %n, ptr addrspace(1) %x) {
  ret void
}

;--- amdgpu-ok.ll
declare void @omp(ptr dereferenceable(4), i64)
define void @f(ptr %x) {
  call void @omp(ptr %x, i64 1)
  ret void
}

;--- amdgpu-kind.ll
declare void @omp(ptr dereferenceable(4), ptr dereferenceable(4))
define void @f(ptr %x) {
  call void @omp(ptr %x, ptr %x)
  ret void
}

;--- amdgpu-count.ll
declare void @omp(ptr dereferenceable(4))
define void @f(ptr %x) {
  call void @omp(ptr %x)
  ret void
}

;--- amdgpu-hip.ll
declare void @hip(i32)
define void @f() {
  call void @hip(i32 1)
  ret void
}

;--- amdgpu-no-dyn.ll
declare void @no_dyn(ptr dereferenceable(4))
define void @f(ptr %x) {
  call void @no_dyn(ptr %x)
  ret void
}
