"""The generator-based fuzz campaign (fuzz/campaign.py is its command line).

Modules, by concept:
  irtext        IR text building blocks: headers, the type model, Body
  tools         running the LLVM tools, timeouts
  oracle        one case: run the pipeline, judge the result (the error prefix lives here)
  families      generator families and their pipelines
  runner        the process pool, counts, failure classes, the summary line
  gen_device    stress family: llvm-stress bodies as AMDGPU / x86 kernels
  gen_host      stress family: host modules for offload-host
  host_kernels  host launch arguments, kernel declarations, launch descriptors
  host_bad      the table of planted host-side refusals
  gen_debuginfo debuginfo family: DISubprograms describing parameters, true or lying
  gen_special   special family: naked, musttail, optnone, ... kernels
  gen_rustc     rustc family: random #[repr(C)] kernel crates through rustc 1.95
"""
