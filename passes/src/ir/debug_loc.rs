//! Source locations of instructions from their `!dbg` attachments, with the
//! chain of frames inlining left (`inlinedAt`), innermost first.

use llvm_sys::debuginfo as di;

use super::handles::{Metadata, Value};
use super::naming::display_symbol;

/// One frame of an instruction's location.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// The file as the compile unit names it (often relative to the crate).
    pub file: String,
    /// The file's directory (the crate's, for a relative `file`).
    pub directory: String,
    pub line: u32,
    pub column: u32,
    /// The enclosing function, demangled (empty when unknown).
    pub function: String,
}

impl std::fmt::Display for Frame {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// The frames of `inst`'s location, innermost first; empty without `!dbg`.
pub fn frames(inst: Value<'_>) -> Vec<Frame> {
    let mut out = Vec::new();
    // SAFETY: LLVMInstructionGetDebugLoc takes an instruction (checked) and
    // returns null or its DILocation; the DILocation accessors take one.
    unsafe {
        if inst.opcode().is_none() {
            return out;
        }
        let mut at = Metadata::from_raw_opt(di::LLVMInstructionGetDebugLoc(inst.as_raw()));
        while let Some(loc) = at {
            if out.len() > 256 {
                break;
            }
            let raw = loc.as_raw();
            let scope = di::LLVMDILocationGetScope(raw);
            let (file, directory) = scope_file(scope);
            out.push(Frame {
                file,
                directory,
                line: di::LLVMDILocationGetLine(raw),
                column: di::LLVMDILocationGetColumn(raw),
                function: subprogram_name(scope),
            });
            at = Metadata::from_raw_opt(di::LLVMDILocationGetInlinedAt(raw));
        }
    }
    out
}

/// The file name and directory of a debug scope ("" when it has none).
///
/// # Safety
/// `scope` is null or a live DIScope.
unsafe fn scope_file(scope: llvm_sys::prelude::LLVMMetadataRef) -> (String, String) {
    if scope.is_null() {
        return (String::new(), String::new());
    }
    // SAFETY: a live scope; the file is null or a DIFile whose name bytes
    // live with the context.
    unsafe {
        let file = di::LLVMDIScopeGetFile(scope);
        if file.is_null() {
            return (String::new(), String::new());
        }
        let text = |raw: *const std::ffi::c_char, len: u32| {
            if raw.is_null() {
                return String::new();
            }
            String::from_utf8_lossy(std::slice::from_raw_parts(raw.cast::<u8>(), len as usize))
                .into_owned()
        };
        let mut len = 0;
        let name = text(di::LLVMDIFileGetFilename(file, &mut len), len);
        let mut dir_len = 0;
        let dir = text(di::LLVMDIFileGetDirectory(file, &mut dir_len), dir_len);
        (name, dir)
    }
}

/// The demangled name of the subprogram of a debug scope ("" when none).
fn subprogram_name(scope: llvm_sys::prelude::LLVMMetadataRef) -> String {
    let mut len = 0usize;
    // SAFETY: the helper checks the node's class; a non-null result points
    // at `len` bytes that live with the context.
    let name = unsafe {
        let raw = super::ffi::offload_di_scope_subprogram_name(scope, &mut len);
        if raw.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(raw.cast::<u8>(), len)).into_owned()
    };
    display_symbol(&name)
}

/// Removes all debug info from `module` (LLVM's `StripDebugInfo`); whether
/// there was any.
pub fn strip_module_debug_info(module: &inkwell::module::Module<'_>) -> bool {
    // SAFETY: a live module.
    unsafe { di::LLVMStripModuleDebugInfo(module.as_mut_ptr()) != 0 }
}
