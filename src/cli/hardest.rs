//! `lightsout hardest`: the most presses a solvable board of a size needs,
//! a board that needs them, and the boards by their fewest presses, for
//! both kinds of game (the library's `analysis::hardest`); its slices
//! (`--shard`, `--checkpoint`), and `merge` of their records.

use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::Duration;

use super::interrupt::interrupt_flag;
use super::long::{Cadence, Checkpoints};
use super::solve::create;
use super::{
    Failure, HardestArgs, Kind, MergeArgs, MergeFormat, PuzzleArgs, Streams, StudyFormat, TableFormat,
    smaller_or_more_memory, solver_failure, terminal_bar,
};
use crate::analysis::{
    DEFAULT_HARDEST_WORK, DistributionSlice, Goal, Hardest, HardestOptions, TableRun, Weighed,
    distribution_cost, distribution_done, distribution_shards, hardest as weigh, hardest_cost,
    hardest_merged, hardest_slice, most_clicks_table,
};
use crate::present::{
    SizeAnswer, Worded, goal_words, hardest_json, hardest_text, most_clicks_csv, most_clicks_json,
    most_clicks_text, topology_name,
};
use crate::record::{HardestProblem, HardestRecord};
use crate::record::{Sealed, check_one_split, coverage_error};
use crate::solve::{DEFAULT_MAX_MEMORY, DEFAULT_MAX_NULLITY, Limits, MergeError, Shard};
use crate::{Error, Method, Solver, StateSolver};

pub(super) fn hardest<G: Kind>(args: HardestArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.puzzle.refuse_unused(None, None)?;
    let goal = crate::present::parse_goal(&args.target, args.puzzle.states)
        .map_err(|e| Error::BadInput(format!("--target {}: {e}", args.target)))?;
    if let (Some(rows), Some(cols)) = (args.rows, args.cols)
        && (rows.range || cols.range)
    {
        return most_clicks_over_ranges(&args, goal, (rows.first, rows.last), (cols.first, cols.last), io);
    }
    let format = match args.format {
        TableFormat::Text => StudyFormat::Text,
        TableFormat::Json => StudyFormat::Json,
        TableFormat::Csv => {
            return Err(Error::BadInput(
                "--format csv is for a table of sizes (-r A..B -c C..D); one size prints text or json".into(),
            )
            .into());
        }
    };
    if args.picture.wanted() && !args.distribution {
        return Err(Error::BadInput(
            "--png and --svg draw the distribution as a histogram: give --distribution too".into(),
        )
        .into());
    }
    let (rows, cols) = match args.puzzle.graph.as_deref() {
        Some(g) => (1, g.vertex_count()),
        None => (args.rows.map_or(0, |r| r.first), args.cols.map_or(0, |c| c.first)),
    };
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
        if args.picture.wanted() {
            return Err(Error::BadInput(
                "--png and --svg do not go with --shard: a slice has no distribution to draw; merge the slices"
                    .into(),
            )
            .into());
        }
        return slice(game, goal, &args, shard, &options, io);
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
    if let (true, Some(distribution)) = (args.picture.wanted(), &found.distribution) {
        let bars = distribution.last().map_or(0, |(w, _)| w + 1);
        if bars > crate::picture::MAX_HISTOGRAM_BARS {
            let error = Error::Limit(format!(
                "a histogram of {bars} bars (0 to {} presses) would be a blur (a picture draws at most {})",
                bars - 1,
                crate::picture::MAX_HISTOGRAM_BARS
            ));
            return Err(Failure::hinted(error, "without --png and --svg the counts are printed as text"));
        }
        let most = found.exact().then_some(found.upper);
        let title = match game.puzzle().graph() {
            Some(g) => format!("graph of {} vertices, rule {}", g.vertex_count(), game.puzzle().rule()),
            None => format!(
                "{rows}x{cols} {}, rule {}",
                topology_name(game.puzzle().topology()),
                game.puzzle().rule()
            ),
        };
        let states = game.cell_states();
        let states_words = if states > 2 { format!(", {states} states") } else { String::new() };
        let title =
            format!("{title}{states_words}: boards by their fewest presses to {}", goal_words(goal, states));
        args.picture.write(&crate::picture::histogram(distribution, most, &title))?;
    }
    print_hardest(game, goal, &found, format, io)?;
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
pub(super) fn print_hardest<G: Weighed + Worded>(
    game: &G,
    goal: Goal,
    found: &Hardest<G::Board>,
    format: StudyFormat,
    io: &mut Streams,
) -> Result<(), Failure> {
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
            hardest_slice(game, goal, &options, &Default::default(), record.shard, None, &mut |_| {
                std::ops::ControlFlow::Continue(())
            })?;
        let claimed = record.slice().map_err(|why| Error::BadInput(format!("{source}: {why}")))?;
        if counted.best != claimed.best {
            let at = counted.best.cosets.iter().zip(&claimed.best.cosets).find(|(c, r)| c != r);
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
) -> Result<u8, Failure> {
    let first = &records[0].1.problem;
    let max_memory = DEFAULT_MAX_MEMORY;
    let mut solvers =
        G::solvers(puzzle, Method::Auto, DEFAULT_MAX_NULLITY, max_memory, &smaller_or_more_memory);
    let game = solvers.for_shape(first.rows, first.cols)?;
    let named: Vec<(String, Shard)> = records.iter().map(|(s, r)| (s.clone(), r.shard)).collect();
    let unread = |(record, why): (&HardestRecord, String)| {
        Error::BadInput(coverage_error(&MergeError::Inconsistent(record.shard.index, why), &named))
    };
    let slices: Vec<DistributionSlice> = records
        .iter()
        .map(|(_, r)| r.slice().map_err(|why| (r, why)))
        .collect::<Result<_, _>>()
        .map_err(unread)?;
    let found =
        hardest_merged(game, goal, &slices)?.map_err(|e| Error::BadInput(coverage_error(&e, &named)))?;
    if let Some(share) = recheck {
        recount(game, goal, records, share, io)?;
    }
    print_hardest(game, goal, &found, format, io)?;
    Ok(0)
}

/// `--shard K/N`: walks one slice of the distribution and prints its
/// record, for `lightsout merge`.
fn slice<G: Kind>(
    game: &G,
    goal: Goal,
    args: &HardestArgs,
    shard: Shard,
    options: &HardestOptions,
    io: &mut Streams,
) -> Result<u8, Failure> {
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
    let checkpoints = Checkpoints::new(args.checkpoint.as_deref(), args.checkpoint_every);
    let resume = checkpoints.resumed::<HardestRecord>(&HardestProblem::of(game, goal).hash())?;
    if let Some((source, saved)) = &resume {
        saved.check_slice(shard, source)?;
    }
    let resume = resume.map(|(_, saved)| saved);
    let before = resume.as_ref().map_or(0, |r| r.milliseconds);
    // The long search's cadence: the walk stops at a batch's end on an
    // interrupt or the time limit, and within one through its limits
    // (the same interrupt, the same deadline).
    let mut cadence = Cadence::new(checkpoints, args.time_limit, before);
    let limits = cadence.limits();
    let total = distribution_cost(game, goal, shard)?;
    let spent = options.progress.unwrap_or(&NO_PROGRESS);
    // A count that does not read is refused as the walk refuses one that
    // does not hold up (below).
    let unread = |why: String| match &args.checkpoint {
        Some(path) => Error::BadInput(format!(
            "{}: checkpoint: {why}; remove it to count this slice afresh",
            path.display()
        )),
        None => Error::BadInput(why),
    };
    let from = resume.as_ref().map(HardestRecord::slice).transpose().map_err(unread)?;
    // A resumed slice's bar starts from the prefixes already walked.
    let already = match &from {
        Some(saved) => distribution_done(game, goal, saved)?,
        None => 0.0,
    };
    let walked = watched(spent, already, total, || {
        hardest_slice(game, goal, options, &limits, shard, from.as_ref(), &mut |slice| {
            cadence.after_batch(|milliseconds| HardestRecord::new(game, goal, slice, milliseconds))
        })
    })
    .map_err(|e| match (e, &args.checkpoint) {
        (Error::BadInput(why), Some(path)) => Error::BadInput(format!(
            "{}: checkpoint: {why}; remove it to count this slice afresh",
            path.display()
        ))
        .into(),
        (e, _) => distribution_hint(e, game, goal, args),
    })?;
    let line = HardestRecord::new(game, goal, &walked, cadence.milliseconds());
    cadence.finish(&line)?;
    let len = walked.units;
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

/// `hardest -r A..B -c C..D`: Most Clicks of every size in the ranges,
/// each by the library's `hardest` (its board certified as for one size),
/// as a text grid, CSV or JSON lines.
///
/// The budget (`--max-work`, default [`DEFAULT_HARDEST_WORK`]) is the
/// whole table's: the sizes are weighed in order of nullity (then rows,
/// columns), each given an even share of what the ones before left, so
/// the cheap sizes pass their unspent work on to the hard ones and the
/// table costs no more than one size's default run. A count, so the
/// table is the same on every machine. `--time-limit` is the table's too.
fn most_clicks_over_ranges(
    args: &HardestArgs,
    goal: Goal,
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
    io: &mut Streams,
) -> Result<u8, Failure> {
    if args.puzzle.states != 2 {
        return Err(Error::BadInput(format!(
            "a table of Most Clicks is for two states; with --states {} ask one size at a time",
            args.puzzle.states
        ))
        .into());
    }
    let refused = [
        (args.distribution, "--distribution counts one size's boards: ask one size at a time"),
        (args.shard.is_some(), "--shard slices one size's distribution: ask one size at a time"),
        (
            args.checkpoint.is_some() || args.checkpoint_every.is_some(),
            "--checkpoint saves one size's distribution: ask one size at a time",
        ),
        (
            args.output.is_some(),
            "--output writes one size's board: ask one size at a time (JSON lines carry every board)",
        ),
        (args.picture.wanted(), "--png and --svg draw one size's distribution: ask one size at a time"),
    ];
    if let Some((_, why)) = refused.iter().find(|(given, _)| *given) {
        return Err(Error::BadInput(format!("a table of sizes (-r A..B or -c C..D): {why}")).into());
    }
    let count = (r1 - r0 + 1).saturating_mul(c1 - c0 + 1);
    let template = args.puzzle.puzzle(1, 1)?;
    let budget = args.max_work.unwrap_or(DEFAULT_HARDEST_WORK);
    let interrupted = interrupt_flag();
    let limits = Limits { stop: Some(interrupted), time_limit: args.time_limit.map(Duration::from_secs_f64) };
    let mut entries: Vec<Vec<Option<SizeAnswer>>> =
        (0..=r1 - r0).map(|_| (0..=c1 - c0).map(|_| None).collect()).collect();
    let bar = terminal_bar(count as u64, "sizes");
    let run = most_clicks_table(
        &template,
        (r0, r1),
        (c0, c1),
        goal,
        budget,
        args.memory.max_memory,
        &limits,
        &mut |i, j, game, found, spent| {
            entries[i][j] = Some(SizeAnswer { answer: hardest_json(game, goal, found), spent });
            bar.inc(1);
            Ok(())
        },
    )
    .map_err(|e| match e {
        Error::Limit(_) => Failure::hinted(e, "narrow the ranges of --rows and --cols"),
        e => solver_failure(e, &template, Method::Auto, &smaller_or_more_memory),
    })?;
    bar.finish_and_clear();
    let TableRun { nullity, weighed, spent } = run;
    let ranges = ((r0, r1), (c0, c1));
    let out = match args.format {
        TableFormat::Text => {
            let title = format!(
                "Most Clicks (the most presses a solvable board needs) to {}, {r0}..{r1} x {c0}..{c1} {}, rule {}",
                goal_words(goal, args.puzzle.states),
                topology_name(template.topology()),
                template.rule()
            );
            most_clicks_text(&title, &entries, ranges, &nullity, (budget, spent))
        }
        TableFormat::Csv => most_clicks_csv(&entries),
        TableFormat::Json => most_clicks_json(&entries),
    };
    io.stdout.write_all(out.as_bytes())?;
    io.stdout.flush()?;
    let not_weighed = format!(
        "{weighed} of {count} sizes weighed (the rest are marked - in text, left out of csv and json)"
    );
    if interrupted.load(Ordering::Relaxed) {
        let _ = writeln!(io.stderr, "lightsout: interrupted: {not_weighed}");
        return Ok(130);
    }
    if weighed < count {
        let limit = args.time_limit.map_or(String::new(), |t| format!(" {t}"));
        return Err(Error::Limit(format!("--time-limit{limit} stopped the table: {not_weighed}")).into());
    }
    Ok(0)
}
