//! The GF(2) coset as a sliced search sees it: its blocks (the
//! transform's, or branch and bound's in the cross basis), searched by
//! [`Slice`] (see [`crate::solve::slices`]); [`SearchState`] is the
//! two-state slice, recorded with its own field names (`blocks`,
//! `branch`).

use std::ops::{ControlFlow, Range};
use std::sync::atomic::AtomicBool;

use serde::{Deserialize, Serialize};

use super::branch::{Branching, FoldTag, search_branch_until};
use super::coset::{Coset, Layout};
use super::exhaustive::search_slice;
use crate::solve::slices::{Best, Mask, Shard, Slice, SliceKind, Sliced, WorkCurve};

/// How far an exhaustive search of one slice of a GF(2) coset's blocks
/// has got: a [`Slice`] whose plan is branch and bound's (`None` for the
/// transform engine).
pub type SearchState = Slice<Layout>;

/// A two-state slice as records write it.
#[derive(Serialize, Deserialize)]
#[serde(rename = "SearchState", deny_unknown_fields)]
pub struct BlockSlice {
    layout: Layout,
    shard: Shard,
    blocks: u64,
    done: u64,
    best: Option<Best>,
    /// For a branch-and-bound search (over a coset in the cross basis,
    /// see [`cross_coset`](super::cross_coset)): its plan, whose incumbent
    /// bounds what `best` can be. Absent for the transform engine (and in
    /// records written before branch and bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    branch: Option<Branching>,
}

impl SliceKind for Layout {
    type Plan = Option<Branching>;
    type Wire = BlockSlice;
    const UNIT: &'static str = "block";
    const BATCH_PER_THREAD: u64 = 64;

    fn units(&self) -> u64 {
        self.blocks()
    }

    fn unit_members(&self) -> u128 {
        1u128 << (self.table_bits + self.lane_bits)
    }

    fn unit_of(&self, mask: Mask) -> Option<u64> {
        let inner = self.table_bits + self.lane_bits;
        let block = u64::try_from(mask.bits().checked_shr(inner as u32).unwrap_or(0)).unwrap_or(u64::MAX);
        (block < self.blocks()).then_some(block)
    }

    fn bound(plan: &Option<Branching>) -> Option<u64> {
        plan.map(|plan| plan.bound)
    }

    fn to_wire(s: &SearchState) -> BlockSlice {
        let Slice { layout, shard, units, done, best, plan } = *s;
        BlockSlice { layout, shard, blocks: units, done, best, branch: plan }
    }

    fn from_wire(w: BlockSlice) -> SearchState {
        let BlockSlice { layout, shard, blocks, done, best, branch } = w;
        Slice { layout, shard, units: blocks, done, best, plan: branch }
    }
}

impl Sliced for Coset {
    type Kind = Layout;

    fn layout_for(&self, plan: &Option<Branching>) -> Option<Layout> {
        let d = self.nullity();
        match plan {
            None => Some(self.layout()),
            Some(plan)
                if plan.prefix_bits + plan.leaf_bits <= d
                    && plan.prefix_bits <= 63
                    && plan.fold.admits(FoldTag::of(self)) =>
            {
                Some(plan.layout(d))
            }
            Some(_) => None,
        }
    }

    /// The search that is never stopped: one body, below, for both.
    fn search_units(
        &self,
        plan: &Option<Branching>,
        shard: Shard,
        range: Range<u64>,
        best: Option<Best>,
        skip_zero: bool,
    ) -> Option<Best> {
        static NEVER: AtomicBool = AtomicBool::new(false);
        self.search_units_until(plan, shard, range, best, skip_zero, &NEVER).flatten()
    }

    fn search_units_until(
        &self,
        plan: &Option<Branching>,
        shard: Shard,
        range: Range<u64>,
        best: Option<Best>,
        skip_zero: bool,
        stop: &AtomicBool,
    ) -> Option<Option<Best>> {
        match plan {
            // Members as light as the best so far are still looked for
            // (the tie rule); lighter ones bound the rest.
            Some(plan) => {
                let bound = best.map_or(plan.bound, |b| b.weight.min(plan.bound));
                search_branch_until(self, &Branching { bound, ..*plan }, shard, range, stop)
            }
            None => Some(search_slice(self, shard, range, skip_zero)),
        }
    }

    /// A branch-and-bound slice must have been searched under this
    /// coset's fold (or, unnamed in an old record, where it has none).
    fn adopt(&self, plan: &mut Option<Branching>) -> Result<(), String> {
        let Some(plan) = plan else { return Ok(()) };
        let current = FoldTag::of(self);
        if !plan.fold.admits(current) {
            return Err(format!(
                "its branch-and-bound slice was searched under {}, and this lightsout searches it under {current}: \
                 slices of different folds cover different members",
                plan.fold
            ));
        }
        plan.fold = current;
        Ok(())
    }

    fn weight_of(&self, mask: Mask) -> Option<u64> {
        Some(self.weight(mask))
    }

    fn weighs_unit(&self, unit: u64) -> bool {
        self.weighs_block(unit)
    }

    /// The transform's blocks cost the same when weighed and next to
    /// nothing when a symmetric search skips them (one block per orbit is
    /// weighed, most of them among the first blocks): the work of a run of
    /// blocks is the count it weighs, exact up to 2^24 blocks
    /// and sampled past them. Branch and bound's blocks are
    /// reached as the search reaches them (their paths from the root
    /// walked) and weighed below by 1000 of Knuth's probes in all (the model behind `--estimate`).
    fn work_curve(&self, plan: &Option<Branching>, shard: Shard, units: u64) -> Option<WorkCurve> {
        match plan {
            Some(plan) => {
                let step = units.div_ceil(WorkCurve::STEPS).max(1);
                let runs = super::branch::slice_work(self, plan, shard, step, WORK_PROBES, 1);
                Some(WorkCurve::from_runs(step, units, &runs))
            }
            None if self.symmetries() == 0 => {
                Some(WorkCurve::from_units(units, |r| (r.end - r.start) as f64))
            }
            None => {
                let each = (COUNTED_BLOCKS / WorkCurve::STEPS).max(1);
                Some(WorkCurve::from_units(units, |run| {
                    let len = run.end - run.start;
                    let weighed = |i: u64| self.weighs_block(shard.block(i));
                    if len <= each {
                        return run.filter(|&i| weighed(i)).count() as f64;
                    }
                    // A fixed pseudo-random sample of the run: evenly spaced
                    // blocks share their low bits, which the orbits read.
                    let sample = (0..each).map(|j| run.start + splitmix(run.start ^ j << 40) % len);
                    sample.filter(|&i| weighed(i)).count() as f64 * len as f64 / each as f64
                }))
            }
        }
    }
}

/// Blocks of a symmetric transform search counted one by one for its
/// [`WorkCurve`] (0.17 s for the 2^22 of 61×61 here, at load 8.7); a
/// larger search samples as many.
const COUNTED_BLOCKS: u64 = 1 << 24;

/// Knuth's probes behind a branch-and-bound slice's [`WorkCurve`] (a
/// quarter of `--estimate`'s; a slice of the default plan has 1024 blocks,
/// each walked from the root besides).
const WORK_PROBES: u64 = 1000;

/// A well-mixed 64-bit hash (SplitMix64's finaliser).
fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

impl Slice<Layout> {
    /// A fresh search of `shard` of `coset` by the transform.
    pub fn new(coset: &Coset, shard: Shard) -> SearchState {
        Slice::fresh(coset.layout(), shard, None)
    }

    /// A fresh branch-and-bound search of `shard` of `coset` (a coset in
    /// the cross basis) by `plan`.
    pub fn new_branch(coset: &Coset, shard: Shard, plan: Branching) -> SearchState {
        let plan = Branching { fold: FoldTag::of(coset), ..plan };
        Slice::fresh(plan.layout(coset.nullity()), shard, Some(plan))
    }

    /// Whether a branch-and-bound search found nothing as light as its
    /// incumbent: then every member of its slice weighs more.
    pub fn found_nothing_within(&self) -> Option<u64> {
        self.plan.filter(|_| self.best.is_none()).map(|plan| plan.bound)
    }

    /// [`search_on`](Slice::search_on) for the two-state search.
    pub fn run(
        &mut self,
        coset: &Coset,
        skip_zero: bool,
        after_batch: &mut dyn FnMut(&SearchState) -> ControlFlow<()>,
    ) {
        self.search_on(coset, skip_zero, after_batch);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Generate, Grid};
    use crate::solve::slices::{MergeError, merge};

    #[test]
    fn a_recheck_catches_a_slice_that_claims_a_heavier_best() {
        let x = Generate::Random { seed: 5, density: 0.5 }.board(10, 10);
        let basis: Vec<Grid> =
            (0..22u64).map(|j| Generate::Random { seed: 70 + j, density: 0.3 }.board(10, 10)).collect();
        let coset = Coset::new(&x, &basis).with_table_bits(2);
        let mut state = SearchState::new(&coset, Shard { index: 1, count: 2 });
        state.run(&coset, false, &mut |_| ControlFlow::Continue(()));
        let every: Vec<u64> = (0..state.units).collect();
        assert_eq!(state.recheck(&coset, &every), Ok(()));
        // The honest best lies in one block; a record that names a member
        // of another block, heavier, passes `verify` but not a recheck of
        // the block that holds the lighter one.
        let best = state.best.unwrap();
        let inner = state.layout.table_bits + state.layout.lane_bits;
        let honest_block = (best.mask.bits() >> inner) as u64;
        let heavier = (0..state.units)
            .map(|i| state.shard.block(i))
            .filter(|&b| b != honest_block)
            .map(|b| {
                let mask = Mask::from_bits((b as u128) << inner);
                Best { weight: coset.weight(mask), mask }
            })
            .find(|b| b.weight > best.weight)
            .unwrap();
        let forged = SearchState { best: Some(heavier), ..state.clone() };
        assert_eq!(forged.verify(&coset), Ok(()));
        let index = (honest_block - (state.shard.index - 1)) / state.shard.count;
        let why = forged.recheck(&coset, &[index]).unwrap_err();
        assert!(
            why.contains(&format!("{} presses where it claims {}", best.weight, heavier.weight)),
            "{why}"
        );
        assert!(forged.recheck(&coset, &[state.units]).is_err(), "a block past the slice's end");
    }

    /// Branch-and-bound slices are rechecked by their blocks too: an honest
    /// slice passes, one that claims a heavier member or none (within its
    /// bound) is refused.
    #[test]
    fn a_recheck_of_branch_and_bound_catches_a_hidden_member() {
        use super::super::branch::cross_coset;
        let x = Generate::Random { seed: 8, density: 0.5 }.board(10, 10);
        let basis: Vec<Grid> =
            (0..16u64).map(|j| Generate::Random { seed: 90 + j, density: 0.3 }.board(10, 10)).collect();
        let coset = cross_coset(&x, &basis).unwrap();
        let shard = Shard { index: 2, count: 3 };
        let plan = Branching::new(coset.nullity(), shard.count, 100);
        let mut state = SearchState::new_branch(&coset, shard, plan);
        state.run(&coset, false, &mut |_| ControlFlow::Continue(()));
        let every: Vec<u64> = (0..state.units).collect();
        assert_eq!(state.recheck(&coset, &every), Ok(()));
        let best = state.best.expect("a member within the bound");
        // Heavier than the honest best, still within the bound: a member
        // of the slice that `verify` accepts.
        let heavier = (0..1u128 << coset.nullity())
            .map(|m| Best { weight: coset.weight(Mask::from_bits(m)), mask: Mask::from_bits(m) })
            .filter(|b| b.weight > best.weight && b.weight <= plan.bound)
            .find(|b| {
                let block = (b.mask.bits() >> state.layout.table_bits) as u64;
                block % shard.count == shard.index - 1
            })
            .unwrap();
        for (forged, expected) in [
            (Some(heavier), format!("{} presses where it claims {}", best.weight, heavier.weight)),
            (None, format!("{} presses where it claims none", best.weight)),
        ] {
            let forged = SearchState { best: forged, ..state.clone() };
            assert_eq!(forged.verify(&coset), Ok(()), "{forged:?}");
            let why = forged.recheck(&coset, &every).unwrap_err();
            assert!(why.contains(&expected), "{why}");
        }
    }

    #[test]
    fn a_stopped_and_resumed_sharded_search_equals_the_whole() {
        let x = Generate::Random { seed: 3, density: 0.5 }.board(12, 12);
        let basis: Vec<Grid> =
            (0..24u64).map(|j| Generate::Random { seed: 40 + j, density: 0.3 }.board(12, 12)).collect();
        // Two table bits: 2^17 blocks, so a slice takes many batches and
        // stopping after the first really leaves work to resume. (Found by
        // review: with the default layout every slice finished in its first
        // batch of 64 blocks, and the test never resumed anything.)
        let coset = Coset::new(&x, &basis).with_table_bits(2);
        let mut whole = SearchState::new(&coset, Shard::WHOLE);
        whole.run(&coset, false, &mut |_| ControlFlow::Continue(()));
        let mut parts = Vec::new();
        for index in 1..=3 {
            let mut state = SearchState::new(&coset, Shard { index, count: 3 });
            // Stop after the first batch, as a checkpoint would, then resume
            // from a copy that went through JSON.
            state.run(&coset, false, &mut |_| ControlFlow::Break(()));
            assert!(state.done > 0 && !state.is_complete(), "slice {index} stopped after one batch");
            let mut state: SearchState =
                serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
            assert!(state.fits(&coset));
            state.run(&coset, false, &mut |_| ControlFlow::Continue(()));
            parts.push(state);
        }
        let refs: Vec<&SearchState> = parts.iter().collect();
        assert_eq!(merge(&coset, &refs), Ok(whole.best));
        assert_eq!(merge(&coset, &refs[..2]), Err(MergeError::Missing(vec![3])));
        assert_eq!(
            merge(&coset, &[refs[0], refs[0], refs[1], refs[2]]),
            Err(MergeError::Duplicated(vec![1]))
        );
    }
}
