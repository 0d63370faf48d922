; produced by: cd <repo root> && env RUSTC_BOOTSTRAP=1 rustc --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a --crate-type cdylib --emit=llvm-ir -Ccodegen-units=1 -Copt-level=3 --remap-path-prefix=<repo root>=. examples/amdgpu-kernels/kernels.rs -o test-ir/Inputs/rustc-1.95-O3.ll   (rustc 1.95.0 (59807616e 2026-04-14))
; ModuleID = 'kernels.10e27077f27b0680-cgu.0'
source_filename = "kernels.10e27077f27b0680-cgu.0"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_arrays(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(44) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  %3 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 40
  %b7 = load i32, ptr addrspace(1) %3, align 4, !noundef !2, !amdgpu.noclobber !2
  %4 = load <2 x i32>, ptr addrspace(1) %1, align 4
  store <2 x i32> %4, ptr addrspace(1) %0, align 4
  %5 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  %6 = load <2 x i32>, ptr addrspace(1) %2, align 4
  store <2 x i32> %6, ptr addrspace(1) %5, align 4
  %7 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 16
  store i32 %b7, ptr addrspace(1) %7, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_complex(float noundef %c.0, float noundef %c.1, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store float %c.1, ptr addrspace(1) %0, align 4
  %1 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 4
  store float %c.0, ptr addrspace(1) %1, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_huge(i128 noundef %h, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store i128 %h, ptr addrspace(1) %0, align 8
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_mixed(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(44) %d, i32 noundef %o, i64 noundef %t.0, i32 noundef %t.1, i8 noundef zeroext %k, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %d to ptr addrspace(1)
  %a0 = load i32, ptr addrspace(1) %1, align 4, !noundef !2, !amdgpu.noclobber !2
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 40
  %b7 = load i32, ptr addrspace(1) %2, align 4, !noundef !2, !amdgpu.noclobber !2
  store i32 %a0, ptr addrspace(1) %0, align 8
  %.sroa.4.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 4
  store i32 %o, ptr addrspace(1) %.sroa.4.0.out.sroa_idx, align 4
  %.sroa.5.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i64 %t.0, ptr addrspace(1) %.sroa.5.0.out.sroa_idx, align 8
  %.sroa.6.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 16
  store i32 %b7, ptr addrspace(1) %.sroa.6.0.out.sroa_idx, align 8
  %.sroa.6.sroa.4.0..sroa.6.0.out.sroa_idx.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 20
  store i32 %t.1, ptr addrspace(1) %.sroa.6.sroa.4.0..sroa.6.0.out.sroa_idx.sroa_idx, align 4
  %.sroa.6.sroa.5.0..sroa.6.0.out.sroa_idx.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 24
  store i8 %k, ptr addrspace(1) %.sroa.6.sroa.5.0..sroa.6.0.out.sroa_idx.sroa_idx, align 8
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_mut(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(12) %s, ptr noundef captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  %_3 = load i32, ptr addrspace(1) %2, align 4, !noundef !2, !amdgpu.noclobber !2
  %_4 = load i32, ptr addrspace(1) %0, align 4, !noundef !2, !amdgpu.noclobber !2
  %3 = insertelement <2 x i32> poison, i32 %_3, i64 0
  %4 = insertelement <2 x i32> %3, i32 %_4, i64 1
  store <2 x i32> %4, ptr addrspace(1) %0, align 4
  %5 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i32 %_3, ptr addrspace(1) %5, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_mut_dyn(ptr dead_on_return noalias noundef align 4 captures(none) dereferenceable(12) %s, i1 noundef zeroext %pick, ptr noundef captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  %.sroa.0.0 = select i1 %pick, ptr addrspace(1) %1, ptr addrspace(1) %2
  %_5 = load i32, ptr addrspace(1) %0, align 4, !noundef !2, !amdgpu.noclobber !2
  store i32 %_5, ptr addrspace(1) %.sroa.0.0, align 4
  %_8 = load i32, ptr addrspace(1) %2, align 4, !noundef !2
  %3 = load <2 x i32>, ptr addrspace(1) %1, align 4
  store <2 x i32> %3, ptr addrspace(1) %0, align 4
  %4 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i32 %_8, ptr addrspace(1) %4, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_nested(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(24) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 16
  %3 = load <4 x i32>, ptr addrspace(1) %1, align 4
  %4 = shufflevector <4 x i32> %3, <4 x i32> poison, <2 x i32> <i32 0, i32 3>
  store <2 x i32> %4, ptr addrspace(1) %0, align 4
  %5 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  %6 = load <2 x i32>, ptr addrspace(1) %2, align 4
  store <2 x i32> %6, ptr addrspace(1) %5, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_one(i32 noundef %s, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store i32 %s, ptr addrspace(1) %0, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_one_c(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(4) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
  %_4 = load i32, ptr addrspace(1) %1, align 4, !noundef !2, !amdgpu.noclobber !2
  %2 = insertelement <2 x i32> <i32 poison, i32 1>, i32 %_4, i64 0
  store <2 x i32> %2, ptr addrspace(1) %0, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_one_cf(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(4) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
  %_4 = load float, ptr addrspace(1) %1, align 4, !noundef !2, !amdgpu.noclobber !2
  store float %_4, ptr addrspace(1) %0, align 4
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 4
  store i32 2, ptr addrspace(1) %2, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_one_f(float noundef %s, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store float %s, ptr addrspace(1) %0, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_over(i8 noundef zeroext %a, ptr dead_on_return noalias noundef readonly align 16 captures(none) dereferenceable(16) %o, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %o to ptr addrspace(1)
  %_5 = load i32, ptr addrspace(1) %1, align 16, !noundef !2, !amdgpu.noclobber !2
  store i8 %a, ptr addrspace(1) %0, align 4
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 4
  store i32 %_5, ptr addrspace(1) %2, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_padding(i8 noundef %s.0, double noundef %s.1, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store i8 %s.0, ptr addrspace(1) %0, align 8
  %1 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store double %s.1, ptr addrspace(1) %1, align 8
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_ptrs(ptr noundef readonly captures(none) %src, ptr noundef writeonly captures(none) %dst) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %dst to ptr addrspace(1)
  %1 = addrspacecast ptr %src to ptr addrspace(1)
  %_3 = load i32, ptr addrspace(1) %1, align 4, !noundef !2, !amdgpu.noclobber !2
  store i32 %_3, ptr addrspace(1) %0, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_scalars(i32 noundef %a, i64 noundef %b, float noundef %c, i8 noundef zeroext %d, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store i32 %a, ptr addrspace(1) %0, align 8
  %.sroa.41.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i64 %b, ptr addrspace(1) %.sroa.41.0.out.sroa_idx, align 8
  %.sroa.5.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 16
  store float %c, ptr addrspace(1) %.sroa.5.0.out.sroa_idx, align 8
  %.sroa.6.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 20
  store i8 %d, ptr addrspace(1) %.sroa.6.0.out.sroa_idx, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_slice(ptr noalias noundef nonnull readonly align 4 captures(none) %v.0, i64 noundef range(i64 0, 2305843009213693952) %v.1, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %v.0 to ptr addrspace(1)
  %_6 = load i32, ptr addrspace(1) %1, align 4, !noundef !2, !amdgpu.noclobber !2
  store i32 %_6, ptr addrspace(1) %0, align 8
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i64 %v.1, ptr addrspace(1) %2, align 8
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_tail(i64 noundef %t.0, i32 noundef %t.1, i8 noundef zeroext %k, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store i64 %t.0, ptr addrspace(1) %0, align 8
  %.sroa.4.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i32 %t.1, ptr addrspace(1) %.sroa.4.0.out.sroa_idx, align 8
  %.sroa.5.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 12
  store i8 %k, ptr addrspace(1) %.sroa.5.0.out.sroa_idx, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_three(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(12) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8
  %_5 = load i32, ptr addrspace(1) %2, align 4, !noundef !2, !amdgpu.noclobber !2
  %3 = load <2 x i32>, ptr addrspace(1) %1, align 4
  store <2 x i32> %3, ptr addrspace(1) %0, align 4
  %4 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i32 %_5, ptr addrspace(1) %4, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_union(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(4) %u, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %u to ptr addrspace(1)
  %2 = load <1 x i32>, ptr addrspace(1) %1, align 4
  %3 = shufflevector <1 x i32> %2, <1 x i32> poison, <2 x i32> zeroinitializer
  store <2 x i32> %3, ptr addrspace(1) %0, align 4
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_vec(<4 x i32> %v, <4 x i32> %w, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store <4 x i32> %v, ptr addrspace(1) %0, align 16
  %.sroa.4.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 16
  store <4 x i32> %w, ptr addrspace(1) %.sroa.4.0.out.sroa_idx, align 16
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_wide(i64 noundef %w, ptr noundef writeonly captures(none) %out) unnamed_addr #1 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  store i64 %w, ptr addrspace(1) %0, align 8
  ret void
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_wide_c(ptr dead_on_return noalias noundef readonly align 8 captures(none) dereferenceable(8) %w, ptr noundef writeonly captures(none) %out) unnamed_addr #0 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %w to ptr addrspace(1)
  %_4 = load i64, ptr addrspace(1) %1, align 8, !noundef !2, !amdgpu.noclobber !2
  store i64 %_4, ptr addrspace(1) %0, align 8
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8
  store i32 3, ptr addrspace(1) %2, align 8
  ret void
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "amdgpu-agpr-alloc"="0" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx90a" "uniform-work-group-size"="false" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) "amdgpu-agpr-alloc"="0" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx90a" "uniform-work-group-size"="false" }

!llvm.module.flags = !{!0}
!llvm.ident = !{!1}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!2 = !{}
