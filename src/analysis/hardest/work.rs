//! How much a hardest-board search may weigh before it gives up, and the
//! stop check it reads on the way.

use std::sync::atomic::{AtomicU64, Ordering};

/// A budget of member weighings (one member's weight updated by one
/// class), with a stop check read every so often, and a counter a caller
/// may watch, added to at the same moments. Shares of it
/// ([`Work::share`]) go to other threads and come back
/// ([`Work::absorb`]).
pub(crate) struct Work<'a> {
    left: u64,
    spent: u64,
    /// Of `spent`, how much the counter has been told.
    reported: u64,
    since_check: u64,
    stop: &'a (dyn Fn() -> bool + Sync),
    progress: Option<&'a AtomicU64>,
    stopped: bool,
    /// Whether the stop check (not the budget) stopped it.
    interrupted: bool,
    /// Most weighings in a row without progress ([`Work::progressed`]),
    /// if the work has such a limit.
    patience: Option<u64>,
    /// Weighings since the last progress.
    quiet: u64,
    /// Whether the patience (not the budget) stopped it.
    stalled: bool,
}

/// Weighings between two reads of the stop check: about a millisecond.
const CHECK_EVERY: u64 = 1 << 20;

impl<'a> Work<'a> {
    pub fn new(budget: u64, stop: &'a (dyn Fn() -> bool + Sync)) -> Work<'a> {
        Work {
            left: budget,
            spent: 0,
            reported: 0,
            since_check: 0,
            stop,
            progress: None,
            stopped: false,
            interrupted: false,
            patience: None,
            quiet: 0,
            stalled: false,
        }
    }

    /// The same, stopping once `patience` weighings in a row are spent
    /// without progress: a search that has not moved for that long is
    /// unlikely to move soon, and a count (not a clock) keeps the answer
    /// the same on every machine.
    pub fn with_patience(mut self, patience: u64) -> Work<'a> {
        (self.patience, self.quiet) = (Some(patience), 0);
        self
    }

    /// The same with at most `most` weighings left.
    pub fn capped(mut self, most: u64) -> Work<'a> {
        self.left = self.left.min(most);
        self
    }

    /// Marks progress (a bound moved, or the search's own measure of
    /// progress did): the patience starts again.
    pub fn progressed(&mut self) {
        self.quiet = 0;
    }

    /// Whether the patience stopped it.
    pub fn stalled(&self) -> bool {
        self.stalled
    }

    /// The same, adding the weighings spent to `progress` (set to 0 here)
    /// at every stop check, never in the hot loop.
    pub fn watched(mut self, progress: Option<&'a AtomicU64>) -> Work<'a> {
        if let Some(progress) = progress {
            progress.store(0, Ordering::Relaxed);
        }
        self.progress = progress;
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
                (self.stopped, self.interrupted) = (true, true);
                return false;
            }
        }
        if self.patience.is_some_and(|patience| self.quiet + n > patience) {
            (self.stopped, self.stalled) = (true, true);
            return false;
        }
        match self.left.checked_sub(n) {
            Some(left) => {
                (self.left, self.spent, self.quiet) = (left, self.spent + n, self.quiet + n);
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

    /// Weighings left of the budget.
    pub fn left(&self) -> u64 {
        self.left
    }

    /// Weighings spent so far.
    pub fn spent(&self) -> u64 {
        self.spent
    }

    /// Whether the stop check says stop now (read outside the hot loop:
    /// it may read the clock).
    pub fn told_to_stop(&self) -> bool {
        (self.stop)()
    }

    /// Adds the weighings spent since the last report to the counter.
    pub fn report(&mut self) {
        if let Some(progress) = self.progress {
            progress.fetch_add(self.spent - self.reported, Ordering::Relaxed);
        }
        self.reported = self.spent;
    }

    /// A share for another thread: the same stop check, counter and
    /// patience, and what is left of the budget (the parts of one search
    /// together stay within it when its cost was checked against it first).
    pub fn share(&self) -> Work<'a> {
        Work { left: self.left, spent: 0, reported: 0, ..*self }
    }

    /// A share of `1/parts` of what is left, for one step of a search,
    /// taken back with [`Work::absorb`].
    pub fn share_of(&self, parts: u64) -> Work<'a> {
        Work { left: self.left / parts, ..self.share() }
    }

    /// Takes back a share once its thread or step is done: whether the
    /// work may still go on (a share that spent its own smaller budget, or
    /// its patience, stops only itself).
    pub fn absorb(&mut self, part: &mut Work) -> bool {
        part.report();
        self.spent += part.spent;
        self.quiet += part.spent;
        self.reported += part.spent;
        self.interrupted |= part.interrupted;
        self.stopped |= part.interrupted || self.left < part.spent;
        self.left = self.left.saturating_sub(part.spent);
        !self.stopped
    }
}
