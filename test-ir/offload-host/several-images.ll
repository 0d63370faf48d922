; Several images in one program: offload-host<image=A;image=B> registers an
; x86_64 shared object (libomptarget's host plugin) and an AMDGPU code object
; in ONE __tgt_bin_desc: NumDeviceImages 2, one __tgt_device_image per image
; in parameter order, each pointing at its image inside its own OffloadBinary
; (kind, triple, arch), all sharing one table of offload entries. Everything
; is in one comdat keyed by the images' combined digest (images_digest: the
; SHA-256 of their SHA-256s in order), which the v2 descriptor must carry.
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/x86.ll %t/x86.so
; RUN: %device-image -passes=offload-wrap-kernels %t/amdgpu.ll %t/amdgpu.so -mcpu=gfx90a
; RUN: %python %S/Inputs/images-digest.py %t/host.in.ll %t/x86.so %t/amdgpu.so > %t/host.ll
; RUN: %opt -passes='offload-host<image=%t/x86.so;image=%t/amdgpu.so>' %t/host.ll -S -o %t/out.ll
; RUN: cat %t/host.ll %t/out.ll | %FileCheck %s
; RUN: %opt -passes='offload-host<image=%t/x86.so;image=%t/amdgpu.so>' %t/host.ll -o %t/host.bc
; RUN: %clang -c %t/host.bc -o %t/host.o
; RUN: llvm-objcopy --dump-section=.offload_passes.image=%t/images.bin %t/host.o %t/copy.o
; RUN: llvm-objdump --offloading %t/images.bin | %FileCheck %s --check-prefix=OBJDUMP

; The other order is another program: its digest differs, so this host code
; (compiled against x86.so then amdgpu.so) is refused, as is host code
; compiled against the x86_64 image alone.
; RUN: not %opt -passes='offload-host<image=%t/amdgpu.so;image=%t/x86.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=ORDER -DX86=%t/x86.so -DAMDGPU=%t/amdgpu.so
; RUN: %python %S/Inputs/images-digest.py %t/host.in.ll %t/x86.so > %t/host-one.ll
; RUN: not %opt -passes='offload-host<image=%t/x86.so;image=%t/amdgpu.so>' %t/host-one.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=ONE -DX86=%t/x86.so -DAMDGPU=%t/amdgpu.so
; ...which the x86_64 image alone accepts.
; RUN: %opt -passes='offload-host<image=%t/x86.so>' %t/host-one.ll -disable-output

; CHECK: ; digest [[H:[0-9a-f]+]]
; The entries name the kernels every image holds, once (not x86.so's helper):
; CHECK: @.offloading.entries.[[H]] = linkonce_odr hidden constant [2 x %struct.__tgt_offload_entry] [%struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.fill.region_id.[[H]], ptr @.offloading.entry_name.fill.[[H]], i64 0, i64 0, ptr null }, %struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.twice.region_id.[[H]], ptr @.offloading.entry_name.twice.[[H]], i64 0, i64 0, ptr null }], section "offload_passes_entries", comdat($.omp_offloading.device_image.[[H]]), align 8
; The images, each a whole OffloadBinary, in parameter order; the first names the comdat:
; CHECK: @.omp_offloading.device_image.[[H]] = linkonce_odr hidden unnamed_addr constant <{ {{.*}} }> <{ {{.*}} }>, section ".offload_passes.image", comdat, align 8
; CHECK: @.omp_offloading.device_image.[[H]].1 = linkonce_odr hidden unnamed_addr constant <{ {{.*}} }> <{ {{.*}} }>, section ".offload_passes.image", comdat($.omp_offloading.device_image.[[H]]), align 8
; Two __tgt_device_images, each its image's ELF inside its OffloadBinary, both with the shared entries:
; CHECK: @.omp_offloading.device_images.[[H]] = linkonce_odr hidden unnamed_addr constant [2 x %__tgt_device_image] [%__tgt_device_image { ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 {{[0-9]+}}), ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 {{[0-9]+}}), ptr @.offloading.entries.[[H]], ptr getelementptr ([2 x %struct.__tgt_offload_entry], ptr @.offloading.entries.[[H]], i64 1) }, %__tgt_device_image { ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]].1, i64 {{[0-9]+}}), ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]].1, i64 {{[0-9]+}}), ptr @.offloading.entries.[[H]], ptr getelementptr ([2 x %struct.__tgt_offload_entry], ptr @.offloading.entries.[[H]], i64 1) }], comdat($.omp_offloading.device_image.[[H]])
; CHECK: @.omp_offloading.descriptor.[[H]] = linkonce_odr hidden constant %__tgt_bin_desc { i32 2, ptr @.omp_offloading.device_images.[[H]], ptr @.offloading.entries.[[H]], ptr getelementptr ([2 x %struct.__tgt_offload_entry], ptr @.offloading.entries.[[H]], i64 1) }, comdat($.omp_offloading.device_image.[[H]])
; CHECK: @llvm.compiler.used = appending global [3 x ptr] [ptr @.offloading.entries.[[H]], ptr @.omp_offloading.device_image.[[H]], ptr @.omp_offloading.device_image.[[H]].1]
; CHECK: @llvm.global_ctors = appending global [1 x { i32, ptr, ptr }] [{ i32, ptr, ptr } { i32 101, ptr @.omp_offloading.descriptor_reg.[[H]], ptr @.omp_offloading.device_image.[[H]] }]
; One launch, whatever image runs it:
; CHECK: call i32 @__offload_run_launch2(ptr %config, ptr @.fill.region_id.[[H]],
; CHECK: call void @__tgt_register_lib(ptr @.omp_offloading.descriptor.[[H]])

; Both images in the section, in order, each with its kind, arch and triple:
; OBJDUMP:      OFFLOADING IMAGE [0]:
; OBJDUMP-NEXT: kind            elf
; OBJDUMP-NEXT: arch            generic
; OBJDUMP-NEXT: triple          x86_64-unknown-linux-gnu
; OBJDUMP:      OFFLOADING IMAGE [1]:
; OBJDUMP-NEXT: kind            elf
; OBJDUMP-NEXT: arch            gfx90a
; OBJDUMP-NEXT: triple          amdgcn-amd-amdhsa
; OBJDUMP-NOT:  OFFLOADING IMAGE

; ORDER: error: offload-host: launch of 'fill' in function 'main': its descriptor was compiled against image digest {{[0-9a-f]+}}, but images '[[AMDGPU]]', '[[X86]]' have the combined digest {{[0-9a-f]+}} (images_digest of all of them, in parameter order): the host code is stale or was built for other images; rebuild it against these
; ONE: error: offload-host: launch of 'fill' in function 'main': its descriptor was compiled against image digest {{[0-9a-f]+}}, but images '[[X86]]', '[[AMDGPU]]' have the combined digest

;--- x86.ll
target triple = "x86_64-unknown-linux-gnu"
define void @fill(ptr %out, i32 %n) !offload.kernel !0 {
  ret void
}
define void @twice(ptr %p) !offload.kernel !0 {
  ret void
}
; Exported, but only by this image: no entry.
define void @helper() {
  ret void
}
!0 = !{}

;--- amdgpu.ll
target triple = "amdgcn-amd-amdhsa"
define amdgpu_kernel void @fill(ptr %out, i32 %n) {
  ret void
}
define amdgpu_kernel void @twice(ptr %p) {
  ret void
}

;--- host.in.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%LaunchConfig = type { i32, i32, [3 x i32], [3 x i32], i32, i64, ptr }

; [2, digest, 2 arguments, out: FROM with SIZE 0 (the config's), n: inferred]
@fill.descriptor = private unnamed_addr constant [7 x i64] [i64 2, i64 @DIGEST@, i64 2, i64 2, i64 0, i64 0, i64 0]

declare void @"__offload_launch2.fill"(ptr, ptr, ptr, i32)

define void @main(ptr %config, ptr %out, i32 %n) {
  call void @"__offload_launch2.fill"(ptr @fill.descriptor, ptr %config, ptr %out, i32 %n)
  ret void
}
