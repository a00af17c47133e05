//! Stopping work the caller has abandoned: Python's signals checked while
//! a search runs on a thread of its own, and the flag that tells the
//! abandoned search to end. A leaf: it knows nothing of the games.

use std::panic::{self, AssertUnwindSafe};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// Raises `KeyboardInterrupt` (or what a signal handler raised) if a
/// signal came since the last check.
pub fn check_signals() -> PyResult<()> {
    Python::attach(|py| py.check_signals())
}

/// Set when the call that started a search has returned without it (on
/// Ctrl-C): the abandoned search stops within its current batch of blocks
/// instead of running on to its end.
#[derive(Clone, Default)]
pub struct Stop(Arc<AtomicBool>);

impl Stop {
    fn set(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// The flag a library search watches (`Limits::stop`).
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }

    /// Where abandoned work may end: once set, unwinds with [`Abandoned`]
    /// (`resume_unwind` runs no panic hook: nothing is printed), which
    /// [`run_interruptible`] catches where the work's thread starts.
    pub fn check(&self) {
        if self.0.load(Ordering::Relaxed) {
            panic::resume_unwind(Box::new(Abandoned));
        }
    }
}

/// The payload an abandoned search unwinds with: caught where the search
/// thread starts ([`run_interruptible`]), never shown.
struct Abandoned;

/// Runs `work` on a thread of its own and waits for it, checking for
/// signals every 50 ms: for the work that cannot check for signals itself
/// (the K-state search, an analysis, a nullity table). On Ctrl-C the call
/// raises at once and sets the work's [`Stop`]: a K-state search stops
/// within its current batch of blocks, a nullity table at its next row; an
/// analysis, which has no such stop, runs on to its end and its result is
/// dropped.
///
/// The work gets a thread pool of its own, as many threads as the global
/// one: abandoned, it would otherwise hold the global pool's threads, and
/// every later call would wait for it to end (found by the test suite: a
/// small batch after an interrupted 38x38 search over Z_3 took a minute).
/// Abandoned on its own pool, it only shares the cores until it ends.
pub fn run_interruptible<T: Send + 'static>(work: impl FnOnce(&Stop) -> T + Send + 'static) -> PyResult<T> {
    let failed = |e: String| PyRuntimeError::new_err(format!("cannot start a search thread: {e}"));
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(rayon::current_num_threads())
        .thread_name(|i| format!("lightsout-search-{i}"))
        .build()
        .map_err(|e| failed(e.to_string()))?;
    let (tx, rx) = mpsc::channel();
    let stop = Stop::default();
    let stopped = stop.clone();
    std::thread::Builder::new()
        .name("lightsout-search".into())
        .spawn(move || match panic::catch_unwind(AssertUnwindSafe(|| pool.install(|| work(&stopped)))) {
            Ok(value) => {
                let _ = tx.send(value);
            }
            // Abandoned: no one waits for the answer.
            Err(payload) if payload.is::<Abandoned>() => {}
            Err(payload) => panic::resume_unwind(payload),
        })
        .map_err(|e| failed(e.to_string()))?;
    loop {
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(value) => return Ok(value),
            Err(RecvTimeoutError::Timeout) => {
                if let Err(signal) = check_signals() {
                    stop.set();
                    return Err(signal);
                }
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(PyRuntimeError::new_err(
                    "internal error: the search thread ended without an answer",
                ));
            }
        }
    }
}
