//! A long search of either kind as it runs: batch by batch over every
//! target's slice, saving checkpoints as asked and stopping at a time
//! limit or an interrupt, then the shard's line or the note on an
//! interrupted run. The kinds differ only in their records and answers
//! (`search.rs` for two states, `states_search.rs` for K).

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use super::args::SearchArgs;
use super::input::read_record;
use super::progress::terminal_bar;
use super::record::{Entry, Record, RecordKind, save};
use super::{Failure, Sealed, Streams};
use crate::Error;
use crate::solve::{SliceKind, Sliced};

/// Seconds between checkpoints unless --checkpoint-every says otherwise.
const CHECKPOINT_EVERY: f64 = 60.0;

/// Why a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stop {
    Done,
    TimeLimit,
    Interrupted,
}

/// Resumes `record` from its checkpoint (if the file exists), saves it once
/// before any work (a path that cannot be written is found now, not after
/// the search), and runs it. `Some(code)` when the run has said all it
/// says (interrupted, or a shard's line printed); `None` when the caller
/// prints the answer.
pub(super) fn search<K: RecordKind, C: Sliced<Kind = K::Slices>>(
    record: &mut Record<K>,
    cosets: &[Option<&C>],
    args: &SearchArgs,
    io: &mut Streams,
) -> Result<Option<u8>, Failure> {
    if let Some(path) = args.checkpoint.as_ref().filter(|p| p.exists()) {
        let source = path.display().to_string();
        let text = read_record(path)?;
        record.resume(Record::parse(&text, &source)?, cosets, &source)?;
    }
    if let Some(path) = &args.checkpoint {
        save(record, path)?;
    }
    let stopped = run(record, cosets, args)?;
    if let (Some(path), true) = (&args.checkpoint, stopped == Stop::Interrupted) {
        let _ = writeln!(
            io.stderr,
            "lightsout: interrupted; the search is saved in {}: run the same command to go on",
            path.display()
        );
        return Ok(Some(130));
    }
    if args.shard.is_some() {
        writeln!(io.stdout, "{}", record.to_line())?;
        if stopped != Stop::Done {
            let _ = writeln!(
                io.stderr,
                "lightsout: note: shard {} stopped before its end; `merge` needs it complete \
                 (resume it with --checkpoint)",
                record.shard
            );
        }
        return Ok(Some(0));
    }
    Ok(None)
}

/// Runs every target's exhaustive search on from its state, saving
/// checkpoints as asked.
fn run<K: RecordKind, C: Sliced<Kind = K::Slices>>(
    record: &mut Record<K>,
    cosets: &[Option<&C>],
    args: &SearchArgs,
) -> Result<Stop, Error> {
    let started = Instant::now();
    let interrupted = Arc::new(AtomicBool::new(false));
    if args.checkpoint.is_some() {
        let flag = Arc::clone(&interrupted);
        // A second handler cannot be set in one process (tests run many
        // searches): the first one's flag then stays in charge.
        let _ = ctrlc::set_handler(move || flag.store(true, Ordering::SeqCst));
    }
    let before = record.milliseconds;
    let elapsed = |started: Instant| before + started.elapsed().as_millis() as u64;
    let states = || record.searches.iter().filter_map(|s| s.state());
    let (total, done): (u64, u64) = (states().map(|s| s.units).sum(), states().map(|s| s.done).sum());
    let unit = format!("{}s", K::Slices::UNIT);
    let bar = if total > 0 { terminal_bar(total, &unit) } else { indicatif::ProgressBar::hidden() };
    bar.set_position(done);
    let mut last_save = Instant::now();
    let mut stop = Stop::Done;
    for (index, coset) in cosets.iter().enumerate() {
        let (Some(mut state), Some(coset)) = (record.searches[index].state().cloned(), coset) else {
            continue;
        };
        let mut failure = None;
        let done_before: u64 =
            record.searches[..index].iter().filter_map(|s| s.state()).map(|s| s.done).sum();
        state.search_on(*coset, false, &mut |s| {
            bar.set_position(done_before + s.done);
            if interrupted.load(Ordering::SeqCst) {
                stop = Stop::Interrupted;
            } else if args.time_limit.is_some_and(|t| started.elapsed().as_secs_f64() >= t) {
                stop = Stop::TimeLimit;
            }
            let due = last_save.elapsed().as_secs_f64() >= args.checkpoint_every.unwrap_or(CHECKPOINT_EVERY);
            if let (Some(path), true) = (&args.checkpoint, due || stop != Stop::Done) {
                let mut saved = record.clone();
                *saved.searches[index].state_mut() = Some(s.clone());
                saved.milliseconds = elapsed(started);
                if let Err(e) = save(&saved, path) {
                    failure = Some(e);
                    return ControlFlow::Break(());
                }
                last_save = Instant::now();
            }
            if stop == Stop::Done { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
        });
        *record.searches[index].state_mut() = Some(state);
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
