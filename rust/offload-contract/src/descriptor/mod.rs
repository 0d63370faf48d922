//! The launch descriptors: the `u64` words a front end writes to say what
//! the IR cannot (sizes, map types and, in v1, the grid), with their
//! encoders and decoders ([`v1::encode`], [`v1::decode`], [`v2::encode`],
//! [`v2::decode`]).
//!
//! ```text
//! v1  @__offload_launch.K = [version 1, teams x3, threads x3, dynamic memory, A,
//!                            A x (MAP, SIZE, LEN)]   (LEN: argument index + 1, 0: none)
//! v2  __offload_launch2.K(descriptor, config, K's arguments...), descriptor =
//!     [version 2, image digest (0: not checked), A, A x (MAP, SIZE)]
//! ```
//!
//! A zero MAP or SIZE asks the lowering to infer it. The words come from a
//! module the passes did not write: decoding checks every word and returns
//! a [`Problem`] for a descriptor that is truncated, oversized or holds
//! values no launch can have.

use core::fmt;

use crate::map_type;

pub mod v1;
pub mod v2;

#[cfg(test)]
mod tests;

/// The largest SIZE a descriptor word or a config's sizes entry may give: a
/// mapping of 2^63 bytes or more is refused (at compile time for a
/// descriptor, by the launch at run time for a config).
pub const MAX_SIZE: u64 = i64::MAX as u64;

/// The bits a descriptor's MAP word may contain.
pub const ACCEPTED_MAP: u64 =
    map_type::TO | map_type::FROM | map_type::LITERAL | map_type::IMPLICIT;

/// What is wrong with a descriptor's words (v1 or v2). `arg` is the index
/// of the argument whose words are wrong.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[allow(missing_docs)] // The fields are the values the messages name.
pub enum Problem {
    /// `words` words, fewer than the header's `needed` (which are `header`).
    TooShort {
        words: usize,
        needed: usize,
        header: &'static str,
    },
    /// Word 0 is `version`, not the layout version the decoder reads.
    Version { version: u64, supported: u64 },
    /// A v1 header word (`what`) above `u32::MAX`.
    TooLarge { what: &'static str, value: u64 },
    /// `count` arguments of `unit` ("triples", "pairs") need `expected`
    /// words; the descriptor has `words`.
    WordCount {
        count: u64,
        expected: u128,
        words: usize,
        unit: &'static str,
    },
    /// A MAP word with bits outside [`ACCEPTED_MAP`].
    MapBits { arg: usize, map: u64 },
    /// A MAP word both LITERAL and TO/FROM.
    LiteralAndMapped { arg: usize, map: u64 },
    /// A v1 LEN word naming no argument index a launch can have.
    LengthIndex { arg: usize, len: u64 },
    /// A SIZE above [`MAX_SIZE`]: no mapping can be that large.
    SizeTooLarge { arg: usize, size: u64 },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Problem::TooShort {
                words,
                needed,
                header,
            } => write!(
                f,
                "has {words} words; at least {needed} are needed ({header})"
            ),
            Problem::Version { version, supported } => write!(
                f,
                "has layout version {version}; version {supported} is supported"
            ),
            Problem::TooLarge { what, value } => {
                write!(f, "{what} {value} does not fit in 32 bits")
            }
            Problem::WordCount {
                count,
                expected,
                words,
                unit,
            } => write!(
                f,
                "declares {count} argument {unit}, so {expected} words, but has {words}"
            ),
            Problem::MapBits { arg, map } => write!(
                f,
                "argument {arg}: map type {map:#x} has bits other than TO, FROM, LITERAL, IMPLICIT"
            ),
            Problem::LiteralAndMapped { arg, map } => write!(
                f,
                "argument {arg}: map type {map:#x} is both LITERAL and mapped (TO/FROM)"
            ),
            Problem::LengthIndex { arg, len } => {
                write!(f, "argument {arg}: length index {len} is out of range")
            }
            Problem::SizeTooLarge { arg, size } => write!(
                f,
                "argument {arg}: SIZE {size} is 2^63 bytes or more, larger than any mapping"
            ),
        }
    }
}

/// Checks a descriptor's MAP word for argument `arg`.
pub const fn check_map(arg: usize, map: u64) -> Result<(), Problem> {
    if map & !ACCEPTED_MAP != 0 {
        return Err(Problem::MapBits { arg, map });
    }
    if map & map_type::LITERAL != 0 && map & (map_type::TO | map_type::FROM) != 0 {
        return Err(Problem::LiteralAndMapped { arg, map });
    }
    Ok(())
}

/// Checks a descriptor's SIZE word for argument `arg` (at most
/// [`MAX_SIZE`]: libomptarget takes sizes as `int64_t`).
pub const fn check_size(arg: usize, size: u64) -> Result<(), Problem> {
    if size > MAX_SIZE {
        return Err(Problem::SizeTooLarge { arg, size });
    }
    Ok(())
}

/// Where a descriptor layout keeps its words, for [`split`].
struct Layout {
    version: u64,
    /// Words before the arguments' words.
    header_words: usize,
    /// Index of the argument count in the header.
    arg_count_word: usize,
    /// What the header words are, for [`Problem::TooShort`].
    header: &'static str,
    /// What one argument's words are called, for [`Problem::WordCount`].
    unit: &'static str,
}

/// The header and the argument words of `words`, a descriptor of `layout`
/// with `N` words per argument, after checking its version and its length
/// against its argument count (not yet the arguments' words).
fn split<'a, const N: usize>(
    words: &'a [u64],
    layout: &Layout,
) -> Result<(&'a [u64], &'a [[u64; N]]), Problem> {
    let too_short = Problem::TooShort {
        words: words.len(),
        needed: layout.header_words,
        header: layout.header,
    };
    let Some((head, args)) = words.split_at_checked(layout.header_words) else {
        return Err(too_short);
    };
    let (Some(&version), Some(&count)) = (head.first(), head.get(layout.arg_count_word)) else {
        return Err(too_short);
    };
    if version != layout.version {
        return Err(Problem::Version {
            version,
            supported: layout.version,
        });
    }
    let expected = u128::from(count) * N as u128 + layout.header_words as u128;
    if expected != words.len() as u128 {
        return Err(Problem::WordCount {
            count,
            expected,
            words: words.len(),
            unit: layout.unit,
        });
    }
    // The length check above leaves no partial argument.
    Ok((head, args.as_chunks::<N>().0))
}
