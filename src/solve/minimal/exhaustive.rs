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

use super::coset::{Best, Coset, Layout, Mask, Shard};
use super::transform::{self, Counter};

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
    search_with(coset, shard, indices, skip_zero, Kernel::detect())
}

/// [`search_slice`] in the instruction set `kernel` (tests run every one
/// the machine has).
fn search_with(
    coset: &Coset,
    shard: Shard,
    indices: Range<u64>,
    skip_zero: bool,
    kernel: Kernel,
) -> Option<Best> {
    if coset.cells() <= i16::MAX_CELLS {
        search_typed::<i16, 32>(coset, shard, indices, skip_zero, kernel)
    } else {
        search_typed::<i32, 16>(coset, shard, indices, skip_zero, kernel)
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
    kernel: Kernel,
}

/// Which instruction set the block loop was compiled for.
#[derive(Clone, Copy, Debug)]
enum Kernel {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    Portable,
}

impl Kernel {
    fn detect() -> Kernel {
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx512bw") {
                return Kernel::Avx512;
            }
            if std::arch::is_x86_feature_detected!("avx2") {
                return Kernel::Avx2;
            }
        }
        Kernel::Portable
    }

    /// Every kernel this machine can run, the portable one included.
    #[cfg(test)]
    fn available() -> Vec<Kernel> {
        #[allow(unused_mut)]
        let mut kernels = vec![Kernel::Portable];
        #[cfg(target_arch = "x86_64")]
        {
            if std::arch::is_x86_feature_detected!("avx2") {
                kernels.push(Kernel::Avx2);
            }
            if std::arch::is_x86_feature_detected!("avx512bw") {
                kernels.push(Kernel::Avx512);
            }
        }
        kernels
    }
}

fn search_typed<T: Counter, const L: usize>(
    coset: &Coset,
    shard: Shard,
    indices: Range<u64>,
    skip_zero: bool,
    kernel: Kernel,
) -> Option<Best> {
    let layout = coset.layout();
    let (table_bits, lane_bits) = (layout.table_bits, layout.lane_bits);
    let lane_mask = (1u64 << lane_bits) - 1;
    let groups = coset
        .groups()
        .iter()
        .map(|&(key, count)| {
            let row = (key & ((1u64 << table_bits) - 1)) as u32;
            let pattern = ((key >> table_bits) & lane_mask) as u32;
            (row, pattern, key >> (table_bits + lane_bits), T::from_i32(count))
        })
        .collect();
    let patterns = (0..L)
        .map(|p| std::array::from_fn(|j| if (p & j).count_ones() % 2 == 1 { -T::one() } else { T::one() }))
        .collect();
    let prepared = Prepared::<T, L> { layout, groups, patterns, kernel };
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
        let mask = outer << (self.layout.table_bits + self.layout.lane_bits)
            | (lane as u64) << self.layout.table_bits
            | row as u64;
        Some(Best { weight: weight as u64, mask: Mask::from_bits(mask) })
    }

    /// Fills the table for block `outer`, transforms it and returns the
    /// lane-wise maxima of `W`, in the best instruction set available.
    fn weigh_block(&self, table: &mut [[T; L]], outer: u64) -> [T; L] {
        match self.kernel {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU was seen to support the features.
            Kernel::Avx512 => unsafe { self.weigh_block_avx512(table, outer) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Kernel::Avx2 => unsafe { self.weigh_block_avx2(table, outer) },
            Kernel::Portable => self.weigh_block_portable(table, outer),
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
                let brute = (0..1u64 << d)
                    .map(|s| (coset.weight(Mask::from_bits(s)), Mask::from_bits(s)))
                    .min()
                    .unwrap();
                let found = search_blocks(&coset, 0..layout.blocks(), false).unwrap();
                assert_eq!((found.weight, found.mask), brute, "{rows}x{cols} d={d} seed {seed}");
                let nonzero = (1..1u64 << d)
                    .map(|s| (coset.weight(Mask::from_bits(s)), Mask::from_bits(s)))
                    .min()
                    .unwrap();
                let found = search_blocks(&coset, 0..layout.blocks(), true).unwrap();
                assert_eq!((found.weight, found.mask), nonzero, "skip zero {rows}x{cols} d={d}");
            }
        }
    }

    /// Found by review: the block test ran only the kernel the CPU picks,
    /// so the portable loop went untested on an AVX2 machine (and AVX2 on
    /// an AVX-512 one). Every kernel the machine has, both counter widths,
    /// against brute force.
    #[test]
    fn every_kernel_matches_brute_force() {
        let kernels = Kernel::available();
        assert!(!kernels.is_empty());
        for (rows, cols, d) in [(8, 8, 12), (9, 9, 20), (200, 180, 14)] {
            let (x, basis) = random_coset(rows, cols, d, 11);
            let coset = Coset::new(&x, &basis);
            let brute =
                (0..1u64 << d).map(|s| (coset.weight(Mask::from_bits(s)), Mask::from_bits(s))).min().unwrap();
            for &kernel in &kernels {
                let blocks = 0..coset.layout().blocks();
                let found = search_with(&coset, Shard::WHOLE, blocks, false, kernel).unwrap();
                assert_eq!((found.weight, found.mask), brute, "{kernel:?} {rows}x{cols} d={d}");
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
