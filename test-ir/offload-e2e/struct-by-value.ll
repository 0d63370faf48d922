; A struct passed by value, end to end. offload-host maps a by-value struct TO
; and passes the device address of the copy in the argument's slot, whichever
; form the host call uses (a first-class aggregate, spilled to a stack slot,
; or a `byval(%P)` pointer). offload-wrap-kernels turns the kernel parameter
; into that pointer, whichever form the device kernel uses:
; - @combine_byval(ptr byval(%P)) (what clang emits for a 24-byte C struct):
;   the body gets a private copy, so its write to the struct stays on the
;   device and the host's struct is unchanged;
; - @combine_value(%P) (a first-class aggregate): the body loads the struct;
; - @dot2(<2 x double>, <2 x double>) (vectors by value): loaded the same way.
; Each kernel is launched with both host forms.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=offload-wrap-kernels %t/dev.ll -S -o %t/dev.wrapped.ll
; RUN: %FileCheck %s --check-prefix=DEV < %t/dev.wrapped.ll
; RUN: %device-image %t/dev.wrapped.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; P = { -7, 2.5, -0.75 } then { 3, -1.25, 0.5 }: r = a + b * c
; CHECK:      byval kernel, first-class call: -8.875000 (host a = -7)
; CHECK-NEXT: byval kernel, byval call: 2.375000 (host a = 3)
; CHECK-NEXT: value kernel, first-class call: -8.875000
; CHECK-NEXT: value kernel, byval call: 2.375000
; {1.5, -2} . {4, 0.25} = 5.5
; CHECK-NEXT: vector kernel, first-class call: 5.500000
; CHECK-NEXT: vector kernel, byval call: 5.500000

; DEV-LABEL: define void @combine_byval(ptr %dyn_ptr, ptr %p, ptr %out) !offload.kernel !0 !offload.wrapped !0 {
; DEV-NEXT:    %p.copy = alloca %P, align 8
; DEV-NEXT:    call void @llvm.memcpy.p0.p0.i64(ptr align 8 %p.copy, ptr align 1 %p, i64 24, i1 false)
; DEV-LABEL: define void @combine_value(ptr %dyn_ptr, ptr %p, ptr %out) !offload.kernel !0 !offload.wrapped !0 {
; DEV-NEXT:    %p.load = load %P, ptr %p, align 1
; DEV-NEXT:    %a = extractvalue %P %p.load, 0
; DEV-LABEL: define void @dot2(ptr %dyn_ptr, ptr %v, ptr %w, ptr %out) !offload.kernel !0 !offload.wrapped !0 {
; DEV-NEXT:    %v.load = load <2 x double>, ptr %v, align 1
; DEV-NEXT:    %w.load = load <2 x double>, ptr %w, align 1

; Both host forms: a 24-byte TO mapping, the output FROM.
; IR: @.offload_sizes.combine_byval = private unnamed_addr constant [2 x i64] [i64 24, i64 8]
; IR: @.offload_maptypes.combine_byval = private unnamed_addr constant [2 x i64] [i64 33, i64 34]
; IR: @.offload_sizes.dot2 = private unnamed_addr constant [3 x i64] [i64 16, i64 16, i64 8]
; IR: @.offload_maptypes.dot2 = private unnamed_addr constant [3 x i64] [i64 33, i64 33, i64 34]

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
%P = type { i32, double, float }

; *out = p.a + p.b * p.c; then p.a = 0 (its own copy: byval lets it write)
define void @combine_byval(ptr byval(%P) align 8 %p, ptr %out) !offload.kernel !0 {
  %a = load i32, ptr %p
  %pb = getelementptr %P, ptr %p, i32 0, i32 1
  %b = load double, ptr %pb
  %pc = getelementptr %P, ptr %p, i32 0, i32 2
  %c = load float, ptr %pc
  store i32 0, ptr %p
  %af = sitofp i32 %a to double
  %cd = fpext float %c to double
  %bc = fmul double %b, %cd
  %r = fadd double %af, %bc
  store double %r, ptr %out
  ret void
}

define void @combine_value(%P %p, ptr %out) !offload.kernel !0 {
  %a = extractvalue %P %p, 0
  %b = extractvalue %P %p, 1
  %c = extractvalue %P %p, 2
  %af = sitofp i32 %a to double
  %cd = fpext float %c to double
  %bc = fmul double %b, %cd
  %r = fadd double %af, %bc
  store double %r, ptr %out
  ret void
}

; *out = v . w
define void @dot2(<2 x double> %v, <2 x double> %w, ptr %out) !offload.kernel !0 {
  %m = fmul <2 x double> %v, %w
  %m0 = extractelement <2 x double> %m, i32 0
  %m1 = extractelement <2 x double> %m, i32 1
  %r = fadd double %m0, %m1
  store double %r, ptr %out
  ret void
}

!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"
%P = type { i32, double, float }

@p1 = global %P { i32 -7, double 2.5, float -0.75 }
@p2 = global %P { i32 3, double -1.25, float 0.5 }
@v = global <2 x double> <double 1.5, double -2.0>
@w = global <2 x double> <double 4.0, double 0.25>
@fmt.host = private constant [22 x i8] c"%s: %f (host a = %d)\0A\00"
@fmt = private constant [8 x i8] c"%s: %f\0A\00"
@byval.first = private constant [31 x i8] c"byval kernel, first-class call\00"
@byval.byval = private constant [25 x i8] c"byval kernel, byval call\00"
@value.first = private constant [31 x i8] c"value kernel, first-class call\00"
@value.byval = private constant [25 x i8] c"value kernel, byval call\00"
@vector.first = private constant [32 x i8] c"vector kernel, first-class call\00"
@vector.byval = private constant [26 x i8] c"vector kernel, byval call\00"

declare void @combine_byval(ptr byval(%P), ptr writeonly dereferenceable(8))
declare void @combine_value(%P, ptr writeonly dereferenceable(8))
declare void @dot2(<2 x double>, <2 x double>, ptr writeonly dereferenceable(8))
declare i32 @printf(ptr, ...)

define i32 @main() {
  %out = alloca double, align 8
  ; byval kernel: the host's struct keeps a (the kernel wrote its own copy).
  %s1 = load %P, ptr @p1
  call void @combine_byval(%P %s1, ptr %out)
  %r1 = load double, ptr %out
  %a1 = load i32, ptr @p1
  call i32 (ptr, ...) @printf(ptr @fmt.host, ptr @byval.first, double %r1, i32 %a1)
  call void @combine_byval(ptr byval(%P) @p2, ptr %out)
  %r2 = load double, ptr %out
  %a2 = load i32, ptr @p2
  call i32 (ptr, ...) @printf(ptr @fmt.host, ptr @byval.byval, double %r2, i32 %a2)
  ; value kernel
  %s3 = load %P, ptr @p1
  call void @combine_value(%P %s3, ptr %out)
  %r3 = load double, ptr %out
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @value.first, double %r3)
  call void @combine_value(ptr byval(%P) @p2, ptr %out)
  %r4 = load double, ptr %out
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @value.byval, double %r4)
  ; vector kernel
  %v = load <2 x double>, ptr @v
  %w = load <2 x double>, ptr @w
  call void @dot2(<2 x double> %v, <2 x double> %w, ptr %out)
  %r5 = load double, ptr %out
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @vector.first, double %r5)
  call void @dot2(ptr byval(<2 x double>) @v, ptr byval(<2 x double>) @w, ptr %out)
  %r6 = load double, ptr %out
  call i32 (ptr, ...) @printf(ptr @fmt, ptr @vector.byval, double %r6)
  ret i32 0
}
