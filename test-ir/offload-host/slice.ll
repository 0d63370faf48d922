; A pointer plus length (a slice), described the way Rust source can: a
; constant global @"__offload_launch.scale" holding the descriptor words. This
; is rustc's lowering of
;   #[unsafe(export_name = "__offload_launch.scale")]
;   pub static SCALE: [u64; 15] = [1, 1, 1, 1, 1, 1, 1, 0, 2, 3, 4, 2, 0, 0, 0];
; (a [120 x i8] byte string): argument 0 is TO|FROM with 4-byte elements whose
; count is argument 1 (LEN = 1 + 1), argument 1 is inferred (a literal). The
; size, n * 4, is computed at run time; the length is not a constant here.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; A v1 launch carries no image digest: a build that reuses compiled host code
; (rustc -Cincremental) would keep the image embedded before, so it is a
; warning naming the kernel and the caller:
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=UNTIED -DIMAGE=%t/dev.so
; UNTIED: warning: offload-host: launch of 'scale' in function 'main': the v1 call form carries no image digest, so nothing ties it to image '[[IMAGE]]': a build that reuses compiled host code (rustc -Cincremental) keeps the image embedded when it was compiled after the image changes; use the v2 form with the image's digest
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s

; Only the first three of five elements are in the slice.
; CHECK: 3 6 9 4 5

; IR: @.offload_maptypes.scale = private unnamed_addr constant [2 x i64] [i64 35, i64 800]
; IR-LABEL: define i32 @main(
; IR: %.offload_sizes = alloca [2 x i64], align 8
; IR: %[[BYTES:[0-9]+]] = mul i64 %n, 4
; IR: store i64 %[[BYTES]], ptr
; The run-time sizes array goes into the kernel arguments:
; IR: store ptr %.offload_sizes, ptr
; IR: call i32 @__tgt_target_kernel(

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

; scale(p, n): p[i] *= 3 for i < n
define void @scale(ptr %p, i64 %n) !offload.kernel !0 {
entry:
  %empty = icmp eq i64 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i64 [ 0, %entry ], [ %i1, %loop ]
  %q = getelementptr i32, ptr %p, i64 %i
  %v = load i32, ptr %q
  %v3 = mul i32 %v, 3
  store i32 %v3, ptr %q
  %i1 = add i64 %i, 1
  %more = icmp ult i64 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@"__offload_launch.scale" = local_unnamed_addr constant [120 x i8] c"\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\01\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\03\00\00\00\00\00\00\00\04\00\00\00\00\00\00\00\02\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00\00", align 8
@fmt = private constant [16 x i8] c"%d %d %d %d %d\0A\00"
@len = global i64 3

declare void @scale(ptr, i64)
declare i32 @printf(ptr, ...)

define i32 @main() {
  %a = alloca [5 x i32], align 4
  store [5 x i32] [i32 1, i32 2, i32 3, i32 4, i32 5], ptr %a
  %n = load i64, ptr @len
  call void @scale(ptr %a, i64 %n)
  %v0 = load i32, ptr %a
  %p1 = getelementptr i32, ptr %a, i64 1
  %v1 = load i32, ptr %p1
  %p2 = getelementptr i32, ptr %a, i64 2
  %v2 = load i32, ptr %p2
  %p3 = getelementptr i32, ptr %a, i64 3
  %v3 = load i32, ptr %p3
  %p4 = getelementptr i32, ptr %a, i64 4
  %v4 = load i32, ptr %p4
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v0, i32 %v1, i32 %v2, i32 %v3, i32 %v4)
  ret i32 0
}
