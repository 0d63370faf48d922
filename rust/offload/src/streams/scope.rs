//! [`scope`]: where streams live; it ends when all their work has run.

use core::cell::RefCell;
use core::marker::PhantomData;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::Arc;
use std::thread::{Builder, JoinHandle};
use std::vec::Vec;

use super::queue::Queue;
use super::{Stream, StreamError};

/// Runs `f` with a [`Scope`] in which it creates [`Stream`]s, then waits
/// until every stream has run all the work queued on it, and returns `f`'s
/// result, or the first error of queued work that no
/// [`Stream::synchronize`] returned. A panic of `f` or of queued work is
/// resumed here, after the streams have finished.
///
/// Work queued on a stream may borrow anything that outlives the scope
/// (as with `std::thread::scope`), so the host cannot use that data again
/// until the scope has returned, and nothing a closure does with the
/// handles (dropping or `mem::forget`ting them) ends the wait early.
///
/// ```no_run
/// # use offload::{kernel, Launch};
/// # #[kernel] pub fn scale(a: f32, x: offload::InOut<'_, [f32]>) {}
/// # fn main() -> Result<(), Box<dyn std::error::Error>> {
/// let (mut x, mut y) = (vec![1.0f32; 1 << 20], vec![2.0f32; 1 << 20]);
/// let grid = Launch::grid(256, 256);
/// offload::scope(|s| {
///     let (a, b) = (s.stream(), s.stream());
///     a.run(|| scale(&grid, 2.0, &mut x));   // these two run at the same time
///     b.run(|| scale(&grid, 0.5, &mut y));
/// })?;                                       // both done here
/// assert_eq!((x[0], y[0]), (2.0, 1.0));
/// # Ok(()) }
/// ```
pub fn scope<'env, F, R>(f: F) -> Result<R, StreamError>
where
    F: for<'scope> FnOnce(&'scope Scope<'scope, 'env>) -> R,
{
    let scope = Scope {
        queues: RefCell::new(Vec::new()),
        workers: RefCell::new(Vec::new()),
        _scope: PhantomData,
        _env: PhantomData,
    };
    let result = catch_unwind(AssertUnwindSafe(|| f(&scope)));
    // Whatever `f` did, every queue is drained before the borrows end.
    let queues = scope.finish();
    let result = result.unwrap_or_else(|panic| resume_unwind(panic));
    let mut first = None;
    for queue in &queues {
        if let Some(panic) = queue.take_panic() {
            resume_unwind(panic);
        }
        if let Err(error) = queue.synchronize() {
            first.get_or_insert(error);
        }
    }
    first.map_or(Ok(result), Err)
}

/// Where [`Stream`]s are created (see [`scope`]): `'scope` is how long
/// their work may borrow, `'env` what it borrows from.
pub struct Scope<'scope, 'env: 'scope> {
    queues: RefCell<Vec<Arc<Queue>>>,
    workers: RefCell<Vec<JoinHandle<()>>>,
    // Invariant, as `std::thread::Scope`'s.
    _scope: PhantomData<&'scope mut &'scope ()>,
    _env: PhantomData<&'env mut &'env ()>,
}

impl<'scope> Scope<'scope, '_> {
    /// A new stream: an in-order queue with its own worker thread (where
    /// the system has no thread left for it, its work runs when queued).
    pub fn stream(&'scope self) -> Stream<'scope> {
        let queue = Arc::new(Queue::default());
        let worker = queue.clone();
        let spawned = Builder::new()
            .name("offload-stream".into())
            .spawn(move || worker.work());
        match spawned {
            Ok(handle) => self.workers.borrow_mut().push(handle),
            // No worker: closed, the queue runs each item as it is pushed.
            Err(_) => queue.close(),
        }
        self.queues.borrow_mut().push(queue.clone());
        Stream::new(queue)
    }

    /// Closes every queue and joins every worker (each drains its queue
    /// first); returns the queues.
    fn finish(&self) -> Vec<Arc<Queue>> {
        let queues = self.queues.take();
        for queue in &queues {
            queue.close();
        }
        for worker in self.workers.take() {
            // A worker catches its work's panics, so it never panics itself.
            let _ = worker.join();
        }
        queues
    }
}
