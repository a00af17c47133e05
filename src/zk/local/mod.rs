//! Elimination over the local ring Z_q, q = p^e: one prime power of K.
//!
//! Every nonzero element of Z_q is a unit times p^v for one valuation v < e,
//! and an entry of the smallest valuation in a matrix divides every other
//! entry. So elimination that always pivots on an entry of the smallest
//! valuation left never needs to divide by a non-unit: it reaches
//! `P·A·Π = D·V`, with `P` the row operations, `Π` a column permutation,
//! `D = diag(p^v₀, p^v₁, …, 0, …)` and `V` unit upper triangular. That is a
//! Smith form `P·A·(Π·V⁻¹) = D`, kept compactly:
//!
//! - the pivots are found level by level: first every unit pivot the rows
//!   offer (v = 0), then, among the rows left (all of whose entries are now
//!   multiples of p), every pivot of valuation 1, and so on up to e − 1;
//!   the rows left after that are zero;
//! - each row is reduced against the pivots before it as it comes (the
//!   multiplier of pivot k is stored in place, in the row's position k, as
//!   in an LU factorisation), so `P` is never formed: it is replayed on a
//!   right-hand side (`forward`) or transposed onto a certificate
//!   (`transpose_apply`);
//! - a pivot row is stored divided by its pivot p^v, which is then 1: that
//!   is the row of `V`, and back substitution through it needs no division.
//!
//! Columns are permuted in storage as pivots are chosen (pivot k moves to
//! position k), so every row operation runs over one contiguous tail.

mod solve;

use super::inverse_mod;
use super::matrix::ZkMatrix;
use super::rows::{self, Barrett};
use crate::cpu::Isa;

/// One pivot: the row it came from, its valuation, the inverse of the
/// unit it was divided by, and where its row of `V` ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pivot {
    row: u32,
    val: u8,
    inv: u8,
    /// Positions at and past `end` of the pivot row are zero.
    end: u32,
}

/// A matrix factored over Z_q, q = p^e.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Local {
    p: u8,
    e: u32,
    q: u8,
    nrows: usize,
    ncols: usize,
    /// Row by row, columns in pivot order: in a row reduced against s
    /// pivots, positions below s hold its multipliers, the rest its entries
    /// (for a pivot row, 1 at its own position, then its row of `V`).
    data: Vec<u8>,
    /// Per row, the first position of a nonzero multiplier (multipliers
    /// before it are zero): a banded matrix keeps its multipliers banded.
    starts: Vec<u32>,
    /// The column at each position.
    col_at: Vec<u32>,
    pivots: Vec<Pivot>,
    /// Rows that eliminated to zero; they are reduced against every pivot.
    zero_rows: Vec<u32>,
}

/// A row's state while it is eliminated: its entries are below `bound`,
/// and all but those before `touched` are below q.
#[derive(Clone, Copy, Debug)]
struct Lane {
    bound: u32,
    touched: usize,
}

/// The rows being eliminated together, in 16-bit lanes.
struct Block {
    rows: Vec<u16>,
    lanes: Vec<Lane>,
}

/// Where each row is in the elimination.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Status {
    /// Never loaded: stored in the original column order.
    Fresh,
    /// Reduced and put back for a later level, in position order.
    Loose,
    Pivot,
    Zero,
}

/// What only the elimination needs.
struct Work {
    /// Per row, how many pivots it has been reduced against.
    seen: Vec<u32>,
    status: Vec<Status>,
    /// Pivots whose rows reach past the newest pivot position: the only
    /// pivot rows a column exchange can change.
    active: Vec<u32>,
    isa: Isa,
}

impl Local {
    /// Factors `a` mod `p^e`.
    ///
    /// # Complexity
    /// O(m·n·min(m, n)) for an m×n matrix (about n³/3 row-operation steps
    /// for a square one, in 16-bit vector lanes); a pivot row is added only
    /// as far as it reaches, so a band of width w costs about m·n·w.
    ///
    /// `stop` is asked before each block of rows (at most 64 rows, about
    /// 256 KiB of lanes: milliseconds of work on the largest matrix a
    /// front admits), and the elimination ends, `None`, once it says so.
    pub(super) fn new_within(a: &ZkMatrix, p: u8, e: u32, stop: &dyn Fn() -> bool) -> Option<Local> {
        Local::new_in(a, p, e, Isa::detect(), stop)
    }

    /// [`Local::new_within`] with the row operations in the instruction set
    /// `isa` (tests run every one the machine has).
    fn new_in(a: &ZkMatrix, p: u8, e: u32, isa: Isa, stop: &dyn Fn() -> bool) -> Option<Local> {
        let q = p.pow(e);
        let (nrows, ncols) = (a.nrows(), a.ncols());
        let mut local = Local {
            p,
            e,
            q,
            nrows,
            ncols,
            data: {
                let barrett = Barrett::new(q);
                a.entries().iter().map(|&x| barrett.reduce(u16::from(x)) as u8).collect()
            },
            starts: vec![0; nrows],
            col_at: (0..ncols as u32).collect(),
            pivots: Vec::new(),
            zero_rows: Vec::new(),
        };
        let mut work =
            Work { seen: vec![0; nrows], status: vec![Status::Fresh; nrows], active: Vec::new(), isa };
        let mut pending: Vec<u32> = (0..nrows as u32).collect();
        for level in 0..=e {
            if pending.is_empty() {
                break;
            }
            pending = local.pass(&pending, level, &mut work, stop)?;
        }
        // Past level e − 1 every entry left is a multiple of p^e, that is
        // zero, so the last pass left nothing pending.
        local.zero_rows.append(&mut pending);
        Some(local)
    }

    /// `p^v`.
    fn power(&self, v: u32) -> u16 {
        u16::from(self.p).pow(v)
    }

    /// The pivots' valuations.
    pub(super) fn valuations(&self) -> impl Iterator<Item = u32> + '_ {
        self.pivots.iter().map(|p| u32::from(p.val))
    }

    /// Number of pivots.
    pub(super) fn pivot_count(&self) -> usize {
        self.pivots.len()
    }

    /// Rows per block: a block of rows in 16-bit lanes stays about 256 KiB,
    /// within the L2 cache, while each pivot row passes over all of them.
    fn block_rows(&self) -> usize {
        ((1usize << 17) / self.ncols.max(1)).clamp(1, 64)
    }

    /// Eliminates `rows` (each reduced against its first `seen` pivots so
    /// far) with pivots of valuation `level`: each row is reduced against
    /// every pivot, then becomes a pivot if it has an entry of valuation
    /// `level` in a free position, or is zero. Returns the rest (all their
    /// entries multiples of p^(level+1)), for the next level; `None` once
    /// `stop` says so (asked before each block).
    // Kept whole for now: the elimination's hot loop, whose steps share
    // the row being reduced and the pivots; a split is to be measured
    // first (criterion `states`, `zk_factor`), not assumed free.
    fn pass(
        &mut self,
        rows: &[u32],
        level: u32,
        work: &mut Work,
        stop: &dyn Fn() -> bool,
    ) -> Option<Vec<u32>> {
        let n = self.ncols;
        let per_block = self.block_rows();
        let fresh_lane = Lane { bound: u32::from(self.q - 1), touched: 0 };
        let mut block = Block { rows: vec![0; per_block * n], lanes: vec![fresh_lane; per_block] };
        let mut deferred = Vec::new();
        for (c, chunk) in rows.chunks(per_block).enumerate() {
            if stop() {
                return None;
            }
            // Rows still stored after this block, to keep in position order
            // (fresh rows are put in order when they are loaded instead).
            let later = &rows[((c + 1) * per_block).min(rows.len())..];
            for (b, &r) in chunk.iter().enumerate() {
                let stored = &self.data[r as usize * n..][..n];
                let lane = &mut block.rows[b * n..][..n];
                if work.status[r as usize] == Status::Fresh {
                    for (x, &col) in lane.iter_mut().zip(&self.col_at) {
                        *x = u16::from(stored[col as usize]);
                    }
                } else {
                    for (x, &s) in lane.iter_mut().zip(stored) {
                        *x = u16::from(s);
                    }
                }
                block.lanes[b] = fresh_lane;
            }
            // Every pivot found before this block, for all its rows at once.
            let start = self.pivots.len();
            // A row's multipliers before its first nonzero entry are zero
            // (no row operation writes behind its pivot), so it starts there.
            let from: Vec<usize> = chunk
                .iter()
                .enumerate()
                .map(|(b, &r)| {
                    let seen = work.seen[r as usize] as usize;
                    let lane = &block.rows[b * n..][..n];
                    lane[seen..start.max(seen)].iter().position(|&x| x != 0).map_or(start, |i| seen + i)
                })
                .collect();
            self.catch_up(&mut block.rows, &mut block.lanes, &from, start, work.isa);
            let mut became_pivot = vec![false; chunk.len()];
            for (b, &r) in chunk.iter().enumerate() {
                // Then the pivots found in this block, one row at a time.
                let found = self.pivots.len();
                if found > start {
                    let (lane, state) = (&mut block.rows[b * n..][..n], &mut block.lanes[b..=b]);
                    self.catch_up(lane, state, &[start], found, work.isa);
                }
                let barrett = Barrett::new(self.q);
                let row = &mut block.rows[b * n..][..n];
                barrett.reduce_row(&mut row[found..]);
                work.seen[r as usize] = found as u32;
                match self.find_pivot(&row[found..], level) {
                    Some(offset) => {
                        if offset != 0 {
                            let stored = if level > 0 { later } else { &[] };
                            let (a, b, held) = (found, found + offset, chunk.len());
                            self.swap_columns(a, b, &mut block, held, [&deferred[..], stored], work);
                        }
                        self.make_pivot(r, &block.rows[b * n..][..n], level, work);
                        became_pivot[b] = true;
                    }
                    None if row[found..].iter().all(|&x| x == 0) => {
                        self.zero_rows.push(r);
                        work.status[r as usize] = Status::Zero;
                    }
                    None => {
                        deferred.push(r);
                        work.status[r as usize] = Status::Loose;
                    }
                }
            }
            for (b, &r) in chunk.iter().enumerate().filter(|&(b, _)| !became_pivot[b]) {
                // Reduced: the multipliers were, and the entries just now.
                let lane = &block.rows[b * n..][..n];
                let seen = work.seen[r as usize] as usize;
                self.starts[r as usize] = lane[..seen].iter().position(|&x| x != 0).unwrap_or(seen) as u32;
                let stored = &mut self.data[r as usize * n..][..n];
                for (s, &x) in stored.iter_mut().zip(lane) {
                    *s = x as u8;
                }
            }
        }
        Some(deferred)
    }

    /// Reduces each row `b` of `lanes` (in state `state[b]`) against
    /// pivots `from[b]..to`.
    fn catch_up(&self, lanes: &mut [u16], state: &mut [Lane], from: &[usize], to: usize, isa: Isa) {
        match isa {
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU was seen to support the features.
            Isa::Avx512 => unsafe { self.catch_up_avx512(lanes, state, from, to) },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: as above.
            Isa::Avx2 => unsafe { self.catch_up_avx2(lanes, state, from, to) },
            Isa::Portable => self.catch_up_portable(lanes, state, from, to),
        }
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx512f,avx512bw")]
    unsafe fn catch_up_avx512(&self, lanes: &mut [u16], state: &mut [Lane], from: &[usize], to: usize) {
        self.catch_up_portable(lanes, state, from, to)
    }

    #[cfg(target_arch = "x86_64")]
    #[target_feature(enable = "avx2")]
    unsafe fn catch_up_avx2(&self, lanes: &mut [u16], state: &mut [Lane], from: &[usize], to: usize) {
        self.catch_up_portable(lanes, state, from, to)
    }

    /// The hot loop: pivot by pivot, each pivot row (bytes, read once per
    /// block, as far as it reaches) added to every row that has not seen it.
    #[inline(always)]
    fn catch_up_portable(&self, lanes: &mut [u16], state: &mut [Lane], from: &[usize], to: usize) {
        let n = self.ncols;
        let q = u16::from(self.q);
        let barrett = Barrett::new(self.q);
        let step = u32::from(q - 1) * u32::from(q - 1);
        let low = from.iter().copied().min().unwrap_or(to);
        for k in low..to {
            let pivot = self.pivots[k];
            let end = pivot.end as usize;
            let divisor = self.power(u32::from(pivot.val));
            let v = &self.data[pivot.row as usize * n..][k + 1..end];
            for (b, &first) in from.iter().enumerate() {
                if first > k {
                    continue;
                }
                let row = &mut lanes[b * n..][..n];
                let a = barrett.reduce(row[k]);
                if a == 0 {
                    row[k] = 0;
                    continue;
                }
                // a is a multiple of the pivot p^v: row −= a·V_k, and the
                // multiplier recorded is a / p^v (row −= (a/p^v)·U_k).
                row[k] = a / divisor;
                let lane = &mut state[b];
                if lane.bound + step > u32::from(u16::MAX) {
                    // Only what was added to since the last reduction.
                    if lane.touched > k + 1 {
                        barrett.reduce_row(&mut row[k + 1..lane.touched]);
                    }
                    *lane = Lane { bound: u32::from(q - 1), touched: k + 1 };
                }
                rows::axpy(&mut row[k + 1..end], v, q - a);
                lane.bound += step;
                lane.touched = lane.touched.max(end);
            }
        }
    }

    /// The first position of a reduced row tail holding an entry of
    /// valuation exactly `level`.
    fn find_pivot(&self, tail: &[u16], level: u32) -> Option<usize> {
        if level >= self.e {
            return None;
        }
        let next = self.power(level + 1);
        tail.iter().position(|&x| x % next != 0)
    }

    /// Exchanges the columns at positions `a < b` in every row that holds
    /// them in position order and may have a nonzero there: the pivot rows
    /// that reach past `a`, the `loose` rows, and the first `held` rows of
    /// `block`. (Fresh rows take the order when loaded; zero rows are zero
    /// there.)
    fn swap_columns(
        &mut self,
        a: usize,
        b: usize,
        block: &mut Block,
        held: usize,
        loose: [&[u32]; 2],
        work: &mut Work,
    ) {
        let n = self.ncols;
        self.col_at.swap(a, b);
        work.active.retain(|&k| self.pivots[k as usize].end as usize > a);
        for &k in &work.active {
            let pivot = &mut self.pivots[k as usize];
            let row = &mut self.data[pivot.row as usize * n..][..n];
            row.swap(a, b);
            if row[b] != 0 {
                pivot.end = pivot.end.max(b as u32 + 1);
            }
        }
        for &r in loose.into_iter().flatten() {
            self.data[r as usize * n..][..n].swap(a, b);
        }
        for (row, lane) in block.rows.chunks_exact_mut(n).zip(&mut block.lanes).take(held) {
            row.swap(a, b);
            // An unreduced sum at a moves to b: the part that may hold
            // unreduced sums must reach it. (Regression: it did not, and the
            // next reduction left the sum at b to overflow.)
            if lane.touched > a {
                lane.touched = lane.touched.max(b + 1);
            }
        }
    }

    /// Stores reduced `row` (from row `r`) as the next pivot, of valuation
    /// `level`, at its own position: its multipliers, then 1, then its row
    /// of `V`.
    fn make_pivot(&mut self, r: u32, row: &[u16], level: u32, work: &mut Work) {
        let (n, k) = (self.ncols, self.pivots.len());
        let divisor = self.power(level);
        // row[k] = p^v·w with p ∤ w, so w is a unit mod q.
        let inv = inverse_mod((row[k] / divisor) as u8, self.q).unwrap_or(1);
        let end = row.iter().rposition(|&x| x != 0).map_or(k + 1, |last| last.max(k) + 1);
        self.starts[r as usize] = row[..k].iter().position(|&x| x != 0).unwrap_or(k) as u32;
        let stored = &mut self.data[r as usize * n..][..n];
        for (s, &x) in stored[..k].iter_mut().zip(&row[..k]) {
            *s = x as u8;
        }
        stored[k] = 1;
        // inv·x ≤ 254² fits the 16 bits Barrett reduces.
        let barrett = Barrett::new(self.q);
        for (s, &x) in stored[k + 1..end].iter_mut().zip(&row[k + 1..end]) {
            *s = (barrett.reduce(u16::from(inv) * x) / divisor) as u8;
        }
        stored[end..].fill(0);
        self.pivots.push(Pivot { row: r, val: level as u8, inv, end: end as u32 });
        work.status[r as usize] = Status::Pivot;
        work.active.push(k as u32);
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::zk::Modulus;

    /// A random m×n matrix mod q = p^e: entries of every valuation (so
    /// every level of pivots occurs), or of rank at most 3 (so rows
    /// eliminate to zero).
    fn random_matrix(rng: &mut ChaCha8Rng, m: usize, n: usize, p: u8, e: u32, low_rank: bool) -> ZkMatrix {
        let q = Modulus::new(u32::from(p).pow(e)).unwrap();
        if low_rank {
            let left = ZkMatrix::from_fn(m, 3, |_, _| rng.random_range(0..q.get()));
            let right = ZkMatrix::from_fn(3, n, |_, _| rng.random_range(0..q.get()));
            return ZkMatrix::from_fn(m, n, |i, j| {
                q.reduce((0..3).map(|t| u64::from(left.get(i, t)) * u64::from(right.get(t, j))).sum())
            });
        }
        ZkMatrix::from_fn(m, n, |_, _| {
            let v = rng.random_range(0..=e);
            q.reduce(u64::from(rng.random_range(0..q.get())) * u64::from(p).pow(v))
        })
    }

    /// The factors solve and annihilate as they should: `A·x = b` for a
    /// reachable `b`, and `A·g = 0`, `order·g = 0` for kernel generators.
    fn check_rebuilds(a: &ZkMatrix, local: &Local, rng: &mut ChaCha8Rng) {
        let q = Modulus::new(u32::from(local.q)).unwrap();
        let x: Vec<u8> = (0..a.ncols()).map(|_| rng.random_range(0..q.get())).collect();
        let b = a.mul_vec(&x, q);
        let solution = local.solve(&b).expect("b = A·x is reachable");
        assert_eq!(a.mul_vec(&solution, q), b);
        // A sample of the generators: all of them on a wide matrix is slow.
        let kernel = local.kernel();
        for (g, order) in kernel.iter().step_by(kernel.len().div_ceil(64).max(1)) {
            assert!(a.mul_vec(g, q).iter().all(|&v| v == 0), "A·g ≠ 0");
            assert!(g.iter().all(|&v| (u32::from(v) * order).is_multiple_of(u32::from(q.get()))));
        }
    }

    /// Found by review: only the row kernel the CPU picks ran, so on an
    /// AVX-512 machine the AVX2 and portable copies never did. Every
    /// instruction set gives the portable loop's factors, byte for byte, on
    /// shapes across the block of 64 rows and the 16- and 32-lane vectors,
    /// with moduli whose lazy sums must be reduced often (q = 251: every
    /// row operation) or seldom (q = 3).
    #[test]
    fn every_isa_factors_as_the_portable_loop() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        let moduli =
            [(2u8, 1u32), (3, 1), (2, 2), (2, 3), (3, 2), (5, 2), (7, 2), (5, 3), (2, 7), (3, 5), (251, 1)];
        let shapes =
            [(1, 1), (63, 15), (64, 16), (65, 17), (129, 33), (64, 65), (65, 64), (130, 129), (50, 3000)];
        for (p, e) in moduli {
            for (m, n) in shapes {
                for low_rank in [false, true] {
                    let a = random_matrix(&mut rng, m, n, p, e, low_rank);
                    let portable = Local::new_in(&a, p, e, Isa::Portable, &|| false).unwrap();
                    check_rebuilds(&a, &portable, &mut rng);
                    for isa in Isa::available() {
                        let factors = Local::new_in(&a, p, e, isa, &|| false).unwrap();
                        assert!(factors == portable, "{isa:?} mod {p}^{e}, {m}x{n}, low rank {low_rank}");
                    }
                }
            }
        }
    }
}
