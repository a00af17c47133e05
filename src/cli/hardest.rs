//! `lightsout hardest`: the most presses a solvable board of a size needs,
//! a board that needs them, and the boards by their fewest presses, for
//! both kinds of game (the library's `analysis::hardest`); its slices
//! (`--shard`, `--checkpoint`), and `merge` of their records.

use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use super::interrupt::interrupt_flag;
use super::long::Checkpoints;
use super::solve::create;
use super::{
    Failure, HardestArgs, Kind, MergeArgs, MergeFormat, PuzzleArgs, Streams, StudyFormat,
    smaller_or_more_memory, terminal_bar,
};
use crate::analysis::{
    DEFAULT_HARDEST_WORK, DistributionSlice, Goal, Hardest, HardestOptions, Weighed, distribution_cost,
    distribution_done, distribution_shards, hardest as weigh, hardest_cost, hardest_merged, hardest_slice,
};
use crate::present::{Shown, hardest_json, hardest_text, parse_bytes};
use crate::record::{HardestProblem, HardestRecord};
use crate::record::{Sealed, check_one_split, coverage_error};
use crate::solve::{DEFAULT_MAX_NULLITY, Limits, Shard};
use crate::{Error, Method, Solver, StateSolver};

pub(super) fn hardest<G: Kind>(args: HardestArgs, io: &mut Streams) -> Result<u8, Failure>
where
    G::Board: Shown<Solver = G>,
{
    args.puzzle.refuse_unused(None, None)?;
    let goal = crate::present::parse_goal(&args.target, args.puzzle.states)
        .map_err(|e| Error::BadInput(format!("--target {}: {e}", args.target)))?;
    let (rows, cols) = args.size.shape(args.puzzle.graph.as_deref());
    let max_memory = args.memory.max_memory;
    let mut solvers =
        G::solvers(&args.puzzle, Method::Auto, DEFAULT_MAX_NULLITY, max_memory, &smaller_or_more_memory);
    let game = solvers.for_shape(rows, cols)?;
    let spent = AtomicU64::new(0);
    let work = args.max_work.unwrap_or(DEFAULT_HARDEST_WORK);
    let options = HardestOptions { distribution: args.distribution, work, progress: Some(&spent) };
    let interrupted = interrupt_flag();
    let limits = Limits { stop: Some(interrupted), time_limit: args.time_limit.map(Duration::from_secs_f64) };
    if let Some(shard) = args.shard {
        return slice(game, goal, &args, shard, &options, &limits, io);
    }
    if args.checkpoint.is_some() || args.checkpoint_every.is_some() {
        return Err(Error::BadInput(
            "--checkpoint saves a slice of the distribution: give --distribution --shard K/N (1/1 for the whole count)"
                .into(),
        )
        .into());
    }
    let total = hardest_cost(game, goal, &options).map_err(|e| distribution_hint(e, game, goal, &args))?;
    let found = watched(&spent, 0.0, total, || weigh(game, goal, &options, &limits))
        .map_err(|e| distribution_hint(e, game, goal, &args))?;
    if let Some(path) = &args.output {
        let Some(board) = &found.board else {
            return Err(Error::Limit(format!(
                "no board was certified, so --output {} was not written",
                path.display()
            ))
            .into());
        };
        let mut file = BufWriter::new(create(path)?);
        G::write_board(&mut file, board, game)
            .and_then(|()| file.flush())
            .map_err(|e| Error::BadInput(format!("cannot write {}: {e}", path.display())))?;
    }
    print_hardest(game, goal, &found, args.format, io)?;
    if interrupted.load(Ordering::Relaxed) {
        let _ = writeln!(io.stderr, "lightsout: interrupted: the bounds above are the ones reached");
        return Ok(130);
    }
    if args.distribution && found.distribution.is_none() {
        // Asked for and not counted: a stated limit, not an answer.
        let limit = args.time_limit.map_or(String::new(), |t| format!(" {t}"));
        return Err(Error::Limit(format!(
            "--time-limit{limit} stopped the count before the distribution was complete: none is printed \
             (the bounds above are the ones reached); --shard K/N --checkpoint FILE keeps a count's work"
        ))
        .into());
    }
    Ok(0)
}

/// The hardest boards as text or one JSON line: what `hardest` prints,
/// and `merge` of its slices.
pub(super) fn print_hardest<G: Weighed>(
    game: &G,
    goal: Goal,
    found: &Hardest<G::Board>,
    format: StudyFormat,
    io: &mut Streams,
) -> Result<(), Failure>
where
    G::Board: Shown<Solver = G>,
{
    let text = match format {
        StudyFormat::Text => hardest_text(game, goal, found),
        StudyFormat::Json => hardest_json(game, goal, found).to_string() + "\n",
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(())
}

/// `merge` of hardest-boards records: every slice of one problem once,
/// joined into what `hardest --distribution` prints, in text or JSON.
pub(super) fn merge_hardest(
    texts: &[(String, String)],
    args: &MergeArgs,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let format = match args.format {
        None | Some(MergeFormat::Text) => StudyFormat::Text,
        Some(MergeFormat::Json) => StudyFormat::Json,
        Some(other) => {
            let name = if other == MergeFormat::Poj { "poj" } else { "csv" };
            return Err(Error::BadInput(format!(
                "--format {name} is not for a distribution; hardest records merge to text or json"
            ))
            .into());
        }
    };
    if args.show {
        return Err(Error::BadInput(
            "--show is for searches; a distribution's slices are checked against the walk as they merge"
                .into(),
        )
        .into());
    }
    let mut records = Vec::new();
    for (source, text) in texts {
        records.push((source.clone(), HardestRecord::parse(text, source)?));
    }
    // An unfinished slice first: it is the file to act on (in a folder,
    // the checkpoint of a slice still running).
    for (source, record) in &records {
        let len = record.shard.len(record.prefixes);
        if record.done < len {
            return Err(Error::BadInput(format!(
                "{source}: slice {} is unfinished ({} of its {len} prefixes walked), stopped before its end; \
                 resume it: run its command again with the --checkpoint that saved it",
                record.shard, record.done
            ))
            .into());
        }
    }
    let parts: Vec<(&str, &str, Shard)> =
        records.iter().map(|(s, r)| (s.as_str(), r.hash.as_str(), r.shard)).collect();
    check_one_split(&parts, "counted another problem")?;
    let (first_source, first) = &records[0];
    let (puzzle, states, goal) = first.problem.question(first_source)?;
    let puzzle = PuzzleArgs::of(&puzzle, states);
    if puzzle.states == 2 {
        merge_with::<Solver>(&records, &puzzle, goal, format, args.recheck, io)
    } else {
        merge_with::<StateSolver>(&records, &puzzle, goal, format, args.recheck, io)
    }
}

/// `--recheck SHARE`: that share of the slices (at least one), picked at
/// random, counted again here; a slice whose counts differ from its
/// record's is refused, naming the file. The checks of the merge catch a
/// record edited in its total or its heaviest; only counting again
/// catches cosets moved from one weight to another and sealed again.
fn recount<G: Weighed>(
    game: &G,
    goal: Goal,
    records: &[(String, HardestRecord)],
    share: f64,
    io: &mut Streams,
) -> Result<(), Failure> {
    let amount = ((records.len() as f64 * share).ceil() as usize).clamp(1, records.len());
    let picked = rand::seq::index::sample(&mut rand::rng(), records.len(), amount);
    let options = HardestOptions { distribution: true, work: u64::MAX, progress: None };
    for i in picked {
        let (source, record) = &records[i];
        let counted =
            hardest_slice(game, goal, &options, &Default::default(), record.shard, None, &mut |_| {})?;
        let claimed = record.slice();
        if counted.cosets != claimed.cosets || counted.heaviest != claimed.heaviest {
            let at = counted.cosets.iter().zip(&claimed.cosets).find(|(c, r)| c != r);
            let detail = match at {
                Some(((w, c), (_, r))) => format!(": {r} cosets of weight {w} recorded, {c} counted"),
                None => String::new(),
            };
            return Err(Error::BadInput(format!(
                "{source}: slice {} does not hold up: counted again, its cosets differ{detail}",
                record.shard
            ))
            .into());
        }
    }
    let plural = if amount == 1 { "" } else { "s" };
    let _ =
        writeln!(io.stderr, "lightsout: note: counted {amount} slice{plural} again, each as its record says");
    Ok(())
}

/// The merge for one kind of game: the game made as `hardest` makes it.
fn merge_with<G: Kind>(
    records: &[(String, HardestRecord)],
    puzzle: &PuzzleArgs,
    goal: Goal,
    format: StudyFormat,
    recheck: Option<f64>,
    io: &mut Streams,
) -> Result<u8, Failure>
where
    G::Board: Shown<Solver = G>,
{
    let first = &records[0].1.problem;
    let max_memory = parse_bytes(DEFAULT_MAX_MEMORY).map_err(Error::Internal)?;
    let mut solvers =
        G::solvers(puzzle, Method::Auto, DEFAULT_MAX_NULLITY, max_memory, &smaller_or_more_memory);
    let game = solvers.for_shape(first.rows, first.cols)?;
    let slices: Vec<DistributionSlice> = records.iter().map(|(_, r)| r.slice()).collect();
    let named: Vec<(String, Shard)> = records.iter().map(|(s, r)| (s.clone(), r.shard)).collect();
    let found =
        hardest_merged(game, goal, &slices)?.map_err(|e| Error::BadInput(coverage_error(&e, &named)))?;
    if let Some(share) = recheck {
        recount(game, goal, records, share, io)?;
    }
    print_hardest(game, goal, &found, format, io)?;
    Ok(0)
}

/// `--max-memory`'s default, which `hardest` factors the puzzle within.
const DEFAULT_MAX_MEMORY: &str = "1G";

/// `--shard K/N`: walks one slice of the distribution and prints its
/// record, for `lightsout merge`.
fn slice<G: Kind>(
    game: &G,
    goal: Goal,
    args: &HardestArgs,
    shard: Shard,
    options: &HardestOptions,
    limits: &Limits,
    io: &mut Streams,
) -> Result<u8, Failure>
where
    G::Board: Shown<Solver = G>,
{
    if !args.distribution {
        return Err(Error::BadInput(
            "--shard slices the distribution's count: give --distribution too (the most presses alone is one run)"
                .into(),
        )
        .into());
    }
    if args.checkpoint_every.is_some() && args.checkpoint.is_none() {
        return Err(Error::BadInput("--checkpoint-every needs --checkpoint FILE".into()).into());
    }
    if let Some(path) = &args.output {
        return Err(Error::BadInput(format!(
            "--output {} is for a whole run: a slice has no board; merge the slices and run hardest again for the file",
            path.display()
        ))
        .into());
    }
    let started = std::time::Instant::now();
    let mut checkpoints = Checkpoints::new(args.checkpoint.as_deref(), args.checkpoint_every);
    let resume = resumed(&checkpoints, game, goal, shard)?;
    let before = resume.as_ref().map_or(0, |r| r.milliseconds);
    let record = |slice: &DistributionSlice| {
        HardestRecord::new(game, goal, slice, before + started.elapsed().as_millis() as u64)
    };
    let mut unsaved = None;
    let mut progress = |slice: &DistributionSlice| {
        if checkpoints.due(false)
            && let Err(e) = checkpoints.save(&record(slice))
        {
            unsaved.get_or_insert(e);
        }
    };
    let total = distribution_cost(game, goal, shard)?;
    let spent = options.progress.unwrap_or(&NO_PROGRESS);
    let from = resume.as_ref().map(HardestRecord::slice);
    // A resumed slice's bar starts from the prefixes already walked.
    let already = match &from {
        Some(saved) => distribution_done(game, goal, saved)?,
        None => 0.0,
    };
    let walked = watched(spent, already, total, || {
        hardest_slice(game, goal, options, limits, shard, from.as_ref(), &mut progress)
    })
    .map_err(|e| match (e, &args.checkpoint) {
        (Error::BadInput(why), Some(path)) => Error::BadInput(format!(
            "{}: checkpoint: {why}; remove it to count this slice afresh",
            path.display()
        ))
        .into(),
        (e, _) => distribution_hint(e, game, goal, args),
    })?;
    if let Some(e) = unsaved {
        return Err(e.into());
    }
    let line = record(&walked);
    checkpoints.save(&line)?;
    let len = shard.len(walked.prefixes);
    if walked.done < len {
        let kept = match &args.checkpoint {
            Some(path) => format!("saved in {}; the same command goes on from it", path.display()),
            None => "nothing recorded: add --checkpoint FILE to be able to resume".into(),
        };
        let how_far = format!("after {} of its {len} prefixes", walked.done);
        if interrupt_flag().load(Ordering::Relaxed) {
            let _ = writeln!(io.stderr, "lightsout: interrupted: slice {shard} stopped {how_far}; {kept}");
            return Ok(130);
        }
        return Err(Error::Limit(format!("slice {shard} stopped at --time-limit {how_far}; {kept}")).into());
    }
    writeln!(io.stdout, "{}", line.to_line())?;
    io.stdout.flush()?;
    Ok(0)
}

/// The saved checkpoint of this slice, if there is one (an empty file is
/// none: a run killed before its first save).
fn resumed<G: Weighed>(
    checkpoints: &Checkpoints,
    game: &G,
    goal: Goal,
    shard: Shard,
) -> Result<Option<HardestRecord>, Failure> {
    let Some((source, text)) = checkpoints.saved()? else {
        return Ok(None);
    };
    if text.trim().is_empty() {
        return Ok(None);
    }
    let saved = HardestRecord::parse(&text, &source)?;
    if saved.hash != HardestProblem::of(game, goal).hash() {
        return Err(Error::BadInput(format!(
            "{source}: checkpoint of another problem (states, size, topology, rule, target or graph differ)"
        ))
        .into());
    }
    if saved.shard != shard {
        return Err(
            Error::BadInput(format!("{source}: checkpoint of slice {}, not {shard}", saved.shard)).into()
        );
    }
    Ok(Some(saved))
}

/// A counter nobody reads.
static NO_PROGRESS: AtomicU64 = AtomicU64::new(0);

/// Work of at least this many weighings (about half a second) shows a
/// progress bar on a terminal.
const SHOWN_WORK: f64 = (1u64 << 28) as f64;

/// Runs `work` while a bar on the terminal shows `already + spent` of
/// `total` weighings (in millions; two-state searches often end well
/// before): `already`, the work a resumed slice did before.
fn watched<T>(spent: &AtomicU64, already: f64, total: f64, work: impl FnOnce() -> T) -> T {
    if total < SHOWN_WORK {
        return work();
    }
    let bar = terminal_bar((total / 1e6) as u64, "million weighings at most");
    let before = (already / 1e6) as u64;
    bar.set_position(before);
    let done = AtomicBool::new(false);
    let answer = std::thread::scope(|scope| {
        scope.spawn(|| {
            while !done.load(Ordering::Relaxed) {
                bar.set_position(before + spent.load(Ordering::Relaxed) / 1_000_000);
                std::thread::sleep(Duration::from_millis(100));
            }
        });
        let answer = work();
        done.store(true, Ordering::Relaxed);
        answer
    });
    bar.finish_and_clear();
    answer
}

/// A distribution past the work budget: what to do instead (with the
/// fewest slices that each fit it, if some do).
fn distribution_hint<G: Weighed>(error: Error, game: &G, goal: Goal, args: &HardestArgs) -> Failure {
    match error {
        Error::DistributionPastBudget { .. } => {
            let work = args.max_work.unwrap_or(DEFAULT_HARDEST_WORK);
            let shards = distribution_shards(game, goal, work).ok().flatten();
            let shard = match (shards, args.shard) {
                (Some(n), Some(_)) => format!(", or shard it finer: --shard 1/{n}"),
                (Some(n), None) => format!(", or shard it: --shard 1/{n} (and merge the {n} records)"),
                (None, _) => String::new(),
            };
            let whole = if args.shard.is_some() {
                String::new()
            } else {
                "; without --distribution the most presses is still answered".into()
            };
            Failure::hinted(error, format!("--max-work raises the budget{shard}{whole}"))
        }
        e => e.into(),
    }
}
