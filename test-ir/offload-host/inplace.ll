; An array updated in place (TO|FROM inferred from a plain pointer with
; dereferenceable), with an i32 length passed as a literal.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; CHECK: 2 3 4 5

; The registration (registration.rs): everything keyed by the image digest H
; and, but the region ids, linkonce_odr hidden in one comdat named after the
; image global, so modules built against one image link to one copy,
; registered once.
; IR: %struct.__tgt_offload_entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }
; IR: $.omp_offloading.device_image.[[H:[0-9a-f]{16}]] = comdat any
; IR: @.inc.region_id.[[H]] = weak constant i8 0
; IR: @.offloading.entry_name.inc.[[H]] = linkonce_odr hidden unnamed_addr constant [4 x i8] c"inc\00", section ".llvm.rodata.offloading", comdat($.omp_offloading.device_image.[[H]]), align 1
; IR: @.offloading.entries.[[H]] = linkonce_odr hidden constant [1 x %struct.__tgt_offload_entry] [%struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.inc.region_id.[[H]], ptr @.offloading.entry_name.inc.[[H]], i64 0, i64 0, ptr null }], section "offload_passes_entries", comdat($.omp_offloading.device_image.[[H]]), align 8
; The whole OffloadBinary, as little-endian 64-bit words (magic 10 FF 10 AD,
; version 1 = 7198539536), in a section of its own:
; IR: @.omp_offloading.device_image.[[H]] = linkonce_odr hidden unnamed_addr constant {{.*}}[i64 7198539536, {{.*}}, section ".offload_passes.image", comdat, align 8
; ImageStart is the entry's ImageOffset (152 with the triple and arch strings), ImageEnd that + ImageSize:
; IR: @.omp_offloading.device_images.[[H]] = linkonce_odr hidden unnamed_addr constant [1 x %__tgt_device_image] [%__tgt_device_image { ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 152), ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 {{[0-9]+}}), ptr @.offloading.entries.[[H]], ptr getelementptr ([1 x %struct.__tgt_offload_entry], ptr @.offloading.entries.[[H]], i64 1) }], comdat($.omp_offloading.device_image.[[H]])
; IR: @.omp_offloading.descriptor.[[H]] = linkonce_odr hidden constant %__tgt_bin_desc { i32 1, ptr @.omp_offloading.device_images.[[H]], ptr @.offloading.entries.[[H]], ptr getelementptr ([1 x %struct.__tgt_offload_entry], ptr @.offloading.entries.[[H]], i64 1) }, comdat($.omp_offloading.device_image.[[H]])
; IR: @llvm.compiler.used = appending global [2 x ptr] [ptr @.offloading.entries.[[H]], ptr @.omp_offloading.device_image.[[H]]], section "llvm.metadata"
; The constructor entry names the image global: .init_array goes with the comdat.
; IR: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @.omp_offloading.descriptor_reg.[[H]], ptr @.omp_offloading.device_image.[[H]] }]
; One call per launch: the map types say what the runtime copies.
; IR: @.offload_sizes.inc = private unnamed_addr constant [2 x i64] [i64 16, i64 4]
; IR: @.offload_maptypes.inc = private unnamed_addr constant [2 x i64] [i64 35, i64 800]
; IR-LABEL: define i32 @main()
; IR-NOT: _mapper
; IR: %inc.rc = call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 0, i32 0, ptr @.inc.region_id.[[H]], ptr %kernel_args)
; IR-NEXT: call void @__offload_launch_check(i32 %inc.rc, ptr @.offloading.entry_name.inc.[[H]])
; IR-NOT: _mapper
; IR: define linkonce_odr hidden void @.omp_offloading.descriptor_unreg.[[H]]() section ".text.startup" comdat($.omp_offloading.device_image.[[H]]) {
; IR-NEXT: entry:
; IR-NEXT: call void @__tgt_unregister_lib(ptr @.omp_offloading.descriptor.[[H]])
; IR: define linkonce_odr hidden void @.omp_offloading.descriptor_reg.[[H]]() section ".text.startup" comdat($.omp_offloading.device_image.[[H]]) {
; IR-NEXT: entry:
; IR-NEXT: call void @__tgt_register_lib(ptr @.omp_offloading.descriptor.[[H]])
; IR-NEXT: call i32 @atexit(ptr @.omp_offloading.descriptor_unreg.[[H]])
; IR: !{i32 7, !"openmp", i32 51}

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; inc(a, n): a[i] += 1 for i < n (offload-wrap-kernels adds the dyn pointer and slots).
define void @inc(ptr %a, i32 %n) !offload.kernel !0 {
entry:
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
!0 = !{}

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
