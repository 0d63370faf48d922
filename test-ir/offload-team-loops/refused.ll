; Kernels the pass cannot compile keep the thread-per-thread executor
; (their team argument stays null) with a warning naming the kernel and
; why; the others in the module are compiled. A use of the runner that is
; not a call is an error; other triples are left alone.
; RUN: rm -rf %t && split-file %s %t
; RUN: %opt -passes=offload-team-loops -S %t/refused.ll 2>%t/warnings | %FileCheck %s
; RUN: %FileCheck %s --check-prefix=WARN --implicit-check-not=warning < %t/warnings
; RUN: not %opt -passes=offload-team-loops -disable-output %t/escaped.ll 2>&1 | %FileCheck %s --check-prefix=ESCAPED
; RUN: %opt -passes=offload-team-loops -S %t/gpu.ll | %FileCheck %s --check-prefix=GPU
;
; CHECK: call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @recursive, ptr null, ptr @name, i64 1)
; CHECK: call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @indirect, ptr null, ptr @name, i64 1)
; CHECK: call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @dynamic, ptr null, ptr @name, i64 1)
; CHECK: call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @odd, ptr null, ptr @name, i64 1)
; CHECK: call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @fine, ptr @fine.team.desc, ptr @name, i64 1)
; WARN-DAG: warning: offload-team-loops: kernel 'entry' runs one OS thread per GPU thread (its team is not compiled into loops): more than 256 calls reaching a barrier or warp operation to inline (recursion?)
; WARN-DAG: warning: offload-team-loops: kernel 'entry' runs one OS thread per GPU thread (its team is not compiled into loops): it has an indirect call that may reach a barrier or warp operation
; WARN-DAG: warning: offload-team-loops: kernel 'entry' runs one OS thread per GPU thread (its team is not compiled into loops): it has a stack allocation of run-time size or outside the entry block
; WARN-DAG: warning: offload-team-loops: kernel 'entry' runs one OS thread per GPU thread (its team is not compiled into loops): a call of a CPU grid hook with another signature than the offload crate's: call void @__offload_cpu_warp_release(ptr @site, i32 1)
; ESCAPED: error: offload-team-loops: a use of @__offload_cpu_run_grid that is not a call with 6 arguments (a thread body and a null team body): store ptr @__offload_cpu_run_grid, ptr %p
; GPU: call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @body, ptr null, ptr null, i64 0)

;--- refused.ll
target triple = "x86_64-unknown-linux-gnu"
@site = private constant [24 x i8] zeroinitializer
@name = private constant [1 x i8] c"k"
@table = constant ptr @sync_down
declare void @__offload_cpu_sync_threads(ptr)
declare void @__offload_cpu_warp_release(...)
declare void @__offload_cpu_run_grid(ptr, ptr, ptr, ptr, ptr, i64)

; A recursive function that meets, to a run-time depth: it cannot be
; inlined (to a constant depth the inliner unrolls it).
define void @sync_down(i32 %n) {
  %stop = icmp eq i32 %n, 0
  br i1 %stop, label %done, label %more
more:
  call void @__offload_cpu_sync_threads(ptr @site)
  %m = sub i32 %n, 1
  call void @sync_down(i32 %m)
  br label %done
done:
  ret void
}

define internal void @recursive(ptr %env) {
  %depth = load i32, ptr %env
  call void @sync_down(i32 %depth)
  ret void
}

; An indirect call, while a function that meets has its address taken.
define internal void @indirect(ptr %env) {
  %f = load ptr, ptr %env
  call void %f(i32 1)
  ret void
}

define internal void @dynamic(ptr %env) {
  %n = load i64, ptr %env
  %buffer = alloca i8, i64 %n
  store i8 0, ptr %buffer
  call void @__offload_cpu_sync_threads(ptr @site)
  ret void
}

; A hook called with another signature.
define internal void @odd(ptr %env) {
  call void @__offload_cpu_warp_release(ptr @site, i32 1)
  ret void
}

define internal void @fine(ptr %env) {
  call void @__offload_cpu_sync_threads(ptr @site)
  ret void
}

define void @entry(ptr %slots, ptr %env) {
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @recursive, ptr null, ptr @name, i64 1)
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @indirect, ptr null, ptr @name, i64 1)
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @dynamic, ptr null, ptr @name, i64 1)
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @odd, ptr null, ptr @name, i64 1)
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @fine, ptr null, ptr @name, i64 1)
  ret void
}

;--- escaped.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @__offload_cpu_run_grid(ptr, ptr, ptr, ptr, ptr, i64)
define void @f(ptr %p) {
  store ptr @__offload_cpu_run_grid, ptr %p
  ret void
}

;--- gpu.ll
target triple = "nvptx64-nvidia-cuda"
declare void @__offload_cpu_sync_threads(ptr)
declare void @__offload_cpu_run_grid(ptr, ptr, ptr, ptr, ptr, i64)
define internal void @body(ptr %env) {
  call void @__offload_cpu_sync_threads(ptr @body)
  ret void
}
define void @entry(ptr %slots, ptr %env) {
  call void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr @body, ptr null, ptr null, i64 0)
  ret void
}
