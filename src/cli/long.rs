//! A long search of either kind as it runs: batch by batch over every
//! target's slice, saving checkpoints as asked and stopping at a time
//! limit or an interrupt, then the shard's line or the note on an
//! interrupted run. The kinds differ only in their records and answers
//! (`search.rs` for two states, `states_search.rs` for K).

use std::ops::ControlFlow;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Mutex, Once};
use std::time::Instant;

use indicatif::ProgressBar;

use super::args::SearchArgs;
use super::input::read_record;
use super::progress::{SharedWork, terminal_bar_with_work};
use super::record::{Entry, Record, RecordKind, save};
use super::search::human;
use super::{Failure, Sealed, Streams};
use crate::Error;
use crate::solve::{SliceKind, Sliced, WorkCurve};

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
    let started = Instant::now();
    let stopped = run(record, cosets, args)?;
    if stopped == Stop::Interrupted {
        let states = || record.searches.iter().filter_map(|s| s.state());
        let (total, done): (u64, u64) = (states().map(|s| s.units).sum(), states().map(|s| s.done).sum());
        let what = interrupted_after(started, Some((done, total)), K::Slices::UNIT);
        let _ = match &args.checkpoint {
            Some(path) => writeln!(
                io.stderr,
                "lightsout: {what}; the search is saved in {}: run the same command to go on",
                path.display()
            ),
            None => writeln!(
                io.stderr,
                "lightsout: {what}; nothing was saved: add --checkpoint FILE to be able to resume"
            ),
        };
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
    let interrupted = interrupt_flag();
    let before = record.milliseconds;
    let elapsed = |started: Instant| before + started.elapsed().as_millis() as u64;
    let states = || record.searches.iter().filter_map(|s| s.state());
    let (total, done): (u64, u64) = (states().map(|s| s.units).sum(), states().map(|s| s.done).sum());
    let unit = format!("{}s", K::Slices::UNIT);
    let work = SharedWork::default();
    let bar = if total > 0 {
        terminal_bar_with_work(total, &unit, Some(work.clone()))
    } else {
        ProgressBar::hidden()
    };
    // The expected work of each target's slice, where every one has a
    // model of it (weighed only for a bar that is drawn).
    let curves: Option<Vec<Option<WorkCurve>>> = (!bar.is_hidden())
        .then(|| {
            cosets
                .iter()
                .zip(&record.searches)
                .map(|(coset, entry)| match (coset, entry.state()) {
                    (Some(coset), Some(s)) => coset.work_curve(&s.plan, s.shard, s.units).map(Some),
                    _ => Some(None),
                })
                .collect()
        })
        .flatten();
    // The work done with `done` units of target `index` and all before it
    // as the record holds them, and the work in all.
    let work_at = |searches: &[K::Entry], index: usize, done: u64| -> Option<(f64, f64)> {
        let curves = curves.as_ref()?;
        let mut sums = (0.0, 0.0);
        for (j, (curve, entry)) in curves.iter().zip(searches).enumerate() {
            let (Some(curve), Some(s)) = (curve, entry.state()) else { continue };
            let units = match j.cmp(&index) {
                std::cmp::Ordering::Less => s.done,
                std::cmp::Ordering::Equal => done,
                std::cmp::Ordering::Greater => 0,
            };
            sums = (sums.0 + curve.done(units), sums.1 + curve.total());
        }
        Some(sums)
    };
    let set_work = |value: Option<(f64, f64)>| {
        if let Ok(mut shared) = work.lock() {
            *shared = value;
        }
    };
    set_work(work_at(
        &record.searches,
        0,
        record.searches.first().and_then(|e| e.state()).map_or(0, |s| s.done),
    ));
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
        // An interrupt drops the batch in flight (branch and bound's blocks
        // may take minutes): it is searched again on resume.
        state.search_on_until(*coset, false, interrupted, &mut |s| {
            set_work(work_at(&record.searches, index, s.done));
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

/// Set by SIGINT or SIGTERM, once [`interrupt_flag`] has set the handler.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// A run that keeps nothing to resume from: an interrupt says how far it
/// got and `advice`, and ends the process at once.
struct Unsaved {
    started: Instant,
    /// The bar the run shows, if any yet (a solve in memory draws one per
    /// long minimisation).
    bar: Option<ProgressBar>,
    /// The expected work done, where the bar's search has a model of it.
    work: Option<SharedWork>,
    advice: &'static str,
}

static UNSAVED: Mutex<Option<Unsaved>> = Mutex::new(None);

/// Whether something of this process watches [`INTERRUPTED`]: a long
/// search, which ends itself when it sees the flag. Until one does, an
/// interrupt that no [`end_on_interrupt`] run is there to take ends the
/// process at once, as it would with no handler.
static WATCHED: AtomicBool = AtomicBool::new(false);

/// The flag SIGINT and SIGTERM set, with the handler set (once per
/// process: a second cannot be set, and tests run many commands in one).
/// A long search looks at it between batches and inside branch and
/// bound's blocks; a run registered by [`end_on_interrupt`] is ended by
/// the handler itself.
pub(super) fn interrupt_flag() -> &'static AtomicBool {
    WATCHED.store(true, Ordering::SeqCst);
    set_handler();
    &INTERRUPTED
}

fn set_handler() {
    static SET: Once = Once::new();
    SET.call_once(|| {
        let _ = ctrlc::set_handler(|| {
            INTERRUPTED.store(true, Ordering::SeqCst);
            let unsaved = UNSAVED.lock().ok().and_then(|mut unsaved| unsaved.take());
            if let Some(Unsaved { started, bar, work, advice }) = unsaved {
                // Read before the bar is cleared: finishing it fills it.
                let share = bar.as_ref().and_then(|bar| Some((bar.position(), bar.length()?)));
                if let Some(bar) = bar {
                    bar.finish_and_clear();
                }
                // As the bar said it: by the work where it had a model.
                let of_work = work.and_then(|w| w.lock().ok().and_then(|w| *w));
                let how_far = match of_work {
                    Some((done, total)) if total > 0.0 => format!(
                        "interrupted after {}, {:.1} % of the work done",
                        human(started.elapsed().as_secs_f64()),
                        (100.0 * done / total).min(100.0)
                    ),
                    _ => interrupted_after(started, share, ""),
                };
                eprintln!("lightsout: {how_far}; nothing was saved: {advice}");
                std::process::exit(130);
            }
            if !WATCHED.load(Ordering::SeqCst) {
                std::process::exit(130);
            }
        });
    });
}

/// While the guard lives, an interrupt ends the process at once with exit
/// code 130, saying how far `bar` got and `advice` (how to keep the work
/// next time): for `verify` and `table`, which keep nothing to resume
/// from.
pub(super) fn end_on_interrupt(bar: &ProgressBar, advice: &'static str) -> EndOnInterrupt {
    unsaved_from_now(Some(bar.clone()), advice)
}

/// [`end_on_interrupt`] for a run whose bars, if any, come later: a solve
/// in memory, whose solver draws one per long minimisation
/// ([`shown_while_unsaved`] hands each over). Taken once per run, not per
/// board (a lock and a clock read per board were a third of the time of
/// the 65,536 4x4 boards). Until a bar comes an interrupt says only how
/// long the run went.
pub(super) fn end_on_interrupt_unmeasured(advice: &'static str) -> EndOnInterrupt {
    unsaved_from_now(None, advice)
}

fn unsaved_from_now(bar: Option<ProgressBar>, advice: &'static str) -> EndOnInterrupt {
    if let Ok(mut unsaved) = UNSAVED.lock() {
        *unsaved = Some(Unsaved { started: Instant::now(), bar, work: None, advice });
    }
    set_handler();
    EndOnInterrupt
}

/// The bar an interrupt of a run registered by [`end_on_interrupt`]
/// reports from (and clears) from now on, or none once it is finished;
/// nothing when no run is registered.
pub(super) fn shown_while_unsaved(shown: Option<(&ProgressBar, &SharedWork)>) {
    if let Ok(mut unsaved) = UNSAVED.lock()
        && let Some(unsaved) = unsaved.as_mut()
    {
        unsaved.bar = shown.map(|(bar, _)| bar.clone());
        unsaved.work = shown.map(|(_, work)| std::sync::Arc::clone(work));
    }
}

/// See [`end_on_interrupt`]: dropped, an interrupt no longer ends the
/// process.
pub(super) struct EndOnInterrupt;

impl Drop for EndOnInterrupt {
    fn drop(&mut self) {
        if let Ok(mut unsaved) = UNSAVED.lock() {
            *unsaved = None;
        }
    }
}

/// "interrupted after 1.0 min, 5.6 % of its blocks done" (`unit`, or no
/// word when empty; no share when nothing says it).
fn interrupted_after(started: Instant, share: Option<(u64, u64)>, unit: &str) -> String {
    let after = human(started.elapsed().as_secs_f64());
    match share {
        Some((done, total)) if total > 0 => {
            let percent = 100.0 * done as f64 / total as f64;
            let of = if unit.is_empty() { String::new() } else { format!(" of its {unit}s") };
            format!("interrupted after {after}, {percent:.1} %{of} done")
        }
        _ => format!("interrupted after {after}"),
    }
}
