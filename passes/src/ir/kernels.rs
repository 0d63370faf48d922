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

/// A `GlobalAlias` of a kernel, as MergeFunctions leaves two identical
/// kernels: the alias has no body (and on AMDGPU no kernel descriptor) of
/// its own.
pub struct KernelAlias<'ctx> {
    pub alias: super::Value<'ctx>,
    pub aliasee: FunctionValue<'ctx>,
}

/// Every alias in `module` of an `amdgpu_kernel`, in module order.
pub fn amdgpu_kernel_aliases<'ctx>(module: &Module<'ctx>) -> Vec<KernelAlias<'ctx>> {
    function_aliases(module)
        .into_iter()
        .filter(|found| found.aliasee.get_call_conventions() == AMDGPU_KERNEL_CC)
        .collect()
}

/// Every alias in `module` whose aliasee is a function, in module order (a
/// CPU kernel that MergeFunctions merged into an identical one is such an
/// alias; which of them are kernels the caller decides).
pub fn function_aliases<'ctx>(module: &Module<'ctx>) -> Vec<KernelAlias<'ctx>> {
    use llvm_sys::core as llvm;
    let mut found = Vec::new();
    // SAFETY: `module` is a live module; the alias list is only read.
    let mut alias = unsafe { llvm::LLVMGetFirstGlobalAlias(module.as_mut_ptr()) };
    while !alias.is_null() {
        // SAFETY: `alias` is a live GlobalAlias of `module`, its aliasee a
        // constant of the same module or null; FunctionValue::new takes
        // functions alone, which live as long as `'ctx`.
        let aliasee = unsafe { FunctionValue::new(llvm::LLVMAliasGetAliasee(alias)) };
        if let Some(aliasee) = aliasee {
            // SAFETY: a live alias of `module`.
            let alias = unsafe { super::Value::from_raw(alias) };
            found.push(KernelAlias { alias, aliasee });
        }
        // SAFETY: `alias` is a live alias of `module`.
        alias = unsafe { llvm::LLVMGetNextGlobalAlias(alias) };
    }
    found
}

/// Why [`KernelAlias::unmerge`] left an alias as it is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnmergeRefused {
    /// The aliasee has no body to copy.
    NoBody,
    /// The alias's function type is not its aliasee's (MergeFunctions
    /// takes `ptr` and `i64` for one type).
    SignatureDiffers,
    /// Something other than `@llvm.used`/`@llvm.compiler.used` uses the
    /// alias (a store of its address).
    OtherUses,
}

impl<'ctx> KernelAlias<'ctx> {
    /// Makes the alias a function of its own: a copy of the aliasee's body
    /// and `DISubprogram` (whose linkage name becomes the alias's symbol),
    /// with the alias's name, linkage, visibility, DLL storage and
    /// dso_local, without `unnamed_addr`; the alias's uses move to it and
    /// the alias is erased. `Err` leaves the module unchanged.
    pub fn unmerge(&self) -> Result<FunctionValue<'ctx>, UnmergeRefused> {
        let mut why = 0;
        // SAFETY: the alias is a live value of a module of `'ctx` and `why`
        // a live i32; the result is null or a function of that module.
        let made = unsafe {
            FunctionValue::new(super::ffi::offload_ir_unmerge_alias(
                self.alias.as_raw(),
                &raw mut why,
            ))
        };
        made.ok_or(match why {
            2 => UnmergeRefused::SignatureDiffers,
            3 => UnmergeRefused::OtherUses,
            _ => UnmergeRefused::NoBody,
        })
    }
}
