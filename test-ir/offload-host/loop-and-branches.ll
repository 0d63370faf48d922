; The same kernel launched in a loop (5 times), and launches in both arms of
; a branch. Allocas stay in the entry block, so the loop does not grow the
; stack; each launch maps, runs and copies back.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s
; RUN: %run-offload %t/dev.so %t/host.exe odd | %FileCheck %s --check-prefix=ODD

; CHECK: after loop: 5
; CHECK: after branch: 10
; ODD: after loop: 5
; ODD: after branch: 6

; IR: @.offloading.entries.{{[0-9a-f]+}} = linkonce_odr hidden constant [2 x %struct.__tgt_offload_entry]
; IR-LABEL: define i32 @main(
; IR-NEXT: entry:
; IR-NEXT: %.offload_baseptrs{{[0-9]*}} = alloca [1 x ptr]
; IR-NOT: {{^[a-z]+:}}
; IR: %kernel_args{{[0-9]*}} = alloca %struct.__tgt_kernel_arguments
; IR-NOT: {{^[a-z]+:}}
; IR: %kernel_args{{[0-9]*}} = alloca %struct.__tgt_kernel_arguments
; IR-NOT: {{^[a-z]+:}}
; IR: %kernel_args{{[0-9]*}} = alloca %struct.__tgt_kernel_arguments
; IR: loop:
; IR-NOT: alloca
; IR: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.add1.region_id.{{[0-9a-f]+}},
; IR: even:
; IR-NOT: alloca
; IR: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.double.region_id.{{[0-9a-f]+}},
; IR: odd:
; IR-NOT: alloca
; IR: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.add1.region_id.{{[0-9a-f]+}},

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

define void @add1(ptr %x) !offload.kernel !0 {
  %v = load i64, ptr %x
  %v1 = add i64 %v, 1
  store i64 %v1, ptr %x
  ret void
}
define void @double(ptr %x) !offload.kernel !0 {
  %v = load i64, ptr %x
  %v1 = shl i64 %v, 1
  store i64 %v1, ptr %x
  ret void
}
!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@loop.fmt = private constant [17 x i8] c"after loop: %ld\0A\00"
@branch.fmt = private constant [19 x i8] c"after branch: %ld\0A\00"

declare void @add1(ptr dereferenceable(8))
declare void @double(ptr dereferenceable(8))
declare i32 @printf(ptr, ...)

; With an argument: add 1 once more, else double.
define i32 @main(i32 %argc, ptr %argv) {
entry:
  %x = alloca i64, align 8
  store i64 0, ptr %x
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  call void @add1(ptr %x)
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, 5
  br i1 %more, label %loop, label %done
done:
  %v = load i64, ptr %x
  call i32 (ptr, ...) @printf(ptr @loop.fmt, i64 %v)
  %has_arg = icmp sgt i32 %argc, 1
  br i1 %has_arg, label %odd, label %even
even:
  call void @double(ptr %x)
  br label %join
odd:
  call void @add1(ptr %x)
  br label %join
join:
  %w = load i64, ptr %x
  call i32 (ptr, ...) @printf(ptr @branch.fmt, i64 %w)
  ret i32 0
}
