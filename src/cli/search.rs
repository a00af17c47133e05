//! Long searches for one board: `--shard`, `--checkpoint`, `--time-limit`.
//!
//! A run keeps one [`Record`] (`record.rs`): the problem, its hash, and per
//! target the [`SearchState`] of the exhaustive search, saved as a
//! checkpoint or printed as a shard's line for `lightsout merge`.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use super::args::EngineArg;
use super::*;
use crate::{BRANCH_FROM, Branching, Budget, Coset, MAX_TRANSFORM_NULLITY, SearchState, Shard, improve};

/// Seconds between checkpoints unless --checkpoint-every says otherwise.
mod answers;
mod estimate;

pub(super) use answers::print_answer;
use answers::{answer, symmetric_incumbent};
use estimate::{note_long_branch, print_estimates};

const CHECKPOINT_EVERY: f64 = 60.0;

/// A board's problem and the solver and cosets that search it.
pub(super) struct Search {
    pub(super) record: Record,
    pub(super) board: Grid,
    pub(super) solver: Solver,
    /// Per target: the target and, when reachable, its coset.
    pub(super) goals: Vec<(Target, Option<Reachable>)>,
}

/// A reachable target's particular solution and the coset around it.
type Reachable = (Grid, Coset);

/// Which exact engine a long search runs, and with what.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct Engine {
    /// Branch and bound (`Some(true)`), the transform (`Some(false)`), or
    /// by nullity (`None`: branch and bound from [`BRANCH_FROM`], and
    /// past the transform's reach).
    pub(super) branch: Option<bool>,
    /// Upper bound to look below (else a local search's).
    pub(super) incumbent: Option<u64>,
    /// Free bits for the transform at the leaves (else [`LEAF_BITS`](crate::LEAF_BITS)).
    pub(super) leaf_bits: Option<usize>,
}

impl Engine {
    pub(super) fn of(args: &SearchArgs) -> Engine {
        let branch = match args.engine {
            None | Some(EngineArg::Auto) => None,
            Some(EngineArg::Transform) => Some(false),
            Some(EngineArg::Branch) => Some(true),
        };
        Engine { branch, incumbent: args.incumbent, leaf_bits: args.leaf_bits.map(usize::from) }
    }

    /// Whether a null space of dimension `d` is searched by branch and bound.
    fn branches(&self, d: usize) -> bool {
        d > MAX_TRANSFORM_NULLITY || self.branch.unwrap_or(d >= BRANCH_FROM)
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
        if nullity > MAX_EXHAUSTIVE_NULLITY && exhaustive_only {
            let error = Error::Limit(format!(
                "an exhaustive search weighs at most {MAX_EXHAUSTIVE_NULLITY} quiet patterns (a mask is 128 bits); \
                 this {}x{} board has {nullity}",
                problem.rows, problem.cols
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
            let buffers = if (BRANCH_FROM..=max_nullity.min(MAX_EXHAUSTIVE_NULLITY)).contains(&nullity) {
                let bytes = crate::limits::branch_bytes(&puzzle, nullity);
                format!(" and branch and bound's buffers ({})", format_bytes(bytes))
            } else {
                String::new()
            };
            let error = Error::Limit(format!(
                "a search weighs the {nullity} quiet patterns of this {}x{} board{buffers}, which do not \
                 fit --max-memory {}",
                problem.rows,
                problem.cols,
                format_bytes(max_memory)
            ));
            return Err(Failure::hinted(error, "raise it"));
        }
        let mut goals = Vec::new();
        let mut searches = Vec::new();
        let exhaustive = nullity <= max_nullity.min(MAX_EXHAUSTIVE_NULLITY);
        if engine.branch == Some(false) && exhaustive && nullity > MAX_TRANSFORM_NULLITY {
            let error = Error::Limit(format!(
                "the transform engine walks at most {MAX_TRANSFORM_NULLITY} quiet patterns; this board has {nullity}"
            ));
            return Err(Failure::hinted(error, "use --engine branch (or auto)"));
        }
        for target in targets {
            // Branch and bound reads its masks in the cross basis.
            let coset = if exhaustive && engine.branches(nullity) {
                solver.cross_coset(&board, &target)?
            } else {
                solver.coset(&board, &target)?
            };
            let state = coset.as_ref().filter(|_| exhaustive).map(|(particular, c)| {
                if engine.branches(nullity) {
                    let symmetric = || symmetric_incumbent(&solver, &board, &target, particular);
                    SearchState::new_branch(c, shard, engine.plan(c, shard.count, symmetric))
                } else {
                    SearchState::new(c, shard)
                }
            });
            searches.push(TargetSearch {
                target: target.name().into(),
                nullity,
                reachable: coset.is_some(),
                state,
            });
            goals.push((target, coset));
        }
        let record = Record {
            lightsout: "search".into(),
            version: RECORD_VERSION,
            hash: problem.hash(),
            problem,
            shard,
            searches,
            milliseconds: 0,
            checksum: String::new(),
        };
        Ok(Search { record, board, solver, goals })
    }

    /// Takes over the progress of `saved` (a checkpoint of this search).
    fn resume(&mut self, saved: Record, source: &str) -> Result<(), Error> {
        let bad = |why: &str| Error::BadInput(format!("{source}: {why}"));
        if saved.hash != self.record.hash {
            return Err(bad(
                "checkpoint of another problem (board, rule, topology, target or method differ)",
            ));
        }
        if saved.searches.len() != self.record.searches.len() {
            return Err(bad("checkpoint does not match this search"));
        }
        for ((old, new), (_, coset)) in saved.searches.iter().zip(&self.record.searches).zip(&self.goals) {
            let fits = match (&old.state, &new.state, coset) {
                (Some(o), Some(n), Some((_, c))) => {
                    if o.shard == n.shard && o.fits(c) {
                        // An edited checkpoint resealed: its best must hold.
                        o.verify(c).map_err(|why| bad(&format!("checkpoint does not hold up: {why}")))?;
                    }
                    o.shard == n.shard && o.plan == n.plan && o.fits(c)
                }
                (None, None, _) => true,
                _ => false,
            };
            let same =
                old.reachable == new.reachable && old.target == new.target && old.nullity == new.nullity;
            if !fits || !same {
                return Err(bad(
                    "checkpoint of another slice, --max-nullity, engine, --incumbent or version of this search",
                ));
            }
        }
        self.record.searches = saved.searches;
        self.record.milliseconds = saved.milliseconds;
        Ok(())
    }
}

/// Solves one board as a long search: sharded, checkpointed or time-bounded.
pub(super) fn solve(args: &SolveArgs, targets: &[Target], io: &mut Streams) -> Result<u8, Failure> {
    let search_args = &args.search;
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
        print_estimates(&search, io)?;
        return Ok(0);
    }
    note_long_branch(&search, io);
    if let Some(path) = search_args.checkpoint.as_ref().filter(|p| p.exists()) {
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::BadInput(format!("cannot read {source}: {e}")))?;
        search.resume(Record::parse(&text, &source)?, &source)?;
    }
    if let Some(path) = &search_args.checkpoint {
        // Saved once before any work: a path that cannot be written is
        // found now, not after the search.
        save(&search.record, path)?;
    }
    let stopped = run(&mut search, search_args)?;
    if let (Some(path), true) = (&search_args.checkpoint, stopped == Stop::Interrupted) {
        let _ = writeln!(
            io.stderr,
            "lightsout: interrupted; the search is saved in {}: run the same command to go on",
            path.display()
        );
        return Ok(130);
    }
    if search_args.shard.is_some() {
        writeln!(io.stdout, "{}", search.record.to_line())?;
        if stopped != Stop::Done {
            let _ = writeln!(
                io.stderr,
                "lightsout: note: shard {shard} stopped before its end; `merge` needs it complete \
                 (resume it with --checkpoint)"
            );
        }
        return Ok(0);
    }
    answer(&search, args.format, args.show, search_args.time_limit, io)
}

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Stop {
    Done,
    TimeLimit,
    Interrupted,
}

/// Runs every target's exhaustive search on from its state, saving
/// checkpoints as asked.
fn run(search: &mut Search, args: &SearchArgs) -> Result<Stop, Error> {
    let started = Instant::now();
    let interrupted = Arc::new(AtomicBool::new(false));
    if args.checkpoint.is_some() {
        let flag = Arc::clone(&interrupted);
        // A second handler cannot be set in one process (tests run many
        // searches): the first one's flag then stays in charge.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let before = search.record.milliseconds;
    let elapsed = |started: Instant| before + started.elapsed().as_millis() as u64;
    let total: u64 = search.record.searches.iter().filter_map(|s| s.state.as_ref()).map(|s| s.units).sum();
    let done: u64 = search.record.searches.iter().filter_map(|s| s.state.as_ref()).map(|s| s.done).sum();
    let bar = if total > 0 { terminal_bar(total, "blocks") } else { indicatif::ProgressBar::hidden() };
    bar.set_position(done);
    let mut last_save = Instant::now();
    let mut stop = Stop::Done;
    for index in 0..search.record.searches.len() {
        let (Some(state), Some((_, coset))) =
            (search.record.searches[index].state.clone(), search.goals[index].1.as_ref())
        else {
            continue;
        };
        let mut state = state;
        let mut failure = None;
        state.run(coset, false, &mut |s| {
            bar.set_position(done_so_far(&search.record, index, s));
            if interrupted.load(Ordering::SeqCst) {
                stop = Stop::Interrupted;
            } else if args.time_limit.is_some_and(|t| started.elapsed().as_secs_f64() >= t) {
                stop = Stop::TimeLimit;
            }
            let due = last_save.elapsed().as_secs_f64() >= args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
            if let (Some(path), true) = (&args.checkpoint, due || stop != Stop::Done) {
                let mut record = search.record.clone();
                record.searches[index].state = Some(s.clone());
                record.milliseconds = elapsed(started);
                if let Err(e) = save(&record, path) {
                    failure = Some(e);
                    return ControlFlow::Break(());
                }
                last_save = Instant::now();
            }
            if stop == Stop::Done { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
        });
        search.record.searches[index].state = Some(state);
        if let Some(e) = failure {
            return Err(e);
        }
        if stop != Stop::Done {
            break;
        }
    }
    bar.finish_and_clear();
    search.record.milliseconds = elapsed(started);
    if let Some(path) = &args.checkpoint {
        save(&search.record, path)?;
    }
    Ok(stop)
}

/// Blocks searched over all targets, with target `index` at `state`.
fn done_so_far(record: &Record, index: usize, state: &SearchState) -> u64 {
    record
        .searches
        .iter()
        .enumerate()
        .filter_map(|(i, s)| if i == index { Some(state.done) } else { s.state.as_ref().map(|s| s.done) })
        .sum()
}
