//! The exhaustive search: every member of a coset weighed by transforms,
//! split so that threads, shards and checkpoints each take a slice.
//!
//! A member is `x + Σ_(bit j of s) q_j` for a mask `s` of `d` bits. Cell i
//! contributes `x_i ⊕ ⟨k_i, s⟩` to its weight, where the key `k_i` holds
//! bit i of each `q_j`; so `weight(s) = (n − W(s)) / 2` with
//! `W(s) = Σ_i (−1)^(x_i) (−1)^⟨k_i,s⟩`, and the lightest member has the
//! largest `W`. The mask splits into three parts (the [`Layout`]):
//! - the low `table_bits` index the rows of a table and go through the
//!   Walsh–Hadamard transform;
//! - the next `lane_bits` index the lanes of a row: each lane is a
//!   different value of these bits, so one vector instruction works on
//!   32 (or 16) members at once;
//! - the high `outer_bits` are walked one value at a time. Each value is a
//!   *block* of `2^(table_bits + lane_bits)` members, and blocks are what
//!   threads, shards and checkpoints divide among themselves.

use std::ops::Range;

use rayon::prelude::*;

use super::coset::{Coset, Layout};
use super::transform::{self, Counter};
use crate::cpu::Isa;
use crate::solve::slices::{Best, Mask, Shard};

/// The lightest member among the blocks `blocks` (a range of outer values)
/// of `coset`, excluding mask 0 when `skip_zero` (the lightest non-zero
/// quiet pattern is searched that way). Runs on all of rayon's threads.
///
/// # Complexity
/// Per block: `2^table_bits · (table_bits + 2)` row operations of one vector
/// each, plus one scaled add per group.
pub fn search_blocks(coset: &Coset, blocks: Range<u64>, skip_zero: bool) -> Option<Best> {
    // The whole search as one slice: its i-th block is block i.
    search_slice(coset, Shard::WHOLE, blocks, skip_zero)
}

/// [`search_blocks`] over the blocks `shard.block(i)`, `i` in `indices`.
pub fn search_slice(coset: &Coset, shard: Shard, indices: Range<u64>, skip_zero: bool) -> Option<Best> {
    search_with(coset, shard, indices, skip_zero, Isa::detect())
}

/// [`search_slice`] in the instruction set `isa` (tests run every one the
/// machine has).
fn search_with(coset: &Coset, shard: Shard, indices: Range<u64>, skip_zero: bool, isa: Isa) -> Option<Best> {
    if coset.cells() <= i16::MAX_CELLS {
        search_typed::<i16, 32>(coset, shard, indices, skip_zero, isa)
    } else {
        search_typed::<i32, 16>(coset, shard, indices, skip_zero, isa)
    }
}

/// The groups, ready for the block loop.
struct Prepared<T, const L: usize> {
    layout: Layout,
    /// (table row, lane pattern, outer key, signed count) per group.
    groups: Vec<(u32, u32, u64, T)>,
    /// `patterns[p][j] = (−1)^⟨p,j⟩`: how a group's count spreads across
    /// the lanes, given the lane bits of its key.
    patterns: Vec<[T; L]>,
    isa: Isa,
}

fn search_typed<T: Counter, const L: usize>(
    coset: &Coset,
    shard: Shard,
    indices: Range<u64>,
    skip_zero: bool,
    isa: Isa,
) -> Option<Best> {
    let layout = coset.layout();
    let (table_bits, lane_bits) = (layout.table_bits, layout.lane_bits);
    let lane_mask = (1u128 << lane_bits) - 1;
    // The transform walks at most 63 outer bits (MAX_TRANSFORM_NULLITY).
    debug_assert!(layout.outer_bits < 64);
    let groups = coset
        .groups()
        .iter()
        .map(|&(key, count)| {
            let row = (key & ((1u128 << table_bits) - 1)) as u32;
            let pattern = ((key >> table_bits) & lane_mask) as u32;
            (row, pattern, (key >> (table_bits + lane_bits)) as u64, T::from_i32(count))
        })
        .collect();
    let patterns = (0..L)
        .map(|p| std::array::from_fn(|j| if (p & j).count_ones() % 2 == 1 { -T::one() } else { T::one() }))
        .collect();
    let prepared = Prepared::<T, L> { layout, groups, patterns, isa };
    let rows = 1usize << table_bits;
    indices
        .into_par_iter()
        .map(|i| shard.block(i))
        .filter(|&outer| coset.weighs_block(outer))
        .fold(
            || (vec![[T::zero(); L]; rows], None::<Best>),
            |(mut table, best), outer| {
                let found = prepared.best_in_block(&mut table, outer, skip_zero, best, coset.cells());
                (table, Best::better(best, found))
            },
        )
        .map(|(_, best)| best)
        .reduce(|| None, Best::better)
}

impl<T: Counter, const L: usize> Prepared<T, L> {
    /// The lightest member of block `outer` if it is at least as light as
    /// `best`.
    fn best_in_block(
        &self,
        table: &mut [[T; L]],
        outer: u64,
        skip_zero: bool,
        best: Option<Best>,
        cells: usize,
    ) -> Option<Best> {
        let maxima = self.weigh_block(table, outer);
        // Only lanes that really exist (fewer than L when d is small).
        let lanes = 1usize << self.layout.lane_bits;
        if skip_zero && outer == 0 {
            // Mask 0 is the zero pattern itself; a second look without it.
            table[0][0] = T::min_value();
        }
        let lane_best = |j: usize| -> i64 {
            if skip_zero && outer == 0 && j == 0 {
                table.iter().map(|row| row[0].as_()).max().unwrap_or(i64::MIN)
            } else {
                maxima[j].as_()
            }
        };
        let (lane, top) =
            (0..lanes).map(|j| (j, lane_best(j))).max_by_key(|&(j, v)| (v, std::cmp::Reverse(j)))?;
        let weight = (cells as i64 - top) / 2;
        if best.is_some_and(|b| weight as u64 > b.weight) {
            return None;
        }
        let row = table.iter().position(|r| r[lane].as_() == top)?;
        let mask = (outer as u128) << (self.layout.table_bits + self.layout.lane_bits)
            | (lane as u128) << self.layout.table_bits
            | row as u128;
        Some(Best { weight: weight as u64, mask: Mask::from_bits(mask) })
    }

    /// Fills the table for block `outer`, transforms it and returns the
    /// lane-wise maxima of `W`, in the best instruction set available.
    fn weigh_block(&self, table: &mut [[T; L]], outer: u64) -> [T; L] {
        match self.isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU was seen to support the features.
            Isa::Avx512 => unsafe { self.weigh_block_avx512(table, outer) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Isa::Avx2 => unsafe { self.weigh_block_avx2(table, outer) },
            Isa::Portable => self.weigh_block_portable(table, outer),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn weigh_block_avx512(&self, table: &mut [[T; L]], outer: u64) -> [T; L] {
        self.weigh_block_portable(table, outer)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn weigh_block_avx2(&self, table: &mut [[T; L]], outer: u64) -> [T; L] {
        self.weigh_block_portable(table, outer)
    }

    #[inline(always)]
    fn weigh_block_portable(&self, table: &mut [[T; L]], outer: u64) -> [T; L] {
        table.fill([T::zero(); L]);
        for &(row, pattern, high, count) in &self.groups {
            let scale = if (high & outer).count_ones() % 2 == 1 { -count } else { count };
            transform::add_scaled(&mut table[row as usize], &self.patterns[pattern as usize], scale);
        }
        transform::transform_rows(table);
        transform::lane_max(table)
    }
}

/// Weighs every member of small cosets, one after another, in one block
/// and one table kept between them: the leaves of branch and bound
/// (`branch.rs`), which hand over a few thousand groups at a time.
pub(crate) enum LeafWeigher {
    Narrow(Leaf<i16, 32>),
    Wide(Leaf<i32, 16>),
}

/// A [`LeafWeigher`] in one counter width.
pub(crate) struct Leaf<T, const L: usize> {
    prepared: Prepared<T, L>,
    table: Vec<[T; L]>,
    cells: usize,
}

impl LeafWeigher {
    /// A weigher of cosets of `bits` patterns over a board of `cells`.
    pub(crate) fn new(cells: usize, bits: usize) -> LeafWeigher {
        if cells <= i16::MAX_CELLS {
            LeafWeigher::Narrow(Leaf::new(cells, bits))
        } else {
            LeafWeigher::Wide(Leaf::new(cells, bits))
        }
    }

    /// The lightest member (smallest mask among the lightest) of the coset
    /// whose groups are `groups` (key of at most `bits` bits, signed
    /// count; the other cells add nothing to `W`).
    pub(crate) fn best(&mut self, groups: impl Iterator<Item = (u32, i32)>) -> Best {
        match self {
            LeafWeigher::Narrow(leaf) => leaf.best(groups),
            LeafWeigher::Wide(leaf) => leaf.best(groups),
        }
    }
}

impl<T: Counter, const L: usize> Leaf<T, L> {
    fn new(cells: usize, bits: usize) -> Leaf<T, L> {
        let lane_bits = T::LANE_BITS.min(bits);
        let layout = Layout { table_bits: bits - lane_bits, lane_bits, outer_bits: 0, symmetries: 0 };
        let patterns = (0..L)
            .map(|p| {
                std::array::from_fn(|j| if (p & j).count_ones() % 2 == 1 { -T::one() } else { T::one() })
            })
            .collect();
        let prepared = Prepared { layout, groups: Vec::new(), patterns, isa: Isa::detect() };
        Leaf { prepared, table: vec![[T::zero(); L]; 1 << layout.table_bits], cells }
    }

    fn best(&mut self, groups: impl Iterator<Item = (u32, i32)>) -> Best {
        let (table_bits, lane_bits) = (self.prepared.layout.table_bits, self.prepared.layout.lane_bits);
        let (row_mask, lane_mask) = ((1u32 << table_bits) - 1, (1u32 << lane_bits) - 1);
        self.prepared.groups.clear();
        self.prepared
            .groups
            .extend(groups.map(|(key, count)| {
                (key & row_mask, (key >> table_bits) & lane_mask, 0, T::from_i32(count))
            }));
        // One block, never empty: a best member always comes out.
        let found = self.prepared.best_in_block(&mut self.table, 0, false, None, self.cells);
        found.unwrap_or(Best { weight: self.cells as u64, mask: Mask::ZERO })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Generate, Grid};

    fn random_coset(rows: usize, cols: usize, d: usize, seed: u64) -> (Grid, Vec<Grid>) {
        let x = Generate::Random { seed, density: 0.5 }.board(rows, cols);
        let basis = (0..d as u64)
            .map(|j| Generate::Random { seed: 1000 + seed * 64 + j, density: 0.3 }.board(rows, cols))
            .collect();
        (x, basis)
    }

    /// Every block, every lane and every row agree with the plain weight,
    /// and the search returns the lightest with the smallest mask.
    #[test]
    fn search_matches_brute_force() {
        for (rows, cols, d) in [(3, 5, 6), (8, 8, 12), (10, 7, 15), (4, 5, 19), (9, 9, 20)] {
            for seed in 0..3 {
                let (x, basis) = random_coset(rows, cols, d, seed);
                let coset = Coset::new(&x, &basis);
                let layout = coset.layout();
                for skip_zero in [false, true] {
                    let brute = (u64::from(skip_zero)..1u64 << d)
                        .map(|s| (coset.weight(Mask::from_bits(s)), Mask::from_bits(s)))
                        .min()
                        .unwrap();
                    let found = search_blocks(&coset, 0..layout.blocks(), skip_zero).unwrap();
                    assert_eq!(
                        (found.weight, found.mask),
                        brute,
                        "{rows}x{cols} d={d} seed {seed} skip zero {skip_zero}"
                    );
                }
            }
        }
    }

    /// Found by review: the block test ran only the kernel the CPU picks,
    /// so the portable loop went untested on an AVX2 machine (and AVX2 on
    /// an AVX-512 one). Every kernel the machine has, both counter widths,
    /// against brute force.
    #[test]
    fn every_kernel_matches_brute_force() {
        let isas = Isa::available();
        for (rows, cols, d) in [(8, 8, 12), (9, 9, 20), (200, 180, 14)] {
            let (x, basis) = random_coset(rows, cols, d, 11);
            let coset = Coset::new(&x, &basis);
            let brute =
                (0..1u64 << d).map(|s| (coset.weight(Mask::from_bits(s)), Mask::from_bits(s))).min().unwrap();
            for &isa in &isas {
                let blocks = 0..coset.layout().blocks();
                let found = search_with(&coset, Shard::WHOLE, blocks, false, isa).unwrap();
                assert_eq!((found.weight, found.mask), brute, "{isa:?} {rows}x{cols} d={d}");
            }
        }
    }

    /// Boards over 32,767 cells count in i32 and still agree.
    #[test]
    fn wide_counters_agree() {
        let (x, basis) = random_coset(200, 180, 14, 5);
        let coset = Coset::new(&x, &basis);
        let brute =
            (0..1u64 << 14).map(|s| (coset.weight(Mask::from_bits(s)), Mask::from_bits(s))).min().unwrap();
        let found = search_blocks(&coset, 0..coset.layout().blocks(), false).unwrap();
        assert_eq!((found.weight, found.mask), brute);
    }

    /// Slices searched apart and combined give the whole search's answer.
    #[test]
    fn slices_combine_to_the_whole() {
        let (x, basis) = random_coset(12, 12, 22, 9);
        let coset = Coset::new(&x, &basis);
        let blocks = coset.layout().blocks();
        let whole = search_blocks(&coset, 0..blocks, false);
        let parts = (0..blocks).map(|b| search_blocks(&coset, b..b + 1, false)).fold(None, Best::better);
        assert_eq!(whole, parts);
    }
}
