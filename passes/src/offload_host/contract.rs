//! The launch contract, the parts every launch form shares: libomptarget's
//! map types, what a descriptor's words may say about one argument, what can
//! be wrong with a descriptor, and reading a descriptor global's words. The
//! forms themselves: [`super::launch_v1`] (`call @K(args...)` and its
//! descriptor triples), [`super::launch_v2`] (`__offload_launch2.K`, its
//! descriptor pairs and the run-time `LaunchConfig`); the data-region calls
//! in [`super::data_region`].

use inkwell::targets::TargetData;

use super::launch_v1::HEADER_WORDS;
use crate::ir::Value;
use crate::ir::constants::{self, NotIntegerBytes};

/// libomptarget's `MapType` bits and rustc's three per-launch arrays.
pub mod map_type {
    pub use offload_contract::descriptor::ACCEPTED_MAP as ACCEPTED;
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
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct ArgSpec {
    pub map: u64,
    pub size: u64,
    /// Index of the argument holding the element count.
    pub len_arg: Option<u32>,
}

/// What is wrong with a launch descriptor (v1 or v2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum DescriptorProblem {
    TooShort {
        words: usize,
    },
    TooShortV2 {
        words: usize,
    },
    Version {
        version: u64,
        supported: u64,
    },
    TooLarge {
        what: &'static str,
        value: u64,
    },
    /// `count` arguments of `unit` ("triples", "pairs") need `expected` words.
    WordCount {
        count: u64,
        expected: u128,
        words: usize,
        unit: &'static str,
    },
    MapBits {
        arg: usize,
        map: u64,
    },
    LiteralAndMapped {
        arg: usize,
        map: u64,
    },
    LengthIndex {
        arg: usize,
        len: u64,
    },
    /// A SIZE above `MAX_SIZE`: no mapping can be that large.
    SizeTooLarge {
        arg: usize,
        size: u64,
    },
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

impl std::fmt::Display for DescriptorProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            DescriptorProblem::TooShort { words } => write!(
                f,
                "has {words} words; at least {HEADER_WORDS} are needed (version, teams x3, threads x3, dynamic memory, argument count)"
            ),
            DescriptorProblem::TooShortV2 { words } => write!(
                f,
                "has {words} words; at least 3 are needed (version 2, image digest, argument count)"
            ),
            DescriptorProblem::Version { version, supported } => {
                write!(
                    f,
                    "has layout version {version}; version {supported} is supported"
                )
            }
            DescriptorProblem::TooLarge { what, value } => {
                write!(f, "{what} {value} does not fit in 32 bits")
            }
            DescriptorProblem::WordCount {
                count,
                expected,
                words,
                unit,
            } => write!(
                f,
                "declares {count} argument {unit}, so {expected} words, but has {words}"
            ),
            DescriptorProblem::MapBits { arg, map } => write!(
                f,
                "argument {arg}: map type {map:#x} has bits other than TO, FROM, LITERAL, IMPLICIT"
            ),
            DescriptorProblem::LiteralAndMapped { arg, map } => {
                write!(
                    f,
                    "argument {arg}: map type {map:#x} is both LITERAL and mapped (TO/FROM)"
                )
            }
            DescriptorProblem::LengthIndex { arg, len } => {
                write!(f, "argument {arg}: length index {len} is out of range")
            }
            DescriptorProblem::SizeTooLarge { arg, size } => write!(
                f,
                "argument {arg}: SIZE {size} is 2^63 bytes or more, larger than any mapping"
            ),
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

/// Checks a descriptor's MAP word for argument `arg`.
pub fn check_map(arg: usize, map: u64) -> Result<(), DescriptorProblem> {
    if map & !map_type::ACCEPTED != 0 {
        return Err(DescriptorProblem::MapBits { arg, map });
    }
    if map & map_type::LITERAL != 0 && map & (map_type::TO | map_type::FROM) != 0 {
        return Err(DescriptorProblem::LiteralAndMapped { arg, map });
    }
    Ok(())
}

/// Checks a descriptor's SIZE word for argument `arg` (at most
/// `MAX_SIZE`: libomptarget takes sizes as `int64_t`).
pub fn check_size(arg: usize, size: u64) -> Result<(), DescriptorProblem> {
    if size > offload_contract::descriptor::MAX_SIZE {
        return Err(DescriptorProblem::SizeTooLarge { arg, size });
    }
    Ok(())
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
