; Kernels named by the pass parameter (for front ends that cannot attach
; metadata, e.g. rustc -Cpasses='offload-wrap-kernels<kernels=a:b>'): names
; are separated by ':' and the key may repeat. Marked kernels are wrapped as
; well; other functions stay.
; RUN: %opt -passes='offload-wrap-kernels<kernels=first:_RNvCs1234_5crate6second>' -S %s | %FileCheck %s
; RUN: %opt -passes='offload-wrap-kernels<kernels=first;kernels=_RNvCs1234_5crate6second>' -S %s | %FileCheck %s

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK-LABEL: define void @not_named(double %d)
define void @not_named(double %d) {
  ret void
}

; CHECK-LABEL: define void @first(ptr %dyn_ptr, ptr %p, i64 %n) !offload.wrapped !0 {
; CHECK-NEXT:    %n.trunc = trunc i64 %n to i32
define void @first(ptr %p, i32 %n) {
  store i32 %n, ptr %p
  ret void
}

; CHECK-LABEL: define void @_RNvCs1234_5crate6second(ptr %dyn_ptr, i64 %d) !offload.wrapped !0 {
; CHECK-NEXT:    %d.bitcast = bitcast i64 %d to double
define void @_RNvCs1234_5crate6second(double %d) {
  %x = fadd double %d, 1.0
  ret void
}

; CHECK-LABEL: define void @marked(ptr %dyn_ptr) !offload.kernel !0 !offload.wrapped !0 {
define void @marked() !offload.kernel !0 {
  ret void
}

!0 = !{}
