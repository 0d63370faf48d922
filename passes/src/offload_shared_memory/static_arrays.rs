//! Static shared arrays: each declaration site of `offload::shared_array!`
//! becomes its own internal `addrspace(3)` array (what clang emits for a
//! `__shared__` variable), and each kernel's total is checked against the
//! target's limit.
//!
//! The `offload` crate calls the declared `__offload_static_shared(ptr
//! site, i64 bytes, i64 align)` (offload-contract's
//! `grid::STATIC_SHARED_FN`), `site` a global of its own per declaration
//! (a call site may be inlined or unrolled into several calls: the site
//! global, not the call, names the array).

use std::collections::{HashMap, HashSet};

use inkwell::AddressSpace;
use inkwell::module::{Linkage, Module};
use inkwell::values::FunctionValue;
use offload_contract::grid::{
    STATIC_SHARED_FN, STATIC_SHARED_LIMIT_AMDGPU, STATIC_SHARED_LIMIT_NVPTX,
};

use super::{Error, SHARED};
use crate::ir::{Value, calls, erase, kernels, naming};

/// One declaration site: its marker global, size, alignment and calls.
struct Site<'ctx> {
    marker: Value<'ctx>,
    bytes: u64,
    align: u64,
    calls: Vec<Value<'ctx>>,
}

/// Replaces every call of `__offload_static_shared` by the address of its
/// site's array; `Ok(false)` when the module has none. Every check runs
/// before anything changes.
pub(super) fn lower(module: &Module<'_>, triple: &str) -> Result<bool, Error> {
    let Some(function) = module.get_function(STATIC_SHARED_FN) else {
        return Ok(false);
    };
    if function.count_basic_blocks() > 0 {
        return Err(Error::StaticDefined);
    }
    let function = Value::from(function.as_global_value().as_pointer_value());
    let sites = sites(function)?;
    check_limits(module, triple, &sites)?;
    for site in &sites {
        rewrite(module, site);
    }
    erase::delete_if_unused_declaration(function);
    Ok(true)
}

/// The sites of the calls of `function`, in order of first call.
fn sites(function: Value<'_>) -> Result<Vec<Site<'_>>, Error> {
    let mut sites: Vec<Site<'_>> = Vec::new();
    // Use lists run backwards: reversed, the sites come in module order.
    for call in function.users().into_iter().rev() {
        let (marker, bytes, align) = parse_call(function, call)?;
        match sites.iter_mut().find(|s| s.marker == marker) {
            Some(site) if (site.bytes, site.align) == (bytes, align) => site.calls.push(call),
            Some(site) => {
                return Err(Error::StaticSizes {
                    site: naming::display_symbol(&marker.name()),
                    first: (site.bytes, site.align),
                    second: (bytes, align),
                });
            }
            None => sites.push(Site {
                marker,
                bytes,
                align,
                calls: vec![call],
            }),
        }
    }
    Ok(sites)
}

/// `call ptr @__offload_static_shared(ptr @site, i64 bytes, i64 align)`:
/// the site global, the size and the alignment (a power of two).
fn parse_call<'ctx>(
    function: Value<'ctx>,
    call: Value<'ctx>,
) -> Result<(Value<'ctx>, u64, u64), Error> {
    let refused = || Error::StaticUse(call.text());
    let plain_call = calls::is_call_like(call)
        && !calls::is_invoke(call)
        && calls::called_function(call) == Some(function)
        && calls::arg_count(call) == 3
        && call.ty().pointer_address_space() == Some(0);
    if !plain_call {
        return Err(refused());
    }
    let args = calls::arguments(call);
    let marker = args[0].strip_pointer_casts();
    marker.as_global_variable().ok_or_else(refused)?;
    let constant = |v: Value<'_>| {
        v.as_basic()
            .filter(|b| b.is_int_value())
            .and_then(|b| b.into_int_value().get_zero_extended_constant())
    };
    let bytes = constant(args[1])
        .filter(|b| u32::try_from(*b).is_ok())
        .ok_or_else(refused)?;
    let align = constant(args[2])
        .filter(|a| a.is_power_of_two() && *a <= 1 << 16)
        .ok_or_else(refused)?;
    Ok((marker, bytes, align))
}

/// Each kernel's static shared bytes (its reachable sites, each padded to
/// its alignment) against the target's limit.
fn check_limits(module: &Module<'_>, triple: &str, sites: &[Site<'_>]) -> Result<(), Error> {
    let limit = if triple.starts_with("amdgcn") {
        STATIC_SHARED_LIMIT_AMDGPU
    } else {
        STATIC_SHARED_LIMIT_NVPTX
    };
    let graph = CallGraph::new(module);
    let kernels = module
        .get_functions()
        .filter(|f| kernels::is_gpu_kernel(*f) && f.count_basic_blocks() > 0);
    for kernel in kernels {
        let reachable = graph.reachable(kernel);
        let used: Vec<&Site<'_>> = sites
            .iter()
            .filter(|s| s.calls.iter().any(|c| reachable.contains(&caller_of(*c))))
            .collect();
        let total: u64 = used
            .iter()
            .map(|s| s.bytes.next_multiple_of(s.align))
            .fold(0, u64::saturating_add);
        if total > limit {
            return Err(Error::StaticLimit {
                kernel: naming::display_symbol(&kernel.get_name().to_string_lossy()),
                sizes: used.iter().map(|s| s.bytes).collect(),
                total,
                limit,
                triple: triple.to_owned(),
            });
        }
    }
    Ok(())
}

/// The function holding instruction `call`.
fn caller_of(call: Value<'_>) -> Value<'_> {
    call.block().map_or(call, |b| b.function())
}

/// Direct calls between the module's defined functions.
struct CallGraph<'ctx> {
    callees: HashMap<Value<'ctx>, Vec<Value<'ctx>>>,
}

impl<'ctx> CallGraph<'ctx> {
    fn new(module: &Module<'ctx>) -> Self {
        let mut callees: HashMap<Value<'ctx>, Vec<Value<'ctx>>> = HashMap::new();
        for (caller, call) in calls::all_calls(module) {
            if let Some(callee) = calls::called_function(Value::from(call)) {
                let caller = Value::from(caller.as_global_value().as_pointer_value());
                callees.entry(caller).or_default().push(callee);
            }
        }
        CallGraph { callees }
    }

    /// `root` and every function it reaches by direct calls.
    fn reachable(&self, root: FunctionValue<'ctx>) -> HashSet<Value<'ctx>> {
        let root = Value::from(root.as_global_value().as_pointer_value());
        let mut seen = HashSet::from([root]);
        let mut work = vec![root];
        while let Some(f) = work.pop() {
            for &callee in self.callees.get(&f).into_iter().flatten() {
                if seen.insert(callee) {
                    work.push(callee);
                }
            }
        }
        seen
    }
}

/// The site's own `internal addrspace(3) global [bytes x i8] undef`, its
/// calls replaced by its generic address, its marker deleted when unused.
fn rewrite(module: &Module<'_>, site: &Site<'_>) {
    let context = module.get_context();
    let ty = context
        .i8_type()
        .array_type(u32::try_from(site.bytes).unwrap_or(u32::MAX)); // checked
    let name = format!("{STATIC_SHARED_FN}.{}", site.marker.name());
    let array = module.add_global(ty, Some(AddressSpace::from(SHARED)), &name);
    array.set_linkage(Linkage::Internal);
    array.set_initializer(&ty.get_undef());
    array.set_alignment(u32::try_from(site.align).unwrap_or(1));
    let generic = context.ptr_type(AddressSpace::default());
    let address = Value::from(array.as_pointer_value().const_address_space_cast(generic));
    for &call in &site.calls {
        call.replace_all_uses_with(address);
        erase::erase_instruction(call);
    }
    erase::delete_if_unused_local_global(site.marker);
}
