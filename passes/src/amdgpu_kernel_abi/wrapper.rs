//! A `#[repr(C)]` struct of one scalar that rustc passes indirectly (a
//! `dead_on_return` pointer, or a bare `ptr align A` at -O0): clang and the
//! fixed rustc pass the scalar itself. Whether the body lets us is decided
//! here, before the rewrite; either way the kernarg layout is the same.

use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::types::BasicTypeEnum;

use super::param::is_aggregate;
use crate::ir::{Opcode, Value};

/// How the parameter's uses are served once the scalar is passed by value.
pub enum WrapperUses<'ctx> {
    /// Every use is a whole-value load (through casts and zero GEPs): the
    /// loads become the parameter (a ptrtoint of it where a pointer is read
    /// as an integer); `chain` is left dead and erased.
    Loads {
        ty: BasicTypeEnum<'ctx>,
        loads: Vec<Value<'ctx>>,
        chain: Vec<Value<'ctx>>,
    },
    /// Other uses, all through generic pointers: spill the scalar to a
    /// private alloca and hand out its generic address.
    Spill { ty: BasicTypeEnum<'ctx> },
}

impl<'ctx> WrapperUses<'ctx> {
    pub fn scalar_type(&self) -> BasicTypeEnum<'ctx> {
        match self {
            WrapperUses::Loads { ty, .. } | WrapperUses::Spill { ty } => *ty,
        }
    }
}

/// The users of a pointer parameter reached through `addrspacecast` and
/// all-zero GEPs, split into loads, the chain itself and anything else.
struct PointerUses<'ctx> {
    loads: Vec<Value<'ctx>>,
    chain: Vec<Value<'ctx>>,
    other: bool,
    /// Some cast in the chain leaves the generic address space (rustc -O3
    /// casts kernel pointers to `ptr addrspace(1)`): a private spill would
    /// make that cast invalid.
    leaves_generic: bool,
}

fn is_zero_gep(inst: Value<'_>) -> bool {
    (1..inst.operand_count()).all(|i| inst.operand(i).is_some_and(Value::is_zero_int))
}

fn pointer_uses(pointer: Value<'_>) -> PointerUses<'_> {
    let mut uses = PointerUses {
        loads: Vec::new(),
        chain: Vec::new(),
        other: false,
        leaves_generic: false,
    };
    let mut work = vec![pointer];
    while let Some(value) = work.pop() {
        for user in value.users() {
            match user.opcode() {
                Some(Opcode::LLVMLoad) => uses.loads.push(user),
                Some(Opcode::LLVMAddrSpaceCast) => {
                    uses.leaves_generic |= user.ty().pointer_address_space() != Some(0);
                    uses.chain.push(user);
                    work.push(user);
                }
                Some(Opcode::LLVMGetElementPtr) if is_zero_gep(user) => {
                    uses.chain.push(user);
                    work.push(user);
                }
                _ => uses.other = true,
            }
        }
    }
    uses
}

/// The types the parameter's uses load (through casts and zero GEPs), or
/// `None` when it has other uses.
pub fn load_types<'ctx>(param: Value<'ctx>) -> Option<Vec<BasicTypeEnum<'ctx>>> {
    let uses = pointer_uses(param);
    (!uses.other).then(|| {
        uses.loads
            .iter()
            .filter_map(|load| load.ty().as_basic())
            .collect()
    })
}

/// True when the parameter's uses are loads only, at least one, each of a
/// generic `ptr`: without debug info, what shows an indirect 8-byte
/// aggregate holds one pointer (rustc loads an integer field as an
/// integer; a body that only copies the bits loads an `i64`).
pub fn only_loads_pointers(param: Value<'_>) -> bool {
    load_types(param).is_some_and(|types| {
        !types.is_empty()
            && types.iter().all(
                |ty| matches!(ty, BasicTypeEnum::PointerType(p) if p.get_address_space() == inkwell::AddressSpace::default()),
            )
    })
}

/// How an indirect one-element parameter becomes the element (a scalar, or
/// a generic pointer when `pointer`), or `None` to keep the memory form.
pub fn plan<'ctx>(
    module: &Module<'ctx>,
    param: Value<'ctx>,
    size: u64,
    pointer: bool,
    layout: &TargetData,
) -> Option<WrapperUses<'ctx>> {
    let uses = pointer_uses(param);
    let whole = |load: &Value<'ctx>| {
        load.ty().as_basic().filter(|ty: &BasicTypeEnum<'ctx>| {
            layout.get_store_size(ty) == size && !is_aggregate(*ty)
        })
    };
    let load_types: Vec<BasicTypeEnum<'ctx>> = uses.loads.iter().filter_map(whole).collect();
    let all_whole = load_types.len() == uses.loads.len() && !load_types.is_empty();
    // A pointer's loads may read it as an integer of its width (rustc loads
    // a one-pointer array as i64): the parameter is the pointer all the
    // same, and those loads become a ptrtoint of it.
    let pointer_type: BasicTypeEnum<'ctx> = module
        .get_context()
        .ptr_type(inkwell::AddressSpace::default())
        .into();
    let as_pointer = |t: &BasicTypeEnum<'ctx>| *t == pointer_type || t.is_int_type();
    if pointer && !uses.other && all_whole && load_types.iter().all(as_pointer) {
        return Some(WrapperUses::Loads {
            ty: pointer_type,
            loads: uses.loads,
            chain: uses.chain,
        });
    }
    if !pointer && !uses.other && all_whole && load_types.iter().all(|t| *t == load_types[0]) {
        return Some(WrapperUses::Loads {
            ty: load_types[0],
            loads: uses.loads,
            chain: uses.chain,
        });
    }
    if uses.leaves_generic {
        return None;
    }
    let ty = if pointer {
        Some(pointer_type)
    } else {
        load_types.first().copied()
    };
    let ty = ty.or_else(|| {
        let bits = u32::try_from(size.checked_mul(8)?).ok()?;
        Some(
            module
                .get_context()
                .custom_width_int_type(std::num::NonZeroU32::new(bits)?)
                .ok()?
                .into(),
        )
    })?;
    Some(WrapperUses::Spill { ty })
}
