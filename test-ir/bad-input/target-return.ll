; A kernel returning a type inkwell cannot wrap (`target(...)`) is wrapped
; like any other: the return type is carried over as it is, never through
; inkwell (which would panic).
; RUN: %opt -passes=offload-wrap-kernels -S %s | %FileCheck %s
target triple = "x86_64-unknown-linux-gnu"

; CHECK: define target("opaque.event") @k(ptr %dyn_ptr, i64 %n) !offload.kernel !0 !offload.wrapped !0 {
; CHECK-NEXT: %n.trunc = trunc i64 %n to i32
define target("opaque.event") @k(i32 %n) !offload.kernel !0 {
  ret target("opaque.event") poison
}
!0 = !{}
