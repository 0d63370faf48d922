; A struct passed by value: the host passes a pointer to a copy mapped TO and
; the kernel receives a device pointer to the struct. Both IR forms: a
; first-class aggregate argument (spilled to an entry-block alloca) and a
; `byval(%P)` pointer.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; CHECK: first-class: 7 + 2.500000 * 4.000000 = 17.000000
; CHECK: byval: 1 + 0.500000 * 8.000000 = 5.000000

; P = { i32 a, double b, float c } is 24 bytes.
; IR: @.offload_sizes.combine = private unnamed_addr constant [2 x i64] [i64 24, i64 8]
; IR: @.offload_maptypes.combine = private unnamed_addr constant [2 x i64] [i64 33, i64 34]
; IR: @.offload_sizes.combine.1 = private unnamed_addr constant [2 x i64] [i64 24, i64 8]
; IR: @.offload_maptypes.combine.2 = private unnamed_addr constant [2 x i64] [i64 33, i64 34]
; IR-LABEL: define i32 @main(
; IR: %.offload_byval = alloca %P, align 8
; IR: store %P %p, ptr %.offload_byval
; IR: store ptr %.offload_byval, ptr
; IR: store ptr @.offload_sizes.combine, ptr
; IR: store ptr @.offload_maptypes.combine, ptr
; The byval pointer itself is the mapped pointer.
; IR: store ptr %s, ptr

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"
%P = type { i32, double, float }

; combine(p, out): *out = p.a + p.b * p.c
define void @combine(ptr byval(%P) %p, ptr %out) !offload.kernel !0 {
  %a = load i32, ptr %p
  %pb = getelementptr %P, ptr %p, i32 0, i32 1
  %b = load double, ptr %pb
  %pc = getelementptr %P, ptr %p, i32 0, i32 2
  %c = load float, ptr %pc
  %af = sitofp i32 %a to double
  %cd = fpext float %c to double
  %bc = fmul double %b, %cd
  %r = fadd double %af, %bc
  store double %r, ptr %out
  ret void
}
!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
%P = type { i32, double, float }

@fmt = private constant [23 x i8] c"%s: %d + %f * %f = %f\0A\00"
@first = private constant [12 x i8] c"first-class\00"
@byval = private constant [6 x i8] c"byval\00"

declare void @combine(%P, ptr writeonly dereferenceable(8))
declare i32 @printf(ptr, ...)

define void @show(ptr %label, ptr %p, ptr %out) {
  %a = load i32, ptr %p
  %pb = getelementptr %P, ptr %p, i32 0, i32 1
  %b = load double, ptr %pb
  %pc = getelementptr %P, ptr %p, i32 0, i32 2
  %c = load float, ptr %pc
  %cd = fpext float %c to double
  %r = load double, ptr %out
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %label, i32 %a, double %b, double %cd, double %r)
  ret void
}

define i32 @main() {
  %s = alloca %P, align 8
  %out = alloca double, align 8
  store %P { i32 7, double 2.5, float 4.0 }, ptr %s
  %p = load %P, ptr %s
  call void @combine(%P %p, ptr %out)
  call void @show(ptr @first, ptr %s, ptr %out)
  store %P { i32 1, double 0.5, float 8.0 }, ptr %s
  ; The same kernel, the struct as a byval pointer (the call's own type).
  call void @combine(ptr byval(%P) %s, ptr %out)
  call void @show(ptr @byval, ptr %s, ptr %out)
  ret i32 0
}
