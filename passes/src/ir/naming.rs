//! How messages and logs name functions and parameters: what the user
//! wrote, so a Rust symbol is shown demangled (`my_crate::kernels::scale`,
//! not `_ZN9my_crate7kernels5scale17h…E`).

use inkwell::values::FunctionValue;

use super::handles::Value;

/// A symbol as the user wrote it: demangled when it is a Rust symbol
/// (legacy or v0 mangling, without the hash) or a C++ one (Itanium, with
/// its parameter types), else unchanged.
pub fn display_symbol(symbol: &str) -> String {
    match rustc_demangle::try_demangle(symbol) {
        Ok(demangled) => format!("{demangled:#}"),
        Err(_) if symbol.starts_with("_Z") => {
            itanium_demangle(symbol).unwrap_or_else(|| symbol.to_owned())
        }
        Err(_) => symbol.to_owned(),
    }
}

/// LLVM's C++ demangler on `symbol` (`None` when it is not a C++ name).
fn itanium_demangle(symbol: &str) -> Option<String> {
    // SAFETY: the pointer and length describe `symbol`'s bytes, which the
    // demangler only reads; the result is null or a NUL-terminated string
    // from malloc, copied out and freed by LLVMDisposeMessage (free) once.
    unsafe {
        let raw = super::ffi::offload_ir_itanium_demangle(symbol.as_ptr().cast(), symbol.len());
        if raw.is_null() {
            return None;
        }
        let text = std::ffi::CStr::from_ptr(raw).to_string_lossy().into_owned();
        llvm_sys::core::LLVMDisposeMessage(raw);
        Some(text)
    }
}

/// The function's symbol name, as LLVM has it.
pub fn symbol(function: FunctionValue<'_>) -> String {
    Value::from(function).name()
}

/// The function's name for messages: demangled for Rust symbols.
pub fn name_of(function: FunctionValue<'_>) -> String {
    display_symbol(&symbol(function))
}

/// The name of parameter `index` (empty when unnamed or out of range), read
/// without inkwell, which panics on parameters of types it cannot wrap.
pub fn param_name(function: FunctionValue<'_>, index: u32) -> String {
    param(function, index).map(Value::name).unwrap_or_default()
}

/// Parameter `index` of a function, whatever its type.
pub fn param<'ctx>(function: FunctionValue<'ctx>, index: u32) -> Option<Value<'ctx>> {
    let f = Value::from(function).as_raw();
    // SAFETY: the index is checked against the live function's count.
    unsafe {
        if index >= llvm_sys::core::LLVMCountParams(f) {
            return None;
        }
        Value::from_raw_opt(llvm_sys::core::LLVMGetParam(f, index))
    }
}

/// A kernel parameter, named the way every message and log line names one:
/// `kernel 'k', parameter #2 (%x)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParamRef {
    pub kernel: String,
    pub index: u32,
    /// Empty when the parameter is unnamed.
    pub name: String,
}

impl ParamRef {
    pub fn of(kernel: FunctionValue<'_>, index: u32) -> ParamRef {
        ParamRef {
            kernel: name_of(kernel),
            index,
            name: param_name(kernel, index),
        }
    }
}

impl std::fmt::Display for ParamRef {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "kernel '{}', parameter #{}", self.kernel, self.index)?;
        if !self.name.is_empty() {
            write!(f, " (%{})", self.name)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::display_symbol;

    #[test]
    fn rust_symbols_are_demangled_without_hash() {
        assert_eq!(
            display_symbol("_ZN6device5scale17h0123456789abcdefE"),
            "device::scale"
        );
        assert_eq!(display_symbol("_RNvCs1234_6device5scale"), "device::scale");
        assert_eq!(display_symbol("scale"), "scale");
        assert_eq!(display_symbol("_Z5scalePf"), "scale(float*)");
        assert_eq!(display_symbol("_Znot_mangled"), "_Znot_mangled");
    }
}
