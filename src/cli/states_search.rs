//! Long K-state searches (`--states K`, K > 2): `--shard`, `--checkpoint`,
//! `--time-limit`, and `merge` of their records.
//!
//! The two-state long search (`search.rs`) in the shape of the K-state
//! game: a K-state [`Record`] holds the problem (with `states` and, on a
//! graph, the graph6), its hash, and per target the
//! [`StateSearchState`] of the exhaustive search over the kernel; it runs
//! as every long search does (`long.rs`), and `merge` verifies it against
//! the problem rebuilt from it. K-state records (`record/states.rs`) are
//! version 2; two-state records stay version 1, their fields and hashes
//! unchanged.

use crate::cli::search::{print_answer, solution};
use crate::cli::{Failure, SolveArgs, Streams, smaller_or_more_memory, solver_failure};
use crate::present::{Report, beyond_budget, state_target_name};
use crate::solve::states::minimum::{SlicedCoset, StateSearchState};
use crate::solve::{LongSearch, Mask, Shard};
use crate::{Answer, Error, Method, Outcome, Solution, StateGrid, StateSolver, StateTarget};

use crate::record::{KStates, Record, StateProblem, StateTargetSearch};

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
    let goal = |target: &StateTarget| {
        Ok(Goal { target: target.clone(), reachable: solver.long_coset(board, target, false)? })
    };
    targets.iter().map(goal).collect()
}

/// Per goal, its coset when reachable.
pub(super) fn cosets<'c>(goals: &'c [Goal<'c>]) -> Vec<Option<&'c SlicedCoset<'c>>> {
    goals.iter().map(|g| g.reachable.as_ref().map(|(_, c)| c)).collect()
}

/// Per goal, the entry of a record: target, kernel size, reachability,
/// and a fresh search of `shard` when its coset is within `budget`.
pub(super) fn entries(goals: &[Goal], kernel: &str, budget: usize, shard: Shard) -> Vec<StateTargetSearch> {
    goals
        .iter()
        .map(|g| StateTargetSearch {
            target: target_word(&g.target),
            kernel_size: kernel.to_string(),
            reachable: g.reachable.is_some(),
            state: g
                .reachable
                .as_ref()
                .filter(|(_, c)| within(c.members(), budget))
                .and_then(|(_, c)| StateSearchState::new(c, shard)),
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
/// exhaustively within `--max-nullity budget` (members ≤ 2^budget).
fn within(members: Option<u64>, budget: usize) -> bool {
    members.is_some_and(|m| budget >= 63 || m <= 1u64 << budget)
}

/// `lightsout --states K` with `--shard`, `--checkpoint` or `--time-limit`:
/// one board's exhaustive search, sliced, saved and resumable, or stopped
/// at a time limit with the best found.
pub(super) fn solve(args: &SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
    let search_args = &args.search;
    super::interrupt::interrupt_flag();
    let max_memory = args.memory.max_memory;
    let states = args.puzzle.modulus();
    let targets = args.target.resolve_states(&args.source, states, max_memory)?;
    let board = one_board(args, io)?;
    let puzzle = args.puzzle.puzzle(board.nrows(), board.ncols())?;
    let method: Method = args.method.into();
    let budget = args.max_nullity;
    let solver = StateSolver::new(&puzzle, states, method, budget.min(63) as u32, max_memory)
        .map_err(|e| solver_failure(e, &puzzle, method, &smaller_or_more_memory))?;
    let goals = goals(&solver, &board, &targets)?;
    let shard = search_args.shard.unwrap_or(Shard::WHOLE);
    let exhaustive_only = search_args.shard.is_some() || search_args.checkpoint.is_some();
    let exhaustive = goals
        .iter()
        .filter_map(|g| g.reachable.as_ref())
        .all(|(_, c)| within(c.members(), budget) && c.layout().is_some());
    if exhaustive_only && !exhaustive {
        return Err(nothing_to_slice(&solver, budget));
    }
    let searches = entries(&goals, &solver.kernel_size(), budget, shard);
    let problem = StateProblem::of(&puzzle, states.get(), &board, &targets, method);
    let mut record = Record::<KStates>::new(problem, shard, searches);
    if let Some(code) = super::long::search(&mut record, &cosets(&goals), search_args, io)? {
        return Ok(code);
    }
    let mut outcomes = Vec::new();
    let mut notes = Vec::new();
    for (goal, entry) in goals.iter().zip(&record.searches) {
        let solution = match &goal.reachable {
            Some(reachable) => {
                let (solution, note) = answer(&solver, &board, goal, reachable, entry, budget)?;
                notes.extend(note.map(|note| (state_target_name(&goal.target), note)));
                Some(solution)
            }
            None => None,
        };
        outcomes.push(Outcome { target: goal.target.clone(), solution });
    }
    let answer = Answer { outcomes };
    let report = Report { index: 1, board: &board, solver: &solver, answer: &answer };
    print_answer(&report, args.format, args.show, io)?;
    let best = answer.best().map(|(t, _)| state_target_name(t));
    for (_, note) in notes.iter().filter(|(name, _)| targets.len() == 1 || Some(name) == best.as_ref()) {
        let _ = writeln!(io.stderr, "lightsout: note: board 1, {note}");
    }
    // No --output: plan.rs refuses it with --shard, --checkpoint and
    // --time-limit, the flags that lead here.
    Ok(0)
}

/// The one board a long search reads (more is refused).
fn one_board(args: &SolveArgs, io: &mut Streams) -> Result<StateGrid, Failure> {
    let mut boards = Vec::new();
    let input = super::input::StateInput {
        source: &args.source,
        puzzle: &args.puzzle,
        max_memory: args.memory.max_memory,
        stream: false,
    };
    input.announce_typing(io.stdin_is_terminal, io.stderr);
    super::input::for_each_board(input, io.stdin, io.stdin_is_terminal, &mut |_, board, _| {
        boards.push(board);
        if boards.len() > 1 {
            return Err(Error::BadInput(
                "--shard, --checkpoint and --time-limit search one board; the input has more".into(),
            )
            .into());
        }
        Ok(())
    })?;
    Ok(boards.pop().ok_or_else(|| Error::BadInput("no board in input".into()))?)
}

/// Refuses a sliced or checkpointed search of a kernel past the budget.
fn nothing_to_slice(solver: &StateSolver, budget: usize) -> Failure {
    let error = Error::Limit(format!(
        "{}, so there is nothing to shard or checkpoint",
        beyond_budget(solver, budget)
    ));
    let need = solver.kernel_size_log2().ceil() as u64;
    let hint = if need <= 63 {
        format!("give --max-nullity {need} to search all its members")
    } else {
        "an exhaustive search walks at most 2^63 members: solve it without --shard or --checkpoint".into()
    };
    Failure::hinted(error, hint)
}

/// A reachable target's solution after its run, with the note on a press
/// set not proven minimal.
fn answer(
    solver: &StateSolver,
    board: &StateGrid,
    goal: &Goal,
    (particular, coset): &(StateGrid, SlicedCoset),
    entry: &StateTargetSearch,
    budget: usize,
) -> Result<(Solution<StateGrid>, Option<String>), Error> {
    let target = &goal.target;
    if let Some(state) = entry.state.as_ref().filter(|s| s.is_complete()) {
        let mask = state.best.map_or(Mask::ZERO, |b| b.mask);
        let presses = solver.long_member(board, target, particular, coset, mask)?;
        let total = presses.total();
        return Ok((solution(presses, true, total), None));
    }
    // Stopped at the time limit, or beyond --max-nullity: the lighter of
    // the searched part's best and a local search, proven only when it
    // meets the lower bound.
    let searched = entry.state.as_ref().and_then(|s| s.best);
    let settled = solver.settle(board, target, particular, coset, searched, None)?;
    let proven = settled.proven();
    let (total, bound) = (settled.weight, settled.lower_bound);
    let how = match &entry.state {
        Some(s) => format!(
            "the exhaustive search covered {} of the kernel's {} members before its time limit",
            s.members_searched(),
            entry.kernel_size
        ),
        None => format!("{}; a local search found it", beyond_budget(solver, budget)),
    };
    let name = state_target_name(target);
    let note =
        (!proven).then(|| format!("{name}: {total} presses, not proven minimal; {how}; at least {bound}"));
    Ok((solution(settled.presses, proven, bound), note))
}
