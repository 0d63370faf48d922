//! The launch contract, v1 part: libomptarget's map types, v1 launch
//! descriptors (the words a front end writes to say what the IR cannot), the
//! reading of descriptor globals (shared with v2, [`super::contract_v2`]),
//! and the data-region calls.

use inkwell::module::Module;
use inkwell::targets::TargetData;
use inkwell::values::InstructionValue;

use crate::ir::constants::{self, NotIntegerBytes};
use crate::ir::{Value, metadata};

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

use offload_contract::descriptor::v1::HEADER_WORDS;
pub use offload_contract::descriptor::v1::{
    LAYOUT_VERSION as DESCRIPTOR_VERSION, METADATA as LAUNCH_METADATA, SYMBOL_PREFIX as DESCRIPTOR_PREFIX,
};

/// A parsed launch descriptor.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct LaunchDescriptor {
    pub teams: [u32; 3],
    pub threads: [u32; 3],
    pub dyn_cgroup_mem: u32,
    /// Empty: infer every argument.
    pub args: Vec<ArgSpec>,
}

/// One argument's triple (zeros: infer).
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
    TooShort { words: usize },
    TooShortV2 { words: usize },
    Version { version: u64, supported: u64 },
    TooLarge { what: &'static str, value: u64 },
    /// `count` arguments of `unit` ("triples", "pairs") need `expected` words.
    WordCount { count: u64, expected: u128, words: usize, unit: &'static str },
    MapBits { arg: usize, map: u64 },
    LiteralAndMapped { arg: usize, map: u64 },
    LengthIndex { arg: usize, len: u64 },
    /// A global without an initializer here.
    NoInitializer,
    /// A global that is not `constant`, or whose linkage lets another
    /// definition replace it: what the pass reads may not be what runs.
    NotConstant,
    Replaceable { linkage: String },
    NotIntegers(NotIntegerBytes),
    NotWords { bytes: usize },
    /// An `!offload.launch` operand that is not an integer.
    MetadataOperand { index: usize },
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
                write!(f, "has layout version {version}; version {supported} is supported")
            }
            DescriptorProblem::TooLarge { what, value } => write!(f, "{what} {value} does not fit in 32 bits"),
            DescriptorProblem::WordCount {
                count,
                expected,
                words,
                unit,
            } => write!(f, "declares {count} argument {unit}, so {expected} words, but has {words}"),
            DescriptorProblem::MapBits { arg, map } => write!(
                f,
                "argument {arg}: map type {map:#x} has bits other than TO, FROM, LITERAL, IMPLICIT"
            ),
            DescriptorProblem::LiteralAndMapped { arg, map } => {
                write!(f, "argument {arg}: map type {map:#x} is both LITERAL and mapped (TO/FROM)")
            }
            DescriptorProblem::LengthIndex { arg, len } => {
                write!(f, "argument {arg}: length index {len} is out of range")
            }
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

impl LaunchDescriptor {
    pub fn from_words(words: &[u64]) -> Result<LaunchDescriptor, DescriptorProblem> {
        if words.len() < HEADER_WORDS {
            return Err(DescriptorProblem::TooShort { words: words.len() });
        }
        if words[0] != DESCRIPTOR_VERSION {
            return Err(DescriptorProblem::Version {
                version: words[0],
                supported: DESCRIPTOR_VERSION,
            });
        }
        let small = |i: usize, what: &'static str| {
            u32::try_from(words[i]).map_err(|_| DescriptorProblem::TooLarge { what, value: words[i] })
        };
        let mut descriptor = LaunchDescriptor {
            teams: [small(1, "teams")?, small(2, "teams")?, small(3, "teams")?],
            threads: [small(4, "threads")?, small(5, "threads")?, small(6, "threads")?],
            dyn_cgroup_mem: small(7, "dynamic memory")?,
            args: Vec::new(),
        };
        let count = words[8];
        let expected = u128::from(count) * 3 + HEADER_WORDS as u128;
        if expected != words.len() as u128 {
            return Err(DescriptorProblem::WordCount {
                count,
                expected,
                words: words.len(),
                unit: "triples",
            });
        }
        for (i, triple) in words[HEADER_WORDS..].chunks_exact(3).enumerate() {
            descriptor.args.push(ArgSpec::from_triple(i, triple)?);
        }
        Ok(descriptor)
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

impl ArgSpec {
    fn from_triple(arg: usize, triple: &[u64]) -> Result<ArgSpec, DescriptorProblem> {
        let (map, size, len) = (triple[0], triple[1], triple[2]);
        check_map(arg, map)?;
        let len_arg = match len {
            0 => None,
            n => Some(u32::try_from(n - 1).map_err(|_| DescriptorProblem::LengthIndex { arg, len })?),
        };
        Ok(ArgSpec { map, size, len_arg })
    }
}

/// The words of a call's `!offload.launch`, if it has one.
pub fn call_metadata<'ctx>(module: &Module<'ctx>, call: InstructionValue<'ctx>) -> Option<Result<Vec<u64>, DescriptorProblem>> {
    let node = metadata::instruction_attachment(module, Value::from(call), LAUNCH_METADATA)?;
    let words = metadata::integers(node)
        .into_iter()
        .enumerate()
        .map(|(index, word)| word.ok_or(DescriptorProblem::MetadataOperand { index }))
        .collect();
    Some(words)
}

/// The descriptor global for kernel `name` (`@__offload_launch.K`), if the
/// module has one. Its bytes are read in the data layout's byte order, so
/// rustc's `[N x i8]` lowering of a `[u64; N]` static works.
pub fn global_descriptor(
    module: &Module<'_>,
    name: &str,
    layout: &TargetData,
) -> Option<Result<LaunchDescriptor, DescriptorProblem>> {
    let global = module.get_global(&format!("{DESCRIPTOR_PREFIX}{name}"))?;
    Some(global_words(global, layout).and_then(|words| LaunchDescriptor::from_words(&words)))
}

/// The 64-bit words of a descriptor global's initializer, in the data
/// layout's byte order; a global whose contents may not be what runs
/// (mutable, replaceable at link time, not integers) is an error.
pub fn global_words(global: inkwell::values::GlobalValue<'_>, layout: &TargetData) -> Result<Vec<u64>, DescriptorProblem> {
    use inkwell::module::Linkage::*;
    let init = global.get_initializer().ok_or(DescriptorProblem::NoInitializer)?;
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
    let bytes = constants::constant_bytes(Value::from(init), layout).map_err(DescriptorProblem::NotIntegers)?;
    if bytes.len() % 8 != 0 {
        return Err(DescriptorProblem::NotWords { bytes: bytes.len() });
    }
    let little = matches!(layout.get_byte_ordering(), inkwell::targets::ByteOrdering::LittleEndian);
    Ok(bytes
        .chunks_exact(8)
        .map(|c| {
            let c: [u8; 8] = c.try_into().expect("8-byte chunk");
            if little { u64::from_le_bytes(c) } else { u64::from_be_bytes(c) }
        })
        .collect())
}

/// The explicit data-region calls.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum DataOp {
    Begin,
    End,
    Update,
}

impl DataOp {
    pub fn from_name(name: &str) -> Option<DataOp> {
        match name {
            "__offload_data_begin" => Some(DataOp::Begin),
            "__offload_data_end" => Some(DataOp::End),
            "__offload_data_update" => Some(DataOp::Update),
            _ => None,
        }
    }

    /// The libomptarget function it becomes.
    pub fn mapper(self) -> &'static str {
        match self {
            DataOp::Begin => "__tgt_target_data_begin_mapper",
            DataOp::End => "__tgt_target_data_end_mapper",
            DataOp::Update => "__tgt_target_data_update_mapper",
        }
    }
}
