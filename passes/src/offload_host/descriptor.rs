//! Launch descriptors as the module holds them, the parts every launch form
//! shares: libomptarget's map types, what a descriptor's words say about one
//! argument, what can be wrong with a descriptor (its words, decoded by
//! `offload_contract::descriptor`, or the global holding them), and reading
//! a descriptor global's words. The
//! forms themselves: [`super::launch_v1`] (`call @K(args...)` and its
//! descriptor triples), [`super::launch_v2`] (`__offload_launch2.K`, its
//! descriptor pairs and the run-time `LaunchConfig`); the data-region calls
//! in [`super::data_region`].

use inkwell::targets::TargetData;

use offload_contract::descriptor::{self, v1};

use crate::ir::Value;
use crate::ir::constants::{self, NotIntegerBytes};

/// libomptarget's `MapType` bits and rustc's three per-launch arrays.
pub mod map_type {
    pub use offload_contract::map_type::{FROM, IMPLICIT, LITERAL, TARGET_PARAM, TO};

    /// The map type of one argument of a one-call launch (clang's form:
    /// `__tgt_target_kernel` maps, launches and unmaps): every argument is a
    /// kernel parameter.
    pub fn kernel(m: u64) -> u64 {
        m | TARGET_PARAM
    }

    /// A pointer argument's map type from its parameter attributes.
    pub fn for_pointer(readonly: bool, writeonly: bool) -> u64 {
        match (readonly, writeonly) {
            (true, _) => TO,
            (false, true) => FROM,
            (false, false) => TO | FROM,
        }
    }
}

/// One argument's descriptor words as planning reads them: a v1 triple,
/// or a v2 pair without a length (zeros: infer).
pub type ArgSpec = v1::Arg;

/// What is wrong with a launch descriptor (v1 or v2): its words, or where
/// they are kept.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DescriptorProblem {
    /// The words themselves (offload-contract's decoders).
    Words(descriptor::Problem),
    /// A global without an initializer here.
    NoInitializer,
    /// A global that is not `constant`, or whose linkage lets another
    /// definition replace it: what the pass reads may not be what runs.
    NotConstant,
    Replaceable {
        linkage: String,
    },
    NotIntegers(NotIntegerBytes),
    NotWords {
        bytes: usize,
    },
    /// An `!offload.launch` operand that is not an integer.
    MetadataOperand {
        index: usize,
    },
}

impl From<descriptor::Problem> for DescriptorProblem {
    fn from(problem: descriptor::Problem) -> DescriptorProblem {
        DescriptorProblem::Words(problem)
    }
}

impl std::fmt::Display for DescriptorProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DescriptorProblem::Words(problem) => problem.fmt(f),
            DescriptorProblem::NoInitializer => write!(
                f,
                "has no initializer here (defined in another codegen unit? use -Ccodegen-units=1)"
            ),
            DescriptorProblem::NotConstant => write!(
                f,
                "is not a constant: a write at run time would not change what was compiled in"
            ),
            DescriptorProblem::Replaceable { linkage } => write!(
                f,
                "has {linkage} linkage: another definition may replace it at link time"
            ),
            DescriptorProblem::NotIntegers(e) => write!(
                f,
                "holds `{}` at byte {}, which is not a constant integer",
                e.text, e.offset
            ),
            DescriptorProblem::NotWords { bytes } => {
                write!(f, "is {bytes} bytes, not a whole number of 64-bit words")
            }
            DescriptorProblem::MetadataOperand { index } => {
                write!(f, "operand {index} is not a constant integer")
            }
        }
    }
}

/// The 64-bit words of a descriptor global's initializer, in the data
/// layout's byte order; a global whose contents may not be what runs
/// (mutable, replaceable at link time, not integers) is an error.
pub fn global_words(
    global: inkwell::values::GlobalValue<'_>,
    layout: &TargetData,
) -> Result<Vec<u64>, DescriptorProblem> {
    use inkwell::module::Linkage::*;
    let init = global
        .get_initializer()
        .ok_or(DescriptorProblem::NoInitializer)?;
    if !global.is_constant() {
        return Err(DescriptorProblem::NotConstant);
    }
    let replaceable = match global.get_linkage() {
        WeakAny => "weak",
        WeakODR => "weak_odr",
        LinkOnceAny => "linkonce",
        LinkOnceODR => "linkonce_odr",
        ExternalWeak => "extern_weak",
        Common => "common",
        _ => "",
    };
    if !replaceable.is_empty() {
        return Err(DescriptorProblem::Replaceable {
            linkage: replaceable.to_owned(),
        });
    }
    let bytes = constants::constant_bytes(Value::from(init), layout)
        .map_err(DescriptorProblem::NotIntegers)?;
    if bytes.len() % 8 != 0 {
        return Err(DescriptorProblem::NotWords { bytes: bytes.len() });
    }
    let little = matches!(
        layout.get_byte_ordering(),
        inkwell::targets::ByteOrdering::LittleEndian
    );
    Ok(bytes
        .chunks_exact(8)
        .map(|c| {
            let c: [u8; 8] = c.try_into().expect("8-byte chunk");
            if little {
                u64::from_le_bytes(c)
            } else {
                u64::from_be_bytes(c)
            }
        })
        .collect())
}
