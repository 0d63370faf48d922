//! Streams: in-order queues of host work (launches, copies) that run while
//! the host goes on, inside a [`scope`] that waits for all of it.
//!
//! Each [`Stream`] is a worker thread of the scope that runs its queue in
//! order; a launch queued there is the ordinary (blocking) launcher called
//! on that thread. libomptarget is thread-safe and gives every host thread
//! its own device queue (a CUDA stream or HSA queue from its pools), so
//! launches and copies queued on different streams run concurrently on a
//! GPU as far as the device allows; on libomptarget's CPU plugin a kernel
//! runs on the calling thread, so kernels of different streams run on
//! different host threads at the same time. libomptarget 22's own
//! asynchronous entry points (`__tgt_target_kernel_nowait` and friends)
//! need OpenMP target tasks from libomp, which only a compiler's OpenMP
//! lowering builds; a worker per stream gives the same ordering without
//! them.
//!
//! Soundness is `std::thread::scope`'s: queued work may borrow anything
//! that outlives the scope, and [`scope`] returns only after every stream
//! has run (or skipped) all of its work, whatever the closure does with its
//! handles (`mem::forget` of a [`Stream`] or an [`Event`] included). The
//! borrows last until the scope ends, so the host cannot touch borrowed
//! data meanwhile.

mod error;
mod event;
mod queue;
mod scope;
mod stream;

pub use error::StreamError;
pub use event::Event;
pub use scope::{Scope, scope};
pub use stream::Stream;

#[cfg(test)]
mod tests;
