//! The shared-memory checks' failures, out of line and cold: an access's
//! fast path is its compares and branches, and each message's formatting
//! (its arguments in stack slots) stays off it, so the loops a kernel's
//! accesses sit in stay small enough to optimise (on the CPU grid's
//! compiled teams above all). `#[track_caller]` keeps the access's line in
//! the message.

/// An index at or past the end of a shared view (`what`: `""` or `"tile "`).
#[cold]
#[inline(never)]
#[track_caller]
pub(super) fn index_out_of_bounds(what: &str, i: usize, len: usize) -> ! {
    panic!("offload: shared {what}index {i} out of bounds (len {len})")
}

/// A write in a read phase.
#[cold]
#[inline(never)]
#[track_caller]
pub(super) fn written_in_read_phase() -> ! {
    panic!("offload: shared memory written in a read phase (after an odd number of sync_threads)")
}

/// A write of an element another thread owns.
#[cold]
#[inline(never)]
#[track_caller]
pub(super) fn written_not_owned(i: usize) -> ! {
    panic!(
        "offload: shared element {i} written by thread rank {}, which does not own it (i % team_size() == thread_rank())",
        crate::index::thread_rank()
    )
}

/// A read in a write phase of an element another thread owns.
#[cold]
#[inline(never)]
#[track_caller]
pub(super) fn read_not_owned(i: usize) -> ! {
    panic!(
        "offload: shared element {i} read in a write phase by thread rank {}, which does not own it",
        crate::index::thread_rank()
    )
}
