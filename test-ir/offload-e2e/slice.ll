; A pointer plus length (a slice) with a natural kernel signature
; scale(p, n, k): p[i] *= k for i < n, n an i32. The launch descriptor
; @__offload_launch.scale (every launch of scale) says argument 0 is TO|FROM
; with 4-byte elements whose count is argument 1 (LEN = 1 + 1); n and k are
; inferred (literals). The mapped size, n * 4, is computed at run time: the
; two launches (n = 3, then n = 1) map 12 and 4 bytes, and the elements past n
; are neither copied nor changed.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s
; RUN: env LIBOMPTARGET_INFO=-1 %run-offload %t/dev.so %t/host.exe 2>&1 | %FileCheck %s --check-prefix=INFO

; p = {1, 2, 3, 4, 5}; scale(p, 3, -1.5); scale(p, 1, 0.5)
; CHECK:      after n=3: -1.50 -3.00 -4.50 4.00 5.00
; CHECK-NEXT: after n=1: -0.75 -3.00 -4.50 4.00 5.00

; INFO:     Copying data from host to device, {{.*}} Size=12
; INFO:     Copying data from device to host, {{.*}} Size=12
; INFO:     Copying data from host to device, {{.*}} Size=4
; INFO:     Copying data from device to host, {{.*}} Size=4
; INFO-NOT: Copying data

; IR: @.offload_maptypes.scale = private unnamed_addr constant [3 x i64] [i64 35, i64 800, i64 800]
; IR-LABEL: define i32 @main(
; IR: %[[N:[0-9]+]] = zext i32 %n1 to i64
; IR: mul i64 %[[N]], 4

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @scale(ptr %p, i32 %n, float %k) !offload.kernel !0 {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr float, ptr %p, i32 %i
  %v = load float, ptr %q
  %vk = fmul float %v, %k
  store float %vk, ptr %q
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; version 1, default grid, 3 argument triples: (TO|FROM, 4-byte elements,
; count in argument 1), (inferred), (inferred)
@__offload_launch.scale = constant [18 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 3, i64 3, i64 4, i64 2, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0]
@p = global [5 x float] [float 1.0, float 2.0, float 3.0, float 4.0, float 5.0]
@n1 = global i32 3
@n2 = global i32 1
@fmt = private constant [38 x i8] c"after n=%d: %.2f %.2f %.2f %.2f %.2f\0A\00"

declare void @scale(ptr, i32, float)
declare i32 @printf(ptr, ...)

define void @show(i32 %n) {
  %v0 = load float, ptr @p
  %p1 = getelementptr float, ptr @p, i64 1
  %v1 = load float, ptr %p1
  %p2 = getelementptr float, ptr @p, i64 2
  %v2 = load float, ptr %p2
  %p3 = getelementptr float, ptr @p, i64 3
  %v3 = load float, ptr %p3
  %p4 = getelementptr float, ptr @p, i64 4
  %v4 = load float, ptr %p4
  %d0 = fpext float %v0 to double
  %d1 = fpext float %v1 to double
  %d2 = fpext float %v2 to double
  %d3 = fpext float %v3 to double
  %d4 = fpext float %v4 to double
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %n, double %d0, double %d1, double %d2, double %d3, double %d4)
  ret void
}

define i32 @main() {
  %n1 = load i32, ptr @n1
  call void @scale(ptr @p, i32 %n1, float -1.5)
  call void @show(i32 %n1)
  %n2 = load i32, ptr @n2
  call void @scale(ptr @p, i32 %n2, float 0.5)
  call void @show(i32 %n2)
  ret i32 0
}
