//! Arbitrary bytes as LLVM IR: what parses and verifies goes through every
//! device pipeline (as opt would run it), and must come out verified, with no
//! panic, and unchanged by a second run. A clean pass error (`Err`) is fine:
//! the input may be unsupported; a panic or "internal error" is not.

#![no_main]

use libfuzzer_sys::fuzz_target;
use offload_passes_core::inkwell::context::Context;
use offload_passes_core::inkwell::memory_buffer::MemoryBuffer;
use offload_passes_core::inkwell::module::Module;
use offload_passes_core::{Diagnostics, pass};

// The passes crate takes LLVM from its host process; this binary is one.
#[link(name = "LLVM-22")]
unsafe extern "C" {}

const PIPELINES: &[&[&str]] = &[
    &["amdgpu-kernel-abi"],
    &["byref-callee-copy"],
    &["amdgpu-kernel-abi", "byref-callee-copy"],
    &["offload-wrap-kernels"],
];

/// Runs `pipeline` on `module`; `Ok(changed)` or the first pass error.
fn run(pipeline: &[&str], module: &Module<'_>) -> Result<bool, String> {
    let mut changed = false;
    for name in pipeline {
        let info = pass::find(name).expect("a registered pass");
        let pass = info.parse(b"")?;
        changed |= pass.run(module, &mut Diagnostics::default())?;
    }
    Ok(changed)
}

fuzz_target!(|data: &[u8]| {
    let context = Context::create();
    let buffer = MemoryBuffer::create_from_memory_range_copy(data, "fuzz.ll");
    let Ok(module) = context.create_module_from_ir(buffer) else {
        return;
    };
    // opt and rustc verify before the passes run; so do we.
    if module.verify().is_err() {
        return;
    }
    for pipeline in PIPELINES {
        let name = pipeline.join(",");
        let copy = module.clone();
        match run(pipeline, &copy) {
            Ok(_) => {}
            Err(e) => {
                assert!(!e.contains("internal error"), "{name}: {e}");
                continue;
            }
        }
        if let Err(e) = copy.verify() {
            panic!(
                "{name}: output does not verify: {}\n{}",
                e.to_string(),
                copy.print_to_string().to_string()
            );
        }
        let once = copy.print_to_string().to_string();
        let again = run(pipeline, &copy).unwrap_or_else(|e| panic!("{name}: second run: {e}"));
        let twice = copy.print_to_string().to_string();
        assert!(
            !again && once == twice,
            "{name}: second run changed the module:\n{once}\n----\n{twice}"
        );
    }
});
