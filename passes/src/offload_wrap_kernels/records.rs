//! The flag `records`: the kernels are the functions the module's kernel
//! records name. Every Rust `#[kernel]` exports a record
//! `@__offload_rs_record_<symbol>` ([`offload_contract::record`], the one
//! definition of its layout) next to its entry point `@<symbol>`, in the
//! crate that defines it; in a fat-LTO image the records of every crate of
//! the program are in the one module. So the pass needs no list of names
//! from the front end, and a kernel of a dependency crate (a kernel
//! library) is found like one of the kernel crate.

use inkwell::module::Module;
use offload_contract::record::{
    MAGIC, MAX_NAME, NAME_LEN_OFFSET, NAME_OFFSET, RECORD_BYTES, SYMBOL_PREFIX,
};

use super::Error;
use crate::ir::Value;
use crate::ir::constants::constant_bytes;

/// What is wrong with a record global.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordProblem {
    /// Its initializer holds something other than integer bytes.
    NotBytes { offset: u64, text: String },
    /// Another size or magic than this layout's.
    NotThisLayout { bytes: usize },
    /// A name length past the name field.
    NameLength { len: usize },
    /// The name field is not the symbol the global's name says.
    OtherName { name: String },
}

impl std::fmt::Display for RecordProblem {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RecordProblem::NotBytes { offset, text } => {
                write!(f, "holds '{text}' at byte {offset}, not plain bytes")
            }
            RecordProblem::NotThisLayout { bytes } => write!(
                f,
                "is not a kernel record of this layout ({RECORD_BYTES} bytes starting with '{}'; it has {bytes} bytes): the `offload` crate and the plugin are of different versions",
                MAGIC.escape_ascii()
            ),
            RecordProblem::NameLength { len } => {
                write!(f, "has a name length of {len} (at most {MAX_NAME})")
            }
            RecordProblem::OtherName { name } => write!(
                f,
                "names the kernel '{name}', not the symbol its global's name carries"
            ),
        }
    }
}

/// The kernel symbols of the module's defined record globals, in module
/// order, each record checked against the layout.
pub fn record_kernels(module: &Module<'_>) -> Result<Vec<String>, Error> {
    let layout = crate::ir::types::target_data(module);
    let mut kernels = Vec::new();
    for global in module.get_globals() {
        let name = global.get_name().to_string_lossy().into_owned();
        let Some(symbol) = name.strip_prefix(SYMBOL_PREFIX) else {
            continue;
        };
        // A declaration: the record (and its kernel) is in another module.
        let Some(init) = global.get_initializer() else {
            continue;
        };
        let bad = |problem| Error::BadRecord {
            global: name.clone(),
            problem,
        };
        let bytes = constant_bytes(Value::from(init), &layout).map_err(|e| {
            bad(RecordProblem::NotBytes {
                offset: e.offset,
                text: e.text,
            })
        })?;
        if bytes.len() != RECORD_BYTES || bytes[..MAGIC.len()] != MAGIC {
            return Err(bad(RecordProblem::NotThisLayout { bytes: bytes.len() }));
        }
        let len_bytes: [u8; 4] = bytes[NAME_LEN_OFFSET..NAME_LEN_OFFSET + 4]
            .try_into()
            .expect("4 bytes");
        let len = u32::from_le_bytes(len_bytes) as usize;
        if len > MAX_NAME {
            return Err(bad(RecordProblem::NameLength { len }));
        }
        let field = &bytes[NAME_OFFSET..NAME_OFFSET + len];
        if field != symbol.as_bytes() {
            return Err(bad(RecordProblem::OtherName {
                name: field.escape_ascii().to_string(),
            }));
        }
        kernels.push(symbol.to_owned());
    }
    Ok(kernels)
}
