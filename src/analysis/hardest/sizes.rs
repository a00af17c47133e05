//! Most Clicks over ranges of sizes: [`hardest`] on every size of a table
//! (each board certified as for one size), with one work budget for the
//! whole table.

use super::{Goal, Hardest, HardestOptions, hardest};
use crate::error::Error;
use crate::model::Puzzle;
use crate::solve::{DEFAULT_MAX_NULLITY, GameSpec, Limits, Made};
use crate::zk::Modulus;
use crate::{Grid, Solver};

/// Sizes a table of Most Clicks weighs at most: the nullity table orders
/// them first, and each holds its solver only while it is weighed.
pub const MAX_TABLE_SIZES: usize = 1 << 16;

/// What [`most_clicks_table`] hands each size: its row and column
/// index, its game, its answer and the weighings it spent.
pub type EachSize<'e> = dyn FnMut(usize, usize, &Solver, &Hardest<Grid>, u64) -> Result<(), Error> + 'e;

/// What a table's run did: the nullity of every size, how many sizes it
/// weighed (fewer than all when `limits` stopped it) and the work spent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TableRun {
    /// The nullity of each size, rows down, columns across.
    pub nullity: Vec<Vec<usize>>,
    /// How many sizes were weighed.
    pub weighed: usize,
    /// Weighings spent of the budget.
    pub spent: u64,
}

/// Most Clicks of every two-state size `rows` × `cols` like `template`
/// (its topology and rule), to `goal`, each by [`hardest`], handed to
/// `each` with its row and column index, its game, its answer and the
/// weighings it spent, while the game is at hand.
///
/// The budget `work` is the whole table's: the sizes are weighed in
/// order of nullity (then rows, columns), each given an even share of
/// what the ones before left, so that the cheap sizes pass their unspent
/// work on to the hard ones. A count, so the table is the same on every
/// machine. `limits` (a stop flag, a time limit for the whole table) end
/// it between sizes and cut the size in hand short.
///
/// # Errors
/// [`Error::Limit`] past [`MAX_TABLE_SIZES`]; a size's own (its solver
/// past `max_memory`), and those of `each`.
///
/// # Example
/// ```
/// use lightsout::analysis::{Goal, most_clicks_table};
/// use lightsout::solve::Limits;
/// use lightsout::Puzzle;
///
/// let mut most = Vec::new();
/// let template = Puzzle::new(1, 1)?;
/// let run = most_clicks_table(&template, (4, 5), (4, 5), Goal::State(0), 1 << 30, u64::MAX, &Limits::NONE,
///     &mut |_, _, _, found, _| Ok(most.push(found.upper)))?;
/// // Cheapest first: 4x5 and 5x4 (nullity 0), 5x5 (2), 4x4 (4).
/// assert_eq!((run.weighed, most), (4, vec![20, 20, 15, 7]));
/// # Ok::<(), lightsout::Error>(())
/// ```
#[allow(clippy::too_many_arguments)]
pub fn most_clicks_table(
    template: &Puzzle,
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
    goal: Goal,
    work: u64,
    max_memory: u64,
    limits: &Limits,
    each: &mut EachSize,
) -> Result<TableRun, Error> {
    let count = (r1 - r0 + 1).saturating_mul(c1 - c0 + 1);
    if count > MAX_TABLE_SIZES {
        return Err(Error::Limit(format!(
            "{r0}..{r1} x {c0}..{c1} is {count} sizes; a table of Most Clicks weighs at most {MAX_TABLE_SIZES}"
        )));
    }
    let nullity = crate::nullity_table(r0..=r1, c0..=c1, template, max_memory, &|| {})?;
    // Cheapest first: the sizes of small nullity settle in milliseconds
    // and leave their share to the large ones.
    let mut order: Vec<(usize, usize)> =
        (0..=r1 - r0).flat_map(|i| (0..=c1 - c0).map(move |j| (i, j))).collect();
    order.sort_by_key(|&(i, j)| (nullity[i][j], i, j));
    let started = std::time::Instant::now();
    let stopped = || limits.stop.is_some_and(|s| s.load(std::sync::atomic::Ordering::Relaxed));
    let (mut left, mut weighed) = (work, 0);
    for (k, &(i, j)) in order.iter().enumerate() {
        let time_left = limits.time_limit.map(|t| t.saturating_sub(started.elapsed()));
        if stopped() || time_left.is_some_and(|t| t.is_zero()) {
            break;
        }
        let puzzle = Puzzle::new(r0 + i, c0 + j)?
            .with_topology(template.topology())
            .with_rule(template.rule().clone());
        let spec = GameSpec::new(puzzle, Modulus::new(2)?)
            .with_max_memory(max_memory)
            .asking_max_nullity(DEFAULT_MAX_NULLITY);
        let game = Solver::make(&spec)?;
        let share = (left / (order.len() - k) as u64).max(1);
        let spent = std::sync::atomic::AtomicU64::new(0);
        let options = HardestOptions { distribution: false, work: share, progress: Some(&spent) };
        let found = hardest(&game, goal, &options, &Limits { stop: limits.stop, time_limit: time_left })?;
        let spent = spent.load(std::sync::atomic::Ordering::Relaxed).min(share);
        left -= spent;
        weighed += 1;
        each(i, j, &game, &found, spent)?;
    }
    Ok(TableRun { nullity, weighed, spent: work - left })
}
