//! The member budget of a board solved for several targets ("any"): a
//! board already at one of them leaves the others little worth searching,
//! and under a work limit ([`StateSolver::with_work_limit`](super::StateSolver::with_work_limit))
//! only the targets that can still beat the lightest answer are searched.

/// What one target of several asks of the member budget.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Need {
    /// No press set reaches it: nothing to search.
    Unreachable,
    /// The board is at it already: 0 presses, and no search.
    Reached,
    /// Its coset is to be searched.
    Search,
}

/// Members (log2) an exhaustive search weighs in a few milliseconds, less
/// than a local search takes (about 0.2 s): the budget of targets that
/// cannot beat a board already at another target.
const CHEAP_LOG2: u32 = 20;

/// The budget (log2 of members) each target's search gets when one board
/// is solved for `needs`, out of 2^`budget_log2` members per target. A
/// board already at a target answers 0 there, which no other target can
/// beat: the others are searched exhaustively only where that costs
/// milliseconds (2^[`CHEAP_LOG2`] members), by a local search elsewhere.
/// Otherwise every target gets the whole budget, as a plain solve does:
/// `--max-nullity d` promises an exhaustive search of 2^d members to each
/// (a budget shared over the targets broke that promise, and the oracles'
/// proofs of minimality with it).
pub(super) fn target_budgets(needs: &[Need], budget_log2: u32) -> Vec<u32> {
    let cheap = budget_log2.min(CHEAP_LOG2);
    let reached = needs.contains(&Need::Reached);
    needs.iter().map(|&n| if reached && n != Need::Reached { cheap } else { budget_log2 }).collect()
}

/// Members (log2) the exhaustive searches of one board weigh together,
/// over all its targets, when no member budget was asked (the command
/// line without `--max-nullity`, the server without `max_nullity`): 2^26
/// members are 0.3–1 s of CPU for the K-state engine on this machine
/// (7·10^7 members a CPU-second for 9x9 over Z_128, 1–2·10^8 for K = 2, 3;
/// docs/performance.md), under a second on its two shared cores.
pub const DEFAULT_WORK_LOG2: u32 = 26;

/// Targets past the work limit that get a whole local search (about 0.2 s
/// at most each) besides their quick answer: the lightest few.
const LOCAL_TARGETS: usize = 4;

/// The budgets of [`target_budgets`] for a board at a target under a work
/// limit: the other targets (which cannot beat 0) are searched
/// exhaustively while their cosets of `members` each add up to at most
/// 2^[`CHEAP_LOG2`] members over all of them, in order; `None` (the
/// particular press set, unsearched) for the rest.
pub(super) fn cheap_after_reached(
    budgets: Vec<u32>,
    needs: &[Need],
    members: Option<u64>,
) -> Vec<Option<u32>> {
    let mut left = 1u64 << CHEAP_LOG2;
    budgets
        .into_iter()
        .zip(needs)
        .map(|(budget, &need)| match (need, members) {
            (Need::Search, Some(m)) if m <= left && m <= 1u64 << budget.min(63) => {
                left -= m;
                Some(budget)
            }
            (Need::Search, _) => None,
            _ => Some(budget),
        })
        .collect()
}

/// Which targets a board under a work limit searches past their quick
/// answers, and how: an iterator over (target, budget log2), lightest
/// quick answer first, told each new answer by [`found`](Self::found).
pub(super) struct Rationed {
    /// Reachable targets in the order they are taken: (quick answer's
    /// weight, its lower bound, index).
    order: Vec<(u64, u64, usize)>,
    next: usize,
    /// The lightest answer so far.
    best: u64,
    /// Members of each coset, `None` past 2^64.
    members: Option<u64>,
    /// Members left of the work limit.
    left: u64,
    /// Member budget (log2) of one target's exhaustive search.
    per_target: u32,
    locals: usize,
}

impl Rationed {
    /// `answers[i]`: target i's quick answer (weight, lower bound), `None`
    /// when it cannot be reached.
    pub(super) fn new(
        answers: &[Option<(u64, u64)>],
        members: Option<u64>,
        per_target: u32,
        work_log2: u32,
    ) -> Self {
        let mut order: Vec<(u64, u64, usize)> =
            answers.iter().enumerate().filter_map(|(i, a)| a.map(|(w, b)| (w, b, i))).collect();
        order.sort_unstable_by_key(|&(w, _, i)| (w, i));
        let best = order.first().map_or(u64::MAX, |o| o.0);
        let left = 1u64 << work_log2.min(super::minimum::MAX_MEMBERS_LOG2);
        Rationed { order, next: 0, best, members, left, per_target, locals: 0 }
    }

    /// A search of a target answered `weight`.
    pub(super) fn found(&mut self, weight: u64) {
        self.best = self.best.min(weight);
    }
}

impl Iterator for Rationed {
    type Item = (usize, u32);

    /// The next target worth searching: its bound below the lightest answer
    /// so far (else no press set of it is lighter, and its quick answer
    /// stands), with its whole member budget where its coset fits what is
    /// left of the limit, 0 (a local search) for the first few that do not.
    fn next(&mut self) -> Option<(usize, u32)> {
        while let Some(&(weight, bound, i)) = self.order.get(self.next) {
            self.next += 1;
            if bound >= self.best || bound >= weight {
                continue;
            }
            let per_target = 1u64 << self.per_target.min(super::minimum::MAX_MEMBERS_LOG2);
            match self.members {
                Some(m) if m <= self.left && m <= per_target => {
                    self.left -= m;
                    return Some((i, self.per_target));
                }
                _ if self.locals < LOCAL_TARGETS => {
                    self.locals += 1;
                    return Some((i, 0));
                }
                _ => {}
            }
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::Need::{Reached, Search, Unreachable};
    use super::*;

    /// Issue 25 item 6: `-r 7 -c 9 --states 5 --rule king --torus -g
    /// all-black` (every cell at 1: at target 1 already) searched each of
    /// the five targets' 6.1·10^9 members, each within the budget of 2^36
    /// (247 s). A board at a target now leaves only cheap searches to the
    /// others; a board at none gives each target the whole budget.
    #[test]
    fn a_board_at_a_target_leaves_the_others_cheap_searches() {
        let needs = [Search, Reached, Search, Search, Unreachable];
        assert_eq!(target_budgets(&needs, 36), [20, 36, 20, 20, 20]);
        assert_eq!(target_budgets(&needs, 12), [12, 12, 12, 12, 12]);
        assert_eq!(target_budgets(&[Search, Unreachable, Search], 36), [36, 36, 36]);
    }

    /// Under a work limit the other targets of a board at a target share
    /// 2^20 members: 254 cosets of 21,675 (17x19 over Z_255) took a second
    /// when each was searched in full; 48 are, the rest keep their
    /// particular press sets.
    #[test]
    fn a_board_at_a_target_shares_the_cheap_searches_under_a_limit() {
        let mut needs = vec![Search; 255];
        needs[0] = Reached;
        needs[7] = Unreachable;
        let budgets = cheap_after_reached(target_budgets(&needs, 36), &needs, Some(21_675));
        assert_eq!(budgets[..3], [Some(36), Some(20), Some(20)]);
        assert_eq!(budgets[7], Some(20));
        assert_eq!(budgets.iter().filter(|b| **b == Some(20)).count(), 48 + 1);
        assert!(budgets[60..].iter().all(Option::is_none));
    }

    /// The order and the skips: lightest quick answer first; a target whose
    /// bound is no less than the lightest answer so far is skipped (it is
    /// no better: the lightest stays proven); whole searches while they fit
    /// the limit, then a local search for the next few, then nothing.
    #[test]
    fn rationed_targets_go_lightest_first_and_skip_what_cannot_win() {
        // (weight, bound): target 4 is lightest and meets its bound (its
        // quick answer is proven); targets 3, 0 and 5 may still beat it
        // (bounds 10, 20, 5), target 1 cannot (bound 120).
        let answers =
            [Some((130, 20)), Some((150, 120)), None, Some((100, 10)), Some((90, 90)), Some((140, 5))];
        let mut rationed = Rationed::new(&answers, Some(1 << 10), 36, 11);
        assert_eq!(rationed.next(), Some((3, 36)));
        rationed.found(95);
        assert_eq!(rationed.next(), Some((0, 36)));
        rationed.found(125);
        // The limit of 2^11 holds two cosets of 2^10: a local search next.
        assert_eq!(rationed.next(), Some((5, 0)));
        rationed.found(140);
        // Target 1's bound 120 is above the lightest (90): skipped.
        assert_eq!(rationed.next(), None);
        // Cosets past the member budget get local searches, four at most.
        let answers: Vec<_> = (0..6).map(|i| Some((100 + i, 0))).collect();
        let locals: Vec<_> = Rationed::new(&answers, Some(1 << 40), 36, 28).collect();
        assert_eq!(locals, [(0, 0), (1, 0), (2, 0), (3, 0)]);
        assert_eq!(Rationed::new(&answers, None, 63, 63).count(), 4);
    }
}
