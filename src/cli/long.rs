//! A long search of either kind as it runs: batch by batch over every
//! target's slice, saving checkpoints as asked and stopping at a time
//! limit or an interrupt, then the shard's line or the note on an
//! interrupted run. The kinds differ only in their records and answers
//! (`search/kinds.rs`).

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::Ordering;
use std::time::Instant;

use indicatif::ProgressBar;

use super::args::SearchArgs;
use super::input::read_record;
use super::interrupt::{SharedWork, interrupt_flag, interrupted_after};
use super::progress::terminal_bar_with_work;
use super::{Failure, Streams};
use crate::Error;
use crate::record::Sealed;
use crate::record::{Entry, Record, RecordKind, save};
use crate::solve::{SliceKind, Sliced, WorkCurve};

/// Seconds between checkpoints unless --checkpoint-every says otherwise.
const CHECKPOINT_EVERY: f64 = 60.0;

/// A run's checkpoint file (`--checkpoint`), saved every
/// `--checkpoint-every` seconds and when the run stops: one cadence for
/// the minimum's searches and the distribution's slices (`hardest.rs`).
pub(super) struct Checkpoints<'a> {
    path: Option<&'a Path>,
    every: f64,
    saved_at: Instant,
}

impl<'a> Checkpoints<'a> {
    pub(super) fn new(path: Option<&'a Path>, every: Option<f64>) -> Self {
        Checkpoints { path, every: every.unwrap_or(CHECKPOINT_EVERY), saved_at: Instant::now() }
    }

    /// The file's name and text, to resume from; none before the first
    /// save (no file yet).
    pub(super) fn saved(&self) -> Result<Option<(String, String)>, Error> {
        let Some(path) = self.path.filter(|p| p.exists()) else {
            return Ok(None);
        };
        Ok(Some((path.display().to_string(), read_record(path)?)))
    }

    /// Whether a save is due: there is a file, and the run is `stopping`
    /// or the time between checkpoints has passed.
    pub(super) fn due(&self, stopping: bool) -> bool {
        self.path.is_some() && (stopping || self.saved_at.elapsed().as_secs_f64() >= self.every)
    }

    /// Saves `record` when there is a file; the time to the next save runs
    /// from now, whether this one was written or not.
    pub(super) fn save<T: Sealed>(&mut self, record: &T) -> Result<(), Error> {
        let Some(path) = self.path else { return Ok(()) };
        let saved = save(record, path);
        self.saved_at = Instant::now();
        saved
    }
}

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
    let mut checkpoints = Checkpoints::new(args.checkpoint.as_deref(), args.checkpoint_every);
    if let Some((source, text)) = checkpoints.saved()? {
        record.resume(Record::parse(&text, &source)?, cosets, &source)?;
    }
    checkpoints.save(record)?;
    let started = Instant::now();
    let stopped = run(record, cosets, args, &mut checkpoints)?;
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
    checkpoints: &mut Checkpoints,
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
            if checkpoints.due(stop != Stop::Done) {
                let mut saved = record.clone();
                *saved.searches[index].state_mut() = Some(s.clone());
                saved.milliseconds = elapsed(started);
                if let Err(e) = checkpoints.save(&saved) {
                    failure = Some(e);
                    return ControlFlow::Break(());
                }
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
    checkpoints.save(record)?;
    Ok(stop)
}
