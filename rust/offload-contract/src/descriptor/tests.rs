//! The descriptors' codecs: round trips, and every malformed descriptor an
//! error, never a panic (the words come from modules the passes did not
//! write).

extern crate std;
use std::vec::Vec;

use super::*;
use crate::map_type::{FROM, IMPLICIT, LITERAL, TO};

#[test]
fn headers_end_with_the_argument_count() {
    assert_eq!(v1::ARG_COUNT_WORD + 1, v1::HEADER_WORDS);
    assert_eq!(v2::ARG_COUNT_WORD + 1, v2::HEADER_WORDS);
    assert_eq!(ACCEPTED_MAP, 0x303);
}

fn v1_args() -> [v1::Arg; 3] {
    [
        v1::Arg {
            map: TO | FROM,
            size: 4,
            len_arg: Some(1),
        },
        v1::Arg::default(),
        v1::Arg {
            map: LITERAL | IMPLICIT,
            size: 8,
            len_arg: Some(u32::MAX),
        },
    ]
}

#[test]
fn v1_round_trips() {
    let header = v1::Header {
        teams: [4, 2, 1],
        threads: [64, 1, u32::MAX],
        dyn_cgroup_mem: 128,
    };
    let words: Vec<u64> = v1::encode(header, &v1_args()).collect();
    assert_eq!(
        words,
        [
            1,
            4,
            2,
            1,
            64,
            1,
            u64::from(u32::MAX),
            128,
            3,
            3,
            4,
            2,
            0,
            0,
            0,
            0x300,
            8,
            1 << 32
        ]
    );
    let decoded = v1::decode(&words).unwrap();
    assert_eq!(decoded.header, header);
    assert!(decoded.args().eq(v1_args()));
    assert_eq!(
        v1::decode(&[1, 0, 1, 1, 0, 1, 1, 0, 0])
            .unwrap()
            .args()
            .len(),
        0
    );
}

#[test]
fn v2_round_trips() {
    let args = [
        v2::Arg { map: TO, size: 0 },
        v2::Arg::default(),
        v2::Arg {
            map: LITERAL,
            size: MAX_SIZE,
        },
    ];
    let words: Vec<u64> = v2::encode(7, &args).collect();
    assert_eq!(words, [2, 7, 3, 1, 0, 0, 0, 0x100, MAX_SIZE]);
    let decoded = v2::decode(&words).unwrap();
    assert_eq!(decoded.digest, 7);
    assert!(decoded.args().eq(args));
}

#[test]
fn truncated_descriptors_are_refused() {
    assert_eq!(
        v1::decode(&[1, 0, 0]),
        Err(Problem::TooShort {
            words: 3,
            needed: 9,
            header: "version, teams x3, threads x3, dynamic memory, argument count"
        })
    );
    assert!(matches!(
        v1::decode(&[]),
        Err(Problem::TooShort { words: 0, .. })
    ));
    assert!(matches!(
        v2::decode(&[2, 0]),
        Err(Problem::TooShort { needed: 3, .. })
    ));
    // One argument declared, its words missing or cut short.
    assert_eq!(
        v1::decode(&[1, 0, 0, 0, 0, 0, 0, 0, 1]),
        Err(Problem::WordCount {
            count: 1,
            expected: 12,
            words: 9,
            unit: "triples"
        })
    );
    assert!(matches!(
        v2::decode(&[2, 0, 1, 3]),
        Err(Problem::WordCount {
            unit: "pairs",
            expected: 5,
            ..
        })
    ));
}

#[test]
fn oversized_descriptors_are_refused() {
    // More words than the count declares, and a count no slice can hold.
    assert!(matches!(
        v2::decode(&[2, 0, 1, 3, 0, 0]),
        Err(Problem::WordCount {
            count: 1,
            words: 6,
            ..
        })
    ));
    assert_eq!(
        v2::decode(&[2, 0, u64::MAX]),
        Err(Problem::WordCount {
            count: u64::MAX,
            expected: u128::from(u64::MAX) * 2 + 3,
            words: 3,
            unit: "pairs"
        })
    );
    assert_eq!(
        v1::decode(&[1, 1 << 40, 0, 0, 0, 0, 0, 0, 0]),
        Err(Problem::TooLarge {
            what: "teams",
            value: 1 << 40
        })
    );
    assert_eq!(
        v1::decode(&[1, 0, 0, 0, 0, 0, 0, 0, 1, 3, 0, 1 << 33]),
        Err(Problem::LengthIndex {
            arg: 0,
            len: 1 << 33
        })
    );
    assert!(v2::decode(&[2, 0, 1, 3, MAX_SIZE]).is_ok());
    assert_eq!(
        v2::decode(&[2, 0, 1, 3, MAX_SIZE + 1]),
        Err(Problem::SizeTooLarge {
            arg: 0,
            size: MAX_SIZE + 1
        })
    );
}

#[test]
fn garbage_words_are_refused() {
    assert_eq!(
        v1::decode(&[2, 0, 0, 0, 0, 0, 0, 0, 0]),
        Err(Problem::Version {
            version: 2,
            supported: 1
        })
    );
    assert_eq!(
        v2::decode(&[1, 0, 0]),
        Err(Problem::Version {
            version: 1,
            supported: 2
        })
    );
    assert_eq!(
        v1::decode(&[1, 0, 0, 0, 0, 0, 0, 0, 1, 0x80, 0, 0]),
        Err(Problem::MapBits { arg: 0, map: 0x80 })
    );
    assert_eq!(
        v2::decode(&[2, 0, 2, 0, 0, 0x101, 0]),
        Err(Problem::LiteralAndMapped { arg: 1, map: 0x101 })
    );
}

/// xorshift64: reproducible words, most of them small enough to reach the
/// argument checks.
fn words(state: &mut u64, n: usize) -> Vec<u64> {
    (0..n)
        .map(|_| {
            *state ^= *state << 13;
            *state ^= *state >> 7;
            *state ^= *state << 17;
            match *state % 4 {
                0 => *state,
                1 => *state % 4,
                _ => *state & 0x303,
            }
        })
        .collect()
}

/// Any words decode or are refused, and what decodes encodes back to the
/// same words.
#[test]
fn any_words_decode_or_are_refused() {
    let mut state = 0x9e37_79b9_7f4a_7c15;
    let (mut v1_ok, mut v2_ok) = (0, 0);
    for round in 0..20_000 {
        let n = round % 16;
        let mut w = words(&mut state, n);
        if let Some(first) = w.first_mut() {
            *first = 1 + (round as u64 % 2);
        }
        if let Some(count) = w.get_mut(v1::ARG_COUNT_WORD) {
            *count = (n.saturating_sub(v1::HEADER_WORDS) / v1::WORDS_PER_ARG) as u64;
        }
        if let Ok(d) = v1::decode(&w) {
            let args: Vec<_> = d.args().collect();
            assert!(v1::encode(d.header, &args).eq(w.iter().copied()), "{w:?}");
            v1_ok += 1;
        }
        if let Some(count) = w.get_mut(v2::ARG_COUNT_WORD) {
            *count = (n.saturating_sub(v2::HEADER_WORDS) / v2::WORDS_PER_ARG) as u64;
        }
        if let Ok(d) = v2::decode(&w) {
            let args: Vec<_> = d.args().collect();
            assert!(v2::encode(d.digest, &args).eq(w.iter().copied()), "{w:?}");
            v2_ok += 1;
        }
    }
    assert!(v1_ok > 50 && v2_ok > 1000, "{v1_ok} {v2_ok}");
}

#[test]
fn problems_read_as_sentences() {
    use std::string::ToString;
    assert_eq!(
        v2::decode(&[2, 0]).unwrap_err().to_string(),
        "has 2 words; at least 3 are needed (version 2, image digest, argument count)"
    );
    assert_eq!(
        Problem::MapBits { arg: 1, map: 0x80 }.to_string(),
        "argument 1: map type 0x80 has bits other than TO, FROM, LITERAL, IMPLICIT"
    );
}
