; produced by: cd <repo root> && env RUSTC_BOOTSTRAP=1 rustc --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a --crate-type cdylib --emit=llvm-ir -Ccodegen-units=1 -Copt-level=3 -Cdebuginfo=2 --remap-path-prefix=<repo root>=. examples/amdgpu-kernels/kernels.rs -o test-ir/Inputs/rustc-1.95-O3-g.ll   (rustc 1.95.0 (59807616e 2026-04-14))
; ModuleID = 'kernels.10e27077f27b0680-cgu.0'
source_filename = "kernels.10e27077f27b0680-cgu.0"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_arrays(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(44) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !6 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
    #dbg_declare(ptr %s, !26, !DIExpression(), !35)
    #dbg_declare(ptr undef, !27, !DIExpression(), !36)
    #dbg_declare(ptr undef, !28, !DIExpression(), !37)
    #dbg_declare(ptr undef, !30, !DIExpression(), !38)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8, !dbg !39
    #dbg_declare(ptr undef, !31, !DIExpression(), !40)
    #dbg_declare(ptr undef, !32, !DIExpression(), !41)
  %3 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 40, !dbg !42
  %b7 = load i32, ptr addrspace(1) %3, align 4, !dbg !42, !noundef !23, !amdgpu.noclobber !23
    #dbg_declare(ptr undef, !34, !DIExpression(), !43)
  %4 = load <2 x i32>, ptr addrspace(1) %1, align 4, !dbg !44
  store <2 x i32> %4, ptr addrspace(1) %0, align 4, !dbg !45
  %5 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !45
  %6 = load <2 x i32>, ptr addrspace(1) %2, align 4, !dbg !39
  store <2 x i32> %6, ptr addrspace(1) %5, align 4, !dbg !45
  %7 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 16, !dbg !45
  store i32 %b7, ptr addrspace(1) %7, align 4, !dbg !45
  ret void, !dbg !46
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_complex(float noundef %c.0, float noundef %c.1, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !47 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !56, !DIExpression(), !58)
    #dbg_declare(ptr undef, !57, !DIExpression(), !59)
  store float %c.1, ptr addrspace(1) %0, align 4, !dbg !60
  %1 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 4, !dbg !60
  store float %c.0, ptr addrspace(1) %1, align 4, !dbg !60
  ret void, !dbg !61
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_huge(i128 noundef %h, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !62 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !70, !DIExpression(), !72)
    #dbg_declare(ptr undef, !71, !DIExpression(), !73)
  store i128 %h, ptr addrspace(1) %0, align 8, !dbg !74
  ret void, !dbg !75
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_mixed(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(44) %d, i32 noundef %o, i64 noundef %t.0, i32 noundef %t.1, i8 noundef zeroext %k, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !76 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %d to ptr addrspace(1)
    #dbg_declare(ptr %d, !89, !DIExpression(), !98)
    #dbg_declare(ptr undef, !90, !DIExpression(), !99)
    #dbg_declare(ptr undef, !91, !DIExpression(), !100)
    #dbg_declare(ptr undef, !92, !DIExpression(), !101)
    #dbg_declare(ptr undef, !93, !DIExpression(), !102)
  %a0 = load i32, ptr addrspace(1) %1, align 4, !dbg !103, !noundef !23, !amdgpu.noclobber !23
    #dbg_declare(ptr undef, !94, !DIExpression(), !104)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 40, !dbg !105
  %b7 = load i32, ptr addrspace(1) %2, align 4, !dbg !105, !noundef !23, !amdgpu.noclobber !23
    #dbg_declare(ptr undef, !96, !DIExpression(), !106)
  store i32 %a0, ptr addrspace(1) %0, align 8, !dbg !107
  %.sroa.4.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 4, !dbg !107
  store i32 %o, ptr addrspace(1) %.sroa.4.0.out.sroa_idx, align 4, !dbg !107
  %.sroa.5.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !107
  store i64 %t.0, ptr addrspace(1) %.sroa.5.0.out.sroa_idx, align 8, !dbg !107
  %.sroa.6.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 16, !dbg !107
  store i32 %b7, ptr addrspace(1) %.sroa.6.0.out.sroa_idx, align 8, !dbg !107
  %.sroa.6.sroa.4.0..sroa.6.0.out.sroa_idx.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 20, !dbg !107
  store i32 %t.1, ptr addrspace(1) %.sroa.6.sroa.4.0..sroa.6.0.out.sroa_idx.sroa_idx, align 4, !dbg !107
  %.sroa.6.sroa.5.0..sroa.6.0.out.sroa_idx.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 24, !dbg !107
  store i8 %k, ptr addrspace(1) %.sroa.6.sroa.5.0..sroa.6.0.out.sroa_idx.sroa_idx, align 8, !dbg !107
  ret void, !dbg !108
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_mut(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(12) %s, ptr noundef captures(none) %out) unnamed_addr #0 !dbg !109 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
    #dbg_declare(ptr %s, !118, !DIExpression(), !120)
    #dbg_declare(ptr undef, !119, !DIExpression(), !121)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8, !dbg !122
  %_3 = load i32, ptr addrspace(1) %2, align 4, !dbg !122, !noundef !23, !amdgpu.noclobber !23
  %_4 = load i32, ptr addrspace(1) %0, align 4, !dbg !123, !noundef !23, !amdgpu.noclobber !23
  %3 = insertelement <2 x i32> poison, i32 %_3, i64 0, !dbg !124
  %4 = insertelement <2 x i32> %3, i32 %_4, i64 1, !dbg !124
  store <2 x i32> %4, ptr addrspace(1) %0, align 4, !dbg !124
  %5 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !124
  store i32 %_3, ptr addrspace(1) %5, align 4, !dbg !124
  ret void, !dbg !125
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_mut_dyn(ptr dead_on_return noalias noundef align 4 captures(none) dereferenceable(12) %s, i1 noundef zeroext %pick, ptr noundef captures(none) %out) unnamed_addr #0 !dbg !126 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
    #dbg_declare(ptr %s, !131, !DIExpression(), !136)
    #dbg_declare(ptr undef, !132, !DIExpression(), !137)
    #dbg_declare(ptr undef, !133, !DIExpression(), !138)
    #dbg_declare(ptr undef, !134, !DIExpression(), !139)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8, !dbg !140
  %.sroa.0.0 = select i1 %pick, ptr addrspace(1) %1, ptr addrspace(1) %2, !dbg !140
  %_5 = load i32, ptr addrspace(1) %0, align 4, !dbg !141, !noundef !23, !amdgpu.noclobber !23
  store i32 %_5, ptr addrspace(1) %.sroa.0.0, align 4, !dbg !142
  %_8 = load i32, ptr addrspace(1) %2, align 4, !dbg !143, !noundef !23
  %3 = load <2 x i32>, ptr addrspace(1) %1, align 4, !dbg !144
  store <2 x i32> %3, ptr addrspace(1) %0, align 4, !dbg !145
  %4 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !145
  store i32 %_8, ptr addrspace(1) %4, align 4, !dbg !145
  ret void, !dbg !146
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_nested(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(24) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !147 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
    #dbg_declare(ptr %s, !160, !DIExpression(), !162)
    #dbg_declare(ptr undef, !161, !DIExpression(), !163)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 16, !dbg !164
  %3 = load <4 x i32>, ptr addrspace(1) %1, align 4, !dbg !165
  %4 = shufflevector <4 x i32> %3, <4 x i32> poison, <2 x i32> <i32 0, i32 3>, !dbg !165
  store <2 x i32> %4, ptr addrspace(1) %0, align 4, !dbg !166
  %5 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !166
  %6 = load <2 x i32>, ptr addrspace(1) %2, align 4, !dbg !164
  store <2 x i32> %6, ptr addrspace(1) %5, align 4, !dbg !166
  ret void, !dbg !167
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_one(i32 noundef %s, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !168 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !172, !DIExpression(), !174)
    #dbg_declare(ptr undef, !173, !DIExpression(), !175)
  store i32 %s, ptr addrspace(1) %0, align 4, !dbg !176
  ret void, !dbg !177
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_one_c(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(4) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !178 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
    #dbg_declare(ptr %s, !185, !DIExpression(), !187)
    #dbg_declare(ptr undef, !186, !DIExpression(), !188)
  %_4 = load i32, ptr addrspace(1) %1, align 4, !dbg !189, !noundef !23, !amdgpu.noclobber !23
  %2 = insertelement <2 x i32> <i32 poison, i32 1>, i32 %_4, i64 0, !dbg !190
  store <2 x i32> %2, ptr addrspace(1) %0, align 4, !dbg !190
  ret void, !dbg !191
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_one_cf(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(4) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !192 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
    #dbg_declare(ptr %s, !199, !DIExpression(), !201)
    #dbg_declare(ptr undef, !200, !DIExpression(), !202)
  %_4 = load float, ptr addrspace(1) %1, align 4, !dbg !203, !noundef !23, !amdgpu.noclobber !23
  store float %_4, ptr addrspace(1) %0, align 4, !dbg !204
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 4, !dbg !204
  store i32 2, ptr addrspace(1) %2, align 4, !dbg !204
  ret void, !dbg !205
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_one_f(float noundef %s, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !206 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !213, !DIExpression(), !215)
    #dbg_declare(ptr undef, !214, !DIExpression(), !216)
  store float %s, ptr addrspace(1) %0, align 4, !dbg !217
  ret void, !dbg !218
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_over(i8 noundef zeroext %a, ptr dead_on_return noalias noundef readonly align 16 captures(none) dereferenceable(16) %o, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !219 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %o to ptr addrspace(1)
    #dbg_declare(ptr undef, !226, !DIExpression(), !229)
    #dbg_declare(ptr %o, !227, !DIExpression(), !230)
    #dbg_declare(ptr undef, !228, !DIExpression(), !231)
  %_5 = load i32, ptr addrspace(1) %1, align 16, !dbg !232, !noundef !23, !amdgpu.noclobber !23
  store i8 %a, ptr addrspace(1) %0, align 4, !dbg !233
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 4, !dbg !233
  store i32 %_5, ptr addrspace(1) %2, align 4, !dbg !233
  ret void, !dbg !234
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_padding(i8 noundef %s.0, double noundef %s.1, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !235 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !244, !DIExpression(), !246)
    #dbg_declare(ptr undef, !245, !DIExpression(), !247)
  store i8 %s.0, ptr addrspace(1) %0, align 8, !dbg !248
  %1 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !248
  store double %s.1, ptr addrspace(1) %1, align 8, !dbg !248
  ret void, !dbg !249
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_ptrs(ptr noundef readonly captures(none) %src, ptr noundef writeonly captures(none) %dst) unnamed_addr #0 !dbg !250 {
start:
  %0 = addrspacecast ptr %dst to ptr addrspace(1)
  %1 = addrspacecast ptr %src to ptr addrspace(1)
    #dbg_declare(ptr undef, !255, !DIExpression(), !257)
    #dbg_declare(ptr undef, !256, !DIExpression(), !258)
  %_3 = load i32, ptr addrspace(1) %1, align 4, !dbg !259, !noundef !23, !amdgpu.noclobber !23
  store i32 %_3, ptr addrspace(1) %0, align 4, !dbg !260
  ret void, !dbg !261
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_scalars(i32 noundef %a, i64 noundef %b, float noundef %c, i8 noundef zeroext %d, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !262 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !266, !DIExpression(), !271)
    #dbg_declare(ptr undef, !267, !DIExpression(), !272)
    #dbg_declare(ptr undef, !268, !DIExpression(), !273)
    #dbg_declare(ptr undef, !269, !DIExpression(), !274)
    #dbg_declare(ptr undef, !270, !DIExpression(), !275)
  store i32 %a, ptr addrspace(1) %0, align 8, !dbg !276
  %.sroa.41.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !276
  store i64 %b, ptr addrspace(1) %.sroa.41.0.out.sroa_idx, align 8, !dbg !276
  %.sroa.5.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 16, !dbg !276
  store float %c, ptr addrspace(1) %.sroa.5.0.out.sroa_idx, align 8, !dbg !276
  %.sroa.6.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 20, !dbg !276
  store i8 %d, ptr addrspace(1) %.sroa.6.0.out.sroa_idx, align 4, !dbg !276
  ret void, !dbg !277
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_slice(ptr noalias noundef nonnull readonly align 4 captures(none) %v.0, i64 noundef range(i64 0, 2305843009213693952) %v.1, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !278 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %v.0 to ptr addrspace(1)
    #dbg_declare(ptr undef, !288, !DIExpression(), !296)
    #dbg_declare(ptr undef, !289, !DIExpression(), !297)
    #dbg_declare(ptr undef, !290, !DIExpression(DW_OP_LLVM_fragment, 0, 64), !298)
    #dbg_declare(ptr undef, !290, !DIExpression(DW_OP_LLVM_fragment, 64, 64), !298)
  %_6 = load i32, ptr addrspace(1) %1, align 4, !dbg !299, !noundef !23, !amdgpu.noclobber !23
  store i32 %_6, ptr addrspace(1) %0, align 8, !dbg !300
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !300
  store i64 %v.1, ptr addrspace(1) %2, align 8, !dbg !300
  ret void, !dbg !301
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_tail(i64 noundef %t.0, i32 noundef %t.1, i8 noundef zeroext %k, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !302 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !306, !DIExpression(), !309)
    #dbg_declare(ptr undef, !307, !DIExpression(), !310)
    #dbg_declare(ptr undef, !308, !DIExpression(), !311)
  store i64 %t.0, ptr addrspace(1) %0, align 8, !dbg !312
  %.sroa.4.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !312
  store i32 %t.1, ptr addrspace(1) %.sroa.4.0.out.sroa_idx, align 8, !dbg !312
  %.sroa.5.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 12, !dbg !312
  store i8 %k, ptr addrspace(1) %.sroa.5.0.out.sroa_idx, align 4, !dbg !312
  ret void, !dbg !313
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_three(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(12) %s, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !314 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %s to ptr addrspace(1)
    #dbg_declare(ptr %s, !316, !DIExpression(), !318)
    #dbg_declare(ptr undef, !317, !DIExpression(), !319)
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %1, i64 8, !dbg !320
  %_5 = load i32, ptr addrspace(1) %2, align 4, !dbg !320, !noundef !23, !amdgpu.noclobber !23
  %3 = load <2 x i32>, ptr addrspace(1) %1, align 4, !dbg !321
  store <2 x i32> %3, ptr addrspace(1) %0, align 4, !dbg !322
  %4 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !322
  store i32 %_5, ptr addrspace(1) %4, align 4, !dbg !322
  ret void, !dbg !323
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_union(ptr dead_on_return noalias noundef readonly align 4 captures(none) dereferenceable(4) %u, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !324 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %u to ptr addrspace(1)
    #dbg_declare(ptr %u, !332, !DIExpression(), !334)
    #dbg_declare(ptr undef, !333, !DIExpression(), !335)
  %2 = load <1 x i32>, ptr addrspace(1) %1, align 4, !dbg !336
  %3 = shufflevector <1 x i32> %2, <1 x i32> poison, <2 x i32> zeroinitializer, !dbg !337
  store <2 x i32> %3, ptr addrspace(1) %0, align 4, !dbg !337
  ret void, !dbg !338
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_vec(<4 x i32> %v, <4 x i32> %w, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !339 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !352, !DIExpression(), !355)
    #dbg_declare(ptr undef, !353, !DIExpression(), !356)
    #dbg_declare(ptr undef, !354, !DIExpression(), !357)
  store <4 x i32> %v, ptr addrspace(1) %0, align 16, !dbg !358
  %.sroa.4.0.out.sroa_idx = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 16, !dbg !358
  store <4 x i32> %w, ptr addrspace(1) %.sroa.4.0.out.sroa_idx, align 16, !dbg !358
  ret void, !dbg !359
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write)
define amdgpu_kernel void @k_wide(i64 noundef %w, ptr noundef writeonly captures(none) %out) unnamed_addr #1 !dbg !360 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
    #dbg_declare(ptr undef, !367, !DIExpression(), !369)
    #dbg_declare(ptr undef, !368, !DIExpression(), !370)
  store i64 %w, ptr addrspace(1) %0, align 8, !dbg !371
  ret void, !dbg !372
}

; Function Attrs: mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite)
define amdgpu_kernel void @k_wide_c(ptr dead_on_return noalias noundef readonly align 8 captures(none) dereferenceable(8) %w, ptr noundef writeonly captures(none) %out) unnamed_addr #0 !dbg !373 {
start:
  %0 = addrspacecast ptr %out to ptr addrspace(1)
  %1 = addrspacecast ptr %w to ptr addrspace(1)
    #dbg_declare(ptr %w, !380, !DIExpression(), !382)
    #dbg_declare(ptr undef, !381, !DIExpression(), !383)
  %_4 = load i64, ptr addrspace(1) %1, align 8, !dbg !384, !noundef !23, !amdgpu.noclobber !23
  store i64 %_4, ptr addrspace(1) %0, align 8, !dbg !385
  %2 = getelementptr inbounds nuw i8, ptr addrspace(1) %0, i64 8, !dbg !385
  store i32 3, ptr addrspace(1) %2, align 8, !dbg !385
  ret void, !dbg !386
}

attributes #0 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: readwrite) "amdgpu-agpr-alloc"="0" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx90a" "uniform-work-group-size"="false" }
attributes #1 = { mustprogress nofree norecurse nosync nounwind willreturn memory(argmem: write) "amdgpu-agpr-alloc"="0" "amdgpu-no-cluster-id-x" "amdgpu-no-cluster-id-y" "amdgpu-no-cluster-id-z" "amdgpu-no-completion-action" "amdgpu-no-default-queue" "amdgpu-no-dispatch-id" "amdgpu-no-dispatch-ptr" "amdgpu-no-flat-scratch-init" "amdgpu-no-heap-ptr" "amdgpu-no-hostcall-ptr" "amdgpu-no-implicitarg-ptr" "amdgpu-no-lds-kernel-id" "amdgpu-no-multigrid-sync-arg" "amdgpu-no-queue-ptr" "amdgpu-no-workgroup-id-x" "amdgpu-no-workgroup-id-y" "amdgpu-no-workgroup-id-z" "amdgpu-no-workitem-id-x" "amdgpu-no-workitem-id-y" "amdgpu-no-workitem-id-z" "target-cpu"="gfx90a" "uniform-work-group-size"="false" }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!llvm.dbg.cu = !{!4}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"Dwarf Version", i32 4}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!4 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !5, producer: "clang LLVM (rustc version 1.95.0 (59807616e 2026-04-14))", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!5 = !DIFile(filename: "examples/amdgpu-kernels/kernels.rs/@/kernels.10e27077f27b0680-cgu.0", directory: ".")
!6 = distinct !DISubprogram(name: "k_arrays", scope: !8, file: !7, line: 108, type: !9, scopeLine: 108, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !25)
!7 = !DIFile(filename: "examples/amdgpu-kernels/kernels.rs", directory: ".", checksumkind: CSK_MD5, checksum: "566c435b1434ceae44415982957180d7")
!8 = !DINamespace(name: "kernels", scope: null)
!9 = !DISubroutineType(types: !10)
!10 = !{null, !11, !24}
!11 = !DICompositeType(tag: DW_TAG_structure_type, name: "Arrays", scope: !8, file: !12, size: 352, align: 32, flags: DIFlagPublic, elements: !13, templateParams: !23, identifier: "d98da1d78d97fa1aa6ac6ce2d65b505")
!12 = !DIFile(filename: "<unknown>", directory: "")
!13 = !{!14, !19}
!14 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !11, file: !12, baseType: !15, size: 96, align: 32, flags: DIFlagPrivate)
!15 = !DICompositeType(tag: DW_TAG_array_type, baseType: !16, size: 96, align: 32, elements: !17)
!16 = !DIBasicType(name: "u32", size: 32, encoding: DW_ATE_unsigned)
!17 = !{!18}
!18 = !DISubrange(count: 3, lowerBound: 0)
!19 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !11, file: !12, baseType: !20, size: 256, align: 32, offset: 96, flags: DIFlagPrivate)
!20 = !DICompositeType(tag: DW_TAG_array_type, baseType: !16, size: 256, align: 32, elements: !21)
!21 = !{!22}
!22 = !DISubrange(count: 8, lowerBound: 0)
!23 = !{}
!24 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*mut u32", baseType: !16, size: 64, align: 64, dwarfAddressSpace: 0)
!25 = !{!26, !27, !28, !30, !31, !32, !34}
!26 = !DILocalVariable(name: "s", arg: 1, scope: !6, file: !7, line: 108, type: !11)
!27 = !DILocalVariable(name: "out", arg: 2, scope: !6, file: !7, line: 108, type: !24)
!28 = !DILocalVariable(name: "a0", scope: !29, file: !7, line: 109, type: !16, align: 32)
!29 = distinct !DILexicalBlock(scope: !6, file: !7, line: 109, column: 5)
!30 = !DILocalVariable(name: "a1", scope: !29, file: !7, line: 109, type: !16, align: 32)
!31 = !DILocalVariable(name: "a2", scope: !29, file: !7, line: 109, type: !16, align: 32)
!32 = !DILocalVariable(name: "b0", scope: !33, file: !7, line: 110, type: !16, align: 32)
!33 = distinct !DILexicalBlock(scope: !29, file: !7, line: 110, column: 5)
!34 = !DILocalVariable(name: "b7", scope: !33, file: !7, line: 110, type: !16, align: 32)
!35 = !DILocation(line: 108, column: 44, scope: !6)
!36 = !DILocation(line: 108, column: 55, scope: !6)
!37 = !DILocation(line: 109, column: 10, scope: !29)
!38 = !DILocation(line: 109, column: 14, scope: !29)
!39 = !DILocation(line: 109, column: 18, scope: !6)
!40 = !DILocation(line: 109, column: 18, scope: !29)
!41 = !DILocation(line: 110, column: 10, scope: !33)
!42 = !DILocation(line: 110, column: 32, scope: !29)
!43 = !DILocation(line: 110, column: 32, scope: !33)
!44 = !DILocation(line: 109, column: 10, scope: !6)
!45 = !DILocation(line: 111, column: 14, scope: !33)
!46 = !DILocation(line: 112, column: 2, scope: !6)
!47 = distinct !DISubprogram(name: "k_complex", scope: !8, file: !7, line: 133, type: !48, scopeLine: 133, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !55)
!48 = !DISubroutineType(types: !49)
!49 = !{null, !50, !24}
!50 = !DICompositeType(tag: DW_TAG_structure_type, name: "Complex", scope: !8, file: !12, size: 64, align: 32, flags: DIFlagPublic, elements: !51, templateParams: !23, identifier: "a1655eb9658b41d4f9e7c3bc33d463bf")
!51 = !{!52, !54}
!52 = !DIDerivedType(tag: DW_TAG_member, name: "re", scope: !50, file: !12, baseType: !53, size: 32, align: 32, flags: DIFlagPrivate)
!53 = !DIBasicType(name: "f32", size: 32, encoding: DW_ATE_float)
!54 = !DIDerivedType(tag: DW_TAG_member, name: "im", scope: !50, file: !12, baseType: !53, size: 32, align: 32, offset: 32, flags: DIFlagPrivate)
!55 = !{!56, !57}
!56 = !DILocalVariable(name: "c", arg: 1, scope: !47, file: !7, line: 133, type: !50)
!57 = !DILocalVariable(name: "out", arg: 2, scope: !47, file: !7, line: 133, type: !24)
!58 = !DILocation(line: 133, column: 45, scope: !47)
!59 = !DILocation(line: 133, column: 57, scope: !47)
!60 = !DILocation(line: 134, column: 14, scope: !47)
!61 = !DILocation(line: 135, column: 2, scope: !47)
!62 = distinct !DISubprogram(name: "k_huge", scope: !8, file: !7, line: 143, type: !63, scopeLine: 143, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !69)
!63 = !DISubroutineType(types: !64)
!64 = !{null, !65, !24}
!65 = !DICompositeType(tag: DW_TAG_structure_type, name: "Huge", scope: !8, file: !12, size: 128, align: 64, flags: DIFlagPublic, elements: !66, templateParams: !23, identifier: "947de88cb92e393d4f002175daab34e0")
!66 = !{!67}
!67 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !65, file: !12, baseType: !68, size: 128, align: 64, flags: DIFlagPrivate)
!68 = !DIBasicType(name: "i128", size: 128, encoding: DW_ATE_signed)
!69 = !{!70, !71}
!70 = !DILocalVariable(name: "h", arg: 1, scope: !62, file: !7, line: 143, type: !65)
!71 = !DILocalVariable(name: "out", arg: 2, scope: !62, file: !7, line: 143, type: !24)
!72 = !DILocation(line: 143, column: 42, scope: !62)
!73 = !DILocation(line: 143, column: 51, scope: !62)
!74 = !DILocation(line: 144, column: 14, scope: !62)
!75 = !DILocation(line: 145, column: 2, scope: !62)
!76 = distinct !DISubprogram(name: "k_mixed", scope: !8, file: !7, line: 159, type: !77, scopeLine: 159, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !88)
!77 = !DISubroutineType(types: !78)
!78 = !{null, !11, !79, !82, !87, !24}
!79 = !DICompositeType(tag: DW_TAG_structure_type, name: "One", scope: !8, file: !12, size: 32, align: 32, flags: DIFlagPublic, elements: !80, templateParams: !23, identifier: "4f2162be5c972bbdc1dc420321c6d677")
!80 = !{!81}
!81 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !79, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!82 = !DICompositeType(tag: DW_TAG_structure_type, name: "Tail", scope: !8, file: !12, size: 128, align: 64, flags: DIFlagPublic, elements: !83, templateParams: !23, identifier: "c5c225d2505565a0a406096cbd49f8d2")
!83 = !{!84, !86}
!84 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !82, file: !12, baseType: !85, size: 64, align: 64, flags: DIFlagPrivate)
!85 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!86 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !82, file: !12, baseType: !16, size: 32, align: 32, offset: 64, flags: DIFlagPrivate)
!87 = !DIBasicType(name: "u8", size: 8, encoding: DW_ATE_unsigned)
!88 = !{!89, !90, !91, !92, !93, !94, !96}
!89 = !DILocalVariable(name: "d", arg: 1, scope: !76, file: !7, line: 159, type: !11)
!90 = !DILocalVariable(name: "o", arg: 2, scope: !76, file: !7, line: 159, type: !79)
!91 = !DILocalVariable(name: "t", arg: 3, scope: !76, file: !7, line: 159, type: !82)
!92 = !DILocalVariable(name: "k", arg: 4, scope: !76, file: !7, line: 159, type: !87)
!93 = !DILocalVariable(name: "out", arg: 5, scope: !76, file: !7, line: 159, type: !24)
!94 = !DILocalVariable(name: "a0", scope: !95, file: !7, line: 160, type: !16, align: 32)
!95 = distinct !DILexicalBlock(scope: !76, file: !7, line: 160, column: 5)
!96 = !DILocalVariable(name: "b7", scope: !97, file: !7, line: 161, type: !16, align: 32)
!97 = distinct !DILexicalBlock(scope: !95, file: !7, line: 161, column: 5)
!98 = !DILocation(line: 159, column: 43, scope: !76)
!99 = !DILocation(line: 159, column: 54, scope: !76)
!100 = !DILocation(line: 159, column: 62, scope: !76)
!101 = !DILocation(line: 159, column: 71, scope: !76)
!102 = !DILocation(line: 159, column: 78, scope: !76)
!103 = !DILocation(line: 160, column: 10, scope: !76)
!104 = !DILocation(line: 160, column: 10, scope: !95)
!105 = !DILocation(line: 161, column: 31, scope: !95)
!106 = !DILocation(line: 161, column: 31, scope: !97)
!107 = !DILocation(line: 162, column: 14, scope: !97)
!108 = !DILocation(line: 163, column: 2, scope: !76)
!109 = distinct !DISubprogram(name: "k_mut", scope: !8, file: !7, line: 172, type: !110, scopeLine: 172, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !117)
!110 = !DISubroutineType(types: !111)
!111 = !{null, !112, !24}
!112 = !DICompositeType(tag: DW_TAG_structure_type, name: "Three", scope: !8, file: !12, size: 96, align: 32, flags: DIFlagPublic, elements: !113, templateParams: !23, identifier: "2c574fb10bbe13226fdbbf59f83ed278")
!113 = !{!114, !115, !116}
!114 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !112, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!115 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !112, file: !12, baseType: !16, size: 32, align: 32, offset: 32, flags: DIFlagPrivate)
!116 = !DIDerivedType(tag: DW_TAG_member, name: "c", scope: !112, file: !12, baseType: !16, size: 32, align: 32, offset: 64, flags: DIFlagPrivate)
!117 = !{!118, !119}
!118 = !DILocalVariable(name: "s", arg: 1, scope: !109, file: !7, line: 172, type: !112)
!119 = !DILocalVariable(name: "out", arg: 2, scope: !109, file: !7, line: 172, type: !24)
!120 = !DILocation(line: 172, column: 41, scope: !109)
!121 = !DILocation(line: 172, column: 55, scope: !109)
!122 = !DILocation(line: 173, column: 11, scope: !109)
!123 = !DILocation(line: 175, column: 15, scope: !109)
!124 = !DILocation(line: 176, column: 9, scope: !109)
!125 = !DILocation(line: 178, column: 2, scope: !109)
!126 = distinct !DISubprogram(name: "k_mut_dyn", scope: !8, file: !7, line: 182, type: !127, scopeLine: 182, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !130)
!127 = !DISubroutineType(types: !128)
!128 = !{null, !112, !129, !24}
!129 = !DIBasicType(name: "bool", size: 8, encoding: DW_ATE_boolean)
!130 = !{!131, !132, !133, !134}
!131 = !DILocalVariable(name: "s", arg: 1, scope: !126, file: !7, line: 182, type: !112)
!132 = !DILocalVariable(name: "pick", arg: 2, scope: !126, file: !7, line: 182, type: !129)
!133 = !DILocalVariable(name: "out", arg: 3, scope: !126, file: !7, line: 182, type: !24)
!134 = !DILocalVariable(name: "p", scope: !135, file: !7, line: 183, type: !24, align: 64)
!135 = distinct !DILexicalBlock(scope: !126, file: !7, line: 183, column: 5)
!136 = !DILocation(line: 182, column: 45, scope: !126)
!137 = !DILocation(line: 182, column: 59, scope: !126)
!138 = !DILocation(line: 182, column: 71, scope: !126)
!139 = !DILocation(line: 183, column: 9, scope: !135)
!140 = !DILocation(line: 183, column: 26, scope: !126)
!141 = !DILocation(line: 185, column: 14, scope: !135)
!142 = !DILocation(line: 185, column: 9, scope: !135)
!143 = !DILocation(line: 186, column: 46, scope: !135)
!144 = !DILocation(line: 186, column: 36, scope: !135)
!145 = !DILocation(line: 186, column: 9, scope: !135)
!146 = !DILocation(line: 188, column: 2, scope: !126)
!147 = distinct !DISubprogram(name: "k_nested", scope: !8, file: !7, line: 115, type: !148, scopeLine: 115, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !159)
!148 = !DISubroutineType(types: !149)
!149 = !{null, !150, !24}
!150 = !DICompositeType(tag: DW_TAG_structure_type, name: "Nested", scope: !8, file: !12, size: 192, align: 32, flags: DIFlagPublic, elements: !151, templateParams: !23, identifier: "79944dd2cfcedf04f4da3e8ae0494524")
!151 = !{!152, !157, !158}
!152 = !DIDerivedType(tag: DW_TAG_member, name: "p", scope: !150, file: !12, baseType: !153, size: 64, align: 32, flags: DIFlagPrivate)
!153 = !DICompositeType(tag: DW_TAG_structure_type, name: "Inner", scope: !8, file: !12, size: 64, align: 32, flags: DIFlagPublic, elements: !154, templateParams: !23, identifier: "2ba64ace54d6574eac98ca5f5b1fb3c7")
!154 = !{!155, !156}
!155 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !153, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!156 = !DIDerivedType(tag: DW_TAG_member, name: "y", scope: !153, file: !12, baseType: !16, size: 32, align: 32, offset: 32, flags: DIFlagPrivate)
!157 = !DIDerivedType(tag: DW_TAG_member, name: "q", scope: !150, file: !12, baseType: !153, size: 64, align: 32, offset: 64, flags: DIFlagPrivate)
!158 = !DIDerivedType(tag: DW_TAG_member, name: "r", scope: !150, file: !12, baseType: !153, size: 64, align: 32, offset: 128, flags: DIFlagPrivate)
!159 = !{!160, !161}
!160 = !DILocalVariable(name: "s", arg: 1, scope: !147, file: !7, line: 115, type: !150)
!161 = !DILocalVariable(name: "out", arg: 2, scope: !147, file: !7, line: 115, type: !24)
!162 = !DILocation(line: 115, column: 44, scope: !147)
!163 = !DILocation(line: 115, column: 55, scope: !147)
!164 = !DILocation(line: 116, column: 55, scope: !147)
!165 = !DILocation(line: 116, column: 41, scope: !147)
!166 = !DILocation(line: 116, column: 14, scope: !147)
!167 = !DILocation(line: 117, column: 2, scope: !147)
!168 = distinct !DISubprogram(name: "k_one", scope: !8, file: !7, line: 73, type: !169, scopeLine: 73, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !171)
!169 = !DISubroutineType(types: !170)
!170 = !{null, !79, !24}
!171 = !{!172, !173}
!172 = !DILocalVariable(name: "s", arg: 1, scope: !168, file: !7, line: 73, type: !79)
!173 = !DILocalVariable(name: "out", arg: 2, scope: !168, file: !7, line: 73, type: !24)
!174 = !DILocation(line: 73, column: 41, scope: !168)
!175 = !DILocation(line: 73, column: 49, scope: !168)
!176 = !DILocation(line: 74, column: 14, scope: !168)
!177 = !DILocation(line: 75, column: 2, scope: !168)
!178 = distinct !DISubprogram(name: "k_one_c", scope: !8, file: !7, line: 83, type: !179, scopeLine: 83, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !184)
!179 = !DISubroutineType(types: !180)
!180 = !{null, !181, !24}
!181 = !DICompositeType(tag: DW_TAG_structure_type, name: "OneC", scope: !8, file: !12, size: 32, align: 32, flags: DIFlagPublic, elements: !182, templateParams: !23, identifier: "387df1230d075d0143a0942a6bb07e2b")
!182 = !{!183}
!183 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !181, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!184 = !{!185, !186}
!185 = !DILocalVariable(name: "s", arg: 1, scope: !178, file: !7, line: 83, type: !181)
!186 = !DILocalVariable(name: "out", arg: 2, scope: !178, file: !7, line: 83, type: !24)
!187 = !DILocation(line: 83, column: 43, scope: !178)
!188 = !DILocation(line: 83, column: 52, scope: !178)
!189 = !DILocation(line: 84, column: 47, scope: !178)
!190 = !DILocation(line: 84, column: 14, scope: !178)
!191 = !DILocation(line: 85, column: 2, scope: !178)
!192 = distinct !DISubprogram(name: "k_one_cf", scope: !8, file: !7, line: 88, type: !193, scopeLine: 88, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !198)
!193 = !DISubroutineType(types: !194)
!194 = !{null, !195, !24}
!195 = !DICompositeType(tag: DW_TAG_structure_type, name: "OneCF", scope: !8, file: !12, size: 32, align: 32, flags: DIFlagPublic, elements: !196, templateParams: !23, identifier: "5f9348aff9748a9c1730af8a9dabd9e")
!196 = !{!197}
!197 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !195, file: !12, baseType: !53, size: 32, align: 32, flags: DIFlagPrivate)
!198 = !{!199, !200}
!199 = !DILocalVariable(name: "s", arg: 1, scope: !192, file: !7, line: 88, type: !195)
!200 = !DILocalVariable(name: "out", arg: 2, scope: !192, file: !7, line: 88, type: !24)
!201 = !DILocation(line: 88, column: 44, scope: !192)
!202 = !DILocation(line: 88, column: 54, scope: !192)
!203 = !DILocation(line: 89, column: 47, scope: !192)
!204 = !DILocation(line: 89, column: 14, scope: !192)
!205 = !DILocation(line: 90, column: 2, scope: !192)
!206 = distinct !DISubprogram(name: "k_one_f", scope: !8, file: !7, line: 78, type: !207, scopeLine: 78, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !212)
!207 = !DISubroutineType(types: !208)
!208 = !{null, !209, !24}
!209 = !DICompositeType(tag: DW_TAG_structure_type, name: "OneF", scope: !8, file: !12, size: 32, align: 32, flags: DIFlagPublic, elements: !210, templateParams: !23, identifier: "a4b44573e72230d7c2a7e167731d5f29")
!210 = !{!211}
!211 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !209, file: !12, baseType: !53, size: 32, align: 32, flags: DIFlagPrivate)
!212 = !{!213, !214}
!213 = !DILocalVariable(name: "s", arg: 1, scope: !206, file: !7, line: 78, type: !209)
!214 = !DILocalVariable(name: "out", arg: 2, scope: !206, file: !7, line: 78, type: !24)
!215 = !DILocation(line: 78, column: 43, scope: !206)
!216 = !DILocation(line: 78, column: 52, scope: !206)
!217 = !DILocation(line: 79, column: 14, scope: !206)
!218 = !DILocation(line: 80, column: 2, scope: !206)
!219 = distinct !DISubprogram(name: "k_over", scope: !8, file: !7, line: 148, type: !220, scopeLine: 148, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !225)
!220 = !DISubroutineType(types: !221)
!221 = !{null, !87, !222, !24}
!222 = !DICompositeType(tag: DW_TAG_structure_type, name: "Over", scope: !8, file: !12, size: 128, align: 128, flags: DIFlagPublic, elements: !223, templateParams: !23, identifier: "73d58da9317856612191db7d722f81d7")
!223 = !{!224}
!224 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !222, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!225 = !{!226, !227, !228}
!226 = !DILocalVariable(name: "a", arg: 1, scope: !219, file: !7, line: 148, type: !87)
!227 = !DILocalVariable(name: "o", arg: 2, scope: !219, file: !7, line: 148, type: !222)
!228 = !DILocalVariable(name: "out", arg: 3, scope: !219, file: !7, line: 148, type: !24)
!229 = !DILocation(line: 148, column: 42, scope: !219)
!230 = !DILocation(line: 148, column: 49, scope: !219)
!231 = !DILocation(line: 148, column: 58, scope: !219)
!232 = !DILocation(line: 149, column: 49, scope: !219)
!233 = !DILocation(line: 149, column: 14, scope: !219)
!234 = !DILocation(line: 150, column: 2, scope: !219)
!235 = distinct !DISubprogram(name: "k_padding", scope: !8, file: !7, line: 103, type: !236, scopeLine: 103, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !243)
!236 = !DISubroutineType(types: !237)
!237 = !{null, !238, !24}
!238 = !DICompositeType(tag: DW_TAG_structure_type, name: "Padding", scope: !8, file: !12, size: 128, align: 64, flags: DIFlagPublic, elements: !239, templateParams: !23, identifier: "5fbd800e2923dd2df91492129000894a")
!239 = !{!240, !241}
!240 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !238, file: !12, baseType: !87, size: 8, align: 8, flags: DIFlagPrivate)
!241 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !238, file: !12, baseType: !242, size: 64, align: 64, offset: 64, flags: DIFlagPrivate)
!242 = !DIBasicType(name: "f64", size: 64, encoding: DW_ATE_float)
!243 = !{!244, !245}
!244 = !DILocalVariable(name: "s", arg: 1, scope: !235, file: !7, line: 103, type: !238)
!245 = !DILocalVariable(name: "out", arg: 2, scope: !235, file: !7, line: 103, type: !24)
!246 = !DILocation(line: 103, column: 45, scope: !235)
!247 = !DILocation(line: 103, column: 57, scope: !235)
!248 = !DILocation(line: 104, column: 14, scope: !235)
!249 = !DILocation(line: 105, column: 2, scope: !235)
!250 = distinct !DISubprogram(name: "k_ptrs", scope: !8, file: !7, line: 68, type: !251, scopeLine: 68, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !254)
!251 = !DISubroutineType(types: !252)
!252 = !{null, !253, !24}
!253 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*const u32", baseType: !16, size: 64, align: 64, dwarfAddressSpace: 0)
!254 = !{!255, !256}
!255 = !DILocalVariable(name: "src", arg: 1, scope: !250, file: !7, line: 68, type: !253)
!256 = !DILocalVariable(name: "dst", arg: 2, scope: !250, file: !7, line: 68, type: !24)
!257 = !DILocation(line: 68, column: 42, scope: !250)
!258 = !DILocation(line: 68, column: 59, scope: !250)
!259 = !DILocation(line: 69, column: 21, scope: !250)
!260 = !DILocation(line: 69, column: 14, scope: !250)
!261 = !DILocation(line: 70, column: 2, scope: !250)
!262 = distinct !DISubprogram(name: "k_scalars", scope: !8, file: !7, line: 63, type: !263, scopeLine: 63, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !265)
!263 = !DISubroutineType(types: !264)
!264 = !{null, !16, !85, !53, !87, !24}
!265 = !{!266, !267, !268, !269, !270}
!266 = !DILocalVariable(name: "a", arg: 1, scope: !262, file: !7, line: 63, type: !16)
!267 = !DILocalVariable(name: "b", arg: 2, scope: !262, file: !7, line: 63, type: !85)
!268 = !DILocalVariable(name: "c", arg: 3, scope: !262, file: !7, line: 63, type: !53)
!269 = !DILocalVariable(name: "d", arg: 4, scope: !262, file: !7, line: 63, type: !87)
!270 = !DILocalVariable(name: "out", arg: 5, scope: !262, file: !7, line: 63, type: !24)
!271 = !DILocation(line: 63, column: 45, scope: !262)
!272 = !DILocation(line: 63, column: 53, scope: !262)
!273 = !DILocation(line: 63, column: 61, scope: !262)
!274 = !DILocation(line: 63, column: 69, scope: !262)
!275 = !DILocation(line: 63, column: 76, scope: !262)
!276 = !DILocation(line: 64, column: 14, scope: !262)
!277 = !DILocation(line: 65, column: 2, scope: !262)
!278 = distinct !DISubprogram(name: "k_slice", scope: !8, file: !7, line: 125, type: !279, scopeLine: 125, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !287)
!279 = !DISubroutineType(types: !280)
!280 = !{null, !281, !24}
!281 = !DICompositeType(tag: DW_TAG_structure_type, name: "&[u32]", file: !12, size: 128, align: 64, elements: !282, templateParams: !23, identifier: "467923a08fc75332ca53cdba7e9dfffc")
!282 = !{!283, !285}
!283 = !DIDerivedType(tag: DW_TAG_member, name: "data_ptr", scope: !281, file: !12, baseType: !284, size: 64, align: 64)
!284 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !16, size: 64, align: 64, dwarfAddressSpace: 0)
!285 = !DIDerivedType(tag: DW_TAG_member, name: "length", scope: !281, file: !12, baseType: !286, size: 64, align: 64, offset: 64)
!286 = !DIBasicType(name: "usize", size: 64, encoding: DW_ATE_unsigned)
!287 = !{!288, !289, !290, !290}
!288 = !DILocalVariable(name: "v", arg: 1, scope: !278, file: !7, line: 125, type: !281)
!289 = !DILocalVariable(name: "out", arg: 2, scope: !278, file: !7, line: 125, type: !24)
!290 = !DILocalVariable(name: "parts", scope: !291, file: !7, line: 127, type: !292, align: 64)
!291 = distinct !DILexicalBlock(scope: !278, file: !7, line: 127, column: 9)
!292 = !DICompositeType(tag: DW_TAG_structure_type, name: "(*const u32, usize)", file: !12, size: 128, align: 64, elements: !293, templateParams: !23, identifier: "dac3b93a4f23436cc166118705332f03")
!293 = !{!294, !295}
!294 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !292, file: !12, baseType: !253, size: 64, align: 64)
!295 = !DIDerivedType(tag: DW_TAG_member, name: "__1", scope: !292, file: !12, baseType: !286, size: 64, align: 64, offset: 64)
!296 = !DILocation(line: 125, column: 43, scope: !278)
!297 = !DILocation(line: 125, column: 54, scope: !278)
!298 = !DILocation(line: 127, column: 13, scope: !291)
!299 = !DILocation(line: 128, column: 44, scope: !291)
!300 = !DILocation(line: 128, column: 9, scope: !291)
!301 = !DILocation(line: 130, column: 2, scope: !278)
!302 = distinct !DISubprogram(name: "k_tail", scope: !8, file: !7, line: 153, type: !303, scopeLine: 153, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !305)
!303 = !DISubroutineType(types: !304)
!304 = !{null, !82, !87, !24}
!305 = !{!306, !307, !308}
!306 = !DILocalVariable(name: "t", arg: 1, scope: !302, file: !7, line: 153, type: !82)
!307 = !DILocalVariable(name: "k", arg: 2, scope: !302, file: !7, line: 153, type: !87)
!308 = !DILocalVariable(name: "out", arg: 3, scope: !302, file: !7, line: 153, type: !24)
!309 = !DILocation(line: 153, column: 42, scope: !302)
!310 = !DILocation(line: 153, column: 51, scope: !302)
!311 = !DILocation(line: 153, column: 58, scope: !302)
!312 = !DILocation(line: 154, column: 14, scope: !302)
!313 = !DILocation(line: 155, column: 2, scope: !302)
!314 = distinct !DISubprogram(name: "k_three", scope: !8, file: !7, line: 98, type: !110, scopeLine: 98, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !315)
!315 = !{!316, !317}
!316 = !DILocalVariable(name: "s", arg: 1, scope: !314, file: !7, line: 98, type: !112)
!317 = !DILocalVariable(name: "out", arg: 2, scope: !314, file: !7, line: 98, type: !24)
!318 = !DILocation(line: 98, column: 43, scope: !314)
!319 = !DILocation(line: 98, column: 53, scope: !314)
!320 = !DILocation(line: 99, column: 51, scope: !314)
!321 = !DILocation(line: 99, column: 41, scope: !314)
!322 = !DILocation(line: 99, column: 14, scope: !314)
!323 = !DILocation(line: 100, column: 2, scope: !314)
!324 = distinct !DISubprogram(name: "k_union", scope: !8, file: !7, line: 120, type: !325, scopeLine: 120, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !331)
!325 = !DISubroutineType(types: !326)
!326 = !{null, !327, !24}
!327 = !DICompositeType(tag: DW_TAG_union_type, name: "U", scope: !8, file: !12, size: 32, align: 32, elements: !328, templateParams: !23, identifier: "32b56f7451b39a2345fcded08c957b71")
!328 = !{!329, !330}
!329 = !DIDerivedType(tag: DW_TAG_member, name: "i", scope: !327, file: !12, baseType: !16, size: 32, align: 32)
!330 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !327, file: !12, baseType: !53, size: 32, align: 32)
!331 = !{!332, !333}
!332 = !DILocalVariable(name: "u", arg: 1, scope: !324, file: !7, line: 120, type: !327)
!333 = !DILocalVariable(name: "out", arg: 2, scope: !324, file: !7, line: 120, type: !24)
!334 = !DILocation(line: 120, column: 43, scope: !324)
!335 = !DILocation(line: 120, column: 49, scope: !324)
!336 = !DILocation(line: 121, column: 47, scope: !324)
!337 = !DILocation(line: 121, column: 14, scope: !324)
!338 = !DILocation(line: 122, column: 2, scope: !324)
!339 = distinct !DISubprogram(name: "k_vec", scope: !8, file: !7, line: 166, type: !340, scopeLine: 166, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !351)
!340 = !DISubroutineType(types: !341)
!341 = !{null, !342, !348, !24}
!342 = !DICompositeType(tag: DW_TAG_structure_type, name: "I32x4", scope: !8, file: !12, size: 128, align: 128, flags: DIFlagPublic, elements: !343, templateParams: !23, identifier: "4fd15c03c663f7da790a25c412251a1b")
!343 = !{!344}
!344 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !342, file: !12, baseType: !345, size: 128, align: 32, flags: DIFlagPrivate)
!345 = !DICompositeType(tag: DW_TAG_array_type, baseType: !16, size: 128, align: 32, elements: !346)
!346 = !{!347}
!347 = !DISubrange(count: 4, lowerBound: 0)
!348 = !DICompositeType(tag: DW_TAG_structure_type, name: "V4", scope: !8, file: !12, size: 128, align: 128, flags: DIFlagPublic, elements: !349, templateParams: !23, identifier: "4326b41ca4927be5fe09da01821c28")
!349 = !{!350}
!350 = !DIDerivedType(tag: DW_TAG_member, name: "v", scope: !348, file: !12, baseType: !342, size: 128, align: 128, flags: DIFlagPrivate)
!351 = !{!352, !353, !354}
!352 = !DILocalVariable(name: "v", arg: 1, scope: !339, file: !7, line: 166, type: !342)
!353 = !DILocalVariable(name: "w", arg: 2, scope: !339, file: !7, line: 166, type: !348)
!354 = !DILocalVariable(name: "out", arg: 3, scope: !339, file: !7, line: 166, type: !24)
!355 = !DILocation(line: 166, column: 41, scope: !339)
!356 = !DILocation(line: 166, column: 51, scope: !339)
!357 = !DILocation(line: 166, column: 58, scope: !339)
!358 = !DILocation(line: 167, column: 14, scope: !339)
!359 = !DILocation(line: 168, column: 2, scope: !339)
!360 = distinct !DISubprogram(name: "k_wide", scope: !8, file: !7, line: 138, type: !361, scopeLine: 138, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !366)
!361 = !DISubroutineType(types: !362)
!362 = !{null, !363, !24}
!363 = !DICompositeType(tag: DW_TAG_structure_type, name: "Wide", scope: !8, file: !12, size: 64, align: 64, flags: DIFlagPublic, elements: !364, templateParams: !23, identifier: "38cf4e2d5b87a6a499028ba1439b3605")
!364 = !{!365}
!365 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !363, file: !12, baseType: !85, size: 64, align: 64, flags: DIFlagPrivate)
!366 = !{!367, !368}
!367 = !DILocalVariable(name: "w", arg: 1, scope: !360, file: !7, line: 138, type: !363)
!368 = !DILocalVariable(name: "out", arg: 2, scope: !360, file: !7, line: 138, type: !24)
!369 = !DILocation(line: 138, column: 42, scope: !360)
!370 = !DILocation(line: 138, column: 51, scope: !360)
!371 = !DILocation(line: 139, column: 14, scope: !360)
!372 = !DILocation(line: 140, column: 2, scope: !360)
!373 = distinct !DISubprogram(name: "k_wide_c", scope: !8, file: !7, line: 93, type: !374, scopeLine: 93, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !4, templateParams: !23, retainedNodes: !379)
!374 = !DISubroutineType(types: !375)
!375 = !{null, !376, !24}
!376 = !DICompositeType(tag: DW_TAG_structure_type, name: "WideC", scope: !8, file: !12, size: 64, align: 64, flags: DIFlagPublic, elements: !377, templateParams: !23, identifier: "829a54823050f9e245d26a8ed1f7b08e")
!377 = !{!378}
!378 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !376, file: !12, baseType: !85, size: 64, align: 64, flags: DIFlagPrivate)
!379 = !{!380, !381}
!380 = !DILocalVariable(name: "w", arg: 1, scope: !373, file: !7, line: 93, type: !376)
!381 = !DILocalVariable(name: "out", arg: 2, scope: !373, file: !7, line: 93, type: !24)
!382 = !DILocation(line: 93, column: 44, scope: !373)
!383 = !DILocation(line: 93, column: 54, scope: !373)
!384 = !DILocation(line: 94, column: 47, scope: !373)
!385 = !DILocation(line: 94, column: 14, scope: !373)
!386 = !DILocation(line: 95, column: 2, scope: !373)
