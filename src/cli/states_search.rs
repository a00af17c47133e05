//! Long K-state searches (`--states K`, K > 2): `--shard`, `--checkpoint`,
//! `--time-limit`, and `merge` of their records.
//!
//! The two-state long search (`search.rs`) in the shape of the K-state
//! game: a [`StateRecord`] holds the problem (with `states` and, on a
//! graph, the graph6), its hash, and per target the
//! [`StateSearchState`] of the exhaustive search over the kernel; it is
//! saved atomically as a checkpoint (`record::save`), printed as a shard's
//! line, and verified by `merge` against the problem rebuilt from it.
//! K-state records are version 2; two-state records stay version 1, their
//! fields and hashes unchanged.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::*;
use crate::present::{StateReport, state_target_name};
use crate::state_minimum::{SlicedCoset, StateSearchState, merge_states, minimize};
use crate::zk::Modulus;
use crate::{Graph, Shard, StateAnswer, StateOutcome, StateSolution, check_coverage};

/// Version of K-state search records (two-state ones are version 1).
pub(super) const STATE_RECORD_VERSION: u32 = 2;

/// Seconds between checkpoints unless --checkpoint-every says otherwise.
const CHECKPOINT_EVERY: f64 = 60.0;

/// What a K-state search answers: everything that decides its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StateProblem {
    /// K.
    states: u8,
    rows: usize,
    cols: usize,
    topology: String,
    /// The rule as a mask (`010/111/010`).
    rule: String,
    /// The board: one list of states per row.
    board: Vec<Vec<u8>>,
    /// `any`, a state number, or `board` (then `target_board` holds it).
    target: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    target_board: Option<Vec<Vec<u8>>>,
    /// `auto`, `dense` or `chase`: the method picks the generators of the
    /// kernel, and so what a mask means.
    method: String,
    /// The graph (graph6) of a puzzle on a graph; absent for a grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    graph: Option<String>,
}

impl StateProblem {
    fn hash(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        hex(&Sha256::digest(format!("lightsout-search/{STATE_RECORD_VERSION}/{text}").as_bytes()))
    }

    fn of(puzzle: &Puzzle, k: u8, board: &StateGrid, targets: &[StateTarget], method: Method) -> Self {
        let rows_of = |g: &StateGrid| (0..g.nrows()).map(|r| g.row(r).to_vec()).collect::<Vec<_>>();
        let (target, target_board) = match targets {
            [StateTarget::Uniform(s)] => (s.to_string(), None),
            [StateTarget::Board(goal)] => ("board".to_string(), Some(rows_of(goal))),
            _ => ("any".to_string(), None),
        };
        let method = match method {
            Method::Auto => "auto",
            Method::Dense => "dense",
            Method::Chase => "chase",
        };
        StateProblem {
            states: k,
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            topology: topology_name(puzzle.topology()).into(),
            rule: puzzle.rule().mask(),
            board: rows_of(board),
            target,
            target_board,
            method: method.into(),
            graph: puzzle.graph().map(Graph::to_graph6),
        }
    }

    /// The values the record holds, read back: puzzle, K, board, targets,
    /// method.
    fn question(&self) -> Result<(Puzzle, Modulus, StateGrid, Vec<StateTarget>, Method), Error> {
        let bad = |why: String| Error::BadInput(format!("record: {why}"));
        let states =
            Modulus::new(u32::from(self.states)).map_err(|_| bad(format!("{} states", self.states)))?;
        let method = match self.method.as_str() {
            "auto" => Method::Auto,
            "dense" => Method::Dense,
            "chase" => Method::Chase,
            other => return Err(bad(format!("unknown method '{other}'"))),
        };
        let topology = parse_topology(&self.topology)
            .ok_or_else(|| bad(format!("unknown topology '{}'", self.topology)))?;
        let rule = Rule::from_mask(&self.rule).map_err(Error::BadInput)?;
        let puzzle = match &self.graph {
            Some(graph6) => Puzzle::on_graph(Graph::parse(graph6.as_bytes(), "record")?, rule)?,
            None => Puzzle::new(self.rows, self.cols)?.with_topology(topology).with_rule(rule),
        };
        let grid = |rows: &[Vec<u8>]| {
            let cells: Vec<u8> = rows.iter().flatten().copied().collect();
            let shaped = rows.len() == puzzle.rows() && rows.iter().all(|r| r.len() == puzzle.cols());
            StateGrid::from_cells(puzzle.rows(), puzzle.cols(), cells)
                .filter(|g| shaped && g.max_state() < self.states)
                .ok_or_else(|| bad("a board that does not fit the puzzle or its states".into()))
        };
        let board = grid(&self.board)?;
        let targets = match (self.target.as_str(), &self.target_board) {
            ("any", None) => StateTarget::any(states),
            ("board", Some(rows)) => vec![StateTarget::Board(grid(rows)?)],
            (s, None) => match s.parse::<u8>() {
                Ok(s) if s < self.states => vec![StateTarget::Uniform(s)],
                _ => return Err(bad(format!("unknown target '{s}'"))),
            },
            _ => return Err(bad("a target board without target 'board'".into())),
        };
        Ok((puzzle, states, board, targets, method))
    }
}

/// One target's search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StateTargetSearch {
    /// The state number, or `board`.
    target: String,
    /// Members of the kernel, in decimal.
    kernel_size: String,
    reachable: bool,
    /// The exhaustive search (absent when unreachable, or when the kernel
    /// is above --max-nullity).
    state: Option<StateSearchState>,
}

/// What a sharded K-state run prints and its checkpoint holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StateRecord {
    lightsout: String,
    version: u32,
    hash: String,
    problem: StateProblem,
    shard: Shard,
    searches: Vec<StateTargetSearch>,
    /// Milliseconds spent searching, over every run that resumed it.
    milliseconds: u64,
    /// SHA-256 of the record with this field empty.
    checksum: String,
}

impl Sealed for StateRecord {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

/// Whether `text` is a K-state search record (version 2), by its header.
pub(super) fn is_state_record(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text.trim()).is_ok_and(|v| {
        v["lightsout"] == "search" && v["version"].as_u64() == Some(u64::from(STATE_RECORD_VERSION))
    })
}

impl StateRecord {
    /// Reads `text` as a K-state search record, refusing another kind or
    /// version, a checksum that does not hold, a bad slice, or a hash that
    /// is not its problem's.
    fn parse(text: &str, source: &str) -> Result<StateRecord, Error> {
        let bad = |why: String| Error::BadInput(format!("{source}: {why}"));
        let value: serde_json::Value = serde_json::from_str(text.trim())
            .map_err(|e| bad(format!("not a lightsout search record ({e})")))?;
        let (found, version) =
            (value["lightsout"].as_str().unwrap_or("?"), value["version"].as_u64().unwrap_or(0));
        if found != "search" || version != u64::from(STATE_RECORD_VERSION) {
            return Err(bad(format!(
                "a record of kind '{found}' version {version}, expected a K-state search, version \
                 {STATE_RECORD_VERSION} (two-state searches are version {RECORD_VERSION})"
            )));
        }
        let record: StateRecord =
            serde_json::from_value(value).map_err(|e| bad(format!("not a lightsout search record ({e})")))?;
        if !record.checksum_holds() {
            return Err(bad("checksum does not match: the record was changed or cut short".into()));
        }
        if !record.shard.is_valid() {
            return Err(bad("its slice is not a valid K/N".into()));
        }
        if record.problem.hash() != record.hash {
            return Err(bad("problem hash does not match its problem".into()));
        }
        Ok(record)
    }
}

/// One target of a search: the target, and when reachable its particular
/// press set and the coset around it.
struct Goal<'a> {
    target: StateTarget,
    reachable: Option<(StateGrid, SlicedCoset<'a>)>,
}

/// The goals of `board` on `solver`, one per target.
fn goals<'a>(
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

fn target_word(target: &StateTarget) -> String {
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
            "the kernel has {kernel} members (2^{log2:.2}), more than the 2^{budget} of --max-nullity {budget}, \
             so there is nothing to shard or checkpoint"
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
                    None => format!(
                        "the kernel has {kernel} members, more than the 2^{budget} of --max-nullity {budget}; \
                         a local search found it"
                    ),
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
        recheck(&solver, &board, &presses, &goal.target)?;
        let solution = StateSolution { presses, proven_minimal: proven, lower_bound: bound };
        outcomes.push(StateOutcome { target: goal.target.clone(), solution: Some(solution) });
    }
    let answer = StateAnswer { outcomes };
    print_answer(&board, &solver, &answer, args.format, args.show, io)?;
    let best = answer.best().map(|(t, _)| state_target_name(t));
    for (_, note) in notes.iter().filter(|(name, _)| targets.len() == 1 || Some(name) == best.as_ref()) {
        let _ = writeln!(io.stderr, "lightsout: note: board 1, {note}");
    }
    if let (Some(path), Some((_, best))) = (&args.output, answer.best()) {
        let raw = !matches!(args.output_pbm, Some(PbmArg::Plain));
        let file = io::BufWriter::new(create(path)?);
        let mut file = write_pgm(file, &best.presses, k, raw).map_err(|e| output_error(args, e))?;
        file.flush().map_err(|e| output_error(args, e))?;
    }
    Ok(0)
}

/// Every press set is re-applied before it is printed.
fn recheck(
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
        return Err(Error::Internal("a K-state search's press set failed its re-check".into()));
    }
    Ok(())
}

fn print_answer(
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
    let (total, done): (u64, u64) = (states().map(|s| s.slice_tasks).sum(), states().map(|s| s.done).sum());
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

/// `lightsout merge` of K-state records: every slice of one problem
/// exactly once, each verified against the problem rebuilt from the
/// record, joined into the proven minimum.
pub(super) fn merge(
    texts: &[(String, String)],
    format: Format,
    show: bool,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let mut records = Vec::new();
    for (source, text) in texts {
        records.push((source.clone(), StateRecord::parse(text, source)?));
    }
    let (first_source, first) = &records[0];
    let foreign: Vec<&str> =
        records.iter().filter(|(_, r)| r.hash != first.hash).map(|(s, _)| s.as_str()).collect();
    if !foreign.is_empty() {
        return Err(Error::BadInput(format!(
            "{} searched another problem than {first_source}",
            foreign.join(", ")
        ))
        .into());
    }
    let named: Vec<(String, Shard)> = records.iter().map(|(s, r)| (s.clone(), r.shard)).collect();
    let shards: Vec<Shard> = records.iter().map(|(_, r)| r.shard).collect();
    check_coverage(&shards).map_err(|e| Error::BadInput(super::merge::coverage_error(&e, &named)))?;
    if show && format == Format::Json {
        return Err(Error::BadInput(
            "--show prints grids beside text; JSON already holds the press grid".into(),
        )
        .into());
    }
    let (puzzle, states, board, targets, method) = first.problem.question()?;
    let solver = StateSolver::new(&puzzle, states, method, 63, u64::MAX)
        .map_err(|e| solver_failure(e, &puzzle, method, &smaller_or_more_memory))?;
    let goals = goals(&solver, &board, &targets)?;
    let kernel = solver.kernel_size();
    let mut outcomes = Vec::new();
    for (index, goal) in goals.iter().enumerate() {
        let name = state_target_name(&goal.target);
        // Fields the rebuilt problem decides: an edited (and re-sealed)
        // record must not change them.
        for (source, record) in &records {
            let agrees = record.searches.len() == goals.len()
                && record.searches.get(index).is_some_and(|entry| {
                    entry.target == target_word(&goal.target)
                        && entry.kernel_size == kernel
                        && entry.reachable == goal.reachable.is_some()
                });
            if !agrees {
                return Err(Error::BadInput(format!(
                    "{source}: its target, kernel size or reachability of {name} disagrees with the problem"
                ))
                .into());
            }
        }
        let Some((_, coset)) = &goal.reachable else {
            outcomes.push(StateOutcome { target: goal.target.clone(), solution: None });
            continue;
        };
        let mut parts = Vec::new();
        for (source, record) in &records {
            let state = record.searches[index].state.as_ref().ok_or_else(|| {
                Error::BadInput(format!(
                    "{source}: holds no exhaustive search of {name} to merge (it ran with a --max-nullity \
                     below the kernel's size)"
                ))
            })?;
            if state.shard != record.shard {
                return Err(Error::BadInput(format!("{source}: its slice does not fit this search")).into());
            }
            parts.push(state);
        }
        let best = merge_states(coset, &parts)
            .map_err(|e| Error::BadInput(super::merge::coverage_error(&e, &named)))?;
        let mask = best.map_or(Mask::ZERO, |b| b.mask);
        let cells = coset.member(mask).ok_or_else(|| Error::Internal("a mask off the coset".into()))?;
        let presses = StateGrid::from_cells(board.nrows(), board.ncols(), cells)
            .ok_or_else(|| Error::Internal("a press set of the wrong size".into()))?;
        recheck(&solver, &board, &presses, &goal.target)?;
        let lower_bound = presses.total();
        let solution = StateSolution { presses, proven_minimal: true, lower_bound };
        outcomes.push(StateOutcome { target: goal.target.clone(), solution: Some(solution) });
    }
    print_answer(&board, &solver, &StateAnswer { outcomes }, format, show, io)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_problems_read_back() {
        let puzzle = Puzzle::new(2, 3).unwrap();
        let board = StateGrid::from_fn(2, 3, |r, c| ((r + c) % 3) as u8);
        let targets = vec![StateTarget::Board(StateGrid::filled(2, 3, 1))];
        let problem = StateProblem::of(&puzzle, 3, &board, &targets, Method::Auto);
        let (p, k, b, t, m) = problem.question().unwrap();
        assert_eq!((p.rows(), p.cols(), k.get(), b, t, m), (2, 3, 3, board, targets, Method::Auto));
        let mut edited = problem.clone();
        edited.board[0][0] = 3;
        assert!(edited.question().is_err(), "a state of K is refused");
        assert_ne!(edited.hash(), problem.hash());
    }
}
