; Found by the campaign (fuzz/campaign.py, offload-host): a launch's used i32
; result (the runtime's return code) passed to a later launch, as a literal
; or as a slice's length, or to a data-region call as its size. Lowering the
; first launch replaces its call; the later launch and the data call kept the
; erased call as their argument, so the output used a deleted value ("zext
; void <badref>", or a crash). Arguments are now read from the call when it
; is lowered. Also found: an entry block that starts with (empty) phis got
; the launch allocas in front of them ("PHI nodes not grouped at top").
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o %t/out.ll
; RUN: %FileCheck %s < %t/out.ll
; RUN: %llc -filetype=obj %t/out.ll -o %t/out.o

; CHECK-LABEL: define i32 @f(
; CHECK-NEXT: %e = phi i32
; CHECK-NEXT: %.offload_baseptrs{{[0-9]*}} = alloca
; CHECK: %a.rc = call i32 @__tgt_target_kernel({{.*}}@.a.region_id
; The literal: the return code, zero-extended, as the base pointer.
; CHECK: [[Z:%[0-9]+]] = zext i32 %a.rc to i64
; CHECK-NEXT: [[P:%[0-9]+]] = inttoptr i64 [[Z]] to ptr
; CHECK: store ptr [[P]], ptr
; CHECK: %b.rc = call i32 @__tgt_target_kernel({{.*}}@.b.region_id
; The slice length: 4-byte elements times the return code.
; CHECK: [[L:%[0-9]+]] = zext i32 %b.rc to i64
; CHECK-NEXT: mul i64 [[L]], 4
; The data region's size.
; CHECK: %b.rc[[N:[0-9]+]] = call i32 @__tgt_target_kernel(
; CHECK: [[S:%[0-9]+]] = zext i32 %b.rc[[N]] to i64
; CHECK-NEXT: store i64 [[S]], ptr %.offload_sizes
; CHECK-NEXT: store i64 1, ptr %.offload_maptypes
; CHECK-NEXT: call void @__tgt_target_data_begin_mapper(

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"
define void @a() !offload.kernel !0 {
  ret void
}
define void @b(i32 %x, ptr %p, i32 %n) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

declare i32 @a()
declare i32 @b(i32, ptr, i32)
declare void @__offload_data_begin(ptr, i32, i64)

define i32 @f(ptr %p) {
  %e = phi i32
  %r1 = call i32 @a()
  %r2 = call i32 @b(i32 %r1, ptr %p, i32 %r1), !offload.launch !0
  %r3 = call i32 @b(i32 0, ptr %p, i32 %r2), !offload.launch !0
  call void @__offload_data_begin(ptr %p, i32 %r3, i64 1)
  ret i32 %r3
}

; Argument 1: TO|FROM, 4-byte elements, count in argument 2.
!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 3,
       i64 0, i64 0, i64 0, i64 3, i64 4, i64 3, i64 0, i64 0, i64 0}
