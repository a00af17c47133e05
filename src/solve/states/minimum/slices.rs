//! The Z_K coset as a sliced search sees it: its tasks, searched by
//! [`Slice`] (see [`crate::solve::slices`]) as the two-state blocks are;
//! [`StateSearchState`] is the K-state slice, recorded with its own field
//! names (`slice_tasks`).
//!
//! A sliced search cuts the coset's members into *tasks* by its top
//! coefficients (a fixed split: [`TaskLayout`], the same on every machine
//! and thread count), each task a run of the engine's Gray walk over the
//! middle coefficients. A slice `i/N` ([`Shard`]) is every `N`-th task from
//! task `i − 1`, interleaved as the two-state slices are, so the slices
//! share the work evenly. Members are named by [`Mask`]: the coefficient
//! tuple as a mixed-radix number over the coset's orders, `c_0` the least
//! significant, which is also the index the engine's tie rule uses, so
//! "lighter, then smaller mask" ([`Best::better`]) picks across slices the
//! member the whole search picks.

use std::ops::{ControlFlow, Range};

use serde::{Deserialize, Serialize};

use super::{Coset, How, Only, Units, search_tasks, weight};
pub use crate::solve::slices::merge as merge_states;
use crate::solve::slices::{Best, Mask, Shard, Slice, SliceKind, Sliced};

/// How a sliced search splits its members: `tasks` tasks of
/// `task_members` members each, member `index` in task `index /
/// task_members`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TaskLayout {
    /// Tasks in the whole search.
    pub tasks: u64,
    /// Members in one task.
    pub task_members: u64,
}

/// A coset over Z_K made ready for a sliced exhaustive search: normalised
/// (entries mod K, zero generators dropped, each generator with its true
/// order) and its cells grouped into units once.
pub struct SlicedCoset<'a> {
    coset: Coset<'a>,
    units: Units<'static>,
    bound: u64,
    layout: Option<TaskLayout>,
    /// Most members of a task.
    cap: u64,
}

impl<'a> SlicedCoset<'a> {
    /// The coset `particular + span(generators)` over Z_k (`k ≥ 2`), read
    /// as [`minimize`](super::minimize) reads it.
    ///
    /// # Example
    /// ```
    /// use lightsout::solve::states::minimum::{SlicedCoset, StateSearchState};
    /// use lightsout::solve::Shard;
    ///
    /// // Over Z_3: x0 = (2, 2, 2), one generator (1, 1, 1): adding it once
    /// // gives (0, 0, 0), the member of mask 1.
    /// let coset = SlicedCoset::new(3, &[2, 2, 2], &[(&[1, 1, 1], 3)]);
    /// let mut state = StateSearchState::new(&coset, Shard::WHOLE).unwrap();
    /// state.run(&coset, &mut |_| std::ops::ControlFlow::Continue(()));
    /// let best = state.best.unwrap();
    /// assert_eq!((best.weight, best.mask.bits()), (0, 1));
    /// assert_eq!(coset.member(best.mask), Some(vec![0, 0, 0]));
    /// ```
    pub fn new(k: u8, particular: &[u8], generators: &[(&'a [u8], u32)]) -> Self {
        Self::with_task_members(k, particular, generators, super::SLICED_TASK_MEMBERS)
    }

    /// [`new`](Self::new) with tasks of at most `cap` members where the
    /// coefficients allow (for tests: small cosets in many tasks; records
    /// need the default, and their layout says which they had).
    #[doc(hidden)]
    pub fn with_task_members(k: u8, particular: &[u8], generators: &[(&'a [u8], u32)], cap: u64) -> Self {
        let k = k.max(2);
        let coset = Coset::new(k, particular, generators);
        let units = Units::new(&coset, true).into_owned();
        let bound = units.lower_bound(k);
        let layout =
            coset.members().filter(|&m| m <= super::budget(super::MAX_MEMBERS_LOG2)).map(|members| {
                if coset.orders.is_empty() {
                    return TaskLayout { tasks: 1, task_members: 1 };
                }
                let tuning = super::Tuning::auto(units.len(), &coset.orders);
                let orders: Vec<usize> = coset.orders.iter().map(|&r| r as usize).collect();
                let (t, p, _) = super::inner_plan(&orders, tuning.max_inner / super::lanes_of(tuning.lanes));
                let outer = &orders[t..];
                let top = super::sliced_top(p as u64, outer, cap);
                let tasks: u64 = outer[outer.len() - top..].iter().map(|&r| r as u64).product();
                TaskLayout { tasks, task_members: members / tasks }
            });
        SlicedCoset { coset, units, bound, layout, cap }
    }

    /// The orders of the coset's generators (zero generators dropped): the
    /// radices of a mask's digits.
    pub fn orders(&self) -> &[u32] {
        &self.coset.orders
    }

    /// Members of the coset, if they fit a `u64`.
    pub fn members(&self) -> Option<u64> {
        self.coset.members()
    }

    /// How the search splits, or `None` beyond 2^63 members (no exhaustive
    /// search).
    pub fn layout(&self) -> Option<TaskLayout> {
        self.layout
    }

    /// No member weighs less than this (see [`lower_bound`](super::lower_bound)).
    pub fn lower_bound(&self) -> u64 {
        self.bound
    }

    /// The weight of member `mask` (recomputed from its press set), or
    /// `None` when the mask names no member.
    pub fn weight_of(&self, mask: Mask) -> Option<u64> {
        self.member(mask).map(|x| weight(&x))
    }

    /// The press set of member `mask` (`x0 + Σ c_i·g_i`), or `None` when
    /// the mask names no member.
    pub fn member(&self, mask: Mask) -> Option<Vec<u8>> {
        let index = u64::try_from(mask.bits()).ok().filter(|&i| self.members().is_some_and(|m| i < m))?;
        Some(self.coset.member(&self.coset.coefficients(index)))
    }

    /// The task that holds member `mask`.
    pub fn task_of(&self, mask: Mask) -> Option<u64> {
        self.layout?.unit_of(mask)
    }
}

impl Sliced for SlicedCoset<'_> {
    type Kind = TaskLayout;

    fn layout_for(&self, _: &()) -> Option<TaskLayout> {
        self.layout
    }

    /// The lightest member of tasks `range` of slice `shard` (ties to the
    /// smaller mask); `best` a member already found, which nothing after
    /// it can beat once it meets the lower bound.
    fn search_units(
        &self,
        _: &(),
        shard: Shard,
        range: Range<u64>,
        best: Option<Best>,
        skip_zero: bool,
    ) -> Option<Best> {
        if self.coset.orders.is_empty() {
            let first = range.start == 0 && shard.index == 1 && !skip_zero;
            return first.then(|| Best { weight: weight(&self.coset.x0), mask: Mask::ZERO });
        }
        let met = best.filter(|b| b.weight <= self.bound).map_or(u64::MAX, |b| b.mask.bits() as u64);
        let only = Only { cap: self.cap, shard, range, met };
        let found = search_tasks(
            &self.coset,
            &self.units,
            skip_zero,
            self.bound,
            &|_, _| {},
            None,
            How { only: Some(only), fold: None, stop: None },
        );
        found.map(|(weight, index)| Best { weight, mask: Mask::from_bits(index) })
    }

    fn weight_of(&self, mask: Mask) -> Option<u64> {
        SlicedCoset::weight_of(self, mask)
    }

    fn weighs_unit(&self, _: u64) -> bool {
        true
    }
}

/// How far an exhaustive search of one slice of a K-state coset has got:
/// a [`Slice`] of its tasks.
pub type StateSearchState = Slice<TaskLayout>;

/// A K-state slice as records write it.
#[derive(Serialize, Deserialize)]
#[serde(rename = "StateSearchState", deny_unknown_fields)]
pub struct TaskSlice {
    layout: TaskLayout,
    shard: Shard,
    slice_tasks: u64,
    done: u64,
    best: Option<Best>,
}

impl SliceKind for TaskLayout {
    type Plan = ();
    type Wire = TaskSlice;
    const UNIT: &'static str = "task";
    const BATCH_PER_THREAD: u64 = 4;

    fn units(&self) -> u64 {
        self.tasks
    }

    fn unit_members(&self) -> u128 {
        u128::from(self.task_members)
    }

    fn unit_of(&self, mask: Mask) -> Option<u64> {
        let index = u64::try_from(mask.bits()).ok()?;
        (index < self.tasks.saturating_mul(self.task_members)).then(|| index / self.task_members)
    }

    fn bound(_: &()) -> Option<u64> {
        None
    }

    fn to_wire(s: &StateSearchState) -> TaskSlice {
        let Slice { layout, shard, units, done, best, plan: () } = *s;
        TaskSlice { layout, shard, slice_tasks: units, done, best }
    }

    fn from_wire(w: TaskSlice) -> StateSearchState {
        let TaskSlice { layout, shard, slice_tasks, done, best } = w;
        Slice { layout, shard, units: slice_tasks, done, best, plan: () }
    }
}

impl Slice<TaskLayout> {
    /// A fresh search of `shard` of `coset`; `None` beyond 2^63 members.
    pub fn new(coset: &SlicedCoset, shard: Shard) -> Option<StateSearchState> {
        Slice::start(coset, shard, ())
    }

    /// [`search_on`](Slice::search_on) for the K-state search.
    pub fn run(
        &mut self,
        coset: &SlicedCoset,
        after_batch: &mut dyn FnMut(&StateSearchState) -> ControlFlow<()>,
    ) {
        self.search_on(coset, false, after_batch);
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::super::minimize;
    use super::super::tests::{borrowed, random_coset};
    use super::*;
    use crate::solve::slices::MergeError;

    fn search_whole(coset: &SlicedCoset, count: u64, stop_after_one: bool) -> Vec<StateSearchState> {
        (1..=count)
            .map(|index| {
                let mut state = StateSearchState::new(coset, Shard { index, count }).unwrap();
                if stop_after_one {
                    // Stopped after a batch, as a time limit or an interrupt
                    // would, and resumed from a copy that went through JSON.
                    // (These cosets are small: most slices are complete by
                    // then. tests/it/states_search.rs stops unfinished ones.)
                    state.run(coset, &mut |_| ControlFlow::Break(()));
                    state = serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
                    assert!(state.fits(coset));
                }
                state.run(coset, &mut |_| ControlFlow::Continue(()));
                state
            })
            .collect()
    }

    #[test]
    fn slices_together_equal_the_whole_minimum() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        for (k, n, d) in [(3u8, 30, 9), (4, 20, 7), (6, 16, 6), (5, 12, 5), (9, 10, 4), (2, 40, 14)] {
            let (x0, gens) = random_coset(&mut rng, k, n, d);
            let generators = borrowed(&gens);
            let whole = minimize(k, &x0, &generators, 40);
            for cap in [1u64, 50, 1 << 22] {
                let coset = SlicedCoset::with_task_members(k, &x0, &generators, cap);
                for (count, stop) in [(1, false), (3, true), (7, false), (64, true)] {
                    let states = search_whole(&coset, count, stop);
                    let refs: Vec<&StateSearchState> = states.iter().collect();
                    let best = merge_states(&coset, &refs).unwrap().unwrap();
                    let what = format!("K={k} n={n} d={d} cap={cap} count={count}");
                    assert_eq!(coset.member(best.mask), Some(whole.presses.clone()), "{what}");
                    assert_eq!(best.weight, whole.total, "{what}");
                    let digits = best.mask.digits(coset.orders());
                    assert_eq!(Mask::from_digits(&digits, coset.orders()), Some(best.mask));
                }
            }
        }
    }

    /// A coset over Z_3 of 12 cells and 10 generators: with 9 members a
    /// task, more tasks than the 4 slices the tests cut it in.
    fn twelve_cells_over_z3() -> ([u8; 12], Vec<(Vec<u8>, u32)>) {
        let x0 = [1u8, 2, 0, 1, 2, 2, 0, 1, 1, 0, 2, 1];
        let gens = (0..10).map(|j| ((0..12).map(|c| ((c * j + c / 3 + 1) % 3) as u8).collect(), 3)).collect();
        (x0, gens)
    }

    #[test]
    fn forged_slices_are_refused() {
        let (x0, gens) = twelve_cells_over_z3();
        let generators = borrowed(&gens);
        let coset = SlicedCoset::with_task_members(3, &x0, &generators, 9);
        let states = search_whole(&coset, 4, false);
        assert!(coset.layout().unwrap().tasks > 4);
        let refs: Vec<&StateSearchState> = states.iter().collect();
        assert!(merge_states(&coset, &refs).is_ok());
        let forged = |edit: &dyn Fn(&mut StateSearchState)| {
            let mut parts = states.clone();
            edit(&mut parts[1]);
            let refs: Vec<&StateSearchState> = parts.iter().collect();
            merge_states(&coset, &refs)
        };
        // A lighter claim than the member has.
        let lighter = forged(&|s| s.best.as_mut().unwrap().weight = 0);
        assert!(matches!(lighter, Err(MergeError::Inconsistent(2, _))), "{lighter:?}");
        // A member of another slice's task.
        let other = states[0].best.unwrap();
        let moved = forged(&|s| s.best = Some(other));
        assert!(matches!(moved, Err(MergeError::Inconsistent(2, ref why)) if why.contains("not in a task")));
        // A mask past the coset.
        let past = forged(&|s| s.best.as_mut().unwrap().mask = Mask::from_bits(u128::MAX));
        assert!(matches!(past, Err(MergeError::Inconsistent(2, _))));
        // Unfinished, or another layout.
        assert_eq!(forged(&|s| s.done -= 1), Err(MergeError::Incomplete(2)));
        assert!(matches!(forged(&|s| s.layout.tasks += 1), Err(MergeError::Inconsistent(2, _))));
        assert!(matches!(forged(&|s| s.best = None), Err(MergeError::Inconsistent(2, _))));
        assert_eq!(merge_states(&coset, &refs[..3]), Err(MergeError::Missing(vec![4])));
    }

    #[test]
    fn a_recheck_catches_a_slice_that_claims_a_heavier_best() {
        let (x0, gens) = twelve_cells_over_z3();
        let generators = borrowed(&gens);
        let coset = SlicedCoset::with_task_members(3, &x0, &generators, 9);
        let state = search_whole(&coset, 4, false).remove(1);
        let every: Vec<u64> = (0..state.units).collect();
        assert_eq!(state.recheck(&coset, &every), Ok(()));
        // A heavier member of another task of the same slice: `verify`
        // accepts it (it is honest and was searched); a recheck does not.
        let best = state.best.unwrap();
        let layout = coset.layout().unwrap();
        let heavier = (0..state.units)
            .map(|i| state.shard.block(i))
            .filter(|&task| Some(task) != coset.task_of(best.mask))
            .flat_map(|task| (0..layout.task_members).map(move |m| task * layout.task_members + m))
            .map(Mask::from_bits)
            .map(|mask| Best { weight: coset.weight_of(mask).unwrap(), mask })
            .find(|b| b.weight > best.weight)
            .unwrap();
        let forged = StateSearchState { best: Some(heavier), ..state.clone() };
        assert_eq!(forged.verify(&coset), Ok(()));
        let why = forged.recheck(&coset, &every).unwrap_err();
        assert!(
            why.contains(&format!("{} presses where it claims {}", best.weight, heavier.weight)),
            "{why}"
        );
        assert!(state.recheck(&coset, &[state.units]).is_err(), "a task past the slice's end");
    }
}
