; The v2 call form: @"__offload_launch2.K"(ptr %descriptor, ptr %config,
; args...). The descriptor (a constant of this module) holds the image digest
; and per-argument map types; the LaunchConfig holds values computed at run
; time: teams = n.div_ceil(256), threads 256, dynamic memory rows * 64, the
; output's mapped size rows * cols * 100 * 4. An interposer of
; __tgt_target_kernel (test-ir/Inputs/interpose-launch.c) shows them reaching
; the runtime (the host plugin runs a kernel once whatever the grid). A bad
; config version and a size known nowhere make the launch fail at run time.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; The digest goes into the descriptor (what a build helper does with env!):
; RUN: %python -c "import hashlib, struct, sys; d = struct.unpack('<Q', hashlib.sha256(open(sys.argv[1], 'rb').read()).digest()[:8])[0]; sys.stdout.write(open(sys.argv[2]).read().replace('@DIGEST@', str(d)))" %t/dev.so %t/host.in.ll > %t/host.ll
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=IR
; RUN: %host-link %t/host.ll %t/dev.so %t/host.exe
; RUN: %clang -shared -fPIC %inputs/interpose-launch.c -o %t/interpose.so -ldl
; RUN: env LD_PRELOAD=%t/interpose.so %run-offload %t/dev.so %t/host.exe 2>&1 | %FileCheck %s
; RUN: env LD_PRELOAD=%t/interpose.so %run-offload %t/dev.so %t/host.exe more arguments 2>&1 | %FileCheck %s --check-prefix=BIGGER
; RUN: env LIBOMPTARGET_INFO=-1 %run-offload %t/dev.so %t/host.exe 2>&1 | %FileCheck %s --check-prefix=INFO
; RUN: env OMP_TARGET_OFFLOAD=MANDATORY not --crash %t/host.exe bad-version 2>&1 | %FileCheck %s --check-prefix=BAD-CONFIG
; RUN: env OMP_TARGET_OFFLOAD=MANDATORY not --crash %t/host.exe no-size 2>&1 | %FileCheck %s --check-prefix=NO-SIZE

; CHECK: launch: device -1 num_teams 3 thread_limit 256 NumTeams 3 1 1 ThreadLimit 256 1 1 DynCGroupMem 128 sizes 2400 4 maptypes 0x22 0x320
; CHECK: out[0] = 0, out[599] = 1198, n = 600
; Two more arguments: rows 4, n 1200, teams 5, dynamic memory 256, 4800 bytes.
; BIGGER: launch: device -1 num_teams 5 thread_limit 256 NumTeams 5 1 1 ThreadLimit 256 1 1 DynCGroupMem 256 sizes 4800 4 maptypes 0x22 0x320
; BIGGER: out[0] = 0, out[599] = 1198, n = 1200

; One host-to-device copy is none: the output is FROM only; one copy back of 2400 bytes.
; INFO: Copying data from device to host, TgtPtr={{.*}}, HstPtr={{.*}}, Size=2400

; BAD-CONFIG: offload: kernel 'fill' launch failed (code -2)
; NO-SIZE: offload: kernel 'fill' launch failed (code -3)

; The call is replaced by the module's __offload_run_launch2, which reads the
; config when the launch runs; the call site fills the argument arrays, the
; sizes from the config where it gives one.
; The launch passes libomptarget a real ident_t (no location, in its shortest form).
; IR: @__offload_psource = private unnamed_addr constant [9 x i8] c";;;0;0;;\00"
; IR: @__offload_ident = private unnamed_addr constant { i32, i32, i32, i32, ptr } { i32 0, i32 2, i32 0, i32 8, ptr @__offload_psource }
; IR-LABEL: define i32 @main(
; IR: %config.sizes = load ptr, ptr
; IR: %fill.rc = call i32 @__offload_run_launch2(ptr %config, ptr @.fill.region_id.{{[0-9a-f]+}}, i32 2, ptr %.offload_baseptrs, ptr %.offload_ptrs, ptr %.offload_sizes, ptr @.offload_maptypes.fill, i1 %{{[0-9]+}})
; IR-NEXT: call void @__offload_launch_check(i32 %fill.rc,
; IR-LABEL: define internal i32 @__offload_run_launch2(ptr %config, ptr %region_id, i32 %count, ptr %baseptrs, ptr %ptrs, ptr %sizes, ptr %maptypes, i1 %sizes_known)
; IR: ret i32 -2
; IR: ret i32 -3
; IR: ret i32 -100
; IR: ret i32 -7
; IR: ret i32 -5
; IR: ret i32 -4
; IR: ret i32 -6
; IR: %version = load i32, ptr
; IR: %device = load i64, ptr
; IR: %devices = call i32 @omp_get_num_devices()
; A mapped argument of 64 MiB or more that is not present: a trial
; allocation first (libomptarget aborts when its own fails).
; IR: icmp uge i64 %{{[0-9]+}}, 67108864
; IR: %rc = call i32 @__tgt_target_kernel(ptr @__offload_ident, i64 %device, i32 %{{[0-9]+}}, i32 %{{[0-9]+}}, ptr %region_id, ptr %kernel_args)
; IR: icmp ne ptr @omp_get_default_device, null
; IR: %[[TRIAL:[0-9]+]] = call ptr @omp_target_alloc(i64 %{{[0-9]+}}, i32 %probe_device)
; IR: icmp eq ptr %[[TRIAL]], null
; IR: call void @omp_target_free(ptr %[[TRIAL]], i32 %probe_device)
; IR: %default_device = call i32 @omp_get_default_device()
; IR: %probe_device = phi i32
; IR: call i32 @omp_target_is_present(ptr %{{[0-9]+}}, i32 %probe_device)
; libomp's function, which the program need not link (libomptarget loads it):
; IR: declare extern_weak i32 @omp_get_default_device()

;--- dev.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; fill(out, n): out[i] = 2 i for i < n.
define void @fill(ptr %out, i32 %n) !offload.kernel !0 {
entry:
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

;--- host.in.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

; LaunchConfig: version, reserved, teams[3], threads[3], dynamic memory, device, sizes.
%LaunchConfig = type { i32, i32, [3 x i32], [3 x i32], i32, i64, ptr }

; [2, digest, 2 arguments, out: FROM with SIZE 0 (the config's), n: inferred]
@fill.descriptor = private unnamed_addr constant [7 x i64] [i64 2, i64 @DIGEST@, i64 2, i64 2, i64 0, i64 0, i64 0]
@fmt = private constant [36 x i8] c"out[0] = %d, out[599] = %d, n = %d\0A\00"

declare void @"__offload_launch2.fill"(ptr, ptr, ptr, i32)
declare i32 @printf(ptr, ...)
declare ptr @malloc(i64)
declare i32 @strcmp(ptr, ptr)
@bad = private constant [12 x i8] c"bad-version\00"
@nosize = private constant [8 x i8] c"no-size\00"

define i32 @main(i32 %argc, ptr %argv) {
entry:
  %config = alloca %LaunchConfig, align 8
  %sizes = alloca [2 x i64], align 8
  ; rows = argc + 1 (2 when run without arguments), cols = 3, n = rows * cols * 100
  %rows = add i32 %argc, 1
  %rc = mul i32 %rows, 3
  %n = mul i32 %rc, 100
  %n64 = zext i32 %n to i64
  %bytes = mul i64 %n64, 4
  %out = call ptr @malloc(i64 %bytes)
  ; teams = n.div_ceil(256)
  %n255 = add i32 %n, 255
  %teams = udiv i32 %n255, 256
  %dyn = mul i32 %rows, 64
  %mode = getelementptr ptr, ptr %argv, i64 1
  %has.mode = icmp sgt i32 %argc, 1
  br i1 %has.mode, label %modes, label %fill
modes:
  %arg = load ptr, ptr %mode
  %is.bad = call i32 @strcmp(ptr %arg, ptr @bad)
  %bad = icmp eq i32 %is.bad, 0
  %version = select i1 %bad, i32 1, i32 2
  %is.nosize = call i32 @strcmp(ptr %arg, ptr @nosize)
  %nosize = icmp eq i32 %is.nosize, 0
  br label %fill
fill:
  %v = phi i32 [ 2, %entry ], [ %version, %modes ]
  %no.sizes = phi i1 [ false, %entry ], [ %nosize, %modes ]
  store i64 %bytes, ptr %sizes
  %s1 = getelementptr i64, ptr %sizes, i64 1
  store i64 0, ptr %s1
  %sizes.ptr = select i1 %no.sizes, ptr null, ptr %sizes
  %c0 = insertvalue %LaunchConfig zeroinitializer, i32 %v, 0
  %c1 = insertvalue %LaunchConfig %c0, i32 %teams, 2, 0
  %c2 = insertvalue %LaunchConfig %c1, i32 256, 3, 0
  %c3 = insertvalue %LaunchConfig %c2, i32 %dyn, 4
  %c4 = insertvalue %LaunchConfig %c3, i64 -1, 5
  %c5 = insertvalue %LaunchConfig %c4, ptr %sizes.ptr, 6
  store %LaunchConfig %c5, ptr %config
  call void @"__offload_launch2.fill"(ptr @fill.descriptor, ptr %config, ptr %out, i32 %n)
  %o0 = load i32, ptr %out
  %p599 = getelementptr i32, ptr %out, i64 599
  %o599 = load i32, ptr %p599
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %o0, i32 %o599, i32 %n)
  ret i32 0
}
