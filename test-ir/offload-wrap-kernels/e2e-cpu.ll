; End to end on the CPU: a device kernel taking i32, double, float and i8
; arguments and a struct by value (byval), wrapped by offload-wrap-kernels, linked into an x86_64 image and
; launched by libomptarget's host plugin from a hand-written host program
; (Inputs/host.c: KernelArgs version 3, scalars as literal 8-byte slots).
; The results depend on every scalar, so they prove the dyn_ptr slot and the
; i64 -> trunc/bitcast narrowing match what the runtime passes, and that a
; byval struct can arrive as a pointer to the host's TO-mapped copy; a `double`
; read straight from its parameter would come from an SSE register that
; libffi never sets.
;
; REQUIRES: libomptarget
; RUN: rm -rf %t && mkdir -p %t
; RUN: %device-image -passes=offload-wrap-kernels %s %t/device.so
; RUN: %clang -O1 %S/Inputs/host.c -o %t/host %link-omptarget
; RUN: env OMP_TARGET_OFFLOAD=MANDATORY %t/host %t/device.so | %FileCheck %s

; a[i] = a[i] * 2.5 + 0.25 + (-3) + s.bias * s.count, a = {1, 2, 3, 4},
; s = {50.0, 2}
; CHECK:      launch: 0
; CHECK-NEXT: a[0] = 99.7500
; CHECK-NEXT: a[1] = 102.2500
; CHECK-NEXT: a[2] = 104.7500
; CHECK-NEXT: a[3] = 107.2500
; The host plugin's copy of the image is gone again.
; CHECK-NEXT: tmpfiles removed: 1

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

%struct.S = type { double, i64, double }

define void @kernel(ptr %a, i32 %n, double %scale, float %f, i8 %k, ptr byval(%struct.S) align 8 %s) !offload.kernel !0 {
entry:
  %offset = fpext float %f to double
  %kd = sitofp i8 %k to double
  %add0 = fadd double %offset, %kd
  %bias = load double, ptr %s
  %count.addr = getelementptr inbounds %struct.S, ptr %s, i32 0, i32 1
  %count = load i64, ptr %count.addr
  %countd = sitofp i64 %count to double
  %extra = fmul double %bias, %countd
  ; byval: the callee owns its copy and may write it (the pass gives it one).
  store double 0.0, ptr %s
  %add = fadd double %add0, %extra
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop

loop:
  %i = phi i32 [ 0, %entry ], [ %next, %loop ]
  %slot = getelementptr inbounds double, ptr %a, i32 %i
  %x = load double, ptr %slot
  %scaled = fmul double %x, %scale
  %y = fadd double %scaled, %add
  store double %y, ptr %slot
  %next = add nsw i32 %i, 1
  %done = icmp eq i32 %next, %n
  br i1 %done, label %exit, label %loop

exit:
  ret void
}

!0 = !{}
