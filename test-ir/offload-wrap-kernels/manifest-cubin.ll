; The kernel manifest in an NVPTX cubin: PTX has no sections, so the manifest
; is a `.visible .global` byte array, which ptxas keeps as the symbol
; __offload_manifest_<K> in .nv.global.init; the reader takes its bytes.
; REQUIRES: ptxas
; RUN: rm -rf %t && mkdir -p %t
; RUN: %opt -passes=offload-wrap-kernels %s -o %t/k.bc
; RUN: %llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 %t/k.bc -o %t/k.ptx
; RUN: %FileCheck %s --check-prefix=PTX < %t/k.ptx
; RUN: %ptxas -arch=sm_90 %t/k.ptx -o %t/k.cubin
; RUN: %read-manifest %t/k.cubin | %FileCheck %s

; PTX: .visible .global .align 4 .b8 __offload_manifest_kn[96] = {15, 0, 0, 0,

; CHECK:      kernel kn: 3 parameters, 8-byte slots after 1 leading slot (dyn_ptr)
; CHECK-NEXT:   slot 1: param 0 ptr addrspace(1) -> pointer
; CHECK-NEXT:   slot 2: param 1 i64 -> value (zero-extended to 64 bits)
; CHECK-NEXT:   slot 3: param 2 double -> value (zero-extended to 64 bits)
; CHECK-NEXT: kernel kn2: 1 parameters, 8-byte slots after 1 leading slot (dyn_ptr)
; CHECK-NEXT:   slot 1: param 0 ptr -> pointer

target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @kn(ptr addrspace(1) %a, i64 %n, double %d) {
  store double %d, ptr addrspace(1) %a
  ret void
}

define ptx_kernel void @kn2(ptr %a) {
  ret void
}
