; A read-only input (readonly: TO) and a write-only output (writeonly: FROM,
; allocated on the device without copying in). The output starts as -1 on the
; host and must come back as in[i] * 2.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; CHECK: in: 1 2 3 4
; CHECK: out: 2 4 6 8

; IR: @.offload_sizes.twice = private unnamed_addr constant [3 x i64] [i64 16, i64 16, i64 8]
; IR: @.offload_maptypes.twice = private unnamed_addr constant [3 x i64] [i64 33, i64 34, i64 800]

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

define void @twice(ptr %in, ptr %out, i64 %n) !offload.kernel !0 {
entry:
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %pi = getelementptr i32, ptr %in, i64 %i
  %v = load i32, ptr %pi
  %v2 = shl i32 %v, 1
  %po = getelementptr i32, ptr %out, i64 %i
  store i32 %v2, ptr %po
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

@fmt = private constant [17 x i8] c"%s: %d %d %d %d\0A\00"
@in.s = private constant [3 x i8] c"in\00"
@out.s = private constant [4 x i8] c"out\00"

declare void @twice(ptr readonly dereferenceable(16), ptr writeonly dereferenceable(16), i64)
declare i32 @printf(ptr, ...)

define void @show(ptr %label, ptr %a) {
  %v0 = load i32, ptr %a
  %p1 = getelementptr i32, ptr %a, i64 1
  %v1 = load i32, ptr %p1
  %p2 = getelementptr i32, ptr %a, i64 2
  %v2 = load i32, ptr %p2
  %p3 = getelementptr i32, ptr %a, i64 3
  %v3 = load i32, ptr %p3
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %label, i32 %v0, i32 %v1, i32 %v2, i32 %v3)
  ret void
}

define i32 @main() {
  %in = alloca [4 x i32], align 4
  %out = alloca [4 x i32], align 4
  store [4 x i32] [i32 1, i32 2, i32 3, i32 4], ptr %in
  store [4 x i32] [i32 -1, i32 -1, i32 -1, i32 -1], ptr %out
  call void @twice(ptr %in, ptr %out, i64 4)
  call void @show(ptr @in.s, ptr %in)
  call void @show(ptr @out.s, ptr %out)
  ret i32 0
}
