//! Long searches for one board, of either kind: `--shard`, `--checkpoint`,
//! `--time-limit`.
//!
//! A run keeps one [`Record`] (`crate::record`): the problem, its hash, and
//! per target the slice of its exhaustive search, saved as a checkpoint or
//! printed as a shard's line for `lightsout merge`; it runs as every long
//! search does (`long.rs`). The flow is written once over the game
//! ([`Long`], `search/kinds.rs`, says what differs per kind: how the game is
//! made and refused, a target's fresh slice, and the words of a stopped
//! search); two states add their engines, estimates and symmetric starts.

use answers::answer;
pub(super) use kinds::{Long, two_state_game};

use crate::cli::{Failure, SearchArgs, SolveArgs, Streams};
use crate::record::Record;
use crate::solve::minimal::{Branching, ExactEngine, MAX_TRANSFORM_NULLITY};
use crate::solve::{Budget, Coset, Reachable, Shard, TargetOf, improve};
use crate::{Error, Method, Solution};

use super::args::EngineArg;
use std::time::{Duration, Instant};

mod answers;
mod estimate;
mod kinds;

pub(super) use answers::{print_answer, solution};

/// A board's problem, its game's record, and the cosets that search it.
pub(super) struct Search<'g, G: Long> {
    pub(super) record: Record<G::Records>,
    pub(super) board: G::Board,
    pub(super) solver: &'g G,
    /// Per target: the target and, when reachable, its coset.
    pub(super) goals: Vec<(TargetOf<G>, Option<Reachable<'g, G>>)>,
    /// Per target, for a time-limited exhaustive search: the answer past
    /// the budget that it begins from (two states: the symmetric
    /// solutions, searched as the default path does), so that it never
    /// answers heavier.
    pub(super) starts: Vec<Option<Solution<G::Board>>>,
    /// How long finding those starts took.
    pub(super) starts_took: Duration,
}

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

impl<'g, G: Long> Search<'g, G> {
    /// Sets up a fresh search of slice `shard` of `board` on `game`, for
    /// each of `targets`; a target's members are searched exhaustively
    /// where `max_nullity` allows.
    pub(super) fn new(
        game: &'g G,
        board: G::Board,
        targets: Vec<TargetOf<G>>,
        method: Method,
        max_nullity: usize,
        shard: Shard,
        engine: Engine,
    ) -> Result<Self, Error> {
        let problem = game.problem(&board, &targets, method);
        let cross = game.crosses(engine, max_nullity);
        let (mut goals, mut searches, mut starts) = (Vec::new(), Vec::new(), Vec::new());
        let mut starts_took = Duration::ZERO;
        for target in targets {
            let coset = game.long_coset(&board, &target, cross)?;
            let exhaustive = coset.as_ref().filter(|(_, c)| game.exhaustive(c, max_nullity));
            let began = Instant::now();
            let start = match exhaustive {
                Some((particular, _)) if engine.from_past_budget => {
                    game.start(&board, &target, particular)?
                }
                _ => None,
            };
            starts_took += began.elapsed();
            let state = exhaustive.and_then(|(particular, c)| {
                game.fresh_slice(c, shard, engine, (&board, &target, particular), start.as_ref())
            });
            searches.push(game.entry(&target, coset.is_some(), state));
            starts.push(start);
            goals.push((target, coset));
        }
        let record = Record::new(problem, shard, searches);
        Ok(Search { record, board, solver: game, goals, starts, starts_took })
    }
}

/// Per goal of a search, its coset when reachable.
pub(super) fn cosets<T, B, C>(goals: &[(T, Option<(B, C)>)]) -> Vec<Option<&C>> {
    goals.iter().map(|(_, coset)| coset.as_ref().map(|(_, c)| c)).collect()
}

/// Solves one board of either kind as a long search: sharded,
/// checkpointed or time-bounded.
pub(super) fn solve<G: Long>(args: &SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
    let search_args = &args.search;
    // From the start: an interrupt while the search is set up (seconds on
    // 79x79) stops it before its first batch, with the checkpoint saved.
    super::interrupt::interrupt_flag();
    let targets = args.target.resolve::<G>(&args.source, args.puzzle.modulus(), args.memory.max_memory)?;
    let board = one_board::<G>(args, io)?;
    let (rows, cols) = crate::Board::shape(&board);
    let puzzle = args.puzzle.puzzle(rows, cols)?;
    let shard = search_args.shard.unwrap_or(Shard::WHOLE);
    let exhaustive_only = search_args.shard.is_some() || search_args.checkpoint.is_some();
    let engine = Engine::of(search_args);
    let game = G::long_game(&puzzle, args, exhaustive_only, engine)?;
    let max_nullity = args.max_nullity;
    let mut search = Search::new(&game, board, targets, args.method.into(), max_nullity, shard, engine)?;
    let unsearched = |(_, coset): &(_, Option<Reachable<G>>)| {
        coset.as_ref().is_some_and(|(_, c)| !game.exhaustive(c, max_nullity))
    };
    if exhaustive_only && search.goals.iter().any(unsearched) {
        return Err(game.nothing_to_slice(max_nullity));
    }
    if let Some(code) = G::preview(&search, search_args, io)? {
        return Ok(code);
    }
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
    answer(&search, args.format, args.show, search_args.time_limit, max_nullity, io)
}

/// The one board a long search reads (more is refused).
fn one_board<G: Long>(args: &SolveArgs, io: &mut Streams) -> Result<G::Board, Failure> {
    let hint = |puzzle: &crate::Puzzle| args.memory_hint(puzzle);
    let input = args.board_input(&hint, true, io.stdin, io.stdin_is_terminal);
    let mut found = None;
    G::each_board(input, io.stderr, &mut |_, board, _, _| match found.replace(board) {
        Some(_) => Err(Error::BadInput(
            "--shard, --checkpoint and --time-limit search one board; the input has more".into(),
        )
        .into()),
        None => Ok(()),
    })?;
    Ok(found.ok_or_else(|| Error::BadInput("no board in input".into()))?)
}
