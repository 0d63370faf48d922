; Every parameter kind of a CPU kernel marked !offload.kernel: a leading
; `ptr %dyn_ptr`, then one 8-byte slot per parameter. Pointers and i64 stay;
; narrower integers arrive as i64 and are truncated; half/bfloat/float arrive
; as i64, are truncated to their width and bitcast; double is bitcast.
; RUN: %opt -passes=offload-wrap-kernels -S %s | %FileCheck %s
;
; The rewritten kernels move to the end of the module (the C API cannot insert
; a function at a position), after the functions that were not rewritten.

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; Not a kernel: untouched.
; CHECK-LABEL: define void @helper(i32 %x) {
define void @helper(i32 %x) {
  ret void
}

; CHECK-LABEL: define void @kinds(ptr %dyn_ptr, ptr %p, i64 %b1, i64 %b8, i64 %b16, i64 %b32, i64 %b64, i64 %h, i64 %bf, i64 %f, i64 %d) !offload.kernel !0 !offload.wrapped !0 {
; CHECK-NEXT:  %b1.trunc = trunc i64 %b1 to i1
; CHECK-NEXT:  %b8.trunc = trunc i64 %b8 to i8
; CHECK-NEXT:  %b16.trunc = trunc i64 %b16 to i16
; CHECK-NEXT:  %b32.trunc = trunc i64 %b32 to i32
; CHECK-NEXT:  %h.trunc = trunc i64 %h to i16
; CHECK-NEXT:  %h.bitcast = bitcast i16 %h.trunc to half
; CHECK-NEXT:  %bf.trunc = trunc i64 %bf to i16
; CHECK-NEXT:  %bf.bitcast = bitcast i16 %bf.trunc to bfloat
; CHECK-NEXT:  %f.trunc = trunc i64 %f to i32
; CHECK-NEXT:  %f.bitcast = bitcast i32 %f.trunc to float
; CHECK-NEXT:  %d.bitcast = bitcast i64 %d to double
; CHECK-NEXT:  store volatile i1 %b1.trunc, ptr %p, align 1
; CHECK-NEXT:  store volatile i8 %b8.trunc, ptr %p, align 1
; CHECK-NEXT:  store volatile i16 %b16.trunc, ptr %p, align 2
; CHECK-NEXT:  store volatile i32 %b32.trunc, ptr %p, align 4
; CHECK-NEXT:  store volatile i64 %b64, ptr %p, align 8
; CHECK-NEXT:  store volatile half %h.bitcast, ptr %p, align 2
; CHECK-NEXT:  store volatile bfloat %bf.bitcast, ptr %p, align 2
; CHECK-NEXT:  store volatile float %f.bitcast, ptr %p, align 4
; CHECK-NEXT:  store volatile double %d.bitcast, ptr %p, align 8
; CHECK-NEXT:  ret void
; CHECK-NEXT: }
define void @kinds(ptr %p, i1 %b1, i8 %b8, i16 %b16, i32 %b32, i64 %b64, half %h, bfloat %bf, float %f, double %d) !offload.kernel !0 {
  store volatile i1 %b1, ptr %p
  store volatile i8 %b8, ptr %p
  store volatile i16 %b16, ptr %p
  store volatile i32 %b32, ptr %p
  store volatile i64 %b64, ptr %p
  store volatile half %h, ptr %p
  store volatile bfloat %bf, ptr %p
  store volatile float %f, ptr %p
  store volatile double %d, ptr %p
  ret void
}

; Unnamed parameters stay unnamed; no parameters at all still gets the dyn_ptr.
; CHECK-LABEL: define void @unnamed(ptr %dyn_ptr, i64 %0, ptr %1) !offload.kernel !0 !offload.wrapped !0 {
; CHECK-NEXT:  %3 = trunc i64 %0 to i32
; CHECK-NEXT:  store i32 %3, ptr %1, align 4
define void @unnamed(i32, ptr) !offload.kernel !0 {
  store i32 %0, ptr %1
  ret void
}

; CHECK-LABEL: define void @no_params(ptr %dyn_ptr) !offload.kernel !0 !offload.wrapped !0 {
define void @no_params() !offload.kernel !0 {
  ret void
}


!0 = !{}
