; offload-shared-memory: each declaration site of a static shared array
; (`offload::shared_array!`: a call of the declared
; `__offload_static_shared(ptr @site, i64 bytes, i64 align)`) becomes its
; own internal addrspace(3) array of that size and alignment with an undef
; initialiser (clang's `__shared__`); calls of one site (an inlined or
; unrolled declaration) share its array, two sites never do. The site
; markers and the declaration are deleted. The backends then use LDS
; (`ds_*`, counted in the kernel's fixed group segment) and `.shared`.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=offload-shared-memory -S %t/amdgcn.ll | %FileCheck %s --check-prefix=IR
; RUN: %opt '-passes=offload-shared-memory,function(infer-address-spaces)' %t/amdgcn.ll | %llc -O2 -mcpu=gfx90a | %FileCheck %s --check-prefix=AMDGCN
; RUN: %opt -passes=offload-shared-memory -S %t/nvptx.ll | %FileCheck %s --check-prefix=IR
; RUN: %opt '-passes=offload-shared-memory,function(infer-address-spaces)' %t/nvptx.ll | %llc -O2 -mcpu=sm_90 | %FileCheck %s --check-prefix=NVPTX
; Running it again, or on another target, changes nothing:
; RUN: %opt -passes=offload-shared-memory,offload-shared-memory -S %t/amdgcn.ll | %FileCheck %s --check-prefix=IR
; RUN: %opt -passes=offload-shared-memory -S %t/x86.ll | %FileCheck %s --check-prefix=CPU
;
; IR-NOT: @tile_a =
; IR-NOT: @tile_b =
; IR-DAG: @__offload_static_shared.tile_a = internal addrspace(3) global [1024 x i8] undef, align 16
; IR-DAG: @__offload_static_shared.tile_b = internal addrspace(3) global [24 x i8] undef, align 8
; IR-NOT: __offload_static_shared(
; IR: define {{.*}} @k(
; IR: store i32 %tid, ptr addrspacecast (ptr addrspace(3) @__offload_static_shared.tile_b to ptr)
; IR: getelementptr inbounds i8, ptr addrspacecast (ptr addrspace(3) @__offload_static_shared.tile_a to ptr), i64
; IR: getelementptr inbounds i8, ptr addrspacecast (ptr addrspace(3) @__offload_static_shared.tile_a to ptr), i64 4
; IR-NOT: __offload_static_shared(
; IR-NOT: @tile_
;
; AMDGCN-LABEL: k:
; AMDGCN: ds_write_b32
; AMDGCN: s_barrier
; AMDGCN: ds_read_b32
; AMDGCN-NOT: {{flat_load|flat_store}}
; AMDGCN: .amdhsa_group_segment_fixed_size 1048
;
; NVPTX-LABEL: .entry k(
; NVPTX-DAG: .shared .align 16 .b8 __offload_static_shared_$_tile_a[1024];
; NVPTX-DAG: .shared .align 8 .b8 __offload_static_shared_$_tile_b[24];
; NVPTX: st.shared.b32
; NVPTX: bar.sync 0;
; NVPTX: ld.shared.b32
;
; CPU: @tile_a = internal global i8 0
; CPU: call ptr @__offload_static_shared(ptr @tile_a, i64 1024, i64 16)

;--- amdgcn.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@tile_a = internal global i8 0
@tile_b = internal global i8 0

declare ptr @__offload_static_shared(ptr, i64, i64)

define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i = zext i32 %tid to i64
  %a = call ptr @__offload_static_shared(ptr @tile_a, i64 1024, i64 16)
  %b = call ptr @__offload_static_shared(ptr @tile_b, i64 24, i64 8)
  store i32 %tid, ptr %b, align 4
  %off = shl i64 %i, 2
  %mine = getelementptr inbounds i8, ptr %a, i64 %off
  store i32 %tid, ptr %mine, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %a2 = call ptr @__offload_static_shared(ptr @tile_a, i64 1024, i64 16)
  %next = getelementptr inbounds i8, ptr %a2, i64 4
  %v = load i32, ptr %next, align 4
  %dst = getelementptr inbounds i32, ptr addrspace(1) %out, i64 %i
  store i32 %v, ptr addrspace(1) %dst, align 4
  ret void
}

declare i32 @llvm.amdgcn.workitem.id.x()
declare void @llvm.amdgcn.s.barrier()

;--- nvptx.ll
target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile_a = internal global i8 0
@tile_b = internal global i8 0

declare ptr @__offload_static_shared(ptr, i64, i64)

define ptx_kernel void @k(ptr %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %a = call ptr @__offload_static_shared(ptr @tile_a, i64 1024, i64 16)
  %b = call ptr @__offload_static_shared(ptr @tile_b, i64 24, i64 8)
  store i32 %tid, ptr %b, align 4
  %off = shl i64 %i, 2
  %mine = getelementptr inbounds i8, ptr %a, i64 %off
  store i32 %tid, ptr %mine, align 4
  call void @llvm.nvvm.barrier0()
  %a2 = call ptr @__offload_static_shared(ptr @tile_a, i64 1024, i64 16)
  %next = getelementptr inbounds i8, ptr %a2, i64 4
  %v = load i32, ptr %next, align 4
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

;--- x86.ll
target triple = "x86_64-unknown-linux-gnu"

@tile_a = internal global i8 0

declare ptr @__offload_static_shared(ptr, i64, i64)

define void @k() {
  %a = call ptr @__offload_static_shared(ptr @tile_a, i64 1024, i64 16)
  store i32 0, ptr %a, align 4
  ret void
}
