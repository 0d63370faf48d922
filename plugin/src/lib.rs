//! `liboffload_passes.so`: an LLVM 22 new-pass-manager plugin (plugin API
//! version 2), our LLVM 22 counterpart of the `llvm-plugin` crate.
//!
//! The entry point `llvmGetPassPluginInfo` is defined here in Rust (defined in
//! the C++ object, rustc's version script would drop it). `shim.cpp` registers
//! with the `PassBuilder` one pipeline name per entry of
//! [`offload_passes_core::PASSES`], which it learns through the
//! `offload_passes_pass_*` functions below; parsing `name<params>` creates
//! the Rust pass value once ([`offload_passes_parse`]), and each run comes
//! back here through [`offload_passes_run`], which wraps the borrowed module
//! for inkwell and runs it.
//!
//! No panic crosses into C++: every entry point runs under `catch_unwind`,
//! which needs `panic = "unwind"` (the workspace's release profile says so
//! on purpose; `abort` would take the host compiler down instead).

use std::ffi::{c_char, c_int, c_void};
use std::mem::ManuallyDrop;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::Once;

use llvm_sys::prelude::LLVMModuleRef;
use offload_passes_core::inkwell::module::Module;
use offload_passes_core::pass::DynPass;
use offload_passes_core::{Diagnostics, PASSES};

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
    /// In shim.cpp: stores a message in the `std::string` behind `out`.
    fn offload_passes_set_string(out: *mut c_void, msg: *const c_char, len: usize);
    /// In shim.cpp: adds a warning to the run's diagnostics sink.
    fn offload_passes_add_warning(sink: *mut c_void, msg: *const c_char, len: usize);
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
unsafe fn bytes_from_raw<'a>(ptr: *const c_char, len: usize) -> &'a [u8] {
    if len == 0 {
        return &[];
    }
    // SAFETY: the caller guarantees `ptr[..len]` is readable.
    unsafe { std::slice::from_raw_parts(ptr.cast::<u8>(), len) }
}

/// Hands `message` to C++ (`out` is a `std::string*`).
fn set_string(out: *mut c_void, message: &str) {
    // SAFETY: `out` is the `std::string*` shim.cpp passed in; the bytes are
    // copied before this returns.
    unsafe { offload_passes_set_string(out, message.as_ptr().cast(), message.len()) }
}

/// Turns a panic payload into text for the error message.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    payload
        .downcast_ref::<&str>()
        .map(|s| (*s).to_owned())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown panic".to_owned())
}

/// Runs `f`; an `Err` or a panic becomes a message for C++ (`error` is a
/// `std::string*`) and `failed`.
fn guarded<T>(
    what: &str,
    error: *mut c_void,
    failed: T,
    f: impl FnOnce() -> Result<T, String>,
) -> T {
    match catch_unwind(AssertUnwindSafe(f)) {
        Ok(Ok(value)) => value,
        Ok(Err(message)) => {
            set_string(error, &message);
            failed
        }
        Err(payload) => {
            set_string(
                error,
                &format!(
                    "{what}: internal error (Rust panic): {}",
                    panic_message(payload.as_ref())
                ),
            );
            failed
        }
    }
}

/// The number of passes shim.cpp registers.
#[unsafe(no_mangle)]
pub extern "C" fn offload_passes_pass_count() -> usize {
    PASSES.len()
}

/// Pass `index`'s pipeline name and class name (static UTF-8, not
/// NUL-terminated; lengths through the pointers). Null past the end.
///
/// # Safety
/// `name_len` and `class_len` point at writable `usize`s.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn offload_passes_pass_names(
    index: usize,
    name_len: *mut usize,
    class: *mut *const c_char,
    class_len: *mut usize,
) -> *const c_char {
    let Some(info) = PASSES.get(index) else {
        return std::ptr::null();
    };
    // SAFETY: the caller passes writable pointers.
    unsafe {
        *name_len = info.name.len();
        *class = info.class_name.as_ptr().cast();
        *class_len = info.class_name.len();
    }
    info.name.as_ptr().cast()
}

/// Parses pass `index`'s parameter text (`name<params>`, without the
/// brackets) into a pass value, owned by C++ until [`offload_passes_drop`].
/// Null on error, with the message through `error`.
///
/// # Safety
/// `params` points at `params_len` bytes; `error` is a `std::string*`.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn offload_passes_parse(
    index: usize,
    params: *const c_char,
    params_len: usize,
    error: *mut c_void,
) -> *mut c_void {
    // SAFETY: see the function's contract.
    let params = unsafe { bytes_from_raw(params, params_len) };
    let Some(info) = PASSES.get(index) else {
        return std::ptr::null_mut();
    };
    guarded(info.name, error, std::ptr::null_mut(), || {
        let pass: Box<dyn DynPass> = info.parse(params)?;
        Ok(Box::into_raw(Box::new(pass)).cast::<c_void>())
    })
}

/// Frees a pass from [`offload_passes_parse`].
///
/// # Safety
/// `pass` came from [`offload_passes_parse`] and is not used afterwards.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn offload_passes_drop(pass: *mut c_void) {
    if pass.is_null() {
        return;
    }
    // SAFETY: `pass` is the Box<Box<dyn DynPass>> made by offload_passes_parse.
    let pass = unsafe { Box::from_raw(pass.cast::<Box<dyn DynPass>>()) };
    // A panic in a destructor must not unwind into C++ either.
    let _ = catch_unwind(AssertUnwindSafe(move || drop(pass)));
}

/// Runs a parsed pass on `module`. Returns 1 if the module changed, 0 if
/// not, -1 on error (message through `error`); warnings go to `sink`.
///
/// # Safety
/// `pass` came from [`offload_passes_parse`]; `module` is a live module owned
/// by the caller; `error` is a `std::string*`; `sink` is shim.cpp's warning
/// list.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn offload_passes_run(
    pass: *const c_void,
    module: LLVMModuleRef,
    error: *mut c_void,
    sink: *mut c_void,
) -> c_int {
    // SAFETY: `pass` points at the Box<dyn DynPass> made by offload_passes_parse.
    let pass = unsafe { &*pass.cast::<Box<dyn DynPass>>() };
    guarded(pass.name(), error, -1, || {
        // SAFETY: the module stays owned by LLVM; ManuallyDrop keeps inkwell
        // from disposing it.
        let module = ManuallyDrop::new(unsafe { Module::new(module) });
        let mut diagnostics = Diagnostics::default();
        let result = pass.run(&module, &mut diagnostics);
        for warning in diagnostics.warnings() {
            // SAFETY: `sink` is shim.cpp's warning list; the text is copied.
            unsafe { offload_passes_add_warning(sink, warning.as_ptr().cast(), warning.len()) };
        }
        result.map(c_int::from)
    })
}
