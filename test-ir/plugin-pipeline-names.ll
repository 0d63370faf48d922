; The plugin registers every pass under its pipeline name, with parameters
; where it has them; -print-pipeline-passes prints names that parse again,
; and the printed pipeline runs to the same result.
; RUN: %opt -passes='amdgpu-kernel-abi,byref-callee-copy,offload-wrap-kernels<kernels=k>,offload-host<image=/nonexistent.so;teams=4>' -print-pipeline-passes -disable-output %s | %FileCheck %s
; CHECK: amdgpu-kernel-abi,byref-callee-copy,offload-wrap-kernels<kernels=k>,offload-host<image=/nonexistent.so;teams=4>,verify
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy -print-pipeline-passes -disable-output %s > %t.pipeline
; RUN: xargs -I PIPELINE %opt -passes=PIPELINE -S %s -o %t.reparsed.ll < %t.pipeline
; RUN: %opt -passes=amdgpu-kernel-abi,byref-callee-copy -S %s -o %t.direct.ll
; RUN: diff %t.reparsed.ll %t.direct.ll
; Pass instrumentation knows the passes by their C++ class names too:
; RUN: %opt -passes=amdgpu-kernel-abi -debug-pass-manager -disable-output %s 2>&1 | %FileCheck --check-prefix=PM %s
; PM: Running pass: AMDGPUKernelABIPass on [module]
; Unknown names are refused when the pipeline is parsed (LLVM's message; bad
; parameters are too, by the pass: bad-input/pass-params.ll):
; RUN: not %opt -passes=amdgpu-kernel-ab -disable-output %s 2>&1 | %FileCheck --check-prefix=UNKNOWN %s
; UNKNOWN: unknown pass name 'amdgpu-kernel-ab'
define amdgpu_kernel void @k({ i32, i32 } %x) {
  ret void
}
