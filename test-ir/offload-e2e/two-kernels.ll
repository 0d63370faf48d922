; Two kernels from one image, chosen by the pass parameter
; offload-wrap-kernels<kernels=vadd:vscale> instead of metadata (the form for
; front ends that cannot attach metadata). A helper they call and an exported
; function that is not named stay unwrapped. The host launches both kernels
; on the same arrays: c = a + b, then c = c * s + t.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes='offload-wrap-kernels<kernels=vadd:vscale>' %t/dev.ll -S -o %t/dev.wrapped.ll
; RUN: %FileCheck %s --check-prefix=DEV < %t/dev.wrapped.ll
; RUN: %device-image %t/dev.wrapped.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; a = {1, -2, 3}, b = {10, 20, -30}: c = {11, 18, -27};
; then s = -2, t = 1000000000000 (an i64 past 32 bits): c * s + t.
; CHECK:      vadd: 11 18 -27
; CHECK-NEXT: vscale: 999999999978 999999999964 1000000000054

; DEV-LABEL: define internal i64 @add_helper(i64 %x, i64 %y) {
; DEV-LABEL: define void @not_a_kernel(i32 %x) {
; DEV-LABEL: define void @vadd(ptr %dyn_ptr, ptr %c, ptr %a, ptr %b, i64 %n) !offload.wrapped !0 {
; DEV-LABEL: define void @vscale(ptr %dyn_ptr, ptr %c, i64 %s, i64 %t, i64 %n) !offload.wrapped !0 {
; DEV-NEXT:  entry:
; DEV-NEXT:    %s.trunc = trunc i64 %s to i32
; DEV-NEXT:    %n.trunc = trunc i64 %n to i32

; One entry per kernel the image exports (not_a_kernel too: the entries depend
; on the image alone, so every module built against it emits the same ones),
; in one array in the image's comdat.
; IR: @.offloading.entries.[[H:[0-9a-f]+]] = linkonce_odr hidden constant [3 x %struct.__tgt_offload_entry] [%struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.not_a_kernel.region_id.[[H]], ptr @.offloading.entry_name.not_a_kernel.[[H]], i64 0, i64 0, ptr null }, %struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.vadd.region_id.[[H]], ptr @.offloading.entry_name.vadd.[[H]], i64 0, i64 0, ptr null }, %struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.vscale.region_id.[[H]], ptr @.offloading.entry_name.vscale.[[H]], i64 0, i64 0, ptr null }], section "offload_passes_entries", comdat($.omp_offloading.device_image.[[H]]), align 8
; IR-LABEL: define i32 @main(
; IR: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.vadd.region_id.[[H]],
; IR: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.vscale.region_id.[[H]],

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

define internal i64 @add_helper(i64 %x, i64 %y) {
  %r = add i64 %x, %y
  ret i64 %r
}

define void @not_a_kernel(i32 %x) {
  ret void
}

; c[i] = a[i] + b[i], i < n
define void @vadd(ptr %c, ptr %a, ptr %b, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %pa = getelementptr i64, ptr %a, i32 %i
  %pb = getelementptr i64, ptr %b, i32 %i
  %pc = getelementptr i64, ptr %c, i32 %i
  %va = load i64, ptr %pa
  %vb = load i64, ptr %pb
  %r = call i64 @add_helper(i64 %va, i64 %vb)
  store i64 %r, ptr %pc
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

; c[i] = c[i] * s + t, i < n
define void @vscale(ptr %c, i32 %s, i64 %t, i32 %n) {
entry:
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %pc = getelementptr i64, ptr %c, i32 %i
  %v = load i64, ptr %pc
  %sw = sext i32 %s to i64
  %vs = mul i64 %v, %sw
  %r = call i64 @add_helper(i64 %vs, i64 %t)
  store i64 %r, ptr %pc
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@a = global [3 x i64] [i64 1, i64 -2, i64 3]
@b = global [3 x i64] [i64 10, i64 20, i64 -30]
@c = global [3 x i64] zeroinitializer
@s = global i32 -2
@t = global i64 1000000000000
@fmt = private constant [17 x i8] c"%s: %ld %ld %ld\0A\00"
@vadd.name = private constant [5 x i8] c"vadd\00"
@vscale.name = private constant [7 x i8] c"vscale\00"

declare void @vadd(ptr writeonly dereferenceable(24), ptr readonly dereferenceable(24), ptr readonly dereferenceable(24), i32)
declare void @vscale(ptr dereferenceable(24), i32, i64, i32)
declare i32 @printf(ptr, ...)

define void @show(ptr %name) {
  %v0 = load i64, ptr @c
  %p1 = getelementptr i64, ptr @c, i64 1
  %v1 = load i64, ptr %p1
  %p2 = getelementptr i64, ptr @c, i64 2
  %v2 = load i64, ptr %p2
  call i32 (ptr, ...) @printf(ptr @fmt, ptr %name, i64 %v0, i64 %v1, i64 %v2)
  ret void
}

define i32 @main() {
  call void @vadd(ptr @c, ptr @a, ptr @b, i32 3)
  call void @show(ptr @vadd.name)
  %s = load i32, ptr @s
  %t = load i64, ptr @t
  call void @vscale(ptr @c, i32 %s, i64 %t, i32 3)
  call void @show(ptr @vscale.name)
  ret i32 0
}
