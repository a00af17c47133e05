//! How much a hardest-board search may weigh before it gives up, and the
//! stop check it reads on the way.

/// A budget of member weighings (one member's weight updated by one
/// class), with a stop check read every so often.
pub(crate) struct Work<'a> {
    left: u64,
    since_check: u64,
    stop: &'a (dyn Fn() -> bool + Sync),
    stopped: bool,
}

/// Weighings between two reads of the stop check: about a millisecond.
const CHECK_EVERY: u64 = 1 << 20;

impl<'a> Work<'a> {
    pub fn new(budget: u64, stop: &'a (dyn Fn() -> bool + Sync)) -> Work<'a> {
        Work { left: budget, since_check: 0, stop, stopped: false }
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
}
