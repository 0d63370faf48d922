//! The v1 form: a direct call of the kernel's declaration, described by a
//! global or by call metadata, the grid fixed in the descriptor.
//!
//! ```text
//! [0] 1, [1] [2] [3] teams x, y, z, [4] [5] [6] threads x, y, z,
//! [7] dynamic shared memory, [8] A,
//! [9+3i] MAP, [10+3i] SIZE, [11+3i] LEN of argument i
//! ```

use super::{Layout, Problem, check_map, check_size, split};

/// The layout version (word 0).
pub const LAYOUT_VERSION: u64 = 1;
/// Name prefix of the descriptor globals: `@__offload_launch.K`.
pub const SYMBOL_PREFIX: &str = "__offload_launch.";
/// Call metadata holding a descriptor (`!offload.launch`).
pub const METADATA: &str = "offload.launch";
/// Index of the argument count.
pub const ARG_COUNT_WORD: usize = 8;
/// Words before the argument triples: version, teams x3, threads x3,
/// dynamic memory, argument count.
pub const HEADER_WORDS: usize = ARG_COUNT_WORD + 1;
/// Words per argument: MAP, SIZE, LEN.
pub const WORDS_PER_ARG: usize = 3;

const LAYOUT: Layout = Layout {
    version: LAYOUT_VERSION,
    header_words: HEADER_WORDS,
    arg_count_word: ARG_COUNT_WORD,
    header: "version, teams x3, threads x3, dynamic memory, argument count",
    unit: "triples",
};

/// One argument's words (zeros: infer).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Arg {
    /// The map type ([`crate::map_type`]; 0: inferred).
    pub map: u64,
    /// Bytes (of one element when `len_arg` is given; 0: inferred).
    pub size: u64,
    /// Index of the argument holding the element count (LEN - 1).
    pub len_arg: Option<u32>,
}

impl Arg {
    fn words(self) -> [u64; WORDS_PER_ARG] {
        let len = self.len_arg.map_or(0, |i| u64::from(i) + 1);
        [self.map, self.size, len]
    }

    /// Argument `arg`'s words, checked.
    fn decode(arg: usize, [map, size, len]: [u64; WORDS_PER_ARG]) -> Result<Arg, Problem> {
        check_map(arg, map)?;
        check_size(arg, size)?;
        let len_arg = match len {
            0 => None,
            n => Some(u32::try_from(n - 1).map_err(|_| Problem::LengthIndex { arg, len })?),
        };
        Ok(Arg { map, size, len_arg })
    }
}

/// The launch a v1 descriptor fixes at compile time.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Header {
    /// Teams per dimension (0 in x: the pass's `teams=`).
    pub teams: [u32; 3],
    /// Threads per team per dimension (0 in x: the pass's `threads=`).
    pub threads: [u32; 3],
    /// Bytes of dynamic shared memory per team the runtime is asked for.
    pub dyn_cgroup_mem: u32,
}

/// A decoded v1 descriptor: its header and its checked argument words.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Descriptor<'a> {
    /// The launch the descriptor fixes.
    pub header: Header,
    arg_words: &'a [[u64; WORDS_PER_ARG]],
}

impl<'a> Descriptor<'a> {
    /// The arguments' words, in order (none: infer every argument).
    pub fn args(&self) -> impl ExactSizeIterator<Item = Arg> + 'a {
        // `decode` checked every argument: none is the default.
        self.arg_words
            .iter()
            .enumerate()
            .map(|(i, &words)| Arg::decode(i, words).unwrap_or_default())
    }
}

/// The words of a descriptor of the launch `header` with `args`.
pub fn encode(header: Header, args: &[Arg]) -> impl Iterator<Item = u64> + '_ {
    let (t, h) = (header.teams, header.threads);
    let header: [u64; HEADER_WORDS] = [
        LAYOUT_VERSION,
        t[0].into(),
        t[1].into(),
        t[2].into(),
        h[0].into(),
        h[1].into(),
        h[2].into(),
        header.dyn_cgroup_mem.into(),
        args.len() as u64,
    ];
    header
        .into_iter()
        .chain(args.iter().flat_map(|a| a.words()))
}

/// Decodes a v1 descriptor, checking every word.
pub fn decode(words: &[u64]) -> Result<Descriptor<'_>, Problem> {
    let (head, arg_words) = split::<WORDS_PER_ARG>(words, &LAYOUT)?;
    let small = |i: usize, what: &'static str| {
        let value = head.get(i).copied().unwrap_or_default();
        u32::try_from(value).map_err(|_| Problem::TooLarge { what, value })
    };
    let header = Header {
        teams: [small(1, "teams")?, small(2, "teams")?, small(3, "teams")?],
        threads: [
            small(4, "threads")?,
            small(5, "threads")?,
            small(6, "threads")?,
        ],
        dyn_cgroup_mem: small(7, "dynamic memory")?,
    };
    for (i, &words) in arg_words.iter().enumerate() {
        Arg::decode(i, words)?;
    }
    Ok(Descriptor { header, arg_words })
}
