//! In-process pass runs for unit tests: parse IR text, run a pass, print the
//! module. Test builds alone link libLLVM-22 (the plugin takes LLVM from the
//! process that loads it).

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;

#[link(name = "LLVM-22")]
unsafe extern "C" {}

/// Parses `ir` into a module of `context`, panicking with LLVM's message.
pub fn parse<'ctx>(context: &'ctx Context, ir: &str) -> Module<'ctx> {
    let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "test.ll");
    context
        .create_module_from_ir(buffer)
        .unwrap_or_else(|e| panic!("test IR does not parse: {}", e.to_string()))
}

/// Runs `run` on `ir`, verifies the result and returns (changed, printed module).
pub fn run_pass(
    run: fn(&Module<'_>, &str) -> Result<bool, String>,
    params: &str,
    ir: &str,
) -> Result<(bool, String), String> {
    let context = Context::create();
    let module = parse(&context, ir);
    let changed = run(&module, params)?;
    if let Err(e) = module.verify() {
        panic!(
            "module does not verify after the pass: {}\n{}",
            e.to_string(),
            module.print_to_string().to_string()
        );
    }
    Ok((changed, module.print_to_string().to_string()))
}
