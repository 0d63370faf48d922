//! In-process pass runs for unit tests: parse IR text, run a pass, print the
//! module. Test builds alone link libLLVM-22 (the plugin takes LLVM from the
//! process that loads it).

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::module::Module;

use crate::{Diagnostics, ModulePass};

#[link(name = "LLVM-22")]
unsafe extern "C" {}

/// Parses `ir` into a module of `context`, panicking with LLVM's message.
pub fn parse<'ctx>(context: &'ctx Context, ir: &str) -> Module<'ctx> {
    let buffer = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "test.ll");
    context
        .create_module_from_ir(buffer)
        .unwrap_or_else(|e| panic!("test IR does not parse: {}", e.to_string()))
}

/// Parses pass `P` with `params`, runs it on `ir`, verifies the result and
/// returns (changed, printed module); an error leaves the module as parsed.
pub fn run_pass<P: ModulePass>(params: &str, ir: &str) -> Result<(bool, String), P::Error> {
    run_pass_with_warnings::<P>(params, ir).map(|(changed, out, _)| (changed, out))
}

/// As [`run_pass`], also returning the warnings the pass reported.
pub fn run_pass_with_warnings<P: ModulePass>(
    params: &str,
    ir: &str,
) -> Result<(bool, String, Vec<String>), P::Error> {
    let context = Context::create();
    let module = parse(&context, ir);
    let before = module.print_to_string().to_string();
    let pass = P::parse(params.as_bytes()).unwrap_or_else(|e| panic!("bad test parameters: {e}"));
    let mut diagnostics = Diagnostics::default();
    let result = pass.run(&module, &mut diagnostics);
    let after = module.print_to_string().to_string();
    let changed = match result {
        Ok(changed) => changed,
        Err(e) => {
            assert_eq!(before, after, "a failed run changed the module");
            return Err(e);
        }
    };
    assert_eq!(
        changed,
        before != after,
        "the pass's 'changed' is wrong:\n{after}"
    );
    if let Err(e) = module.verify() {
        panic!(
            "module does not verify after the pass: {}\n{after}",
            e.to_string()
        );
    }
    // The output must re-parse (`parse` panics otherwise): the verifier does
    // not check everything the parser does, e.g. `dereferenceable(0)`.
    parse(&context, &after);
    Ok((changed, after, diagnostics.warnings().to_vec()))
}

/// Compiles device IR `ir` for `triple` with llc-22 into a fresh directory
/// under `target/test-images/` and, if `shared`, links it with
/// `ld.lld-22 -shared`. Returns the path of the object or shared object.
pub fn build_image(triple: &str, ir: &str, shared: bool) -> String {
    use std::process::Command;
    static COUNTER: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let n = COUNTER.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../target/test-images")
        .join(format!("{}-{n}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let (ll, obj, so) = (dir.join("k.ll"), dir.join("k.o"), dir.join("k.so"));
    std::fs::write(&ll, ir).unwrap();
    let mut llc = Command::new("llc-22");
    llc.args(["-filetype=obj", "-relocation-model=pic", "-mtriple", triple]);
    if triple.starts_with("amdgcn") {
        llc.arg("-mcpu=gfx90a");
    }
    let status = llc
        .arg(&ll)
        .arg("-o")
        .arg(&obj)
        .status()
        .expect("llc-22 runs");
    assert!(status.success(), "llc-22 failed for {triple}");
    if !shared {
        return obj.to_string_lossy().into_owned();
    }
    let status = Command::new("ld.lld-22")
        .arg("-shared")
        .arg(&obj)
        .arg("-o")
        .arg(&so)
        .status()
        .expect("ld.lld-22 runs");
    assert!(status.success(), "ld.lld-22 failed for {triple}");
    so.to_string_lossy().into_owned()
}

/// Concatenated version-1 OffloadBinaries, one per image, laid out as
/// `llvm-offload-binary` writes them (header, entry, no strings, image).
pub fn offload_binary(images: &[&[u8]]) -> Vec<u8> {
    let mut out = Vec::new();
    for image in images {
        let start = out.len();
        let image_offset = 32 + 40u64;
        let size = image_offset + image.len() as u64;
        out.extend_from_slice(&[0x10, 0xFF, 0x10, 0xAD]);
        out.extend_from_slice(&1u32.to_le_bytes());
        out.extend_from_slice(&size.to_le_bytes());
        out.extend_from_slice(&32u64.to_le_bytes()); // entry offset
        out.extend_from_slice(&40u64.to_le_bytes()); // entry size
        out.extend_from_slice(&1u16.to_le_bytes()); // IMG_Object
        out.extend_from_slice(&1u16.to_le_bytes()); // OFK_OpenMP
        out.extend_from_slice(&0u32.to_le_bytes()); // flags
        out.extend_from_slice(&size.to_le_bytes()); // string offset (none)
        out.extend_from_slice(&0u64.to_le_bytes()); // no strings
        out.extend_from_slice(&image_offset.to_le_bytes());
        out.extend_from_slice(&(image.len() as u64).to_le_bytes());
        out.extend_from_slice(image);
        out.resize(start + (size as usize).next_multiple_of(8), 0);
    }
    out
}

/// Runs `offload-wrap-kernels` on device IR `ir` (natural signatures, kernels
/// marked) and builds the image with [`build_image`]: an image with kernel
/// manifests.
pub fn build_wrapped_image(triple: &str, ir: &str) -> String {
    let (_, wrapped) = run_pass::<crate::offload_wrap_kernels::OffloadWrapKernels>("", ir)
        .unwrap_or_else(|e| panic!("offload-wrap-kernels failed: {e}"));
    build_image(triple, &wrapped, true)
}
