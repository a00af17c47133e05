//! The one place the Python front asks "two states or K?": [`with_game`]
//! picks the library's [`Game`] for the number of states (the bit-packed
//! [`Solver`] for two, [`StateSolver`] for K), and every entry point runs
//! generically over it ([`Play`]). What differs between the two games for
//! Python is [`PyGame`], implemented once for each: how Python names the
//! target a press set reaches, and the table (boards, targets and the
//! study of a size are the library's: `Board::from_cell_values`,
//! `Made::targets_of`, `analysis::study`).

use lightsout::analysis::Weighed;
use lightsout::solve::{Game, Limits, Made, TargetOf};
use lightsout::zk::Modulus;
use lightsout::{Puzzle, Solver, StateSolver, StateTarget, Target};
use pyo3::prelude::*;

use crate::convert::{bad, to_py};
use crate::stop::Stop;

/// Which target a press set reaches.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reached {
    /// `white`, `black`, or `target` (a given board).
    Name(&'static str),
    /// A uniform state of the K-state game.
    State(u8),
}

/// A library game as Python plays it.
pub trait PyGame:
    Game<Board: Send + Sync + 'static + lightsout::solve::Board<Target: Send + Sync + 'static>>
    + Made
    + Weighed
    + Send
    + Sync
    + Sized
    + 'static
{
    /// How Python names `target`.
    fn reached(target: &TargetOf<Self>) -> Reached;

    /// The table of every size `rows[i] × cols[j]` like `template`, row by
    /// row in C order: the nullity, or (`nullity` false, K states) log2 of
    /// the kernel's size. Stops at `stop` between rows.
    ///
    /// # Errors
    /// The library's, as Python exceptions; a `ValueError` for `nullity`
    /// with a composite K.
    fn table(
        rows: &[usize],
        cols: &[usize],
        template: &Puzzle,
        states: Modulus,
        max_memory: u64,
        nullity: bool,
        stop: &Stop,
    ) -> PyResult<Table>;
}

/// What one entry point does, whichever game it plays.
pub trait Play {
    /// What it returns.
    type Output;

    /// Runs it with game `G`.
    ///
    /// # Errors
    /// Its own.
    fn play<G: PyGame>(self) -> PyResult<Self::Output>;
}

/// Runs `play` with the game of `states`: the front's one fork.
///
/// # Errors
/// Those of `play`.
pub fn with_game<P: Play>(states: Modulus, play: P) -> PyResult<P::Output> {
    if states.get() == 2 { play.play::<Solver>() } else { play.play::<StateSolver>() }
}

/// What an analysis found, held without Python objects.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Study {
    pub rows: usize,
    pub cols: usize,
    pub rank: Option<usize>,
    pub nullity: Option<usize>,
    pub kernel: KernelSize,
    /// The quiet patterns' basis (generators for K states), each row by
    /// row; `None` when too many to hold.
    pub quiet: Option<Vec<Vec<u8>>>,
    pub orders: Vec<u32>,
    /// The gcd polynomial and its factors with their multiplicities.
    pub gcd: Option<(String, Vec<(String, usize)>)>,
    /// The lightest quiet pattern, and whether it is proven lightest.
    pub lightest: Option<(Vec<u8>, bool)>,
    pub targets_interchangeable: Option<bool>,
}

impl Study {
    /// The library's study of a `rows × cols` puzzle (or graph) of `states`
    /// states, held as Python reads and pickles it.
    pub fn of(rows: usize, cols: usize, states: Modulus, study: lightsout::analysis::Study) -> Study {
        let nullity = study.kernel.nullity;
        let kernel = match (states.get(), nullity) {
            (2, Some(d)) => KernelSize::PowerOfTwo(d),
            _ => KernelSize::Decimal(study.kernel.size),
        };
        let orders = match &study.quiet {
            Some(quiet) => quiet.iter().map(|(_, order)| *order).collect(),
            None => vec![states.get().into(); nullity.unwrap_or(0)],
        };
        Study {
            rows,
            cols,
            rank: study.rank,
            nullity,
            kernel,
            quiet: study.quiet.map(|quiet| quiet.into_iter().map(|(cells, _)| cells).collect()),
            orders,
            gcd: study.gcd.map(|(g, factors)| {
                (g.to_string(), factors.iter().map(|(p, m)| (p.to_string(), *m)).collect())
            }),
            lightest: study.lightest,
            targets_interchangeable: study.targets_interchangeable,
        }
    }
}

/// How many press sets are quiet: 2^nullity, or the K-state count in decimal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum KernelSize {
    PowerOfTwo(usize),
    Decimal(String),
}

/// A table's entries, row by row.
pub enum Table {
    /// Nullities.
    Nullity(Vec<i64>),
    /// log2 of the kernel's size.
    Log2(Vec<f64>),
}

impl PyGame for Solver {
    fn reached(target: &Target) -> Reached {
        Reached::Name(target.name())
    }

    fn table(
        rows: &[usize],
        cols: &[usize],
        template: &Puzzle,
        _: Modulus,
        max_memory: u64,
        _: bool,
        stop: &Stop,
    ) -> PyResult<Table> {
        // The library's table is over the span of the sizes; the entries
        // asked are picked from it.
        let (r_lo, r_hi) = span(rows);
        let (c_lo, c_hi) = span(cols);
        let table =
            lightsout::nullity_table(r_lo..=r_hi, c_lo..=c_hi, template, max_memory, &|| stop.check())
                .map_err(to_py)?;
        let flat = rows
            .iter()
            .flat_map(|&r| cols.iter().map(move |&c| (r, c)))
            .map(|(r, c)| table[r - r_lo][c - c_lo] as i64)
            .collect();
        Ok(Table::Nullity(flat))
    }
}

impl PyGame for StateSolver {
    fn reached(target: &StateTarget) -> Reached {
        match target {
            StateTarget::Uniform(state) => Reached::State(*state),
            StateTarget::Board(_) => Reached::Name("target"),
        }
    }

    fn table(
        rows: &[usize],
        cols: &[usize],
        template: &Puzzle,
        k: Modulus,
        max_memory: u64,
        nullity: bool,
        stop: &Stop,
    ) -> PyResult<Table> {
        if nullity && !k.is_prime() {
            return Err(bad(format!(
                "nullity=True needs a prime number of states (Z_K a field), got {k}: the table without it \
                 gives log2 of the number of quiet patterns"
            )));
        }
        let (mut log2, mut nullities) = (Vec::new(), Vec::new());
        // A row of sizes at a time on all cores; an abandoned call stops
        // between sizes (one can take seconds), its error never seen.
        let limits = Limits { stop: Some(stop.flag()), time_limit: None };
        let table = lightsout::analysis::kernel_table_within(
            rows.iter().copied(),
            cols,
            template,
            k,
            max_memory,
            &limits,
        );
        for row in table {
            stop.check();
            let row = row.map_err(to_py)?;
            log2.extend(row.iter().map(|entry| entry.kernel_size_log2));
            nullities.extend(row.iter().map(|entry| entry.nullity.map_or(-1, |d| d as i64)));
            stop.check();
        }
        Ok(if nullity { Table::Nullity(nullities) } else { Table::Log2(log2) })
    }
}

/// The smallest and the largest size.
fn span(sizes: &[usize]) -> (usize, usize) {
    let lo = sizes.iter().copied().min().unwrap_or(1);
    let hi = sizes.iter().copied().max().unwrap_or(1);
    (lo, hi)
}
