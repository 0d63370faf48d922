; ModuleID = 'tiny.c'
source_filename = "tiny.c"
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.ident_t = type { i32, i32, i32, i32, ptr }
%struct.__tgt_offload_entry = type { i64, i16, i16, i32, ptr, ptr, i64, i64, ptr }
%struct.__tgt_kernel_arguments = type { i32, i32, ptr, ptr, ptr, ptr, ptr, ptr, i64, i64, [3 x i32], [3 x i32], i32 }

@.__omp_offloading_fe00_51c3f5_main_l7.region_id = weak constant i8 0
@.offload_sizes = private unnamed_addr constant [1 x i64] [i64 4]
@.offload_maptypes = private unnamed_addr constant [1 x i64] [i64 35]
@0 = private unnamed_addr constant [23 x i8] c";unknown;unknown;0;0;;\00", align 1
@1 = private unnamed_addr constant %struct.ident_t { i32 0, i32 2, i32 0, i32 22, ptr @0 }, align 8
@.str = private unnamed_addr constant [8 x i8] c"x = %d\0A\00", align 1
@.offloading.entry_name = internal unnamed_addr constant [37 x i8] c"__omp_offloading_fe00_51c3f5_main_l7\00", section ".llvm.rodata.offloading", align 1
@.offloading.entry.__omp_offloading_fe00_51c3f5_main_l7 = weak constant %struct.__tgt_offload_entry { i64 0, i16 1, i16 1, i32 0, ptr @.__omp_offloading_fe00_51c3f5_main_l7.region_id, ptr @.offloading.entry_name, i64 0, i64 0, ptr null }, section "llvm_offload_entries", align 8

; Function Attrs: noinline nounwind optnone uwtable
define dso_local i32 @main(i32 noundef %0, ptr noundef %1) #0 {
  %3 = alloca i32, align 4
  %4 = alloca i32, align 4
  %5 = alloca ptr, align 8
  %6 = alloca i64, align 8
  %7 = alloca [1 x i32], align 4
  %8 = alloca i64, align 8
  %9 = alloca [1 x ptr], align 8
  %10 = alloca [1 x ptr], align 8
  %11 = alloca [1 x ptr], align 8
  %12 = alloca %struct.__tgt_kernel_arguments, align 8
  store i32 0, ptr %3, align 4
  store i32 %0, ptr %4, align 4
  store ptr %1, ptr %5, align 8
  %13 = load i32, ptr %4, align 4
  %14 = icmp sgt i32 %13, 1
  br i1 %14, label %15, label %20

15:                                               ; preds = %2
  %16 = load ptr, ptr %5, align 8
  %17 = getelementptr inbounds ptr, ptr %16, i64 1
  %18 = load ptr, ptr %17, align 8
  %19 = call i64 @atol(ptr noundef %18) #6
  br label %21

20:                                               ; preds = %2
  br label %21

21:                                               ; preds = %20, %15
  %22 = phi i64 [ %19, %15 ], [ 1000, %20 ]
  store i64 %22, ptr %6, align 8
  call void @llvm.memset.p0.i64(ptr align 4 %7, i8 0, i64 4, i1 false)
  store i64 0, ptr %8, align 8
  br label %23

23:                                               ; preds = %51, %21
  %24 = load i64, ptr %8, align 8
  %25 = load i64, ptr %6, align 8
  %26 = icmp slt i64 %24, %25
  br i1 %26, label %27, label %54

27:                                               ; preds = %23
  %28 = getelementptr inbounds nuw [1 x i32], ptr %7, i64 0, i64 0
  %29 = getelementptr inbounds [1 x ptr], ptr %9, i32 0, i32 0
  store ptr %7, ptr %29, align 8
  %30 = getelementptr inbounds [1 x ptr], ptr %10, i32 0, i32 0
  store ptr %28, ptr %30, align 8
  %31 = getelementptr inbounds [1 x ptr], ptr %11, i64 0, i64 0
  store ptr null, ptr %31, align 8
  %32 = getelementptr inbounds [1 x ptr], ptr %9, i32 0, i32 0
  %33 = getelementptr inbounds [1 x ptr], ptr %10, i32 0, i32 0
  %34 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 0
  store i32 3, ptr %34, align 4
  %35 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 1
  store i32 1, ptr %35, align 4
  %36 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 2
  store ptr %32, ptr %36, align 8
  %37 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 3
  store ptr %33, ptr %37, align 8
  %38 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 4
  store ptr @.offload_sizes, ptr %38, align 8
  %39 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 5
  store ptr @.offload_maptypes, ptr %39, align 8
  %40 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 6
  store ptr null, ptr %40, align 8
  %41 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 7
  store ptr null, ptr %41, align 8
  %42 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 8
  store i64 0, ptr %42, align 8
  %43 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 9
  store i64 0, ptr %43, align 8
  %44 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 10
  store [3 x i32] [i32 -1, i32 0, i32 0], ptr %44, align 4
  %45 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 11
  store [3 x i32] zeroinitializer, ptr %45, align 4
  %46 = getelementptr inbounds nuw %struct.__tgt_kernel_arguments, ptr %12, i32 0, i32 12
  store i32 0, ptr %46, align 4
  %47 = call i32 @__tgt_target_kernel(ptr @1, i64 -1, i32 -1, i32 0, ptr @.__omp_offloading_fe00_51c3f5_main_l7.region_id, ptr %12)
  %48 = icmp ne i32 %47, 0
  br i1 %48, label %49, label %50

49:                                               ; preds = %27
  call void @__omp_offloading_fe00_51c3f5_main_l7(ptr %7) #4
  br label %50

50:                                               ; preds = %49, %27
  br label %51

51:                                               ; preds = %50
  %52 = load i64, ptr %8, align 8
  %53 = add nsw i64 %52, 1
  store i64 %53, ptr %8, align 8
  br label %23, !llvm.loop !9

54:                                               ; preds = %23
  %55 = getelementptr inbounds [1 x i32], ptr %7, i64 0, i64 0
  %56 = load i32, ptr %55, align 4
  %57 = call i32 (ptr, ...) @printf(ptr noundef @.str, i32 noundef %56)
  %58 = getelementptr inbounds [1 x i32], ptr %7, i64 0, i64 0
  %59 = load i32, ptr %58, align 4
  %60 = sext i32 %59 to i64
  %61 = load i64, ptr %6, align 8
  %62 = mul nsw i64 4, %61
  %63 = icmp ne i64 %60, %62
  %64 = zext i1 %63 to i32
  ret i32 %64
}

; Function Attrs: nounwind willreturn memory(read)
declare i64 @atol(ptr noundef) #1

; Function Attrs: nocallback nofree nounwind willreturn memory(argmem: write)
declare void @llvm.memset.p0.i64(ptr writeonly captures(none), i8, i64, i1 immarg) #2

; Function Attrs: noinline norecurse nounwind optnone uwtable
define internal void @__omp_offloading_fe00_51c3f5_main_l7(ptr noundef nonnull align 4 dereferenceable(4) %0) #3 {
  %2 = alloca ptr, align 8
  %3 = alloca i32, align 4
  store ptr %0, ptr %2, align 8
  %4 = load ptr, ptr %2, align 8, !nonnull !11, !align !12
  store i32 0, ptr %3, align 4
  br label %5

5:                                                ; preds = %12, %1
  %6 = load i32, ptr %3, align 4
  %7 = icmp slt i32 %6, 4
  br i1 %7, label %8, label %15

8:                                                ; preds = %5
  %9 = getelementptr inbounds [1 x i32], ptr %4, i64 0, i64 0
  %10 = load i32, ptr %9, align 4
  %11 = add nsw i32 %10, 1
  store i32 %11, ptr %9, align 4
  br label %12

12:                                               ; preds = %8
  %13 = load i32, ptr %3, align 4
  %14 = add nsw i32 %13, 1
  store i32 %14, ptr %3, align 4
  br label %5, !llvm.loop !13

15:                                               ; preds = %5
  ret void
}

; Function Attrs: nounwind
declare i32 @__tgt_target_kernel(ptr, i64, i32, i32, ptr, ptr) #4

declare i32 @printf(ptr noundef, ...) #5

attributes #0 = { noinline nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #1 = { nounwind willreturn memory(read) "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #2 = { nocallback nofree nounwind willreturn memory(argmem: write) }
attributes #3 = { noinline norecurse nounwind optnone uwtable "frame-pointer"="all" "min-legal-vector-width"="0" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #4 = { nounwind }
attributes #5 = { "frame-pointer"="all" "no-trapping-math"="true" "stack-protector-buffer-size"="8" "target-cpu"="x86-64" "target-features"="+cmov,+cx8,+fxsr,+mmx,+sse,+sse2,+x87" "tune-cpu"="generic" }
attributes #6 = { nounwind willreturn memory(read) }

!omp_offload.info = !{!0}
!llvm.offloading.symbols = !{!1}
!llvm.module.flags = !{!2, !3, !4, !5, !6, !7}
!llvm.ident = !{!8}

!0 = !{i32 0, i32 65024, i32 5358581, !"main", i32 7, i32 0, i32 0}
!1 = !{ptr @.offloading.entry_name}
!2 = !{i32 1, !"wchar_size", i32 4}
!3 = !{i32 7, !"openmp", i32 51}
!4 = !{i32 8, !"PIC Level", i32 2}
!5 = !{i32 7, !"PIE Level", i32 2}
!6 = !{i32 7, !"uwtable", i32 2}
!7 = !{i32 7, !"frame-pointer", i32 2}
!8 = !{!"Debian clang version 22.1.8 (1~deb12u1)"}
!9 = distinct !{!9, !10}
!10 = !{!"llvm.loop.mustprogress"}
!11 = !{}
!12 = !{i64 4}
!13 = distinct !{!13, !10}
