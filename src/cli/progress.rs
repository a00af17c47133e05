//! Progress on a terminal: bars on stderr for the runs that take seconds,
//! drawn only when stderr is a terminal (never in pipes, files or JSON).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

use super::*;

/// A progress bar of `len` steps on stderr, drawn only when stderr is a
/// terminal: never in pipes, files or JSON.
pub(super) fn terminal_bar(len: u64, unit: &str) -> ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{eta}} left{{msg}}");
    bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// Reports a long minimisation on a terminal progress bar, one per board.
pub(super) fn minimisation_bar(nullity: usize) -> Box<crate::Progress> {
    let bar = std::sync::Mutex::new(None::<ProgressBar>);
    Box::new(move |done, total| {
        let Ok(mut bar) = bar.lock() else { return };
        let current =
            bar.get_or_insert_with(|| terminal_bar(total, &format!("parts of 2^{nullity} solutions")));
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
