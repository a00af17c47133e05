//! A long search of either kind as it runs: batch by batch over every
//! target's slice, saving checkpoints as asked and stopping at a time
//! limit or an interrupt, then the shard's line or the note on an
//! interrupted run. The kinds differ only in their records and answers
//! (`search/kinds.rs`).

use std::ops::ControlFlow;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::ProgressBar;

use super::args::SearchArgs;
use super::input::read_record;
use super::interrupt::{SharedWork, interrupt_flag, interrupted_after};
use super::progress::terminal_bar_with_work;
use super::{Failure, Streams};
use crate::Error;
use crate::record::Sealed;
use crate::record::{LongRecord, Record, RecordKind, TargetSearch, parse_checkpoint, save};
use crate::solve::{Limits, SliceKind, Sliced, WorkCurve};

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

    /// The checkpoint an earlier run of the problem hashed `hash` saved,
    /// with the file's name, to resume from: none before the first save
    /// (no file yet, or an empty one), else read and checked by
    /// [`parse_checkpoint`]. One resume for the minimum's searches and the
    /// distribution's slices; each checks its own parts besides.
    pub(super) fn resumed<T: LongRecord>(&self, hash: &str) -> Result<Option<(String, T)>, Error> {
        let Some(path) = self.path.filter(|p| p.exists()) else {
            return Ok(None);
        };
        let source = path.display().to_string();
        let saved = parse_checkpoint(&read_record(path)?, &source, hash)?;
        Ok(saved.map(|saved| (source, saved)))
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

/// What a long run checks after every batch, for the minimum's searches
/// and the distribution's slices alike: whether it stops there (an
/// interrupt, the time limit) and whether a checkpoint is due, saved then.
pub(super) struct Cadence<'a> {
    checkpoints: Checkpoints<'a>,
    interrupted: &'static AtomicBool,
    /// When the time limit passes, if there is one.
    deadline: Option<Instant>,
    started: Instant,
    /// Milliseconds the record held when this run took it over.
    before: u64,
    /// Where the run stands: `Done` while it goes on.
    pub(super) stop: Stop,
    /// A checkpoint that could not be written: the run ends on it.
    failure: Option<Error>,
}

impl<'a> Cadence<'a> {
    /// The cadence of a run that starts now, on a record that holds
    /// `before` milliseconds of earlier runs.
    pub(super) fn new(checkpoints: Checkpoints<'a>, time_limit: Option<f64>, before: u64) -> Self {
        let interrupted = interrupt_flag();
        let started = Instant::now();
        Cadence {
            checkpoints,
            interrupted,
            deadline: time_limit.and_then(|t| started.checked_add(Duration::try_from_secs_f64(t).ok()?)),
            started,
            before,
            stop: Stop::Done,
            failure: None,
        }
    }

    /// The record's milliseconds: earlier runs' and this one's.
    pub(super) fn milliseconds(&self) -> u64 {
        self.before + self.started.elapsed().as_millis() as u64
    }

    /// After a batch: notes an interrupt or the time limit, and saves the
    /// record `record` makes (given the milliseconds; made only then) when
    /// a checkpoint is due, as it always is once the run stops. Breaks
    /// once the run stops or a save failed.
    pub(super) fn after_batch<T: Sealed>(&mut self, record: impl FnOnce(u64) -> T) -> ControlFlow<()> {
        if self.interrupted.load(Ordering::SeqCst) {
            self.stop = Stop::Interrupted;
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Stop::TimeLimit;
        }
        if self.failure.is_none() && self.checkpoints.due(self.stop != Stop::Done) {
            let milliseconds = self.milliseconds();
            if let Err(e) = self.checkpoints.save(&record(milliseconds)) {
                self.failure = Some(e);
            }
        }
        if self.going() { ControlFlow::Continue(()) } else { ControlFlow::Break(()) }
    }

    /// What stops a batch in flight, where the work can give up inside one
    /// (branch and bound's blocks may take minutes): the interrupt, and the
    /// time left to the limit, so a run stops within a small unit of work
    /// of it rather than at the end of a block. The batch is dropped then,
    /// as on an interrupt, and done again on resume;
    /// [`after_batch`](Self::after_batch) notes why it stopped.
    pub(super) fn limits(&self) -> Limits<'static> {
        let time_left = self.deadline.map(|d| d.saturating_duration_since(Instant::now()));
        Limits { stop: Some(self.interrupted), time_limit: time_left }
    }

    /// Whether the run goes on: not stopped, every save written.
    pub(super) fn going(&self) -> bool {
        self.stop == Stop::Done && self.failure.is_none()
    }

    /// Ends the run: a checkpoint that failed on the way, or `record`
    /// saved (when there is a file).
    pub(super) fn finish<T: Sealed>(&mut self, record: &T) -> Result<(), Error> {
        if let Some(e) = self.failure.take() {
            return Err(e);
        }
        self.checkpoints.save(record)
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
    if let Some((source, saved)) = checkpoints.resumed(&record.hash)? {
        record.resume(saved, cosets, &source)?;
    }
    checkpoints.save(record)?;
    let started = Instant::now();
    let stopped = run(record, cosets, Cadence::new(checkpoints, args.time_limit, record.milliseconds))?;
    if stopped == Stop::Interrupted {
        let states = || record.searches.iter().filter_map(|s| s.state.as_ref());
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
    mut cadence: Cadence,
) -> Result<Stop, Error> {
    let states = || record.searches.iter().filter_map(|s| s.state.as_ref());
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
                .map(|(coset, entry)| match (coset, entry.state.as_ref()) {
                    (Some(coset), Some(s)) => coset.work_curve(&s.plan, s.shard, s.units).map(Some),
                    _ => Some(None),
                })
                .collect()
        })
        .flatten();
    // The work done with `done` units of target `index` and all before it
    // as the record holds them, and the work in all.
    let work_at = |searches: &[TargetSearch<K>], index: usize, done: u64| -> Option<(f64, f64)> {
        let curves = curves.as_ref()?;
        let mut sums = (0.0, 0.0);
        for (j, (curve, entry)) in curves.iter().zip(searches).enumerate() {
            let (Some(curve), Some(s)) = (curve, entry.state.as_ref()) else { continue };
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
        record.searches.first().and_then(|e| e.state.as_ref()).map_or(0, |s| s.done),
    ));
    bar.set_position(done);
    for (index, coset) in cosets.iter().enumerate() {
        let (Some(mut state), Some(coset)) = (record.searches[index].state.clone(), coset) else {
            continue;
        };
        let done_before: u64 =
            record.searches[..index].iter().filter_map(|s| s.state.as_ref()).map(|s| s.done).sum();
        // An interrupt or the time limit drops the batch in flight (branch
        // and bound's blocks may take minutes): it is searched again on
        // resume. Without a time limit the interrupt's flag is watched as
        // it is, with no thread beside the search.
        cadence.limits().as_flag(|stop| {
            state.search_on_until(*coset, false, stop, &mut |s| {
                set_work(work_at(&record.searches, index, s.done));
                bar.set_position(done_before + s.done);
                cadence.after_batch(|milliseconds| {
                    let mut saved = record.clone();
                    saved.searches[index].state = Some(s.clone());
                    saved.milliseconds = milliseconds;
                    saved
                })
            })
        });
        record.searches[index].state = Some(state);
        if !cadence.going() {
            break;
        }
    }
    bar.finish_and_clear();
    record.milliseconds = cadence.milliseconds();
    cadence.finish(record)?;
    Ok(cadence.stop)
}
