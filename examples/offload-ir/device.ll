; Device module for libomptarget's host (x86_64) plugin, as a front end
; would write it: plain kernels marked !offload.kernel. offload-wrap-kernels
; gives them the launch signature (leading dyn pointer, 8-byte slots).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; y[i] = a * x[i] + y[i] for i < n
define void @daxpy(ptr %y, ptr %x, double %a, i32 %n) !offload.kernel !0 {
entry:
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %xp = getelementptr double, ptr %x, i32 %i
  %yp = getelementptr double, ptr %y, i32 %i
  %xv = load double, ptr %xp
  %yv = load double, ptr %yp
  %ax = fmul double %a, %xv
  %r = fadd double %ax, %yv
  store double %r, ptr %yp
  %next = add i32 %i, 1
  %more = icmp slt i32 %next, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}

!0 = !{}
