; offload-team-loops gives an alloca one copy per thread in `ctx` only when
; its contents can live across a meeting point. An alloca whose address
; escapes (here: passed to @report, the shape of a panic's message
; arguments) stays private to the step when the escape is in a block that
; can reach no meeting point (@cold: the path to `unreachable`): the team
; descriptor asks for no context storage and the alloca stays a stack
; slot of the team body. An escape in a block that can reach the barrier
; (@hot) still gets a per-thread copy (64 bytes of context storage per
; thread, the 8-byte slot rounded up).
; RUN: %opt -passes=offload-team-loops -S %s | %FileCheck %s

; CHECK-DAG: @cold.team.desc = private constant {{.*}} { ptr @cold.team, i64 0,
; CHECK-DAG: @hot.team.desc = private constant {{.*}} { ptr @hot.team, i64 64,
; CHECK-DAG: @looped.team.desc = private constant {{.*}} { ptr @looped.team, i64 64,
; CHECK-DAG: @unmarked.team.desc = private constant {{.*}} { ptr @unmarked.team, i64 64,

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@site = private constant [24 x i8] zeroinitializer
@name = private constant [4 x i8] c"cold"

declare i32 @__offload_cpu_thread_rank()
declare void @__offload_cpu_sync_threads(ptr)
declare void @__offload_cpu_run_grid(ptr, ptr, ptr, ptr, ptr, i64)
declare void @report(ptr)

; CHECK-LABEL: define internal void @cold.team(
; CHECK-NEXT:  team.entry:
; CHECK-NEXT:    [[MSG:%.*]] = alloca i64
; CHECK-NOT:     ptr %ctx
; CHECK:         store i64 {{.*}}, ptr [[MSG]]
; CHECK-NOT:     ptr %ctx
; CHECK:         call void @report(ptr nonnull [[MSG]])
; CHECK-NEXT:    unreachable
; CHECK-NOT:     ptr %ctx
; CHECK:       }
define internal void @cold(ptr %env) noinline {
entry:
  %msg = alloca i64
  %t = call i32 @__offload_cpu_thread_rank()
  %t64 = zext i32 %t to i64
  store i64 %t64, ptr %msg
  %bad = icmp ugt i32 %t, 1023
  br i1 %bad, label %panic, label %ok
panic:
  call void @report(ptr %msg)
  unreachable
ok:
  call void @__offload_cpu_sync_threads(ptr @site)
  store i64 %t64, ptr %env
  ret void
}

; CHECK-LABEL: define internal void @hot.team(
; CHECK:         [[MSG_T:%.*]] = getelementptr i8, ptr %ctx
; CHECK:         call void @report(ptr nonnull [[MSG_T]])
define internal void @hot(ptr %env) noinline {
entry:
  %msg = alloca i64
  %t = call i32 @__offload_cpu_thread_rank()
  %t64 = zext i32 %t to i64
  store i64 %t64, ptr %msg
  call void @report(ptr %msg)
  call void @__offload_cpu_sync_threads(ptr @site)
  %v = load i64, ptr %msg
  store i64 %v, ptr %env
  ret void
}

; In a loop around the barrier, lifetime markers end the contents each
; iteration: %fmt (stored before the check, read on the panic path)
; never holds a value across the barrier and stays a stack slot.
; CHECK-LABEL: define internal void @looped.team(
; CHECK-NEXT:  team.entry:
; CHECK-NEXT:    [[FMT:%.*]] = alloca i64
; CHECK:         store i64 {{.*}}, ptr [[FMT]]
; CHECK:         call void @report(ptr nonnull [[FMT]])
; CHECK-NEXT:    unreachable
define internal void @looped(ptr %env) noinline {
entry:
  %fmt = alloca i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %ok ]
  %t = call i32 @__offload_cpu_thread_rank()
  call void @llvm.lifetime.start.p0(ptr %fmt)
  store i64 %i, ptr %fmt
  %bad = icmp ugt i32 %t, 1023
  br i1 %bad, label %panic, label %ok
panic:
  call void @report(ptr %fmt)
  unreachable
ok:
  call void @llvm.lifetime.end.p0(ptr %fmt)
  call void @__offload_cpu_sync_threads(ptr @site)
  %i.next = add i64 %i, 1
  %again = icmp ult i64 %i.next, 4
  br i1 %again, label %loop, label %done
done:
  ret void
}

; Without the markers the same loop keeps a per-thread copy: the store
; of one iteration may be read after the barrier.
; (The loop is unswitched on the state, so the message's address reaches
; @report through a phi of the per-thread copies.)
; CHECK-LABEL: define internal void @unmarked.team(
; CHECK-NOT:     alloca
; CHECK:         %fmt.t{{[.a-z0-9]*}} = getelementptr i8, ptr %ctx
; CHECK:         call void @report(ptr
define internal void @unmarked(ptr %env) noinline {
entry:
  %fmt = alloca i64
  br label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i.next, %ok ]
  %t = call i32 @__offload_cpu_thread_rank()
  %old = load i64, ptr %fmt
  store i64 %old, ptr %env
  store i64 %i, ptr %fmt
  %bad = icmp ugt i32 %t, 1023
  br i1 %bad, label %panic, label %ok
panic:
  call void @report(ptr %fmt)
  unreachable
ok:
  call void @__offload_cpu_sync_threads(ptr @site)
  %i.next = add i64 %i, 1
  %again = icmp ult i64 %i.next, 4
  br i1 %again, label %loop, label %done
done:
  ret void
}

define void @entry(ptr %slots, ptr %env) {
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @cold, ptr null, ptr @name, i64 4)
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @hot, ptr null, ptr @name, i64 4)
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @looped, ptr null, ptr @name, i64 4)
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @unmarked, ptr null, ptr @name, i64 4)
  ret void
}
