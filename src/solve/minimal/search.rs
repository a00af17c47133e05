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

use super::exhaustive::{Best, Coset, Layout, search_slice};

/// Slice `index` of `count` (1-based) of a search's blocks: every
/// `count`-th block from block `index − 1`. The slices of one count are
/// disjoint and together cover every block; interleaved, they share the
/// work evenly even where it is not even along the blocks (a symmetric
/// search weighs mostly small blocks, a table's late rows cost more).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// Which slice, from 1 to `count`.
    pub index: u64,
    /// How many slices.
    pub count: u64,
}

/// Most slices a search or a table is cut into (a slice list, a merge's
/// coverage table, stay small).
pub const MAX_SHARDS: u64 = 1 << 20;

impl Shard {
    /// The whole search as one slice.
    pub const WHOLE: Shard = Shard { index: 1, count: 1 };

    /// Parses `K/N` with `1 <= K <= N`.
    ///
    /// # Example
    /// ```
    /// use lightsout::Shard;
    /// assert_eq!(Shard::parse("2/8"), Ok(Shard { index: 2, count: 8 }));
    /// assert!(Shard::parse("0/4").is_err() && Shard::parse("5/4").is_err() && Shard::parse("1/0").is_err());
    /// ```
    pub fn parse(text: &str) -> Result<Shard, String> {
        let parsed =
            text.split_once('/').and_then(|(k, n)| Some((k.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((_, count)) if count > MAX_SHARDS => {
                Err(format!("expected K/N with N at most {MAX_SHARDS}, got '{text}'"))
            }
            Some((index, count)) if count >= 1 && (1..=count).contains(&index) => Ok(Shard { index, count }),
            Some((_, 0)) => Err(format!("expected K/N with N at least 1, got '{text}'")),
            Some((_, count)) => Err(format!("expected K/N with K from 1 to {count}, got '{text}'")),
            None => Err(format!("expected K/N such as 3/8, got '{text}'")),
        }
    }

    /// Whether `1 <= index <= count <= MAX_SHARDS` (as [`parse`](Self::parse)
    /// makes sure; a record read back is checked with this).
    pub fn is_valid(&self) -> bool {
        (1..=self.count).contains(&self.index) && self.count <= MAX_SHARDS
    }

    /// How many of `total` blocks this slice holds.
    pub fn len(&self, total: u64) -> u64 {
        let first = self.index - 1;
        if total > first { (total - first).div_ceil(self.count) } else { 0 }
    }

    /// Whether this slice of `total` blocks holds none.
    pub fn is_empty(&self, total: u64) -> bool {
        self.len(total) == 0
    }

    /// The block that is the slice's `i`-th.
    pub fn block(&self, i: u64) -> u64 {
        i * self.count + self.index - 1
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

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
}

impl SearchState {
    /// A fresh search of `shard` of `coset`.
    pub fn new(coset: &Coset, shard: Shard) -> SearchState {
        let layout = coset.layout();
        SearchState { layout, shard, blocks: shard.len(layout.blocks()), done: 0, best: None }
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
        let fresh = SearchState::new(coset, self.shard);
        (fresh.layout, fresh.blocks) == (self.layout, self.blocks) && self.done <= self.blocks
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
            self.best = Best::better(self.best, search_slice(coset, self.shard, batch.clone(), skip_zero));
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
}

/// The lightest member over shards that together cover one search exactly
/// once, each complete.
///
/// # Errors
/// [`MergeError`] naming the slices that are missing, duplicated or
/// unfinished.
pub fn merge(states: &[&SearchState]) -> Result<Option<Best>, MergeError> {
    let shards: Vec<Shard> = states.iter().map(|s| s.shard).collect();
    check_coverage(&shards)?;
    if let Some(s) = states.iter().find(|s| !s.is_complete()) {
        return Err(MergeError::Incomplete(s.shard.index));
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
    fn a_stopped_and_resumed_sharded_search_equals_the_whole() {
        let x = Generate::Random { seed: 3, density: 0.5 }.board(12, 12);
        let basis: Vec<Grid> =
            (0..24u64).map(|j| Generate::Random { seed: 40 + j, density: 0.3 }.board(12, 12)).collect();
        let coset = Coset::new(&x, &basis);
        let mut whole = SearchState::new(&coset, Shard::WHOLE);
        whole.run(&coset, false, &mut |_| ControlFlow::Continue(()));
        let mut parts = Vec::new();
        for index in 1..=3 {
            let mut state = SearchState::new(&coset, Shard { index, count: 3 });
            // Stop after the first batch, as a checkpoint would, then resume
            // from a copy that went through JSON.
            state.run(&coset, false, &mut |_| ControlFlow::Break(()));
            let mut state: SearchState =
                serde_json::from_str(&serde_json::to_string(&state).unwrap()).unwrap();
            assert!(state.fits(&coset));
            state.run(&coset, false, &mut |_| ControlFlow::Continue(()));
            parts.push(state);
        }
        let refs: Vec<&SearchState> = parts.iter().collect();
        assert_eq!(merge(&refs), Ok(whole.best));
        assert_eq!(merge(&refs[..2]), Err(MergeError::Missing(vec![3])));
        assert_eq!(merge(&[refs[0], refs[0], refs[1], refs[2]]), Err(MergeError::Duplicated(vec![1])));
    }
}
