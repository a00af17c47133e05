//! The long-search face of a [`Game`]: what a sharded, checkpointed or
//! time-limited exhaustive search asks of either kind. The search itself
//! (batches over a [`Sliced`] coset, records, merge) is the same for both;
//! only the coset, how a mask names a press set, and the answer of a
//! search that did not finish differ, and they are asked here.

use std::time::Duration;

use super::game::{Game, TargetOf};
use super::minimal::{Budget, Coset, Layout, settle_stopped};
use super::slices::{Best, Mask, SliceKind, Sliced};
use super::states::StateSolver;
use super::states::minimum::{SlicedCoset, TaskLayout, minimize};
use crate::error::Error;
use crate::model::{Grid, StateGrid};
use crate::{Solver, Target};

/// The answer of a long search stopped before its end (a time limit, an
/// interrupt) or not run at all (its coset past the exhaustive budget):
/// the lighter of the searched part's best and a local search's, re-checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settled<B> {
    /// The press set, re-applied to the board and reaching the target.
    pub presses: B,
    /// Its weight (presses, counted with multiplicity over Z_K).
    pub weight: u64,
    /// No press set of the coset is lighter than this.
    pub lower_bound: u64,
    /// Descents the local search ran (where the game counts them).
    pub descents: u64,
}

impl<B> Settled<B> {
    /// Whether the press set is proven minimal: it meets the lower bound.
    pub fn proven(&self) -> bool {
        self.weight <= self.lower_bound
    }
}

/// A target's particular press set and the coset around it, as
/// [`LongSearch::long_coset`] gives them.
pub type Reachable<'a, G> = (<G as Game>::Board, <G as LongSearch>::Coset<'a>);

/// A [`Game`] whose boards a long search walks: the coset of a target, a
/// member named by a mask, and the answer of a search that did not finish.
///
/// # Example
/// ```
/// use lightsout::solve::{LongSearch, Mask};
/// use lightsout::{Game, Grid, Method, Puzzle, Solver, Target};
///
/// let solver = Solver::new(&Puzzle::new(4, 4)?, Method::Auto, 32)?;
/// let board = Grid::ones(4, 4);
/// let (particular, coset) = solver.long_coset(&board, &Target::White, false)?.unwrap();
/// // The member mask 0 names, re-checked: it turns the board white.
/// let member = solver.long_member(&board, &Target::White, &particular, &coset, Mask::ZERO)?;
/// solver.check(&board, &member, &Target::White)?;
/// // Nothing searched: a local search's answer, never lighter than the minimum (4 presses).
/// let settled = solver.settle(&board, &Target::White, &particular, &coset, None, None)?;
/// assert!(settled.weight >= 4 && settled.lower_bound <= 4);
/// # Ok::<(), lightsout::Error>(())
/// ```
pub trait LongSearch: Game {
    /// How its cosets split into units (blocks, tasks).
    type Slices: SliceKind;

    /// The coset a long search walks, sliced into units.
    type Coset<'a>: Sliced<Kind = Self::Slices>
    where
        Self: 'a;

    /// A press set turning `board` into `target` and the coset around it,
    /// or `None` when the target cannot be reached. `cross` asks for the
    /// cross basis of branch and bound where the game has one (two
    /// states); a K-state coset has one basis.
    ///
    /// # Errors
    /// As [`Game::solve_for_within`]; [`Error::Limit`] when the game does
    /// not hold the quiet patterns a coset is made of.
    fn long_coset(
        &self,
        board: &Self::Board,
        target: &TargetOf<Self>,
        cross: bool,
    ) -> Result<Option<Reachable<'_, Self>>, Error>;

    /// Member `mask` of `coset` (made by [`long_coset`](Self::long_coset)
    /// around `particular`), re-applied to `board` and accepted only if it
    /// reaches `target`.
    ///
    /// # Errors
    /// [`Error::Internal`] for a mask off the coset, or a press set that
    /// fails its re-check.
    fn long_member(
        &self,
        board: &Self::Board,
        target: &TargetOf<Self>,
        particular: &Self::Board,
        coset: &Self::Coset<'_>,
        mask: Mask,
    ) -> Result<Self::Board, Error>;

    /// The answer of a search of `coset` stopped with `searched` its best
    /// so far (`None`: nothing found, or not run): the lighter of that and
    /// a local search's member, re-checked. `time` gives the local search
    /// that long where nothing was searched exhaustively (two states; the
    /// K-state local search has a fixed work); `None` runs its usual
    /// fraction of a second.
    ///
    /// # Errors
    /// As [`long_member`](Self::long_member).
    #[allow(clippy::too_many_arguments)]
    fn settle(
        &self,
        board: &Self::Board,
        target: &TargetOf<Self>,
        particular: &Self::Board,
        coset: &Self::Coset<'_>,
        searched: Option<Best>,
        time: Option<Duration>,
    ) -> Result<Settled<Self::Board>, Error>;
}

impl LongSearch for Solver {
    type Slices = Layout;
    type Coset<'a> = Coset;

    fn long_coset(&self, board: &Grid, target: &Target, cross: bool) -> Result<Option<(Grid, Coset)>, Error> {
        if cross { self.cross_coset(board, target) } else { self.coset(board, target) }
    }

    fn long_member(
        &self,
        board: &Grid,
        target: &Target,
        particular: &Grid,
        coset: &Coset,
        mask: Mask,
    ) -> Result<Grid, Error> {
        self.member(board, target, particular, coset, mask)
    }

    fn settle(
        &self,
        board: &Grid,
        target: &Target,
        particular: &Grid,
        coset: &Coset,
        searched: Option<Best>,
        time: Option<Duration>,
    ) -> Result<Settled<Grid>, Error> {
        let budget = match time {
            Some(t) => {
                Budget { descents: u64::MAX, work: u64::MAX, time_limit: Some(t), ..Budget::default() }
            }
            None => Budget::default(),
        };
        let local = settle_stopped(coset, searched, &budget);
        let presses = self.member(board, target, particular, coset, local.best.mask)?;
        Ok(Settled {
            presses,
            weight: local.best.weight,
            lower_bound: local.lower_bound,
            descents: local.descents,
        })
    }
}

impl LongSearch for StateSolver {
    type Slices = TaskLayout;
    type Coset<'a> = SlicedCoset<'a>;

    fn long_coset(
        &self,
        board: &StateGrid,
        target: &TargetOf<Self>,
        _cross: bool,
    ) -> Result<Option<(StateGrid, SlicedCoset<'_>)>, Error> {
        let Some(particular) = self.particular_to(board, target)? else {
            return Ok(None);
        };
        let coset = SlicedCoset::new(self.states().get(), particular.cells(), &self.generators());
        Ok(Some((particular, coset)))
    }

    fn long_member(
        &self,
        board: &StateGrid,
        target: &TargetOf<Self>,
        particular: &StateGrid,
        coset: &SlicedCoset<'_>,
        mask: Mask,
    ) -> Result<StateGrid, Error> {
        let cells = coset.member(mask).ok_or_else(|| Error::Internal("a mask off the coset".into()))?;
        self.checked(board, target, particular, cells)
    }

    fn settle(
        &self,
        board: &StateGrid,
        target: &TargetOf<Self>,
        particular: &StateGrid,
        coset: &SlicedCoset<'_>,
        searched: Option<Best>,
        _time: Option<Duration>,
    ) -> Result<Settled<StateGrid>, Error> {
        let local = minimize(self.states().get(), particular.cells(), &self.generators(), 0);
        let (presses, weight) = match searched {
            Some(best) if best.weight <= local.total => {
                (self.long_member(board, target, particular, coset, best.mask)?, best.weight)
            }
            _ => (self.checked(board, target, particular, local.presses)?, local.total),
        };
        Ok(Settled { presses, weight, lower_bound: local.lower_bound.min(weight), descents: 0 })
    }
}

impl StateSolver {
    /// The quiet patterns as a coset's generators, each with its order.
    fn generators(&self) -> Vec<(&[u8], u32)> {
        self.quiet_patterns().iter().map(|(g, order)| (g.cells(), *order)).collect()
    }

    /// `cells` as a press set of `particular`'s shape, re-checked.
    fn checked(
        &self,
        board: &StateGrid,
        target: &TargetOf<Self>,
        particular: &StateGrid,
        cells: Vec<u8>,
    ) -> Result<StateGrid, Error> {
        let presses = StateGrid::from_cells(particular.nrows(), particular.ncols(), cells)
            .ok_or_else(|| Error::Internal("a press set of the wrong size".into()))?;
        self.check(board, &presses, target)?;
        Ok(presses)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Method;
    use crate::model::Puzzle;
    use crate::solve::states::StateTarget;
    use crate::solve::states::minimum::StateSearchState;
    use crate::solve::{Board, SearchState, Shard};
    use crate::zk::Modulus;

    /// `best`, a whole search's lightest member of `coset`, named by its
    /// mask, is the game's minimum, re-checked; settling with it gives it
    /// again, and settling with nothing searched a re-checked press set no
    /// lighter, with an honest bound.
    fn settles_as_searched<G: LongSearch>(
        game: &G,
        board: &G::Board,
        target: &TargetOf<G>,
        (particular, coset): &Reachable<'_, G>,
        best: Best,
    ) {
        let fewest = game.solve_for(board, target).unwrap().unwrap();
        assert!(fewest.proven_minimal);
        let member = game.long_member(board, target, particular, coset, best.mask).unwrap();
        assert_eq!((member.presses(), best.weight), (fewest.presses.presses(), fewest.presses.presses()));
        let settled = game.settle(board, target, particular, coset, Some(best), None).unwrap();
        assert_eq!((settled.weight, settled.presses.presses()), (best.weight, best.weight));
        game.check(board, &settled.presses, target).unwrap();
        let local = game.settle(board, target, particular, coset, None, None).unwrap();
        game.check(board, &local.presses, target).unwrap();
        assert!(local.weight >= best.weight && local.lower_bound <= best.weight);
        assert_eq!(local.presses.presses(), local.weight);
    }

    #[test]
    fn both_games_settle_on_what_their_search_found() {
        let two = Solver::new(&Puzzle::new(5, 5).unwrap(), Method::Auto, 32).unwrap();
        let board = Grid::ones(5, 5);
        let reachable = two.long_coset(&board, &Target::White, false).unwrap().unwrap();
        let mut state = SearchState::new(&reachable.1, Shard::WHOLE);
        state.run(&reachable.1, false, &mut |_| std::ops::ControlFlow::Continue(()));
        settles_as_searched(&two, &board, &Target::White, &reachable, state.best.unwrap());

        let k = Modulus::new(3).unwrap();
        let three = StateSolver::new(&Puzzle::new(4, 4).unwrap(), k, Method::Auto, 30, 1 << 30).unwrap();
        let board = StateGrid::from_fn(4, 4, |r, c| ((r + 2 * c) % 3) as u8);
        let target = StateTarget::Uniform(0);
        let reachable = three.long_coset(&board, &target, false).unwrap().unwrap();
        let mut state = StateSearchState::new(&reachable.1, Shard::WHOLE).unwrap();
        state.run(&reachable.1, &mut |_| std::ops::ControlFlow::Continue(()));
        settles_as_searched(&three, &board, &target, &reachable, state.best.unwrap());
    }
}
