//! [`Event`]: a point in a stream's queue, and when the stream reached it.

use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::time::{Duration, Instant};

/// A point in a [`Stream`](super::Stream)'s queue
/// ([`Stream::record`](super::Stream::record)): complete once the stream
/// has finished all work queued before it, with the time it did.
///
/// Times are taken from the host's monotonic clock when the stream reaches
/// the event, so the events of one stream are in order and
/// [`elapsed`](Self::elapsed) between them is never negative. An event
/// holds no borrow: it may outlive its scope (it is complete by then).
#[derive(Clone, Debug)]
pub struct Event {
    state: Arc<EventState>,
}

#[derive(Debug, Default)]
pub(super) struct EventState {
    reached: Mutex<Option<Instant>>,
    done: Condvar,
}

impl EventState {
    /// Marks the event reached now.
    pub(super) fn complete(&self) {
        let mut reached = self.reached.lock().unwrap_or_else(PoisonError::into_inner);
        reached.get_or_insert_with(Instant::now);
        self.done.notify_all();
    }

    /// Blocks until the event is reached; returns when.
    pub(super) fn wait(&self) -> Instant {
        let mut reached = self.reached.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(at) = *reached {
                return at;
            }
            reached = self
                .done
                .wait(reached)
                .unwrap_or_else(PoisonError::into_inner);
        }
    }
}

impl Event {
    pub(super) fn new() -> (Event, Arc<EventState>) {
        let state = Arc::new(EventState::default());
        (
            Event {
                state: state.clone(),
            },
            state,
        )
    }

    pub(super) fn state(&self) -> &Arc<EventState> {
        &self.state
    }

    /// Blocks until the stream has reached the event.
    pub fn synchronize(&self) {
        self.state.wait();
    }

    /// Whether the stream has reached the event (does not block).
    pub fn is_complete(&self) -> bool {
        self.state
            .reached
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .is_some()
    }

    /// When the stream reached the event (blocks until it has).
    pub fn time(&self) -> Instant {
        self.state.wait()
    }

    /// The time from this event to `end` (blocks until both are reached;
    /// zero if `end` was reached first, as an event of another stream may
    /// be).
    pub fn elapsed(&self, end: &Event) -> Duration {
        end.time().saturating_duration_since(self.time())
    }
}
