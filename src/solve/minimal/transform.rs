//! The Walsh–Hadamard transform that weighs 2^d members of a coset at once.
//!
//! The table has one row per value of the low `t` bits of a member's mask
//! and one lane per value of the next [`Counter::LANE_BITS`] bits: a
//! butterfly on two rows is then a plain loop over the lanes, which the
//! compiler turns into a handful of vector instructions (32 lanes of `i16`
//! or 16 of `i32` in one 512-bit register, two or four in 256-bit ones).
//! Every level of the transform works on whole rows, so no level shuffles
//! lanes.

use num_traits::{AsPrimitive, PrimInt, Signed, WrappingAdd, WrappingMul, WrappingSub};

/// Bytes of one table row: one 512-bit vector.
pub const ROW_BYTES: usize = 64;

/// A signed counter for the transform: `i16` while every sum fits (boards
/// of at most 32,767 cells), `i32` beyond.
pub trait Counter:
    PrimInt
    + Signed
    + WrappingAdd
    + WrappingSub
    + WrappingMul
    + AsPrimitive<i64>
    + Send
    + Sync
    + Default
    + 'static
{
    /// log2 of the lanes in a row of [`ROW_BYTES`].
    const LANE_BITS: usize;
    /// The largest number of cells whose signed sums cannot overflow.
    const MAX_CELLS: usize;
    /// `value` as a counter; callers keep it within [`MAX_CELLS`](Self::MAX_CELLS).
    fn from_i32(value: i32) -> Self;
}

impl Counter for i16 {
    const LANE_BITS: usize = 5;
    const MAX_CELLS: usize = i16::MAX as usize;
    fn from_i32(value: i32) -> Self {
        value as i16
    }
}

impl Counter for i32 {
    const LANE_BITS: usize = 4;
    const MAX_CELLS: usize = i32::MAX as usize;
    fn from_i32(value: i32) -> Self {
        value
    }
}

/// Rows transformed together while they stay in the level-1 data cache
/// (32 KiB here); the levels across blocks then run from level 2.
const L1_ROWS: usize = (32 << 10) / ROW_BYTES;

/// In-place Walsh–Hadamard transform of the rows of `table` (`L` lanes a
/// row, a power of two rows): row `s` becomes `Σ_v row_v · (−1)^⟨v,s⟩`.
///
/// The levels commute, so the ones inside an L1-sized block of rows run
/// block by block and only the rest sweep the whole table; and three
/// levels at a time run on eight rows held in registers, so each sweep
/// loads and stores every row once for three levels.
#[inline(always)]
pub fn transform_rows<T: Counter, const L: usize>(table: &mut [[T; L]]) {
    let block = L1_ROWS.min(table.len());
    for chunk in table.chunks_mut(block) {
        levels(chunk, 1);
    }
    levels(table, block);
}

/// The levels `half, 2·half, …` below `table.len()`.
#[inline(always)]
fn levels<T: Counter, const L: usize>(table: &mut [[T; L]], mut half: usize) {
    while half * 4 <= table.len() {
        two_levels(table, half);
        half *= 4;
    }
    if half < table.len() {
        one_level(table, half);
    }
}

/// One level: rows `i` and `i + half` become their sum and difference.
#[inline(always)]
fn one_level<T: Counter, const L: usize>(table: &mut [[T; L]], half: usize) {
    for pair in table.chunks_mut(2 * half) {
        let (low, high) = pair.split_at_mut(half);
        for (a, b) in low.iter_mut().zip(high.iter_mut()) {
            butterfly(a, b);
        }
    }
}

/// Levels `half` and `2·half` on each set of four rows `i + k·half`, each
/// row loaded and stored once for both.
#[inline(always)]
fn two_levels<T: Counter, const L: usize>(table: &mut [[T; L]], half: usize) {
    for group in table.chunks_mut(4 * half) {
        let (q01, q23) = group.split_at_mut(2 * half);
        let (q0, q1) = q01.split_at_mut(half);
        let (q2, q3) = q23.split_at_mut(half);
        for (((a, b), c), d) in q0.iter_mut().zip(q1.iter_mut()).zip(q2.iter_mut()).zip(q3.iter_mut()) {
            for k in 0..L {
                let (s0, d0) = (a[k].wrapping_add(&b[k]), a[k].wrapping_sub(&b[k]));
                let (s1, d1) = (c[k].wrapping_add(&d[k]), c[k].wrapping_sub(&d[k]));
                a[k] = s0.wrapping_add(&s1);
                c[k] = s0.wrapping_sub(&s1);
                b[k] = d0.wrapping_add(&d1);
                d[k] = d0.wrapping_sub(&d1);
            }
        }
    }
}

/// `(a, b) ← (a + b, a − b)`, lane by lane.
#[inline(always)]
fn butterfly<T: Counter, const L: usize>(a: &mut [T; L], b: &mut [T; L]) {
    for k in 0..L {
        let (u, v) = (a[k], b[k]);
        a[k] = u.wrapping_add(&v);
        b[k] = u.wrapping_sub(&v);
    }
}

/// The lane-wise maximum over all rows.
#[inline(always)]
pub fn lane_max<T: Counter, const L: usize>(table: &[[T; L]]) -> [T; L] {
    let mut best = [T::min_value(); L];
    for row in table {
        for k in 0..L {
            best[k] = best[k].max(row[k]);
        }
    }
    best
}

/// Adds `scale · pattern` to `row`, lane by lane.
#[inline(always)]
pub fn add_scaled<T: Counter, const L: usize>(row: &mut [T; L], pattern: &[T; L], scale: T) {
    // On copies: in place, LLVM could not rule out that the row and the
    // pattern overlap and added lane by lane, one scalar at a time.
    let (mut sum, pattern) = (*row, *pattern);
    for k in 0..L {
        sum[k] = sum[k].wrapping_add(&pattern[k].wrapping_mul(&scale));
    }
    *row = sum;
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The blocked, lane-parallel transform equals the definition.
    #[test]
    fn transform_matches_the_definition() {
        for bits in [0usize, 1, 2, 3, 4, 7, 9, 10, 11] {
            let rows = 1usize << bits;
            let input: Vec<[i32; 4]> =
                (0..rows).map(|r| std::array::from_fn(|k| ((r * 7 + k * 13) % 11) as i32 - 5)).collect();
            let mut fast = input.clone();
            transform_rows(&mut fast);
            for (s, row) in fast.iter().enumerate() {
                for k in 0..4 {
                    let sum: i32 = (0..rows)
                        .map(|v| if (v & s).count_ones() % 2 == 1 { -input[v][k] } else { input[v][k] })
                        .sum();
                    assert_eq!(row[k], sum, "bits {bits} row {s} lane {k}");
                }
            }
        }
    }
}
