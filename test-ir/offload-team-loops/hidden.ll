; The grid runner and the hooks the module defines become hidden: each copy
; of the image (libomptarget's host plugin loads one per device) calls its
; own, whose per-thread records are its own, and exports only its kernels.
; Declarations and other functions keep their visibility.
; RUN: %opt -passes=offload-team-loops -S %s | %FileCheck %s
;
; CHECK: define hidden void @__offload_cpu_run_grid(
; CHECK: define hidden i32 @__offload_cpu_thread_rank(
; CHECK: declare void @__offload_cpu_sync_threads(
; CHECK: define void @kernel(

target triple = "x86_64-unknown-linux-gnu"

define void @__offload_cpu_run_grid(ptr %slots, ptr %env, ptr %thread, ptr %team, ptr %name, i64 %len) {
  call void %thread(ptr %env)
  ret void
}

define i32 @__offload_cpu_thread_rank() {
  ret i32 0
}

declare void @__offload_cpu_sync_threads(ptr)

define void @kernel(ptr %slots, ptr %env) {
  ret void
}
