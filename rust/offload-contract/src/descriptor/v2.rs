//! The v2 form: a call of `__offload_launch2.K` whose first two arguments
//! are the descriptor and the [`LaunchConfig`](crate::LaunchConfig).
//!
//! ```text
//! [0] 2, [1] image digest (0: no check), [2] A,
//! [3+2i] MAP of argument i, [4+2i] SIZE of argument i
//! ```

use super::{Layout, Problem, check_map, check_size, split};

/// The layout version (word 0).
pub const LAYOUT_VERSION: u64 = 2;
/// Name prefix of the launch function: `@"__offload_launch2.K"`.
pub const LAUNCH_PREFIX: &str = "__offload_launch2.";
/// Index of the image digest ([`crate::digest`]).
pub const DIGEST_WORD: usize = 1;
/// Index of the argument count.
pub const ARG_COUNT_WORD: usize = 2;
/// Words before the argument pairs: version, image digest, argument count.
pub const HEADER_WORDS: usize = ARG_COUNT_WORD + 1;
/// Words per argument: MAP, SIZE.
pub const WORDS_PER_ARG: usize = 2;

const LAYOUT: Layout = Layout {
    version: LAYOUT_VERSION,
    header_words: HEADER_WORDS,
    arg_count_word: ARG_COUNT_WORD,
    header: "version 2, image digest, argument count",
    unit: "pairs",
};

/// One argument's (MAP, SIZE) pair (zeros: infer; a SIZE of 0 may come
/// from the config's sizes at run time).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Arg {
    /// The map type ([`crate::map_type`]; 0: inferred).
    pub map: u64,
    /// Bytes (0: inferred or from the config).
    pub size: u64,
}

impl Arg {
    /// Argument `arg`'s words, checked.
    fn decode(arg: usize, [map, size]: [u64; WORDS_PER_ARG]) -> Result<Arg, Problem> {
        check_map(arg, map)?;
        check_size(arg, size)?;
        Ok(Arg { map, size })
    }
}

/// A pair is a triple without a length.
impl From<Arg> for super::v1::Arg {
    fn from(Arg { map, size }: Arg) -> Self {
        super::v1::Arg {
            map,
            size,
            len_arg: None,
        }
    }
}

/// A decoded v2 descriptor: its image digest and its checked argument words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor<'a> {
    /// The digest of the images the descriptor was written for (0: not
    /// checked).
    pub digest: u64,
    arg_words: &'a [[u64; WORDS_PER_ARG]],
}

impl<'a> Descriptor<'a> {
    /// The arguments' words, in order.
    pub fn args(&self) -> impl ExactSizeIterator<Item = Arg> + 'a {
        self.arg_words.iter().map(|&[map, size]| Arg { map, size })
    }
}

/// The words of a descriptor for images of `digest` with `args`.
pub fn encode(digest: u64, args: &[Arg]) -> impl Iterator<Item = u64> + '_ {
    let mut header = [0; HEADER_WORDS];
    header[0] = LAYOUT_VERSION;
    header[DIGEST_WORD] = digest;
    header[ARG_COUNT_WORD] = args.len() as u64;
    header
        .into_iter()
        .chain(args.iter().flat_map(|a| [a.map, a.size]))
}

/// Decodes a v2 descriptor, checking every word.
pub fn decode(words: &[u64]) -> Result<Descriptor<'_>, Problem> {
    let (head, arg_words) = split::<WORDS_PER_ARG>(words, &LAYOUT)?;
    for (i, &words) in arg_words.iter().enumerate() {
        Arg::decode(i, words)?;
    }
    Ok(Descriptor {
        digest: head.get(DIGEST_WORD).copied().unwrap_or_default(),
        arg_words,
    })
}
