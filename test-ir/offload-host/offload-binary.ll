; The image is embedded the way LLVM's OffloadWrapper embeds one: the whole
; OffloadBinary, with ImageStart at the entry's ImageOffset (never a fixed
; 144) and ImageEnd at ImageOffset + ImageSize. An image given as an
; OffloadBinary (llvm-offload-binary) is embedded as it is; a bare ELF is
; wrapped into one (kind elf, triple and arch strings). The section is
; .offload_passes.image, not .llvm.offloading (clang-linker-wrapper would
; re-link it into its own device image, see clang-interop.test); dumped from
; the program, llvm-objdump --offloading reads it. Both run end to end.
; REQUIRES: libomptarget
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so
; RUN: llvm-offload-binary -o %t/dev.bin --image=file=%t/dev.so,triple=x86_64-unknown-linux-gnu,arch=generic,kind=openmp
; RUN: %python -c "import struct, sys; d = open(sys.argv[1], 'rb').read(); e = struct.unpack_from('<Q', d, 16)[0]; print('ImageOffset %%d ImageEnd %%d' %% (struct.unpack_from('<Q', d, e + 24)[0], sum(struct.unpack_from('<QQ', d, e + 24))))" %t/dev.bin > %t/offsets.txt
; RUN: %opt -passes='offload-host<image=%t/dev.bin>' %t/host.ll -S -o %t/from-bin.ll
; RUN: cat %t/offsets.txt %t/from-bin.ll | %FileCheck %s --check-prefix=BIN
; RUN: %opt -passes='offload-host<image=%t/dev.so>' %t/host.ll -S -o %t/from-elf.ll
; RUN: %FileCheck %s --check-prefix=BARE < %t/from-elf.ll
; RUN: %host-link %t/host.ll %t/dev.bin %t/bin.exe
; RUN: %run-offload %t/dev.so %t/bin.exe | %FileCheck %s --check-prefix=OUT
; RUN: %host-link %t/host.ll %t/dev.so %t/elf.exe
; RUN: %run-offload %t/dev.so %t/elf.exe | %FileCheck %s --check-prefix=OUT
; RUN: llvm-readelf -S %t/elf.exe | %FileCheck %s --check-prefix=SECTIONS
; RUN: llvm-objcopy --dump-section=.offload_passes.image=%t/section.bin %t/elf.exe %t/copy.exe
; RUN: llvm-objdump --offloading %t/section.bin | %FileCheck %s --check-prefix=OBJDUMP
; The ELF inside is the image itself:
; RUN: llvm-objcopy --dump-section=.offload_passes.image=%t/bin-section.bin %t/bin.exe %t/copy2.exe
; RUN: cmp %t/bin-section.bin %t/dev.bin

; BIN: ImageOffset [[OFF:[0-9]+]] ImageEnd [[END:[0-9]+]]
; BIN: @.omp_offloading.device_image.[[H:[0-9a-f]+]] = linkonce_odr hidden unnamed_addr constant {{.*}}, section ".offload_passes.image", comdat, align 8
; BIN: @.omp_offloading.device_images.[[H]] = linkonce_odr hidden unnamed_addr constant [1 x %__tgt_device_image] [%__tgt_device_image { ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 [[OFF]]), ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 [[END]]),

; A bare ELF: the OffloadBinary this pass writes (header, entry, 2 string
; entries, "arch\0generic\0triple\0x86_64-unknown-linux-gnu\0", padded to 8).
; BARE: @.omp_offloading.device_images.[[H:[0-9a-f]+]] = linkonce_odr hidden unnamed_addr constant [1 x %__tgt_device_image] [%__tgt_device_image { ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 152),

; OUT: 42

; The image stays allocated (flag A) and its own section in the program.
; SECTIONS: .offload_passes.image PROGBITS {{.*}} 00   A  0   0  8

; OBJDUMP:      OFFLOADING IMAGE [0]:
; OBJDUMP-NEXT: kind            elf
; OBJDUMP-NEXT: arch            generic
; OBJDUMP-NEXT: triple          x86_64-unknown-linux-gnu
; OBJDUMP-NEXT: producer        openmp

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"

define void @answer(ptr %x) !offload.kernel !0 {
  store i32 42, ptr %x
  ret void
}
!0 = !{}

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
