//! How much a hardest-board search may weigh before it gives up, and the
//! stop check it reads on the way.

use std::sync::atomic::{AtomicU64, Ordering};

/// A budget of member weighings (one member's weight updated by one
/// class), with a stop check read every so often, and a counter a caller
/// may watch, written at the same moments.
pub(crate) struct Work<'a> {
    budget: u64,
    left: u64,
    since_check: u64,
    stop: &'a (dyn Fn() -> bool + Sync),
    progress: Option<&'a AtomicU64>,
    stopped: bool,
}

/// Weighings between two reads of the stop check: about a millisecond.
const CHECK_EVERY: u64 = 1 << 20;

impl<'a> Work<'a> {
    pub fn new(budget: u64, stop: &'a (dyn Fn() -> bool + Sync)) -> Work<'a> {
        Work { budget, left: budget, since_check: 0, stop, progress: None, stopped: false }
    }

    /// The same, writing the weighings spent so far to `progress` at every
    /// stop check (never in the hot loop).
    pub fn watched(mut self, progress: Option<&'a AtomicU64>) -> Work<'a> {
        self.progress = progress;
        self.report();
        self
    }

    /// Spends `n` weighings: false once the budget is spent or the stop
    /// check says stop (and from then on).
    pub fn spend(&mut self, n: u64) -> bool {
        if self.stopped {
            return false;
        }
        self.since_check += n;
        if self.since_check >= CHECK_EVERY {
            self.since_check = 0;
            self.report();
            if (self.stop)() {
                self.stopped = true;
                return false;
            }
        }
        match self.left.checked_sub(n) {
            Some(left) => {
                self.left = left;
                true
            }
            None => {
                self.stopped = true;
                false
            }
        }
    }

    /// Whether the work may go on.
    pub fn going(&self) -> bool {
        !self.stopped
    }

    /// Weighings spent so far.
    pub fn spent(&self) -> u64 {
        self.budget - self.left
    }

    /// Writes the weighings spent to the watched counter, if any.
    pub fn report(&self) {
        if let Some(progress) = self.progress {
            progress.store(self.spent(), Ordering::Relaxed);
        }
    }
}
