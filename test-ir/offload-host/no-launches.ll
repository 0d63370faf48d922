; A module without launches or data-region calls is left exactly as it was:
; no registration, no module flag (the pass reports no change).
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o %t/after.ll
; RUN: %opt -passes=verify %t/host.ll -S -o %t/before.ll
; RUN: diff %t/before.ll %t/after.ll
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -disable-output -print-changed 2>&1 | %FileCheck %s
; CHECK: *** IR Dump After OffloadHostPass on [module] omitted because no change ***

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"
define void @k() !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- host.ll
target triple = "x86_64-unknown-linux-gnu"
; @k is defined here, so calling it is an ordinary call, not a launch.
declare i32 @printf(ptr, ...)
define void @k(ptr %p) {
  ret void
}
define void @f() {
  call void @k(ptr null)
  call i32 (ptr, ...) @printf(ptr null)
  ret void
}
