//! A stream's queue and the worker thread that runs it in order.

use std::any::Any;
use std::boxed::Box;
use std::collections::VecDeque;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, PoisonError};

use super::StreamError;
use super::event::EventState;

/// Queued work, its borrows erased to `'static` by [`Queue::push`]'s
/// caller (the scope runs or drops it before they end).
pub(super) type Work = Box<dyn FnOnce() -> Result<(), StreamError> + Send>;

/// What a queue holds, in order.
pub(super) enum Item {
    /// Work to run (skipped after an error).
    Run(Work),
    /// An event to mark reached.
    Record(Arc<EventState>),
    /// Another stream's event to wait for.
    Wait(Arc<EventState>),
}

#[derive(Default)]
struct State {
    items: VecDeque<Item>,
    /// Set when the scope ends: the worker drains the queue and exits.
    closed: bool,
    /// The worker is running an item it has taken off the queue.
    busy: bool,
    /// The first error since the last synchronize.
    error: Option<StreamError>,
    /// The first panic of the stream's work, resumed when the scope ends.
    panic: Option<Box<dyn Any + Send>>,
}

/// A stream's queue, shared by its handle, its worker and its scope.
#[derive(Default)]
pub(super) struct Queue {
    state: Mutex<State>,
    /// Signalled when an item is queued or the queue is closed.
    queued: Condvar,
    /// Signalled when the worker has run an item.
    ran: Condvar,
}

impl Queue {
    fn lock(&self) -> MutexGuard<'_, State> {
        // Work runs outside the lock and its panics are caught: a poisoned
        // lock holds a consistent state.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Queues `item`; runs it here when the queue is closed (no worker
    /// left to run it).
    pub(super) fn push(&self, item: Item) {
        let mut state = self.lock();
        if state.closed {
            drop(state);
            self.run(item);
            return;
        }
        state.items.push_back(item);
        self.queued.notify_one();
    }

    /// Blocks until every queued item has run; returns (and clears) the
    /// first error since the last call.
    pub(super) fn synchronize(&self) -> Result<(), StreamError> {
        let mut state = self.lock();
        while state.busy || !state.items.is_empty() {
            state = self.ran.wait(state).unwrap_or_else(PoisonError::into_inner);
        }
        state.error.take().map_or(Ok(()), Err)
    }

    /// Keeps `error` for the scope (a dropped stream's).
    pub(super) fn keep_error(&self, error: StreamError) {
        self.lock().error.get_or_insert(error);
    }

    /// Closes the queue: the worker runs what is queued, then exits.
    pub(super) fn close(&self) {
        self.lock().closed = true;
        self.queued.notify_all();
    }

    /// The first panic of the stream's work, if any.
    pub(super) fn take_panic(&self) -> Option<Box<dyn Any + Send>> {
        self.lock().panic.take()
    }

    /// The worker: runs the queue in order until it is closed and empty.
    pub(super) fn work(&self) {
        loop {
            let item = {
                let mut state = self.lock();
                loop {
                    if let Some(item) = state.items.pop_front() {
                        state.busy = true;
                        break item;
                    }
                    if state.closed {
                        return;
                    }
                    state = self
                        .queued
                        .wait(state)
                        .unwrap_or_else(PoisonError::into_inner);
                }
            };
            self.run(item);
            self.lock().busy = false;
            self.ran.notify_all();
        }
    }

    /// Runs one item (work is skipped while an error is pending).
    fn run(&self, item: Item) {
        match item {
            Item::Record(event) => event.complete(),
            Item::Wait(event) => {
                event.wait();
            }
            Item::Run(work) => {
                if self.lock().error.is_some() {
                    // Dropped unrun: later work may depend on the failed one.
                    // What it captured may panic when dropped: kept for the
                    // scope, the worker goes on.
                    if let Err(panic) = catch_unwind(AssertUnwindSafe(move || drop(work))) {
                        self.lock().panic.get_or_insert(panic);
                    }
                    return;
                }
                let outcome = catch_unwind(AssertUnwindSafe(work));
                let mut state = self.lock();
                match outcome {
                    Ok(Ok(())) => {}
                    Ok(Err(error)) => state.error = Some(error),
                    Err(panic) => {
                        state.error = Some(StreamError::Panicked);
                        state.panic.get_or_insert(panic);
                    }
                }
            }
        }
    }
}
