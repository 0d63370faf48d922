//! The stream machinery on plain host work (no runtime needed): order,
//! concurrency, events, errors, panics, and that every queued closure is
//! run or dropped before `scope` returns.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Barrier};
use std::thread::sleep;
use std::time::Duration;
use std::vec::Vec;

use super::{StreamError, scope};
use crate::{BufferError, BufferProblem};

fn failure(op: &'static str) -> BufferError {
    BufferError {
        op,
        device: 0,
        bytes: 4,
        problem: BufferProblem::RuntimeFailed(-1),
    }
}

#[test]
fn one_stream_runs_in_order_and_the_scope_waits() {
    let mut order = Vec::new();
    scope(|s| {
        let stream = s.stream();
        let order = &mut order;
        stream.run(move || {
            for i in 0..100 {
                if i % 10 == 0 {
                    sleep(Duration::from_millis(1));
                }
                order.push(i);
            }
            Ok::<_, StreamError>(())
        });
    })
    .unwrap();
    assert_eq!(order, (0..100).collect::<Vec<_>>());
}

#[test]
fn two_streams_run_at_the_same_time() {
    // Each work waits for the other at the barrier: only concurrent
    // streams get past it.
    let barrier = Barrier::new(2);
    let met = AtomicUsize::new(0);
    scope(|s| {
        let (a, b) = (s.stream(), s.stream());
        for stream in [&a, &b] {
            stream.run(|| {
                barrier.wait();
                met.fetch_add(1, Ordering::SeqCst);
                Ok::<_, StreamError>(())
            });
        }
    })
    .unwrap();
    assert_eq!(met.load(Ordering::SeqCst), 2);
}

#[test]
fn events_are_monotonic_and_time_the_work_between_them() {
    scope(|s| {
        let stream = s.stream();
        let start = stream.record();
        stream.run(|| {
            sleep(Duration::from_millis(20));
            Ok::<_, StreamError>(())
        });
        let end = stream.record();
        let later = stream.record();
        end.synchronize();
        assert!(start.is_complete() && end.is_complete());
        assert!(start.elapsed(&end) >= Duration::from_millis(20));
        assert!(start.time() <= end.time() && end.time() <= later.time());
        // Backwards is zero, never negative.
        assert_eq!(later.elapsed(&start), Duration::ZERO);
    })
    .unwrap();
}

#[test]
fn a_stream_waits_for_another_streams_event() {
    let flag = AtomicUsize::new(0);
    let seen = AtomicUsize::new(usize::MAX);
    scope(|s| {
        let (a, b) = (s.stream(), s.stream());
        a.run(|| {
            sleep(Duration::from_millis(30));
            flag.store(1, Ordering::SeqCst);
            Ok::<_, StreamError>(())
        });
        let done = a.record();
        b.wait_event(&done);
        b.run(|| {
            seen.store(flag.load(Ordering::SeqCst), Ordering::SeqCst);
            Ok::<_, StreamError>(())
        });
    })
    .unwrap();
    assert_eq!(seen.load(Ordering::SeqCst), 1);
}

#[test]
fn dropping_or_forgetting_a_stream_with_pending_work_still_runs_it() {
    let (dropped, forgotten) = (AtomicUsize::new(0), AtomicUsize::new(0));
    scope(|s| {
        let stream = s.stream();
        stream.run(|| {
            sleep(Duration::from_millis(20));
            dropped.store(1, Ordering::SeqCst);
            Ok::<_, StreamError>(())
        });
        drop(stream);
        // Dropping waited.
        assert_eq!(dropped.load(Ordering::SeqCst), 1);
        let stream = s.stream();
        stream.run(|| {
            sleep(Duration::from_millis(20));
            forgotten.store(1, Ordering::SeqCst);
            Ok::<_, StreamError>(())
        });
        core::mem::forget(stream);
    })
    .unwrap();
    // The scope waited for the forgotten stream's work.
    assert_eq!(forgotten.load(Ordering::SeqCst), 1);
}

#[test]
fn an_error_skips_later_work_until_synchronize_returns_it() {
    let ran = AtomicUsize::new(0);
    let result = scope(|s| {
        let stream = s.stream();
        stream.run(|| Err(failure("first")));
        stream.run(|| {
            ran.fetch_add(1, Ordering::SeqCst);
            Ok::<_, StreamError>(())
        });
        let error = stream.synchronize().unwrap_err();
        assert_eq!(error, StreamError::Buffer(failure("first")));
        // Running again; an error nobody collects comes back from the scope.
        stream.run(|| {
            ran.fetch_add(10, Ordering::SeqCst);
            Ok::<_, StreamError>(())
        });
        stream.run(|| Err(failure("second")));
        7
    });
    assert_eq!(result, Err(StreamError::Buffer(failure("second"))));
    assert_eq!(ran.load(Ordering::SeqCst), 10);
}

#[test]
fn a_panic_in_queued_work_is_resumed_by_the_scope() {
    let after = AtomicUsize::new(0);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        scope(|s| {
            let stream = s.stream();
            stream.run(|| -> Result<(), StreamError> { panic!("kernel wrapper") });
            stream.run(|| {
                after.store(1, Ordering::SeqCst);
                Ok::<_, StreamError>(())
            });
            assert_eq!(stream.synchronize(), Err(StreamError::Panicked));
        })
    }));
    let payload = outcome.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"kernel wrapper"));
    assert_eq!(after.load(Ordering::SeqCst), 0);
}

#[test]
fn ten_thousand_queued_closures_are_all_run_and_freed() {
    let token = Arc::new(());
    let count = AtomicUsize::new(0);
    scope(|s| {
        let (a, b) = (s.stream(), s.stream());
        for i in 0..10_000 {
            let held = token.clone();
            let stream = if i % 2 == 0 { &a } else { &b };
            stream.run(|| {
                let _held = held;
                count.fetch_add(1, Ordering::SeqCst);
                Ok::<_, StreamError>(())
            });
            if i % 1000 == 0 {
                stream.record();
            }
        }
    })
    .unwrap();
    assert_eq!(count.load(Ordering::SeqCst), 10_000);
    // Every closure (and the token it held) was dropped.
    assert_eq!(Arc::strong_count(&token), 1);
}

#[test]
fn skipped_work_that_panics_when_dropped_leaves_the_stream_working() {
    struct PanicOnDrop;
    impl Drop for PanicOnDrop {
        fn drop(&mut self) {
            panic!("dropped");
        }
    }
    let ran = AtomicUsize::new(0);
    let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        scope(|s| {
            let stream = s.stream();
            stream.run(|| Err(failure("first")));
            let guard = PanicOnDrop;
            stream.run(move || {
                let _guard = &guard;
                Ok::<_, StreamError>(())
            });
            assert_eq!(
                stream.synchronize(),
                Err(StreamError::Buffer(failure("first")))
            );
            stream.run(|| {
                ran.store(1, Ordering::SeqCst);
                Ok::<_, StreamError>(())
            });
        })
    }));
    // The stream ran on; the drop's panic is resumed by the scope.
    assert_eq!(ran.load(Ordering::SeqCst), 1);
    let payload = outcome.unwrap_err();
    assert_eq!(payload.downcast_ref::<&str>(), Some(&"dropped"));
}
