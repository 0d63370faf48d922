; Compile-only: registering an AMDGPU code object. The kernel and its
; `scale.kd` descriptor are both in the image; the host module is the same as
; for any other image kind, only the bytes differ. A function without a .kd
; descriptor is no kernel: launching it is an error naming the missing
; descriptor and listing the kernels.
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image %t/dev.ll %t/dev.so -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a
; RUN: %opt -passes='offload-host<image=%t/dev.so;device=0>' %t/host.ll -S -o - | %FileCheck %s
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -o %t/host.bc
; RUN: %clang -c -O1 %t/host.bc -o %t/host.o
; RUN: llvm-readelf -S %t/host.o | %FileCheck %s --check-prefix=SECTIONS
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/helper.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=NO-KD -DIMAGE=%t/dev.so

; CHECK: @.scale.region_id = weak constant i8 0
; CHECK: @.offloading.entry_name.scale = internal unnamed_addr constant [6 x i8] c"scale\00", section ".llvm.rodata.offloading", align 1
; CHECK: @.offloading.entries = internal constant [1 x %struct.__tgt_offload_entry] [%struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.scale.region_id, ptr @.offloading.entry_name.scale, i64 0, i64 0, ptr null }], section "llvm_offload_entries", align 8
; An ELF64 LSB for ELFOSABI_AMDGPU_HSA ('@'), ET_DYN (3), EM_AMDGPU (224 = 0xE0),
; embedded as little-endian 64-bit words: "\7FELF\02\01\01@" is
; 4611968602685064575; the third word holds e_type 3, e_machine 0xE0 and
; e_version 1: 0x0000000100E00003 = 4309647363.
; CHECK: @.omp_offloading.device_image = internal unnamed_addr constant {{.*}}[i64 4611968602685064575, i64 {{[0-9]+}}, i64 4309647363, {{.*}}, section ".llvm.offloading", align 8
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @.omp_offloading.descriptor_reg, ptr null }]
; device=0 reaches every runtime call.
; CHECK: call void @__tgt_target_data_begin_mapper(ptr null, i64 0, i32 2,
; CHECK: call i32 @__tgt_target_kernel(ptr null, i64 0, i32 0, i32 0, ptr @.scale.region_id,
; CHECK: call void @__tgt_target_data_end_mapper(ptr null, i64 0, i32 2,

; The image stays allocated (flag A, not E: excluded) in the host object.
; SECTIONS-DAG: .llvm.offloading  LLVM_OFFLOADING {{.*}} A  0   0  8
; SECTIONS-DAG: llvm_offload_entries PROGBITS {{.*}} WA  0   0  8

; NO-KD: error: offload-host: 'helper' in image '[[IMAGE]]' has no kernel descriptor 'helper.kd' (its kernels: scale)

;--- dev.ll
define amdgpu_kernel void @scale(ptr addrspace(1) %p, i64 %n) {
  ret void
}
define void @helper() {
  ret void
}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@"__offload_launch.scale" = constant [15 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 2, i64 3, i64 4, i64 2, i64 0, i64 0, i64 0]

declare void @scale(ptr, i64)

define void @f(ptr %p, i64 %n) {
  call void @scale(ptr %p, i64 %n)
  ret void
}

;--- helper.ll
target triple = "x86_64-unknown-linux-gnu"

declare void @helper()

define void @f() {
  call void @helper(), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}
