//! The member budget of a board solved for several targets ("any"): a
//! board already at one of them leaves the others little worth searching.

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
}
