; A read-only input and a write-only output through a natural kernel
; signature: square(in, out, n), out[i] = in[i] * in[i] - 1. On the host `in`
; is readonly (TO: copied in, never back) and `out` writeonly (FROM: allocated
; on the device without a copy in, copied back). LIBOMPTARGET_INFO shows one
; copy each way.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s
; RUN: env LIBOMPTARGET_INFO=-1 %run-offload %t/dev.so %t/host.exe 2>&1 | %FileCheck %s --check-prefix=INFO

; The output starts as 99 on the host.
; CHECK:      in: 1.500 -2.000 0.500 3.000
; CHECK-NEXT: out: 1.250 3.000 -0.750 8.000

; Only `in` (16 bytes) goes in, only `out` (16 bytes) comes back.
; INFO:     Copying data from host to device, {{.*}} Size=16
; INFO-NOT: Copying data from host to device
; INFO:     Copying data from device to host, {{.*}} Size=16
; INFO-NOT: Copying data

; IR: @.offload_sizes.square = private unnamed_addr constant [3 x i64] [i64 16, i64 16, i64 8]
; IR: @.offload_maptypes.square = private unnamed_addr constant [3 x i64] [i64 33, i64 34, i64 800]

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @square(ptr readonly %in, ptr writeonly %out, i64 %n) !offload.kernel !0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pi = getelementptr float, ptr %in, i64 %i
  %v = load float, ptr %pi
  %sq = fmul float %v, %v
  %r = fsub float %sq, 1.0
  %po = getelementptr float, ptr %out, i64 %i
  store float %r, ptr %po
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@in = global [4 x float] [float 1.5, float -2.0, float 0.5, float 3.0]
@out = global [4 x float] [float 99.0, float 99.0, float 99.0, float 99.0]
@fmt = private constant [25 x i8] c"%s: %.3f %.3f %.3f %.3f\0A\00"
@inname = private constant [3 x i8] c"in\00"
@outname = private constant [4 x i8] c"out\00"

declare void @square(ptr readonly dereferenceable(16), ptr writeonly dereferenceable(16), i64)
declare i32 @printf(ptr, ...)

define void @show(ptr %name, ptr %v) {
  %v0 = load float, ptr %v
  %p1 = getelementptr float, ptr %v, i64 1
  %v1 = load float, ptr %p1
  %p2 = getelementptr float, ptr %v, i64 2
  %v2 = load float, ptr %p2
  %p3 = getelementptr float, ptr %v, i64 3
  %v3 = load float, ptr %p3
  %d0 = fpext float %v0 to double
  %d1 = fpext float %v1 to double
  %d2 = fpext float %v2 to double
  %d3 = fpext float %v3 to double
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %name, double %d0, double %d1, double %d2, double %d3)
  ret void
}

define i32 @main() {
  call void @square(ptr @in, ptr @out, i64 4)
  call void @show(ptr @inname, ptr @in)
  call void @show(ptr @outname, ptr @out)
  ret i32 0
}
