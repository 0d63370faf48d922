//! The passes the plugin exposes, by pipeline name. `plugin/src/passes.def`
//! lists the same names for the C++ side; a test below keeps the two equal.

use inkwell::module::Module;

use crate::{amdgpu_kernel_abi, byref_callee_copy, offload_host, offload_wrap_kernels};

/// One module pass: its pipeline name, a parameter check, and its run function
/// (`Ok(true)` when the module changed). Errors are returned without the pass
/// name; [`run_pass`] and [`check_params`] prefix it.
pub struct PassInfo {
    pub name: &'static str,
    pub check_params: fn(&str) -> Result<(), String>,
    pub run: fn(&Module<'_>, &str) -> Result<bool, String>,
}

pub const PASSES: &[PassInfo] = &[
    PassInfo {
        name: amdgpu_kernel_abi::PASS_NAME,
        check_params: amdgpu_kernel_abi::check_params,
        run: amdgpu_kernel_abi::run,
    },
    PassInfo {
        name: byref_callee_copy::PASS_NAME,
        check_params: byref_callee_copy::check_params,
        run: byref_callee_copy::run,
    },
    PassInfo {
        name: offload_wrap_kernels::PASS_NAME,
        check_params: offload_wrap_kernels::check_params,
        run: offload_wrap_kernels::run,
    },
    PassInfo {
        name: offload_host::PASS_NAME,
        check_params: offload_host::check_params,
        run: offload_host::run,
    },
];

fn find(name: &str) -> Result<&'static PassInfo, String> {
    PASSES
        .iter()
        .find(|p| p.name == name)
        .ok_or_else(|| format!("offload-passes: no pass named '{name}'"))
}

/// Runs pass `name` with its parameter text on `module`.
pub fn run_pass(name: &str, params: &str, module: &Module<'_>) -> Result<bool, String> {
    let pass = find(name)?;
    log::debug!(
        "{name}: running on module '{}'",
        module.get_name().to_string_lossy()
    );
    (pass.run)(module, params).map_err(|e| format!("{name}: {e}"))
}

/// Checks the parameter text of pass `name` (`name<params>` in a pipeline).
pub fn check_params(name: &str, params: &str) -> Result<(), String> {
    let pass = find(name)?;
    (pass.check_params)(params).map_err(|e| format!("{name}: {e}"))
}

#[cfg(test)]
mod tests {
    use super::PASSES;

    #[test]
    fn passes_def_lists_the_same_passes() {
        let def = include_str!("../../plugin/src/passes.def");
        let in_def: Vec<&str> = def
            .lines()
            .filter_map(|l| l.strip_prefix("OFFLOAD_MODULE_PASS(\""))
            .map(|l| l.split('"').next().unwrap())
            .collect();
        let in_registry: Vec<&str> = PASSES.iter().map(|p| p.name).collect();
        assert_eq!(in_def, in_registry);
    }
}
