//! A coset of solutions as the searches see it: the [`Coset`] (cells
//! grouped by key) and the [`Layout`] of its masks. The values searches
//! exchange ([`Mask`], [`Best`](crate::solve::Best), [`Shard`](crate::solve::Shard)) are the sliced search's
//! (`solve/slices/`).
//!
//! A mask is over the coset's own basis, which for a symmetric search is
//! not the solver's quiet patterns: only the coset turns it into presses
//! ([`Coset::member`]), so a mask cannot be read against the wrong basis.

use serde::{Deserialize, Serialize};

use super::MAX_KEY_BITS;
use super::prefix_fold::Fold;
use super::symmetry::MAX_SYMMETRIC_NULLITY;
use super::symmetry::{BlockOrbits, symmetric_basis};
use super::transform::Counter;
use crate::model::{Grid, Puzzle};
use crate::solve::slices::Mask;

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
    groups: Vec<(u128, i32)>,
    /// Σ over keys of min(black cells, white cells): cells of one key all
    /// flip together, so at least that many of them are pressed.
    lower_bound: u64,
    /// Most table bits of the layout ([`MAX_TABLE_BITS`] unless changed
    /// for a measurement, or set by the symmetries).
    table_bits: usize,
    /// For a symmetric search: how the symmetries move blocks.
    orbits: Option<BlockOrbits>,
    /// When the basis is not the solver's quiet patterns (a symmetric or a
    /// branch-and-bound search): what each basis pattern is over them.
    to_original: Option<Vec<u128>>,
    /// For branch and bound in the cross basis: how the problem's
    /// symmetries move the prefixes of the cross coordinates.
    fold: Option<Fold>,
}

impl Coset {
    /// Groups the cells of `x` by their keys over `basis`; only the first
    /// `MAX_KEY_BITS` (128) patterns count (a key is one `u128`).
    pub fn new(x: &Grid, basis: &[Grid]) -> Coset {
        let basis = &basis[..basis.len().min(MAX_KEY_BITS)];
        let keys = cell_keys(basis, x.nrows(), x.ncols());
        let keyed = keys.into_iter().zip(signs(x)).collect();
        Coset::from_keyed(keyed, basis.len())
    }

    /// The cosets `basis[i] + span(basis[..i])` for i = 0, 1, … (at most
    /// `MAX_KEY_BITS + 1` of them): the non-zero members of `span(basis)`,
    /// each in the coset of its highest pattern. The same cosets as a
    /// [`Coset::new`] each, for a fraction of the work: the cells' keys
    /// are read from the patterns once, and the cells kept in key order
    /// from one coset to the next by one step of a binary radix sort.
    pub(crate) fn by_highest_pattern(basis: &[Grid]) -> impl Iterator<Item = Coset> + '_ {
        let (rows, cols) = basis.first().map_or((0, 0), |q| (q.nrows(), q.ncols()));
        let keys = cell_keys(&basis[..basis.len().min(MAX_KEY_BITS)], rows, cols);
        // The cells in the order of their keys' bits below i.
        let mut order: Vec<usize> = (0..rows * cols).collect();
        basis.iter().take(MAX_KEY_BITS + 1).enumerate().map(move |(i, q)| {
            let below = u128::MAX.checked_shr((MAX_KEY_BITS - i) as u32).unwrap_or(0);
            // Sorted already: the sort in `from_keyed` only checks it.
            let signs = signs(q);
            let keyed = order.iter().map(|&cell| (keys[cell] & below, signs[cell])).collect();
            if i < MAX_KEY_BITS {
                let (clear, set): (Vec<usize>, Vec<usize>) =
                    order.iter().partition(|&&cell| keys[cell] >> i & 1 == 0);
                order = clear;
                order.extend(set);
            }
            Coset::from_keyed(keyed, i)
        })
    }

    /// The coset of cells given as (key, sign) pairs over a basis of
    /// `nullity` patterns (sign −1 for a pressed cell of the particular
    /// press set).
    pub(crate) fn from_keyed(mut keyed: Vec<(u128, i32)>, nullity: usize) -> Coset {
        let cells = keyed.len();
        keyed.sort_unstable_by_key(|&(key, _)| key);
        // (key, signed count, cells)
        let mut groups: Vec<(u128, i32, u64)> = Vec::new();
        for (key, sign) in keyed {
            match groups.last_mut() {
                Some(last) if last.0 == key => {
                    last.1 += sign;
                    last.2 += 1;
                }
                _ => groups.push((key, sign, 1)),
            }
        }
        let lower_bound: u64 =
            groups.iter().map(|&(_, count, cells)| (cells - count.unsigned_abs() as u64) / 2).sum();
        let lower_bound = round_to_parity(lower_bound, shared_parity(&groups, cells));
        let groups = groups.into_iter().filter(|&(_, count, _)| count != 0).map(|(k, c, _)| (k, c)).collect();
        Coset {
            cells,
            nullity,
            groups,
            lower_bound,
            table_bits: MAX_TABLE_BITS,
            orbits: None,
            to_original: None,
            fold: None,
        }
    }

    /// The same coset read in another basis: `to_original[k]` is the mask
    /// over the former basis of the new pattern `k` (the caller built the
    /// coset's keys in the new basis).
    pub(crate) fn with_original(mut self, to_original: Vec<u128>) -> Coset {
        self.to_original = Some(to_original);
        self
    }

    /// The coset of the solutions of `puzzle` for the right-hand side `rhs`
    /// (board plus target), `x + span(quiet)`, in a basis adapted to the
    /// problem's symmetries when it has some and they pay (null spaces of
    /// dimension 22 and more): the search then weighs one block per orbit.
    /// Masks are over that basis; [`member`](Self::member)
    /// reads them in it.
    pub fn for_problem(puzzle: &Puzzle, rhs: &Grid, x: &Grid, quiet: &[Grid]) -> Coset {
        let lane_bits = if x.nrows() * x.ncols() <= i16::MAX_CELLS {
            <i16 as Counter>::LANE_BITS
        } else {
            <i32 as Counter>::LANE_BITS
        };
        if (MIN_SYMMETRIC_NULLITY..=MAX_SYMMETRIC_NULLITY).contains(&quiet.len()) {
            let inner = (quiet.len() - 4).min(MAX_TABLE_BITS + lane_bits);
            let basis = symmetric_basis(puzzle, rhs, x, quiet, inner);
            if let Some(sym) = basis.filter(|sym| sym.invariant >= lane_bits + 8) {
                let to_original = sym.to_original.iter().map(|&m| m as u128).collect();
                let mut coset = Coset::new(x, &sym.basis)
                    .with_table_bits(sym.invariant - lane_bits)
                    .with_original(to_original);
                coset.orbits = Some(sym.orbits);
                return coset;
            }
        }
        Coset::new(x, quiet)
    }

    /// The same coset with branch and bound folded by `fold`.
    pub(crate) fn with_fold(mut self, fold: Option<Fold>) -> Coset {
        self.fold = fold;
        self
    }

    /// How branch and bound folds this coset, if it does.
    pub fn fold(&self) -> Option<&Fold> {
        self.fold.as_ref()
    }

    /// Bits of a mask spread across the lanes of a vector.
    fn lane_bits(&self) -> usize {
        if self.cells <= i16::MAX_CELLS { <i16 as Counter>::LANE_BITS } else { <i32 as Counter>::LANE_BITS }
    }

    /// The mask over the quiet patterns the coset was built from that
    /// selects the same member as `mask` over this coset's basis.
    pub(crate) fn quiet_mask(&self, mask: Mask) -> u128 {
        match &self.to_original {
            None => mask.bits(),
            Some(to_original) => (0..to_original.len())
                .filter(|&k| mask.bits() >> k & 1 == 1)
                .fold(0u128, |m, k| m ^ to_original[k]),
        }
    }

    /// The press set of member `mask`: `x` plus the patterns of `quiet`
    /// that the mask selects once it is read in `quiet`'s basis. `x` and
    /// `quiet` are the ones the coset was built from.
    pub fn member(&self, x: &Grid, quiet: &[Grid], mask: Mask) -> Grid {
        let bits = self.quiet_mask(mask);
        let mut presses = x.clone();
        for (j, q) in quiet.iter().enumerate().take(Mask::BITS) {
            if bits >> j & 1 == 1 {
                presses.xor_assign(q);
            }
        }
        presses
    }

    /// Whether the search weighs block `outer` (with symmetries, only the
    /// smallest block of each orbit).
    pub fn weighs_block(&self, outer: u64) -> bool {
        self.orbits.as_ref().is_none_or(|orbits| orbits.is_canonical(outer))
    }

    /// The symmetries the search folds by (0 for a plain search).
    pub fn symmetries(&self) -> usize {
        self.orbits.as_ref().map_or(0, |orbits| orbits.symmetries())
    }

    /// The same coset searched with at most `bits` table bits: for
    /// measuring which table size suits a machine's caches (results do
    /// not change; shards and checkpoints need the default).
    pub fn with_table_bits(mut self, bits: usize) -> Coset {
        self.table_bits = bits;
        self
    }

    /// No member weighs less than this: the groups' bound (the cells of a
    /// group flip together, so at least the lighter side of each is
    /// pressed), rounded up to the parity every member shares when they
    /// share one. It is the root bound of branch and bound: cheap, and on
    /// large boards far below the minimum.
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

    /// Weight of the member `mask`, in O(groups).
    pub fn weight(&self, mask: Mask) -> u64 {
        let s = mask.bits();
        let sum: i64 = self
            .groups
            .iter()
            .map(|&(key, count)| if (key & s).count_ones() % 2 == 1 { -count as i64 } else { count as i64 })
            .sum();
        ((self.cells as i64 - sum) / 2) as u64
    }

    /// The groups: (key, signed count).
    pub(crate) fn groups(&self) -> &[(u128, i32)] {
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

/// Each cell's key over `basis` (bit j: pattern j presses the cell), the
/// cells of a `rows × cols` board in row-major order.
fn cell_keys(basis: &[Grid], rows: usize, cols: usize) -> Vec<u128> {
    let mut keys = vec![0u128; rows * cols];
    for (j, q) in basis.iter().enumerate() {
        for cell in q.ones_row_major() {
            keys[cell] |= 1u128 << j;
        }
    }
    keys
}

/// The signs of the cells (row-major) in a coset's signed counts: −1
/// where `x` presses the cell.
fn signs(x: &Grid) -> Vec<i32> {
    let mut signs = vec![1; x.nrows() * x.ncols()];
    for cell in x.ones_row_major() {
        signs[cell] = -1;
    }
    signs
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
    /// Number of blocks: `2^outer_bits` (saturating at `u64::MAX`: the
    /// transform walks at most 63 outer bits, see
    /// [`MAX_TRANSFORM_NULLITY`](super::MAX_TRANSFORM_NULLITY)).
    pub fn blocks(&self) -> u64 {
        1u64.checked_shl(self.outer_bits as u32).unwrap_or(u64::MAX)
    }

    /// Members in one block.
    pub fn block_members(&self) -> u64 {
        1u64 << (self.table_bits + self.lane_bits)
    }
}

/// The parity every member shares, if they share one, from the groups
/// (key, signed count, cells) of `cells` cells: member `s` weighs
/// `|x| + Σ s_j |q_j|` (mod 2), the same for all exactly when every
/// pattern has even weight, i.e. the keys of the groups of odd size XOR to
/// 0; then it is the parity of `|x|`, the weight of mask 0.
fn shared_parity(groups: &[(u128, i32, u64)], cells: usize) -> Option<u64> {
    let keys = groups.iter().filter(|&&(_, _, n)| n % 2 == 1).fold(0u128, |acc, &(key, _, _)| acc ^ key);
    let signed: i64 = groups.iter().map(|&(_, count, _)| i64::from(count)).sum();
    (keys == 0).then(|| ((cells as i64 - signed) / 2) as u64 & 1)
}

/// `bound` rounded up to `parity` (no member has the other one).
pub(super) fn round_to_parity(bound: u64, parity: Option<u64>) -> u64 {
    match parity {
        Some(p) if bound % 2 != p => bound + 1,
        _ => bound,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Generate;

    #[test]
    fn the_cosets_by_highest_pattern_are_the_cosets_built_one_by_one() {
        for (rows, cols, d) in [(1, 1, 3), (5, 7, 9), (9, 70, 12), (3, 3, 140)] {
            let basis: Vec<Grid> =
                (0..d as u64).map(|j| Generate::Random { seed: j, density: 0.3 }.board(rows, cols)).collect();
            let cosets: Vec<Coset> = Coset::by_highest_pattern(&basis).collect();
            assert_eq!(cosets.len(), d.min(MAX_KEY_BITS + 1));
            for (i, coset) in cosets.iter().enumerate() {
                let one = Coset::new(&basis[i], &basis[..i]);
                assert_eq!((coset.cells(), coset.nullity()), (one.cells(), one.nullity()), "coset {i}");
                assert_eq!(coset.groups(), one.groups(), "coset {i}");
                assert_eq!(coset.lower_bound(), one.lower_bound(), "coset {i}");
            }
        }
    }

    #[test]
    fn a_coset_weighs_its_members_as_the_cells_count_them() {
        let x = Generate::Random { seed: 7, density: 0.5 }.board(6, 67);
        let basis: Vec<Grid> =
            (0..8u64).map(|j| Generate::Random { seed: 100 + j, density: 0.4 }.board(6, 67)).collect();
        let coset = Coset::new(&x, &basis);
        for mask in [0u128, 1, 0b1011_0110, 0xff] {
            let presses = coset.member(&x, &basis, Mask::from_bits(mask));
            assert_eq!(coset.weight(Mask::from_bits(mask)), presses.count_ones() as u64, "mask {mask:b}");
        }
    }
}
