//! What makes a function a GPU kernel, and the AMDGPU address spaces the
//! passes use.

use inkwell::module::Module;
use inkwell::values::FunctionValue;

/// `CallingConv::AMDGPU_KERNEL`.
pub const AMDGPU_KERNEL_CC: u32 = 91;
/// `CallingConv::PTX_Kernel`.
pub const PTX_KERNEL_CC: u32 = 71;
/// The AMDGPU constant address space, where kernel arguments live.
pub const AMDGPU_CONSTANT_AS: u32 = 4;
/// The AMDGPU private (stack) address space.
pub const AMDGPU_PRIVATE_AS: u32 = 5;

/// Defined `amdgpu_kernel` functions of `module`, in module order.
pub fn amdgpu_kernels<'ctx>(module: &Module<'ctx>) -> Vec<FunctionValue<'ctx>> {
    module
        .get_functions()
        .filter(|f| f.get_call_conventions() == AMDGPU_KERNEL_CC && f.count_basic_blocks() > 0)
        .collect()
}

/// True for the GPU kernel calling conventions (`amdgpu_kernel`, `ptx_kernel`).
pub fn is_gpu_kernel(function: FunctionValue<'_>) -> bool {
    matches!(
        function.get_call_conventions(),
        AMDGPU_KERNEL_CC | PTX_KERNEL_CC
    )
}

/// Logs (debug) the `amdgpu_kernel` declarations a pass skips: no body, so
/// nothing to rewrite.
pub fn log_skipped_declarations(module: &Module<'_>, pass: &str) {
    if !log::log_enabled!(log::Level::Debug) {
        return;
    }
    for function in module.get_functions() {
        if function.get_call_conventions() == AMDGPU_KERNEL_CC && function.count_basic_blocks() == 0
        {
            log::debug!(
                "{pass}: skipping '{}': a declaration, no body to rewrite",
                super::naming::name_of(function)
            );
        }
    }
}

/// A `GlobalAlias` whose aliasee is a GPU kernel, as MergeFunctions leaves
/// two identical kernels: the alias has no kernel descriptor of its own.
pub struct KernelAlias<'ctx> {
    /// The alias's symbol (mangled).
    pub symbol: String,
    pub aliasee: FunctionValue<'ctx>,
}

/// Every alias in `module` that names a GPU kernel, in module order.
pub fn kernel_aliases<'ctx>(module: &Module<'ctx>) -> Vec<KernelAlias<'ctx>> {
    use llvm_sys::core as llvm;
    let mut found = Vec::new();
    // SAFETY: `module` is a live module; the alias list is only read.
    let mut alias = unsafe { llvm::LLVMGetFirstGlobalAlias(module.as_mut_ptr()) };
    while !alias.is_null() {
        // SAFETY: `alias` is a live GlobalAlias of `module`; its aliasee is a
        // constant of the same module (or null for a malformed one).
        let aliasee = unsafe { llvm::LLVMAliasGetAliasee(alias) };
        // SAFETY: LLVMIsAFunction accepts any value and returns null unless
        // it is a Function; a non-null result is a function of `module`, so
        // it lives as long as `'ctx`.
        let function = unsafe {
            (!aliasee.is_null())
                .then(|| llvm::LLVMIsAFunction(aliasee))
                .filter(|f| !f.is_null())
                .and_then(|f| FunctionValue::new(f))
        };
        if let Some(aliasee) = function.filter(|f| is_gpu_kernel(*f)) {
            let mut len = 0;
            // SAFETY: LLVMGetValueName2 returns a pointer to `len` bytes owned
            // by the alias, copied out before anything changes the module.
            let symbol = unsafe {
                let name = llvm::LLVMGetValueName2(alias, &mut len);
                String::from_utf8_lossy(std::slice::from_raw_parts(name.cast::<u8>(), len))
                    .into_owned()
            };
            found.push(KernelAlias { symbol, aliasee });
        }
        // SAFETY: `alias` is a live alias of `module`.
        alias = unsafe { llvm::LLVMGetNextGlobalAlias(alias) };
    }
    found
}
