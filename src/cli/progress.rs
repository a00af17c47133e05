//! Progress on a terminal: bars on stderr for the runs that take seconds,
//! drawn only when stderr is a terminal (never in pipes, files or JSON).

use std::fmt::Write as _;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use indicatif::style::ProgressTracker;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use super::interrupt::{SharedWork, shown_while_unsaved};
use crate::model::{GeneratedRows, RowStream};

/// A progress bar of `len` steps on stderr, drawn only when stderr is a
/// terminal: never in pipes, files or JSON.
///
/// Beside the bar: the share done, the rate, and the time left at the rate
/// measured since a warm-up ([`Estimate`]), not indicatif's own `{eta}`.
pub(super) fn terminal_bar(len: u64, unit: &str) -> ProgressBar {
    terminal_bar_with_work(len, unit, None)
}

/// [`terminal_bar`] whose share done and time left go by `work` (while it
/// holds a value) rather than by its steps.
pub(super) fn terminal_bar_with_work(len: u64, unit: &str, work: Option<SharedWork>) -> ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        // Never drawn, still counting: an interrupt says how far it got.
        return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{{filled}} {{pos}}/{{len}} {unit}, {{estimate}}{{msg}}");
    let filled = Filled { work: work.clone() };
    let estimate = Estimate { work, unit: unit.to_string(), ..Estimate::default() };
    let style = ProgressStyle::with_template(&template)
        .map(|style| style.with_key("filled", filled).with_key("estimate", estimate))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// Cells of the drawn bar.
const BAR_CELLS: usize = 40;

/// The bar itself, filled by the share of the work done where the search
/// has a model of it (the share written beside it), else by the steps: a
/// tester saw a bar 9/40 full beside "89.2% of the work".
#[derive(Clone)]
struct Filled {
    work: Option<SharedWork>,
}

impl Filled {
    fn cells(&self, pos: u64, len: u64) -> String {
        let work = self.work.as_ref().and_then(|w| w.lock().ok().and_then(|w| *w));
        let share = match work {
            Some((done, total)) if total > 0.0 => done / total,
            _ if len > 0 => pos as f64 / len as f64,
            _ => 0.0,
        };
        let full = ((share.clamp(0.0, 1.0) * BAR_CELLS as f64).round() as usize).min(BAR_CELLS);
        "█".repeat(full) + &"░".repeat(BAR_CELLS - full)
    }
}

impl ProgressTracker for Filled {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, _: &ProgressState, _: Instant) {}

    fn reset(&mut self, _: &ProgressState, _: Instant) {}

    fn write(&self, state: &ProgressState, w: &mut dyn std::fmt::Write) {
        let _ = w.write_str(&self.cells(state.pos(), state.len().unwrap_or(0)));
    }
}

/// How long a bar watches before it estimates: the first steps of a search
/// (setting up its tables, the first batches on cold caches, a machine
/// still busy with something else) are no guide to the rest.
const WARM_UP: Duration = Duration::from_secs(5);

/// The least time over which a rate is measured before it is shown as a
/// time left.
const MEASURED: Duration = Duration::from_secs(3);

/// The share done and the time left of a progress bar, by the expected
/// work of its steps where the search has a model of it, else by the steps
/// themselves; measured since the end of a warm-up.
///
/// The blocks of a long search are far from equal: a symmetric transform
/// weighs one block per orbit, and the first blocks hold most of the
/// orbits, so the blocks a second climb tenfold as a search goes on. On
/// `-r 61 -c 61 --max-nullity 40` (2^22 blocks, 7 symmetries) a bar that
/// divided the blocks left by the blocks a second said "7m 09s left" at
/// 10 s and "3m 37s" at 30 s of a search that ended at 46 s. Where the
/// search gives the expected work of its blocks
/// ([`WorkCurve`](crate::solve::WorkCurve): the weighed blocks of a
/// transform, Knuth's probes of branch and bound, the model behind
/// `--estimate`), the bar goes by work instead: the share done is the
/// work done over the work in all, the rate is the work done since the
/// warm-up over the time since then, and the time left is the work left
/// at that rate; its text says "of the work" and "left". The model's unit
/// never matters, only its shares, and its errors scale away: a search
/// whose blocks all run twice as fast as modelled measures twice the rate.
///
/// Where no model is given (the K-state walk's tasks, of equal member
/// counts; rows and boards) the steps are the work and the time left is
/// labelled as what it is: the time at the rate so far.
///
/// Either way, the steps before the warm-up's end and the starting
/// position (a resumed search's bar is set to the saved position at once)
/// never count, and until [`MEASURED`] of the rate has passed the bar says
/// it is measuring instead of guessing.
#[derive(Clone, Debug, Default)]
pub(super) struct Estimate {
    /// Where the work done and in all are read at each tick, if the
    /// search has a model.
    work: Option<SharedWork>,
    /// The first point seen, and when: where the warm-up starts.
    start: Option<(Point, Instant)>,
    /// The point and time at the end of the warm-up.
    warm: Option<(Point, Instant)>,
    /// The latest point and time.
    now: Option<(Point, Instant)>,
    len: u64,
    /// What the steps are (`blocks`), for the rate: a bare `76/s` left
    /// a tester guessing.
    unit: String,
}

/// Where a bar stands: its position, and the work done and in all when
/// the search has a model of it.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Point {
    pos: u64,
    work: Option<(f64, f64)>,
}

impl Point {
    /// How far it has got in the measure the estimate goes by: the work
    /// done where it is known, else the position.
    fn done(&self) -> f64 {
        self.work.map_or(self.pos as f64, |(done, _)| done)
    }
}

impl Estimate {
    /// Takes in the bar's position `pos` of `len` at `now`, and the
    /// expected work done and in all where the search has a model of it. A
    /// position that goes back (a new pass over a board), or a model that
    /// comes or goes, starts the estimate over.
    pub(super) fn observe(&mut self, pos: u64, len: u64, work: Option<(f64, f64)>, now: Instant) {
        self.len = len;
        let point = Point { pos, work };
        if self.now.is_some_and(|(last, _)| pos < last.pos || last.work.is_some() != work.is_some()) {
            self.start = None;
            self.warm = None;
        }
        let (start, start_time) = *self.start.get_or_insert((point, now));
        if self.warm.is_none() && now.duration_since(start_time) >= WARM_UP {
            // The warm-up ends at the first step seen after it; a position
            // that has not moved since the start keeps it going.
            if point.done() > start.done() {
                self.warm = Some((point, now));
            }
        }
        self.now = Some((point, now));
    }

    /// Steps per second since the warm-up, once [`MEASURED`] has passed.
    pub(super) fn rate(&self) -> Option<f64> {
        let ((warm, warm_time), (point, now)) = (self.warm?, self.now?);
        let seconds = now.duration_since(warm_time).as_secs_f64();
        (seconds >= MEASURED.as_secs_f64() && point.pos > warm.pos)
            .then(|| (point.pos - warm.pos) as f64 / seconds)
    }

    /// The time left: the work left at the work done a second since the
    /// warm-up where there is a model, else the steps left at
    /// [`Estimate::rate`].
    pub(super) fn left(&self) -> Option<Duration> {
        let ((warm, warm_time), (point, now)) = (self.warm?, self.now?);
        let seconds = now.duration_since(warm_time).as_secs_f64();
        if seconds < MEASURED.as_secs_f64() || point.done() <= warm.done() {
            return None;
        }
        let rate = (point.done() - warm.done()) / seconds;
        let left = match point.work {
            Some((done, total)) => (total - done).max(0.0),
            None => self.len.saturating_sub(point.pos) as f64,
        };
        Some(Duration::from_secs_f64((left / rate).min(1e9)))
    }

    /// What the bar shows: `37.1%, 39.1k blocks/s, 1m 07s left at this rate`, or
    /// `37.1%, measuring the rate` during the warm-up; by work, `62.0% of
    /// the work, 1m 07s left` (the steps a second say little then).
    pub(super) fn describe(&self) -> String {
        let point = self.now.map_or(Point { pos: 0, work: None }, |(point, _)| point);
        let (done, total) = point.work.unwrap_or((point.pos as f64, self.len as f64));
        let share = if total > 0.0 { (100.0 * done / total).min(100.0) } else { 100.0 };
        match (point.work.is_some(), self.rate(), self.left()) {
            (true, _, Some(left)) => format!("{share:.1}% of the work, {} left", short_duration(left)),
            (true, _, None) => format!("{share:.1}% of the work, measuring the rate"),
            (false, Some(rate), Some(left)) => {
                // A unit of one word names the rate (`blocks/s`); a phrase
                // (`million weighings at most`) would not read as one.
                let unit = match self.unit.contains(' ') || self.unit.is_empty() {
                    true => String::new(),
                    false => format!(" {}", self.unit),
                };
                format!(
                    "{share:.1}%, {}{unit}/s, {} left at this rate",
                    short_count(rate),
                    short_duration(left)
                )
            }
            (false, _, _) => format!("{share:.1}%, measuring the rate"),
        }
    }
}

impl ProgressTracker for Estimate {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, state: &ProgressState, now: Instant) {
        let work = self.work.as_ref().and_then(|w| w.lock().ok().and_then(|w| *w));
        self.observe(state.pos(), state.len().unwrap_or(0), work, now);
    }

    fn reset(&mut self, _: &ProgressState, _: Instant) {
        *self =
            Estimate { work: self.work.take(), unit: std::mem::take(&mut self.unit), ..Estimate::default() };
    }

    fn write(&self, _: &ProgressState, w: &mut dyn std::fmt::Write) {
        let _ = w.write_str(&self.describe());
    }
}

/// `950`, `39.1k`, `2.40M`: a rate in three or four figures.
fn short_count(n: f64) -> String {
    match n {
        n if n >= 1e9 => format!("{:.2}G", n / 1e9),
        n if n >= 1e6 => format!("{:.2}M", n / 1e6),
        n if n >= 1e3 => format!("{:.1}k", n / 1e3),
        n => format!("{n:.0}"),
    }
}

/// `42s`, `3m 05s`, `2h 10m`: a time left to the second while it is short.
fn short_duration(d: Duration) -> String {
    let s = d.as_secs();
    let mut out = String::new();
    let _ = match s {
        0..60 => write!(out, "{s}s"),
        60..3600 => write!(out, "{}m {:02}s", s / 60, s % 60),
        _ => write!(out, "{}h {:02}m", s / 3600, s / 60 % 60),
    };
    out
}

/// Reports a long minimisation on a terminal progress bar, one per board,
/// counted in blocks as a long search's bar (`--checkpoint`) counts them.
pub(super) fn minimisation_bar() -> Box<crate::solve::Progress> {
    let bar = Mutex::new(None::<ProgressBar>);
    let work = SharedWork::default();
    Box::new(move |step: crate::solve::Step| {
        let Ok(mut bar) = bar.lock() else { return };
        let (done, total) = (step.done, step.total);
        if let Ok(mut shared) = work.lock() {
            *shared = step.work;
        }
        let current = bar.get_or_insert_with(|| {
            let made = terminal_bar_with_work(total, "blocks", Some(Arc::clone(&work)));
            // An interrupt of a solve in memory clears it and says how far it got.
            shown_while_unsaved(Some((&made, &work)));
            made
        });
        current.set_position(done);
        if done == total {
            current.finish_and_clear();
            *bar = None;
            shown_while_unsaved(None);
        }
    })
}

/// Streamed boards of at least this many cells show their passes on a
/// terminal progress bar: each pass takes seconds from here on.
pub(super) const SHOWN_STREAM_CELLS: usize = 1 << 30;

/// A streamed board's rows, counted on a progress bar as the solver reads
/// them; each restart is a new pass over the board.
pub(super) struct RowsShown {
    pub(super) rows: GeneratedRows,
    pub(super) bar: indicatif::ProgressBar,
    pub(super) passes: usize,
}

impl RowsShown {
    pub(super) fn new(rows: GeneratedRows, count: usize, cols: usize) -> Self {
        let bar = match count.saturating_mul(cols) >= SHOWN_STREAM_CELLS {
            true => terminal_bar(count as u64, "rows"),
            false => indicatif::ProgressBar::hidden(),
        };
        RowsShown { rows, bar, passes: 0 }
    }
}

impl RowStream for RowsShown {
    fn cols(&self) -> usize {
        self.rows.cols()
    }

    fn restart(&mut self) {
        self.rows.restart();
        self.passes += 1;
        self.bar.set_position(0);
        self.bar.set_message(format!(" (pass {} over the board)", self.passes));
    }

    fn next_row(&mut self, out: &mut [u64]) {
        self.rows.next_row(out);
        self.bar.inc(1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::WorkCurve;

    #[test]
    fn regression_the_bar_is_filled_by_the_work_its_share_says() {
        // 10 % of the blocks, 89 % of the work: filled as the share says.
        let work: SharedWork = Arc::new(Mutex::new(Some((89.0, 100.0))));
        let filled = Filled { work: Some(Arc::clone(&work)) };
        assert_eq!(filled.cells(10, 100), "█".repeat(36) + &"░".repeat(4));
        // Without a model (or before it comes), by the steps.
        *work.lock().unwrap() = None;
        assert_eq!(filled.cells(10, 100), "█".repeat(4) + &"░".repeat(36));
        assert_eq!(Filled { work: None }.cells(0, 0), "░".repeat(40));
    }

    /// Feeds `estimate` a run of `rate` steps a second for `seconds`, a
    /// tenth of a second at a time, from `(pos, at)`; returns where it ends.
    fn run(
        estimate: &mut Estimate,
        len: u64,
        (pos, at): (u64, Instant),
        rate: f64,
        seconds: f64,
    ) -> (u64, Instant) {
        let ticks = (seconds * 10.0).round() as u64;
        for k in 1..=ticks {
            estimate.observe(
                pos + (rate * k as f64 / 10.0) as u64,
                len,
                None,
                at + Duration::from_millis(100 * k),
            );
        }
        (pos + (rate * seconds) as u64, at + Duration::from_millis(100 * ticks))
    }

    /// An estimate fed 9 s of a run of 100,000 steps at `rate` steps a
    /// second, which has measured the rate; and where the run ended.
    fn measured_run(rate: f64) -> (Estimate, (u64, Instant)) {
        let mut estimate = Estimate::default();
        let end = run(&mut estimate, 100_000, (0, Instant::now()), rate, 9.0);
        assert!(estimate.left().is_some(), "{}", estimate.describe());
        (estimate, end)
    }

    /// Issue 15: `-r 61 -c 61 --max-nullity 40` showed "18m–19m left" for
    /// its first minute and finished in 2.5 min: indicatif's `{eta}` went by
    /// the slow start. A search that starts slowly (a tenth of its rate for
    /// its first 5 s) and then runs steadily is now estimated from the
    /// steady part: within 10% of the true time left once the rate is
    /// measured, and no number at all before.
    #[test]
    fn regression_a_slow_start_does_not_inflate_the_time_left() {
        let len = 4_194_304;
        let mut estimate = Estimate { unit: "blocks".into(), ..Estimate::default() };
        let start = Instant::now();
        estimate.observe(0, len, None, start);
        let slow = run(&mut estimate, len, (0, start), 2_800.0, 5.0);
        assert!(estimate.left().is_none(), "{}", estimate.describe());
        assert!(estimate.describe().ends_with("measuring the rate"), "{}", estimate.describe());
        let steady = run(&mut estimate, len, slow, 28_000.0, 10.0);
        let truth = (len - steady.0) as f64 / 28_000.0;
        let left = estimate.left().unwrap().as_secs_f64();
        assert!(
            (left - truth).abs() < 0.1 * truth,
            "{left} s left, truly {truth} s: {}",
            estimate.describe()
        );
        assert!(estimate.describe().contains("28.0k blocks/s"), "{}", estimate.describe());
    }

    /// A resumed search's bar jumps to the saved position at once: that
    /// jump is not progress made at some rate.
    #[test]
    fn a_resumed_position_is_not_counted_as_progress() {
        let len = 1_000_000;
        let mut estimate = Estimate::default();
        let start = Instant::now();
        estimate.observe(900_000, len, None, start);
        run(&mut estimate, len, (900_000, start), 1_000.0, 10.0);
        let left = estimate.left().unwrap().as_secs_f64();
        // 90,000 steps left at 1,000 a second.
        assert!((left - 90.0).abs() < 5.0, "{left}: {}", estimate.describe());
    }

    /// A bar whose position goes back (a new pass over a streamed board)
    /// measures its rate afresh.
    #[test]
    fn a_new_pass_starts_the_estimate_over() {
        let (mut estimate, end) = measured_run(10_000.0);
        estimate.observe(0, 100_000, None, end.1);
        assert!(estimate.left().is_none(), "{}", estimate.describe());
    }

    /// A search of `len` blocks whose first tenth holds ten times the work
    /// of a block after it (as a symmetric transform's first blocks hold
    /// most of its orbits), run at `rate` work a second: where it stands
    /// at `t` seconds, and when it truly ends.
    fn heavy_first(len: u64, rate: f64) -> (WorkCurve, impl Fn(f64) -> u64, f64) {
        let heavy = len / 10;
        let curve = WorkCurve::from_units(len, |r| r.map(|u| if u < heavy { 10.0 } else { 1.0 }).sum());
        let heavy_work = 10.0 * heavy as f64;
        let at = move |t: f64| {
            let work = rate * t;
            let pos = if work < heavy_work { work / 10.0 } else { heavy as f64 + work - heavy_work };
            (pos as u64).min(len)
        };
        let end = curve.total() / rate;
        (curve, at, end)
    }

    /// Issue 22, item 4: on `-r 61 -c 61 --max-nullity 40` the bar said
    /// "7m 09s left" at 10 s and "3m 37s" at 30 s of a search that ended at
    /// 46 s: it divided the blocks left by the blocks a second, and the
    /// first blocks are the heavy ones. Fed the expected work of its blocks,
    /// the bar's time left is the true one, in the heavy part and after
    /// it, where the blocks' rate is 8 and 2.5 times off.
    #[test]
    fn regression_heavy_first_blocks_do_not_inflate_the_time_left() {
        let len = 4_194_304;
        let (curve, at, end) = heavy_first(len, 100_000.0);
        let start = Instant::now();
        let (mut by_work, mut by_blocks) = (Estimate::default(), Estimate::default());
        for tick in 0..=(end * 10.0) as u64 {
            let t = tick as f64 / 10.0;
            let now = start + Duration::from_millis(100 * tick);
            let pos = at(t);
            by_work.observe(pos, len, Some((curve.done(pos), curve.total())), now);
            by_blocks.observe(pos, len, None, now);
            if tick == 300 || tick == 600 {
                let truth = end - t;
                let left = by_work.left().unwrap().as_secs_f64();
                assert!((left - truth).abs() < 0.05 * truth, "at {t} s: {left} s left, truly {truth}");
                let text = by_work.describe();
                assert!(text.contains("of the work,") && text.ends_with(" left"), "{text}");
                assert!(!text.contains("at this rate"), "{text}");
                // What the bar said before: many times the truth.
                let blocks = by_blocks.left().unwrap().as_secs_f64();
                assert!(blocks > 2.0 * truth, "at {t} s the blocks' rate says {blocks} s, truly {truth}");
            }
        }
        // Past the heavy tenth of the blocks, more than half the work is done.
        let pos = at(45.0);
        assert!(pos > len / 10 && curve.done(pos) / curve.total() > 0.5);
    }

    /// A resumed search with a model: the saved work is not progress made
    /// at some rate, and the time left is the work left at the rate since.
    #[test]
    fn a_resumed_search_is_estimated_by_the_work_left() {
        let len = 1_000_000;
        let (curve, at, end) = heavy_first(len, 10_000.0);
        let start = Instant::now();
        let mut estimate = Estimate::default();
        let resumed_at = 70.0;
        for tick in 0..=200u64 {
            let pos = at(resumed_at + tick as f64 / 10.0);
            estimate.observe(
                pos,
                len,
                Some((curve.done(pos), curve.total())),
                start + Duration::from_millis(100 * tick),
            );
        }
        let truth = end - (resumed_at + 20.0);
        let left = estimate.left().unwrap().as_secs_f64();
        assert!((left - truth).abs() < 0.05 * truth, "{left} s left, truly {truth}: {}", estimate.describe());
    }

    /// A model that comes once the search has run a while (branch and
    /// bound probes for it after a second) starts the estimate over: steps
    /// and work are not one measure.
    #[test]
    fn a_model_that_comes_late_starts_the_estimate_over() {
        let (mut estimate, end) = measured_run(1_000.0);
        estimate.observe(end.0 + 10, 100_000, Some((5.0, 10.0)), end.1 + Duration::from_millis(100));
        assert!(estimate.left().is_none(), "{}", estimate.describe());
        assert_eq!(estimate.describe(), "50.0% of the work, measuring the rate");
    }

    #[test]
    fn shows_short_rates_and_times() {
        assert_eq!(
            [short_count(950.0), short_count(39_140.0), short_count(2.4e6)],
            ["950", "39.1k", "2.40M"]
        );
        let times = [42, 185, 7_800].map(|s| short_duration(Duration::from_secs(s)));
        assert_eq!(times, ["42s", "3m 05s", "2h 10m"]);
    }
}
