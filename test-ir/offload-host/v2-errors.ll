; Errors of the v2 call form @"__offload_launch2.K"(ptr %descriptor, ptr
; %config, args...), each naming the kernel and the caller, with no output
; written. (Mismatches with the kernel's manifest are contract-mismatch.ll's;
; the run-time codes are offload-e2e/v2-launch.ll's and v2-guards.ll's.)
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: %read-manifest --digest %t/dev.so > %t/digest.txt

; The descriptor was built against another image (a stale host object): the
; digest in word 1 is not this image's.
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/stale.ll -o %t.out 2> %t/stale.txt
; RUN: cat %t/digest.txt %t/stale.txt | %FileCheck %s --check-prefix=STALE -DIMAGE=%t/dev.so
; STALE: digest [[D:[0-9a-f]+]]
; STALE: error: offload-host: launch of 'scale' in function 'f': its descriptor was compiled against image digest 0000000000000001, but image '[[IMAGE]]' has digest [[D]]: the host code is stale; rebuild it against this image
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/not-global.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=NOT-GLOBAL
; NOT-GLOBAL: error: offload-host: launch of 'scale' in function 'f': its descriptor is `ptr %d`, not a constant global of this module (pass the address of a `const` descriptor: __offload_launch2.scale(&DESCRIPTOR, ...))
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/shape.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=SHAPE
; SHAPE: error: offload-host: launch of 'scale' in function 'f': '__offload_launch2.scale' must take (ptr descriptor, ptr config, the kernel's arguments...)
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/version.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=VERSION
; VERSION: error: offload-host: launch of 'scale' in function 'f': its descriptor @"desc" has layout version 1; version 2 is supported
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/words.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=WORDS
; WORDS: error: offload-host: launch of 'scale' in function 'f': its descriptor @"desc" declares 2 argument pairs, so 7 words, but has 5
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/short.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=SHORT
; SHORT: error: offload-host: launch of 'scale' in function 'f': its descriptor @"desc" has 2 words; at least 3 are needed (version 2, image digest, argument count)
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/mutable.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=MUTABLE
; MUTABLE: error: offload-host: launch of 'scale' in function 'f': its descriptor @"desc" is not a constant: a write at run time would not change what was compiled in
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/count.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=COUNT
; COUNT: error: offload-host: launch of 'scale' in function 'f': the launch descriptor describes 1 arguments, the call passes 2
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/body.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=BODY
; BODY: error: offload-host: launch of 'scale' in function 'f': '__offload_launch2.scale' has a body; a launch calls an external declaration
; A SIZE of 2^63 bytes or more (libomptarget's sizes are int64_t):
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/huge.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=HUGE
; HUGE: error: offload-host: launch of 'scale' in function 'f': its descriptor @"desc" argument 0: SIZE 9223372036854775808 is 2^63 bytes or more, larger than any mapping
; A v2 launch of a kernel the image lacks lists the image's kernels:
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/missing.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=MISSING -DIMAGE=%t/dev.so
; MISSING: error: offload-host: kernel 'nope' is not in image '[[IMAGE]]' (its kernels: scale)

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"
define void @scale(ptr %p, i32 %n) !offload.kernel !0 {
  ret void
}
!0 = !{}

;--- stale.ll
@desc = private unnamed_addr constant [7 x i64] [i64 2, i64 1, i64 2, i64 3, i64 0, i64 0, i64 0]
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
define i32 @f(ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- not-global.ll
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
define i32 @f(ptr %d, ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr %d, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- shape.ll
declare i32 @"__offload_launch2.scale"(ptr, i64, ptr, i32)
define i32 @f(ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr %p, i64 0, ptr %p, i32 1)
  ret i32 %r
}

;--- version.ll
@desc = private unnamed_addr constant [7 x i64] [i64 1, i64 0, i64 2, i64 3, i64 0, i64 0, i64 0]
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
define i32 @f(ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- words.ll
@desc = private unnamed_addr constant [5 x i64] [i64 2, i64 0, i64 2, i64 3, i64 0]
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
define i32 @f(ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- huge.ll
@desc = private unnamed_addr constant [7 x i64] [i64 2, i64 0, i64 2, i64 3, i64 9223372036854775808, i64 0, i64 0]
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
define i32 @f(ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- short.ll
@desc = private unnamed_addr constant [2 x i64] [i64 2, i64 0]
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
define i32 @f(ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- mutable.ll
@desc = private global [7 x i64] [i64 2, i64 0, i64 2, i64 3, i64 0, i64 0, i64 0]
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
define i32 @f(ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- count.ll
@desc = private unnamed_addr constant [5 x i64] [i64 2, i64 0, i64 1, i64 3, i64 0]
declare i32 @"__offload_launch2.scale"(ptr, ptr, ptr, i32)
define i32 @f(ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- body.ll
@desc = private unnamed_addr constant [7 x i64] [i64 2, i64 0, i64 2, i64 3, i64 0, i64 0, i64 0]
define i32 @"__offload_launch2.scale"(ptr %d, ptr %c, ptr %p, i32 %n) {
  ret i32 0
}
define i32 @f(ptr %cfg, ptr %p) {
  %r = call i32 @"__offload_launch2.scale"(ptr @desc, ptr %cfg, ptr %p, i32 1)
  ret i32 %r
}

;--- missing.ll
@desc = private unnamed_addr constant [3 x i64] [i64 2, i64 0, i64 0]
declare i32 @"__offload_launch2.nope"(ptr, ptr)
define i32 @f(ptr %cfg) {
  %r = call i32 @"__offload_launch2.nope"(ptr @desc, ptr %cfg)
  ret i32 %r
}
