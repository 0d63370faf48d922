//! What a pass is to the plugin: the [`ModulePass`] trait, the type-erased
//! [`PassInfo`] the registration table holds, and [`Diagnostics`] (warnings a
//! pass reports while it runs).
//!
//! A pass parses its parameters once, when the pipeline is parsed, into the
//! pass value; every run then uses that value. An error names everything the
//! user needs but the pass, which [`PassInfo`] puts in front
//! (`amdgpu-kernel-abi: kernel 'k', parameter #0 ...`).

use inkwell::module::Module;

use crate::params::ParamError;

/// A module pass of the plugin.
pub(crate) trait ModulePass: Sized + Send + Sync + 'static {
    /// The name pipelines use: `-passes=NAME`, `-Cpasses=NAME<params>`.
    const NAME: &'static str;
    /// The class name pass instrumentation prints (`-debug-pass-manager`,
    /// `-time-passes`); distinct per pass.
    const CLASS_NAME: &'static str;
    /// Why a run failed. `Display` is the message without the pass name.
    type Error: std::error::Error + 'static;

    /// Parses the text between `<` and `>` of `NAME<...>` (empty without).
    fn parse(params: &[u8]) -> Result<Self, ParamError>;

    /// Runs on `module`: `Ok(true)` when it changed. On `Err` the module is
    /// unchanged: every pass checks its whole input before it rewrites.
    fn run(&self, module: &Module<'_>, diagnostics: &mut Diagnostics) -> Result<bool, Self::Error>;
}

/// Warnings a pass reports during a run (the plugin hands them to LLVM's
/// diagnostic handler, so opt and rustc print them as warnings).
#[derive(Debug, Default)]
pub struct Diagnostics {
    warnings: Vec<String>,
}

impl Diagnostics {
    pub fn warn(&mut self, message: impl Into<String>) {
        self.warnings.push(message.into());
    }

    pub fn warnings(&self) -> &[String] {
        &self.warnings
    }
}

/// A parsed pass, as the plugin holds it.
pub trait DynPass: Send + Sync {
    /// The pipeline name.
    fn name(&self) -> &'static str;

    /// Runs the pass; an error message starts with the pass name, and so
    /// does each warning left in `diagnostics`.
    fn run(&self, module: &Module<'_>, diagnostics: &mut Diagnostics) -> Result<bool, String>;
}

impl<P: ModulePass> DynPass for P {
    fn name(&self) -> &'static str {
        P::NAME
    }

    fn run(&self, module: &Module<'_>, diagnostics: &mut Diagnostics) -> Result<bool, String> {
        log::debug!(
            "{}: running on module '{}'",
            P::NAME,
            module.get_name().to_string_lossy()
        );
        let mut own = Diagnostics::default();
        let result = ModulePass::run(self, module, &mut own);
        for warning in own.warnings {
            diagnostics.warn(format!("{}: {warning}", P::NAME));
        }
        result.map_err(|e| format!("{}: {e}", P::NAME))
    }
}

/// Parses a pass's parameter text into a pass ready to run.
type Parse = fn(&[u8]) -> Result<Box<dyn DynPass>, ParamError>;

/// One entry of the registration table ([`crate::PASSES`]).
pub struct PassInfo {
    pub name: &'static str,
    pub class_name: &'static str,
    parse: Parse,
}

impl PassInfo {
    pub(crate) const fn of<P: ModulePass>() -> PassInfo {
        PassInfo {
            name: P::NAME,
            class_name: P::CLASS_NAME,
            parse: |params| P::parse(params).map(|p| Box::new(p) as Box<dyn DynPass>),
        }
    }

    /// Parses `params` into a pass ready to run; the error names the pass.
    pub fn parse(&self, params: &[u8]) -> Result<Box<dyn DynPass>, String> {
        (self.parse)(params).map_err(|e| format!("{}: {e}", self.name))
    }
}

/// The table entry of pass `name`.
pub fn find(name: &str) -> Option<&'static PassInfo> {
    crate::PASSES.iter().find(|p| p.name == name)
}

/// For passes without parameters.
pub(crate) fn no_params(params: &[u8]) -> Result<(), ParamError> {
    crate::params::parse(params, &[]).map(drop)
}
