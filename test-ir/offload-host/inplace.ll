; An array updated in place (TO|FROM inferred from a plain pointer with
; dereferenceable), with an i32 length passed as a literal.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; CHECK: 2 3 4 5

; IR: %struct.__tgt_offload_entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }
; IR: @.inc.region_id = weak constant i8 0
; IR: @.offloading.entry_name.inc = internal unnamed_addr constant [4 x i8] c"inc\00", section ".llvm.rodata.offloading", align 1
; IR: @.offloading.entries = internal constant [1 x %struct.__tgt_offload_entry] [%struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.inc.region_id, ptr @.offloading.entry_name.inc, i64 0, i64 0, ptr null }], section "llvm_offload_entries", align 8
; The raw ELF, as little-endian 64-bit words ("\7FELF\02\01\01\00" = 282584257676671):
; IR: @.omp_offloading.device_image = internal unnamed_addr constant {{.*}}[i64 282584257676671, {{.*}}, section ".llvm.offloading", align 8
; IR: @.omp_offloading.descriptor = internal constant %__tgt_bin_desc { i32 1, ptr @.omp_offloading.device_images, ptr @.offloading.entries, ptr getelementptr ([1 x %struct.__tgt_offload_entry], ptr @.offloading.entries, i64 1) }
; IR: @llvm.compiler.used = appending global [1 x ptr] [ptr @.offloading.entries], section "llvm.metadata"
; IR: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @.omp_offloading.descriptor_reg, ptr null }]
; IR-LABEL: define i32 @main()
; IR: call void @__tgt_target_data_begin_mapper(ptr null, i64 -1, i32 2,
; IR: %inc.rc = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.inc.region_id, ptr %kernel_args)
; IR: call void @__tgt_target_data_end_mapper(ptr null, i64 -1, i32 2,
; IR: call void @__offload_launch_check(i32 %inc.rc, ptr @.offloading.entry_name.inc)
; IR: !{i32 7, !"openmp", i32 51}

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; inc(a, n): a[i] += 1 for i < n. Wrapped form: leading dyn_ptr, i64 slots.
define void @inc(ptr %dyn_ptr, ptr %a, i64 %n_slot) {
entry:
  %n = trunc i64 %n_slot to i32
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %p = getelementptr i32, ptr %a, i32 %i
  %v = load i32, ptr %p
  %v1 = add i32 %v, 1
  store i32 %v1, ptr %p
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@fmt = private constant [13 x i8] c"%d %d %d %d\0A\00"

declare void @inc(ptr dereferenceable(16), i32)
declare i32 @printf(ptr, ...)

define i32 @main() {
  %a = alloca [4 x i32], align 4
  store [4 x i32] [i32 1, i32 2, i32 3, i32 4], ptr %a
  call void @inc(ptr %a, i32 4)
  %v0 = load i32, ptr %a
  %p1 = getelementptr i32, ptr %a, i64 1
  %v1 = load i32, ptr %p1
  %p2 = getelementptr i32, ptr %a, i64 2
  %v2 = load i32, ptr %p2
  %p3 = getelementptr i32, ptr %a, i64 3
  %v3 = load i32, ptr %p3
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v0, i32 %v1, i32 %v2, i32 %v3)
  ret i32 0
}
