//! Long searches for one board: `--shard`, `--checkpoint`, `--time-limit`.
//!
//! A run keeps one [`Record`] (`crate::record`): the problem, its hash, and per
//! target the [`SearchState`] of the exhaustive search, saved as a
//! checkpoint or printed as a shard's line for `lightsout merge`; it runs
//! as every long search does (`long.rs`).

use answers::{answer, symmetric_incumbent};
use estimate::{note_long_branch, print_estimates};

use crate::cli::{
    Failure, MemoryHint, SEARCH_TYPING_HINT, SearchArgs, SolveArgs, Streams, boards, read_input,
    solver_failure,
};
use crate::present::format_bytes;
use crate::record::{Problem, Question, Record, TargetSearch, TwoStates};
use crate::solve::minimal::{Branching, ExactEngine, Found, MAX_TRANSFORM_NULLITY, past_budget};
use crate::solve::{Budget, Coset, MAX_EXHAUSTIVE_NULLITY, SearchState, Shard, improve};
use crate::{Error, Game, Grid, Puzzle, Solver, Target};

use super::args::EngineArg;
use std::time::{Duration, Instant};

mod answers;
mod estimate;

pub(super) use answers::{print_answer, solution};

/// A board's problem and the solver and cosets that search it.
pub(super) struct Search {
    pub(super) record: Record<TwoStates>,
    pub(super) board: Grid,
    pub(super) solver: Solver,
    /// Per target: the target and, when reachable, its coset.
    pub(super) goals: Vec<(Target, Option<Reachable>)>,
    /// Per target, for a time-limited exhaustive search: the answer past
    /// the budget that it begins from (the symmetric solutions, searched
    /// as the default path does), so that it never answers heavier.
    pub(super) starts: Vec<Option<Found>>,
    /// How long finding those starts took.
    pub(super) starts_took: Duration,
}

/// A reachable target's particular solution and the coset around it.
type Reachable = (Grid, Coset);

/// Which exact engine a long search runs, and with what.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Engine {
    /// Branch and bound (`Some(true)`), the transform (`Some(false)`), or
    /// by nullity (`None`: [`ExactEngine::for_nullity`], and past the
    /// transform's reach).
    pub(super) branch: Option<bool>,
    /// Upper bound to look below (else a local search's).
    pub(super) incumbent: Option<u64>,
    /// Free bits for the transform at the leaves (else [`LEAF_BITS`](crate::solve::minimal::LEAF_BITS)).
    pub(super) leaf_bits: Option<usize>,
    /// Whether the search begins from the answer past the budget (a
    /// time-limited one does, so that it never answers heavier).
    pub(super) from_past_budget: bool,
}

impl Engine {
    pub(super) fn of(args: &SearchArgs) -> Engine {
        let branch = match args.engine {
            None | Some(EngineArg::Auto) => None,
            Some(EngineArg::Transform) => Some(false),
            Some(EngineArg::Branch) => Some(true),
        };
        Engine {
            branch,
            incumbent: args.incumbent,
            leaf_bits: args.leaf_bits.map(usize::from),
            from_past_budget: args.time_limit.is_some() && !args.estimate,
        }
    }

    /// Whether a null space of dimension `d` is searched by branch and bound
    /// (never an empty one: it has no cross basis, and its one member is
    /// the answer).
    fn branches(&self, d: usize) -> bool {
        d > 0
            && (d > MAX_TRANSFORM_NULLITY
                || self.branch.unwrap_or(ExactEngine::for_nullity(d) == ExactEngine::Branch))
    }

    /// The plan of a branch-and-bound search of `coset` cut into `count`;
    /// `symmetric` is the weight of the lightest symmetric solution found
    /// (see `solve/minimal/fixed.rs`), if any.
    fn plan(&self, coset: &Coset, count: u64, symmetric: impl FnOnce() -> Option<u64>) -> Branching {
        let d = coset.nullity();
        // A given press count: look for lighter ones. Else the lighter of a
        // local search's and a symmetric solution's: look for as light,
        // and find that member (or one as light) again at least.
        let bound = match self.incumbent {
            Some(w) => w.saturating_sub(1),
            None => {
                let local = improve(coset, &Budget::default()).best.weight;
                symmetric().map_or(local, |w| w.min(local))
            }
        };
        let mut plan = Branching::new(d, count, bound);
        if let Some(bits) = self.leaf_bits {
            plan.leaf_bits = bits.min(d);
            plan.prefix_bits = Branching::new(d, count, bound).prefix_bits.min(d - plan.leaf_bits);
        }
        plan
    }
}

impl Search {
    /// Sets up a fresh search of slice `shard` of `question`.
    pub(super) fn new(
        question: Question,
        max_nullity: usize,
        max_memory: u64,
        hint: MemoryHint,
        shard: Shard,
        exhaustive_only: bool,
        engine: Engine,
    ) -> Result<Search, Failure> {
        let problem = Problem::of(&question);
        let Question { puzzle, board, targets, method } = question;
        let solver = Solver::with_memory_limit(&puzzle, method, max_nullity, max_memory)
            .map_err(|e| solver_failure(e, &puzzle, method, hint))?;
        let nullity = solver.nullity();
        refuse_limits(&solver, &puzzle, max_nullity, max_memory, exhaustive_only, engine)?;
        let mut goals = Vec::new();
        let mut searches = Vec::new();
        let mut starts = Vec::new();
        let mut starts_took = Duration::ZERO;
        let exhaustive = nullity <= max_nullity.min(MAX_EXHAUSTIVE_NULLITY);
        for target in targets {
            // Branch and bound reads its masks in the cross basis.
            let coset = if exhaustive && engine.branches(nullity) {
                solver.cross_coset(&board, &target)?
            } else {
                solver.coset(&board, &target)?
            };
            let began = Instant::now();
            let start = match &coset {
                Some((particular, _)) if exhaustive && engine.from_past_budget && nullity > 0 => {
                    Some(start_past_budget(&solver, &board, &target, particular)?)
                }
                _ => None,
            };
            starts_took += began.elapsed();
            let state = coset.as_ref().filter(|_| exhaustive).map(|(particular, c)| {
                if engine.branches(nullity) {
                    let symmetric = || match &start {
                        Some(start) => Some(start.presses.count_ones() as u64),
                        None => symmetric_incumbent(&solver, &board, &target, particular),
                    };
                    SearchState::new_branch(c, shard, engine.plan(c, shard.count, symmetric))
                } else {
                    SearchState::new(c, shard)
                }
            });
            starts.push(start);
            searches.push(TargetSearch {
                target: target.name().into(),
                nullity,
                reachable: coset.is_some(),
                state,
            });
            goals.push((target, coset));
        }
        let record = Record::new(problem, shard, searches);
        Ok(Search { record, board, solver, goals, starts, starts_took })
    }
}

/// The answer past the exhaustive budget (as `solve` without a time
/// limit gives it past --max-nullity), re-checked: where a time-limited
/// search begins.
fn start_past_budget(
    solver: &Solver,
    board: &Grid,
    target: &Target,
    particular: &Grid,
) -> Result<Found, Error> {
    let rhs = target.right_hand_side(board);
    let found = past_budget(solver.puzzle(), &rhs, particular, solver.quiet_patterns(), None);
    solver.check(board, &found.presses, target)?;
    Ok(found)
}

/// Refuses a search that the limits do not allow: past the exhaustive
/// ceiling or --max-nullity when it must be exhaustive (a shard, a
/// checkpoint), quiet patterns past --max-memory, or the transform past
/// its reach.
fn refuse_limits(
    solver: &Solver,
    puzzle: &Puzzle,
    max_nullity: usize,
    max_memory: u64,
    exhaustive_only: bool,
    engine: Engine,
) -> Result<(), Failure> {
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
        let error = Error::Limit(format!(
            "nullity {nullity} is above --max-nullity {max_nullity}, so there is nothing to shard or checkpoint"
        ));
        return Err(Failure::hinted(
            error,
            format!("give --max-nullity {nullity} to search all 2^{nullity} members"),
        ));
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
    Ok(())
}

/// Solves one board as a long search: sharded, checkpointed or time-bounded.
pub(super) fn solve(args: &SolveArgs, targets: &[Target], io: &mut Streams) -> Result<u8, Failure> {
    let search_args = &args.search;
    // From the start: an interrupt while the search is set up (seconds on
    // 79x79) stops it before its first batch, with the checkpoint saved.
    super::interrupt::interrupt_flag();
    let dense = matches!(args.method, super::MethodArg::Dense);
    // A long search holds its one board in memory (no streaming), and reads
    // its input whole even at a terminal: it must know there is one board.
    let hint = |puzzle: &Puzzle| args.memory_hint(puzzle);
    let from_stdin = args.source.generate.is_none() && args.source.files.iter().all(|f| f.as_os_str() == "-");
    if io.stdin_is_terminal && from_stdin {
        let _ = writeln!(io.stderr, "{SEARCH_TYPING_HINT}");
    }
    let max_memory = args.memory.max_memory;
    let mut input = read_input(&args.source, &args.puzzle, dense, max_memory, &hint, io.stdin, false)?;
    let mut all = boards(&mut input, &args.source);
    let board = all.next().transpose()?.ok_or_else(|| Error::BadInput("no board in input".into()))?;
    if all.next().is_some() {
        return Err(Error::BadInput(
            "--shard, --checkpoint and --time-limit search one board; the input has more".into(),
        )
        .into());
    }
    drop(all);
    let puzzle = args.puzzle.puzzle(board.nrows(), board.ncols())?;
    let question = Question { puzzle, board, targets: targets.to_vec(), method: args.method.into() };
    let shard = search_args.shard.unwrap_or(Shard::WHOLE);
    let exhaustive_only = search_args.shard.is_some() || search_args.checkpoint.is_some();
    let engine = Engine::of(search_args);
    let mut search =
        Search::new(question, args.max_nullity, max_memory, &hint, shard, exhaustive_only, engine)?;
    if search_args.estimate {
        print_estimates(&search, search_args.slice_time, io)?;
        return Ok(0);
    }
    note_long_branch(&search, io);
    let cosets = cosets(&search.goals);
    // The starts' search counts against the time limit.
    let took = search.starts_took.as_secs_f64();
    let search_args = &SearchArgs {
        time_limit: search_args.time_limit.map(|t| (t - took).max(0.0)),
        ..search_args.clone()
    };
    if let Some(code) = super::long::search(&mut search.record, &cosets, search_args, io)? {
        return Ok(code);
    }
    answer(&search, args.format, args.show, search_args.time_limit, io)
}

/// Per target, its coset when reachable.
pub(super) fn cosets(goals: &[(Target, Option<Reachable>)]) -> Vec<Option<&Coset>> {
    goals.iter().map(|(_, coset)| coset.as_ref().map(|(_, c)| c)).collect()
}
