; Two kernels from one image, launched with per-call !offload.launch
; metadata: explicit sizes for plain pointers (no attributes), teams and
; threads per dimension, and dynamic shared memory. One OffloadEntry per
; kernel, in one array.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so;teams=2;threads=16>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; CHECK: sum 10 product 24

; IR: @.add.region_id.[[H:[0-9a-f]+]] = weak constant i8 0
; IR: @.mul.region_id.[[H]] = weak constant i8 0
; IR: @.offloading.entries.[[H]] = linkonce_odr hidden constant [2 x %struct.__tgt_offload_entry] [%struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.add.region_id.[[H]], ptr @.offloading.entry_name.add.[[H]], i64 0, i64 0, ptr null }, %struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.mul.region_id.[[H]], ptr @.offloading.entry_name.mul.[[H]], i64 0, i64 0, ptr null }], section "offload_passes_entries", comdat($.omp_offloading.device_image.[[H]]), align 8
; IR: @.offload_sizes.add = private unnamed_addr constant [2 x i64] [i64 16, i64 8]
; IR: @.offload_maptypes.add = private unnamed_addr constant [2 x i64] [i64 33, i64 34]
; IR-LABEL: define i32 @main(
; add: from its metadata.
; IR: store [3 x i32] [i32 4, i32 2, i32 1], ptr
; IR: store [3 x i32] [i32 64, i32 1, i32 1], ptr
; IR: store i32 256, ptr
; IR: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 4, i32 64, ptr @.add.region_id.{{[0-9a-f]+}},
; mul: zeros in its metadata take the pass defaults (teams=2;threads=16).
; IR: store [3 x i32] [i32 2, i32 1, i32 1], ptr
; IR: store [3 x i32] [i32 16, i32 1, i32 1], ptr
; IR: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 2, i32 16, ptr @.mul.region_id.{{[0-9a-f]+}},

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

; add(in, out): *out = sum of in[0..4]; mul(in, out): *out = product.
define void @add(ptr %in, ptr %out) !offload.kernel !0 {
  %v = load <4 x i32>, ptr %in
  %s = call i32 @llvm.vector.reduce.add.v4i32(<4 x i32> %v)
  %w = sext i32 %s to i64
  store i64 %w, ptr %out
  ret void
}
define void @mul(ptr %in, ptr %out) !offload.kernel !0 {
  %v = load <4 x i32>, ptr %in
  %s = call i32 @llvm.vector.reduce.mul.v4i32(<4 x i32> %v)
  %w = sext i32 %s to i64
  store i64 %w, ptr %out
  ret void
}
declare i32 @llvm.vector.reduce.add.v4i32(<4 x i32>)
declare i32 @llvm.vector.reduce.mul.v4i32(<4 x i32>)
!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@fmt = private constant [21 x i8] c"sum %ld product %ld\0A\00"

declare void @add(ptr, ptr)
declare void @mul(ptr, ptr)
declare i32 @printf(ptr, ...)

define i32 @main() {
  %in = alloca [4 x i32], align 16
  %sum = alloca i64, align 8
  %product = alloca i64, align 8
  store [4 x i32] [i32 1, i32 2, i32 3, i32 4], ptr %in
  call void @add(ptr %in, ptr %sum), !offload.launch !0
  call void @mul(ptr %in, ptr %product), !offload.launch !1
  %s = load i64, ptr %sum
  %p = load i64, ptr %product
  call i32 (ptr, ...) @printf(ptr @fmt, i64 %s, i64 %p)
  ret i32 0
}

; version, teams 4x2x1, threads 64x1x1, 256 bytes of dynamic memory, 2
; arguments: in TO 16 bytes, out FROM 8 bytes.
!0 = !{i64 1, i64 4, i64 2, i64 1, i64 64, i64 1, i64 1, i64 256, i64 2, i64 1, i64 16, i64 0, i64 2, i64 8, i64 0}
!1 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 2, i64 1, i64 16, i64 0, i64 2, i64 8, i64 0}
