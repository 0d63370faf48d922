//! The host ranges mapped on each device while regions and launches live.
//!
//! libomptarget keeps one entry per mapped host range and aborts the process
//! ("explicit extension not allowed") when a new mapping overlaps an entry
//! without lying inside it. Shared borrows may overlap (`map(&v[0..4])` and
//! `map(&v[2..6])`), so every mapping this crate makes is checked here first:
//! a range inside a live entry shares it (libomptarget counts references),
//! a range that overlaps one otherwise is an [`Overlap`] error, any other
//! range becomes an entry of its own.
//!
//! The check and libomptarget's mapping must agree on the order: a range
//! admitted inside an entry must not reach libomptarget before the entry's
//! own range does (the smaller mapping first, the larger one aborts). A
//! region maps and unmaps under the registry's lock, so an entry a region
//! holds is mapped whole in libomptarget. A launch maps inside its stub,
//! outside the lock, so an entry only launches hold is shared only by the
//! same range (whichever maps first, the other finds it present) or by a
//! later slot of the same launch (libomptarget maps a launch's slots in
//! order); any other range that meets it waits until those launches end.
//! Waiting never deadlocks: a launch holds its entries only while its
//! kernel runs, and waits only while it holds none.

use alloc::vec::Vec;
use core::fmt;
use core::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};

/// A new host range that overlaps a live mapping without lying inside it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Overlap {
    /// The device number.
    pub device: i64,
    /// The range asked for: `[start, end)` host addresses.
    pub new: (usize, usize),
    /// The live mapping it overlaps.
    pub live: (usize, usize),
}

impl fmt::Display for Overlap {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "host range {:#x}..{:#x} overlaps the range {:#x}..{:#x} mapped on device {} without lying inside it (libomptarget cannot extend a mapping); map the enclosing range once, or end the other mapping first",
            self.new.0, self.new.1, self.live.0, self.live.1, self.device
        )
    }
}

/// A host range given to a launch on one device while it lies in a region
/// (or device buffer) of another device only.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OtherDevice {
    /// The launch slot of the argument.
    pub slot: usize,
    /// The launch's device.
    pub launch: i64,
    /// The region's device.
    pub region: i64,
}

/// Why a launch's ranges were not entered.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// A range overlaps a live one without lying inside it.
    Overlap(Overlap),
    /// A range belongs to a region of another device.
    OtherDevice(OtherDevice),
}

/// A live entry: a device, a host range, how many mappings share it and
/// how many of those are regions (or device buffers).
struct Entry {
    device: i64,
    start: usize,
    end: usize,
    refs: usize,
    regions: usize,
    /// The device address of `start` while a region holds the entry (0:
    /// not known).
    device_addr: usize,
}

/// The entries of every device, and the signal that some left.
static LIVE: Mutex<Vec<Entry>> = Mutex::new(Vec::new());
static LEFT: Condvar = Condvar::new();

/// How many regions the entries hold (read without the lock: a launch
/// that could use a region holds a borrow of it, so it is counted).
static REGIONS: AtomicUsize = AtomicUsize::new(0);

fn lock() -> MutexGuard<'static, Vec<Entry>> {
    // Nothing that runs under the lock panics (the list updates, and
    // libomptarget's mapping calls of a region): a poisoned lock holds a
    // consistent list.
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

fn with_entries<R>(f: impl FnOnce(&mut Vec<Entry>) -> R) -> R {
    f(&mut lock())
}

/// Where `[start, end)` goes among `entries`: the index of the live entry
/// holding it, `None` for a new entry, or the overlap.
fn place(
    entries: &[Entry],
    device: i64,
    start: usize,
    end: usize,
) -> Result<Option<usize>, Overlap> {
    for (i, e) in entries.iter().enumerate() {
        if e.device != device || e.end <= start || end <= e.start {
            continue;
        }
        // Entries never overlap each other, so this is the only candidate.
        if e.start <= start && end <= e.end {
            return Ok(Some(i));
        }
        return Err(Overlap {
            device,
            new: (start, end),
            live: (e.start, e.end),
        });
    }
    Ok(None)
}

/// What entering a range does.
enum Admit {
    /// Share the entry at this index.
    Share(usize),
    /// A new entry.
    New,
    /// Wait until an entry that only other launches hold is gone.
    Wait,
    /// Overlaps an entry that stays (a region's, or this mapping's own).
    Refuse(Overlap),
}

/// What entering `[start, end)` on `device` does, given the entries this
/// mapping entered already (`held`, indices into `entries`).
fn admit(entries: &[Entry], device: i64, (start, end): (usize, usize), held: &[usize]) -> Admit {
    let Some((i, e)) = entries
        .iter()
        .enumerate()
        .find(|(_, e)| e.device == device && e.start < end && start < e.end)
    else {
        return Admit::New;
    };
    // libomptarget maps the entry's whole range while a region holds it,
    // or once an earlier slot of this launch has (slots map in order).
    let mapped_whole = e.regions > 0 || held.contains(&i);
    let same = e.start == start && e.end == end;
    // Entries never overlap each other, so one holding the range is the
    // only candidate.
    let inside = e.start <= start && end <= e.end;
    if same || (inside && mapped_whole) {
        Admit::Share(i)
    } else if mapped_whole {
        Admit::Refuse(Overlap {
            device,
            new: (start, end),
            live: (e.start, e.end),
        })
    } else {
        Admit::Wait
    }
}

/// Counts one more mapping of `range`: in the entry at `at`, or a new one;
/// the entry's index.
fn add(
    entries: &mut Vec<Entry>,
    device: i64,
    (start, end): (usize, usize),
    at: Option<usize>,
    region: bool,
) -> usize {
    let region = usize::from(region);
    REGIONS.fetch_add(region, Ordering::Relaxed);
    match at {
        Some(i) => {
            entries[i].refs += 1;
            entries[i].regions += region;
            i
        }
        None => {
            entries.push(Entry {
                device,
                start,
                end,
                refs: 1,
                regions: region,
                device_addr: 0,
            });
            entries.len() - 1
        }
    }
}

fn remove(entries: &mut Vec<Entry>, device: i64, (start, end): (usize, usize), region: bool) {
    if let Ok(Some(i)) = place(entries, device, start, end) {
        entries[i].refs -= 1;
        entries[i].regions -= usize::from(region);
        REGIONS.fetch_sub(usize::from(region), Ordering::Relaxed);
        if entries[i].regions == 0 {
            // Without a region libomptarget may map the range elsewhere.
            entries[i].device_addr = 0;
        }
        if entries[i].refs == 0 {
            entries.swap_remove(i);
        }
    }
}

/// The device of a region that `[start, end)` overlaps on a device other
/// than `device`, unless the range lies in a region on `device`.
fn other_region(entries: &[Entry], device: i64, start: usize, end: usize) -> Option<i64> {
    if let Ok(Some(i)) = place(entries, device, start, end)
        && entries[i].regions > 0
    {
        return None;
    }
    entries
        .iter()
        .find(|e| e.device != device && e.regions > 0 && e.start < end && start < e.end)
        .map(|e| e.device)
}

/// Host ranges entered as one mapping (a region, or a launch's arguments);
/// they leave when this is dropped.
#[must_use]
#[derive(Debug)]
pub struct Ranges {
    device: i64,
    ranges: Vec<(usize, usize)>,
    region: bool,
}

impl Ranges {
    /// Enters a region's (or device buffer's) `(address, bytes)` ranges on
    /// `device` (a number, not -1), or none and the first overlap. `map`
    /// runs once they are entered, under the registry's lock, so no other
    /// mapping of the ranges reaches libomptarget before the region's own:
    /// it makes the region's mapping, its result comes back with the ranges.
    pub fn region<R>(
        device: i64,
        ranges: impl IntoIterator<Item = (usize, usize)>,
        map: impl FnOnce() -> R,
    ) -> Result<(Ranges, R), Overlap> {
        Ranges::enter(device, ranges, true, map).map_err(|refusal| match refusal {
            Refusal::Overlap(overlap) => overlap,
            Refusal::OtherDevice(_) => unreachable!("regions are not checked for devices"),
        })
    }

    /// Enters a launch's `(address, bytes)` ranges (one per launch slot;
    /// empty ones skipped) on `device`, or none and why: an overlap, or a
    /// range that lies in a region of another device only. Waits while a
    /// range meets an entry that only other launches hold, other than as
    /// the same range (see the module's docs).
    pub fn launch(
        device: i64,
        ranges: impl IntoIterator<Item = (usize, usize)>,
    ) -> Result<Ranges, Refusal> {
        Ranges::enter(device, ranges, false, || ()).map(|(ranges, ())| ranges)
    }

    /// No ranges (what a dropped region leaves behind).
    pub fn none() -> Ranges {
        Ranges {
            device: 0,
            ranges: Vec::new(),
            region: false,
        }
    }

    fn enter<R>(
        device: i64,
        ranges: impl IntoIterator<Item = (usize, usize)>,
        region: bool,
        map: impl FnOnce() -> R,
    ) -> Result<(Ranges, R), Refusal> {
        let slots: Vec<(usize, (usize, usize))> = ranges
            .into_iter()
            .enumerate()
            .filter(|&(_, (_, bytes))| bytes > 0)
            .map(|(slot, (start, bytes))| (slot, (start, start.saturating_add(bytes))))
            .collect();
        let mut entries = lock();
        if !region {
            for &(slot, (start, end)) in &slots {
                if let Some(other) = other_region(&entries, device, start, end) {
                    return Err(Refusal::OtherDevice(OtherDevice {
                        slot,
                        launch: device,
                        region: other,
                    }));
                }
            }
        }
        while !try_enter(&mut entries, device, &slots, region)? {
            entries = LEFT.wait(entries).unwrap_or_else(PoisonError::into_inner);
        }
        let mapped = map();
        drop(entries);
        let ranges = slots.into_iter().map(|(_, range)| range).collect();
        let ranges = Ranges {
            device,
            ranges,
            region,
        };
        Ok((ranges, mapped))
    }

    /// Leaves the ranges after `unmap` has run under the registry's lock
    /// (a region's unmapping: no other mapping may reach libomptarget
    /// between the two).
    pub fn leave(mut self, unmap: impl FnOnce()) {
        let mut entries = lock();
        unmap();
        self.remove_from(&mut entries);
    }

    fn remove_from(&mut self, entries: &mut Vec<Entry>) {
        for &range in self.ranges.iter().rev() {
            remove(entries, self.device, range, self.region);
        }
        if !self.ranges.is_empty() {
            self.ranges.clear();
            LEFT.notify_all();
        }
    }
}

/// Enters every range of `slots` (`true`), or none: `false` when one must
/// wait, the refusal when one overlaps an entry that stays.
fn try_enter(
    entries: &mut Vec<Entry>,
    device: i64,
    slots: &[(usize, (usize, usize))],
    region: bool,
) -> Result<bool, Refusal> {
    let mut held = Vec::with_capacity(slots.len());
    for &(_, range) in slots {
        let at = match admit(entries, device, range, &held) {
            Admit::Share(i) => Some(i),
            Admit::New => None,
            outcome => {
                for &(_, range) in slots[..held.len()].iter().rev() {
                    remove(entries, device, range, region);
                }
                return match outcome {
                    Admit::Refuse(overlap) => Err(Refusal::Overlap(overlap)),
                    _ => Ok(false),
                };
            }
        };
        held.push(add(entries, device, range, at, region));
    }
    Ok(true)
}

impl Ranges {
    /// Records that a region's first range starts at device address
    /// `device_addr` (its entry's base follows from it), for
    /// [`direct`].
    pub fn set_device_address(&self, device_addr: usize) {
        let (Some(&(start, end)), true) = (self.ranges.first(), self.region) else {
            return;
        };
        if device_addr == 0 {
            return;
        }
        with_entries(|entries| {
            if let Ok(Some(i)) = place(entries, self.device, start, end)
                && entries[i].device_addr == 0
            {
                entries[i].device_addr = device_addr.wrapping_sub(start - entries[i].start);
            }
        });
    }
}

/// The launch slots with every pointer slot (a size other than 0) replaced
/// by its device address on `device`, if each slot's argument keeps its
/// data mapped on `device` itself (`kept`: a region or device buffer the
/// launch holds) and that mapping's device address is known; else `None`.
/// A range that merely lies in a region of another owner is no candidate:
/// that owner may end the mapping while the kernel runs. Other slots
/// (scalars, lengths, empty pointers) are kept as they are.
pub fn direct<const N: usize>(
    device: i64,
    args: &[u64; N],
    sizes: &[u64; N],
    kept: &[Option<i64>; N],
) -> Option<[u64; N]> {
    let pointers = || sizes.iter().zip(kept).filter(|&(&bytes, _)| bytes > 0);
    // Without regions (most plain launches) the lock is not taken.
    if REGIONS.load(Ordering::Relaxed) == 0
        || pointers().next().is_none()
        || pointers().any(|(_, &on)| on != Some(device))
    {
        return None;
    }
    let mut out = *args;
    with_entries(|entries| {
        for (slot, &bytes) in out.iter_mut().zip(sizes) {
            if bytes == 0 {
                continue;
            }
            let start = *slot as usize;
            let end = start.checked_add(bytes as usize)?;
            let i = place(entries, device, start, end).ok()??;
            let e = &entries[i];
            if e.regions == 0 || e.device_addr == 0 {
                return None;
            }
            *slot = e.device_addr.wrapping_add(start - e.start) as u64;
        }
        Some(out)
    })
}

impl Drop for Ranges {
    fn drop(&mut self) {
        if !self.ranges.is_empty() {
            self.remove_from(&mut lock());
        }
    }
}

#[cfg(test)]
mod tests;
