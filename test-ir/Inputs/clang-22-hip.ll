; produced by: cd <repo root> && clang-22 -x hip --cuda-device-only --offload-arch=gfx90a -nogpulib -nogpuinc -O2 -S -emit-llvm -ffile-prefix-map=<repo root>=. -cuid=kernels examples/amdgpu-kernels/kernels.hip -o test-ir/Inputs/clang-22-hip.ll   (Debian clang version 22.1.8 (1~deb12u1))
; ModuleID = 'examples/amdgpu-kernels/kernels.hip'
source_filename = "examples/amdgpu-kernels/kernels.hip"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

%struct.Three = type { i32, i32, i32 }
%struct.Padding = type { i8, double }
%struct.Arrays = type { [3 x i32], [8 x i32] }
%struct.Nested = type { %struct.Inner, %struct.Inner, %struct.Inner }
%struct.Inner = type { i32, i32 }
%union.U = type { i32 }
%struct.Slice = type { ptr, i64 }
%struct.Complex = type { float, float }
%struct.Over = type { i32, [12 x i8] }
%struct.Tail = type { i64, i32 }

@__hip_cuid_b0907a5fd841bd0 = addrspace(1) global i8 0
@llvm.compiler.used = appending addrspace(1) global [1 x ptr] [ptr addrspacecast (ptr addrspace(1) @__hip_cuid_b0907a5fd841bd0 to ptr)], section "llvm.metadata"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_scalars(i32 noundef %0, i64 noundef %1, float noundef %2, i8 noundef %3, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 4), (8, 21)) %4) local_unnamed_addr #0 {
  store i32 %0, ptr addrspace(1) %4, align 4, !tbaa !5
  %6 = getelementptr inbounds nuw i8, ptr addrspace(1) %4, i64 8
  store i64 %1, ptr addrspace(1) %6, align 8, !tbaa !9
  %7 = getelementptr inbounds nuw i8, ptr addrspace(1) %4, i64 16
  store float %2, ptr addrspace(1) %7, align 8, !tbaa !11
  %8 = getelementptr inbounds nuw i8, ptr addrspace(1) %4, i64 20
  store i8 %3, ptr addrspace(1) %8, align 4, !tbaa !13
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define protected amdgpu_kernel void @k_ptrs(ptr addrspace(1) noundef readonly captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 4)) %1) local_unnamed_addr #1 {
  %3 = load i32, ptr addrspace(1) %0, align 4, !tbaa !5
  store i32 %3, ptr addrspace(1) %1, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_one(i32 %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 4)) %1) local_unnamed_addr #0 {
  store i32 %0, ptr addrspace(1) %1, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_one_f(float %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 4)) %1) local_unnamed_addr #0 {
  store float %0, ptr addrspace(1) %1, align 4, !tbaa !11
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_one_c(i32 %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 8)) %1) local_unnamed_addr #0 {
  store i32 %0, ptr addrspace(1) %1, align 4, !tbaa !5
  %3 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 4
  store i32 1, ptr addrspace(1) %3, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_one_cf(float %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 8)) %1) local_unnamed_addr #0 {
  store float %0, ptr addrspace(1) %1, align 4, !tbaa !11
  %3 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 4
  store i32 2, ptr addrspace(1) %3, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_wide_c(i64 %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 12)) %1) local_unnamed_addr #0 {
  store i64 %0, ptr addrspace(1) %1, align 8, !tbaa !9
  %3 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  store i32 3, ptr addrspace(1) %3, align 8, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_three(ptr addrspace(4) noundef readonly byref(%struct.Three) align 4 captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 12)) %1) local_unnamed_addr #0 {
  %3 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 8
  %4 = load i32, ptr addrspace(4) %3, align 4, !amdgpu.noclobber !14
  %5 = load <2 x i32>, ptr addrspace(4) %0, align 4
  store <2 x i32> %5, ptr addrspace(1) %1, align 4, !tbaa !5
  %6 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  store i32 %4, ptr addrspace(1) %6, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_padding(ptr addrspace(4) noundef readonly byref(%struct.Padding) align 8 captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 1), (8, 16)) %1) local_unnamed_addr #0 {
  %3 = load i8, ptr addrspace(4) %0, align 8, !amdgpu.noclobber !14
  %4 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 8
  %5 = load double, ptr addrspace(4) %4, align 8, !amdgpu.noclobber !14
  store i8 %3, ptr addrspace(1) %1, align 1, !tbaa !13
  %6 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  store double %5, ptr addrspace(1) %6, align 8, !tbaa !15
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_arrays(ptr addrspace(4) noundef readonly byref(%struct.Arrays) align 4 captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 20)) %1) local_unnamed_addr #0 {
  %3 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 8
  %4 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 40
  %5 = load i32, ptr addrspace(4) %4, align 4, !amdgpu.noclobber !14
  %6 = load <2 x i32>, ptr addrspace(4) %0, align 4
  store <2 x i32> %6, ptr addrspace(1) %1, align 4, !tbaa !5
  %7 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  %8 = load <2 x i32>, ptr addrspace(4) %3, align 4
  store <2 x i32> %8, ptr addrspace(1) %7, align 4, !tbaa !5
  %9 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 16
  store i32 %5, ptr addrspace(1) %9, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_nested(ptr addrspace(4) noundef readonly byref(%struct.Nested) align 4 captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 16)) %1) local_unnamed_addr #0 {
  %3 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 16
  %4 = load <4 x i32>, ptr addrspace(4) %0, align 4
  %5 = shufflevector <4 x i32> %4, <4 x i32> poison, <2 x i32> <i32 0, i32 3>
  store <2 x i32> %5, ptr addrspace(1) %1, align 4, !tbaa !5
  %6 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  %7 = load <2 x i32>, ptr addrspace(4) %3, align 4
  store <2 x i32> %7, ptr addrspace(1) %6, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_union(ptr addrspace(4) noundef readonly byref(%union.U) align 4 captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 8)) %1) local_unnamed_addr #0 {
  %3 = load <1 x i32>, ptr addrspace(4) %0, align 4
  %4 = shufflevector <1 x i32> %3, <1 x i32> poison, <2 x i32> zeroinitializer
  store <2 x i32> %4, ptr addrspace(1) %1, align 4, !tbaa !13
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(read, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none)
define protected amdgpu_kernel void @k_slice(ptr addrspace(4) noundef readonly byref(%struct.Slice) align 8 captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 4), (8, 16)) %1) local_unnamed_addr #2 {
  %3 = load ptr, ptr addrspace(4) %0, align 8, !amdgpu.noclobber !14
  %4 = addrspacecast ptr %3 to ptr addrspace(1)
  %5 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 8
  %6 = load i64, ptr addrspace(4) %5, align 8, !amdgpu.noclobber !14
  %7 = load i32, ptr addrspace(1) %4, align 4, !tbaa !5, !amdgpu.noclobber !14
  store i32 %7, ptr addrspace(1) %1, align 4, !tbaa !5
  %8 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  store i64 %6, ptr addrspace(1) %8, align 8, !tbaa !9
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_complex(ptr addrspace(4) noundef readonly byref(%struct.Complex) align 4 captures(none) %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 8)) %1) local_unnamed_addr #0 {
  %3 = load <2 x float>, ptr addrspace(4) %0, align 4
  %4 = shufflevector <2 x float> %3, <2 x float> poison, <2 x i32> <i32 1, i32 0>
  store <2 x float> %4, ptr addrspace(1) %1, align 4, !tbaa !11
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_wide(i64 %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 8)) %1) local_unnamed_addr #0 {
  store i64 %0, ptr addrspace(1) %1, align 8, !tbaa !9
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_huge(i128 %0, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 16)) %1) local_unnamed_addr #0 {
  store i128 %0, ptr addrspace(1) %1, align 16, !tbaa !17
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_over(i8 noundef %0, ptr addrspace(4) noundef readonly byref(%struct.Over) align 16 captures(none) %1, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 1), (4, 8)) %2) local_unnamed_addr #0 {
  %4 = load i32, ptr addrspace(4) %1, align 16, !amdgpu.noclobber !14
  store i8 %0, ptr addrspace(1) %2, align 1, !tbaa !13
  %5 = getelementptr inbounds nuw i8, ptr addrspace(1) %2, i64 4
  store i32 %4, ptr addrspace(1) %5, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_tail(ptr addrspace(4) noundef readonly byref(%struct.Tail) align 8 captures(none) %0, i8 noundef %1, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 13)) %2) local_unnamed_addr #0 {
  %4 = load i64, ptr addrspace(4) %0, align 8, !amdgpu.noclobber !14
  %5 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 8
  %6 = load i32, ptr addrspace(4) %5, align 8, !amdgpu.noclobber !14
  store i64 %4, ptr addrspace(1) %2, align 8, !tbaa !9
  %7 = getelementptr inbounds nuw i8, ptr addrspace(1) %2, i64 8
  store i32 %6, ptr addrspace(1) %7, align 8, !tbaa !5
  %8 = getelementptr inbounds nuw i8, ptr addrspace(1) %2, i64 12
  store i8 %1, ptr addrspace(1) %8, align 4, !tbaa !13
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_mixed(ptr addrspace(4) noundef readonly byref(%struct.Arrays) align 4 captures(none) %0, i32 %1, ptr addrspace(4) noundef readonly byref(%struct.Tail) align 8 captures(none) %2, i8 noundef %3, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 25)) %4) local_unnamed_addr #0 {
  %6 = load i32, ptr addrspace(4) %0, align 4, !amdgpu.noclobber !14
  %7 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 40
  %8 = load <1 x i32>, ptr addrspace(4) %7, align 4
  %9 = shufflevector <1 x i32> %8, <1 x i32> poison, <2 x i32> <i32 0, i32 poison>
  %10 = load i64, ptr addrspace(4) %2, align 8, !amdgpu.noclobber !14
  %11 = getelementptr inbounds nuw i8, ptr addrspace(4) %2, i64 8
  %12 = load i32, ptr addrspace(4) %11, align 8, !amdgpu.noclobber !14
  store i32 %6, ptr addrspace(1) %4, align 4, !tbaa !5
  %13 = getelementptr inbounds nuw i8, ptr addrspace(1) %4, i64 4
  store i32 %1, ptr addrspace(1) %13, align 4, !tbaa !5
  %14 = getelementptr inbounds nuw i8, ptr addrspace(1) %4, i64 8
  store i64 %10, ptr addrspace(1) %14, align 8, !tbaa !9
  %15 = getelementptr inbounds nuw i8, ptr addrspace(1) %4, i64 16
  %16 = insertelement <2 x i32> %9, i32 %12, i64 1
  store <2 x i32> %16, ptr addrspace(1) %15, align 8, !tbaa !5
  %17 = getelementptr inbounds nuw i8, ptr addrspace(1) %4, i64 24
  store i8 %3, ptr addrspace(1) %17, align 8, !tbaa !13
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define protected amdgpu_kernel void @k_vec(<4 x i32> noundef %0, <4 x i32> %1, ptr addrspace(1) noundef writeonly captures(none) initializes((0, 32)) %2) local_unnamed_addr #0 {
  store <4 x i32> %0, ptr addrspace(1) %2, align 16, !tbaa !13
  %4 = getelementptr inbounds nuw i8, ptr addrspace(1) %2, i64 16
  store <4 x i32> %1, ptr addrspace(1) %4, align 16, !tbaa !13
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define protected amdgpu_kernel void @k_mut(ptr addrspace(4) noundef readonly byref(%struct.Three) align 4 captures(none) %0, ptr addrspace(1) noundef captures(none) initializes((4, 12)) %1) local_unnamed_addr #1 {
  %3 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 8
  %4 = load i32, ptr addrspace(4) %3, align 4, !amdgpu.noclobber !14
  %5 = load i32, ptr addrspace(1) %1, align 4, !tbaa !5
  %6 = insertelement <2 x i32> poison, i32 %4, i64 0
  %7 = insertelement <2 x i32> %6, i32 %5, i64 1
  store <2 x i32> %7, ptr addrspace(1) %1, align 4, !tbaa !5
  %8 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  store i32 %4, ptr addrspace(1) %8, align 4, !tbaa !5
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define protected amdgpu_kernel void @k_mut_dyn(ptr addrspace(4) noundef readonly byref(%struct.Three) align 4 captures(none) %0, i1 noundef %1, ptr addrspace(1) noundef captures(none) initializes((4, 12)) %2) local_unnamed_addr #1 {
  %4 = load i32, ptr addrspace(4) %0, align 4
  %5 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 4
  %6 = load i32, ptr addrspace(4) %5, align 4
  %7 = getelementptr inbounds nuw i8, ptr addrspace(4) %0, i64 8
  %8 = load i32, ptr addrspace(4) %7, align 4
  %9 = load i32, ptr addrspace(1) %2, align 4, !tbaa !5
  %10 = select i1 %1, i32 %8, i32 %9
  %11 = select i1 %1, i32 %9, i32 %4
  store i32 %11, ptr addrspace(1) %2, align 4, !tbaa !5
  %12 = getelementptr inbounds nuw i8, ptr addrspace(1) %2, i64 4
  store i32 %6, ptr addrspace(1) %12, align 4, !tbaa !5
  %13 = getelementptr inbounds nuw i8, ptr addrspace(1) %2, i64 8
  store i32 %10, ptr addrspace(1) %13, align 4, !tbaa !5
  ret void
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) "amdgpu-agpr-alloc"="0" "amdgpu-flat-work-group-size"="1,1024" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="true" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "amdgpu-agpr-alloc"="0" "amdgpu-flat-work-group-size"="1,1024" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="true" }
attributes #2 = { mustprogress nofree norecurse nosync nounwind willreturn memory(read, argmem: readwrite, inaccessiblemem: none, target_mem0: none, target_mem1: none) "amdgpu-agpr-alloc"="0" "amdgpu-flat-work-group-size"="1,1024" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="gfx90a" "target-features"="+16-bit-insts,+atomic-buffer-global-pk-add-f16-insts,+atomic-fadd-rtn-insts,+atomic-fmin-fmax-global-f64,+ci-insts,+cube-insts,+cvt-pknorm-vop2-insts,+dl-insts,+dot1-insts,+dot10-insts,+dot2-insts,+dot3-insts,+dot4-insts,+dot5-insts,+dot6-insts,+dot7-insts,+dpp,+gfx8-insts,+gfx9-insts,+gfx90a-insts,+lerp-inst,+mai-insts,+qsad-insts,+s-memrealtime,+s-memtime-inst,+sad-insts,+wavefrontsize64" "uniform-work-group-size"="true" }

!llvm.module.flags = !{!0, !1, !2, !3}
!llvm.ident = !{!4}
!llvm.errno.tbaa = !{!5}

!0 = !{i32 1, !"amdhsa_code_object_version", i32 600}
!1 = !{i32 1, !"amdgpu_printf_kind", !"hostcall"}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 8, !"PIC Level", i32 2}
!4 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!5 = !{!6, !6, i64 0}
!6 = !{!"int", !7, i64 0}
!7 = !{!"omnipotent char", !8, i64 0}
!8 = !{!"Simple C++ TBAA"}
!9 = !{!10, !10, i64 0}
!10 = !{!"long long", !7, i64 0}
!11 = !{!12, !12, i64 0}
!12 = !{!"float", !7, i64 0}
!13 = !{!7, !7, i64 0}
!14 = !{}
!15 = !{!16, !16, i64 0}
!16 = !{!"double", !7, i64 0}
!17 = !{!18, !18, i64 0}
!18 = !{!"__int128", !7, i64 0}
