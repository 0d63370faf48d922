; An explicit data region: __offload_data_begin maps x (TO|FROM) once; four
; launches inside find it present and copy nothing, so the host's own copy
; keeps its old value until __offload_data_update (FROM) or the end of the
; region copies the device value back.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s
; RUN: env LIBOMPTARGET_INFO=-1 %run-offload %t/dev.so %t/host.exe 2>&1 | %FileCheck %s --check-prefix=INFO

; CHECK: launch 1: host sees 0
; CHECK-NEXT: launch 2: host sees 0
; CHECK-NEXT: launch 3: host sees 0
; CHECK-NEXT: after update: host sees 3
; CHECK-NEXT: launch 4: host sees 3
; CHECK-NEXT: after end: host sees 4

; One copy in (the region's begin), two copies out (update and end).
; INFO-COUNT-1: Copying data from host to device
; INFO-NOT: Copying data from host to device
; INFO-COUNT-2: Copying data from device to host
; INFO-NOT: Copying data

; IR-LABEL: define i32 @main(
; IR: store i64 3, ptr %.offload_maptypes
; IR: call void @__tgt_target_data_begin_mapper(ptr null, i64 -1, i32 1, ptr %.offload_baseptrs, ptr %.offload_ptrs, ptr %.offload_sizes, ptr %.offload_maptypes, ptr null, ptr null)
; IR: call void @__tgt_target_data_update_mapper(ptr null, i64 -1, i32 1,
; IR: call void @__tgt_target_data_end_mapper(ptr null, i64 -1, i32 1,

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

define void @add1(ptr %x) !offload.kernel !0 {
  %v = load i64, ptr %x
  %v1 = add i64 %v, 1
  store i64 %v1, ptr %x
  ret void
}
!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@launch.fmt = private constant [26 x i8] c"launch %d: host sees %ld\0A\00"
@update.fmt = private constant [29 x i8] c"after update: host sees %ld\0A\00"
@end.fmt = private constant [26 x i8] c"after end: host sees %ld\0A\00"

declare void @__offload_data_begin(ptr, i64, i64)
declare void @__offload_data_update(ptr, i64, i64)
declare void @__offload_data_end(ptr, i64, i64)
declare void @add1(ptr dereferenceable(8))
declare i32 @printf(ptr, ...)

define void @launch(i32 %i, ptr %x) {
  call void @add1(ptr %x)
  %v = load i64, ptr %x
  call i32 (ptr, ...) @printf(ptr @launch.fmt, i32 %i, i64 %v)
  ret void
}

define i32 @main() {
  %x = alloca i64, align 8
  store i64 0, ptr %x
  call void @__offload_data_begin(ptr %x, i64 8, i64 3)
  call void @launch(i32 1, ptr %x)
  call void @launch(i32 2, ptr %x)
  call void @launch(i32 3, ptr %x)
  call void @__offload_data_update(ptr %x, i64 8, i64 2)
  %u = load i64, ptr %x
  call i32 (ptr, ...) @printf(ptr @update.fmt, i64 %u)
  call void @launch(i32 4, ptr %x)
  call void @__offload_data_end(ptr %x, i64 8, i64 3)
  %e = load i64, ptr %x
  call i32 (ptr, ...) @printf(ptr @end.fmt, i64 %e)
  ret i32 0
}
