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
use serde::{Deserialize, Serialize};

use super::search::Shard;
use super::symmetry::{BlockOrbits, symmetric_basis};
use super::transform::{self, Counter};
use crate::model::{Grid, Puzzle};

/// Most table bits: 2^13 rows of 64 bytes are 512 KiB, half the level-2
/// cache of a core here; the bench group `table_bits` measures the choice
/// (docs/performance.md).
pub const MAX_TABLE_BITS: usize = 13;

/// Smallest null space whose search is folded by the board's symmetries:
/// folding pays only with a real transform and enough outer bits to fold (a
/// table of at least 2^8 rows and 16 blocks); below it the plain search
/// takes milliseconds anyway.
const MIN_SYMMETRIC_NULLITY: usize = 22;

/// A coset `x + span(q_0 … q_(d−1))` reduced to what weighs its members:
/// the cells grouped by key, each group with its signed count
/// `Σ (−1)^(x_i)`.
#[derive(Clone, Debug)]
pub struct Coset {
    cells: usize,
    nullity: usize,
    /// (key, signed count), sorted by key, without zero counts.
    groups: Vec<(u64, i32)>,
    /// Σ over keys of min(black cells, white cells): cells of one key all
    /// flip together, so at least that many of them are pressed.
    lower_bound: u64,
    /// Most table bits of the layout ([`MAX_TABLE_BITS`] unless changed
    /// for a measurement, or set by the symmetries).
    table_bits: usize,
    /// For a symmetric search: how the symmetries move blocks, and what
    /// each basis pattern is over the solver's quiet patterns.
    symmetry: Option<(BlockOrbits, Vec<u64>)>,
}

impl Coset {
    /// Groups the cells of `x` by their keys over `basis`; only the first
    /// 63 patterns count (a key is one `u64`).
    pub fn new(x: &Grid, basis: &[Grid]) -> Coset {
        let basis = &basis[..basis.len().min(super::MAX_KEY_BITS)];
        let mut keyed: Vec<(u64, i32)> = Vec::with_capacity(x.nrows() * x.ncols());
        for r in 0..x.nrows() {
            for c in 0..x.ncols() {
                let key = basis.iter().enumerate().fold(0u64, |k, (j, q)| k | (q.get(r, c) as u64) << j);
                keyed.push((key, if x.get(r, c) { -1 } else { 1 }));
            }
        }
        keyed.sort_unstable_by_key(|&(key, _)| key);
        // (key, signed count, cells)
        let mut groups: Vec<(u64, i32, u64)> = Vec::new();
        for (key, sign) in keyed {
            match groups.last_mut() {
                Some(last) if last.0 == key => {
                    last.1 += sign;
                    last.2 += 1;
                }
                _ => groups.push((key, sign, 1)),
            }
        }
        let lower_bound =
            groups.iter().map(|&(_, count, cells)| (cells - count.unsigned_abs() as u64) / 2).sum();
        let groups = groups.into_iter().filter(|&(_, count, _)| count != 0).map(|(k, c, _)| (k, c)).collect();
        Coset {
            cells: x.nrows() * x.ncols(),
            nullity: basis.len(),
            groups,
            lower_bound,
            table_bits: MAX_TABLE_BITS,
            symmetry: None,
        }
    }

    /// The coset of the solutions of `puzzle` for the right-hand side `rhs`
    /// (board plus target), `x + span(quiet)`, in a basis adapted to the
    /// problem's symmetries when it has some and they pay (null spaces of
    /// dimension 22 and more): the search then weighs one block per orbit.
    /// Masks are over that basis; [`original_mask`](Self::original_mask)
    /// turns them back into masks over `quiet`.
    pub fn for_problem(puzzle: &Puzzle, rhs: &Grid, x: &Grid, quiet: &[Grid]) -> Coset {
        let lane_bits = if x.nrows() * x.ncols() <= i16::MAX_CELLS {
            <i16 as Counter>::LANE_BITS
        } else {
            <i32 as Counter>::LANE_BITS
        };
        if (MIN_SYMMETRIC_NULLITY..=super::MAX_KEY_BITS).contains(&quiet.len()) {
            let inner = (quiet.len() - 4).min(MAX_TABLE_BITS + lane_bits);
            let basis = symmetric_basis(puzzle, rhs, x, quiet, inner);
            if let Some(sym) = basis.filter(|sym| sym.invariant >= lane_bits + 8) {
                let mut coset = Coset::new(x, &sym.basis).with_table_bits(sym.invariant - lane_bits);
                coset.symmetry = Some((sym.orbits, sym.to_original));
                return coset;
            }
        }
        Coset::new(x, quiet)
    }

    /// Bits of a mask spread across the lanes of a vector.
    fn lane_bits(&self) -> usize {
        if self.cells <= i16::MAX_CELLS { <i16 as Counter>::LANE_BITS } else { <i32 as Counter>::LANE_BITS }
    }

    /// The mask over the solver's quiet patterns that selects the same
    /// member as `mask` over this coset's basis.
    pub fn original_mask(&self, mask: u64) -> u64 {
        match &self.symmetry {
            None => mask,
            Some((_, to_original)) => {
                (0..to_original.len()).filter(|&k| mask >> k & 1 == 1).fold(0u64, |m, k| m ^ to_original[k])
            }
        }
    }

    /// Whether the search weighs block `outer` (with symmetries, only the
    /// smallest block of each orbit).
    pub fn weighs_block(&self, outer: u64) -> bool {
        self.symmetry.as_ref().is_none_or(|(orbits, _)| orbits.is_canonical(outer))
    }

    /// The symmetries the search folds by (0 for a plain search).
    pub fn symmetries(&self) -> usize {
        self.symmetry.as_ref().map_or(0, |(orbits, _)| orbits.symmetries())
    }

    /// The same coset searched with at most `bits` table bits: for
    /// measuring which table size suits a machine's caches (results do
    /// not change; shards and checkpoints need the default).
    pub fn with_table_bits(mut self, bits: usize) -> Coset {
        self.table_bits = bits;
        self
    }

    /// No member weighs less than this (cheap, often far from the minimum).
    pub fn lower_bound(&self) -> u64 {
        self.lower_bound
    }

    /// The dimension `d` of the coset.
    pub fn nullity(&self) -> usize {
        self.nullity
    }

    /// Cells of the board.
    pub fn cells(&self) -> usize {
        self.cells
    }

    /// Weight of the member with mask `s`, in O(groups).
    pub fn weight(&self, s: u64) -> u64 {
        let sum: i64 = self
            .groups
            .iter()
            .map(|&(key, count)| if (key & s).count_ones() % 2 == 1 { -count as i64 } else { count as i64 })
            .sum();
        ((self.cells as i64 - sum) / 2) as u64
    }

    /// The groups: (key, signed count).
    pub(crate) fn groups(&self) -> &[(u64, i32)] {
        &self.groups
    }

    /// How the exhaustive search splits this coset's masks.
    pub fn layout(&self) -> Layout {
        let lane_bits = self.lane_bits().min(self.nullity);
        let table_bits = (self.nullity - lane_bits).min(self.table_bits);
        Layout {
            table_bits,
            lane_bits,
            outer_bits: self.nullity - lane_bits - table_bits,
            symmetries: self.symmetries(),
        }
    }
}

/// How a mask splits: low `table_bits` through the transform, the next
/// `lane_bits` across the lanes of a vector, the high `outer_bits` walked
/// block by block.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Layout {
    /// Bits of the mask that index table rows.
    pub table_bits: usize,
    /// Bits of the mask that index lanes.
    pub lane_bits: usize,
    /// Bits of the mask walked one block at a time.
    pub outer_bits: usize,
    /// Symmetries folded (besides the identity): a block is weighed only
    /// if it is the smallest of its orbit.
    pub symmetries: usize,
}

impl Layout {
    /// Number of blocks: `2^outer_bits`.
    pub fn blocks(&self) -> u64 {
        1u64 << self.outer_bits
    }

    /// Members in one block.
    pub fn block_members(&self) -> u64 {
        1u64 << (self.table_bits + self.lane_bits)
    }
}

/// The lightest member found: its weight and mask. Of two members of equal
/// weight the one with the smaller mask is kept, so the result does not
/// depend on the order of the search or the number of threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Best {
    /// Presses in the member.
    pub weight: u64,
    /// Which basis patterns were added to the particular solution.
    pub mask: u64,
}

impl Best {
    /// The better of two candidates (lighter, then smaller mask).
    pub fn better(a: Option<Best>, b: Option<Best>) -> Option<Best> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if (b.weight, b.mask) < (a.weight, a.mask) { b } else { a }),
            (a, None) => a,
            (None, b) => b,
        }
    }
}

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
    if coset.cells <= i16::MAX_CELLS {
        search_typed::<i16, 32>(coset, shard, indices, skip_zero)
    } else {
        search_typed::<i32, 16>(coset, shard, indices, skip_zero)
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
#[derive(Clone, Copy)]
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
}

fn search_typed<T: Counter, const L: usize>(
    coset: &Coset,
    shard: Shard,
    indices: Range<u64>,
    skip_zero: bool,
) -> Option<Best> {
    let layout = coset.layout();
    let (table_bits, lane_bits) = (layout.table_bits, layout.lane_bits);
    let lane_mask = (1u64 << lane_bits) - 1;
    let groups = coset
        .groups
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
    let prepared = Prepared::<T, L> { layout, groups, patterns, kernel: Kernel::detect() };
    let rows = 1usize << table_bits;
    indices
        .into_par_iter()
        .map(|i| shard.block(i))
        .filter(|&outer| coset.weighs_block(outer))
        .fold(
            || (vec![[T::zero(); L]; rows], None::<Best>),
            |(mut table, best), outer| {
                let found = prepared.best_in_block(&mut table, outer, skip_zero, best, coset.cells);
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
        Some(Best { weight: weight as u64, mask })
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
    use crate::model::Generate;

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
                let brute = (0..1u64 << d).map(|s| (coset.weight(s), s)).min().unwrap();
                let found = search_blocks(&coset, 0..layout.blocks(), false).unwrap();
                assert_eq!((found.weight, found.mask), brute, "{rows}x{cols} d={d} seed {seed}");
                let nonzero = (1..1u64 << d).map(|s| (coset.weight(s), s)).min().unwrap();
                let found = search_blocks(&coset, 0..layout.blocks(), true).unwrap();
                assert_eq!((found.weight, found.mask), nonzero, "skip zero {rows}x{cols} d={d}");
            }
        }
    }

    /// Boards over 32,767 cells count in i32 and still agree.
    #[test]
    fn wide_counters_agree() {
        let (x, basis) = random_coset(200, 180, 14, 5);
        let coset = Coset::new(&x, &basis);
        let brute = (0..1u64 << 14).map(|s| (coset.weight(s), s)).min().unwrap();
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
