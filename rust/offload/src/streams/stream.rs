//! [`Stream`]: an in-order queue of host work with its own worker.

use core::marker::PhantomData;
use std::boxed::Box;
use std::sync::Arc;

use super::queue::{Item, Queue, Work};
use super::{Event, StreamError};

/// An in-order queue of work (launches, device-buffer copies, any host
/// closure) that runs on its own worker thread while the host goes on;
/// created by [`Scope::stream`](super::Scope::stream). Work on one stream
/// runs in the order queued; streams run concurrently with each other.
///
/// Dropping a stream waits for its queued work (its errors are kept for
/// [`scope`](super::scope) to return); the scope waits for it anyway, so a
/// forgotten stream is harmless. A stream stays on the thread that runs the
/// scope (it is neither `Send` nor `Sync`), so queued work cannot reach
/// it.
pub struct Stream<'scope> {
    queue: Arc<Queue>,
    // Invariant in 'scope: a covariant handle could be shortened to a
    // lifetime that ends before the work runs.
    _scope: PhantomData<&'scope mut &'scope ()>,
    _not_send: PhantomData<*const ()>,
}

impl<'scope> Stream<'scope> {
    pub(super) fn new(queue: Arc<Queue>) -> Self {
        Stream {
            queue,
            _scope: PhantomData,
            _not_send: PhantomData,
        }
    }

    /// Queues `work` (typically a launch: `|| kernels::saxpy(&grid, ...)`).
    /// Its error, if any, comes back from [`synchronize`](Self::synchronize)
    /// or the scope; later work on this stream is skipped until then.
    pub fn run<F, E>(&self, work: F)
    where
        F: FnOnce() -> Result<(), E> + Send + 'scope,
        E: Into<StreamError>,
    {
        let work: Box<dyn FnOnce() -> Result<(), StreamError> + Send + 'scope> =
            Box::new(move || work().map_err(Into::into));
        // SAFETY: only the lifetime changes. The work runs (or is dropped)
        // on this stream's worker, or here, before `scope` returns: `scope`
        // closes and drains every queue and joins every worker before it
        // returns or unwinds, and the work borrows nothing shorter than
        // 'scope, which lasts until then.
        let work: Work = unsafe {
            core::mem::transmute::<Box<dyn FnOnce() -> Result<(), StreamError> + Send + 'scope>, Work>(
                work,
            )
        };
        self.queue.push(Item::Run(work));
    }

    /// Records an event: complete when the work queued so far has run.
    pub fn record(&self) -> Event {
        let (event, state) = Event::new();
        self.queue.push(Item::Record(state));
        event
    }

    /// Makes the work queued after this wait until `event` (of any stream)
    /// is complete.
    pub fn wait_event(&self, event: &Event) {
        self.queue.push(Item::Wait(event.state().clone()));
    }

    /// Blocks until all work queued on this stream has run; `Err` with the
    /// first error since the last `synchronize` (the work after it was
    /// skipped; the stream runs new work again).
    pub fn synchronize(&self) -> Result<(), StreamError> {
        self.queue.synchronize()
    }
}

impl Drop for Stream<'_> {
    fn drop(&mut self) {
        // Waits; the error stays for the scope.
        if let Err(error) = self.queue.synchronize() {
            self.queue.keep_error(error);
        }
    }
}
