; Attributes, properties and debug info survive the rewrite.
; - @kernel (clang -g -O1 output, marked !offload.kernel): function attributes,
;   local_unnamed_addr, !dbg and the DISubprogram stay; #dbg_value records of
;   parameters follow the narrowed values, which are defined above them.
; - @attrs: attributes of unchanged slots (ptr, i64) stay; widened slots keep
;   none (zeroext/signext/range/nofpclass describe the narrow value, noundef
;   promised only its bits); visibility, section and alignment stay.
; - dso_local and the kernel's place in the module stay too.
; RUN: %opt -passes=offload-wrap-kernels -S %s | %FileCheck %s
; RUN: %opt -passes=offload-wrap-kernels %s | %llc -O2 -relocation-model=pic -filetype=obj -o /dev/null

; CHECK: define protected void @attrs(ptr %dyn_ptr, ptr noalias nonnull align 8 dereferenceable(32) %p, i64 %n, i64 %s, i64 %f, i64 noundef %w) #[[AT:[0-9]+]] section ".text.kernels" align 32 !offload.kernel ![[M:[0-9]+]] !offload.wrapped ![[M]] {
; CHECK-NEXT:   %n.trunc = trunc i64 %n to i32
; CHECK-NEXT:   %s.trunc = trunc i64 %s to i16
; CHECK-NEXT:   %f.trunc = trunc i64 %f to i32
; CHECK-NEXT:   %f.bitcast = bitcast i32 %f.trunc to float

; CHECK: define dso_local void @kernel(ptr %dyn_ptr, ptr noundef captures(none) %out, i64 %n, i64 %scale, i64 %f) local_unnamed_addr #[[KT:[0-9]+]] !dbg ![[SP:[0-9]+]] !offload.kernel ![[M]] !offload.wrapped ![[M]] {
; CHECK-NEXT: entry:
; CHECK-NEXT:   %n.trunc = trunc i64 %n to i32
; CHECK-NEXT:   %scale.bitcast = bitcast i64 %scale to double
; CHECK-NEXT:   %f.trunc = trunc i64 %f to i32
; CHECK-NEXT:   %f.bitcast = bitcast i32 %f.trunc to float
; CHECK-NEXT:     #dbg_value(ptr %out, ![[OUT:[0-9]+]], !DIExpression(),
; CHECK-NEXT:     #dbg_value(i32 %n.trunc, ![[N:[0-9]+]], !DIExpression(),
; CHECK-NEXT:     #dbg_value(double %scale.bitcast, ![[SCALE:[0-9]+]], !DIExpression(),
; CHECK-NEXT:     #dbg_value(float %f.bitcast, ![[F:[0-9]+]], !DIExpression(),
; CHECK:        %cmp7 = icmp sgt i32 %n.trunc, 0, !dbg
; CHECK:        %conv = fpext float %f.bitcast to double
; CHECK:        call double @llvm.fmuladd.f64(double %0, double %scale.bitcast, double %conv)

; CHECK-DAG: attributes #[[AT]] = { nounwind "target-cpu"="x86-64" }
; CHECK-DAG: attributes #[[KT]] = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0"
; CHECK-DAG: ![[SP]] = distinct !DISubprogram(name: "kernel",
; CHECK-DAG: ![[OUT]] = !DILocalVariable(name: "out", arg: 1, scope: ![[SP]],
; CHECK-DAG: ![[N]] = !DILocalVariable(name: "n", arg: 2, scope: ![[SP]],
; CHECK-DAG: ![[SCALE]] = !DILocalVariable(name: "scale", arg: 3, scope: ![[SP]],
; CHECK-DAG: ![[F]] = !DILocalVariable(name: "f", arg: 4, scope: ![[SP]],

source_filename = "dk.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"


define protected void @attrs(ptr noalias nonnull align 8 dereferenceable(32) %p, i32 zeroext noundef range(i32 0, 10) %n, i16 signext %s, float nofpclass(nan) noundef %f, i64 noundef %w) #2 section ".text.kernels" align 32 !offload.kernel !47 {
  store i32 %n, ptr %p
  store i16 %s, ptr %p
  store float %f, ptr %p
  store i64 %w, ptr %p
  ret void
}

attributes #2 = { nounwind "target-cpu"="x86-64" }

; Function Attrs: nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable
define dso_local void @kernel(ptr noundef captures(none) %out, i32 noundef %n, double noundef %scale, float noundef %f) local_unnamed_addr #0 !dbg !14 !offload.kernel !47 {
entry:
    #dbg_value(ptr %out, !22, !DIExpression(), !28)
    #dbg_value(i32 %n, !23, !DIExpression(), !28)
    #dbg_value(double %scale, !24, !DIExpression(), !28)
    #dbg_value(float %f, !25, !DIExpression(), !28)
    #dbg_value(i32 0, !26, !DIExpression(), !29)
  %cmp7 = icmp sgt i32 %n, 0, !dbg !30
  br i1 %cmp7, label %for.body.lr.ph, label %for.cond.cleanup, !dbg !32

for.body.lr.ph:                                   ; preds = %entry
  %conv = fpext float %f to double
  %wide.trip.count = zext nneg i32 %n to i64, !dbg !33
  br label %for.body, !dbg !32

for.cond.cleanup:                                 ; preds = %for.body, %entry
  ret void, !dbg !34

for.body:                                         ; preds = %for.body.lr.ph, %for.body
  %indvars.iv = phi i64 [ 0, %for.body.lr.ph ], [ %indvars.iv.next, %for.body ]
    #dbg_value(i64 %indvars.iv, !26, !DIExpression(), !29)
  %arrayidx = getelementptr inbounds nuw double, ptr %out, i64 %indvars.iv, !dbg !35
  %0 = load double, ptr %arrayidx, align 8, !dbg !35, !tbaa !36
  %1 = tail call double @llvm.fmuladd.f64(double %0, double %scale, double %conv), !dbg !38
  store double %1, ptr %arrayidx, align 8, !dbg !39, !tbaa !36
  %indvars.iv.next = add nuw nsw i64 %indvars.iv, 1, !dbg !40
    #dbg_value(i64 %indvars.iv.next, !26, !DIExpression(), !29)
  %exitcond.not = icmp eq i64 %indvars.iv.next, %wide.trip.count, !dbg !33
  br i1 %exitcond.not, label %for.cond.cleanup, label %for.body, !dbg !41, !llvm.loop !42
}

; Function Attrs: mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none)
declare double @llvm.fmuladd.f64(double, double, double) #1

attributes #0 = { nofree norecurse nosync nounwind memory(argmem: readwrite) uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nocreateundeforpoison nofree nosync nounwind speculatable willreturn memory(none) }

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7, !8}
!llvm.ident = !{!9}
!llvm.errno.tbaa = !{!10}

!0 = distinct !DICompileUnit(language: DW_LANG_C11, file: !1, producer: "Debian clang version 22.1.8 (1~deb12u1)", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug, splitDebugInlining: false, nameTableKind: None)
!1 = !DIFile(filename: "dk.c", directory: "/tmp", checksumkind: CSK_MD5, checksum: "2685fc4c5f9bf199d28ac7f02627e4b0")
!2 = !{i32 7, !"Dwarf Version", i32 5}
!3 = !{i32 2, !"Debug Info Version", i32 3}
!4 = !{i32 1, !"wchar_size", i32 4}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"PIE Level", i32 2}
!7 = !{i32 7, !"uwtable", i32 2}
!8 = !{i32 7, !"debug-info-assignment-tracking", i1 true}
!9 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!10 = !{!11, !11, i64 0}
!11 = !{!"int", !12, i64 0}
!12 = !{!"omnipotent char", !13, i64 0}
!13 = !{!"Simple C/C++ TBAA"}
!14 = distinct !DISubprogram(name: "kernel", scope: !1, file: !1, line: 1, type: !15, scopeLine: 1, flags: DIFlagPrototyped | DIFlagAllCallsDescribed, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0, retainedNodes: !21, keyInstructions: true)
!15 = !DISubroutineType(types: !16)
!16 = !{null, !17, !19, !18, !20}
!17 = !DIDerivedType(tag: DW_TAG_pointer_type, baseType: !18, size: 64)
!18 = !DIBasicType(name: "double", size: 64, encoding: DW_ATE_float)
!19 = !DIBasicType(name: "int", size: 32, encoding: DW_ATE_signed)
!20 = !DIBasicType(name: "float", size: 32, encoding: DW_ATE_float)
!21 = !{!22, !23, !24, !25, !26}
!22 = !DILocalVariable(name: "out", arg: 1, scope: !14, file: !1, line: 1, type: !17)
!23 = !DILocalVariable(name: "n", arg: 2, scope: !14, file: !1, line: 1, type: !19)
!24 = !DILocalVariable(name: "scale", arg: 3, scope: !14, file: !1, line: 1, type: !18)
!25 = !DILocalVariable(name: "f", arg: 4, scope: !14, file: !1, line: 1, type: !20)
!26 = !DILocalVariable(name: "i", scope: !27, file: !1, line: 2, type: !19)
!27 = distinct !DILexicalBlock(scope: !14, file: !1, line: 2, column: 3)
!28 = !DILocation(line: 0, scope: !14)
!29 = !DILocation(line: 0, scope: !27)
!30 = !DILocation(line: 2, column: 21, scope: !31, atomGroup: 8, atomRank: 1)
!31 = distinct !DILexicalBlock(scope: !27, file: !1, line: 2, column: 3)
!32 = !DILocation(line: 2, column: 3, scope: !27, atomGroup: 9, atomRank: 1)
!33 = !DILocation(line: 2, column: 21, scope: !31, atomGroup: 2, atomRank: 1)
!34 = !DILocation(line: 3, column: 1, scope: !14, atomGroup: 7, atomRank: 1)
!35 = !DILocation(line: 2, column: 40, scope: !31)
!36 = !{!37, !37, i64 0}
!37 = !{!"double", !12, i64 0}
!38 = !DILocation(line: 2, column: 55, scope: !31, atomGroup: 4, atomRank: 2)
!39 = !DILocation(line: 2, column: 38, scope: !31, atomGroup: 4, atomRank: 1)
!40 = !DILocation(line: 2, column: 26, scope: !31, atomGroup: 5, atomRank: 2)
!41 = !DILocation(line: 2, column: 3, scope: !27, atomGroup: 3, atomRank: 1)
!42 = distinct !{!42, !43, !44, !45, !46}
!43 = !DILocation(line: 2, column: 3, scope: !27)
!44 = !DILocation(line: 2, column: 57, scope: !27)
!45 = !{!"llvm.loop.mustprogress"}
!46 = !{!"llvm.loop.unroll.disable"}
!47 = !{}
