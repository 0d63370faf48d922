; Compile-only: registering an AMDGPU code object. The kernel and its
; `scale.kd` descriptor are both in the image; the host module is the same as
; for any other image kind, only the bytes differ (and the OffloadBinary's
; strings: triple amdgcn-amd-amdhsa, arch from the code object's
; amdhsa.target). A function without a .kd descriptor is no kernel: launching
; it is an error naming the missing descriptor and listing the kernels.
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a
; RUN: %opt -passes='offload-host<image=%t/dev.so;device=0>' %t/host.ll -S -o - | %FileCheck %s
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -o %t/host.bc
; RUN: %clang -c -O1 %t/host.bc -o %t/host.o
; RUN: llvm-readelf -S %t/host.o | %FileCheck %s --check-prefix=SECTIONS
; RUN: llvm-objcopy --dump-section=.offload_passes.image=%t/image.bin %t/host.o %t/copy.o
; RUN: llvm-objdump --offloading %t/image.bin | %FileCheck %s --check-prefix=OBJDUMP
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/helper.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=NO-KD -DIMAGE=%t/dev.so

; CHECK: @.scale.region_id.[[H:[0-9a-f]+]] = weak constant i8 0
; CHECK: @.offloading.entry_name.scale.[[H]] = linkonce_odr hidden unnamed_addr constant [6 x i8] c"scale\00", section ".llvm.rodata.offloading", comdat($.omp_offloading.device_image.[[H]]), align 1
; CHECK: @.offloading.entries.[[H]] = linkonce_odr hidden constant [1 x %struct.__tgt_offload_entry] [%struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.scale.region_id.[[H]], ptr @.offloading.entry_name.scale.[[H]], i64 0, i64 0, ptr null }], section "offload_passes_entries", comdat($.omp_offloading.device_image.[[H]]), align 8
; CHECK: @.omp_offloading.device_image.[[H]] = linkonce_odr hidden unnamed_addr constant {{.*}}, section ".offload_passes.image", comdat, align 8
; device=0 reaches the launch.
; CHECK: call i32 @__tgt_target_kernel(ptr null, i64 0, i32 0, i32 0, ptr @.scale.region_id.[[H]],

; The image stays allocated (flag A, not E: excluded) in the host object, in
; the image's section group (G), like the entries.
; SECTIONS-DAG: .offload_passes.image PROGBITS {{.*}} AG  0   0  8
; SECTIONS-DAG: offload_passes_entries PROGBITS {{.*}} WAG  0   0  8

; The OffloadBinary around the code object (an ELF64 for ELFOSABI_AMDGPU_HSA):
; OBJDUMP:      kind            elf
; OBJDUMP-NEXT: arch            gfx90a
; OBJDUMP-NEXT: triple          amdgcn-amd-amdhsa

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
