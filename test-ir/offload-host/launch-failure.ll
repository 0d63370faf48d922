; A launch the runtime refuses is never ignored. OMP_TARGET_OFFLOAD=DISABLED
; makes __tgt_target_kernel return -1: a call whose i32 result is used gets
; the code; an unused result goes to @__offload_launch_check, which reports
; the kernel and aborts.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s --check-prefix=OK
; RUN: env OMP_TARGET_OFFLOAD=DISABLED not --crash %t/host.exe 2>&1 | %FileCheck %s --check-prefix=FAIL

; OK: returned code 0, x = 1
; OK-NEXT: x = 2

; FAIL: returned code -1, x = 0
; FAIL-NEXT: offload: kernel 'add1' launch failed (code -1)
; FAIL-NOT: x =

; IR-LABEL: define i32 @main(
; IR: %add1.rc = call i32 @__tgt_target_kernel(
; IR-NOT: call void @__offload_launch_check
; IR: call i32 (ptr, ...) @printf(ptr @code.fmt, i32 %add1.rc,
; IR: %[[RC:add1.rc[0-9]*]] = call i32 @__tgt_target_kernel(
; IR: call void @__offload_launch_check(i32 %[[RC]], ptr @.offloading.entry_name.add1.{{[0-9a-f]+}})
; IR-LABEL: define internal void @__offload_launch_check(i32 %rc, ptr %kernel)
; IR: call i32 (ptr, ptr, ...) @fprintf(ptr %stderr, ptr @.offload.launch_failed, ptr %kernel, i32 %rc)
; IR-NEXT: call void @abort()

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

@code.fmt = private constant [27 x i8] c"returned code %d, x = %ld\0A\00"
@x.fmt = private constant [9 x i8] c"x = %ld\0A\00"

declare i32 @add1(ptr dereferenceable(8))
declare i32 @printf(ptr, ...)
declare i32 @fflush(ptr)

define i32 @main() {
  %x = alloca i64, align 8
  store i64 0, ptr %x
  %rc = call i32 @add1(ptr %x)
  %v = load i64, ptr %x
  call i32 (ptr, ...) @printf(ptr @code.fmt, i32 %rc, i64 %v)
  call i32 @fflush(ptr null)
  call i32 @add1(ptr %x)
  %w = load i64, ptr %x
  call i32 (ptr, ...) @printf(ptr @x.fmt, i64 %w)
  ret i32 0
}
