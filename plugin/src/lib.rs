//! `liboffload_passes.so`: an LLVM 22 new-pass-manager plugin (plugin API
//! version 2), our LLVM 22 counterpart of the `llvm-plugin` crate.
//!
//! The entry point `llvmGetPassPluginInfo` is defined here in Rust (defined in
//! the C++ object, rustc's version script would drop it). Registration with the
//! `PassBuilder` happens in `shim.cpp`; each pass run comes back here through
//! [`offload_passes_run`], which wraps the borrowed module for inkwell, runs the
//! pass from `offload_passes_core`, and never lets a panic unwind into C++.

use std::ffi::{c_char, c_int, c_void};
use std::mem::ManuallyDrop;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use llvm_sys::prelude::LLVMModuleRef;
use offload_passes_core::inkwell::module::Module;
use offload_passes_core::registry;

/// `llvm::PassPluginLibraryInfo` as LLVM 22 lays it out (`llvm/Plugins/PassPlugin.h`).
#[repr(C)]
pub struct PassPluginLibraryInfo {
    api_version: u32,
    plugin_name: *const c_char,
    plugin_version: *const c_char,
    register_pass_builder_callbacks: unsafe extern "C" fn(pass_builder: *mut c_void),
    /// LLVM 22's pre-codegen callback; this plugin has none.
    pre_codegen_callback: *const c_void,
}

/// `LLVM_PLUGIN_API_VERSION` in LLVM 22.
const LLVM_PLUGIN_API_VERSION: u32 = 2;

unsafe extern "C" {
    /// In shim.cpp: registers every pass with the `PassBuilder`.
    fn offload_passes_register_callbacks(pass_builder: *mut c_void);
    /// In shim.cpp: stores an error message in the `std::string` behind `error`.
    fn offload_passes_set_error(error: *mut c_void, msg: *const c_char, len: usize);
}

/// The entry point `opt -load-pass-plugin` and `rustc -Zllvm-plugins` look up.
#[unsafe(no_mangle)]
pub extern "C" fn llvmGetPassPluginInfo() -> PassPluginLibraryInfo {
    init_logging();
    PassPluginLibraryInfo {
        api_version: LLVM_PLUGIN_API_VERSION,
        plugin_name: c"offload-passes".as_ptr(),
        plugin_version: concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast(),
        register_pass_builder_callbacks: offload_passes_register_callbacks,
        pre_codegen_callback: std::ptr::null(),
    }
}

/// `RUST_LOG=offload_passes=debug` logs every rewrite to stderr: log targets
/// are module paths (`offload_passes_core::amdgpu_kernel_abi`, ...) and
/// env_logger selects targets by prefix. Safe to call from several threads
/// (rustc loads the plugin once per codegen unit thread).
fn init_logging() {
    static INIT: Once = Once::new();
    INIT.call_once(|| {
        // Another logger in the process (none in opt or rustc) wins; ignore.
        let _ = env_logger::Builder::from_env(env_logger::Env::default())
            .format_timestamp(None)
            .try_init();
    });
}

/// # Safety
/// `ptr` must point at `len` readable bytes (or `len` must be 0).
unsafe fn str_from_raw<'a>(ptr: *const c_char, len: usize) -> &'a str {
    if len == 0 {
        return "";
    }
    // SAFETY: the caller guarantees `ptr[..len]` is readable; the text comes
    // from a pipeline string, which LLVM holds as UTF-8-agnostic bytes.
    let bytes = unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) };
    std::str::from_utf8(bytes).unwrap_or("<non-UTF-8 text>")
}

fn set_error(error: *mut c_void, message: &str) {
    // SAFETY: `error` is the `std::string*` shim.cpp passed in.
    unsafe { offload_passes_set_error(error, message.as_ptr().cast(), message.len()) }
}

/// Turns a panic payload into text for the error message.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// Runs `f`, mapping `Err` and panics to an error for C++ (return -1).
fn guarded(pass: &str, error: *mut c_void, f: impl FnOnce() -> Result<c_int, String>) -> c_int {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(code)) => code,
        Ok(Err(message)) => {
            set_error(error, &message);
            -1
        }
        Err(payload) => {
            let message = format!(
                "{pass}: internal error (Rust panic): {}",
                panic_message(payload.as_ref())
            );
            set_error(error, &message);
            -1
        }
    }
}

/// Called by shim.cpp for each pass run. Returns 1 if the module changed,
/// 0 if not, -1 on error (message stored through `error`).
///
/// # Safety
/// `module` is a live module owned by the caller; the name and params point
/// at the given number of bytes; `error` is a `std::string*`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn offload_passes_run(
    name: *const c_char,
    name_len: usize,
    params: *const c_char,
    params_len: usize,
    module: LLVMModuleRef,
    error: *mut c_void,
) -> c_int {
    // SAFETY: see the function's contract.
    let (name, params) = unsafe {
        (
            str_from_raw(name, name_len),
            str_from_raw(params, params_len),
        )
    };
    guarded(name, error, || {
        // SAFETY: the module stays owned by LLVM; ManuallyDrop keeps inkwell
        // from disposing it.
        let module = ManuallyDrop::new(unsafe { Module::new(module) });
        registry::run_pass(name, params, &module).map(c_int::from)
    })
}

/// Called by shim.cpp when a pipeline names a pass with parameters, so bad
/// parameters fail at parse time. Returns 0 if valid, -1 otherwise.
///
/// # Safety
/// As for [`offload_passes_run`].
#[unsafe(no_mangle)]
pub unsafe extern "C" fn offload_passes_check_params(
    name: *const c_char,
    name_len: usize,
    params: *const c_char,
    params_len: usize,
    error: *mut c_void,
) -> c_int {
    // SAFETY: see the function's contract.
    let (name, params) = unsafe {
        (
            str_from_raw(name, name_len),
            str_from_raw(params, params_len),
        )
    };
    guarded(name, error, || {
        registry::check_params(name, params).map(|()| 0)
    })
}
