//! Long searches for one board: `--shard`, `--checkpoint`, `--time-limit`,
//! and `lightsout merge`.
//!
//! A run keeps one [`Record`]: the problem (board, rule, topology, target,
//! method),
//! its hash, and per target the [`SearchState`] of the exhaustive search.
//! A checkpoint is that record written atomically; a shard prints it as one
//! JSON line; `merge` reads records back and claims a proven minimum only
//! when every slice of one problem is there exactly once.

use std::io::Write;
use std::ops::ControlFlow;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::*;
use crate::{Budget, Coset, MergeError, Outcome, SearchState, Shard, improve, merge, parse_boards};

/// Seconds between checkpoints unless --checkpoint-every says otherwise.
const CHECKPOINT_EVERY: f64 = 60.0;

/// Version of the record format; a record of another version is refused.
const RECORD_VERSION: u32 = 1;

/// What is searched: everything that decides the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Problem {
    rows: usize,
    cols: usize,
    topology: String,
    /// The rule as a mask (`010/111/010`).
    rule: String,
    /// The board, a `b`/`w` string per row.
    board: Vec<String>,
    /// `white`, `black`, `either`, or a target board's rows joined by `/`.
    target: String,
    /// `auto`, `dense` or `chase`: the method picks the basis of quiet
    /// patterns, and so what a mask means.
    method: String,
}

impl Problem {
    /// SHA-256 of the problem and the record version.
    fn hash(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        hex(&Sha256::digest(format!("lightsout-search/{RECORD_VERSION}/{text}").as_bytes()))
    }

    fn method(&self) -> Result<Method, Error> {
        match self.method.as_str() {
            "auto" => Ok(Method::Auto),
            "dense" => Ok(Method::Dense),
            "chase" => Ok(Method::Chase),
            other => Err(Error::BadInput(format!("unknown method '{other}'"))),
        }
    }

    fn puzzle(&self) -> Result<Puzzle, Error> {
        let topology = match self.topology.as_str() {
            "plane" => Topology::Plane,
            "torus" => Topology::Torus,
            other => return Err(Error::BadInput(format!("unknown topology '{other}'"))),
        };
        let rule = Rule::from_mask(&self.rule).map_err(Error::BadInput)?;
        Ok(Puzzle::new(self.rows, self.cols)?.with_topology(topology).with_rule(rule))
    }

    fn board(&self) -> Result<Grid, Error> {
        parse_grid(&self.board, self.rows, self.cols)
    }

    /// The targets, in the order they are answered.
    fn targets(&self) -> Result<Vec<Target>, Error> {
        Ok(match self.target.as_str() {
            "white" => vec![Target::White],
            "black" => vec![Target::Black],
            "either" => Target::EITHER.to_vec(),
            board => {
                let lines: Vec<String> = board.split('/').map(str::to_string).collect();
                vec![Target::Board(parse_grid(&lines, self.rows, self.cols)?)]
            }
        })
    }
}

fn parse_grid(lines: &[String], rows: usize, cols: usize) -> Result<Grid, Error> {
    let text = lines.join("\n") + "\n";
    parse_boards(text.as_bytes(), "record", Some(rows), Some(cols))?
        .into_iter()
        .next()
        .ok_or_else(|| Error::BadInput("record has no board".into()))
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One target's search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TargetSearch {
    target: String,
    nullity: usize,
    reachable: bool,
    /// The exhaustive search (absent when unreachable, or when the nullity
    /// is above --max-nullity).
    state: Option<SearchState>,
}

/// What a sharded run prints and a checkpoint holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct Record {
    lightsout: String,
    version: u32,
    hash: String,
    problem: Problem,
    /// The slice this record covers (the same for every target).
    shard: Shard,
    searches: Vec<TargetSearch>,
    /// Milliseconds spent searching, over every run that resumed this
    /// record (whole numbers: a float would not survive the checksum's
    /// round trip through JSON exactly).
    milliseconds: u64,
    /// SHA-256 of the record with this field empty: an edited or truncated
    /// record is refused.
    checksum: String,
}

/// A record that carries a checksum of itself.
trait Sealed: Serialize + Clone {
    fn checksum_mut(&mut self) -> &mut String;

    /// The record with its checksum: SHA-256 of its JSON with the checksum
    /// empty.
    fn sealed(mut self) -> Self {
        *self.checksum_mut() = String::new();
        let digest = hex(&Sha256::digest(serde_json::to_string(&self).unwrap_or_default().as_bytes()));
        *self.checksum_mut() = digest;
        self
    }

    fn to_line(&self) -> String {
        serde_json::to_string(&self.clone().sealed()).unwrap_or_default()
    }

    fn checksum_holds(&self) -> bool {
        let mut copy = self.clone();
        let claimed = std::mem::take(copy.checksum_mut());
        *copy.sealed().checksum_mut() == claimed
    }
}

impl Sealed for Record {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

/// Reads `text` as a record of kind `kind` (`search` or `table`), refusing
/// another kind, another version, or a checksum that does not hold.
fn parse_sealed<T: Sealed + serde::de::DeserializeOwned>(
    text: &str,
    source: &str,
    kind: &str,
) -> Result<T, Error> {
    let bad = |why: String| Error::BadInput(format!("{source}: {why}"));
    let value: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| bad(format!("not a lightsout search record ({e})")))?;
    let (found, version) =
        (value["lightsout"].as_str().unwrap_or("?"), value["version"].as_u64().unwrap_or(0));
    if found != kind || version != u64::from(RECORD_VERSION) {
        return Err(bad(format!(
            "a record of kind '{found}' version {version}, expected '{kind}' version {RECORD_VERSION}"
        )));
    }
    let record: T =
        serde_json::from_value(value).map_err(|e| bad(format!("not a lightsout search record ({e})")))?;
    if !record.checksum_holds() {
        return Err(bad("checksum does not match: the record was edited or damaged".into()));
    }
    Ok(record)
}

impl Record {
    /// Parses and checks a record read from `source`.
    fn parse(text: &str, source: &str) -> Result<Record, Error> {
        let record: Record = parse_sealed(text, source, "search")?;
        let shards = std::iter::once(record.shard)
            .chain(record.searches.iter().filter_map(|t| t.state.as_ref().map(|s| s.shard)));
        if shards.clone().any(|shard| !shard.is_valid() || shard != record.shard) {
            return Err(Error::BadInput(format!("{source}: its slice is not a valid K/N")));
        }
        if record.problem.hash() != record.hash {
            return Err(Error::BadInput(format!("{source}: problem hash does not match its problem")));
        }
        Ok(record)
    }
}

/// What a table's slice covers: everything that decides its numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TableProblem {
    pub(super) rows: (usize, usize),
    pub(super) cols: (usize, usize),
    pub(super) topology: String,
    pub(super) rule: String,
}

impl TableProblem {
    fn hash(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        hex(&Sha256::digest(format!("lightsout-table/{RECORD_VERSION}/{text}").as_bytes()))
    }
}

/// A slice of `lightsout table --shard K/N`: the nullity of some rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TableRecord {
    lightsout: String,
    version: u32,
    hash: String,
    problem: TableProblem,
    shard: Shard,
    /// Per row of the slice (every N-th row from row K of the range), the
    /// nullity of each column.
    nullity: Vec<Vec<usize>>,
    checksum: String,
}

impl Sealed for TableRecord {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

/// The JSON line a table's slice prints.
pub(super) fn table_record(problem: TableProblem, shard: Shard, nullity: Vec<Vec<usize>>) -> String {
    let hash = problem.hash();
    let record = TableRecord {
        lightsout: "table".into(),
        version: RECORD_VERSION,
        hash,
        problem,
        shard,
        nullity,
        checksum: String::new(),
    };
    record.to_line()
}

/// Writes `record` to `path` atomically: a temporary file beside it, then a
/// rename, so a crash never leaves half a checkpoint.
fn save(record: &Record, path: &Path) -> Result<(), Error> {
    let fail =
        |e: std::io::Error| Error::BadInput(format!("cannot write checkpoint {}: {e}", path.display()));
    let mut temporary = path.as_os_str().to_owned();
    temporary.push(".tmp");
    let temporary = PathBuf::from(temporary);
    let mut file = std::fs::File::create(&temporary).map_err(fail)?;
    writeln!(file, "{}", record.to_line()).map_err(fail)?;
    file.sync_all().map_err(fail)?;
    std::fs::rename(&temporary, path).map_err(fail)
}

/// A board's problem and the solver and cosets that search it.
struct Search {
    record: Record,
    board: Grid,
    solver: Solver,
    /// Per target: the target and, when reachable, its coset.
    goals: Vec<(Target, Option<Reachable>)>,
}

/// A reachable target's particular solution and the coset around it.
type Reachable = (Grid, Coset);

impl Search {
    /// Sets up a fresh search of slice `shard` of `problem`.
    fn new(
        problem: Problem,
        max_nullity: usize,
        max_memory: u64,
        shard: Shard,
        exhaustive_only: bool,
    ) -> Result<Search, Failure> {
        let puzzle = problem.puzzle()?;
        let board = problem.board()?;
        let method = problem.method()?;
        let solver = Solver::with_memory_limit(&puzzle, method, max_nullity, max_memory)
            .map_err(|e| solver_failure(e, &puzzle, method))?;
        let nullity = solver.nullity();
        if nullity > MAX_EXHAUSTIVE_NULLITY && exhaustive_only {
            let error = Error::Limit(format!(
                "an exhaustive search weighs at most {MAX_EXHAUSTIVE_NULLITY} quiet patterns (a mask is 64 bits); \
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
            let error = Error::Limit(format!(
                "a search weighs the {nullity} quiet patterns of this {}x{} board, which do not fit \
                 --max-memory {}",
                problem.rows,
                problem.cols,
                format_bytes(max_memory)
            ));
            return Err(Failure::hinted(error, "raise it"));
        }
        let mut goals = Vec::new();
        let mut searches = Vec::new();
        for target in problem.targets()? {
            let coset = match solver.particular_to(&board, &target)? {
                Some(x) => {
                    let mut rhs = board.clone();
                    rhs.xor_assign(&target.grid(board.nrows(), board.ncols()));
                    let coset = Coset::for_problem(&puzzle, &rhs, &x, solver.quiet_patterns());
                    Some((x, coset))
                }
                None => None,
            };
            let exhaustive = nullity <= max_nullity.min(MAX_EXHAUSTIVE_NULLITY);
            let state = coset.as_ref().filter(|_| exhaustive).map(|(_, c)| SearchState::new(c, shard));
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
                (Some(o), Some(n), Some((_, c))) => o.shard == n.shard && o.fits(c),
                (None, None, _) => true,
                _ => false,
            };
            if !fits || old.reachable != new.reachable || old.target != new.target {
                return Err(bad("checkpoint of another slice, --max-nullity or version of this search"));
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
    let too_big = |_: &crate::Puzzle| super::SMALLER_OR_MORE_MEMORY.to_string();
    let max_memory = args.memory.max_memory;
    let mut input = read_input(&args.source, &args.puzzle, dense, max_memory, &too_big, io.stdin, false)?;
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
    let target = match targets {
        [Target::Board(goal)] if (goal.nrows(), goal.ncols()) != (board.nrows(), board.ncols()) => {
            return Err(Error::BadInput(format!(
                "target board is {}x{} but the puzzle is {}x{}",
                goal.nrows(),
                goal.ncols(),
                board.nrows(),
                board.ncols()
            ))
            .into());
        }
        [Target::Board(goal)] => grid_lines(goal, 'b', 'w').join("/"),
        [Target::White, Target::Black] => "either".into(),
        [colour] => colour.name().into(),
        _ => return Err(Error::Internal("a search has one target, or the two colours".into()).into()),
    };
    let problem = Problem {
        rows: board.nrows(),
        cols: board.ncols(),
        topology: topology_name(puzzle.topology()).into(),
        rule: puzzle.rule().mask(),
        board: grid_lines(&board, 'b', 'w'),
        target,
        method: format!("{:?}", args.method).to_lowercase(),
    };
    let shard = search_args.shard.unwrap_or(Shard::WHOLE);
    let exhaustive_only = search_args.shard.is_some() || search_args.checkpoint.is_some();
    let mut search = Search::new(problem, args.max_nullity, max_memory, shard, exhaustive_only)?;
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
    let total: u64 = search.record.searches.iter().filter_map(|s| s.state.as_ref()).map(|s| s.blocks).sum();
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

/// Turns a finished (or stopped) search into the answer `solve` prints.
fn answer(
    search: &Search,
    format: Format,
    show: bool,
    time_limit: Option<f64>,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let mut answer = Answer::default();
    let mut notes = Vec::new();
    for (entry, (target, coset)) in search.record.searches.iter().zip(&search.goals) {
        let Some((particular, coset)) = coset else {
            answer.outcomes.push(Outcome { target: target.clone(), solution: None });
            continue;
        };
        let name = target.name();
        let (mask, proven, note) = match &entry.state {
            Some(state) if state.is_complete() => (state.best.map_or(0, |b| b.mask), true, None),
            state => {
                // Stopped early, or beyond exhaustive reach: the best of the
                // searched part and of a local search, with a lower bound.
                // Beyond exhaustive reach the whole --time-limit goes to the
                // local search; after a stopped exhaustive search, its usual
                // fraction of a second.
                let budget = match (state, time_limit) {
                    (None, Some(t)) => Budget {
                        descents: u64::MAX,
                        work: u64::MAX,
                        time_limit: Some(Duration::from_secs_f64(t)),
                        ..Budget::default()
                    },
                    _ => Budget::default(),
                };
                let local = improve(coset, &budget);
                let best = crate::Best::better(state.as_ref().and_then(|s| s.best), Some(local.best))
                    .unwrap_or(local.best);
                let proven = best.weight <= local.lower_bound;
                let searched = state.as_ref().map_or(0, |s| s.members_searched());
                let how = match state {
                    Some(_) => format!(
                        "the exhaustive search covered {searched} of 2^{} members (orbits included) before \
                         its time limit",
                        coset.nullity()
                    ),
                    None => format!(
                        "nullity {} is above --max-nullity: {} descents of a local search",
                        coset.nullity(),
                        local.descents
                    ),
                };
                let note = format!(
                    "{name}: {} presses, {}; {how}; lower bound {}",
                    best.weight,
                    if proven { "minimal (meets the lower bound)" } else { "not proven minimal" },
                    local.lower_bound
                );
                (best.mask, proven, Some(note))
            }
        };
        let mask = coset.original_mask(mask);
        let presses = search.solver.presses_for_mask(&search.board, target, particular, mask)?;
        notes.extend(note);
        let solution = Some(Solution { presses, proven_minimal: proven });
        answer.outcomes.push(Outcome { target: target.clone(), solution });
    }
    print_answer(search, &answer, format, show, io)?;
    for note in notes {
        let _ = writeln!(io.stderr, "lightsout: note: board 1, {note}");
    }
    Ok(0)
}

fn print_answer(
    search: &Search,
    answer: &Answer,
    format: Format,
    show: bool,
    io: &mut Streams,
) -> Result<(), Failure> {
    let report = Report { index: 1, board: &search.board, solver: &search.solver, answer };
    let text = match format {
        Format::Poj => report.poj(show),
        Format::Text => report.text(show),
        Format::Json => report.json() + "\n",
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(())
}

/// Combines shards into the proven minimum (or the whole table), or says
/// which are missing.
pub(super) fn merge_command(args: MergeArgs, io: &mut Streams) -> Result<u8, Failure> {
    let mut texts = Vec::new();
    for path in &args.files {
        let source = path.display().to_string();
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::BadInput(format!("cannot read {source}: {e}")))?;
        texts.push((source, text));
    }
    let kind = serde_json::from_str::<serde_json::Value>(texts[0].1.trim())
        .ok()
        .and_then(|v| v["lightsout"].as_str().map(str::to_string));
    if kind.as_deref() == Some("table") {
        if args.show {
            return Err(Error::BadInput("--show is for searches; a table has no press grid".into()).into());
        }
        return merge_tables(&texts, args.format, io);
    }
    let format = match args.format {
        None | Some(MergeFormat::Poj) => Format::Poj,
        Some(MergeFormat::Text) => Format::Text,
        Some(MergeFormat::Json) => Format::Json,
        Some(MergeFormat::Csv) => {
            return Err(Error::BadInput(
                "--format csv is for tables; a search merges to poj, text or json".into(),
            )
            .into());
        }
    };
    let mut records = Vec::new();
    for (source, text) in &texts {
        records.push((source.clone(), Record::parse(text, source)?));
    }
    // Every slice exactly once, whatever the targets hold (even when none
    // is reachable and there is nothing to weigh).
    let parts: Vec<(&str, &str, Shard)> =
        records.iter().map(|(s, r)| (s.as_str(), r.hash.as_str(), r.shard)).collect();
    check_one_split(&parts, "searched another problem")?;
    let first = &records[0].1;
    // For naming an unfinished slice's file.
    let named: Vec<(String, Shard)> = records.iter().map(|(s, r)| (s.clone(), r.shard)).collect();
    if args.show && format == Format::Json {
        return Err(Error::BadInput(
            "--show prints grids beside text; JSON already holds the press grid".into(),
        )
        .into());
    }
    let search = Search::new(first.problem.clone(), MAX_EXHAUSTIVE_NULLITY, u64::MAX, Shard::WHOLE, false)?;
    let mut answer = Answer::default();
    for (index, (target, coset)) in search.goals.iter().enumerate() {
        let name = target.name();
        let Some((particular, coset)) = coset else {
            answer.outcomes.push(Outcome { target: target.clone(), solution: None });
            continue;
        };
        let mut states = Vec::new();
        for (source, record) in &records {
            let state = record.searches.get(index).and_then(|s| s.state.as_ref()).ok_or_else(|| {
                Error::BadInput(format!(
                    "{source}: holds no exhaustive search of {name} to merge (it ran with a --max-nullity \
                     below the nullity)"
                ))
            })?;
            if !state.fits(coset) || state.shard != record.shard {
                return Err(Error::BadInput(format!("{source}: its slice does not fit this search")).into());
            }
            states.push(state);
        }
        let best = merge(&states).map_err(|e| Error::BadInput(coverage_error(&e, &named)))?;
        let mask = best.map_or(0, |b| b.mask);
        if let Some(b) = best.filter(|b| coset.weight(b.mask) != b.weight) {
            return Err(Error::BadInput(format!(
                "a record claims {} presses for a member that has more",
                b.weight
            ))
            .into());
        }
        let mask = coset.original_mask(mask);
        let presses = search.solver.presses_for_mask(&search.board, target, particular, mask)?;
        let solution = Some(Solution { presses, proven_minimal: true });
        answer.outcomes.push(Outcome { target: target.clone(), solution });
    }
    print_answer(&search, &answer, format, args.show, io)?;
    Ok(0)
}

/// Joins the slices of one table, each exactly once, and prints it.
fn merge_tables(
    texts: &[(String, String)],
    format: Option<MergeFormat>,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let format = match format {
        None | Some(MergeFormat::Text) => TableFormat::Text,
        Some(MergeFormat::Csv) => TableFormat::Csv,
        Some(MergeFormat::Json) => TableFormat::Json,
        Some(MergeFormat::Poj) => {
            return Err(Error::BadInput(
                "--format poj is for searches; a table merges to text, csv or json".into(),
            )
            .into());
        }
    };
    let mut records: Vec<(String, TableRecord)> = Vec::new();
    for (source, text) in texts {
        let record: TableRecord = parse_sealed(text, source, "table")?;
        if !record.shard.is_valid() {
            return Err(Error::BadInput(format!("{source}: its slice is not a valid K/N")).into());
        }
        if record.problem.hash() != record.hash {
            return Err(Error::BadInput(format!("{source}: problem hash does not match its problem")).into());
        }
        records.push((source.clone(), record));
    }
    let parts: Vec<(&str, &str, Shard)> =
        records.iter().map(|(s, r)| (s.as_str(), r.hash.as_str(), r.shard)).collect();
    check_one_split(&parts, "tabulated other sizes or rules")?;
    let first = &records[0].1;
    let ((r0, r1), (c0, c1)) = (first.problem.rows, first.problem.cols);
    let total = (r1 - r0 + 1) as u64;
    let mut table = vec![Vec::new(); total as usize];
    for (source, record) in &records {
        let fits = record.nullity.len() as u64 == record.shard.len(total)
            && record.nullity.iter().all(|row| row.len() == c1 - c0 + 1);
        if !fits {
            return Err(Error::BadInput(format!("{source}: its rows do not fit its slice")).into());
        }
        for (i, row) in record.nullity.iter().enumerate() {
            table[record.shard.block(i as u64) as usize] = row.clone();
        }
    }
    super::study::write_table(&table, (r0, r1), (c0, c1), format, io.stdout)?;
    Ok(0)
}

/// Refuses parts (source, problem hash, slice) of another problem than the
/// first (`differs` says how) or that are not every slice of one split
/// exactly once.
fn check_one_split(parts: &[(&str, &str, Shard)], differs: &str) -> Result<(), Error> {
    let Some(&(first_source, first_hash, _)) = parts.first() else {
        return Err(Error::BadInput("no shards to merge".into()));
    };
    let foreign: Vec<&str> = parts.iter().filter(|p| p.1 != first_hash).map(|p| p.0).collect();
    if !foreign.is_empty() {
        return Err(Error::BadInput(format!("{} {differs} than {first_source}", foreign.join(", "))));
    }
    let named: Vec<(String, Shard)> =
        parts.iter().map(|&(source, _, shard)| (source.to_string(), shard)).collect();
    let shards: Vec<Shard> = parts.iter().map(|p| p.2).collect();
    crate::check_coverage(&shards).map_err(|e| Error::BadInput(coverage_error(&e, &named)))
}

fn coverage_error(e: &MergeError, shards: &[(String, Shard)]) -> String {
    // At most ten slices by number, then how many in all.
    let list = |v: &[u64]| {
        let shown: Vec<String> = v.iter().take(10).map(u64::to_string).collect();
        if v.len() > 10 {
            format!("{}, … ({} in all)", shown.join(", "), v.len())
        } else {
            shown.join(", ")
        }
    };
    match e {
        MergeError::Empty => "no shards to merge".into(),
        MergeError::MixedCounts(counts) => format!("shards of different splits: N = {}", list(counts)),
        MergeError::Duplicated(slices) => {
            let files: Vec<&str> = shards
                .iter()
                .filter(|(_, s)| slices.contains(&s.index))
                .map(|(f, _)| f.as_str())
                .take(10)
                .collect();
            format!("slices given more than once: {} ({})", list(slices), files.join(", "))
        }
        MergeError::Missing(slices) => {
            let count = shards.first().map_or(0, |(_, s)| s.count);
            format!("slices missing: {} of {count}", list(slices))
        }
        MergeError::Incomplete(index) => {
            let file = shards.iter().find(|(_, s)| s.index == *index).map_or("?", |(f, _)| f.as_str());
            format!(
                "{file}: slice {index} was stopped before its end; run its command again (with the \
                 --checkpoint it saved, if any) to finish it"
            )
        }
    }
}
