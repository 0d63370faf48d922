; An LLVM 22 bug the conformance run met (not the plugin's): rustc 1.95 puts
; range(...) on sub-dword kernel parameters (enum tags: an i8 for a
; #[repr(u8)] enum, or the tag half of a split enum with fields);
; amdgpu-lower-kernel-arguments loads such an argument as an i32 and copies
; the i8 range onto that load as !range, which the verifier rejects. llc
; runs the pass and the verifier even at -O0, so llc-22 fails on rustc's
; own IR, with or without the plugin; rustc itself does not verify and
; carries the bad !range into code generation. abirun.py drops these
; attributes before llc (prepare_for_lowering). The plugin could drop them
; from the kernels it rewrites. This test notices when LLVM fixes it.
;
; RUN: not --crash %llc -O0 -mtriple=amdgcn-amd-amdhsa -mcpu=gfx90a %s -o /dev/null 2>&1 | %FileCheck %s
; CHECK: Range types must match instruction type!
; CHECK-NEXT: load i32, ptr addrspace(4) %t.kernarg.offset.align.down{{.*}}!range

define amdgpu_kernel void @k(i8 noundef range(i8 1, 116) %t, ptr addrspace(1) %out) {
  %c = icmp eq i8 %t, 3
  %z = zext i1 %c to i32
  store i32 %z, ptr addrspace(1) %out
  ret void
}
