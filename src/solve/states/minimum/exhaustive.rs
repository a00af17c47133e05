//! The front of the exhaustive search: how the work is sized (the inner
//! block, the lanes, the tasks) and which [`Engine`] runs it.

use std::sync::atomic::AtomicBool;

use super::coset::Coset;
use super::engine::Engine;
use super::plan::{Only, Order, inner_plan};
use super::units::Units;
use super::{LANES, MAX_INNER, Tuning, fold};

/// The exhaustive search: the lightest member's (weight, index), ties to
/// the smallest index; with `nonzero`, members of weight 0 are skipped.
/// `bound` is a weight no member (nonzero member) is below: a member that
/// meets it lets the search skip every block of larger indices.
pub(super) fn search(
    coset: &Coset,
    units: &Units,
    nonzero: bool,
    bound: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
    tuning: Option<Tuning>,
) -> Option<(u64, u64)> {
    search_tasks(coset, units, nonzero, bound, progress, tuning, How::default())
}

/// What a search weighs besides the plain whole: only some tasks of a
/// sliced search, or one block per orbit of the symmetries.
#[derive(Default)]
pub(super) struct How<'f> {
    pub(super) only: Option<Only>,
    pub(super) fold: Option<&'f fold::Folding>,
    /// Once set, each task ends after its current batch of blocks.
    pub(super) stop: Option<&'f AtomicBool>,
}

/// [`search`], or with `only` the tasks it names of the layout
/// [`SlicedCoset`](super::SlicedCoset) fixes.
pub(super) fn search_tasks(
    coset: &Coset,
    units: &Units,
    nonzero: bool,
    bound: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
    tuning: Option<Tuning>,
    how: How,
) -> Option<(u64, u64)> {
    let How { only, fold, stop } = how;
    if tuning.is_none() && only.is_none() && fold.is_none() && !coset.orders.is_empty() {
        return search_reordered(coset, units, nonzero, bound, progress, stop);
    }
    let tuning = tuning.unwrap_or_else(|| Tuning::auto(units.len(), &coset.orders));
    let heaviest: u64 = units.mult.iter().map(|&m| u64::from(m)).sum::<u64>() * u64::from(coset.k - 1);
    let sliced = only.as_ref().map(|o| o.cap);
    let order = None;
    macro_rules! run {
        ($a:ty) => {
            match tuning.lanes {
                0 | 1 => Engine::<$a, 1>::new(coset, units, tuning, sliced, fold, order)
                    .run(nonzero, bound, progress, only, stop),
                2..=4 => Engine::<$a, 4>::new(coset, units, tuning, sliced, fold, order)
                    .run(nonzero, bound, progress, only, stop),
                _ => Engine::<$a, 16>::new(coset, units, tuning, sliced, fold, order)
                    .run(nonzero, bound, progress, only, stop),
            }
        };
    }
    if heaviest < 1 << 32 && !tuning.wide { run!(u32) } else { run!(u64) }
}

/// The plain search with its coefficients walked in the cheapest [`Order`]
/// (the same answer: indices are the caller's).
fn search_reordered(
    coset: &Coset,
    units: &Units,
    nonzero: bool,
    bound: u64,
    progress: &(dyn Fn(u64, u64) + Sync),
    stop: Option<&AtomicBool>,
) -> Option<(u64, u64)> {
    let sorted: Vec<u32> = {
        let mut orders = coset.orders.clone();
        orders.sort_unstable();
        orders
    };
    let tuning = Tuning::auto(units.len(), &sorted);
    let order = Order::plan(
        &coset.orders,
        units.len(),
        lanes_of(tuning.lanes),
        tuning.max_inner / lanes_of(tuning.lanes),
    );
    let walked = coset.reordered(order.of());
    let moved = units.reordered(order.of());
    let heaviest: u64 = units.mult.iter().map(|&m| u64::from(m)).sum::<u64>() * u64::from(coset.k - 1);
    let order = Some(&order);
    macro_rules! run {
        ($a:ty) => {
            match tuning.lanes {
                0 | 1 => Engine::<$a, 1>::new(&walked, &moved, tuning, None, None, order)
                    .run(nonzero, bound, progress, None, stop),
                2..=4 => Engine::<$a, 4>::new(&walked, &moved, tuning, None, None, order)
                    .run(nonzero, bound, progress, None, stop),
                _ => Engine::<$a, 16>::new(&walked, &moved, tuning, None, None, order)
                    .run(nonzero, bound, progress, None, stop),
            }
        };
    }
    if heaviest < 1 << 32 { run!(u32) } else { run!(u64) }
}

impl Tuning {
    /// The engine's sizes for `units` units (bench group `tuning`): few
    /// units are cheap to move, so blocks are small and weighed 16 at a
    /// time; many units make each step of the Gray walk dear (every unit
    /// whose key has the coefficient moves), so blocks grow, fewer at a
    /// time, to need fewer steps.
    pub(super) fn auto(units: usize, orders: &[u32]) -> Tuning {
        let mut lanes = match units {
            0..=1000 => LANES,
            1001..=5000 => 4,
            _ => 1,
        };
        // Too few blocks to fill the lanes twice over: fewer lanes (and
        // larger blocks).
        let orders: Vec<usize> = orders.iter().map(|&r| r as usize).collect();
        let members: u64 = orders.iter().map(|&r| r as u64).product();
        while lanes > 1 && members / (inner_plan(&orders, MAX_INNER / lanes).1 as u64) < 2 * lanes as u64 {
            lanes /= 4;
        }
        Tuning { max_inner: MAX_INNER, lanes, wide: false }
    }
}

/// Lanes of the engine `lanes` asks for (as [`search`] rounds them).
pub(super) fn lanes_of(lanes: usize) -> usize {
    match lanes {
        0 | 1 => 1,
        2..=4 => 4,
        _ => 16,
    }
}
