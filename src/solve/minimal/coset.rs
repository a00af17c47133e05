//! A coset of solutions as the searches see it, and the values they
//! exchange: the [`Coset`] (cells grouped by key), the [`Layout`] of its
//! masks, a [`Mask`] naming one member, the [`Best`] member found, and the
//! [`Shard`] of blocks a run covers.
//!
//! A mask is over the coset's own basis, which for a symmetric search is
//! not the solver's quiet patterns: only the coset turns it into presses
//! ([`Coset::member`]), so a mask cannot be read against the wrong basis.

use serde::{Deserialize, Serialize};

use super::MAX_KEY_BITS;
use super::symmetry::MAX_SYMMETRIC_NULLITY;
use super::symmetry::{BlockOrbits, symmetric_basis};
use super::transform::Counter;
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
    fold: Option<super::branch::Fold>,
}

impl Coset {
    /// Groups the cells of `x` by their keys over `basis`; only the first
    /// `MAX_KEY_BITS` (128) patterns count (a key is one `u128`).
    pub fn new(x: &Grid, basis: &[Grid]) -> Coset {
        let basis = &basis[..basis.len().min(MAX_KEY_BITS)];
        let mut keyed: Vec<(u128, i32)> = Vec::with_capacity(x.nrows() * x.ncols());
        for r in 0..x.nrows() {
            for c in 0..x.ncols() {
                let key = basis.iter().enumerate().fold(0u128, |k, (j, q)| k | (q.get(r, c) as u128) << j);
                keyed.push((key, if x.get(r, c) { -1 } else { 1 }));
            }
        }
        Coset::from_keyed(keyed, basis.len())
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
        let lower_bound =
            groups.iter().map(|&(_, count, cells)| (cells - count.unsigned_abs() as u64) / 2).sum();
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
    pub(crate) fn with_fold(mut self, fold: Option<super::branch::Fold>) -> Coset {
        self.fold = fold;
        self
    }

    /// How branch and bound folds this coset, if it does.
    pub fn fold(&self) -> Option<&super::branch::Fold> {
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
            None => mask.0,
            Some(to_original) => (0..to_original.len())
                .filter(|&k| mask.0 >> k & 1 == 1)
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

    /// Weight of the member `mask`, in O(groups).
    pub fn weight(&self, mask: Mask) -> u64 {
        let s = mask.0;
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

/// One member of a coset: bit `j` says whether the coset's basis pattern
/// `j` is added to the particular press set. Over the coset's own basis
/// (see [`Coset::member`]); serialised as the plain number.
///
/// The same type names a member of a coset over Z_K, where a member is a
/// tuple of coefficients `c_j < order_j`: the mask is that tuple read as a
/// mixed-radix number, `c_0` the least significant digit (see
/// [`from_digits`](Self::from_digits)). 128 bits: two-state bases of up to
/// 128 patterns, K-state cosets of up to 2^128 members.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Mask(u128);

impl Mask {
    /// The particular press set itself.
    pub const ZERO: Mask = Mask(0);

    /// Most patterns (bits) a mask holds.
    pub const BITS: usize = 128;

    /// The mask of these bits (the searches make them; a record reads
    /// them back).
    pub(crate) fn from_bits(bits: impl Into<u128>) -> Mask {
        Mask(bits.into())
    }

    /// The bits: bit `j` for basis pattern `j`.
    pub fn bits(self) -> u128 {
        self.0
    }

    /// The mask of the coefficients `digits` (digit `j` below `radices[j]`),
    /// read as a mixed-radix number with digit 0 the least significant;
    /// `None` when a digit is out of range, the lengths differ or the
    /// number passes 128 bits.
    ///
    /// # Example
    /// ```
    /// use lightsout::Mask;
    ///
    /// // Coefficients (2, 1) with orders (3, 4): 2 + 1·3 = 5.
    /// let mask = Mask::from_digits(&[2, 1], &[3, 4]).unwrap();
    /// assert_eq!((mask.bits(), mask.digits(&[3, 4])), (5, vec![2, 1]));
    /// assert_eq!(Mask::from_digits(&[3, 0], &[3, 4]), None);
    /// ```
    pub fn from_digits(digits: &[u32], radices: &[u32]) -> Option<Mask> {
        if digits.len() != radices.len() {
            return None;
        }
        let mut value = 0u128;
        for (&digit, &radix) in digits.iter().zip(radices).rev() {
            if digit >= radix {
                return None;
            }
            value = value.checked_mul(radix as u128)?.checked_add(digit as u128)?;
        }
        Some(Mask(value))
    }

    /// The coefficients this mask names over `radices` (the inverse of
    /// [`from_digits`](Self::from_digits); digits past the last radix are
    /// dropped).
    pub fn digits(self, radices: &[u32]) -> Vec<u32> {
        let mut value = self.0;
        radices
            .iter()
            .map(|&radix| {
                let radix = radix.max(1) as u128;
                let digit = (value % radix) as u32;
                value /= radix;
                digit
            })
            .collect()
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
    pub mask: Mask,
}

impl Best {
    /// Whether a slice that claims `claimed` holds up when its `unit`s
    /// (blocks, tasks), searched again, hold `found` at best: refused when
    /// they hold a lighter member, one as light with a smaller mask (the
    /// tie rule), or any member where it claims none.
    ///
    /// # Errors
    /// What was found, in a few words.
    pub fn check_claim(claimed: Option<Best>, found: Option<Best>, unit: &str) -> Result<(), String> {
        match (found, claimed) {
            (Some(found), Some(best)) if found.weight < best.weight => Err(format!(
                "searched again, its {unit}s hold a member of {} presses where it claims {}",
                found.weight, best.weight
            )),
            (Some(found), Some(best)) if (found.weight, found.mask) < (best.weight, best.mask) => {
                Err(format!(
                    "searched again, its {unit}s hold a member of {} presses with a smaller mask than the one \
                 it claims (the tie rule keeps the smallest)",
                    found.weight
                ))
            }
            (Some(found), None) => Err(format!(
                "searched again, its {unit}s hold a member of {} presses where it claims none",
                found.weight
            )),
            _ => Ok(()),
        }
    }

    /// The better of two candidates (lighter, then smaller mask).
    pub fn better(a: Option<Best>, b: Option<Best>) -> Option<Best> {
        match (a, b) {
            (Some(a), Some(b)) => Some(if (b.weight, b.mask) < (a.weight, a.mask) { b } else { a }),
            (a, None) => a,
            (None, b) => b,
        }
    }
}

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
