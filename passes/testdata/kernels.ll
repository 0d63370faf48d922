; Source of kernels.sm_90.cubin, the cubin fixture of the offload-host image
; unit tests (so they need no ptxas). Regenerate with (from this directory,
; after `cargo build --release` and scripts/setup.sh's ptxas 12.9.86):
;   opt-22 -load-pass-plugin=../../target/release/liboffload_passes.so -passes=offload-wrap-kernels kernels.ll -o kernels.bc
;   llc-22 -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 -mattr=+ptx80 kernels.bc -o kernels.ptx
;   ../../tools/bin/ptxas -arch=sm_90 kernels.ptx -o kernels.sm_90.cubin
; Two kernels (`.entry`: STT_FUNC with st_other 0x10) with their manifests
; (`__offload_manifest_<K>` in .nv.global.init), a device function ptxas
; keeps as `$scale$helper` (STT_FUNC without the entry bit), and a constant
; global.
target triple = "nvptx64-nvidia-cuda"

@table = addrspace(1) constant [4 x i8] c"data"

define ptx_kernel void @scale(ptr addrspace(1) %p, i64 %n) {
  call void @helper(ptr addrspace(1) %p, i64 %n)
  ret void
}

define ptx_kernel void @zero(ptr %p) {
  store i32 0, ptr %p
  ret void
}

define void @helper(ptr addrspace(1) %p, i64 %n) noinline {
  %v = trunc i64 %n to i32
  store volatile i32 %v, ptr addrspace(1) %p
  ret void
}
