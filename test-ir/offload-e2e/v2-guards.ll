; What a v2 launch refuses at run time, with a code and without launching
; (libomptarget itself would abort or crash), and empty inputs, which launch:
; the config's device out of range (-100, NO_SUCH_DEVICE), a mapped null
; pointer with a size (-4, NULL_POINTER), a size of 2^63 or more (-5,
; SIZE_TOO_LARGE), a size the device cannot allocate (-6,
; OUT_OF_DEVICE_MEMORY: 2^63 - 1 bytes, 1 TiB; libomptarget aborts on its own
; failed allocation, under OMP_TARGET_OFFLOAD=DEFAULT too). A config of version 3 gives a size of 0 bytes (an entry of
; u64::MAX gives none); in a version-2 config 0 gives none. The kernel records
; that it ran; every run is under OMP_TARGET_OFFLOAD=MANDATORY, which makes
; libomptarget abort on what it cannot do.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; Its descriptor's digest is 0: nothing ties the launch to the image, a warning.
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=UNTIED
; UNTIED: warning: offload-host: launch of 'fill' in function 'main': its descriptor's image digest is 0 (not checked), so nothing ties it to image
; Arguments: device, pointer (0 a buffer, 1 dangling as Rust's empty slices, 2 null), size, config version, n.
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 8 3 2 2>&1 | %FileCheck %s --check-prefix=OK
; RUN: %run-offload %t/dev.so %t/host.exe -1 1 0 3 0 2>&1 | %FileCheck %s --check-prefix=EMPTY
; RUN: %run-offload %t/dev.so %t/host.exe -1 2 0 3 0 2>&1 | %FileCheck %s --check-prefix=EMPTY
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 0 3 0 2>&1 | %FileCheck %s --check-prefix=EMPTY
; RUN: %run-offload %t/dev.so %t/host.exe 5 0 8 3 2 2>&1 | %FileCheck %s --check-prefix=NO-DEVICE
; RUN: %run-offload %t/dev.so %t/host.exe -2 0 8 3 2 2>&1 | %FileCheck %s --check-prefix=NO-DEVICE
; RUN: %run-offload %t/dev.so %t/host.exe 0 0 8 3 2 2>&1 | %FileCheck %s --check-prefix=OK
; RUN: %run-offload %t/dev.so %t/host.exe -1 2 8 3 2 2>&1 | %FileCheck %s --check-prefix=NULL
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 9223372036854775808 3 2 2>&1 | %FileCheck %s --check-prefix=TOO-LARGE
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 18446744073709551614 3 2 2>&1 | %FileCheck %s --check-prefix=TOO-LARGE
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 18446744073709551615 3 2 2>&1 | %FileCheck %s --check-prefix=NO-SIZE
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 9223372036854775807 3 2 2>&1 | %FileCheck %s --check-prefix=NO-MEMORY
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 1099511627776 3 2 2>&1 | %FileCheck %s --check-prefix=NO-MEMORY
; RUN: %run-offload %t/dev.so %t/host.exe 1 0 1099511627776 3 2 2>&1 | %FileCheck %s --check-prefix=NO-MEMORY
; RUN: env OMP_TARGET_OFFLOAD=DEFAULT sh %repo/scripts/run-offload.sh %t/dev.so %t/host.exe -1 0 1099511627776 3 2 2>&1 | %FileCheck %s --check-prefix=NO-MEMORY
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 0 2 0 2>&1 | %FileCheck %s --check-prefix=NO-SIZE
; RUN: %run-offload %t/dev.so %t/host.exe -1 0 8 2 2 2>&1 | %FileCheck %s --check-prefix=OK
; The same kernel as the only image, for AMDGPU (no AMD GPU here):
; RUN: sed -e '/^target datalayout/d' -e 's/^target triple.*/target triple = "amdgcn-amd-amdhsa"/' -e 's/^define void @fill/define amdgpu_kernel void @fill/' %t/dev.ll > %t/amdgpu.ll
; RUN: %device-image -passes=offload-wrap-kernels %t/amdgpu.ll %t/amdgpu.so -mcpu=gfx90a
; RUN: %host-link %t/host.ll %t/amdgpu.so %t/amdgpu.exe
; RUN: %run-offload %t/amdgpu.so %t/amdgpu.exe -1 0 8 3 2 2>&1 | %FileCheck %s --check-prefix=NO-IMAGE
; RUN: %run-offload %t/amdgpu.so %t/amdgpu.exe 0 0 8 3 2 2>&1 | %FileCheck %s --check-prefix=NO-IMAGE
; RUN: env OMP_TARGET_OFFLOAD=DEFAULT sh %repo/scripts/run-offload.sh %t/amdgpu.so %t/amdgpu.exe -1 0 8 3 2 2>&1 | %FileCheck %s --check-prefix=NO-IMAGE

; OK: rc 0 ran 1 out1 2
; EMPTY: rc 0 ran 1 out1 -1
; NO-DEVICE: rc -100 ran 0 out1 -1
; NULL: rc -4 ran 0 out1 -1
; TOO-LARGE: rc -5 ran 0 out1 -1
; NO-MEMORY: rc -6 ran 0 out1 -1
; NO-IMAGE: rc -7 ran 0 out1 -1
; NO-SIZE: rc -3 ran 0 out1 -1

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; fill(out, n, ran): *ran = 1; out[i] = 2 i for i < n.
define void @fill(ptr %out, i32 %n, ptr %ran) !offload.kernel !0 {
entry:
  store i32 1, ptr %ran
  %empty = icmp sle i32 %n, 0
  br i1 %empty, label %exit, label %loop
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %v = shl i32 %i, 1
  %p = getelementptr i32, ptr %out, i32 %i
  store i32 %v, ptr %p
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %exit
exit:
  ret void
}
!0 = !{}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

%LaunchConfig = type { i32, i32, [3 x i32], [3 x i32], i32, i64, ptr }

; [2, digest not checked, 3 arguments, out: FROM with the config's size,
;  n: inferred, ran: TO|FROM 4 bytes]
@fill.descriptor = private unnamed_addr constant [9 x i64] [i64 2, i64 0, i64 3, i64 2, i64 0, i64 0, i64 0, i64 3, i64 4]
@fmt = private constant [25 x i8] c"rc %d ran %d out1 %d\0A\00\00\00\00"

declare i32 @"__offload_launch2.fill"(ptr, ptr, ptr, i32, ptr)
declare i32 @printf(ptr, ...)
declare i64 @strtoull(ptr, ptr, i32)

define internal i64 @arg(ptr %argv, i64 %i) {
  %at = getelementptr ptr, ptr %argv, i64 %i
  %s = load ptr, ptr %at
  %v = call i64 @strtoull(ptr %s, ptr null, i32 10)
  ret i64 %v
}

define i32 @main(i32 %argc, ptr %argv) {
entry:
  %config = alloca %LaunchConfig, align 8
  %sizes = alloca [3 x i64], align 8
  %buffer = alloca [2 x i32], align 4
  %ran = alloca i32, align 4
  store i32 0, ptr %ran
  store [2 x i32] [i32 -1, i32 -1], ptr %buffer
  %device = call i64 @arg(ptr %argv, i64 1)
  %kind = call i64 @arg(ptr %argv, i64 2)
  %size = call i64 @arg(ptr %argv, i64 3)
  %version64 = call i64 @arg(ptr %argv, i64 4)
  %version = trunc i64 %version64 to i32
  %n64 = call i64 @arg(ptr %argv, i64 5)
  %n = trunc i64 %n64 to i32
  %dangling = inttoptr i64 4 to ptr
  %is.dangling = icmp eq i64 %kind, 1
  %is.null = icmp eq i64 %kind, 2
  %p0 = select i1 %is.dangling, ptr %dangling, ptr %buffer
  %out = select i1 %is.null, ptr null, ptr %p0
  store i64 %size, ptr %sizes
  %s1 = getelementptr i64, ptr %sizes, i64 1
  store i64 0, ptr %s1
  %s2 = getelementptr i64, ptr %sizes, i64 2
  store i64 4, ptr %s2
  %c0 = insertvalue %LaunchConfig zeroinitializer, i32 %version, 0
  %c1 = insertvalue %LaunchConfig %c0, i32 1, 2, 0
  %c2 = insertvalue %LaunchConfig %c1, i32 1, 3, 0
  %c3 = insertvalue %LaunchConfig %c2, i64 %device, 5
  %c4 = insertvalue %LaunchConfig %c3, ptr %sizes, 6
  store %LaunchConfig %c4, ptr %config
  %rc = call i32 @"__offload_launch2.fill"(ptr @fill.descriptor, ptr %config, ptr %out, i32 %n, ptr %ran)
  %r = load i32, ptr %ran
  %o1p = getelementptr i32, ptr %buffer, i64 1
  %o1 = load i32, ptr %o1p
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %rc, i32 %r, i32 %o1)
  ret i32 0
}
