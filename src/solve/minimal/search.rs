//! A long exhaustive search as a value that can be stopped, saved and split.
//!
//! [`SearchState`] says which slice of a coset's blocks a run covers (its
//! [`Shard`]), how far it has got and the best member so far. A run goes on
//! from any state, batch by batch, and after each batch its caller may save
//! the state (a checkpoint) or stop. A finished shard's result is the same
//! struct, and [`merge`] combines the shards of one search once every
//! slice is present exactly once.

use std::ops::ControlFlow;

use serde::{Deserialize, Serialize};

use super::branch::{Branching, search_branch};
use super::coset::{Best, Coset, Layout, MAX_SHARDS, Shard};
use super::exhaustive::search_slice;

/// How far an exhaustive search of one coset's slice has got.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SearchState {
    /// How masks split into blocks (fixed by the coset's size).
    pub layout: Layout,
    /// The slice searched.
    pub shard: Shard,
    /// Blocks in the slice.
    pub blocks: u64,
    /// Blocks of the slice searched so far (its first `done`).
    pub done: u64,
    /// The lightest member of the blocks searched.
    pub best: Option<Best>,
    /// For a branch-and-bound search (over a coset in the cross basis,
    /// see [`cross_coset`](super::cross_coset)): its plan, whose incumbent
    /// bounds what `best` can be. Absent for the transform engine (and in
    /// records written before branch and bound).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub branch: Option<Branching>,
}

impl SearchState {
    /// A fresh search of `shard` of `coset`.
    pub fn new(coset: &Coset, shard: Shard) -> SearchState {
        let layout = coset.layout();
        SearchState { layout, shard, blocks: shard.len(layout.blocks()), done: 0, best: None, branch: None }
    }

    /// A fresh branch-and-bound search of `shard` of `coset` (a coset in
    /// the cross basis) by `plan`.
    pub fn new_branch(coset: &Coset, shard: Shard, plan: Branching) -> SearchState {
        let layout = plan.layout(coset.nullity());
        let blocks = shard.len(layout.blocks());
        SearchState { layout, shard, blocks, done: 0, best: None, branch: Some(plan) }
    }

    /// Whether a branch-and-bound search found nothing as light as its
    /// incumbent: then every member of its slice weighs more.
    pub fn found_nothing_within(&self) -> Option<u64> {
        self.branch.filter(|_| self.best.is_none()).map(|plan| plan.bound)
    }

    /// Whether every block of the slice has been searched.
    pub fn is_complete(&self) -> bool {
        self.done >= self.blocks
    }

    /// Members weighed so far.
    pub fn members_searched(&self) -> u128 {
        u128::from(self.done) << (self.layout.table_bits + self.layout.lane_bits)
    }

    /// Whether this state belongs to a search of `coset` (its layout and
    /// its slice bounds are the ones `coset` gives).
    pub fn fits(&self, coset: &Coset) -> bool {
        let fresh = match self.branch {
            None => SearchState::new(coset, self.shard),
            Some(plan) => {
                let d = coset.nullity();
                let sane = plan.prefix_bits + plan.leaf_bits <= d && plan.prefix_bits <= 63;
                if !sane {
                    return false;
                }
                SearchState::new_branch(coset, self.shard, plan)
            }
        };
        (fresh.layout, fresh.blocks) == (self.layout, self.blocks) && self.done <= self.blocks
    }

    /// Checks what the state claims against `coset`, which can be rebuilt
    /// from the problem: its layout and slice, and its best member, whose
    /// weight is recomputed from its mask and which must lie in a block of
    /// the slice that was searched. A complete slice that weighed at least
    /// one block must name a best member (every member has a weight).
    ///
    /// A record's checksum shows damage; this catches a record that was
    /// edited and sealed again. It cannot catch a slice that claims a
    /// heavier best than it had (short of searching the slice again).
    ///
    /// # Errors
    /// What does not hold, in a few words.
    pub fn verify(&self, coset: &Coset) -> Result<(), String> {
        if !self.fits(coset) {
            return Err("its slice does not fit this search".into());
        }
        let inner = self.layout.table_bits + self.layout.lane_bits;
        match self.best {
            Some(best) => {
                let weight = coset.weight(best.mask);
                if weight != best.weight {
                    return Err(format!("it claims {} presses for a member that has {weight}", best.weight));
                }
                if let Some(plan) = self.branch.filter(|plan| weight > plan.bound) {
                    return Err(format!("its best has {weight} presses, above its bound {}", plan.bound));
                }
                let block = u64::try_from(best.mask.bits().checked_shr(inner as u32).unwrap_or(0))
                    .unwrap_or(u64::MAX);
                let first = self.shard.index - 1;
                let in_slice = block < self.layout.blocks()
                    && block % self.shard.count == first
                    && block / self.shard.count < self.done
                    && coset.weighs_block(block);
                if !in_slice {
                    return Err("its best member is not in a block it searched".into());
                }
            }
            // Branch and bound finds nothing in a slice whose members all
            // weigh more than its bound: no claim to check.
            None if self.is_complete() && self.branch.is_none() => {
                let weighed = (0..self.blocks).any(|i| coset.weighs_block(self.shard.block(i)));
                if weighed {
                    return Err("it searched its blocks but names no best member".into());
                }
            }
            None => {}
        }
        Ok(())
    }

    /// Searches again the blocks `sample` (indices into the slice, below
    /// `done`) and refuses the state if any of them holds a member better
    /// than its claimed best (lighter, or as light with a smaller mask: the
    /// tie rule, which keeps a merged press set the unsharded one), or, for
    /// branch and bound, any member within its bound where it claims none:
    /// a spot check of the work a record claims, which
    /// [`verify`](Self::verify) cannot make (run it first: a claim above a
    /// plan's bound is `verify`'s to refuse). A machine that skipped a
    /// share `p` of its blocks survives a check of `k` random blocks with
    /// probability about `(1 − p)^k`.
    ///
    /// # Errors
    /// What was found, in a few words.
    pub fn recheck(&self, coset: &Coset, sample: &[u64]) -> Result<(), String> {
        use rayon::prelude::*;
        if let Some(&i) = sample.iter().find(|&&i| i >= self.done) {
            return Err(format!("block {i} of the slice was never searched"));
        }
        let again = |i: u64| match &self.branch {
            // Branch and bound looks up to the claim's weight (or, claiming
            // nothing, up to its bound): what it finds is then weighed
            // against the claim by the tie rule.
            Some(plan) => {
                let bound = self.best.map_or(plan.bound, |b| b.weight.min(plan.bound));
                search_branch(coset, &Branching { bound, ..*plan }, self.shard, i..i + 1)
            }
            None => search_slice(coset, self.shard, i..i + 1, false),
        };
        let found = sample
            .par_iter()
            .filter_map(|&i| again(i))
            .reduce_with(|a, b| Best::better(Some(a), Some(b)).unwrap_or(a));
        Best::check_claim(self.best, found, "block")
    }

    /// Searches on from where the state stands until the slice is done or
    /// `after_batch`, called with the state after every batch (a fraction
    /// of a second of work), breaks. Mask 0 is left out when `skip_zero`.
    pub fn run(
        &mut self,
        coset: &Coset,
        skip_zero: bool,
        after_batch: &mut dyn FnMut(&SearchState) -> ControlFlow<()>,
    ) {
        for batch in super::batches(self.done..self.blocks) {
            let found = match &self.branch {
                // Members as light as the best so far are still looked
                // for (the tie rule); lighter ones bound the rest.
                Some(plan) => {
                    let bound = self.best.map_or(plan.bound, |b| b.weight.min(plan.bound));
                    search_branch(coset, &Branching { bound, ..*plan }, self.shard, batch.clone())
                }
                None => search_slice(coset, self.shard, batch.clone(), skip_zero),
            };
            self.best = Best::better(self.best, found);
            self.done = batch.end;
            if after_batch(self).is_break() {
                return;
            }
        }
    }
}

/// Why shards do not make one whole search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MergeError {
    /// No shard at all.
    Empty,
    /// Shards cut into different numbers of slices (the counts found).
    MixedCounts(Vec<u64>),
    /// Slices given more than once.
    Duplicated(Vec<u64>),
    /// Slices not given.
    Missing(Vec<u64>),
    /// A slice that was not searched to its end (its index).
    Incomplete(u64),
    /// A slice whose claims do not hold against the coset (its index, and
    /// what does not hold: see [`SearchState::verify`]).
    Inconsistent(u64, String),
}

/// The lightest member of `coset` over shards that together cover its
/// search exactly once, each complete and each consistent with `coset`
/// ([`SearchState::verify`]).
///
/// # Errors
/// [`MergeError`] naming the slices that are missing, duplicated,
/// unfinished or inconsistent.
pub fn merge(coset: &Coset, states: &[&SearchState]) -> Result<Option<Best>, MergeError> {
    let shards: Vec<Shard> = states.iter().map(|s| s.shard).collect();
    check_coverage(&shards)?;
    if let Some(s) = states.iter().find(|s| !s.is_complete()) {
        return Err(MergeError::Incomplete(s.shard.index));
    }
    for s in states {
        s.verify(coset).map_err(|why| MergeError::Inconsistent(s.shard.index, why))?;
        if s.branch != states[0].branch {
            let why =
                format!("it was searched by another engine or bound than slice {}", states[0].shard.index);
            return Err(MergeError::Inconsistent(s.shard.index, why));
        }
    }
    Ok(states.iter().fold(None, |best, s| Best::better(best, s.best)))
}

/// Checks that `shards` are the slices of one split, each exactly once.
///
/// # Errors
/// [`MergeError`] naming what is mixed, duplicated or missing.
pub fn check_coverage(shards: &[Shard]) -> Result<(), MergeError> {
    let first = shards.first().ok_or(MergeError::Empty)?;
    let mut counts: Vec<u64> = shards.iter().map(|s| s.count).collect();
    counts.sort_unstable();
    counts.dedup();
    if counts.len() > 1 {
        return Err(MergeError::MixedCounts(counts));
    }
    let mut seen = vec![0u32; first.count.min(MAX_SHARDS) as usize];
    for s in shards {
        if let Some(n) = seen.get_mut((s.index - 1) as usize) {
            *n += 1;
        }
    }
    let slices = |pick: &dyn Fn(u32) -> bool| -> Vec<u64> {
        seen.iter().enumerate().filter(|&(_, &n)| pick(n)).map(|(i, _)| i as u64 + 1).collect()
    };
    let duplicated = slices(&|n| n > 1);
    if !duplicated.is_empty() {
        return Err(MergeError::Duplicated(duplicated));
    }
    let missing = slices(&|n| n == 0);
    if !missing.is_empty() {
        return Err(MergeError::Missing(missing));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Generate, Grid};
    use crate::solve::minimal::Mask;

    #[test]
    fn shards_cover_every_block_once() {
        for total in [0u64, 1, 5, 64, 1000] {
            for count in 1..=9u64 {
                let mut seen = vec![0; total as usize];
                for index in 1..=count {
                    let shard = Shard { index, count };
                    for i in 0..shard.len(total) {
                        seen[shard.block(i) as usize] += 1;
                    }
                }
                assert!(seen.iter().all(|&n| n == 1), "{total} blocks in {count}");
            }
        }
    }

    #[test]
    fn a_recheck_catches_a_slice_that_claims_a_heavier_best() {
        let x = Generate::Random { seed: 5, density: 0.5 }.board(10, 10);
        let basis: Vec<Grid> =
            (0..22u64).map(|j| Generate::Random { seed: 70 + j, density: 0.3 }.board(10, 10)).collect();
        let coset = Coset::new(&x, &basis).with_table_bits(2);
        let mut state = SearchState::new(&coset, Shard { index: 1, count: 2 });
        state.run(&coset, false, &mut |_| ControlFlow::Continue(()));
        let every: Vec<u64> = (0..state.blocks).collect();
        assert_eq!(state.recheck(&coset, &every), Ok(()));
        // The honest best lies in one block; a record that names a member
        // of another block, heavier, passes `verify` but not a recheck of
        // the block that holds the lighter one.
        let best = state.best.unwrap();
        let inner = state.layout.table_bits + state.layout.lane_bits;
        let honest_block = (best.mask.bits() >> inner) as u64;
        let heavier = (0..state.blocks)
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
        assert!(forged.recheck(&coset, &[state.blocks]).is_err(), "a block past the slice's end");
    }

    /// The verdict of a recheck follows the tie rule: a member as light
    /// as the claim but with a smaller mask refutes it, a larger one does
    /// not.
    #[test]
    fn a_recheck_verdict_follows_the_tie_rule() {
        let member = |weight, mask: u128| Some(Best { weight, mask: Mask::from_bits(mask) });
        assert_eq!(Best::check_claim(member(5, 9), member(5, 9), "block"), Ok(()));
        assert_eq!(Best::check_claim(member(5, 9), member(5, 12), "block"), Ok(()));
        assert_eq!(Best::check_claim(member(5, 9), member(6, 1), "block"), Ok(()));
        assert_eq!(Best::check_claim(member(5, 9), None, "block"), Ok(()));
        let tie = Best::check_claim(member(5, 9), member(5, 3), "block").unwrap_err();
        assert!(tie.contains("5 presses with a smaller mask"), "{tie}");
        let lighter = Best::check_claim(member(5, 9), member(4, 30), "block").unwrap_err();
        assert!(lighter.contains("4 presses where it claims 5"), "{lighter}");
        let none = Best::check_claim(None, member(7, 0), "task").unwrap_err();
        assert!(none.contains("its tasks hold a member of 7 presses where it claims none"), "{none}");
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
        let every: Vec<u64> = (0..state.blocks).collect();
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
