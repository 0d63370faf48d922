; offload-check-uniform accepts the usual shapes of kernels on the x86_64
; image's hooks: a barrier after an early return, a grid-stride loop then a
; barrier, a tree reduction with a thread-dependent branch around reads
; only, a loop whose trip count is an argument, a diamond between barriers,
; a thread-dependent loop around a barrier that returns afterwards (threads
; that return leave the team), one site duplicated into two calls, and the
; `unsafe` unchecked forms. With `strip-debug-info` the module loses its
; debug info and nothing else.
; RUN: %opt -passes=offload-check-uniform -disable-output %s
; RUN: %opt '-passes=offload-check-uniform<strip-debug-info>' -S %s | %FileCheck %s
; RUN: not %opt '-passes=offload-check-uniform<strip-debug-info=1>' -disable-output %s 2>&1 | %FileCheck %s --check-prefix=PARAM
;
; CHECK: define void @early_return(
; CHECK-NOT: !dbg
; CHECK-NOT: DILocation
; PARAM: offload-check-uniform: {{.*}}strip-debug-info{{.*}}is a flag

@site1 = private constant [24 x i8] zeroinitializer
@site2 = private constant [24 x i8] zeroinitializer

declare i32 @__offload_cpu_thread_rank()
declare void @__offload_cpu_sync_threads(ptr)
declare ptr @__offload_cpu_warp_exchange(ptr, ptr)
declare void @__offload_cpu_warp_release(ptr)
declare void @__offload_unchecked_sync_threads(ptr)
declare void @panic() noreturn

; let i = rank; if i >= n { return } x[i] = 1; sync_threads(); loop over n
; with a barrier in each iteration.
define void @early_return(ptr %x, i32 %n) !dbg !2 {
entry:
  %i = call i32 @__offload_cpu_thread_rank()
  %out = icmp uge i32 %i, %n, !dbg !DILocation(line: 3, column: 8, scope: !2)
  br i1 %out, label %ret, label %work
work:
  %p = getelementptr i32, ptr %x, i32 %i
  store i32 1, ptr %p
  call void @__offload_cpu_sync_threads(ptr @site1)
  br label %loop
loop:
  %k = phi i32 [ 0, %work ], [ %k.next, %loop ]
  call void @__offload_cpu_sync_threads(ptr @site2)
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, %n
  br i1 %more, label %loop, label %ret
ret:
  ret void
}

; for i in grid_stride(n) { x[i] += 1 }  sync_threads()   (bounds checked)
define void @grid_stride(ptr %x, i32 %n, i32 %len) {
entry:
  %rank = call i32 @__offload_cpu_thread_rank()
  br label %loop
loop:
  %i = phi i32 [ %rank, %entry ], [ %next, %body ]
  %more = icmp ult i32 %i, %n
  br i1 %more, label %check, label %after
check:
  %ok = icmp ult i32 %i, %len
  br i1 %ok, label %body, label %oob
oob:
  call void @panic()
  unreachable
body:
  %p = getelementptr i32, ptr %x, i32 %i
  %v = load i32, ptr %p
  %v1 = add i32 %v, 1
  store i32 %v1, ptr %p
  %next = add i32 %i, 128
  br label %loop
after:
  call void @__offload_cpu_sync_threads(ptr @site1)
  ret void
}

; let mut half = width / 2; while half > 0 {
;   if me + half < width { s[me] += s[me + half] }  sync_threads(); half /= 2 }
define void @tree_reduction(ptr %s, i32 %width) {
entry:
  %me = call i32 @__offload_cpu_thread_rank()
  %half0 = lshr i32 %width, 1
  %any = icmp ugt i32 %half0, 0
  br i1 %any, label %loop, label %done
loop:
  %half = phi i32 [ %half0, %entry ], [ %half.next, %join ]
  %j = add i32 %me, %half
  %in = icmp ult i32 %j, %width
  br i1 %in, label %read, label %join
read:
  %pj = getelementptr float, ptr %s, i32 %j
  %pm = getelementptr float, ptr %s, i32 %me
  %vj = load float, ptr %pj
  %vm = load float, ptr %pm
  %sum = fadd float %vj, %vm
  store float %sum, ptr %pm
  br label %join
join:
  call void @__offload_cpu_sync_threads(ptr @site1)
  %half.next = lshr i32 %half, 1
  %again = icmp ugt i32 %half.next, 0
  br i1 %again, label %loop, label %done
done:
  ret void
}

; if rank % 2 == 0 { a } else { b }  sync_threads(), the barrier duplicated
; into both arms by tail duplication: one site, one meeting point.
define void @duplicated_site(ptr %x) {
entry:
  %rank = call i32 @__offload_cpu_thread_rank()
  %even = trunc i32 %rank to i1
  br i1 %even, label %a, label %b
a:
  store i32 1, ptr %x
  call void @__offload_cpu_sync_threads(ptr @site1)
  br label %done
b:
  store i32 2, ptr %x
  call void @__offload_cpu_sync_threads(ptr @site1)
  br label %done
done:
  ret void
}

; while rank-dependent { sync_threads() } then return: the threads that
; leave the loop return and leave the team.
define void @loop_then_return(i32 %n) {
entry:
  %rank = call i32 @__offload_cpu_thread_rank()
  br label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %body ]
  %more = icmp ult i32 %i, %rank
  br i1 %more, label %body, label %done
body:
  call void @__offload_cpu_sync_threads(ptr @site1)
  %next = add i32 %i, 1
  br label %loop
done:
  ret void
}

; A warp reduction of a thread-dependent value, with a loop over the
; warp's lanes between the exchange and its release, then a barrier.
define float @warp_sum(float %v) {
entry:
  %own = alloca i64
  %bits = bitcast float %v to i32
  %wide = zext i32 %bits to i64
  store i64 %wide, ptr %own
  %offers = call ptr @__offload_cpu_warp_exchange(ptr %own, ptr @site1)
  %rank = call i32 @__offload_cpu_thread_rank()
  %lanes = and i32 %rank, 31
  br label %loop
loop:
  %l = phi i32 [ 0, %entry ], [ %l.next, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc.next, %loop ]
  %p = getelementptr i64, ptr %offers, i32 %l
  %o = load i64, ptr %p
  %o32 = trunc i64 %o to i32
  %f = bitcast i32 %o32 to float
  %acc.next = fadd float %acc, %f
  %l.next = add i32 %l, 1
  %more = icmp ule i32 %l.next, %lanes
  br i1 %more, label %loop, label %after
after:
  call void @__offload_cpu_warp_release(ptr @site1)
  call void @__offload_cpu_sync_threads(ptr @site2)
  ret float %acc.next
}

; The unsafe form: the caller promises what the check cannot see.
define void @unchecked(i32 %n) {
  %rank = call i32 @__offload_cpu_thread_rank()
  %in = icmp ult i32 %rank, %n
  br i1 %in, label %sync, label %done
sync:
  call void @__offload_unchecked_sync_threads(ptr @site1)
  br label %done
done:
  call void @__offload_cpu_sync_threads(ptr @site2)
  ret void
}

!llvm.dbg.cu = !{!0}
!llvm.module.flags = !{!100}
!0 = distinct !DICompileUnit(language: DW_LANG_Rust, file: !1, producer: "rustc", isOptimized: true, runtimeVersion: 0, emissionKind: LineTablesOnly)
!1 = !DIFile(filename: "src/lib.rs", directory: "/kernels")
!9 = !DISubroutineType(types: !{})
!2 = distinct !DISubprogram(name: "early_return", scope: !1, file: !1, line: 2, type: !9, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !0)
!100 = !{i32 2, !"Debug Info Version", i32 3}
