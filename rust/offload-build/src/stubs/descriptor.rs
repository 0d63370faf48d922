//! The launch descriptors the stubs carry, in offload-contract's codec: a
//! kernel's (its record's map types) and a direct launch's (every pointer
//! LITERAL).

use offload_contract::descriptor::{v1, v2};
use offload_contract::map_type::{FROM, LITERAL, TO};

use super::Contract;
use crate::image::{Arg, ArgKind, Kernel};

/// The descriptor words of `kernel`: scalars inferred, pointers mapped as
/// the record says.
pub(super) fn descriptor(kernel: &Kernel, contract: Contract, digest: u64) -> Vec<u64> {
    let pointers = |arg: &Arg| (arg.kind == ArgKind::Pointer).then_some(arg.map & (TO | FROM));
    match contract {
        Contract::V1 => {
            let args: Vec<v1::Arg> = kernel
                .args
                .iter()
                .map(|arg| match pointers(arg) {
                    None => v1::Arg::default(),
                    Some(map) => v1::Arg {
                        map,
                        size: arg.size,
                        // A record names its length argument in 16 bits.
                        len_arg: arg.len_arg.map(|i| i as u32),
                    },
                })
                .collect();
            // Teams and threads (0, 1, 1): the runtime chooses; no dynamic memory.
            let header = v1::Header {
                teams: [0, 1, 1],
                threads: [0, 1, 1],
                dyn_cgroup_mem: 0,
            };
            v1::encode(header, &args).collect()
        }
        Contract::V2 => {
            let args: Vec<v2::Arg> = kernel
                .args
                .iter()
                .map(|arg| match pointers(arg) {
                    None => v2::Arg::default(),
                    Some(map) => v2::Arg {
                        map,
                        // Several elements: the size comes from the config at run time.
                        size: if arg.len_arg.is_some() { 0 } else { arg.size },
                    },
                })
                .collect();
            v2::encode(digest, &args).collect()
        }
    }
}

/// The v2 descriptor of a direct launch of `kernel`: every pointer LITERAL
/// (the slot holds a device address; nothing is mapped), scalars inferred.
pub(super) fn direct_descriptor(kernel: &Kernel, digest: u64) -> Vec<u64> {
    let args: Vec<v2::Arg> = kernel
        .args
        .iter()
        .map(|arg| v2::Arg {
            map: if arg.kind == ArgKind::Pointer {
                LITERAL
            } else {
                0
            },
            size: 0,
        })
        .collect();
    v2::encode(digest, &args).collect()
}
