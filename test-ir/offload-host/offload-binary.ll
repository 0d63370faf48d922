; An image wrapped in an OffloadBinary (llvm-offload-binary): the pass embeds
; the inner ELF, not the OffloadBinary header, so ImageStart is the raw ELF
; the runtime loads. Runs end to end.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image %t/dev.ll %t/dev.so
; RUN: llvm-offload-binary -o %t/dev.bin --image=file=%t/dev.so,triple=x86_64-unknown-linux-gnu,arch=generic,kind=openmp
; RUN: %opt -passes='offload-host<image=%t/dev.bin>' %t/host.ll -S -o %t/from-bin.ll
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o %t/from-elf.ll
; RUN: %FileCheck %s < %t/from-bin.ll
; Identical modules from the wrapped and the bare image.
; RUN: diff %t/from-bin.ll %t/from-elf.ll
; RUN: %host-link %t/host.ll %t/dev.bin %t/host.exe
; RUN: %run-offload %t/dev.so %t/host.exe | %FileCheck %s --check-prefix=OUT

; The image starts with the ELF magic ("\7FELF\02\01\01\00" as a little-endian word):
; CHECK: @.omp_offloading.device_image = internal unnamed_addr constant {{.*}}[i64 282584257676671,
; OUT: 42

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

define void @answer(ptr %dyn_ptr, ptr %x) {
  store i32 42, ptr %x
  ret void
}

;--- host.ll
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-unknown-linux-gnu"

@fmt = private constant [4 x i8] c"%d\0A\00"

declare void @answer(ptr writeonly dereferenceable(4))
declare i32 @printf(ptr, ...)

define i32 @main() {
  %x = alloca i32, align 4
  store i32 0, ptr %x
  call void @answer(ptr %x)
  %v = load i32, ptr %x
  call i32 (ptr, ...) @printf(ptr @fmt, i32 %v)
  ret i32 0
}
