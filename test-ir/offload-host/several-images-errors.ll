; Images that cannot be registered together, each an error naming the
; images (path and target) and the difference, before anything changes:
; a kernel missing in one image, a different parameter count, a different
; parameter kind, two images for the same target; and `arch=` checks the
; NVIDIA images of a set, refusing one without any.
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/x86.ll %t/x86.so
; RUN: %device-image -passes=offload-wrap-kernels %t/amdgpu.ll %t/amdgpu.so -mcpu=gfx90a
; RUN: %device-image -passes=offload-wrap-kernels %t/missing.ll %t/missing.so -mcpu=gfx90a
; RUN: %device-image -passes=offload-wrap-kernels %t/slots.ll %t/slots.so -mcpu=gfx90a
; RUN: %device-image -passes=offload-wrap-kernels %t/kind.ll %t/kind.so -mcpu=gfx90a
; RUN: %device-image -passes=offload-wrap-kernels %t/x86-other.ll %t/x86-other.so
; The two agreeing images are accepted:
; RUN: %opt -passes='offload-host<image=%t/x86.so;image=%t/amdgpu.so>' %t/host.ll -disable-output
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/x86.so;image=%t/missing.so>' %t/host.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=MISSING -DX86=%t/x86.so -DGPU=%t/missing.so
; RUN: not %opt -passes='offload-host<image=%t/missing.so;image=%t/x86.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=MISSING-FIRST -DX86=%t/x86.so -DGPU=%t/missing.so
; RUN: not %opt -passes='offload-host<image=%t/x86.so;image=%t/slots.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=SLOTS -DX86=%t/x86.so -DGPU=%t/slots.so
; RUN: not %opt -passes='offload-host<image=%t/x86.so;image=%t/kind.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=KIND -DX86=%t/x86.so -DGPU=%t/kind.so
; RUN: not %opt -passes='offload-host<image=%t/x86.so;image=%t/amdgpu.so;image=%t/x86-other.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=SAME -DX86=%t/x86.so -DOTHER=%t/x86-other.so
; RUN: not %opt -passes='offload-host<image=%t/x86.so;image=%t/amdgpu.so;arch=sm_90>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=ARCH -DX86=%t/x86.so
; A kernel the images hold but no launch needs still counts; a kernel no
; manifest describes (helper) does not:
; RUN: not %opt -passes='offload-host<image=%t/x86.so;image=%t/missing.so>' %t/none.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=MISSING -DX86=%t/x86.so -DGPU=%t/missing.so

; MISSING: error: offload-host: kernel 'twice' differs between image '[[X86]]' (x86_64-unknown-linux-gnu) and image '[[GPU]]' (amdgcn-amd-amdhsa gfx90a): '[[X86]]' holds it (with a manifest or kernarg metadata), '[[GPU]]' has no such launchable kernel; one set of launches serves every image, so all must hold the same kernels with the same parameters (build them from one source)
; MISSING-FIRST: error: offload-host: kernel 'twice' differs between image '[[GPU]]' (amdgcn-amd-amdhsa gfx90a) and image '[[X86]]' (x86_64-unknown-linux-gnu): '[[X86]]' holds it (with a manifest or kernarg metadata), '[[GPU]]' has no such launchable kernel;
; SLOTS: error: offload-host: kernel 'fill' differs between image '[[X86]]' (x86_64-unknown-linux-gnu) and image '[[GPU]]' (amdgcn-amd-amdhsa gfx90a): it takes 2 parameters (ptr, i32) in '[[X86]]', 3 (ptr, i32, i32) in '[[GPU]]';
; KIND: error: offload-host: kernel 'fill' differs between image '[[X86]]' (x86_64-unknown-linux-gnu) and image '[[GPU]]' (amdgcn-amd-amdhsa gfx90a): parameter 1 is 'i32' (slot: the value; 4 bytes) in '[[X86]]', 'float' (slot: the value; 4 bytes) in '[[GPU]]';
; SAME: error: offload-host: images '[[X86]]' and '[[OTHER]]' are both for x86_64-unknown-linux-gnu: libomptarget registers the first image that fits a device and never runs the other; give one image per target
; ARCH: error: offload-host: parameter 'arch=sm_90' is for NVPTX images; image '[[X86]]' is for x86_64 (libomptarget's host plugin)

;--- x86.ll
target triple = "x86_64-unknown-linux-gnu"
define void @fill(ptr %out, i32 %n) !offload.kernel !0 {
  ret void
}
define void @twice(ptr %p) !offload.kernel !0 {
  ret void
}
define void @helper() {
  ret void
}
!0 = !{}

;--- x86-other.ll
target triple = "x86_64-unknown-linux-gnu"
define void @fill(ptr %out, i32 %n) !offload.kernel !0 {
  store i32 %n, ptr %out
  ret void
}
define void @twice(ptr %p) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- amdgpu.ll
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @fill(ptr %out, i32 %n) {
  ret void
}
define amdgpu_kernel void @twice(ptr %p) {
  ret void
}

;--- missing.ll
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @fill(ptr %out, i32 %n) {
  ret void
}

;--- slots.ll
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @fill(ptr %out, i32 %n, i32 %m) {
  ret void
}
define amdgpu_kernel void @twice(ptr %p) {
  ret void
}

;--- kind.ll
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @fill(ptr %out, float %n) {
  ret void
}
define amdgpu_kernel void @twice(ptr %p) {
  ret void
}

;--- host.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @fill(ptr dereferenceable(4), i32)
define void @f(ptr %out, i32 %n) {
  call void @fill(ptr %out, i32 %n)
  ret void
}

;--- none.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f() {
  ret void
}
