//! Fuzzing `#[kernel]` and `#[derive(DeviceCopy)]` in-process: random items
//! ([`items`]) through the expansion entry points ([`crate::entry`]) under
//! `catch_unwind`, judged by [`oracle`]. A short run with a fixed seed is a
//! normal test; the long run and the dump for the rustc check
//! (`fuzz/macro_compile.py`) are `#[ignore]`d tests driven by environment
//! variables (fuzz/README.md, section 3).

mod items;
mod oracle;
mod regressions;
mod rng;
mod types;

use std::collections::BTreeMap;

use proc_macro2::TokenStream;

use crate::entry;
use items::Case;
use oracle::Outcome;
use rng::Rng;

/// Which macro a case goes through.
#[derive(Clone, Copy)]
enum Macro {
    Kernel,
    DeriveDeviceCopy,
}

impl Macro {
    fn generate(self, rng: &mut Rng) -> Case {
        match self {
            Macro::Kernel => items::kernel(rng),
            Macro::DeriveDeviceCopy => items::derive_input(rng),
        }
    }

    /// The case through the macro, judged; `None` if its text does not
    /// lex (rustc would stop before the macro).
    fn check(self, case: &Case) -> Option<Result<Outcome, String>> {
        let item: TokenStream = case.item.parse().ok()?;
        let attr: TokenStream = case.attr.parse().ok()?;
        Some(match self {
            Macro::Kernel => oracle::run(&item.clone(), || entry::kernel(attr, item)),
            Macro::DeriveDeviceCopy => {
                oracle::run(&item.clone(), || entry::derive_device_copy(item))
            }
        })
    }
}

/// The counts of a campaign: expansions, refusals by message, failures.
#[derive(Default)]
struct Tally {
    cases: usize,
    unlexed: usize,
    expanded: usize,
    refused: BTreeMap<String, usize>,
    failures: Vec<String>,
}

/// Case `i` of `seed`: its own generator state, so one case is reproduced
/// from `(seed, i)` alone.
fn case_rng(seed: u64, i: u64) -> Rng {
    Rng::new(seed ^ i.wrapping_mul(0x2545_f491_4f6c_dd1d))
}

fn campaign(which: Macro, seed: u64, cases: u64) -> Tally {
    let mut tally = Tally::default();
    for i in 0..cases {
        let case = which.generate(&mut case_rng(seed, i));
        tally.cases += 1;
        match which.check(&case) {
            None => tally.unlexed += 1,
            Some(Ok(Outcome::Expanded)) => tally.expanded += 1,
            Some(Ok(Outcome::Refused(message))) => {
                let key: String = message.chars().take(70).collect();
                *tally.refused.entry(key).or_default() += 1;
            }
            Some(Err(failure)) => tally.failures.push(format!(
                "case {i} of seed {seed}: {failure}\n  attr: {}\n  item: {}",
                case.attr, case.item
            )),
        }
    }
    tally
}

fn report(name: &str, tally: &Tally) {
    let refused: usize = tally.refused.values().sum();
    println!(
        "{name}: {} cases, {} expanded, {refused} refused, {} did not lex, {} failed",
        tally.cases,
        tally.expanded,
        tally.unlexed,
        tally.failures.len()
    );
    let mut by_count: Vec<_> = tally.refused.iter().collect();
    by_count.sort_by(|a, b| b.1.cmp(a.1));
    for (message, count) in by_count {
        println!("  {count:6}  {message}");
    }
    for failure in tally.failures.iter().take(20) {
        println!("FAIL {failure}");
    }
}

fn env_u64(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn run_both(seed: u64, cases: u64) {
    let mut failed = 0;
    for (name, which) in [
        ("kernel", Macro::Kernel),
        ("derive", Macro::DeriveDeviceCopy),
    ] {
        let tally = campaign(which, seed, cases);
        report(name, &tally);
        failed += tally.failures.len();
        assert!(
            tally.expanded > 0,
            "{name}: the generator never got past the checks"
        );
    }
    assert_eq!(failed, 0, "the macros broke the rule (see above)");
}

/// The short run CI does: a fixed seed, a few hundred items per macro.
#[test]
fn short_campaign() {
    run_both(0x00ff_10ad, 400);
}

/// The long run: `OFFLOAD_MACROS_FUZZ_CASES` items per macro (default
/// 10,000) from `OFFLOAD_MACROS_FUZZ_SEED` (default 1).
#[test]
#[ignore = "long; run with --ignored (fuzz/README.md)"]
fn long_campaign() {
    let seed = env_u64("OFFLOAD_MACROS_FUZZ_SEED", 1);
    run_both(seed, env_u64("OFFLOAD_MACROS_FUZZ_CASES", 10_000));
}

/// Writes the cases for fuzz/macro_compile.py: one line of JSON per case
/// (macro, index, attr, item, what the macro made of it) to the file
/// `OFFLOAD_MACROS_FUZZ_DUMP`.
#[test]
#[ignore = "writes the cases for fuzz/macro_compile.py"]
fn dump_cases() {
    let Ok(path) = std::env::var("OFFLOAD_MACROS_FUZZ_DUMP") else {
        return;
    };
    let seed = env_u64("OFFLOAD_MACROS_FUZZ_SEED", 1);
    let cases = env_u64("OFFLOAD_MACROS_FUZZ_CASES", 500);
    let mut out = String::new();
    for (name, which) in [
        ("kernel", Macro::Kernel),
        ("derive", Macro::DeriveDeviceCopy),
    ] {
        for i in 0..cases {
            let case = which.generate(&mut case_rng(seed, i));
            let verdict = match which.check(&case) {
                None => "unlexed".to_owned(),
                Some(Ok(Outcome::Expanded)) => "expanded".to_owned(),
                Some(Ok(Outcome::Refused(m))) => format!("refused: {m}"),
                Some(Err(f)) => format!("failed: {f}"),
            };
            out.push_str(&format!(
                "{{\"macro\": \"{name}\", \"index\": {i}, \"attr\": {}, \"item\": {}, \"verdict\": {}}}\n",
                json(&case.attr),
                json(&case.item),
                json(&verdict)
            ));
        }
    }
    std::fs::write(&path, out).expect("writing the dump");
}

/// A JSON string literal.
fn json(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
    out
}
