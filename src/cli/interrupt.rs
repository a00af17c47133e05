//! Process-wide interrupt state: the flag SIGINT and SIGTERM set, which a
//! long search watches, and the run that keeps nothing to resume from,
//! which the handler ends itself, saying how far it got. A leaf: the
//! searches, bars and commands that use it are above it.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, Once};
use std::time::Instant;

use indicatif::ProgressBar;

use crate::present::human;

/// The expected work done and in all of a bar's search, set before each
/// position it is given: what its share done and time left go by where a
/// search has a model of its work (`progress::Estimate`), and what an
/// interrupt reports.
pub(super) type SharedWork = Arc<Mutex<Option<(f64, f64)>>>;

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
        unsaved.work = shown.map(|(_, work)| Arc::clone(work));
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
pub(super) fn interrupted_after(started: Instant, share: Option<(u64, u64)>, unit: &str) -> String {
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
