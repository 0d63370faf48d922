; End to end with a natural kernel signature: axpy(y, x, a, n) updates y in
; place (TO|FROM) from a read-only x (TO), a double and an i32. The device
; module goes through offload-wrap-kernels (kernel chosen by !offload.kernel),
; llc and ld.lld into an x86_64 image; offload-host lowers the host's call to
; a libomptarget launch. Only the first n = 4 of 5 elements change, so n
; arrives; a = -0.25 checks the double's bits arrive in its i64 slot.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=offload-wrap-kernels %t/dev.ll -S -o %t/dev.wrapped.ll
; RUN: %FileCheck %s --check-prefix=DEV < %t/dev.wrapped.ll
; RUN: %device-image %t/dev.wrapped.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; y = {1, 2, 3, 4, 5}, x = {10, 20, 30, 40, 50}: y[i] += -0.25 * x[i], i < 4.
; CHECK:      y: -1.50 -3.00 -4.50 -6.00 5.00
; CHECK-NEXT: x: 10.00 20.00 30.00 40.00 50.00

; The launch signature: the leading dyn pointer, pointers unchanged, the
; double and the i32 in i64 slots narrowed back at entry.
; DEV-LABEL: define void @axpy(ptr %dyn_ptr, ptr %y, ptr %x, i64 %a, i64 %n) !offload.kernel !0 !offload.wrapped !0 {
; DEV-NEXT:  entry:
; DEV-NEXT:    %a.bitcast = bitcast i64 %a to double
; DEV-NEXT:    %n.trunc = trunc i64 %n to i32
; DEV-NEXT:    %empty = icmp sle i32 %n.trunc, 0
; DEV:         %ax = fmul double %a.bitcast, %xv

; y: TO|FROM, x: TO, a and n: LITERAL|IMPLICIT.
; IR: @.offload_sizes.axpy = private unnamed_addr constant [4 x i64] [i64 40, i64 40, i64 8, i64 4]
; IR: @.offload_maptypes.axpy = private unnamed_addr constant [4 x i64] [i64 35, i64 33, i64 800, i64 800]
; IR-LABEL: define i32 @main(
; IR: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.axpy.region_id.{{[0-9a-f]+}},

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; y[i] = a * x[i] + y[i] for i < n
define void @axpy(ptr %y, ptr %x, double %a, i32 %n) !offload.kernel !0 {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %px = getelementptr double, ptr %x, i32 %i
  %py = getelementptr double, ptr %y, i32 %i
  %xv = load double, ptr %px
  %yv = load double, ptr %py
  %ax = fmul double %a, %xv
  %r = fadd double %ax, %yv
  store double %r, ptr %py
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

@y = global [5 x double] [double 1.0, double 2.0, double 3.0, double 4.0, double 5.0]
@x = global [5 x double] [double 10.0, double 20.0, double 30.0, double 40.0, double 50.0]
@a = global double -0.25
@n = global i32 4
@fmt = private constant [30 x i8] c"%s: %.2f %.2f %.2f %.2f %.2f\0A\00"
@yname = private constant [2 x i8] c"y\00"
@xname = private constant [2 x i8] c"x\00"

declare void @axpy(ptr dereferenceable(40), ptr readonly dereferenceable(40), double, i32)
declare i32 @printf(ptr, ...)

define void @show(ptr %name, ptr %v) {
  %v0 = load double, ptr %v
  %p1 = getelementptr double, ptr %v, i64 1
  %v1 = load double, ptr %p1
  %p2 = getelementptr double, ptr %v, i64 2
  %v2 = load double, ptr %p2
  %p3 = getelementptr double, ptr %v, i64 3
  %v3 = load double, ptr %p3
  %p4 = getelementptr double, ptr %v, i64 4
  %v4 = load double, ptr %p4
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %name, double %v0, double %v1, double %v2, double %v3, double %v4)
  ret void
}

define i32 @main() {
  %a = load double, ptr @a
  %n = load i32, ptr @n
  call void @axpy(ptr @y, ptr @x, double %a, i32 %n)
  call void @show(ptr @yname, ptr @y)
  call void @show(ptr @xname, ptr @x)
  ret i32 0
}
