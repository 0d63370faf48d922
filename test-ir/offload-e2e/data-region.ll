; A data region spanning several launches of a natural-signature kernel
; add(x, k): x += k. __offload_data_begin maps x TO|FROM once; launches inside
; find it present and copy nothing, so the host's x stays 0 while the device
; copy counts up. __offload_data_update FROM copies the device value to the
; host; the host then changes x and __offload_data_update TO sends it to the
; device; __offload_data_end copies the final device value back.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s
; RUN: env LIBOMPTARGET_INFO=-1 %run-offload %t/dev.so %t/host.exe 2>&1 | %FileCheck %s --check-prefix=INFO

; CHECK:      add 1: host sees 0
; CHECK-NEXT: add 2: host sees 0
; CHECK-NEXT: add 3: host sees 0
; CHECK-NEXT: after update from device: host sees 6
; CHECK-NEXT: host sets 100, update to device
; CHECK-NEXT: add -4: host sees 100
; CHECK-NEXT: after end: host sees 96

; Copies: begin (in), update FROM (out), update TO (in), end (out); the
; launches copy nothing.
; INFO:     Copying data from host to device
; INFO-NOT: Copying data
; INFO:     Copying data from device to host
; INFO-NOT: Copying data
; INFO:     Copying data from host to device
; INFO-NOT: Copying data
; INFO:     Copying data from device to host
; INFO-NOT: Copying data

; IR-LABEL: define void @launch(
; IR:         call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.add.region_id.{{[0-9a-f]+}},
; IR-LABEL: define i32 @main(
; IR:         store i64 3, ptr %.offload_maptypes,
; IR-NEXT:    call void @__tgt_target_data_begin_mapper(ptr null, i64 -1, i32 1,
; IR:         store i64 2, ptr %.offload_maptypes{{[0-9]+}},
; IR-NEXT:    call void @__tgt_target_data_update_mapper(ptr null, i64 -1, i32 1,
; IR:         store i64 1, ptr %.offload_maptypes{{[0-9]+}},
; IR-NEXT:    call void @__tgt_target_data_update_mapper(ptr null, i64 -1, i32 1,
; IR:         store i64 3, ptr %.offload_maptypes{{[0-9]+}},
; IR-NEXT:    call void @__tgt_target_data_end_mapper(ptr null, i64 -1, i32 1,

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define void @add(ptr %x, i32 %k) !offload.kernel !0 {
  %v = load i64, ptr %x
  %kw = sext i32 %k to i64
  %r = add i64 %v, %kw
  store i64 %r, ptr %x
  ret void
}

!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@x = global i64 0
@add.fmt = private constant [23 x i8] c"add %d: host sees %ld\0A\00"
@update.fmt = private constant [41 x i8] c"after update from device: host sees %ld\0A\00"
@set.fmt = private constant [33 x i8] c"host sets %ld, update to device\0A\00"
@end.fmt = private constant [26 x i8] c"after end: host sees %ld\0A\00"

declare void @__offload_data_begin(ptr, i64, i64)
declare void @__offload_data_update(ptr, i64, i64)
declare void @__offload_data_end(ptr, i64, i64)
declare void @add(ptr dereferenceable(8), i32)
declare i32 @printf(ptr, ...)

define void @launch(i32 %k) {
  call void @add(ptr @x, i32 %k)
  %v = load i64, ptr @x
  call i32 (ptr, ...) @printf(ptr @add.fmt, i32 %k, i64 %v)
  ret void
}

define i32 @main() {
  call void @__offload_data_begin(ptr @x, i64 8, i64 3)
  call void @launch(i32 1)
  call void @launch(i32 2)
  call void @launch(i32 3)
  call void @__offload_data_update(ptr @x, i64 8, i64 2)
  %u = load i64, ptr @x
  call i32 (ptr, ...) @printf(ptr @update.fmt, i64 %u)
  store i64 100, ptr @x
  call i32 (ptr, ...) @printf(ptr @set.fmt, i64 100)
  call void @__offload_data_update(ptr @x, i64 8, i64 1)
  call void @launch(i32 -4)
  call void @__offload_data_end(ptr @x, i64 8, i64 3)
  %e = load i64, ptr @x
  call i32 (ptr, ...) @printf(ptr @end.fmt, i64 %e)
  ret i32 0
}
