; i32, i64, float and double scalars with natural types in the kernel
; signature: offload-host passes each as LITERAL|IMPLICIT, its value (or bit
; pattern) zero-extended into an 8-byte slot; offload-wrap-kernels makes each
; parameter an i64 slot and truncates / bitcasts it back. All values are
; negative or fractional: an i32 that was not truncated, an i64 cut to 32
; bits, or a float or double read from the wrong register or half of the slot
; would each change a printed number. The last line depends on all four.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=offload-wrap-kernels %t/dev.ll -S -o %t/dev.wrapped.ll
; RUN: %FileCheck %s --check-prefix=DEV < %t/dev.wrapped.ll
; RUN: %device-image %t/dev.wrapped.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; i = -7, l = -4294967296 (-2^32), f = -0.375, d = 2.5
; CHECK:      i * 3 = -21
; CHECK-NEXT: l - 1 = -4294967297
; CHECK-NEXT: f * 4 = -1.500000
; CHECK-NEXT: d * 2 = 5.000000
; CHECK-NEXT: (i + f) * d + l = -4294967314.437500

; DEV-LABEL: define void @mix(ptr %dyn_ptr, ptr %out, i64 %i, i64 %l, i64 %f, i64 %d) !offload.kernel !0 !offload.wrapped !0 {
; DEV-NEXT:    %i.trunc = trunc i64 %i to i32
; DEV-NEXT:    %f.trunc = trunc i64 %f to i32
; DEV-NEXT:    %f.bitcast = bitcast i32 %f.trunc to float
; DEV-NEXT:    %d.bitcast = bitcast i64 %d to double

; IR: @.offload_sizes.mix = private unnamed_addr constant [5 x i64] [i64 40, i64 4, i64 8, i64 4, i64 8]
; One map-type array for the one-call launch: TARGET_PARAM (0x20) on every argument,
; LITERAL|IMPLICIT (0x300) on scalars, FROM (2) on the output.
; IR: @.offload_maptypes.mix = private unnamed_addr constant [5 x i64] [i64 34, i64 800, i64 800, i64 800, i64 800]

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; out = { i * 3, l - 1, f * 4, d * 2, (i + f) * d + l }
define void @mix(ptr %out, i32 %i, i64 %l, float %f, double %d) !offload.kernel !0 {
  %i3 = mul i32 %i, 3
  %i3w = sext i32 %i3 to i64
  store i64 %i3w, ptr %out
  %l1 = sub i64 %l, 1
  %p1 = getelementptr i64, ptr %out, i64 1
  store i64 %l1, ptr %p1
  %f4 = fmul float %f, 4.0
  %f4d = fpext float %f4 to double
  %p2 = getelementptr double, ptr %out, i64 2
  store double %f4d, ptr %p2
  %d2 = fmul double %d, 2.0
  %p3 = getelementptr double, ptr %out, i64 3
  store double %d2, ptr %p3
  %id = sitofp i32 %i to double
  %fd = fpext float %f to double
  %if = fadd double %id, %fd
  %ifd = fmul double %if, %d
  %ld = sitofp i64 %l to double
  %all = fadd double %ifd, %ld
  %p4 = getelementptr double, ptr %out, i64 4
  store double %all, ptr %p4
  ret void
}

!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; Globals, so the arguments are not constants at the call.
@i = global i32 -7
@l = global i64 -4294967296
@f = global float -0.375
@d = global double 2.5
@fmt = private constant [68 x i8] c"i * 3 = %ld\0Al - 1 = %ld\0Af * 4 = %f\0Ad * 2 = %f\0A(i + f) * d + l = %f\0A\00"

declare void @mix(ptr writeonly dereferenceable(40), i32, i64, float, double)
declare i32 @printf(ptr, ...)

define i32 @main() {
  %out = alloca [5 x i64], align 8
  %i = load i32, ptr @i
  %l = load i64, ptr @l
  %f = load float, ptr @f
  %d = load double, ptr @d
  call void @mix(ptr %out, i32 %i, i64 %l, float %f, double %d)
  %o0 = load i64, ptr %out
  %p1 = getelementptr i64, ptr %out, i64 1
  %o1 = load i64, ptr %p1
  %p2 = getelementptr double, ptr %out, i64 2
  %o2 = load double, ptr %p2
  %p3 = getelementptr double, ptr %out, i64 3
  %o3 = load double, ptr %p3
  %p4 = getelementptr double, ptr %out, i64 4
  %o4 = load double, ptr %p4
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %o0, i64 %o1, double %o2, double %o3, double %o4)
  ret i32 0
}
