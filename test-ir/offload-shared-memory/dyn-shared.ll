; offload-shared-memory: the `offload` crate's calls of the declared
; `__offload_dyn_shared_base` become the generic address of the external
; addrspace(3) array `__offload_dyn_shared` (clang's `extern __shared__`);
; after the optimiser's address space inference (rustc's pipeline runs it
; after the pass), the backends use LDS (`ds_*`) and `.shared` instructions.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=offload-shared-memory -S %t/amdgcn.ll | %FileCheck %s --check-prefix=IR
; RUN: %opt '-passes=offload-shared-memory,function(infer-address-spaces)' %t/amdgcn.ll | %llc -O2 -mcpu=gfx90a | %FileCheck %s --check-prefix=AMDGCN
; RUN: %opt -passes=offload-shared-memory -S %t/nvptx.ll | %FileCheck %s --check-prefix=IR
; RUN: %opt '-passes=offload-shared-memory,function(infer-address-spaces)' %t/nvptx.ll | %llc -O2 -mcpu=sm_90 | %FileCheck %s --check-prefix=NVPTX
; Running it again, or on another target, changes nothing:
; RUN: %opt -passes=offload-shared-memory,offload-shared-memory -S %t/amdgcn.ll | %FileCheck %s --check-prefix=IR
; RUN: %opt -passes=offload-shared-memory -S %t/x86.ll | %FileCheck %s --check-prefix=CPU
;
; IR: @__offload_dyn_shared = external addrspace(3) global [0 x i8], align 16
; IR-NOT: __offload_dyn_shared_base
; IR: define {{.*}} @k(
; IR: getelementptr inbounds i8, ptr addrspacecast (ptr addrspace(3) @__offload_dyn_shared to ptr), i64
; IR-NOT: __offload_dyn_shared_base
;
; AMDGCN-LABEL: k:
; AMDGCN: ds_write_b32
; AMDGCN: s_barrier
; AMDGCN: ds_read_b32
; AMDGCN-NOT: {{flat_load|flat_store}}
; AMDGCN: .amdhsa_group_segment_fixed_size 0
; AMDGCN: .value_kind: hidden_dynamic_lds_size
;
; NVPTX: .extern .shared .align 16 .b8 __offload_dyn_shared[];
; NVPTX-LABEL: .entry k(
; NVPTX: st.shared.b32
; NVPTX: bar.sync 0;
; NVPTX: ld.shared.b32
;
; CPU: declare ptr @__offload_dyn_shared_base()
; CPU: call ptr @__offload_dyn_shared_base()

;--- amdgcn.ll
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

declare ptr @__offload_dyn_shared_base()

define amdgpu_kernel void @k(ptr addrspace(1) %out) {
  %tid = call i32 @llvm.amdgcn.workitem.id.x()
  %i = zext i32 %tid to i64
  %base = call ptr @__offload_dyn_shared_base()
  %off = shl i64 %i, 2
  %mine = getelementptr inbounds i8, ptr %base, i64 %off
  store i32 %tid, ptr %mine, align 4
  fence syncscope("workgroup") release
  call void @llvm.amdgcn.s.barrier()
  fence syncscope("workgroup") acquire
  %base2 = call ptr @__offload_dyn_shared_base()
  %next = getelementptr inbounds i8, ptr %base2, i64 4
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

declare ptr @__offload_dyn_shared_base()

define ptx_kernel void @k(ptr %out) {
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %i = zext i32 %tid to i64
  %base = call ptr @__offload_dyn_shared_base()
  %off = shl i64 %i, 2
  %mine = getelementptr inbounds i8, ptr %base, i64 %off
  store i32 %tid, ptr %mine, align 4
  call void @llvm.nvvm.barrier0()
  %base2 = call ptr @__offload_dyn_shared_base()
  %next = getelementptr inbounds i8, ptr %base2, i64 4
  %v = load i32, ptr %next, align 4
  %dst = getelementptr inbounds i32, ptr %out, i64 %i
  store i32 %v, ptr %dst, align 4
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()

;--- x86.ll
target triple = "x86_64-unknown-linux-gnu"

declare ptr @__offload_dyn_shared_base()

define ptr @f() {
  %p = call ptr @__offload_dyn_shared_base()
  ret ptr %p
}
