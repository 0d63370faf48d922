; i32, i64, float and double scalars: LITERAL|IMPLICIT, passed in the
; base-pointer slot as their value (or bit pattern) zero-extended to i64. The
; wrapped kernel truncates / bitcasts each i64 slot back. A negative i32 checks
; that zero-extension plus truncation keeps the value.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; CHECK: i32 -10 i64 8589934593 float 3.000000 double -5.000000

; IR: @.offload_sizes.scalars = private unnamed_addr constant [5 x i64] [i64 32, i64 4, i64 8, i64 4, i64 8]
; The kernel's array: TARGET_PARAM (0x20) on every argument, LITERAL|IMPLICIT (0x300) kept on scalars;
; the end array: FROM only.
; IR: @.offload_maptypes.scalars = private unnamed_addr constant [5 x i64] [i64 34, i64 800, i64 800, i64 800, i64 800]
; IR-LABEL: define i32 @main(
; IR: %[[I:[0-9]+]] = zext i32 %i to i64
; IR: inttoptr i64 %[[I]] to ptr
; IR: inttoptr i64 %l to ptr
; IR: %[[F:[0-9]+]] = bitcast float %f to i32
; IR: %[[FW:[0-9]+]] = zext i32 %[[F]] to i64
; IR: inttoptr i64 %[[FW]] to ptr
; IR: %[[D:[0-9]+]] = bitcast double %d to i64
; IR: inttoptr i64 %[[D]] to ptr

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

; scalars(out, i, l, f, d): out = { i*2, l+1, f*2, d*2 } (each scalar travels in an i64 slot).
define void @scalars(ptr %out, i32 %i, i64 %l, float %f, double %d) !offload.kernel !0 {
  %i2 = mul i32 %i, 2
  %i2w = sext i32 %i2 to i64
  store i64 %i2w, ptr %out
  %l1 = add i64 %l, 1
  %p1 = getelementptr i64, ptr %out, i64 1
  store i64 %l1, ptr %p1
  %f2 = fmul float %f, 2.0
  %f2d = fpext float %f2 to double
  %p2 = getelementptr i64, ptr %out, i64 2
  store double %f2d, ptr %p2
  %d2 = fmul double %d, 2.0
  %p3 = getelementptr i64, ptr %out, i64 3
  store double %d2, ptr %p3
  ret void
}
!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@fmt = private constant [36 x i8] c"i32 %ld i64 %ld float %f double %f\0A\00"

declare void @scalars(ptr writeonly dereferenceable(32), i32, i64, float, double)
declare i32 @printf(ptr, ...)

define i32 @main() {
  %out = alloca [4 x i64], align 8
  ; Values through memory, so they are not constants at the call.
  %vals = alloca { i32, i64, float, double }, align 8
  store { i32, i64, float, double } { i32 -5, i64 8589934592, float 1.5, double -2.5 }, ptr %vals
  %pi = getelementptr { i32, i64, float, double }, ptr %vals, i32 0, i32 0
  %i = load volatile i32, ptr %pi
  %pl = getelementptr { i32, i64, float, double }, ptr %vals, i32 0, i32 1
  %l = load volatile i64, ptr %pl
  %pf = getelementptr { i32, i64, float, double }, ptr %vals, i32 0, i32 2
  %f = load volatile float, ptr %pf
  %pd = getelementptr { i32, i64, float, double }, ptr %vals, i32 0, i32 3
  %d = load volatile double, ptr %pd
  call void @scalars(ptr %out, i32 %i, i64 %l, float %f, double %d)
  %o0 = load i64, ptr %out
  %p1 = getelementptr i64, ptr %out, i64 1
  %o1 = load i64, ptr %p1
  %p2 = getelementptr double, ptr %out, i64 2
  %o2 = load double, ptr %p2
  %p3 = getelementptr double, ptr %out, i64 3
  %o3 = load double, ptr %p3
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %o0, i64 %o1, double %o2, double %o3)
  ret i32 0
}
