//! What a long search does differently for the two kinds of game: how the
//! game is made and which searches its limits refuse, a target's fresh
//! slice (two states choose an engine and begin from the symmetric
//! solutions), and the words of a search that did not finish. The one
//! board is read as every run's boards are (`Kind::each_board`).

use std::time::Duration;

use super::answers::{Noted, beyond_reach, symmetric_incumbent};
use super::estimate::{note_long_branch, print_estimates};
use super::{Engine, Search};
use crate::cli::{Failure, Kind, SearchArgs, SolveArgs, Streams, smaller_or_more_memory, solver_failure};
use crate::present::{GROUP_BOUND, beyond_budget, format_bytes, overran_words};
use crate::record::{Problem, Question, RecordKind, StateProblem, TargetSearch};
use crate::solve::minimal::{ExactEngine, MAX_TRANSFORM_NULLITY, past_budget};
use crate::solve::states::minimum::{SlicedCoset, StateSearchState};
use crate::solve::{
    Coset, GameSpec, LongSearch, MAX_EXHAUSTIVE_NULLITY, Made, SearchState, Shard, Slice, TargetOf,
};
use crate::zk::Modulus;
use crate::{
    Error, Game, Grid, Method, Puzzle, Solution, Solver, StateGrid, StateSolver, StateTarget, Target,
};

/// A slice of a game's long search.
pub(in crate::cli) type SliceOf<G> = Slice<<G as LongSearch>::Slices>;

/// A target's board, the target and its particular press set: what a
/// fresh slice may search for an incumbent.
pub(super) type Around<'a, G> = (&'a <G as Game>::Board, &'a TargetOf<G>, &'a <G as Game>::Board);

/// A kind of game as a long search of the command line makes, starts and
/// words it.
pub(in crate::cli) trait Long: Kind + LongSearch {
    /// Its records (two states: version 1 and 3; K states: version 2).
    type Records: RecordKind<Slices = Self::Slices>;

    /// The game of `puzzle` a long search walks, refusing the search its
    /// limits do not allow (`exhaustive_only`: a shard or a checkpoint).
    fn long_game(
        puzzle: &Puzzle,
        args: &SolveArgs,
        exhaustive_only: bool,
        engine: Engine,
    ) -> Result<Self, Failure>;

    /// The record's problem: everything that decides the answer.
    fn problem(&self, board: &Self::Board, targets: &[TargetOf<Self>], method: Method) -> Self::Records;

    /// Whether the search reads masks in branch and bound's cross basis.
    fn crosses(&self, _engine: Engine, _max_nullity: usize) -> bool {
        false
    }

    /// Whether every member of `coset` is searched within `max_nullity`.
    fn exhaustive(&self, coset: &Self::Coset<'_>, max_nullity: usize) -> bool;

    /// Refuses a sliced or checkpointed search of a coset past the budget.
    fn nothing_to_slice(&self, max_nullity: usize) -> Failure;

    /// The answer past the budget that a time-limited search begins from,
    /// so that it never answers heavier (none for K states).
    fn start(
        &self,
        _board: &Self::Board,
        _target: &TargetOf<Self>,
        _particular: &Self::Board,
    ) -> Result<Option<Solution<Self::Board>>, Error> {
        Ok(None)
    }

    /// A fresh search of slice `shard` of `coset`, by the engine `engine`
    /// names, which may look below `start` or what it finds `around` the
    /// particular press set.
    fn fresh_slice(
        &self,
        coset: &Self::Coset<'_>,
        shard: Shard,
        engine: Engine,
        around: Around<'_, Self>,
        start: Option<&Solution<Self::Board>>,
    ) -> Option<SliceOf<Self>>;

    /// A target's entry in a record.
    fn entry(
        &self,
        target: &TargetOf<Self>,
        reachable: bool,
        state: Option<SliceOf<Self>>,
    ) -> TargetSearch<Self::Records>;

    /// What runs before the search, and may end the run with its code:
    /// two states print `--estimate` or note a long branch and bound.
    fn preview(_search: &Search<Self>, _args: &SearchArgs, _io: &mut Streams) -> Result<Option<u8>, Failure> {
        Ok(None)
    }

    /// A target beyond exhaustive reach given `seconds`, answered another
    /// way than a local search (two states: from the symmetric solutions),
    /// with its note; `None` to answer it as any stopped search.
    fn beyond_reach(
        _search: &Search<Self>,
        _target: &TargetOf<Self>,
        _particular: &Self::Board,
        _seconds: f64,
    ) -> Result<Option<Noted<Self::Board>>, Failure> {
        Ok(None)
    }

    /// How a search of `coset` stopped short (its `searched` slice) or not
    /// run (beyond `max_nullity`) found its answer, a local search running
    /// `descents`.
    fn stopped_words(
        &self,
        searched: Option<&SliceOf<Self>>,
        coset: &Self::Coset<'_>,
        max_nullity: usize,
        descents: u64,
    ) -> String;

    /// The note on a press set of `weight` not proven minimal, found as
    /// `how` says, no lighter than `bound`; the starts took `overran`
    /// when that was past the time limit.
    fn not_proven_note(name: &str, weight: u64, how: &str, bound: u64, overran: Option<Duration>) -> String;
}

impl Long for Solver {
    type Records = Problem;

    fn long_game(
        puzzle: &Puzzle,
        args: &SolveArgs,
        exhaustive_only: bool,
        engine: Engine,
    ) -> Result<Solver, Failure> {
        let hint = |puzzle: &Puzzle| args.memory_hint(puzzle);
        let limits = (args.max_nullity, args.memory.max_memory);
        two_state_game(puzzle, args.method.into(), limits, &hint, exhaustive_only, engine)
    }

    fn problem(&self, board: &Grid, targets: &[Target], method: Method) -> Problem {
        let (puzzle, board, targets) = (self.puzzle().clone(), board.clone(), targets.to_vec());
        Problem::of(&Question { puzzle, board, targets, method })
    }

    fn crosses(&self, engine: Engine, max_nullity: usize) -> bool {
        let nullity = self.nullity();
        nullity <= max_nullity.min(MAX_EXHAUSTIVE_NULLITY) && engine.branches(nullity)
    }

    fn exhaustive(&self, _: &Coset, max_nullity: usize) -> bool {
        self.nullity() <= max_nullity.min(MAX_EXHAUSTIVE_NULLITY)
    }

    fn nothing_to_slice(&self, max_nullity: usize) -> Failure {
        past_max_nullity(self.nullity(), max_nullity)
    }

    fn start(&self, board: &Grid, target: &Target, particular: &Grid) -> Result<Option<Solution>, Error> {
        if self.nullity() == 0 {
            return Ok(None);
        }
        // The answer past the exhaustive budget, as `solve` without a time
        // limit gives it past --max-nullity, re-checked.
        let rhs = target.right_hand_side(board);
        let found = past_budget(self.puzzle(), &rhs, particular, self.quiet_patterns(), None);
        self.check(board, &found.presses, target)?;
        let (presses, proven_minimal, lower_bound, found_by) =
            (found.presses, found.proven, found.lower_bound, found.found_by);
        Ok(Some(Solution { presses, proven_minimal, lower_bound, found_by }))
    }

    fn fresh_slice(
        &self,
        coset: &Coset,
        shard: Shard,
        engine: Engine,
        (board, target, particular): Around<'_, Self>,
        start: Option<&Solution>,
    ) -> Option<SearchState> {
        if !engine.branches(self.nullity()) {
            return Some(SearchState::new(coset, shard));
        }
        let symmetric = || match start {
            Some(start) => Some(start.presses.count_ones() as u64),
            None => symmetric_incumbent(self, board, target, particular),
        };
        Some(SearchState::new_branch(coset, shard, engine.plan(coset, shard.count, symmetric)))
    }

    fn entry(&self, target: &Target, reachable: bool, state: Option<SearchState>) -> TargetSearch<Problem> {
        TargetSearch { target: target.name().into(), size: self.nullity(), reachable, state }
    }

    fn preview(search: &Search<Self>, args: &SearchArgs, io: &mut Streams) -> Result<Option<u8>, Failure> {
        if args.estimate {
            print_estimates(search, args.slice_time, io)?;
            return Ok(Some(0));
        }
        note_long_branch(search, io);
        Ok(None)
    }

    fn beyond_reach(
        search: &Search<Self>,
        target: &Target,
        particular: &Grid,
        seconds: f64,
    ) -> Result<Option<Noted<Grid>>, Failure> {
        beyond_reach(search, target, particular, seconds)
    }

    fn stopped_words(
        &self,
        searched: Option<&SearchState>,
        coset: &Coset,
        _: usize,
        descents: u64,
    ) -> String {
        match searched {
            Some(s) => format!(
                "the exhaustive search covered {} of 2^{} members (orbits included) before its time limit",
                s.members_searched(),
                coset.nullity()
            ),
            None => format!(
                "nullity {} is above --max-nullity: {descents} descents of a local search",
                self.nullity()
            ),
        }
    }

    fn not_proven_note(name: &str, weight: u64, how: &str, bound: u64, overran: Option<Duration>) -> String {
        let overran = overran_words(overran);
        format!(
            "{name}: {weight} presses, not proven minimal; {how}; lower bound {bound}{GROUP_BOUND}{overran}"
        )
    }
}

impl Long for StateSolver {
    type Records = StateProblem;

    fn long_game(puzzle: &Puzzle, args: &SolveArgs, _: bool, _: Engine) -> Result<StateSolver, Failure> {
        // As asked (no work limit), within the 2^63 members a slice walks.
        let spec = GameSpec::new(puzzle.clone(), args.puzzle.modulus())
            .with_method(args.method.into())
            .asking_max_nullity(args.max_nullity.min(63))
            .with_max_memory(args.memory.max_memory);
        StateSolver::make(&spec).map_err(|e| solver_failure(e, puzzle, spec.method, &smaller_or_more_memory))
    }

    fn problem(&self, board: &StateGrid, targets: &[StateTarget], method: Method) -> StateProblem {
        StateProblem::of(self.puzzle(), self.states().get(), board, targets, method)
    }

    fn exhaustive(&self, coset: &SlicedCoset, max_nullity: usize) -> bool {
        let members = coset.members();
        members.is_some_and(|m| max_nullity >= 63 || m <= 1u64 << max_nullity) && coset.layout().is_some()
    }

    fn nothing_to_slice(&self, max_nullity: usize) -> Failure {
        let error = Error::Limit(format!(
            "{}, so there is nothing to shard or checkpoint",
            beyond_budget(self, max_nullity)
        ));
        let need = self.kernel_size_log2().ceil() as u64;
        let hint = if need <= 63 {
            format!("give --max-nullity {need} to search all its members")
        } else {
            "an exhaustive search walks at most 2^63 members: solve it without --shard or --checkpoint".into()
        };
        Failure::hinted(error, hint)
    }

    fn fresh_slice(
        &self,
        coset: &SlicedCoset,
        shard: Shard,
        _: Engine,
        _: Around<'_, Self>,
        _: Option<&Solution<StateGrid>>,
    ) -> Option<StateSearchState> {
        StateSearchState::new(coset, shard)
    }

    fn entry(
        &self,
        target: &StateTarget,
        reachable: bool,
        state: Option<StateSearchState>,
    ) -> TargetSearch<StateProblem> {
        let target = match target {
            StateTarget::Uniform(s) => s.to_string(),
            StateTarget::Board(_) => "board".into(),
        };
        TargetSearch { target, size: self.kernel_size(), reachable, state }
    }

    fn stopped_words(
        &self,
        searched: Option<&StateSearchState>,
        _: &SlicedCoset,
        max_nullity: usize,
        _: u64,
    ) -> String {
        match searched {
            Some(s) => format!(
                "the exhaustive search covered {} of the kernel's {} members before its time limit",
                s.members_searched(),
                self.kernel_size()
            ),
            None => format!("{}; a local search found it", beyond_budget(self, max_nullity)),
        }
    }

    fn not_proven_note(name: &str, weight: u64, how: &str, bound: u64, _: Option<Duration>) -> String {
        format!("{name}: {weight} presses, not proven minimal; {how}; at least {bound}")
    }
}

/// The two-state game of a long search or a merge: limits as `(max_nullity,
/// max_memory)`, refusing the searches they do not allow: past the
/// exhaustive ceiling or --max-nullity when it must be exhaustive (a shard,
/// a checkpoint), quiet patterns past --max-memory, or the transform past
/// its reach.
pub(in crate::cli) fn two_state_game(
    puzzle: &Puzzle,
    method: Method,
    (max_nullity, max_memory): (usize, u64),
    hint: crate::cli::MemoryHint,
    exhaustive_only: bool,
    engine: Engine,
) -> Result<Solver, Failure> {
    let spec = GameSpec::new(puzzle.clone(), Modulus::TWO)
        .with_method(method)
        .asking_max_nullity(max_nullity)
        .with_max_memory(max_memory);
    let solver = Solver::make(&spec).map_err(|e| solver_failure(e, puzzle, method, hint))?;
    let nullity = solver.nullity();
    if nullity > MAX_EXHAUSTIVE_NULLITY && exhaustive_only {
        let error = Error::Limit(format!(
            "an exhaustive search weighs at most {MAX_EXHAUSTIVE_NULLITY} quiet patterns (a mask is 128 bits); \
             this {}x{} board has {nullity}",
            puzzle.rows(),
            puzzle.cols()
        ));
        return Err(Failure::hinted(error, "solve it without --shard or --checkpoint"));
    }
    if nullity > max_nullity && exhaustive_only {
        return Err(past_max_nullity(nullity, max_nullity));
    }
    if !solver.holds_quiet_patterns() {
        let buffers = if ExactEngine::branches_within(nullity, max_nullity) {
            let bytes = crate::solve::limits::branch_bytes(puzzle, nullity);
            format!(" and branch and bound's buffers ({})", format_bytes(bytes))
        } else {
            String::new()
        };
        let error = Error::Limit(format!(
            "a search weighs the {nullity} quiet patterns of this {}x{} board{buffers}, which do not \
             fit --max-memory {}",
            puzzle.rows(),
            puzzle.cols(),
            format_bytes(max_memory)
        ));
        return Err(Failure::hinted(error, "raise it"));
    }
    let exhaustive = nullity <= max_nullity.min(MAX_EXHAUSTIVE_NULLITY);
    if engine.branch == Some(false) && exhaustive && nullity > MAX_TRANSFORM_NULLITY {
        let error = Error::Limit(format!(
            "the transform engine walks at most {MAX_TRANSFORM_NULLITY} quiet patterns; this board has {nullity}"
        ));
        return Err(Failure::hinted(error, "use --engine branch (or auto)"));
    }
    Ok(solver)
}

/// Refuses a sliced or checkpointed search of a nullity past --max-nullity.
fn past_max_nullity(nullity: usize, max_nullity: usize) -> Failure {
    let error = Error::Limit(format!(
        "nullity {nullity} is above --max-nullity {max_nullity}, so there is nothing to shard or checkpoint"
    ));
    Failure::hinted(error, format!("give --max-nullity {nullity} to search all 2^{nullity} members"))
}
