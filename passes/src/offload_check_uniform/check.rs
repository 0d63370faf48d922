//! The check: after a divergent branch, every way a thread can go reaches
//! the same next meeting point (or returns).
//!
//! For each branch on a divergent value the check follows every successor
//! to the first collective on each path (a team barrier, a warp operation,
//! or a call of a function of the module that reaches one); a path that
//! returns or ends in `unreachable` first contributes nothing (threads that
//! returned leave the team). Paths that go around a loop the branch does
//! not exit meet "the next iteration" of that loop. When the successors
//! reach two different meeting points, the threads of one team (or warp)
//! would wait at different places: an error naming both and the branch.
//!
//! This accepts, with no special case, barriers after early returns
//! (`if i >= n { return }`), grid-stride loops followed by a barrier (the
//! loop's exit is divergent, but the body leads back to the same exit) and
//! branches around plain code between two barriers.

use std::collections::{HashSet, VecDeque};

use super::divergence::{Divergence, Summaries};
use super::operations::{CallKind, Collective, UNCHECKED_PREFIX, classify, site_operand};
use crate::ir::calls::is_call_like;
use crate::ir::debug_loc::{Frame, frames};
use crate::ir::{Block, Value};

/// A meeting point, as the check compares them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum SiteKey<'ctx> {
    /// A CPU hook's source site operand, or the collective's instruction.
    Op(Value<'ctx>),
    /// The next iteration of the loop with this header block.
    NextIteration(usize),
}

/// A meeting point as the message shows it.
#[derive(Clone, Debug)]
pub struct Site<'ctx> {
    key: SiteKey<'ctx>,
    what: String,
    at: Value<'ctx>,
}

/// Two meeting points a divergent branch leads to.
#[derive(Debug)]
pub struct Mismatch {
    pub function: String,
    pub branch: Option<Frame>,
    pub first: (String, Option<Frame>),
    pub second: (String, Option<Frame>),
}

/// The collective `inst` is (by name or through a called function's
/// summary), with how a message calls it.
fn collective_at<'ctx>(inst: Value<'ctx>, summaries: &Summaries<'ctx>) -> Option<Site<'ctx>> {
    if !is_call_like(inst) {
        return None;
    }
    // An `unsafe` unchecked form the optimiser inlined (its entry point is
    // never-inlined, but a GPU backend may inline it anyway): its frame in
    // the debug location says so.
    if frames(inst)
        .iter()
        .any(|f| f.function.starts_with(UNCHECKED_PREFIX))
    {
        return None;
    }
    match classify(inst)? {
        CallKind::Collective(c) => {
            let key = SiteKey::Op(site_operand(inst).unwrap_or(inst));
            Some(Site {
                key,
                what: c.describe().to_owned(),
                at: inst,
            })
        }
        CallKind::Other => {
            let callee = crate::ir::calls::called_function(inst)?;
            let summary = summaries.get(&callee.as_function()?)?;
            summary.collective.then(|| Site {
                key: SiteKey::Op(inst),
                what: format!(
                    "a call of `{}`, which reaches {} or {}",
                    crate::ir::naming::display_symbol(&callee.name()),
                    Collective::TeamBarrier.describe(),
                    Collective::WarpOperation.describe()
                ),
                at: inst,
            })
        }
        _ => None,
    }
}

/// Checks every divergent branch of the analysed function; the first
/// mismatch found.
pub fn check<'ctx>(
    d: &Divergence<'ctx>,
    summaries: &Summaries<'ctx>,
    function: &str,
) -> Option<Mismatch> {
    let firsts: Vec<Vec<Option<Site<'ctx>>>> = (0..d.cfg.len())
        .map(|b| {
            d.cfg.blocks[b]
                .instructions()
                .into_iter()
                .map(|i| collective_at(i, summaries))
                .collect()
        })
        .collect();
    let first_in_block: Vec<Option<Site<'ctx>>> = firsts
        .into_iter()
        .map(|sites| sites.into_iter().flatten().next())
        .collect();
    // A branch whose successors each lead to one meeting point, but not
    // the same, is where threads part; a branch before it only leads there.
    let mut fallback = None;
    for &b in &d.branches {
        let mut seen: Vec<Site<'ctx>> = Vec::new();
        let mut parts_here = true;
        for &s in &d.cfg.succs[b] {
            let mut own: Vec<SiteKey<'ctx>> = Vec::new();
            for site in next_meetings(d, &first_in_block, b, s) {
                if !own.contains(&site.key) {
                    own.push(site.key);
                }
                if !seen.iter().any(|x| x.key == site.key) {
                    seen.push(site);
                }
            }
            parts_here &= own.len() <= 1;
        }
        if seen.len() >= 2 {
            let found = mismatch(d, b, &seen[0], &seen[1], function);
            if parts_here {
                return Some(found);
            }
            fallback.get_or_insert(found);
        }
    }
    fallback
}

/// The first meeting points on the paths from `b`'s successor `s`.
fn next_meetings<'ctx>(
    d: &Divergence<'ctx>,
    first_in_block: &[Option<Site<'ctx>>],
    b: usize,
    s: usize,
) -> Vec<Site<'ctx>> {
    let mut out: Vec<Site<'ctx>> = Vec::new();
    let mut seen = HashSet::new();
    let mut queue = VecDeque::new();
    let mut edge =
        |from: usize, to: usize, queue: &mut VecDeque<usize>, out: &mut Vec<Site<'ctx>>| {
            if let Some(l) = iteration_of(d, first_in_block, b, from, to) {
                let header = d.loops[l].header;
                out.push(Site {
                    key: SiteKey::NextIteration(header),
                    what: "the next iteration of the loop".to_owned(),
                    at: first_located(d.cfg.blocks[header]),
                });
            } else if seen.insert(to) {
                queue.push_back(to);
            }
        };
    edge(b, s, &mut queue, &mut out);
    while let Some(x) = queue.pop_front() {
        if let Some(site) = &first_in_block[x] {
            out.push(site.clone());
            continue;
        }
        for &y in &d.cfg.succs[x] {
            edge(x, y, &mut queue, &mut out);
        }
    }
    out
}

/// The loop whose next iteration the edge `from -> to` starts, when that
/// loop holds `b`, `b` does not exit it and it holds a meeting point (a
/// thread going around a loop without one is only later on its way).
fn iteration_of(
    d: &Divergence<'_>,
    first_in_block: &[Option<Site<'_>>],
    b: usize,
    from: usize,
    to: usize,
) -> Option<usize> {
    (0..d.loops.len()).find(|&l| {
        let lp = &d.loops[l];
        lp.header == to
            && lp.blocks[from]
            && lp.blocks[b]
            && !d.exits(b, l)
            && (0..d.cfg.len()).any(|x| lp.blocks[x] && first_in_block[x].is_some())
    })
}

/// The block's first instruction with a location (else its first).
fn first_located(block: Block<'_>) -> Value<'_> {
    let insts = block.instructions();
    insts
        .iter()
        .copied()
        .find(|&i| !frames(i).is_empty())
        .or_else(|| insts.first().copied())
        .expect("a block has a terminator")
}

fn mismatch<'ctx>(
    d: &Divergence<'ctx>,
    b: usize,
    first: &Site<'ctx>,
    second: &Site<'ctx>,
    function: &str,
) -> Mismatch {
    let branch = d.cfg.blocks[b].terminator().and_then(user_frame);
    let first_frame = user_frame(first.at);
    let function = first_frame
        .as_ref()
        .or(branch.as_ref())
        .map(|f| f.function.clone())
        .filter(|f| !f.is_empty())
        .unwrap_or_else(|| function.to_owned());
    Mismatch {
        function,
        branch,
        first: (first.what.clone(), first_frame),
        second: (second.what.clone(), user_frame(second.at)),
    }
}

/// The frame of `inst`'s location the user wrote: the innermost one
/// outside the `offload` crate and Rust's own libraries.
pub fn user_frame(inst: Value<'_>) -> Option<Frame> {
    let all = frames(inst);
    all.iter()
        .find(|f| !is_library(&format!("{}/{}", f.directory, f.file)))
        .or_else(|| all.last())
        .cloned()
}

fn is_library(file: &str) -> bool {
    let parts: Vec<&str> = file.split('/').collect();
    let offload = parts.windows(2).any(|w| {
        (w[0] == "offload"
            || w[0]
                .strip_prefix("offload-")
                .is_some_and(|v| v.starts_with(|c: char| c.is_ascii_digit())))
            && w[1] == "src"
    });
    offload
        || file.starts_with("/rustc/")
        || ["core", "alloc", "std"]
            .iter()
            .any(|l| file.contains(&format!("library/{l}/")))
}
