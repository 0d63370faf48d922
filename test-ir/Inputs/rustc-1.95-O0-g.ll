; produced by: cd <repo root> && env RUSTC_BOOTSTRAP=1 rustc --target amdgcn-amd-amdhsa -Ctarget-cpu=gfx90a --crate-type cdylib --emit=llvm-ir -Ccodegen-units=1 -Copt-level=0 -Cdebuginfo=2 --remap-path-prefix=<repo root>=. examples/amdgpu-kernels/kernels.rs -o test-ir/Inputs/rustc-1.95-O0-g.ll   (rustc 1.95.0 (59807616e 2026-04-14))
; ModuleID = 'kernels.10e27077f27b0680-cgu.0'
source_filename = "kernels.10e27077f27b0680-cgu.0"
target datalayout = "e-m:e-p:64:64-p1:64:64-p2:32:32-p3:32:32-p4:64:64-p5:32:32-p6:32:32-p7:160:256:256:32-p8:128:128:128:48-p9:192:256:256:32-i64:64-v16:16-v24:32-v32:32-v48:64-v96:128-v192:256-v256:256-v512:512-v1024:1024-v2048:2048-n32:64-S32-A5-G1-ni:7:8:9"
target triple = "amdgcn-amd-amdhsa"

@__rustc_debug_gdb_scripts_section__ = internal unnamed_addr addrspace(1) constant [34 x i8] c"\01gdb_load_rust_pretty_printers.py\00", section ".debug_gdb_scripts", align 1

; Function Attrs: nounwind
define amdgpu_kernel void @k_arrays(ptr align 4 %s, ptr %out) unnamed_addr #0 !dbg !6 {
start:
  %0 = alloca [4 x i8], align 4, addrspace(5)
  %b7.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [4 x i8], align 4, addrspace(5)
  %b0.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  %2 = alloca [4 x i8], align 4, addrspace(5)
  %a2.dbg.spill = addrspacecast ptr addrspace(5) %2 to ptr
  %3 = alloca [4 x i8], align 4, addrspace(5)
  %a1.dbg.spill = addrspacecast ptr addrspace(5) %3 to ptr
  %4 = alloca [4 x i8], align 4, addrspace(5)
  %a0.dbg.spill = addrspacecast ptr addrspace(5) %4 to ptr
    #dbg_declare(ptr %s, !26, !DIExpression(), !35)
  %5 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %5 to ptr
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !27, !DIExpression(), !36)
  %6 = getelementptr inbounds nuw i32, ptr %s, i64 0, !dbg !37
  %a0 = load i32, ptr %6, align 4, !dbg !37
  store i32 %a0, ptr %a0.dbg.spill, align 4, !dbg !37
    #dbg_declare(ptr %a0.dbg.spill, !28, !DIExpression(), !38)
  %7 = getelementptr inbounds nuw i32, ptr %s, i64 1, !dbg !39
  %a1 = load i32, ptr %7, align 4, !dbg !39
  store i32 %a1, ptr %a1.dbg.spill, align 4, !dbg !39
    #dbg_declare(ptr %a1.dbg.spill, !30, !DIExpression(), !40)
  %8 = getelementptr inbounds nuw i32, ptr %s, i64 2, !dbg !41
  %a2 = load i32, ptr %8, align 4, !dbg !41
  store i32 %a2, ptr %a2.dbg.spill, align 4, !dbg !41
    #dbg_declare(ptr %a2.dbg.spill, !31, !DIExpression(), !42)
  %9 = getelementptr inbounds i8, ptr %s, i64 12, !dbg !43
  %10 = getelementptr inbounds nuw i32, ptr %9, i64 0, !dbg !43
  %b0 = load i32, ptr %10, align 4, !dbg !43
  store i32 %b0, ptr %b0.dbg.spill, align 4, !dbg !43
    #dbg_declare(ptr %b0.dbg.spill, !32, !DIExpression(), !44)
  %11 = getelementptr inbounds i8, ptr %s, i64 12, !dbg !45
  %12 = getelementptr inbounds nuw i32, ptr %11, i64 7, !dbg !45
  %b7 = load i32, ptr %12, align 4, !dbg !45
  store i32 %b7, ptr %b7.dbg.spill, align 4, !dbg !45
    #dbg_declare(ptr %b7.dbg.spill, !34, !DIExpression(), !46)
  %13 = getelementptr inbounds nuw i32, ptr %out, i64 0, !dbg !47
  store i32 %a0, ptr %13, align 4, !dbg !47
  %14 = getelementptr inbounds nuw i32, ptr %out, i64 1, !dbg !47
  store i32 %a1, ptr %14, align 4, !dbg !47
  %15 = getelementptr inbounds nuw i32, ptr %out, i64 2, !dbg !47
  store i32 %a2, ptr %15, align 4, !dbg !47
  %16 = getelementptr inbounds nuw i32, ptr %out, i64 3, !dbg !47
  store i32 %b0, ptr %16, align 4, !dbg !47
  %17 = getelementptr inbounds nuw i32, ptr %out, i64 4, !dbg !47
  store i32 %b7, ptr %17, align 4, !dbg !47
  ret void, !dbg !48
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_complex(float %c.0, float %c.1, ptr %out) unnamed_addr #0 !dbg !49 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [8 x i8], align 4, addrspace(5)
  %c.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  store float %c.0, ptr %c.dbg.spill, align 4
  %2 = getelementptr inbounds i8, ptr %c.dbg.spill, i64 4
  store float %c.1, ptr %2, align 4
    #dbg_declare(ptr %c.dbg.spill, !58, !DIExpression(), !60)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !59, !DIExpression(), !61)
  store float %c.1, ptr %out, align 4, !dbg !62
  %3 = getelementptr inbounds i8, ptr %out, i64 4, !dbg !62
  store float %c.0, ptr %3, align 4, !dbg !62
  ret void, !dbg !63
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_huge(i128 %h, ptr %out) unnamed_addr #0 !dbg !64 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [16 x i8], align 8, addrspace(5)
  %h.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  store i128 %h, ptr %h.dbg.spill, align 8
    #dbg_declare(ptr %h.dbg.spill, !72, !DIExpression(), !74)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !73, !DIExpression(), !75)
  store i128 %h, ptr %out, align 8, !dbg !76
  ret void, !dbg !77
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_mixed(ptr align 4 %d, i32 %o, i64 %t.0, i32 %t.1, i8 zeroext %k, ptr %out) unnamed_addr #0 !dbg !78 {
start:
  %0 = alloca [4 x i8], align 4, addrspace(5)
  %b7.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [4 x i8], align 4, addrspace(5)
  %a0.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  %2 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %2 to ptr
  %3 = alloca [1 x i8], align 1, addrspace(5)
  %k.dbg.spill = addrspacecast ptr addrspace(5) %3 to ptr
  %4 = alloca [16 x i8], align 8, addrspace(5)
  %t.dbg.spill = addrspacecast ptr addrspace(5) %4 to ptr
  %5 = alloca [4 x i8], align 4, addrspace(5)
  %o.dbg.spill = addrspacecast ptr addrspace(5) %5 to ptr
  %6 = alloca [12 x i8], align 4, addrspace(5)
  %_11 = addrspacecast ptr addrspace(5) %6 to ptr
  %7 = alloca [32 x i8], align 8, addrspace(5)
  %_8 = addrspacecast ptr addrspace(5) %7 to ptr
    #dbg_declare(ptr %d, !91, !DIExpression(), !100)
  store i32 %o, ptr %o.dbg.spill, align 4
    #dbg_declare(ptr %o.dbg.spill, !92, !DIExpression(), !101)
  store i64 %t.0, ptr %t.dbg.spill, align 8
  %8 = getelementptr inbounds i8, ptr %t.dbg.spill, i64 8
  store i32 %t.1, ptr %8, align 8
    #dbg_declare(ptr %t.dbg.spill, !93, !DIExpression(), !102)
  store i8 %k, ptr %k.dbg.spill, align 1
    #dbg_declare(ptr %k.dbg.spill, !94, !DIExpression(), !103)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !95, !DIExpression(), !104)
  %9 = getelementptr inbounds nuw i32, ptr %d, i64 0, !dbg !105
  %a0 = load i32, ptr %9, align 4, !dbg !105
  store i32 %a0, ptr %a0.dbg.spill, align 4, !dbg !105
    #dbg_declare(ptr %a0.dbg.spill, !96, !DIExpression(), !106)
  %10 = getelementptr inbounds i8, ptr %d, i64 12, !dbg !107
  %11 = getelementptr inbounds nuw i32, ptr %10, i64 7, !dbg !107
  %b7 = load i32, ptr %11, align 4, !dbg !107
  store i32 %b7, ptr %b7.dbg.spill, align 4, !dbg !107
    #dbg_declare(ptr %b7.dbg.spill, !98, !DIExpression(), !108)
  store i32 %b7, ptr %_11, align 4, !dbg !109
  %12 = getelementptr inbounds i8, ptr %_11, i64 4, !dbg !109
  store i32 %t.1, ptr %12, align 4, !dbg !109
  %13 = getelementptr inbounds i8, ptr %_11, i64 8, !dbg !109
  store i8 %k, ptr %13, align 4, !dbg !109
  store i32 %a0, ptr %_8, align 8, !dbg !110
  %14 = getelementptr inbounds i8, ptr %_8, i64 4, !dbg !110
  store i32 %o, ptr %14, align 4, !dbg !110
  %15 = getelementptr inbounds i8, ptr %_8, i64 8, !dbg !110
  store i64 %t.0, ptr %15, align 8, !dbg !110
  %16 = getelementptr inbounds i8, ptr %_8, i64 16, !dbg !110
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %16, ptr align 4 %_11, i64 12, i1 false), !dbg !110
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %out, ptr align 8 %_8, i64 32, i1 false), !dbg !111
  ret void, !dbg !112
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_mut(ptr align 4 %s, ptr %out) unnamed_addr #0 !dbg !113 {
start:
    #dbg_declare(ptr %s, !122, !DIExpression(), !124)
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !123, !DIExpression(), !125)
  %1 = getelementptr inbounds i8, ptr %s, i64 8, !dbg !126
  %_3 = load i32, ptr %1, align 4, !dbg !126
  store i32 %_3, ptr %s, align 4, !dbg !127
  %_4 = load i32, ptr %out, align 4, !dbg !128
  %2 = getelementptr inbounds i8, ptr %s, i64 4, !dbg !129
  store i32 %_4, ptr %2, align 4, !dbg !129
  %3 = getelementptr inbounds i8, ptr %s, i64 8, !dbg !130
  %_5 = load i32, ptr %3, align 4, !dbg !130
  %4 = getelementptr inbounds i8, ptr %s, i64 4, !dbg !131
  %_6 = load i32, ptr %4, align 4, !dbg !131
  %_7 = load i32, ptr %s, align 4, !dbg !132
  %5 = getelementptr inbounds nuw i32, ptr %out, i64 0, !dbg !133
  store i32 %_5, ptr %5, align 4, !dbg !133
  %6 = getelementptr inbounds nuw i32, ptr %out, i64 1, !dbg !133
  store i32 %_6, ptr %6, align 4, !dbg !133
  %7 = getelementptr inbounds nuw i32, ptr %out, i64 2, !dbg !133
  store i32 %_7, ptr %7, align 4, !dbg !133
  ret void, !dbg !134
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_mut_dyn(ptr align 4 %s, i1 zeroext %pick, ptr %out) unnamed_addr #0 !dbg !135 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [1 x i8], align 1, addrspace(5)
  %pick.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  %2 = alloca [8 x i8], align 8, addrspace(5)
  %p = addrspacecast ptr addrspace(5) %2 to ptr
    #dbg_declare(ptr %s, !140, !DIExpression(), !145)
  %3 = zext i1 %pick to i8
  store i8 %3, ptr %pick.dbg.spill, align 1
    #dbg_declare(ptr %pick.dbg.spill, !141, !DIExpression(), !146)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !142, !DIExpression(), !147)
    #dbg_declare(ptr %p, !143, !DIExpression(), !148)
  br i1 %pick, label %bb1, label %bb2, !dbg !149

bb2:                                              ; preds = %start
  %4 = getelementptr inbounds i8, ptr %s, i64 8, !dbg !150
  store ptr %4, ptr %p, align 8, !dbg !150
  br label %bb3, !dbg !151

bb1:                                              ; preds = %start
  store ptr %s, ptr %p, align 8, !dbg !152
  br label %bb3, !dbg !151

bb3:                                              ; preds = %bb1, %bb2
  %_5 = load i32, ptr %out, align 4, !dbg !153
  %5 = load ptr, ptr %p, align 8, !dbg !154
  store i32 %_5, ptr %5, align 4, !dbg !154
  %_6 = load i32, ptr %s, align 4, !dbg !155
  %6 = getelementptr inbounds i8, ptr %s, i64 4, !dbg !156
  %_7 = load i32, ptr %6, align 4, !dbg !156
  %7 = getelementptr inbounds i8, ptr %s, i64 8, !dbg !157
  %_8 = load i32, ptr %7, align 4, !dbg !157
  %8 = getelementptr inbounds nuw i32, ptr %out, i64 0, !dbg !158
  store i32 %_6, ptr %8, align 4, !dbg !158
  %9 = getelementptr inbounds nuw i32, ptr %out, i64 1, !dbg !158
  store i32 %_7, ptr %9, align 4, !dbg !158
  %10 = getelementptr inbounds nuw i32, ptr %out, i64 2, !dbg !158
  store i32 %_8, ptr %10, align 4, !dbg !158
  ret void, !dbg !159
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_nested(ptr align 4 %s, ptr %out) unnamed_addr #0 !dbg !160 {
start:
    #dbg_declare(ptr %s, !173, !DIExpression(), !175)
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !174, !DIExpression(), !176)
  %_3 = load i32, ptr %s, align 4, !dbg !177
  %1 = getelementptr inbounds i8, ptr %s, i64 8, !dbg !178
  %2 = getelementptr inbounds i8, ptr %1, i64 4, !dbg !178
  %_4 = load i32, ptr %2, align 4, !dbg !178
  %3 = getelementptr inbounds i8, ptr %s, i64 16, !dbg !179
  %_5 = load i32, ptr %3, align 4, !dbg !179
  %4 = getelementptr inbounds i8, ptr %s, i64 16, !dbg !180
  %5 = getelementptr inbounds i8, ptr %4, i64 4, !dbg !180
  %_6 = load i32, ptr %5, align 4, !dbg !180
  %6 = getelementptr inbounds nuw i32, ptr %out, i64 0, !dbg !181
  store i32 %_3, ptr %6, align 4, !dbg !181
  %7 = getelementptr inbounds nuw i32, ptr %out, i64 1, !dbg !181
  store i32 %_4, ptr %7, align 4, !dbg !181
  %8 = getelementptr inbounds nuw i32, ptr %out, i64 2, !dbg !181
  store i32 %_5, ptr %8, align 4, !dbg !181
  %9 = getelementptr inbounds nuw i32, ptr %out, i64 3, !dbg !181
  store i32 %_6, ptr %9, align 4, !dbg !181
  ret void, !dbg !182
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_one(i32 %s, ptr %out) unnamed_addr #0 !dbg !183 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [4 x i8], align 4, addrspace(5)
  %s.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  store i32 %s, ptr %s.dbg.spill, align 4
    #dbg_declare(ptr %s.dbg.spill, !187, !DIExpression(), !189)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !188, !DIExpression(), !190)
  store i32 %s, ptr %out, align 4, !dbg !191
  ret void, !dbg !192
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_one_c(ptr align 4 %s, ptr %out) unnamed_addr #0 !dbg !193 {
start:
    #dbg_declare(ptr %s, !200, !DIExpression(), !202)
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !201, !DIExpression(), !203)
  %_4 = load i32, ptr %s, align 4, !dbg !204
  store i32 %_4, ptr %out, align 4, !dbg !205
  %1 = getelementptr inbounds i8, ptr %out, i64 4, !dbg !205
  store i32 1, ptr %1, align 4, !dbg !205
  ret void, !dbg !206
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_one_cf(ptr align 4 %s, ptr %out) unnamed_addr #0 !dbg !207 {
start:
    #dbg_declare(ptr %s, !214, !DIExpression(), !216)
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !215, !DIExpression(), !217)
  %_4 = load float, ptr %s, align 4, !dbg !218
  store float %_4, ptr %out, align 4, !dbg !219
  %1 = getelementptr inbounds i8, ptr %out, i64 4, !dbg !219
  store i32 2, ptr %1, align 4, !dbg !219
  ret void, !dbg !220
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_one_f(float %s, ptr %out) unnamed_addr #0 !dbg !221 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [4 x i8], align 4, addrspace(5)
  %s.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  store float %s, ptr %s.dbg.spill, align 4
    #dbg_declare(ptr %s.dbg.spill, !228, !DIExpression(), !230)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !229, !DIExpression(), !231)
  store float %s, ptr %out, align 4, !dbg !232
  ret void, !dbg !233
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_over(i8 zeroext %a, ptr align 16 %o, ptr %out) unnamed_addr #0 !dbg !234 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [1 x i8], align 1, addrspace(5)
  %a.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  store i8 %a, ptr %a.dbg.spill, align 1
    #dbg_declare(ptr %a.dbg.spill, !241, !DIExpression(), !244)
    #dbg_declare(ptr %o, !242, !DIExpression(), !245)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !243, !DIExpression(), !246)
  %_5 = load i32, ptr %o, align 16, !dbg !247
  store i8 %a, ptr %out, align 4, !dbg !248
  %2 = getelementptr inbounds i8, ptr %out, i64 4, !dbg !248
  store i32 %_5, ptr %2, align 4, !dbg !248
  ret void, !dbg !249
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_padding(i8 %s.0, double %s.1, ptr %out) unnamed_addr #0 !dbg !250 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [16 x i8], align 8, addrspace(5)
  %s.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  store i8 %s.0, ptr %s.dbg.spill, align 8
  %2 = getelementptr inbounds i8, ptr %s.dbg.spill, i64 8
  store double %s.1, ptr %2, align 8
    #dbg_declare(ptr %s.dbg.spill, !259, !DIExpression(), !261)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !260, !DIExpression(), !262)
  store i8 %s.0, ptr %out, align 8, !dbg !263
  %3 = getelementptr inbounds i8, ptr %out, i64 8, !dbg !263
  store double %s.1, ptr %3, align 8, !dbg !263
  ret void, !dbg !264
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_ptrs(ptr %src, ptr %dst) unnamed_addr #0 !dbg !265 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %dst.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [8 x i8], align 8, addrspace(5)
  %src.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  store ptr %src, ptr %src.dbg.spill, align 8
    #dbg_declare(ptr %src.dbg.spill, !270, !DIExpression(), !272)
  store ptr %dst, ptr %dst.dbg.spill, align 8
    #dbg_declare(ptr %dst.dbg.spill, !271, !DIExpression(), !273)
  %_3 = load i32, ptr %src, align 4, !dbg !274
  store i32 %_3, ptr %dst, align 4, !dbg !275
  ret void, !dbg !276
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_scalars(i32 %a, i64 %b, float %c, i8 zeroext %d, ptr %out) unnamed_addr #0 !dbg !277 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [1 x i8], align 1, addrspace(5)
  %d.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  %2 = alloca [4 x i8], align 4, addrspace(5)
  %c.dbg.spill = addrspacecast ptr addrspace(5) %2 to ptr
  %3 = alloca [8 x i8], align 8, addrspace(5)
  %b.dbg.spill = addrspacecast ptr addrspace(5) %3 to ptr
  %4 = alloca [4 x i8], align 4, addrspace(5)
  %a.dbg.spill = addrspacecast ptr addrspace(5) %4 to ptr
  %5 = alloca [24 x i8], align 8, addrspace(5)
  %_6 = addrspacecast ptr addrspace(5) %5 to ptr
  store i32 %a, ptr %a.dbg.spill, align 4
    #dbg_declare(ptr %a.dbg.spill, !281, !DIExpression(), !286)
  store i64 %b, ptr %b.dbg.spill, align 8
    #dbg_declare(ptr %b.dbg.spill, !282, !DIExpression(), !287)
  store float %c, ptr %c.dbg.spill, align 4
    #dbg_declare(ptr %c.dbg.spill, !283, !DIExpression(), !288)
  store i8 %d, ptr %d.dbg.spill, align 1
    #dbg_declare(ptr %d.dbg.spill, !284, !DIExpression(), !289)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !285, !DIExpression(), !290)
  store i32 %a, ptr %_6, align 8, !dbg !291
  %6 = getelementptr inbounds i8, ptr %_6, i64 8, !dbg !291
  store i64 %b, ptr %6, align 8, !dbg !291
  %7 = getelementptr inbounds i8, ptr %_6, i64 16, !dbg !291
  store float %c, ptr %7, align 8, !dbg !291
  %8 = getelementptr inbounds i8, ptr %_6, i64 20, !dbg !291
  store i8 %d, ptr %8, align 4, !dbg !291
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %out, ptr align 8 %_6, i64 24, i1 false), !dbg !292
  ret void, !dbg !293
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_slice(ptr align 4 %v.0, i64 %v.1, ptr %out) unnamed_addr #0 !dbg !294 {
start:
  %0 = alloca [16 x i8], align 8, addrspace(5)
  %parts.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  %2 = alloca [16 x i8], align 8, addrspace(5)
  %v.dbg.spill = addrspacecast ptr addrspace(5) %2 to ptr
  %3 = alloca [16 x i8], align 8, addrspace(5)
  %_4 = addrspacecast ptr addrspace(5) %3 to ptr
  store ptr %v.0, ptr %v.dbg.spill, align 8
  %4 = getelementptr inbounds i8, ptr %v.dbg.spill, i64 8
  store i64 %v.1, ptr %4, align 8
    #dbg_declare(ptr %v.dbg.spill, !304, !DIExpression(), !312)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !305, !DIExpression(), !313)
  store ptr %v.0, ptr %_4, align 8, !dbg !314
  %5 = getelementptr inbounds i8, ptr %_4, i64 8, !dbg !314
  store i64 %v.1, ptr %5, align 8, !dbg !314
  %parts.0 = load ptr, ptr %_4, align 8, !dbg !314
  %6 = getelementptr inbounds i8, ptr %_4, i64 8, !dbg !314
  %parts.1 = load i64, ptr %6, align 8, !dbg !314
  store ptr %parts.0, ptr %parts.dbg.spill, align 8, !dbg !314
  %7 = getelementptr inbounds i8, ptr %parts.dbg.spill, i64 8, !dbg !314
  store i64 %parts.1, ptr %7, align 8, !dbg !314
    #dbg_declare(ptr %parts.dbg.spill, !306, !DIExpression(), !315)
  %_7 = load i32, ptr %parts.0, align 4, !dbg !316
  store i32 %_7, ptr %out, align 8, !dbg !317
  %8 = getelementptr inbounds i8, ptr %out, i64 8, !dbg !317
  store i64 %parts.1, ptr %8, align 8, !dbg !317
  ret void, !dbg !318
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_tail(i64 %t.0, i32 %t.1, i8 zeroext %k, ptr %out) unnamed_addr #0 !dbg !319 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [1 x i8], align 1, addrspace(5)
  %k.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  %2 = alloca [16 x i8], align 8, addrspace(5)
  %t.dbg.spill = addrspacecast ptr addrspace(5) %2 to ptr
  %3 = alloca [16 x i8], align 8, addrspace(5)
  %_4 = addrspacecast ptr addrspace(5) %3 to ptr
  store i64 %t.0, ptr %t.dbg.spill, align 8
  %4 = getelementptr inbounds i8, ptr %t.dbg.spill, i64 8
  store i32 %t.1, ptr %4, align 8
    #dbg_declare(ptr %t.dbg.spill, !323, !DIExpression(), !326)
  store i8 %k, ptr %k.dbg.spill, align 1
    #dbg_declare(ptr %k.dbg.spill, !324, !DIExpression(), !327)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !325, !DIExpression(), !328)
  store i64 %t.0, ptr %_4, align 8, !dbg !329
  %5 = getelementptr inbounds i8, ptr %_4, i64 8, !dbg !329
  store i32 %t.1, ptr %5, align 8, !dbg !329
  %6 = getelementptr inbounds i8, ptr %_4, i64 12, !dbg !329
  store i8 %k, ptr %6, align 4, !dbg !329
  call void @llvm.memcpy.p0.p0.i64(ptr align 8 %out, ptr align 8 %_4, i64 16, i1 false), !dbg !330
  ret void, !dbg !331
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_three(ptr align 4 %s, ptr %out) unnamed_addr #0 !dbg !332 {
start:
    #dbg_declare(ptr %s, !334, !DIExpression(), !336)
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !335, !DIExpression(), !337)
  %_3 = load i32, ptr %s, align 4, !dbg !338
  %1 = getelementptr inbounds i8, ptr %s, i64 4, !dbg !339
  %_4 = load i32, ptr %1, align 4, !dbg !339
  %2 = getelementptr inbounds i8, ptr %s, i64 8, !dbg !340
  %_5 = load i32, ptr %2, align 4, !dbg !340
  %3 = getelementptr inbounds nuw i32, ptr %out, i64 0, !dbg !341
  store i32 %_3, ptr %3, align 4, !dbg !341
  %4 = getelementptr inbounds nuw i32, ptr %out, i64 1, !dbg !341
  store i32 %_4, ptr %4, align 4, !dbg !341
  %5 = getelementptr inbounds nuw i32, ptr %out, i64 2, !dbg !341
  store i32 %_5, ptr %5, align 4, !dbg !341
  ret void, !dbg !342
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_union(ptr align 4 %u, ptr %out) unnamed_addr #0 !dbg !343 {
start:
    #dbg_declare(ptr %u, !351, !DIExpression(), !353)
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !352, !DIExpression(), !354)
  %_4 = load i32, ptr %u, align 4, !dbg !355
  %_5 = load float, ptr %u, align 4, !dbg !356
  store i32 %_4, ptr %out, align 4, !dbg !357
  %1 = getelementptr inbounds i8, ptr %out, i64 4, !dbg !357
  store float %_5, ptr %1, align 4, !dbg !357
  ret void, !dbg !358
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_vec(<4 x i32> %v, <4 x i32> %w, ptr %out) unnamed_addr #0 !dbg !359 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [16 x i8], align 16, addrspace(5)
  %w.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  %2 = alloca [16 x i8], align 16, addrspace(5)
  %v.dbg.spill = addrspacecast ptr addrspace(5) %2 to ptr
  %3 = alloca [32 x i8], align 16, addrspace(5)
  %_4 = addrspacecast ptr addrspace(5) %3 to ptr
  store <4 x i32> %v, ptr %v.dbg.spill, align 16
    #dbg_declare(ptr %v.dbg.spill, !372, !DIExpression(), !375)
  store <4 x i32> %w, ptr %w.dbg.spill, align 16
    #dbg_declare(ptr %w.dbg.spill, !373, !DIExpression(), !376)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !374, !DIExpression(), !377)
  store <4 x i32> %v, ptr %_4, align 16, !dbg !378
  %4 = getelementptr inbounds i8, ptr %_4, i64 16, !dbg !378
  store <4 x i32> %w, ptr %4, align 16, !dbg !378
  call void @llvm.memcpy.p0.p0.i64(ptr align 16 %out, ptr align 16 %_4, i64 32, i1 false), !dbg !379
  ret void, !dbg !380
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_wide(i64 %w, ptr %out) unnamed_addr #0 !dbg !381 {
start:
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  %1 = alloca [8 x i8], align 8, addrspace(5)
  %w.dbg.spill = addrspacecast ptr addrspace(5) %1 to ptr
  store i64 %w, ptr %w.dbg.spill, align 8
    #dbg_declare(ptr %w.dbg.spill, !388, !DIExpression(), !390)
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !389, !DIExpression(), !391)
  store i64 %w, ptr %out, align 8, !dbg !392
  ret void, !dbg !393
}

; Function Attrs: nounwind
define amdgpu_kernel void @k_wide_c(ptr align 8 %w, ptr %out) unnamed_addr #0 !dbg !394 {
start:
    #dbg_declare(ptr %w, !401, !DIExpression(), !403)
  %0 = alloca [8 x i8], align 8, addrspace(5)
  %out.dbg.spill = addrspacecast ptr addrspace(5) %0 to ptr
  store ptr %out, ptr %out.dbg.spill, align 8
    #dbg_declare(ptr %out.dbg.spill, !402, !DIExpression(), !404)
  %_4 = load i64, ptr %w, align 8, !dbg !405
  store i64 %_4, ptr %out, align 8, !dbg !406
  %1 = getelementptr inbounds i8, ptr %out, i64 8, !dbg !406
  store i32 3, ptr %1, align 8, !dbg !406
  ret void, !dbg !407
}

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #1

attributes #0 = { nounwind "target-cpu"="gfx90a" }
attributes #1 = { nocallback nofree nounwind willreturn memory(argmem: readwrite) }

!llvm.module.flags = !{!0, !1, !2}
!llvm.ident = !{!3}
!llvm.dbg.cu = !{!4}

!0 = !{i32 8, !"PIC Level", i32 2}
!1 = !{i32 7, !"Dwarf Version", i32 4}
!2 = !{i32 2, !"Debug Info Version", i32 3}
!3 = !{!"rustc version 1.95.0 (59807616e 2026-04-14)"}
!4 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !5, producer: "clang LLVM (rustc version 1.95.0 (59807616e 2026-04-14))", isOptimized: false, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!5 = !DIFile(filename: "examples/amdgpu-kernels/kernels.rs/@/kernels.10e27077f27b0680-cgu.0", directory: ".")
!6 = distinct !DISubprogram(name: "k_arrays", scope: !8, file: !7, line: 108, type: !9, scopeLine: 108, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !25)
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
!37 = !DILocation(line: 109, column: 10, scope: !6)
!38 = !DILocation(line: 109, column: 10, scope: !29)
!39 = !DILocation(line: 109, column: 14, scope: !6)
!40 = !DILocation(line: 109, column: 14, scope: !29)
!41 = !DILocation(line: 109, column: 18, scope: !6)
!42 = !DILocation(line: 109, column: 18, scope: !29)
!43 = !DILocation(line: 110, column: 10, scope: !29)
!44 = !DILocation(line: 110, column: 10, scope: !33)
!45 = !DILocation(line: 110, column: 32, scope: !29)
!46 = !DILocation(line: 110, column: 32, scope: !33)
!47 = !DILocation(line: 111, column: 14, scope: !33)
!48 = !DILocation(line: 112, column: 2, scope: !6)
!49 = distinct !DISubprogram(name: "k_complex", scope: !8, file: !7, line: 133, type: !50, scopeLine: 133, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !57)
!50 = !DISubroutineType(types: !51)
!51 = !{null, !52, !24}
!52 = !DICompositeType(tag: DW_TAG_structure_type, name: "Complex", scope: !8, file: !12, size: 64, align: 32, flags: DIFlagPublic, elements: !53, templateParams: !23, identifier: "a1655eb9658b41d4f9e7c3bc33d463bf")
!53 = !{!54, !56}
!54 = !DIDerivedType(tag: DW_TAG_member, name: "re", scope: !52, file: !12, baseType: !55, size: 32, align: 32, flags: DIFlagPrivate)
!55 = !DIBasicType(name: "f32", size: 32, encoding: DW_ATE_float)
!56 = !DIDerivedType(tag: DW_TAG_member, name: "im", scope: !52, file: !12, baseType: !55, size: 32, align: 32, offset: 32, flags: DIFlagPrivate)
!57 = !{!58, !59}
!58 = !DILocalVariable(name: "c", arg: 1, scope: !49, file: !7, line: 133, type: !52)
!59 = !DILocalVariable(name: "out", arg: 2, scope: !49, file: !7, line: 133, type: !24)
!60 = !DILocation(line: 133, column: 45, scope: !49)
!61 = !DILocation(line: 133, column: 57, scope: !49)
!62 = !DILocation(line: 134, column: 14, scope: !49)
!63 = !DILocation(line: 135, column: 2, scope: !49)
!64 = distinct !DISubprogram(name: "k_huge", scope: !8, file: !7, line: 143, type: !65, scopeLine: 143, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !71)
!65 = !DISubroutineType(types: !66)
!66 = !{null, !67, !24}
!67 = !DICompositeType(tag: DW_TAG_structure_type, name: "Huge", scope: !8, file: !12, size: 128, align: 64, flags: DIFlagPublic, elements: !68, templateParams: !23, identifier: "947de88cb92e393d4f002175daab34e0")
!68 = !{!69}
!69 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !67, file: !12, baseType: !70, size: 128, align: 64, flags: DIFlagPrivate)
!70 = !DIBasicType(name: "i128", size: 128, encoding: DW_ATE_signed)
!71 = !{!72, !73}
!72 = !DILocalVariable(name: "h", arg: 1, scope: !64, file: !7, line: 143, type: !67)
!73 = !DILocalVariable(name: "out", arg: 2, scope: !64, file: !7, line: 143, type: !24)
!74 = !DILocation(line: 143, column: 42, scope: !64)
!75 = !DILocation(line: 143, column: 51, scope: !64)
!76 = !DILocation(line: 144, column: 14, scope: !64)
!77 = !DILocation(line: 145, column: 2, scope: !64)
!78 = distinct !DISubprogram(name: "k_mixed", scope: !8, file: !7, line: 159, type: !79, scopeLine: 159, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !90)
!79 = !DISubroutineType(types: !80)
!80 = !{null, !11, !81, !84, !89, !24}
!81 = !DICompositeType(tag: DW_TAG_structure_type, name: "One", scope: !8, file: !12, size: 32, align: 32, flags: DIFlagPublic, elements: !82, templateParams: !23, identifier: "4f2162be5c972bbdc1dc420321c6d677")
!82 = !{!83}
!83 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !81, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!84 = !DICompositeType(tag: DW_TAG_structure_type, name: "Tail", scope: !8, file: !12, size: 128, align: 64, flags: DIFlagPublic, elements: !85, templateParams: !23, identifier: "c5c225d2505565a0a406096cbd49f8d2")
!85 = !{!86, !88}
!86 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !84, file: !12, baseType: !87, size: 64, align: 64, flags: DIFlagPrivate)
!87 = !DIBasicType(name: "u64", size: 64, encoding: DW_ATE_unsigned)
!88 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !84, file: !12, baseType: !16, size: 32, align: 32, offset: 64, flags: DIFlagPrivate)
!89 = !DIBasicType(name: "u8", size: 8, encoding: DW_ATE_unsigned)
!90 = !{!91, !92, !93, !94, !95, !96, !98}
!91 = !DILocalVariable(name: "d", arg: 1, scope: !78, file: !7, line: 159, type: !11)
!92 = !DILocalVariable(name: "o", arg: 2, scope: !78, file: !7, line: 159, type: !81)
!93 = !DILocalVariable(name: "t", arg: 3, scope: !78, file: !7, line: 159, type: !84)
!94 = !DILocalVariable(name: "k", arg: 4, scope: !78, file: !7, line: 159, type: !89)
!95 = !DILocalVariable(name: "out", arg: 5, scope: !78, file: !7, line: 159, type: !24)
!96 = !DILocalVariable(name: "a0", scope: !97, file: !7, line: 160, type: !16, align: 32)
!97 = distinct !DILexicalBlock(scope: !78, file: !7, line: 160, column: 5)
!98 = !DILocalVariable(name: "b7", scope: !99, file: !7, line: 161, type: !16, align: 32)
!99 = distinct !DILexicalBlock(scope: !97, file: !7, line: 161, column: 5)
!100 = !DILocation(line: 159, column: 43, scope: !78)
!101 = !DILocation(line: 159, column: 54, scope: !78)
!102 = !DILocation(line: 159, column: 62, scope: !78)
!103 = !DILocation(line: 159, column: 71, scope: !78)
!104 = !DILocation(line: 159, column: 78, scope: !78)
!105 = !DILocation(line: 160, column: 10, scope: !78)
!106 = !DILocation(line: 160, column: 10, scope: !97)
!107 = !DILocation(line: 161, column: 31, scope: !97)
!108 = !DILocation(line: 161, column: 31, scope: !99)
!109 = !DILocation(line: 162, column: 84, scope: !99)
!110 = !DILocation(line: 162, column: 67, scope: !99)
!111 = !DILocation(line: 162, column: 14, scope: !99)
!112 = !DILocation(line: 163, column: 2, scope: !78)
!113 = distinct !DISubprogram(name: "k_mut", scope: !8, file: !7, line: 172, type: !114, scopeLine: 172, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !121)
!114 = !DISubroutineType(types: !115)
!115 = !{null, !116, !24}
!116 = !DICompositeType(tag: DW_TAG_structure_type, name: "Three", scope: !8, file: !12, size: 96, align: 32, flags: DIFlagPublic, elements: !117, templateParams: !23, identifier: "2c574fb10bbe13226fdbbf59f83ed278")
!117 = !{!118, !119, !120}
!118 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !116, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!119 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !116, file: !12, baseType: !16, size: 32, align: 32, offset: 32, flags: DIFlagPrivate)
!120 = !DIDerivedType(tag: DW_TAG_member, name: "c", scope: !116, file: !12, baseType: !16, size: 32, align: 32, offset: 64, flags: DIFlagPrivate)
!121 = !{!122, !123}
!122 = !DILocalVariable(name: "s", arg: 1, scope: !113, file: !7, line: 172, type: !116)
!123 = !DILocalVariable(name: "out", arg: 2, scope: !113, file: !7, line: 172, type: !24)
!124 = !DILocation(line: 172, column: 41, scope: !113)
!125 = !DILocation(line: 172, column: 55, scope: !113)
!126 = !DILocation(line: 173, column: 11, scope: !113)
!127 = !DILocation(line: 173, column: 5, scope: !113)
!128 = !DILocation(line: 175, column: 15, scope: !113)
!129 = !DILocation(line: 175, column: 9, scope: !113)
!130 = !DILocation(line: 176, column: 36, scope: !113)
!131 = !DILocation(line: 176, column: 41, scope: !113)
!132 = !DILocation(line: 176, column: 46, scope: !113)
!133 = !DILocation(line: 176, column: 9, scope: !113)
!134 = !DILocation(line: 178, column: 2, scope: !113)
!135 = distinct !DISubprogram(name: "k_mut_dyn", scope: !8, file: !7, line: 182, type: !136, scopeLine: 182, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !139)
!136 = !DISubroutineType(types: !137)
!137 = !{null, !116, !138, !24}
!138 = !DIBasicType(name: "bool", size: 8, encoding: DW_ATE_boolean)
!139 = !{!140, !141, !142, !143}
!140 = !DILocalVariable(name: "s", arg: 1, scope: !135, file: !7, line: 182, type: !116)
!141 = !DILocalVariable(name: "pick", arg: 2, scope: !135, file: !7, line: 182, type: !138)
!142 = !DILocalVariable(name: "out", arg: 3, scope: !135, file: !7, line: 182, type: !24)
!143 = !DILocalVariable(name: "p", scope: !144, file: !7, line: 183, type: !24, align: 64)
!144 = distinct !DILexicalBlock(scope: !135, file: !7, line: 183, column: 5)
!145 = !DILocation(line: 182, column: 45, scope: !135)
!146 = !DILocation(line: 182, column: 59, scope: !135)
!147 = !DILocation(line: 182, column: 71, scope: !135)
!148 = !DILocation(line: 183, column: 9, scope: !144)
!149 = !DILocation(line: 183, column: 26, scope: !135)
!150 = !DILocation(line: 183, column: 55, scope: !135)
!151 = !DILocation(line: 183, column: 23, scope: !135)
!152 = !DILocation(line: 183, column: 33, scope: !135)
!153 = !DILocation(line: 185, column: 14, scope: !144)
!154 = !DILocation(line: 185, column: 9, scope: !144)
!155 = !DILocation(line: 186, column: 36, scope: !144)
!156 = !DILocation(line: 186, column: 41, scope: !144)
!157 = !DILocation(line: 186, column: 46, scope: !144)
!158 = !DILocation(line: 186, column: 9, scope: !144)
!159 = !DILocation(line: 188, column: 2, scope: !135)
!160 = distinct !DISubprogram(name: "k_nested", scope: !8, file: !7, line: 115, type: !161, scopeLine: 115, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !172)
!161 = !DISubroutineType(types: !162)
!162 = !{null, !163, !24}
!163 = !DICompositeType(tag: DW_TAG_structure_type, name: "Nested", scope: !8, file: !12, size: 192, align: 32, flags: DIFlagPublic, elements: !164, templateParams: !23, identifier: "79944dd2cfcedf04f4da3e8ae0494524")
!164 = !{!165, !170, !171}
!165 = !DIDerivedType(tag: DW_TAG_member, name: "p", scope: !163, file: !12, baseType: !166, size: 64, align: 32, flags: DIFlagPrivate)
!166 = !DICompositeType(tag: DW_TAG_structure_type, name: "Inner", scope: !8, file: !12, size: 64, align: 32, flags: DIFlagPublic, elements: !167, templateParams: !23, identifier: "2ba64ace54d6574eac98ca5f5b1fb3c7")
!167 = !{!168, !169}
!168 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !166, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!169 = !DIDerivedType(tag: DW_TAG_member, name: "y", scope: !166, file: !12, baseType: !16, size: 32, align: 32, offset: 32, flags: DIFlagPrivate)
!170 = !DIDerivedType(tag: DW_TAG_member, name: "q", scope: !163, file: !12, baseType: !166, size: 64, align: 32, offset: 64, flags: DIFlagPrivate)
!171 = !DIDerivedType(tag: DW_TAG_member, name: "r", scope: !163, file: !12, baseType: !166, size: 64, align: 32, offset: 128, flags: DIFlagPrivate)
!172 = !{!173, !174}
!173 = !DILocalVariable(name: "s", arg: 1, scope: !160, file: !7, line: 115, type: !163)
!174 = !DILocalVariable(name: "out", arg: 2, scope: !160, file: !7, line: 115, type: !24)
!175 = !DILocation(line: 115, column: 44, scope: !160)
!176 = !DILocation(line: 115, column: 55, scope: !160)
!177 = !DILocation(line: 116, column: 41, scope: !160)
!178 = !DILocation(line: 116, column: 48, scope: !160)
!179 = !DILocation(line: 116, column: 55, scope: !160)
!180 = !DILocation(line: 116, column: 62, scope: !160)
!181 = !DILocation(line: 116, column: 14, scope: !160)
!182 = !DILocation(line: 117, column: 2, scope: !160)
!183 = distinct !DISubprogram(name: "k_one", scope: !8, file: !7, line: 73, type: !184, scopeLine: 73, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !186)
!184 = !DISubroutineType(types: !185)
!185 = !{null, !81, !24}
!186 = !{!187, !188}
!187 = !DILocalVariable(name: "s", arg: 1, scope: !183, file: !7, line: 73, type: !81)
!188 = !DILocalVariable(name: "out", arg: 2, scope: !183, file: !7, line: 73, type: !24)
!189 = !DILocation(line: 73, column: 41, scope: !183)
!190 = !DILocation(line: 73, column: 49, scope: !183)
!191 = !DILocation(line: 74, column: 14, scope: !183)
!192 = !DILocation(line: 75, column: 2, scope: !183)
!193 = distinct !DISubprogram(name: "k_one_c", scope: !8, file: !7, line: 83, type: !194, scopeLine: 83, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !199)
!194 = !DISubroutineType(types: !195)
!195 = !{null, !196, !24}
!196 = !DICompositeType(tag: DW_TAG_structure_type, name: "OneC", scope: !8, file: !12, size: 32, align: 32, flags: DIFlagPublic, elements: !197, templateParams: !23, identifier: "387df1230d075d0143a0942a6bb07e2b")
!197 = !{!198}
!198 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !196, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!199 = !{!200, !201}
!200 = !DILocalVariable(name: "s", arg: 1, scope: !193, file: !7, line: 83, type: !196)
!201 = !DILocalVariable(name: "out", arg: 2, scope: !193, file: !7, line: 83, type: !24)
!202 = !DILocation(line: 83, column: 43, scope: !193)
!203 = !DILocation(line: 83, column: 52, scope: !193)
!204 = !DILocation(line: 84, column: 47, scope: !193)
!205 = !DILocation(line: 84, column: 14, scope: !193)
!206 = !DILocation(line: 85, column: 2, scope: !193)
!207 = distinct !DISubprogram(name: "k_one_cf", scope: !8, file: !7, line: 88, type: !208, scopeLine: 88, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !213)
!208 = !DISubroutineType(types: !209)
!209 = !{null, !210, !24}
!210 = !DICompositeType(tag: DW_TAG_structure_type, name: "OneCF", scope: !8, file: !12, size: 32, align: 32, flags: DIFlagPublic, elements: !211, templateParams: !23, identifier: "5f9348aff9748a9c1730af8a9dabd9e")
!211 = !{!212}
!212 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !210, file: !12, baseType: !55, size: 32, align: 32, flags: DIFlagPrivate)
!213 = !{!214, !215}
!214 = !DILocalVariable(name: "s", arg: 1, scope: !207, file: !7, line: 88, type: !210)
!215 = !DILocalVariable(name: "out", arg: 2, scope: !207, file: !7, line: 88, type: !24)
!216 = !DILocation(line: 88, column: 44, scope: !207)
!217 = !DILocation(line: 88, column: 54, scope: !207)
!218 = !DILocation(line: 89, column: 47, scope: !207)
!219 = !DILocation(line: 89, column: 14, scope: !207)
!220 = !DILocation(line: 90, column: 2, scope: !207)
!221 = distinct !DISubprogram(name: "k_one_f", scope: !8, file: !7, line: 78, type: !222, scopeLine: 78, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !227)
!222 = !DISubroutineType(types: !223)
!223 = !{null, !224, !24}
!224 = !DICompositeType(tag: DW_TAG_structure_type, name: "OneF", scope: !8, file: !12, size: 32, align: 32, flags: DIFlagPublic, elements: !225, templateParams: !23, identifier: "a4b44573e72230d7c2a7e167731d5f29")
!225 = !{!226}
!226 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !224, file: !12, baseType: !55, size: 32, align: 32, flags: DIFlagPrivate)
!227 = !{!228, !229}
!228 = !DILocalVariable(name: "s", arg: 1, scope: !221, file: !7, line: 78, type: !224)
!229 = !DILocalVariable(name: "out", arg: 2, scope: !221, file: !7, line: 78, type: !24)
!230 = !DILocation(line: 78, column: 43, scope: !221)
!231 = !DILocation(line: 78, column: 52, scope: !221)
!232 = !DILocation(line: 79, column: 14, scope: !221)
!233 = !DILocation(line: 80, column: 2, scope: !221)
!234 = distinct !DISubprogram(name: "k_over", scope: !8, file: !7, line: 148, type: !235, scopeLine: 148, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !240)
!235 = !DISubroutineType(types: !236)
!236 = !{null, !89, !237, !24}
!237 = !DICompositeType(tag: DW_TAG_structure_type, name: "Over", scope: !8, file: !12, size: 128, align: 128, flags: DIFlagPublic, elements: !238, templateParams: !23, identifier: "73d58da9317856612191db7d722f81d7")
!238 = !{!239}
!239 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !237, file: !12, baseType: !16, size: 32, align: 32, flags: DIFlagPrivate)
!240 = !{!241, !242, !243}
!241 = !DILocalVariable(name: "a", arg: 1, scope: !234, file: !7, line: 148, type: !89)
!242 = !DILocalVariable(name: "o", arg: 2, scope: !234, file: !7, line: 148, type: !237)
!243 = !DILocalVariable(name: "out", arg: 3, scope: !234, file: !7, line: 148, type: !24)
!244 = !DILocation(line: 148, column: 42, scope: !234)
!245 = !DILocation(line: 148, column: 49, scope: !234)
!246 = !DILocation(line: 148, column: 58, scope: !234)
!247 = !DILocation(line: 149, column: 49, scope: !234)
!248 = !DILocation(line: 149, column: 14, scope: !234)
!249 = !DILocation(line: 150, column: 2, scope: !234)
!250 = distinct !DISubprogram(name: "k_padding", scope: !8, file: !7, line: 103, type: !251, scopeLine: 103, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !258)
!251 = !DISubroutineType(types: !252)
!252 = !{null, !253, !24}
!253 = !DICompositeType(tag: DW_TAG_structure_type, name: "Padding", scope: !8, file: !12, size: 128, align: 64, flags: DIFlagPublic, elements: !254, templateParams: !23, identifier: "5fbd800e2923dd2df91492129000894a")
!254 = !{!255, !256}
!255 = !DIDerivedType(tag: DW_TAG_member, name: "a", scope: !253, file: !12, baseType: !89, size: 8, align: 8, flags: DIFlagPrivate)
!256 = !DIDerivedType(tag: DW_TAG_member, name: "b", scope: !253, file: !12, baseType: !257, size: 64, align: 64, offset: 64, flags: DIFlagPrivate)
!257 = !DIBasicType(name: "f64", size: 64, encoding: DW_ATE_float)
!258 = !{!259, !260}
!259 = !DILocalVariable(name: "s", arg: 1, scope: !250, file: !7, line: 103, type: !253)
!260 = !DILocalVariable(name: "out", arg: 2, scope: !250, file: !7, line: 103, type: !24)
!261 = !DILocation(line: 103, column: 45, scope: !250)
!262 = !DILocation(line: 103, column: 57, scope: !250)
!263 = !DILocation(line: 104, column: 14, scope: !250)
!264 = !DILocation(line: 105, column: 2, scope: !250)
!265 = distinct !DISubprogram(name: "k_ptrs", scope: !8, file: !7, line: 68, type: !266, scopeLine: 68, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !269)
!266 = !DISubroutineType(types: !267)
!267 = !{null, !268, !24}
!268 = !DIDerivedType(tag: DW_TAG_pointer_type, name: "*const u32", baseType: !16, size: 64, align: 64, dwarfAddressSpace: 0)
!269 = !{!270, !271}
!270 = !DILocalVariable(name: "src", arg: 1, scope: !265, file: !7, line: 68, type: !268)
!271 = !DILocalVariable(name: "dst", arg: 2, scope: !265, file: !7, line: 68, type: !24)
!272 = !DILocation(line: 68, column: 42, scope: !265)
!273 = !DILocation(line: 68, column: 59, scope: !265)
!274 = !DILocation(line: 69, column: 21, scope: !265)
!275 = !DILocation(line: 69, column: 14, scope: !265)
!276 = !DILocation(line: 70, column: 2, scope: !265)
!277 = distinct !DISubprogram(name: "k_scalars", scope: !8, file: !7, line: 63, type: !278, scopeLine: 63, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !280)
!278 = !DISubroutineType(types: !279)
!279 = !{null, !16, !87, !55, !89, !24}
!280 = !{!281, !282, !283, !284, !285}
!281 = !DILocalVariable(name: "a", arg: 1, scope: !277, file: !7, line: 63, type: !16)
!282 = !DILocalVariable(name: "b", arg: 2, scope: !277, file: !7, line: 63, type: !87)
!283 = !DILocalVariable(name: "c", arg: 3, scope: !277, file: !7, line: 63, type: !55)
!284 = !DILocalVariable(name: "d", arg: 4, scope: !277, file: !7, line: 63, type: !89)
!285 = !DILocalVariable(name: "out", arg: 5, scope: !277, file: !7, line: 63, type: !24)
!286 = !DILocation(line: 63, column: 45, scope: !277)
!287 = !DILocation(line: 63, column: 53, scope: !277)
!288 = !DILocation(line: 63, column: 61, scope: !277)
!289 = !DILocation(line: 63, column: 69, scope: !277)
!290 = !DILocation(line: 63, column: 76, scope: !277)
!291 = !DILocation(line: 64, column: 53, scope: !277)
!292 = !DILocation(line: 64, column: 14, scope: !277)
!293 = !DILocation(line: 65, column: 2, scope: !277)
!294 = distinct !DISubprogram(name: "k_slice", scope: !8, file: !7, line: 125, type: !295, scopeLine: 125, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !303)
!295 = !DISubroutineType(types: !296)
!296 = !{null, !297, !24}
!297 = !DICompositeType(tag: DW_TAG_structure_type, name: "&[u32]", file: !12, size: 128, align: 64, elements: !298, templateParams: !23, identifier: "467923a08fc75332ca53cdba7e9dfffc")
!298 = !{!299, !301}
!299 = !DIDerivedType(tag: DW_TAG_member, name: "data_ptr", scope: !297, file: !12, baseType: !300, size: 64, align: 64)
!300 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !16, size: 64, align: 64, dwarfAddressSpace: 0)
!301 = !DIDerivedType(tag: DW_TAG_member, name: "length", scope: !297, file: !12, baseType: !302, size: 64, align: 64, offset: 64)
!302 = !DIBasicType(name: "usize", size: 64, encoding: DW_ATE_unsigned)
!303 = !{!304, !305, !306}
!304 = !DILocalVariable(name: "v", arg: 1, scope: !294, file: !7, line: 125, type: !297)
!305 = !DILocalVariable(name: "out", arg: 2, scope: !294, file: !7, line: 125, type: !24)
!306 = !DILocalVariable(name: "parts", scope: !307, file: !7, line: 127, type: !308, align: 64)
!307 = distinct !DILexicalBlock(scope: !294, file: !7, line: 127, column: 9)
!308 = !DICompositeType(tag: DW_TAG_structure_type, name: "(*const u32, usize)", file: !12, size: 128, align: 64, elements: !309, templateParams: !23, identifier: "dac3b93a4f23436cc166118705332f03")
!309 = !{!310, !311}
!310 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !308, file: !12, baseType: !268, size: 64, align: 64)
!311 = !DIDerivedType(tag: DW_TAG_member, name: "__1", scope: !308, file: !12, baseType: !302, size: 64, align: 64, offset: 64)
!312 = !DILocation(line: 125, column: 43, scope: !294)
!313 = !DILocation(line: 125, column: 54, scope: !294)
!314 = !DILocation(line: 127, column: 21, scope: !294)
!315 = !DILocation(line: 127, column: 13, scope: !307)
!316 = !DILocation(line: 128, column: 44, scope: !307)
!317 = !DILocation(line: 128, column: 9, scope: !307)
!318 = !DILocation(line: 130, column: 2, scope: !294)
!319 = distinct !DISubprogram(name: "k_tail", scope: !8, file: !7, line: 153, type: !320, scopeLine: 153, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !322)
!320 = !DISubroutineType(types: !321)
!321 = !{null, !84, !89, !24}
!322 = !{!323, !324, !325}
!323 = !DILocalVariable(name: "t", arg: 1, scope: !319, file: !7, line: 153, type: !84)
!324 = !DILocalVariable(name: "k", arg: 2, scope: !319, file: !7, line: 153, type: !89)
!325 = !DILocalVariable(name: "out", arg: 3, scope: !319, file: !7, line: 153, type: !24)
!326 = !DILocation(line: 153, column: 42, scope: !319)
!327 = !DILocation(line: 153, column: 51, scope: !319)
!328 = !DILocation(line: 153, column: 58, scope: !319)
!329 = !DILocation(line: 154, column: 48, scope: !319)
!330 = !DILocation(line: 154, column: 14, scope: !319)
!331 = !DILocation(line: 155, column: 2, scope: !319)
!332 = distinct !DISubprogram(name: "k_three", scope: !8, file: !7, line: 98, type: !114, scopeLine: 98, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !333)
!333 = !{!334, !335}
!334 = !DILocalVariable(name: "s", arg: 1, scope: !332, file: !7, line: 98, type: !116)
!335 = !DILocalVariable(name: "out", arg: 2, scope: !332, file: !7, line: 98, type: !24)
!336 = !DILocation(line: 98, column: 43, scope: !332)
!337 = !DILocation(line: 98, column: 53, scope: !332)
!338 = !DILocation(line: 99, column: 41, scope: !332)
!339 = !DILocation(line: 99, column: 46, scope: !332)
!340 = !DILocation(line: 99, column: 51, scope: !332)
!341 = !DILocation(line: 99, column: 14, scope: !332)
!342 = !DILocation(line: 100, column: 2, scope: !332)
!343 = distinct !DISubprogram(name: "k_union", scope: !8, file: !7, line: 120, type: !344, scopeLine: 120, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !350)
!344 = !DISubroutineType(types: !345)
!345 = !{null, !346, !24}
!346 = !DICompositeType(tag: DW_TAG_union_type, name: "U", scope: !8, file: !12, size: 32, align: 32, elements: !347, templateParams: !23, identifier: "32b56f7451b39a2345fcded08c957b71")
!347 = !{!348, !349}
!348 = !DIDerivedType(tag: DW_TAG_member, name: "i", scope: !346, file: !12, baseType: !16, size: 32, align: 32)
!349 = !DIDerivedType(tag: DW_TAG_member, name: "f", scope: !346, file: !12, baseType: !55, size: 32, align: 32)
!350 = !{!351, !352}
!351 = !DILocalVariable(name: "u", arg: 1, scope: !343, file: !7, line: 120, type: !346)
!352 = !DILocalVariable(name: "out", arg: 2, scope: !343, file: !7, line: 120, type: !24)
!353 = !DILocation(line: 120, column: 43, scope: !343)
!354 = !DILocation(line: 120, column: 49, scope: !343)
!355 = !DILocation(line: 121, column: 47, scope: !343)
!356 = !DILocation(line: 121, column: 52, scope: !343)
!357 = !DILocation(line: 121, column: 14, scope: !343)
!358 = !DILocation(line: 122, column: 2, scope: !343)
!359 = distinct !DISubprogram(name: "k_vec", scope: !8, file: !7, line: 166, type: !360, scopeLine: 166, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !371)
!360 = !DISubroutineType(types: !361)
!361 = !{null, !362, !368, !24}
!362 = !DICompositeType(tag: DW_TAG_structure_type, name: "I32x4", scope: !8, file: !12, size: 128, align: 128, flags: DIFlagPublic, elements: !363, templateParams: !23, identifier: "4fd15c03c663f7da790a25c412251a1b")
!363 = !{!364}
!364 = !DIDerivedType(tag: DW_TAG_member, name: "__0", scope: !362, file: !12, baseType: !365, size: 128, align: 32, flags: DIFlagPrivate)
!365 = !DICompositeType(tag: DW_TAG_array_type, baseType: !16, size: 128, align: 32, elements: !366)
!366 = !{!367}
!367 = !DISubrange(count: 4, lowerBound: 0)
!368 = !DICompositeType(tag: DW_TAG_structure_type, name: "V4", scope: !8, file: !12, size: 128, align: 128, flags: DIFlagPublic, elements: !369, templateParams: !23, identifier: "4326b41ca4927be5fe09da01821c28")
!369 = !{!370}
!370 = !DIDerivedType(tag: DW_TAG_member, name: "v", scope: !368, file: !12, baseType: !362, size: 128, align: 128, flags: DIFlagPrivate)
!371 = !{!372, !373, !374}
!372 = !DILocalVariable(name: "v", arg: 1, scope: !359, file: !7, line: 166, type: !362)
!373 = !DILocalVariable(name: "w", arg: 2, scope: !359, file: !7, line: 166, type: !368)
!374 = !DILocalVariable(name: "out", arg: 3, scope: !359, file: !7, line: 166, type: !24)
!375 = !DILocation(line: 166, column: 41, scope: !359)
!376 = !DILocation(line: 166, column: 51, scope: !359)
!377 = !DILocation(line: 166, column: 58, scope: !359)
!378 = !DILocation(line: 167, column: 48, scope: !359)
!379 = !DILocation(line: 167, column: 14, scope: !359)
!380 = !DILocation(line: 168, column: 2, scope: !359)
!381 = distinct !DISubprogram(name: "k_wide", scope: !8, file: !7, line: 138, type: !382, scopeLine: 138, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !387)
!382 = !DISubroutineType(types: !383)
!383 = !{null, !384, !24}
!384 = !DICompositeType(tag: DW_TAG_structure_type, name: "Wide", scope: !8, file: !12, size: 64, align: 64, flags: DIFlagPublic, elements: !385, templateParams: !23, identifier: "38cf4e2d5b87a6a499028ba1439b3605")
!385 = !{!386}
!386 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !384, file: !12, baseType: !87, size: 64, align: 64, flags: DIFlagPrivate)
!387 = !{!388, !389}
!388 = !DILocalVariable(name: "w", arg: 1, scope: !381, file: !7, line: 138, type: !384)
!389 = !DILocalVariable(name: "out", arg: 2, scope: !381, file: !7, line: 138, type: !24)
!390 = !DILocation(line: 138, column: 42, scope: !381)
!391 = !DILocation(line: 138, column: 51, scope: !381)
!392 = !DILocation(line: 139, column: 14, scope: !381)
!393 = !DILocation(line: 140, column: 2, scope: !381)
!394 = distinct !DISubprogram(name: "k_wide_c", scope: !8, file: !7, line: 93, type: !395, scopeLine: 93, flags: DIFlagPrototyped, spFlags: DISPFlagDefinition, unit: !4, templateParams: !23, retainedNodes: !400)
!395 = !DISubroutineType(types: !396)
!396 = !{null, !397, !24}
!397 = !DICompositeType(tag: DW_TAG_structure_type, name: "WideC", scope: !8, file: !12, size: 64, align: 64, flags: DIFlagPublic, elements: !398, templateParams: !23, identifier: "829a54823050f9e245d26a8ed1f7b08e")
!398 = !{!399}
!399 = !DIDerivedType(tag: DW_TAG_member, name: "x", scope: !397, file: !12, baseType: !87, size: 64, align: 64, flags: DIFlagPrivate)
!400 = !{!401, !402}
!401 = !DILocalVariable(name: "w", arg: 1, scope: !394, file: !7, line: 93, type: !397)
!402 = !DILocalVariable(name: "out", arg: 2, scope: !394, file: !7, line: 93, type: !24)
!403 = !DILocation(line: 93, column: 44, scope: !394)
!404 = !DILocation(line: 93, column: 54, scope: !394)
!405 = !DILocation(line: 94, column: 47, scope: !394)
!406 = !DILocation(line: 94, column: 14, scope: !394)
!407 = !DILocation(line: 95, column: 2, scope: !394)
