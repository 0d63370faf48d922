; Errors at compile time, with their exact messages. Every one names the image
; path and says what is wrong; the pass changes nothing on error. (Bad
; parameters fail when the pipeline is parsed: bad-input/pass-params.ll.)
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image %t/dev.ll %t/dev.so

; A launch of a kernel the image lacks lists the kernels it has.
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/missing.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=MISSING -DIMAGE=%t/dev.so
; MISSING: error: offload-host: kernel 'nope' is not in image '[[IMAGE]]' (its kernels: alpha, beta, gamma)

; RUN: not %opt -passes='offload-host<image=%t/none.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=NO-FILE -DIMAGE=%t/none.so
; NO-FILE: error: offload-host: cannot read image '[[IMAGE]]': No such file or directory (os error 2)

; RUN: echo "not an image" > %t/text.so
; RUN: not %opt -passes='offload-host<image=%t/text.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=NOT-ELF -DIMAGE=%t/text.so
; NOT-ELF: error: offload-host: image '[[IMAGE]]' is neither an ELF file nor an OffloadBinary

; RUN: touch %t/empty.so
; RUN: not %opt -passes='offload-host<image=%t/empty.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=EMPTY -DIMAGE=%t/empty.so
; EMPTY: error: offload-host: image '[[IMAGE]]' is empty

; An unlinked object (%device-image leaves %t/dev.o): the host plugin dlopens the image.
; RUN: not %opt -passes='offload-host<image=%t/dev.o>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=OBJECT -DIMAGE=%t/dev.o
; OBJECT: error: offload-host: image '[[IMAGE]]' is not a shared object (ELF type 1); link the device object with `ld.lld -shared`

; RUN: llvm-offload-binary -o %t/two.bin --image=file=%t/dev.so,triple=x86_64-unknown-linux-gnu,kind=openmp --image=file=%t/dev.so,triple=x86_64-unknown-linux-gnu,kind=openmp
; RUN: not %opt -passes='offload-host<image=%t/two.bin>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=TWO -DIMAGE=%t/two.bin
; TWO: error: offload-host: image '[[IMAGE]]' is an OffloadBinary holding 2 images; exactly one is supported (pass one image, e.g. the ELF itself)

; An OffloadBinary whose one image is empty.
; RUN: rm -f %t/nothing && touch %t/nothing
; RUN: llvm-offload-binary -o %t/zero.bin --image=file=%t/nothing,triple=x86_64-unknown-linux-gnu,kind=openmp
; RUN: not %opt -passes='offload-host<image=%t/zero.bin>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=ZERO -DIMAGE=%t/zero.bin
; ZERO: error: offload-host: image '[[IMAGE]]' is an OffloadBinary holding no image (its image is empty)

; A truncated ELF (the first 100 bytes of a good image).
; RUN: %python -c "import sys; d = open(sys.argv[1], 'rb').read(100); open(sys.argv[2], 'wb').write(d)" %t/dev.so %t/truncated.so
; RUN: not %opt -passes='offload-host<image=%t/truncated.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=TRUNCATED -DIMAGE=%t/truncated.so
; TRUNCATED: error: offload-host: image '[[IMAGE]]' is not a valid ELF file:

; An ELF for a machine no offload plugin runs (AArch64).
; RUN: %device-image %t/dev.ll %t/arm.so -mtriple=aarch64-unknown-linux-gnu
; RUN: not %opt -passes='offload-host<image=%t/arm.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=MACHINE -DIMAGE=%t/arm.so
; MACHINE: error: offload-host: image '[[IMAGE]]' is an ELF for machine 183; expected x86_64 (EM_X86_64), AMDGPU (EM_AMDGPU) or NVPTX (EM_CUDA)

; A pointer whose size the pass cannot know.
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/unsized.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=UNSIZED
; UNSIZED: error: offload-host: launch of 'alpha' in function 'f': argument 0: a pointer of unknown size: add dereferenceable(N) to the parameter or a SIZE in the launch descriptor

; A scalar whose descriptor map type lacks LITERAL (IMPLICIT alone, 0x200):
; the runtime would read the value as a host address.
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/scalar-map.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=SCALAR-MAP
; SCALAR-MAP: error: offload-host: launch of 'gamma' in function 'f': argument 0: a scalar must be LITERAL (0x100); map type 0x200 would make the runtime treat its value as a host address

; A launch argument of a type no launch can pass (a target extension type).
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/token-arg.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=TOKEN
; TOKEN: error: offload-host: launch of 'gamma' in function 'f': argument 0 has type 'target("opaque.t")', which no launch can pass

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"
define void @alpha(ptr %dyn_ptr, ptr %a) {
  ret void
}
define void @beta(ptr %dyn_ptr) {
  ret void
}
define void @gamma(ptr %dyn_ptr, i64 %x) {
  ret void
}

;--- host.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @beta()
define void @f() {
  call void @beta()
  ret void
}

;--- missing.ll
target triple = "x86_64-unknown-linux-gnu"
@"__offload_launch.nope" = constant [9 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0]
declare void @beta()
declare void @nope()
define void @f() {
  call void @beta()
  call void @nope()
  ret void
}

;--- unsized.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @alpha(ptr)
define void @f(ptr %p) {
  call void @alpha(ptr %p)
  ret void
}

;--- scalar-map.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @gamma(i32)
define void @f() {
  call void @gamma(i32 7), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 1, i64 0, i64 1, i64 512, i64 0, i64 0}

;--- token-arg.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @gamma(target("opaque.t"))
define void @f(target("opaque.t") %t) {
  call void @gamma(target("opaque.t") %t)
  ret void
}

