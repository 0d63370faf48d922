; offload-host on a cubin, compile only, without ptxas: the cubin is the unit
; tests' fixture (passes/testdata/kernels.sm_90.cubin, assembled by ptxas
; 12.9 for sm_90 from the wrapped kernels.ll there, so it holds the kernel
; manifests). Its kernels are the .entry symbols; the device function ptxas
; kept ($scale$helper) is refused by name, as is a function that is not
; there. arch=sm_NN says which GPU the program is for: an sm_90 cubin runs
; on sm_90..sm_99 (libomptarget's rule: same major, same or higher minor)
; and not on sm_80 or sm_100; arch on a non-NVIDIA image is an error. Every
; error leaves no output.
; RUN: rm -rf %t && split-file %s %t
; RUN: cp %repo/passes/testdata/kernels.sm_90.cubin %t/k.cubin
; RUN: %opt '-passes=offload-host<image=%t/k.cubin;arch=sm_90;teams=2;threads=64>' %t/host.ll -S -o - | %FileCheck %s
; RUN: %opt '-passes=offload-host<image=%t/k.cubin;arch=sm_90a>' %t/host.ll -disable-output
; RUN: %opt '-passes=offload-host<image=%t/k.cubin;arch=sm_91>' %t/host.ll -disable-output
; RUN: %no-output-file %t.out not %opt '-passes=offload-host<image=%t/k.cubin;arch=sm_80>' %t/host.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=SM80 -DIMAGE=%t/k.cubin
; RUN: not %opt '-passes=offload-host<image=%t/k.cubin;arch=sm_100>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=SM100 -DIMAGE=%t/k.cubin
; RUN: not %opt '-passes=offload-host<image=%t/k.cubin;arch=90>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=BADARCH
; RUN: %no-output-file %t.out not %opt '-passes=offload-host<image=%t/k.cubin>' %t/helper.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=HELPER -DIMAGE=%t/k.cubin
; RUN: not %opt '-passes=offload-host<image=%t/k.cubin>' %t/missing.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=MISSING -DIMAGE=%t/k.cubin
; RUN: not %opt '-passes=offload-host<image=%t/k.cubin>' %t/wrong.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=WRONG -DIMAGE=%t/k.cubin
; RUN: %device-image %t/cpu.ll %t/cpu.so
; RUN: not %opt '-passes=offload-host<image=%t/cpu.so;arch=sm_90>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=CPU -DIMAGE=%t/cpu.so
; The cubin in an OffloadBinary: the inner cubin (5744 bytes) is what
; ImageStart..ImageEnd covers, as the runtime needs it:
; RUN: llvm-offload-binary -o %t/k.bin --image=file=%t/k.cubin,triple=nvptx64-nvidia-cuda,arch=sm_90,kind=openmp
; RUN: %opt '-passes=offload-host<image=%t/k.bin;arch=sm_90>' %t/host.ll -S -o - | %FileCheck %s --check-prefix=PACKED
; A cubin's header, checked as libomptarget checks it (the unit tests try
; every case): ABI version 7 with the 64-bit addressing flag cleared.
; RUN: %python -c "import sys; b=bytearray(open(sys.argv[1],'rb').read()); b[49] &= ~0x04; open(sys.argv[2],'wb').write(b)" %t/k.cubin %t/k32.cubin
; RUN: not %opt '-passes=offload-host<image=%t/k32.cubin>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=ADDR32 -DIMAGE=%t/k32.cubin

; The OffloadBinary written around the bare cubin, then the cubin from its
; first byte: "\7FELF", ELFCLASS64, LSB, EV_CURRENT, ELFOSABI_CUDA (0x33) is
; 3675219880192001407; ABI version 7; e_type 2 (EXEC), e_machine 190
; (EM_CUDA), e_version 0x81 is 554063233026.
; CHECK: @.omp_offloading.device_image.[[H:[0-9a-f]+]] = linkonce_odr hidden unnamed_addr constant <{ [[[N:[0-9]+]] x i64], [{{[0-9]+}} x i64] }> <{ [[[N]] x i64] [{{.*}}], [{{[0-9]+}} x i64] [i64 3675219880192001407, i64 7, i64 554063233026,
; CHECK: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 2, i32 64, ptr @.scale.region_id.[[H]],
; CHECK: call i32 @__tgt_target_kernel(ptr null, i64 -1, i32 2, i32 64, ptr @.zero.region_id.[[H]],

; SM80: error: offload-host: image '[[IMAGE]]' is a cubin for sm_90, which cannot run on sm_80 (parameter 'arch'): a cubin runs on GPUs of its major version with the same or a higher minor version (sm_90..sm_99); assemble it with `ptxas -arch=sm_80`, or pass nvptx64 bitcode, which the runtime compiles for the GPU it finds
; SM100: error: offload-host: image '[[IMAGE]]' is a cubin for sm_90, which cannot run on sm_100 (parameter 'arch')
; BADARCH: error: offload-host: parameter 'arch': '90' is not an NVIDIA GPU architecture like sm_90 or sm_90a
; HELPER: error: offload-host: '$scale$helper' in image '[[IMAGE]]' is a device function, not a kernel (.entry) (its kernels: scale, zero)
; MISSING: error: offload-host: kernel 'helper' is not in image '[[IMAGE]]' (its kernels: scale, zero)
; WRONG: error: offload-host: launch of 'scale' in function 'f': argument 1 is 'i32', but kernel 'scale' takes 'i64' (its manifest in image '[[IMAGE]]')
; CPU: error: offload-host: parameter 'arch=sm_90' is for NVPTX images; image '[[IMAGE]]' is for x86_64 (libomptarget's host plugin)
; ADDR32: error: offload-host: image '[[IMAGE]]' is a cubin with 32-bit addressing (e_flags 0x5a015a lack EF_CUDA_64BIT_ADDRESS, 0x400); libomptarget loads 64-bit cubins only

; The file's own OffloadBinary is embedded; ImageStart and ImageEnd are the
; cubin's 5744 bytes inside it.
; PACKED: @.omp_offloading.device_images.[[H:[0-9a-f]+]] = linkonce_odr hidden unnamed_addr constant [1 x %__tgt_device_image] [%__tgt_device_image { ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 [[#START:]]),
; PACKED-SAME: ptr getelementptr (i8, ptr @.omp_offloading.device_image.[[H]], i64 [[#START+5744]]),

;--- host.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @scale(ptr, i64)
declare void @zero(ptr)
define void @f(ptr %p, i64 %n) {
  call void @scale(ptr writeonly dereferenceable(64) %p, i64 %n)
  call void @zero(ptr writeonly dereferenceable(4) %p)
  ret void
}

;--- helper.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @"$scale$helper"(ptr, i64)
define void @f(ptr %p, i64 %n) {
  call void @"$scale$helper"(ptr writeonly dereferenceable(4) %p, i64 %n), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 0, i64 0}

;--- missing.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @helper(ptr, i64)
define void @f(ptr %p, i64 %n) {
  call void @helper(ptr writeonly dereferenceable(4) %p, i64 %n), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 0, i64 0}

;--- wrong.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @scale(ptr, i32)
define void @f(ptr %p, i32 %n) {
  call void @scale(ptr writeonly dereferenceable(64) %p, i32 %n)
  ret void
}

;--- cpu.ll
target triple = "x86_64-unknown-linux-gnu"
define void @scale(ptr %dyn, ptr %p, i64 %n) { ret void }
define void @zero(ptr %dyn, ptr %p) { ret void }
