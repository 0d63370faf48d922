//! WIP
use inkwell::module::Module;
pub const PASS_NAME: &str = "byref-callee-copy";
pub fn check_params(params: &str) -> Result<(), String> {
    crate::params::parse(params, &[]).map(drop)
}
pub fn run(_module: &Module<'_>, params: &str) -> Result<bool, String> {
    check_params(params)?;
    Ok(false)
}
