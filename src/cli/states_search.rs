//! Long K-state searches (`--states K`, K > 2): `--shard`, `--checkpoint`,
//! `--time-limit`, and `merge` of their records.
//!
//! The two-state long search (`search.rs`) in the shape of the K-state
//! game: a [`StateRecord`] holds the problem (with `states` and, on a
//! graph, the graph6), its hash, and per target the
//! [`StateSearchState`] of the exhaustive search over the kernel; it is
//! saved atomically as a checkpoint (`record::save`), printed as a shard's
//! line, and verified by `merge` against the problem rebuilt from it.
//! K-state records (`states_record.rs`) are version 2; two-state records
//! stay version 1, their fields and hashes unchanged.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::states_record::{STATE_RECORD_VERSION, StateProblem, StateRecord, StateTargetSearch};
use super::*;
use crate::present::{StateReport, state_target_name};
use crate::state_minimum::{SlicedCoset, StateSearchState, minimize};
use crate::{Shard, StateAnswer, StateOutcome, StateSolution};

/// Seconds between checkpoints unless --checkpoint-every says otherwise.
const CHECKPOINT_EVERY: f64 = 60.0;

/// One target of a search: the target, and when reachable its particular
/// press set and the coset around it.
pub(super) struct Goal<'a> {
    pub(super) target: StateTarget,
    pub(super) reachable: Option<(StateGrid, SlicedCoset<'a>)>,
}

/// The goals of `board` on `solver`, one per target.
pub(super) fn goals<'a>(
    solver: &'a StateSolver,
    board: &StateGrid,
    targets: &[StateTarget],
) -> Result<Vec<Goal<'a>>, Error> {
    let k = solver.states().get();
    let gens: Vec<(&'a [u8], u32)> = solver.quiet_patterns().iter().map(|(g, o)| (g.cells(), *o)).collect();
    targets
        .iter()
        .map(|target| {
            let reachable = solver.particular_to(board, target)?.map(|x| {
                let coset = SlicedCoset::new(k, x.cells(), &gens);
                (x, coset)
            });
            Ok(Goal { target: target.clone(), reachable })
        })
        .collect()
}

pub(super) fn target_word(target: &StateTarget) -> String {
    match target {
        StateTarget::Uniform(s) => s.to_string(),
        StateTarget::Board(_) => "board".into(),
    }
}

/// Whether a coset of `members` (None: past 2^64) is searched
/// Why a kernel is not searched exhaustively: its size against what
/// `--max-nullity budget` allows (one wording for every note and error).
pub(super) fn beyond_budget(solver: &StateSolver, budget: usize) -> String {
    format!(
        "the kernel has {} (2^{:.1}), more than the 2^{budget} that --max-nullity {budget} allows",
        crate::present::members(&solver.kernel_size()),
        solver.kernel_size_log2()
    )
}

/// exhaustively within `--max-nullity budget` (members ≤ 2^budget).
fn within(members: Option<u64>, budget: usize) -> bool {
    members.is_some_and(|m| budget >= 63 || m <= 1u64 << budget)
}

/// `lightsout --states K` with `--shard`, `--checkpoint` or `--time-limit`:
/// one board's exhaustive search, sliced, saved and resumable, or stopped
/// at a time limit with the best found.
pub(super) fn solve(args: &SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
    let search_args = &args.search;
    let max_memory = args.memory.max_memory;
    let states = args.puzzle.modulus();
    let k = states.get();
    let targets = args.target.resolve_states(&args.source, states, max_memory)?;
    let mut boards = Vec::new();
    let input =
        super::states::StateInput { source: &args.source, puzzle: &args.puzzle, max_memory, stream: false };
    input.announce_typing(io.stdin_is_terminal, io.stderr);
    super::states::for_each_board(input, io.stdin, io.stdin_is_terminal, &mut |_, board, _| {
        boards.push(board);
        if boards.len() > 1 {
            return Err(Error::BadInput(
                "--shard, --checkpoint and --time-limit search one board; the input has more".into(),
            )
            .into());
        }
        Ok(())
    })?;
    let board = boards.pop().ok_or_else(|| Error::BadInput("no board in input".into()))?;
    let puzzle = args.puzzle.puzzle(board.nrows(), board.ncols())?;
    let method: Method = args.method.into();
    let budget = args.max_nullity;
    let solver = StateSolver::new(&puzzle, states, method, budget.min(63) as u32, max_memory)
        .map_err(|e| solver_failure(e, &puzzle, method, &smaller_or_more_memory))?;
    let goals = goals(&solver, &board, &targets)?;
    let shard = search_args.shard.unwrap_or(Shard::WHOLE);
    let exhaustive_only = search_args.shard.is_some() || search_args.checkpoint.is_some();
    let kernel = solver.kernel_size();
    let exhaustive = goals
        .iter()
        .filter_map(|g| g.reachable.as_ref())
        .all(|(_, c)| within(c.members(), budget) && c.layout().is_some());
    if exhaustive_only && !exhaustive {
        let log2 = solver.kernel_size_log2();
        let error = Error::Limit(format!(
            "{}, so there is nothing to shard or checkpoint",
            beyond_budget(&solver, budget)
        ));
        let need = log2.ceil() as u64;
        let hint = if need <= 63 {
            format!("give --max-nullity {need} to search all its members")
        } else {
            "an exhaustive search walks at most 2^63 members: solve it without --shard or --checkpoint".into()
        };
        return Err(Failure::hinted(error, hint));
    }
    let searches = goals
        .iter()
        .map(|g| StateTargetSearch {
            target: target_word(&g.target),
            kernel_size: kernel.clone(),
            reachable: g.reachable.is_some(),
            state: g
                .reachable
                .as_ref()
                .filter(|(_, c)| within(c.members(), budget))
                .and_then(|(_, c)| StateSearchState::new(c, shard)),
        })
        .collect();
    let problem = StateProblem::of(&puzzle, k, &board, &targets, method);
    let mut record = StateRecord {
        lightsout: "search".into(),
        version: STATE_RECORD_VERSION,
        hash: problem.hash(),
        problem,
        shard,
        searches,
        milliseconds: 0,
        checksum: String::new(),
    };
    if let Some(path) = search_args.checkpoint.as_ref().filter(|p| p.exists()) {
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::BadInput(format!("cannot read {source}: {e}")))?;
        resume(&mut record, StateRecord::parse(&text, &source)?, &goals, &source)?;
    }
    if let Some(path) = &search_args.checkpoint {
        // Saved once before any work: a path that cannot be written is
        // found now, not after the search.
        save(&record, path)?;
    }
    let stopped = run(&mut record, &goals, search_args)?;
    if let (Some(path), true) = (&search_args.checkpoint, stopped == Stop::Interrupted) {
        let _ = writeln!(
            io.stderr,
            "lightsout: interrupted; the search is saved in {}: run the same command to go on",
            path.display()
        );
        return Ok(130);
    }
    if search_args.shard.is_some() {
        writeln!(io.stdout, "{}", record.to_line())?;
        if stopped != Stop::Done {
            let _ = writeln!(
                io.stderr,
                "lightsout: note: shard {shard} stopped before its end; `merge` needs it complete \
                 (resume it with --checkpoint)"
            );
        }
        return Ok(0);
    }
    let mut outcomes = Vec::new();
    let mut notes = Vec::new();
    for (goal, entry) in goals.iter().zip(&record.searches) {
        let Some((particular, coset)) = &goal.reachable else {
            outcomes.push(StateOutcome { target: goal.target.clone(), solution: None });
            continue;
        };
        let name = state_target_name(&goal.target);
        let (presses, proven, bound) = match &entry.state {
            Some(state) if state.is_complete() => {
                let mask = state.best.map_or(Mask::ZERO, |b| b.mask);
                let presses =
                    coset.member(mask).ok_or_else(|| Error::Internal("a mask off the coset".into()))?;
                let total = presses.iter().map(|&v| u64::from(v)).sum();
                (presses, true, total)
            }
            state => {
                // Stopped at the time limit, or beyond --max-nullity: the
                // lighter of the searched part's best and a local search,
                // proven only when it meets the lower bound.
                let gens: Vec<(&[u8], u32)> =
                    solver.quiet_patterns().iter().map(|(g, o)| (g.cells(), *o)).collect();
                let local = minimize(k, particular.cells(), &gens, 0);
                let searched = state.as_ref().and_then(|s| Some((s.best?, s)));
                let (presses, total) = match searched {
                    Some((best, _)) if best.weight <= local.total => {
                        let member = coset
                            .member(best.mask)
                            .ok_or_else(|| Error::Internal("a mask off the coset".into()))?;
                        (member, best.weight)
                    }
                    _ => (local.presses.clone(), local.total),
                };
                let bound = local.lower_bound.min(total);
                let proven = total <= local.lower_bound;
                let how = match state {
                    Some(s) => format!(
                        "the exhaustive search covered {} of the kernel's {kernel} members before its time limit",
                        s.members_searched()
                    ),
                    None => format!("{}; a local search found it", beyond_budget(&solver, budget)),
                };
                if !proven {
                    notes.push((
                        name.clone(),
                        format!("{name}: {total} presses, not proven minimal; {how}; at least {bound}"),
                    ));
                }
                (presses, proven, bound)
            }
        };
        let presses = StateGrid::from_cells(board.nrows(), board.ncols(), presses)
            .ok_or_else(|| Error::Internal("a press set of the wrong size".into()))?;
        reapply(&solver, &board, &presses, &goal.target)?;
        let solution = StateSolution { presses, proven_minimal: proven, lower_bound: bound };
        outcomes.push(StateOutcome { target: goal.target.clone(), solution: Some(solution) });
    }
    let answer = StateAnswer { outcomes };
    print_answer(&board, &solver, &answer, args.format, args.show, io)?;
    let best = answer.best().map(|(t, _)| state_target_name(t));
    for (_, note) in notes.iter().filter(|(name, _)| targets.len() == 1 || Some(name) == best.as_ref()) {
        let _ = writeln!(io.stderr, "lightsout: note: board 1, {note}");
    }
    // No --output: plan.rs refuses it with --shard, --checkpoint and
    // --time-limit, the flags that lead here.
    Ok(0)
}

/// Every press set is re-applied before it is printed.
pub(super) fn reapply(
    solver: &StateSolver,
    board: &StateGrid,
    presses: &StateGrid,
    target: &StateTarget,
) -> Result<(), Error> {
    let reached = solver.apply(board, presses)?;
    let wanted = match target {
        StateTarget::Uniform(s) => StateGrid::filled(board.nrows(), board.ncols(), *s),
        StateTarget::Board(goal) => goal.clone(),
    };
    if reached != wanted {
        return Err(Error::Internal(
            "a K-state search's press set, re-applied, does not reach its target".into(),
        ));
    }
    Ok(())
}

pub(super) fn print_answer(
    board: &StateGrid,
    solver: &StateSolver,
    answer: &StateAnswer,
    format: Format,
    show: bool,
    io: &mut Streams,
) -> Result<(), Failure> {
    let report = StateReport { index: 1, board, solver, answer };
    let text = match format {
        Format::Poj => report.poj(show),
        Format::Text => report.text(show),
        Format::Json => report.json() + "\n",
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(())
}

/// Takes over the progress of `saved`, a checkpoint of this search, once
/// it holds up against the cosets.
fn resume(record: &mut StateRecord, saved: StateRecord, goals: &[Goal], source: &str) -> Result<(), Error> {
    let bad = |why: &str| Error::BadInput(format!("{source}: {why}"));
    if saved.hash != record.hash {
        return Err(bad(
            "checkpoint of another problem (board, states, rule, shape, target or method differ)",
        ));
    }
    if saved.searches.len() != record.searches.len() {
        return Err(bad("checkpoint does not match this search"));
    }
    for ((old, new), goal) in saved.searches.iter().zip(&record.searches).zip(goals) {
        let fits = match (&old.state, &new.state, &goal.reachable) {
            (Some(o), Some(n), Some((_, c))) => {
                if o.shard == n.shard && o.fits(c) {
                    // An edited checkpoint resealed: its best must hold.
                    o.verify(c).map_err(|why| bad(&format!("checkpoint does not hold up: {why}")))?;
                }
                o.shard == n.shard && o.fits(c)
            }
            (None, None, _) => true,
            _ => false,
        };
        let same =
            (&old.target, &old.kernel_size, old.reachable) == (&new.target, &new.kernel_size, new.reachable);
        if !fits || !same {
            return Err(bad("checkpoint of another slice, --max-nullity or version of this search"));
        }
    }
    record.searches = saved.searches;
    record.milliseconds = saved.milliseconds;
    Ok(())
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
fn run(record: &mut StateRecord, goals: &[Goal], args: &SearchArgs) -> Result<Stop, Error> {
    let started = Instant::now();
    let interrupted = Arc::new(AtomicBool::new(false));
    if args.checkpoint.is_some() {
        let flag = Arc::clone(&interrupted);
        // One handler a process (tests run many searches): the first
        // one's flag then stays in charge.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let before = record.milliseconds;
    let elapsed = |started: Instant| before + started.elapsed().as_millis() as u64;
    let states = || record.searches.iter().filter_map(|s| s.state.as_ref());
    let (total, done): (u64, u64) = (states().map(|s| s.units).sum(), states().map(|s| s.done).sum());
    let bar = if total > 0 { terminal_bar(total, "tasks") } else { indicatif::ProgressBar::hidden() };
    bar.set_position(done);
    let mut last_save = Instant::now();
    let mut stop = Stop::Done;
    for (index, goal) in goals.iter().enumerate() {
        let (Some(mut state), Some((_, coset))) = (record.searches[index].state.clone(), &goal.reachable)
        else {
            continue;
        };
        let mut failure = None;
        let done_before: u64 =
            record.searches[..index].iter().filter_map(|s| s.state.as_ref()).map(|s| s.done).sum();
        state.run(coset, &mut |s| {
            bar.set_position(done_before + s.done);
            if interrupted.load(Ordering::SeqCst) {
                stop = Stop::Interrupted;
            } else if args.time_limit.is_some_and(|t| started.elapsed().as_secs_f64() >= t) {
                stop = Stop::TimeLimit;
            }
            let due = last_save.elapsed().as_secs_f64() >= args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
            if let (Some(path), true) = (&args.checkpoint, due || stop != Stop::Done) {
                let mut saved = record.clone();
                saved.searches[index].state = Some(s.clone());
                saved.milliseconds = elapsed(started);
                if let Err(e) = save(&saved, path) {
                    failure = Some(e);
                    return ControlFlow::Break(());
                }
                last_save = Instant::now();
            }
            if stop == Stop::Done { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
        });
        record.searches[index].state = Some(state);
        if let Some(e) = failure {
            return Err(e);
        }
        if stop != Stop::Done {
            break;
        }
    }
    bar.finish_and_clear();
    record.milliseconds = elapsed(started);
    if let Some(path) = &args.checkpoint {
        save(record, path)?;
    }
    Ok(stop)
}
