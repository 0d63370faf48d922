//! The launch descriptors: the `u64` words a front end writes to say what
//! the IR cannot (sizes, map types and, in v1, the grid).
//!
//! ```text
//! v1  @__offload_launch.K = [version 1, teams x3, threads x3, dynamic memory, A,
//!                            A x (MAP, SIZE, LEN)]   (LEN: argument index + 1, 0: none)
//! v2  __offload_launch2.K(descriptor, config, K's arguments...), descriptor =
//!     [version 2, image digest (0: not checked), A, A x (MAP, SIZE)]
//! ```
//!
//! A zero MAP or SIZE asks the lowering to infer it.

use crate::map_type;

/// The largest SIZE a descriptor word or a config's sizes entry may give: a
/// mapping of 2^63 bytes or more is refused (at compile time for a
/// descriptor, by the launch at run time for a config).
pub const MAX_SIZE: u64 = i64::MAX as u64;

/// The bits a descriptor's MAP word may contain.
pub const ACCEPTED_MAP: u64 =
    map_type::TO | map_type::FROM | map_type::LITERAL | map_type::IMPLICIT;

/// The v1 form: a direct call of the kernel's declaration, described by a
/// global or by call metadata.
pub mod v1 {
    /// The layout version (word 0).
    pub const LAYOUT_VERSION: u64 = 1;
    /// Name prefix of the descriptor globals: `@__offload_launch.K`.
    pub const SYMBOL_PREFIX: &str = "__offload_launch.";
    /// Call metadata holding a descriptor (`!offload.launch`).
    pub const METADATA: &str = "offload.launch";
    /// Words before the argument triples: version, teams x3, threads x3,
    /// dynamic memory, argument count.
    pub const HEADER_WORDS: usize = 9;
    /// Index of the argument count.
    pub const ARG_COUNT_WORD: usize = 8;
    /// Words per argument: MAP, SIZE, LEN.
    pub const WORDS_PER_ARG: usize = 3;
}

/// The v2 form: a call of `__offload_launch2.K` whose first two arguments
/// are the descriptor and the [`LaunchConfig`](crate::LaunchConfig).
pub mod v2 {
    /// The layout version (word 0).
    pub const LAYOUT_VERSION: u64 = 2;
    /// Name prefix of the launch function: `@"__offload_launch2.K"`.
    pub const LAUNCH_PREFIX: &str = "__offload_launch2.";
    /// Words before the argument pairs: version, image digest, argument count.
    pub const HEADER_WORDS: usize = 3;
    /// Index of the image digest ([`crate::digest`]).
    pub const DIGEST_WORD: usize = 1;
    /// Index of the argument count.
    pub const ARG_COUNT_WORD: usize = 2;
    /// Words per argument: MAP, SIZE.
    pub const WORDS_PER_ARG: usize = 2;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn headers_end_with_the_argument_count() {
        assert_eq!(v1::ARG_COUNT_WORD + 1, v1::HEADER_WORDS);
        assert_eq!(v2::ARG_COUNT_WORD + 1, v2::HEADER_WORDS);
        assert_eq!(ACCEPTED_MAP, 0x303);
    }
}
