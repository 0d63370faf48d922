//! The check of a launch whose result is unused: the module's internal
//! `__offload_launch_check`, which aborts when the launch failed.

use inkwell::IntPredicate;
use inkwell::builder::BuilderError;
use inkwell::module::{Linkage, Module};
use inkwell::values::{FunctionValue, UnnamedAddress};

use super::libomptarget::Types;
use super::registration::constant;

/// Name of the emitted launch-result check.
pub const LAUNCH_CHECK: &str = "__offload_launch_check";

/// Emits the check (once per module):
///
/// ```c
/// extern FILE *stderr;
/// static void __offload_launch_check(int32_t rc, const char *kernel) {
///     if (rc != 0) {
///         fprintf(stderr, "offload: kernel '%s' launch failed (code %d)\n", kernel, rc);
///         abort();
///     }
/// }
/// ```
pub fn emit<'ctx>(
    module: &Module<'ctx>,
    types: &Types<'ctx>,
) -> Result<FunctionValue<'ctx>, BuilderError> {
    let c = types.context;
    let ty = c
        .void_type()
        .fn_type(&[c.i32_type().into(), types.ptr().into()], false);
    let check = module.add_function(LAUNCH_CHECK, ty, Some(Linkage::Internal));
    let (entry, fail, ok) = (
        c.append_basic_block(check, "entry"),
        c.append_basic_block(check, "fail"),
        c.append_basic_block(check, "ok"),
    );
    let rc = check.get_nth_param(0).expect("rc").into_int_value();
    let kernel = check.get_nth_param(1).expect("kernel");
    rc.set_name("rc");
    kernel.set_name("kernel");
    let builder = c.create_builder();
    builder.position_at_end(entry);
    let failed =
        builder.build_int_compare(IntPredicate::NE, rc, c.i32_type().const_zero(), "failed")?;
    builder.build_conditional_branch(failed, fail, ok)?;

    builder.position_at_end(fail);
    let stderr = match module.get_global("stderr") {
        Some(g) => g,
        None => {
            let g = module.add_global(types.ptr(), None, "stderr");
            g.set_linkage(Linkage::External);
            g
        }
    };
    let stream = builder.build_load(types.ptr(), stderr.as_pointer_value(), "stderr")?;
    let format = constant(
        module,
        ".offload.launch_failed",
        c.const_string(b"offload: kernel '%s' launch failed (code %d)\n", true),
        Linkage::Private,
    );
    format.set_unnamed_address(UnnamedAddress::Global);
    builder.build_call(
        types.function(module, "fprintf"),
        &[
            stream.into(),
            format.as_pointer_value().into(),
            kernel.into(),
            rc.into(),
        ],
        "",
    )?;
    builder.build_call(types.function(module, "abort"), &[], "")?;
    builder.build_unreachable()?;

    builder.position_at_end(ok);
    builder.build_return(None)?;
    Ok(check)
}
