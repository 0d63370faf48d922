; ModuleID = 'maptypes.c'
source_filename = "maptypes.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }
%struct.__tgt_offload_entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }
%struct.S = type { i32, double }
%struct.__tgt_kernel_arguments = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }

@.__omp_offloading_fe00_51c765_k_l4.region_id = weak constant i8 0
@.offload_sizes = private unnamed_addr constant [9 x i64] [i64 8, i64 0, i64 8, i64 0, i64 8, i64 16, i64 8, i64 8, i64 16]
@.offload_maptypes = private unnamed_addr constant [9 x i64] [i64 800, i64 34, i64 16384, i64 33, i64 16384, i64 35, i64 16384, i64 800, i64 547]
@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@.offloading.entry_name = internal unnamed_addr constant [34 x i8] c"__omp_offloading_fe00_51c765_k_l4\00", section ".llvm.rodata.offloading", align 1
@.offloading.entry.__omp_offloading_fe00_51c765_k_l4 = weak local_unnamed_addr constant %struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.__omp_offloading_fe00_51c765_k_l4.region_id, ptr @.offloading.entry_name, i64 0, i64 0, ptr null }, section "llvm_offload_entries", align 8

; Function Attrs: nounwind uwtable
define dso_local void @k(ptr noundef %0, ptr noundef %1, ptr noundef %2, i64 noundef %3, double noundef %4, i32 %5, double %6) local_unnamed_addr #0 {
  %8 = alloca %struct.S, align 8
  %9 = alloca ptr, align 8
  %10 = alloca ptr, align 8
  %11 = alloca ptr, align 8
  %12 = alloca [9 x ptr], align 8
  %13 = alloca [9 x ptr], align 8
  %14 = alloca [9 x i64], align 8
  %15 = alloca %struct.__tgt_kernel_arguments, align 8
  store i32 %5, ptr %8, align 8
  %16 = getelementptr inbounds nuw i8, ptr %8, i64 8
  store double %6, ptr %16, align 8
  store ptr %0, ptr %9, align 8, !tbaa !12
  store ptr %1, ptr %10, align 8, !tbaa !12
  store ptr %2, ptr %11, align 8, !tbaa !12
  %17 = shl nuw i64 %3, 2
  call void @llvm.memcpy.p0.p0.i64(ptr noundef nonnull align 8 dereferenceable(72) %14, ptr noundef nonnull align 16 dereferenceable(72) @.offload_sizes, i64 72, i1 false)
  store i64 %3, ptr %12, align 8
  store i64 %3, ptr %13, align 8
  %18 = getelementptr inbounds nuw i8, ptr %12, i64 8
  store ptr %1, ptr %18, align 8
  %19 = getelementptr inbounds nuw i8, ptr %13, i64 8
  store ptr %1, ptr %19, align 8
  %20 = getelementptr inbounds nuw i8, ptr %14, i64 8
  store i64 %17, ptr %20, align 8
  %21 = getelementptr inbounds nuw i8, ptr %12, i64 16
  store ptr %10, ptr %21, align 8
  %22 = getelementptr inbounds nuw i8, ptr %13, i64 16
  store ptr %1, ptr %22, align 8
  %23 = getelementptr inbounds nuw i8, ptr %12, i64 24
  store ptr %0, ptr %23, align 8
  %24 = getelementptr inbounds nuw i8, ptr %13, i64 24
  store ptr %0, ptr %24, align 8
  %25 = getelementptr inbounds nuw i8, ptr %14, i64 24
  store i64 %17, ptr %25, align 8
  %26 = getelementptr inbounds nuw i8, ptr %12, i64 32
  store ptr %9, ptr %26, align 8
  %27 = getelementptr inbounds nuw i8, ptr %13, i64 32
  store ptr %0, ptr %27, align 8
  %28 = getelementptr inbounds nuw i8, ptr %12, i64 40
  store ptr %2, ptr %28, align 8
  %29 = getelementptr inbounds nuw i8, ptr %13, i64 40
  store ptr %2, ptr %29, align 8
  %30 = getelementptr inbounds nuw i8, ptr %12, i64 48
  store ptr %11, ptr %30, align 8
  %31 = getelementptr inbounds nuw i8, ptr %13, i64 48
  store ptr %2, ptr %31, align 8
  %32 = getelementptr inbounds nuw i8, ptr %12, i64 56
  store double %4, ptr %32, align 8
  %33 = getelementptr inbounds nuw i8, ptr %13, i64 56
  store double %4, ptr %33, align 8
  %34 = getelementptr inbounds nuw i8, ptr %12, i64 64
  store ptr %8, ptr %34, align 8
  %35 = getelementptr inbounds nuw i8, ptr %13, i64 64
  store ptr %8, ptr %35, align 8
  store i32 3, ptr %15, align 8
  %36 = getelementptr inbounds nuw i8, ptr %15, i64 4
  store i32 9, ptr %36, align 4
  %37 = getelementptr inbounds nuw i8, ptr %15, i64 8
  store ptr %12, ptr %37, align 8
  %38 = getelementptr inbounds nuw i8, ptr %15, i64 16
  store ptr %13, ptr %38, align 8
  %39 = getelementptr inbounds nuw i8, ptr %15, i64 24
  store ptr %14, ptr %39, align 8
  %40 = getelementptr inbounds nuw i8, ptr %15, i64 32
  store ptr @.offload_maptypes, ptr %40, align 8
  %41 = getelementptr inbounds nuw i8, ptr %15, i64 40
  %42 = getelementptr inbounds nuw i8, ptr %15, i64 72
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 8 dereferenceable(32) %41, i8 0, i64 32, i1 false)
  store i32 -1, ptr %42, align 8
  %43 = getelementptr inbounds nuw i8, ptr %15, i64 76
  call void @llvm.memset.p0.i64(ptr noundef nonnull align 4 dereferenceable(24) %43, i8 0, i64 24, i1 false)
  %44 = call i32 @__tgt_target_kernel(ptr nonnull @1, i64 -1, i32 -1, i32 0, ptr nonnull @.__omp_offloading_fe00_51c765_k_l4.region_id, ptr nonnull %15)
  %45 = icmp ne i32 %44, 0
  %46 = icmp sgt i64 %3, 0
  %47 = and i1 %45, %46
  br i1 %47, label %48, label %85

48:                                               ; preds = %7
  %49 = fptosi double %4 to i32
  %50 = load i32, ptr %8, align 8, !tbaa !15
  %51 = and i64 %3, 1
  %52 = icmp eq i64 %51, 0
  br i1 %52, label %59, label %53

53:                                               ; preds = %48
  %54 = load i32, ptr %0, align 4, !tbaa !8
  %55 = load i32, ptr %2, align 4, !tbaa !8
  %56 = add i32 %54, %49
  %57 = add i32 %56, %55
  %58 = add nsw i32 %57, %50
  store i32 %58, ptr %1, align 4, !tbaa !8
  br label %59

59:                                               ; preds = %53, %48
  %60 = phi i64 [ 0, %48 ], [ 1, %53 ]
  %61 = icmp eq i64 %3, 1
  br i1 %61, label %85, label %62

62:                                               ; preds = %59, %62
  %63 = phi i64 [ %83, %62 ], [ %60, %59 ]
  %64 = getelementptr inbounds nuw i32, ptr %0, i64 %63
  %65 = load i32, ptr %64, align 4, !tbaa !8
  %66 = and i64 %63, 3
  %67 = getelementptr inbounds nuw i32, ptr %2, i64 %66
  %68 = load i32, ptr %67, align 4, !tbaa !8
  %69 = add i32 %65, %49
  %70 = add i32 %69, %68
  %71 = add nsw i32 %70, %50
  %72 = getelementptr inbounds nuw i32, ptr %1, i64 %63
  store i32 %71, ptr %72, align 4, !tbaa !8
  %73 = add nuw nsw i64 %63, 1
  %74 = getelementptr inbounds nuw i32, ptr %0, i64 %73
  %75 = load i32, ptr %74, align 4, !tbaa !8
  %76 = and i64 %73, 3
  %77 = getelementptr inbounds nuw i32, ptr %2, i64 %76
  %78 = load i32, ptr %77, align 4, !tbaa !8
  %79 = add i32 %75, %49
  %80 = add i32 %79, %78
  %81 = add nsw i32 %80, %50
  %82 = getelementptr inbounds nuw i32, ptr %1, i64 %73
  store i32 %81, ptr %82, align 4, !tbaa !8
  %83 = add nuw nsw i64 %63, 2
  %84 = icmp eq i64 %83, %3
  br i1 %84, label %85, label %62, !llvm.loop !18

85:                                               ; preds = %59, %62, %7
  ret void
}

; Function Attrs: mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite)
declare void @llvm.memcpy.p0.p0.i64(ptr noalias writeonly captures(none), ptr noalias readonly captures(none), i64, i1 immarg) #1

; Function Attrs: nounwind
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr) local_unnamed_addr #2

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #3

attributes #0 = { nounwind uwtable "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { mustprogress nocallback nofree nounwind willreturn memory(argmem: readwrite) }
attributes #2 = { nounwind }
attributes #3 = { nocallback nofree nounwind willreturn memory(argmem: write) }

!omp_offload.info = !{!0}
!llvm.offloading.symbols = !{!1}
!llvm.module.flags = !{!2, !3, !4, !5, !6}
!llvm.ident = !{!7}
!llvm.errno.tbaa = !{!8}

!0 = !{i32 0, i32 65024, i32 5359461, !"k", i32 4, i32 0, i32 0}
!1 = !{ptr @.offloading.entry_name}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 7, !"openmp", i32 51}
!4 = !{i32 8, !"PIC Level", i32 2}
!5 = !{i32 7, !"PIE Level", i32 2}
!6 = !{i32 7, !"uwtable", i32 2}
!7 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!8 = !{!9, !9, i64 0}
!9 = !{!"int", !10, i64 0}
!10 = !{!"omnipotent char", !11, i64 0}
!11 = !{!"Simple C/C++ TBAA"}
!12 = !{!13, !13, i64 0}
!13 = !{!"p1 int", !14, i64 0}
!14 = !{!"any pointer", !10, i64 0}
!15 = !{!16, !9, i64 0}
!16 = !{!"S", !9, i64 0, !17, i64 8}
!17 = !{!"double", !10, i64 0}
!18 = distinct !{!18, !19, !20}
!19 = !{!"llvm.loop.mustprogress"}
!20 = !{!"llvm.loop.isvectorized", i32 1}
