; The same kernel launched in a loop: step(x, i) does x = x * 3 + i, i from
; -2 to 2 (the loop counter is the i32 argument). No data region: every
; launch maps x, runs and copies it back, so the host sees each step.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; x = 1
; CHECK:      i = -2: x = 1
; CHECK-NEXT: i = -1: x = 2
; CHECK-NEXT: i = 0: x = 6
; CHECK-NEXT: i = 1: x = 19
; CHECK-NEXT: i = 2: x = 59
; CHECK-NOT:  i =

; One launch in the loop body; its allocas are in the entry block.
; IR-LABEL: define i32 @main(
; IR-NEXT:  entry:
; IR:         %.offload_baseptrs = alloca [2 x ptr]
; IR:       loop:
; IR-NOT:     alloca
; IR:         call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.step.region_id.{{[0-9a-f]+}},
; IR-NOT:     call i32 @__tgt_target_kernel(
; IR:       exit:

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @step(ptr %x, i32 %i) !offload.kernel !0 {
  %v = load i64, ptr %x
  %v3 = mul i64 %v, 3
  %iw = sext i32 %i to i64
  %r = add i64 %v3, %iw
  store i64 %r, ptr %x
  ret void
}

!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@fmt = private constant [17 x i8] c"i = %d: x = %ld\0A\00"

declare void @step(ptr dereferenceable(8), i32)
declare i32 @printf(ptr, ...)

define i32 @main() {
entry:
  %x = alloca i64, align 8
  store i64 1, ptr %x
  br label %loop
loop:
  %i = phi i32 [ -2, %entry ], [ %i1, %loop ]
  call void @step(ptr %x, i32 %i)
  %v = load i64, ptr %x
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %i, i64 %v)
  %i1 = add i32 %i, 1
  %more = icmp sle i32 %i1, 2
  br i1 %more, label %loop, label %exit
exit:
  ret i32 0
}
