//! The member budget of a board solved for several targets ("any"): one
//! budget counted over all of them, not one per target.

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
/// is solved for `needs`, each coset of `members` (the kernel's size;
/// `None` past 2^64), out of one budget of 2^`budget_log2` members counted
/// over all targets. A board already at a target answers 0 there, which no
/// other target can beat: the others are searched exhaustively only where
/// that costs milliseconds (2^[`CHEAP_LOG2`] members), by a local search
/// elsewhere. Otherwise the reachable targets, in order, are searched exhaustively
/// while their cosets fit in what is left; the rest get a local search.
pub(super) fn target_budgets(members: Option<u64>, needs: &[Need], budget_log2: u32) -> Vec<u32> {
    if needs.contains(&Need::Reached) {
        let cheap = budget_log2.min(CHEAP_LOG2);
        return needs.iter().map(|&n| if n == Need::Reached { budget_log2 } else { cheap }).collect();
    }
    let mut left = 1u64 << budget_log2.min(super::minimum::MAX_MEMBERS_LOG2);
    needs
        .iter()
        .map(|&need| match (need, members) {
            (Need::Search, Some(m)) if m <= left => {
                left -= m;
                budget_log2
            }
            (Need::Search, _) => 0,
            _ => budget_log2,
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::Need::{Reached, Search, Unreachable};
    use super::*;

    /// Issue 25 item 6: `-r 7 -c 9 --states 5 --rule king --torus -g
    /// all-black` (every cell at 1: at target 1 already) searched each of
    /// the five targets' 6.1·10^9 members, each within the budget of 2^36
    /// (247 s). The budget now counts over all targets, and a board at a
    /// target leaves nothing worth searching elsewhere.
    #[test]
    fn the_budget_counts_over_all_targets() {
        let members = Some(6_103_515_625);
        // At target 1: 0 presses there; elsewhere cosets of 2^20 members
        // at most are searched (milliseconds), larger ones are not.
        let needs = [Search, Reached, Search, Search, Search];
        assert_eq!(target_budgets(members, &needs, 36), [20, 36, 20, 20, 20]);
        assert_eq!(target_budgets(members, &needs, 12), [12, 12, 12, 12, 12]);
        // Not at a target: 2^36 holds 11 cosets of 2^32.5, so the first
        // eleven reachable targets are searched, the rest are not.
        let needs: Vec<Need> = (0..13).map(|t| if t == 2 { Unreachable } else { Search }).collect();
        let budgets = target_budgets(members, &needs, 36);
        assert_eq!(budgets.iter().filter(|&&b| b == 36).count(), 12, "{budgets:?}");
        assert_eq!(budgets[..12], [36; 12], "{budgets:?}");
        assert_eq!(budgets[12], 0);
        // Cosets past the budget, or past 2^64: no target searched.
        assert_eq!(target_budgets(Some(1 << 40), &[Search, Search], 36), [0, 0]);
        assert_eq!(target_budgets(None, &[Search], 63), [0]);
        // One target keeps the whole budget, as a plain solve gives it.
        assert_eq!(target_budgets(Some(1 << 36), &[Search], 36), [36]);
    }
}
