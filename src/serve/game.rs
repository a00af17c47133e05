//! The two kinds of game as the server serves them: two states over
//! GF(2) and K states over Z_K. The handlers are written once over
//! [`Served`]; [`for_states`] is the one place a request's states pick
//! the kind.

use serde_json::Value;

use super::error::ApiError;
use super::work::Job;
use crate::analysis::Weighed;
use crate::analysis::kernel_table_within;
use crate::present::{Worded, kernel_entry_json, table_entry_json};
use crate::solve::Made;
use crate::zk::Modulus;
use crate::{Puzzle, Solver, StateSolver, nullity_table};

/// Rows of a table computed between two checks of [`Job::should_stop`]:
/// enough for both cores, few enough that an abandoned table stops soon.
const ROWS_PER_PART: usize = 4;

/// What the server does differently for the two kinds of game (two
/// states over GF(2), K states over Z_K): the handlers are written once
/// over it.
pub(super) trait Served: Weighed + Made + Worded {
    /// `/api/table`'s entries for `sizes`, stopping when `job` must.
    fn table(sizes: &TableSizes, job: &Job) -> Result<Vec<Value>, ApiError>;
}

/// The sizes `/api/table` asks for: the rows and columns (inclusive
/// ranges) of a game of `states` states, the rule and topology of
/// `template`, the largest of them (its sides checked).
pub(super) struct TableSizes {
    pub(super) states: Modulus,
    pub(super) rows: (usize, usize),
    pub(super) cols: (usize, usize),
    pub(super) template: Puzzle,
}

impl Served for Solver {
    /// The nullity of each size, [`ROWS_PER_PART`] rows between two checks.
    fn table(sizes: &TableSizes, job: &Job) -> Result<Vec<Value>, ApiError> {
        let TableSizes { rows: (r0, r1), cols: (c0, c1), ref template, .. } = *sizes;
        let limits = &*job.limits;
        let mut table = Vec::with_capacity(r1 - r0 + 1);
        for first in (r0..=r1).step_by(ROWS_PER_PART) {
            if job.should_stop() {
                return Err(job.timed_out());
            }
            let last = (first + ROWS_PER_PART - 1).min(r1);
            table.extend(nullity_table(first..=last, c0..=c1, template, limits.max_memory, &|| {})?);
        }
        Ok(table
            .iter()
            .enumerate()
            .flat_map(|(i, row)| {
                row.iter().enumerate().map(move |(j, &n)| table_entry_json(r0 + i, c0 + j, n))
            })
            .collect())
    }
}

impl Served for StateSolver {
    /// Log2 of the kernel's size (and the nullity for prime K) per size,
    /// as the library's [`kernel_table`] gives it, a row between two checks.
    fn table(sizes: &TableSizes, job: &Job) -> Result<Vec<Value>, ApiError> {
        let TableSizes { states, rows: (r0, r1), cols: (c0, c1), ref template } = *sizes;
        let max_memory = job.limits.max_memory;
        let cols: Vec<usize> = (c0..=c1).collect();
        // Stopped inside a row too: one size can take seconds, a row of
        // them minutes (the request past its limit ran on for 3.5 min).
        job.with_search_limits(|limits| {
            let stopped = limits.stopped_from_now();
            let mut table = kernel_table_within(r0..=r1, &cols, template, states, max_memory, limits);
            let mut entries = Vec::new();
            for r in r0..=r1 {
                let Some(row) = table.next() else { break };
                let row = match row {
                    Err(_) if stopped() || job.should_stop() => return Err(job.timed_out()),
                    row => row?,
                };
                entries.extend(
                    row.iter().zip(c0..=c1).map(|(entry, c)| kernel_entry_json(r, c, states.get(), entry)),
                );
            }
            Ok(entries)
        })
    }
}

/// What a handler does once the kind of game is known.
pub(super) trait OnGame {
    fn on<G: Served>(self) -> Result<String, ApiError>;
}

/// Runs `then` for the kind of game of `states`: the server's one fork
/// between the kinds.
pub(super) fn for_states(states: Modulus, then: impl OnGame) -> Result<String, ApiError> {
    match states.get() {
        2 => then.on::<Solver>(),
        _ => then.on::<StateSolver>(),
    }
}
