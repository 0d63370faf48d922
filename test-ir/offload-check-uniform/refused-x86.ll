; offload-check-uniform refuses a team barrier or warp operation that some
; threads of a team reach and others do not, on the x86_64 image's hooks
; (the CPU grid's rank is the source of divergence). The message names the
; kernel (from debug info, demangled), both meeting points and the branch,
; at the lines the user wrote (frames of the `offload` crate are skipped).
; RUN: not %opt -passes=offload-check-uniform -disable-output %s 2>&1 | %FileCheck %s
;
; CHECK: error: offload-check-uniform: kernel 'kernels::barrier_in_branch': after the thread-dependent branch at src/lib.rs:4:8, some threads of a team (lanes of a warp) reach the team barrier `sync_threads` at src/lib.rs:5:9 and others the team barrier `sync_threads` at src/lib.rs:7:5.
; CHECK-SAME: `offload::sync::sync_threads_unchecked`, `offload::warp::*_unchecked`
; CHECK: kernel 'kernels::reduce_then_sync': after the thread-dependent branch at src/lib.rs:11:8, some threads of a team (lanes of a warp) reach a warp operation (shuffle, vote or reduction) at src/lib.rs:12:9 and others the team barrier `sync_threads` at src/lib.rs:14:5.
; CHECK: kernel 'kernels::found_flag': after the thread-dependent branch at src/lib.rs:22:8, {{.*}} the team barrier `sync_threads` at src/lib.rs:23:9 and others the team barrier `sync_threads` at src/lib.rs:25:5.
; CHECK: kernel 'kernels::rank_trip_count': after the thread-dependent branch at src/lib.rs:31:14, {{.*}} the team barrier `sync_threads` at src/lib.rs:32:9 and others the team barrier `sync_threads` at src/lib.rs:34:5.
; CHECK: kernel 'kernels::call_under_branch': after the thread-dependent branch at src/lib.rs:41:8, {{.*}} a call of `helper`, which reaches {{.*}} at src/lib.rs:42:9 and others the team barrier `sync_threads` at src/lib.rs:44:5.
; CHECK: kernel 'kernels::through_memory': after the thread-dependent branch at src/lib.rs:52:8,
; CHECK: kernel 'kernels::skips_one': after the thread-dependent branch at src/lib.rs:61:12, {{.*}} reach the next iteration of the loop at src/lib.rs:60:5 and others the team barrier `sync_threads` at src/lib.rs:63:9.
; CHECK-NOT: kernel '

@site1 = private constant [24 x i8] zeroinitializer
@site2 = private constant [24 x i8] zeroinitializer

declare i32 @__offload_cpu_thread_rank()
declare void @__offload_cpu_sync_threads(ptr)
declare ptr @__offload_cpu_warp_exchange(ptr, ptr)
declare void @__offload_cpu_warp_release(ptr)

; if rank < 16 { sync_threads() }  sync_threads()
define void @barrier_in_branch() !dbg !2 {
  %rank = call i32 @__offload_cpu_thread_rank(), !dbg !DILocation(line: 3, column: 13, scope: !2)
  %low = icmp ult i32 %rank, 16, !dbg !DILocation(line: 4, column: 8, scope: !2)
  br i1 %low, label %sync, label %done, !dbg !DILocation(line: 4, column: 8, scope: !2)
sync:
  call void @__offload_cpu_sync_threads(ptr @site1), !dbg !DILocation(line: 33, column: 5, scope: !11, inlinedAt: !DILocation(line: 5, column: 9, scope: !2))
  br label %done
done:
  call void @__offload_cpu_sync_threads(ptr @site2), !dbg !DILocation(line: 33, column: 5, scope: !11, inlinedAt: !DILocation(line: 7, column: 5, scope: !2))
  ret void
}

; if i < n { warp::reduce_add(v) }  sync_threads()   (a team of 40, n = 36)
define void @reduce_then_sync(i32 %n) !dbg !3 {
  %own = alloca i64
  %rank = call i32 @__offload_cpu_thread_rank()
  %in = icmp ult i32 %rank, %n, !dbg !DILocation(line: 11, column: 8, scope: !3)
  br i1 %in, label %reduce, label %done, !dbg !DILocation(line: 11, column: 8, scope: !3)
reduce:
  %offers = call ptr @__offload_cpu_warp_exchange(ptr %own, ptr @site1), !dbg !DILocation(line: 12, column: 9, scope: !3)
  call void @__offload_cpu_warp_release(ptr @site1), !dbg !DILocation(line: 12, column: 9, scope: !3)
  br label %done
done:
  call void @__offload_cpu_sync_threads(ptr @site2), !dbg !DILocation(line: 14, column: 5, scope: !3)
  ret void
}

; let mut found = false; for i in grid_stride(n) { found |= x[i] > 0 }
; if found { sync_threads() }  sync_threads()
define void @found_flag(ptr %x, i32 %n) !dbg !4 {
entry:
  %rank = call i32 @__offload_cpu_thread_rank()
  br label %loop
loop:
  %i = phi i32 [ %rank, %entry ], [ %next, %body ]
  %found = phi i1 [ false, %entry ], [ %found.next, %body ]
  %more = icmp ult i32 %i, %n
  br i1 %more, label %body, label %after
body:
  %p = getelementptr i32, ptr %x, i32 %i
  %v = load i32, ptr %p
  %pos = icmp sgt i32 %v, 0
  %found.next = or i1 %found, %pos
  %next = add i32 %i, 64
  br label %loop
after:
  br i1 %found, label %sync, label %done, !dbg !DILocation(line: 22, column: 8, scope: !4)
sync:
  call void @__offload_cpu_sync_threads(ptr @site1), !dbg !DILocation(line: 23, column: 9, scope: !4)
  br label %done
done:
  call void @__offload_cpu_sync_threads(ptr @site2), !dbg !DILocation(line: 25, column: 5, scope: !4)
  ret void
}

; for _ in 0..rank { sync_threads() }  sync_threads()
define void @rank_trip_count() !dbg !5 {
entry:
  %rank = call i32 @__offload_cpu_thread_rank()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %more = icmp ult i32 %i, %rank
  br i1 %more, label %body, label %done, !dbg !DILocation(line: 31, column: 14, scope: !5)
body:
  call void @__offload_cpu_sync_threads(ptr @site1), !dbg !DILocation(line: 32, column: 9, scope: !5)
  %next = add i32 %i, 1
  br label %loop
done:
  call void @__offload_cpu_sync_threads(ptr @site2), !dbg !DILocation(line: 34, column: 5, scope: !5)
  ret void
}

; A function that is not inlined and meets the team barrier, called in a
; branch some threads skip.
define void @helper() noinline {
  call void @__offload_cpu_sync_threads(ptr @site1)
  ret void
}

define void @call_under_branch() !dbg !6 {
  %rank = call i32 @__offload_cpu_thread_rank()
  %odd = trunc i32 %rank to i1
  br i1 %odd, label %call, label %done, !dbg !DILocation(line: 41, column: 8, scope: !6)
call:
  call void @helper(), !dbg !DILocation(line: 42, column: 9, scope: !6)
  br label %done
done:
  call void @__offload_cpu_sync_threads(ptr @site2), !dbg !DILocation(line: 44, column: 5, scope: !6)
  ret void
}

; The rank through a thread's own memory.
define void @through_memory() !dbg !7 {
  %slot = alloca [4 x i32]
  %rank = call i32 @__offload_cpu_thread_rank()
  %at = getelementptr [4 x i32], ptr %slot, i32 0, i32 2
  store volatile i32 %rank, ptr %at
  %back = load i32, ptr %at
  %zero = icmp eq i32 %back, 0
  br i1 %zero, label %sync, label %done, !dbg !DILocation(line: 52, column: 8, scope: !7)
sync:
  call void @__offload_cpu_sync_threads(ptr @site1)
  br label %done
done:
  call void @__offload_cpu_sync_threads(ptr @site2)
  ret void
}

; for k in 0..n { if k == rank { continue } sync_threads() }  sync_threads()
define void @skips_one(i32 %n) !dbg !8 {
entry:
  %rank = call i32 @__offload_cpu_thread_rank()
  br label %loop
loop:
  %k = phi i32 [ 0, %entry ], [ %next, %latch ], !dbg !DILocation(line: 60, column: 5, scope: !8)
  %more = icmp ult i32 %k, %n, !dbg !DILocation(line: 60, column: 5, scope: !8)
  br i1 %more, label %body, label %done
body:
  %mine = icmp eq i32 %k, %rank
  br i1 %mine, label %latch, label %sync, !dbg !DILocation(line: 61, column: 12, scope: !8)
sync:
  call void @__offload_cpu_sync_threads(ptr @site1), !dbg !DILocation(line: 63, column: 9, scope: !8)
  br label %latch
latch:
  %next = add i32 %k, 1
  br label %loop
done:
  call void @__offload_cpu_sync_threads(ptr @site2)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!100}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, producer: "rustc", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "src/lib.rs", directory: "/kernels")
!9 = !DISubroutineType(types: !{})
!2 = distinct !DISubprogram(name: "barrier_in_branch", linkageName: "_ZN7kernels17barrier_in_branch17h0123456789abcdefE", scope: !1, file: !1, line: 2, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!3 = distinct !DISubprogram(name: "reduce_then_sync", linkageName: "_ZN7kernels16reduce_then_sync17h0123456789abcdefE", scope: !1, file: !1, line: 10, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!4 = distinct !DISubprogram(name: "found_flag", linkageName: "_ZN7kernels10found_flag17h0123456789abcdefE", scope: !1, file: !1, line: 20, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!5 = distinct !DISubprogram(name: "rank_trip_count", linkageName: "_ZN7kernels15rank_trip_count17h0123456789abcdefE", scope: !1, file: !1, line: 30, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!6 = distinct !DISubprogram(name: "call_under_branch", linkageName: "_ZN7kernels17call_under_branch17h0123456789abcdefE", scope: !1, file: !1, line: 40, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!7 = distinct !DISubprogram(name: "through_memory", linkageName: "_ZN7kernels14through_memory17h0123456789abcdefE", scope: !1, file: !1, line: 50, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!8 = distinct !DISubprogram(name: "skips_one", linkageName: "_ZN7kernels9skips_one17h0123456789abcdefE", scope: !1, file: !1, line: 59, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!10 = !DIFile(filename: "/home/u/offload/src/sync.rs", directory: "")
!11 = distinct !DISubprogram(name: "sync_threads", linkageName: "_ZN7offload4sync12sync_threads17h0123456789abcdefE", scope: !10, file: !10, line: 30, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!100 = !{i32 2, !"Debug Info Version", i32 3}
