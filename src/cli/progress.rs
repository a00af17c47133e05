//! Progress on a terminal: bars on stderr for the runs that take seconds,
//! drawn only when stderr is a terminal (never in pipes, files or JSON).

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use indicatif::style::ProgressTracker;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

use crate::model::{GeneratedRows, RowStream};

/// A progress bar of `len` steps on stderr, drawn only when stderr is a
/// terminal: never in pipes, files or JSON.
///
/// Beside the bar: the share done, the rate, and the time left at the rate
/// measured since a warm-up ([`Estimate`]), not indicatif's own `{eta}`.
pub(super) fn terminal_bar(len: u64, unit: &str) -> ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        // Never drawn, still counting: an interrupt says how far it got.
        return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{estimate}}{{msg}}");
    let style = ProgressStyle::with_template(&template)
        .map(|style| style.with_key("estimate", Estimate::default()))
        .unwrap_or_else(|_| ProgressStyle::default_bar());
    bar.set_style(style);
    bar
}

/// How long a bar watches before it estimates: the first steps of a search
/// (setting up its tables, the first batches on cold caches, a machine
/// still busy with something else) are no guide to the rest.
const WARM_UP: Duration = Duration::from_secs(5);

/// The least time over which a rate is measured before it is shown as a
/// time left.
const MEASURED: Duration = Duration::from_secs(3);

/// The share done, the rate and the time left of a progress bar, from the
/// steps counted since the end of a warm-up.
///
/// indicatif's `{eta}` weighs the last seconds and counts every step since
/// the bar was made, so the first slow minute of `-r 61 -c 61 --max-nullity
/// 40` showed "18m–19m left" for a search that took 2.5 min, and a
/// resumed search (its bar set to the saved position at once) showed
/// seconds. Here the steps before the warm-up's end, and the starting
/// position, never count: the rate is the steps since then over the time
/// since then, and until [`MEASURED`] of it has passed the bar says it is
/// measuring instead of guessing. The rate of a search can still change
/// (later blocks can be cheaper), so the time left is labelled as what it
/// is: the time at the rate so far.
#[derive(Clone, Debug, Default)]
pub(super) struct Estimate {
    /// The first step seen, and when: where the warm-up starts.
    start: Option<(u64, Instant)>,
    /// The position and time at the end of the warm-up.
    warm: Option<(u64, Instant)>,
    /// The latest position and time.
    now: Option<(u64, Instant)>,
    len: u64,
}

impl Estimate {
    /// Takes in the bar's position `pos` of `len` at `now`. A position that
    /// goes back (a new pass over a board) starts the estimate over.
    pub(super) fn observe(&mut self, pos: u64, len: u64, now: Instant) {
        self.len = len;
        if self.now.is_some_and(|(last, _)| pos < last) {
            self.start = None;
            self.warm = None;
        }
        let (start_pos, start_time) = *self.start.get_or_insert((pos, now));
        if self.warm.is_none() && now.duration_since(start_time) >= WARM_UP {
            // The warm-up ends at the first step seen after it; a position
            // that has not moved since the start keeps it going.
            if pos > start_pos {
                self.warm = Some((pos, now));
            }
        }
        self.now = Some((pos, now));
    }

    /// Steps per second since the warm-up, once [`MEASURED`] has passed.
    pub(super) fn rate(&self) -> Option<f64> {
        let ((warm_pos, warm_time), (pos, now)) = (self.warm?, self.now?);
        let seconds = now.duration_since(warm_time).as_secs_f64();
        (seconds >= MEASURED.as_secs_f64() && pos > warm_pos).then(|| (pos - warm_pos) as f64 / seconds)
    }

    /// The time left at [`Estimate::rate`].
    pub(super) fn left(&self) -> Option<Duration> {
        let (pos, _) = self.now?;
        let rate = self.rate()?;
        Some(Duration::from_secs_f64((self.len.saturating_sub(pos) as f64 / rate).min(1e9)))
    }

    /// What the bar shows: `37.1%, 39.1k/s, 1m 07s left at this rate`, or
    /// `37.1%, measuring the rate` during the warm-up.
    pub(super) fn describe(&self) -> String {
        let pos = self.now.map_or(0, |(pos, _)| pos);
        let share = if self.len == 0 { 100.0 } else { 100.0 * pos as f64 / self.len as f64 };
        match (self.rate(), self.left()) {
            (Some(rate), Some(left)) => {
                format!("{share:.1}%, {}/s, {} left at this rate", short_count(rate), short_duration(left))
            }
            _ => format!("{share:.1}%, measuring the rate"),
        }
    }
}

impl ProgressTracker for Estimate {
    fn clone_box(&self) -> Box<dyn ProgressTracker> {
        Box::new(self.clone())
    }

    fn tick(&mut self, state: &ProgressState, now: Instant) {
        self.observe(state.pos(), state.len().unwrap_or(0), now);
    }

    fn reset(&mut self, _: &ProgressState, _: Instant) {
        *self = Estimate::default();
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
    let bar = std::sync::Mutex::new(None::<ProgressBar>);
    Box::new(move |done, total| {
        let Ok(mut bar) = bar.lock() else { return };
        let current = bar.get_or_insert_with(|| terminal_bar(total, "blocks"));
        current.set_position(done);
        if done == total {
            current.finish_and_clear();
            *bar = None;
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
            estimate.observe(pos + (rate * k as f64 / 10.0) as u64, len, at + Duration::from_millis(100 * k));
        }
        (pos + (rate * seconds) as u64, at + Duration::from_millis(100 * ticks))
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
        let mut estimate = Estimate::default();
        let start = Instant::now();
        estimate.observe(0, len, start);
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
        assert!(estimate.describe().contains("28.0k/s"), "{}", estimate.describe());
    }

    /// A resumed search's bar jumps to the saved position at once: that
    /// jump is not progress made at some rate.
    #[test]
    fn a_resumed_position_is_not_counted_as_progress() {
        let len = 1_000_000;
        let mut estimate = Estimate::default();
        let start = Instant::now();
        estimate.observe(900_000, len, start);
        run(&mut estimate, len, (900_000, start), 1_000.0, 10.0);
        let left = estimate.left().unwrap().as_secs_f64();
        // 90,000 steps left at 1,000 a second.
        assert!((left - 90.0).abs() < 5.0, "{left}: {}", estimate.describe());
    }

    /// A bar whose position goes back (a new pass over a streamed board)
    /// measures its rate afresh.
    #[test]
    fn a_new_pass_starts_the_estimate_over() {
        let mut estimate = Estimate::default();
        let start = Instant::now();
        let end = run(&mut estimate, 100_000, (0, start), 10_000.0, 9.0);
        assert!(estimate.left().is_some());
        estimate.observe(0, 100_000, end.1);
        assert!(estimate.left().is_none(), "{}", estimate.describe());
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
