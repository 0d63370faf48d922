; Errors at compile time, with their exact messages. Every one names the image
; path and says what is wrong; the pass changes nothing on error. (Bad
; parameters fail when the pipeline is parsed: bad-input/pass-params.ll.)
; RUN: rm -rf %t && split-file %s %t
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/dev.so

; A launch of a kernel the image lacks lists the kernels it has.
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/missing.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=MISSING -DIMAGE=%t/dev.so
; MISSING: error: offload-host: kernel 'nope' is not in image '[[IMAGE]]' (its kernels: alpha, beta, gamma)

; RUN: not %opt -passes='offload-host<image=%t/none.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=NO-FILE -DIMAGE=%t/none.so
; NO-FILE: error: offload-host: cannot read image '[[IMAGE]]': No such file or directory (os error 2)

; RUN: echo "not an image" > %t/text.so
; RUN: not %opt -passes='offload-host<image=%t/text.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=NOT-ELF -DIMAGE=%t/text.so
; NOT-ELF: error: offload-host: image '[[IMAGE]]' is neither an ELF file, LLVM bitcode nor an OffloadBinary

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
; RUN: %device-image -passes=offload-wrap-kernels %t/dev.ll %t/arm.so -mtriple=aarch64-unknown-linux-gnu
; RUN: not %opt -passes='offload-host<image=%t/arm.so>' %t/host.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=MACHINE -DIMAGE=%t/arm.so
; MACHINE: error: offload-host: image '[[IMAGE]]' is an ELF for machine 183; expected x86_64 (EM_X86_64), AMDGPU (EM_AMDGPU) or NVPTX (EM_CUDA)

; A pointer whose size the pass cannot know.
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/unsized.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=UNSIZED
; UNSIZED: error: offload-host: launch of 'alpha' in function 'f': argument 0: a pointer of unknown size: add dereferenceable(N) to the parameter or a SIZE in a launch descriptor; this module has none for the kernel (a `__offload_launch.K` static defined in another codegen unit or crate is not visible here: the v2 form __offload_launch2.K takes its descriptor as an argument)
; The same with a descriptor that gives no SIZE:
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/unsized-described.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=UNSIZED-DESCRIBED
; UNSIZED-DESCRIBED: error: offload-host: launch of 'alpha' in function 'f': argument 0: a pointer of unknown size: add dereferenceable(N) to the parameter or a SIZE in the launch descriptor{{$}}

; A scalar whose descriptor map type lacks LITERAL (IMPLICIT alone, 0x200):
; the runtime would read the value as a host address.
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/scalar-map.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=SCALAR-MAP
; SCALAR-MAP: error: offload-host: launch of 'gamma' in function 'f': argument 0: a scalar must be LITERAL (0x100); map type 0x200 would make the runtime treat its value as a host address

; A launch argument of a type no launch can pass (a target extension type).
; RUN: not %opt -passes='offload-host<image=%t/dev.so>' %t/token-arg.ll -disable-output 2>&1 | %FileCheck %s --check-prefix=TOKEN
; TOKEN: error: offload-host: launch of 'gamma' in function 'f': argument 0 has type 'target("opaque.t")', which no launch can pass

; Inputs the pass used to accept silently, each now an error (or, for the
; openmp flag, a documented behaviour):
; !offload.launch on an indirect call, which launches nothing.
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/indirect.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=INDIRECT
; INDIRECT: error: offload-host: launch of '<indirect>' in function 'f': an indirect call carries !offload.launch; a launch is a direct call of the kernel's declaration
; A kernel declaration whose address is taken (the host has no such
; function), and one that is extern_weak (a launch needs the kernel).
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/address-taken.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=ADDRESS
; ADDRESS: error: offload-host: launch of 'beta' in function 'f': the declaration of 'beta' is also used other than by calls (its address is taken); a kernel of the image has no host address
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/extern-weak.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=WEAK
; WEAK: error: offload-host: launch of 'beta' in function 'f': 'beta' is declared extern_weak; a launch needs the kernel to exist
; A data-region pointer narrower than the 8-byte slot (launches refuse it too).
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/data-addrspace.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=DATA-AS
; DATA-AS: error: offload-host: call of '__offload_data_begin' in function 'f': a pointer outside address space 0; the runtime maps 64-bit host addresses
; Descriptor globals that a run-time write or another definition could change.
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/mutable-descriptor.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=MUTABLE
; MUTABLE: error: offload-host: launch descriptor @"__offload_launch.gamma" is not a constant: a write at run time would not change what was compiled in
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/weak-descriptor.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=WEAK-DESCRIPTOR
; WEAK-DESCRIPTOR: error: offload-host: launch descriptor @"__offload_launch.gamma" has weak linkage: another definition may replace it at link time
; Descriptor words that are no integers, named by what they are and where:
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/ptrtoint-descriptor.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=PTRTOINT
; PTRTOINT: error: offload-host: launch descriptor @"__offload_launch.gamma" holds `i64 ptrtoint (ptr @x to i64)` at byte 56, which is not a constant integer
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/metadata-operand.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=MD-OPERAND
; MD-OPERAND: error: offload-host: launch of 'gamma' in function 'f': !offload.launch operand 3 is not a constant integer
; An existing "openmp" module flag: kept when it links with the pass's
; Max 51 (behavior Max, any version), an error otherwise.
; RUN: %opt -passes='offload-host<image=%t/dev.so>' -S %t/flag-max.ll | %FileCheck %s --check-prefix=FLAG-MAX
; FLAG-MAX: !{i32 7, !"openmp", i32 50}
; FLAG-MAX-NOT: !"openmp"
; RUN: %no-output-file %t.out not %opt -passes='offload-host<image=%t/dev.so>' %t/flag-error.ll -o %t.out 2>&1 | %FileCheck %s --check-prefix=FLAG-ERROR
; FLAG-ERROR: error: offload-host: the module flag "openmp" has behavior 1 and value 45; offload-host adds !{i32 7, !"openmp", i32 51} (Max), which that flag would not link with

;--- indirect.ll
target triple = "x86_64-unknown-linux-gnu"
define void @f(ptr %fn) {
  call void %fn(), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0}

;--- address-taken.ll
target triple = "x86_64-unknown-linux-gnu"
@table = global ptr @beta
declare void @beta()
define void @f() {
  call void @beta()
  ret void
}

;--- extern-weak.ll
target triple = "x86_64-unknown-linux-gnu"
declare extern_weak void @beta()
define void @f() {
  call void @beta()
  ret void
}

;--- data-addrspace.ll
target datalayout = "p3:32:32"
target triple = "x86_64-unknown-linux-gnu"
declare void @__offload_data_begin(ptr addrspace(3), i64, i64)
define void @f(ptr addrspace(3) %p) {
  call void @__offload_data_begin(ptr addrspace(3) %p, i64 4, i64 3)
  ret void
}

;--- mutable-descriptor.ll
target triple = "x86_64-unknown-linux-gnu"
@"__offload_launch.gamma" = global [9 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0]
declare void @gamma(i64)
define void @f() {
  call void @gamma(i64 1)
  ret void
}

;--- weak-descriptor.ll
target triple = "x86_64-unknown-linux-gnu"
@"__offload_launch.gamma" = weak constant [9 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0]
declare void @gamma(i64)
define void @f() {
  call void @gamma(i64 1)
  ret void
}

;--- ptrtoint-descriptor.ll
target datalayout = "e-i64:64"
target triple = "x86_64-unknown-linux-gnu"
@x = global i8 0
@"__offload_launch.gamma" = constant [9 x i64] [i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 ptrtoint (ptr @x to i64), i64 0]
declare void @gamma(i64)
define void @f() {
  call void @gamma(i64 1)
  ret void
}

;--- metadata-operand.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @gamma(i64)
define void @f() {
  call void @gamma(i64 1), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 0, i64 0, !"three", i64 0, i64 0, i64 0, i64 0, i64 0}

;--- flag-max.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @gamma(i64)
define void @f() {
  call void @gamma(i64 1)
  ret void
}
!llvm.module.flags = !{!0}
!0 = !{i32 7, !"openmp", i32 50}

;--- flag-error.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @gamma(i64)
define void @f() {
  call void @gamma(i64 1)
  ret void
}
!llvm.module.flags = !{!0}
!0 = !{i32 1, !"openmp", i32 45}

;--- dev.ll
target triple = "x86_64-unknown-linux-gnu"
define void @alpha(ptr %a) !offload.kernel !0 {
  ret void
}
define void @beta() !offload.kernel !0 {
  ret void
}
define void @gamma(i64 %x) !offload.kernel !0 {
  ret void
}
!0 = !{}

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

;--- unsized-described.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @alpha(ptr)
define void @f(ptr %p) {
  call void @alpha(ptr %p), !offload.launch !0
  ret void
}
!0 = !{i64 1, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 0, i64 1, i64 3, i64 0, i64 0}

;--- scalar-map.ll
target triple = "x86_64-unknown-linux-gnu"
declare void @gamma(i64)
define void @f() {
  call void @gamma(i64 7), !offload.launch !0
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

