; ModuleID = 'tiny.c'
source_filename = "tiny.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%struct.__tgt_offload_entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }

@.offloading.entry_name = internal unnamed_addr constant [37 x i8] c"__omp_offloading_fe00_51c3f5_main_l7\00", section ".llvm.rodata.offloading", align 1
@.offloading.entry.__omp_offloading_fe00_51c3f5_main_l7 = weak local_unnamed_addr constant %struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @__omp_offloading_fe00_51c3f5_main_l7, ptr @.offloading.entry_name, i64 0, i64 0, ptr null }, section "llvm_offload_entries", align 8

; Function Attrs: alwaysinline norecurse nounwind uwtable
define weak_odr protected void @__omp_offloading_fe00_51c3f5_main_l7(ptr noalias noundef %0, ptr noundef nonnull align 4 dereferenceable(4) %1) #0 {
  %3 = load i32, ptr %1, align 4, !tbaa !8
  %4 = add i32 %3, 4
  store i32 %4, ptr %1, align 4, !tbaa !8
  ret void
}

attributes #0 = { alwaysinline norecurse nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }

!omp_offload.info = !{!0}
!llvm.offloading.symbols = !{!1}
!llvm.module.flags = !{!2, !3, !4, !5, !6}
!llvm.ident = !{!7}
!llvm.errno.tbaa = !{!8}

!0 = !{i32 0, i32 65024, i32 5358581, !"main", i32 7, i32 0, i32 0}
!1 = !{ptr @.offloading.entry_name}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 7, !"openmp", i32 51}
!4 = !{i32 7, !"openmp-device", i32 51}
!5 = !{i32 8, !"PIC Level", i32 2}
!6 = !{i32 7, !"uwtable", i32 2}
!7 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!8 = !{!9, !9, i64 0}
!9 = !{!"int", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C/C++ TBAA"}
