//! The cross basis that branch and bound reads a coset in: pivot cells in
//! dyadic cross order, and the folding by the board's turns and mirrors at
//! every depth of the coordinates they act on ([`Fold`](crate::solve::minimal::Fold)).

use super::super::coset::Coset;
use super::super::prefix_fold::fold_of;
use super::super::symmetry::{cell_motions, inverse_rows, transpose};
use crate::model::{Grid, Puzzle};
use crate::solve::slices::Mask;

/// Cells in dyadic cross order: the middle row and column, centre
/// outward; then the middle lines of the halves left on each side; and so
/// on until every line is taken.
pub fn cross_order(rows: usize, cols: usize) -> Vec<(usize, usize)> {
    let (row_levels, col_levels) = (dyadic_levels(rows), dyadic_levels(cols));
    let (mid_r, mid_c) = (rows as i64 / 2, cols as i64 / 2);
    let mut seen = vec![false; rows * cols];
    let mut order = Vec::with_capacity(rows * cols);
    for level in 0..row_levels.len().max(col_levels.len()) {
        let mut cells = Vec::new();
        for &r in row_levels.get(level).into_iter().flatten() {
            cells.extend((0..cols).map(|c| (r, c)));
        }
        for &c in col_levels.get(level).into_iter().flatten() {
            cells.extend((0..rows).map(|r| (r, c)));
        }
        let distance = |&(r, c): &(usize, usize)| (r as i64 - mid_r).abs() + (c as i64 - mid_c).abs();
        cells.sort_by_key(|cell| (distance(cell), *cell));
        for (r, c) in cells {
            if !std::mem::replace(&mut seen[r * cols + c], true) {
                order.push((r, c));
            }
        }
    }
    order
}

/// The lines of `0..n` by dyadic level: level 0 the middle, level 1 the
/// middles of the two sides, … (symmetric about the middle when n is odd).
fn dyadic_levels(n: usize) -> Vec<Vec<usize>> {
    let mut levels = Vec::new();
    let mut intervals = vec![(0usize, n)];
    while !intervals.is_empty() {
        let mut level = Vec::new();
        let mut next = Vec::new();
        for (lo, hi) in intervals {
            if lo < hi {
                // Left of the centre round down, right of it up: the lines
                // of a level are then their own mirror image.
                let mid = if lo + hi < n { lo + (hi - lo - 1) / 2 } else { lo + (hi - lo) / 2 };
                level.push(mid);
                next.push((lo, mid));
                next.push((mid + 1, hi));
            }
        }
        if !level.is_empty() {
            levels.push(level);
        }
        intervals = next;
    }
    levels
}

/// The coset `x + span(quiet)` read in the cross basis (see the docs of
/// the branch-and-bound module, `branch.rs`): basis pattern `d − 1 − j` is
/// the quiet pattern that presses pivot cell `j` and no other pivot.
/// [`Coset::member`] reads its masks back over `quiet`. `None` when
/// `quiet` is empty, has more than 128 patterns or is not independent.
pub fn cross_coset(x: &Grid, quiet: &[Grid]) -> Option<Coset> {
    cross_coset_folded(x, quiet, &[])
}

/// [`cross_coset`] for the solutions of `puzzle` with right-hand side
/// `rhs`, folded by the problem's symmetries ([`Fold`](crate::solve::minimal::Fold)): a prefix of the
/// cross coordinates is searched only if it is the smallest of its orbit
/// wherever a symmetry acts on it (the others hold members of the same
/// weights). The tie rule then picks among the smallest prefixes.
pub fn cross_coset_for_problem(puzzle: &Puzzle, rhs: &Grid, x: &Grid, quiet: &[Grid]) -> Option<Coset> {
    cross_coset_folded(x, quiet, &cell_motions(puzzle, rhs))
}

fn cross_coset_folded(x: &Grid, quiet: &[Grid], motions: &[Vec<usize>]) -> Option<Coset> {
    let d = quiet.len();
    if d == 0 || d > Mask::BITS {
        return None;
    }
    let (rows, cols) = (x.nrows(), x.ncols());
    let key =
        |r: usize, c: usize| quiet.iter().enumerate().fold(0u128, |k, (j, q)| k | (q.get(r, c) as u128) << j);
    // Pivots: cells in cross order whose keys are independent of those
    // kept, kept in echelon form (leading bit, reduced key, which pivots).
    let mut echelon: Vec<(u32, u128, u128)> = Vec::with_capacity(d);
    let mut pivot_keys = Vec::with_capacity(d);
    let mut pivots = Vec::with_capacity(d);
    for (r, c) in cross_order(rows, cols) {
        if echelon.len() == d {
            break;
        }
        let k = key(r, c);
        let (mut v, mut combo) = (k, 1u128 << echelon.len());
        for &(lead, e, which) in &echelon {
            if v >> lead & 1 == 1 {
                v ^= e;
                combo ^= which;
            }
        }
        if v != 0 {
            echelon.push((127 - v.leading_zeros(), v, combo));
            pivot_keys.push(k);
            pivots.push((r, c));
        }
    }
    if echelon.len() < d {
        return None;
    }
    // The coordinates of a key over the pivots' keys: reduce it, keeping
    // track of which pivots' keys were added.
    let coordinates = |mut v: u128| {
        let mut combo = 0u128;
        for &(lead, e, which) in &echelon {
            if v >> lead & 1 == 1 {
                v ^= e;
                combo ^= which;
            }
        }
        combo
    };
    // Cell c's value is x_c ⊕ ⟨K(c), s⟩ over the old mask s; with s' the
    // pivots' values, K(c)·s = coords(K(c))·s'. New pattern j is the old
    // mask s with ⟨K(p_i), s⟩ = δ_ij: column j of the pivot matrix's inverse.
    let reversed = |v: u128| v.reverse_bits() >> (Mask::BITS - d);
    let coords: Vec<u128> = (0..rows * cols).map(|i| coordinates(key(i / cols, i % cols))).collect();
    let keyed = coords
        .iter()
        .enumerate()
        .map(|(i, &k)| (reversed(k), if x.get(i / cols, i % cols) { -1 } else { 1 }))
        .collect();
    let to_original = transpose(&inverse_rows(&pivot_keys, d)?, d);
    let to_original = (0..d).rev().map(|j| to_original[j]).collect();
    let fold = fold_of(x, &pivots, &coords, motions);
    Some(Coset::from_keyed(keyed, d).with_original(to_original).with_fold(fold))
}

#[cfg(test)]
mod tests {
    use super::super::super::prefix_fold::Fold;
    use super::super::tests::random_coset;
    use super::*;

    /// The prefixes of depth `depth` that pass every check on the way down.
    fn kept(fold: &Fold, depth: usize) -> u64 {
        fn walk(fold: &Fold, t: usize, v: u64, tied: u32, depth: usize) -> u64 {
            if t == depth {
                return 1;
            }
            // Coordinate t is bit t of v.
            [0u64, 1]
                .iter()
                .filter_map(|&b| {
                    fold.check(t + 1, v | b << t, tied).map(|kept| walk(fold, t + 1, v | b << t, kept, depth))
                })
                .sum()
        }
        walk(fold, 0, 0, fold.all_tied(), depth)
    }

    /// At full depth every motion acts, and the fold keeps exactly one
    /// prefix per orbit of the 8 motions (Burnside: a little more than
    /// 2^d / 8), on odd squares and even ones; the cross alone kept half.
    #[test]
    fn fold_keeps_one_prefix_per_orbit() {
        use crate::{Method, Solver, Target};
        for n in [16, 19, 30, 33] {
            let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 63).unwrap();
            let (_, folded) = solver.cross_coset(&Grid::ones(n, n), &Target::White).unwrap().unwrap();
            let fold = folded.fold().unwrap();
            assert_eq!(fold.symmetries(), 7, "{n}x{n}");
            let d = folded.nullity();
            let orbits = (1u64 << d) as f64 / fold.fold_at(d);
            assert_eq!(kept(fold, d) as f64, orbits.round(), "{n}x{n}");
            let share = orbits / (1u64 << d) as f64;
            assert!((0.125..0.2).contains(&share), "{n}x{n}: depth {d} keeps {share}");
            // Shallower, the orbits of the motions acting there bound it.
            for t in fold.depths() {
                let bound = (1u64 << t) as f64 / fold.fold_at(t);
                assert!(kept(fold, t) as f64 <= bound + 1e-6, "{n}x{n} depth {t}");
            }
        }
    }

    #[test]
    fn cross_order_starts_with_the_centre_and_takes_every_cell() {
        let order = cross_order(5, 7);
        assert_eq!(order[0], (2, 3));
        let mut sorted = order.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), 35);
        // The first 11 cells are the middle row and column.
        assert!(order[..11].iter().all(|&(r, c)| r == 2 || c == 3));
    }

    /// The cross basis names the same members: every mask's weight equals
    /// the weight of the press set it gives over the original basis.
    #[test]
    fn cross_coset_reads_its_masks_back() {
        let (x, quiet) = random_coset(9, 9, 12, 4);
        let coset = cross_coset(&x, &quiet).unwrap();
        let plain = Coset::new(&x, &quiet);
        let mut weights: Vec<u64> = Vec::new();
        for m in 0..1u128 << 12 {
            let mask = Mask::from_bits(m);
            assert_eq!(coset.weight(mask), coset.member(&x, &quiet, mask).count_ones() as u64);
            weights.push(coset.weight(mask));
        }
        let mut plain_weights: Vec<u64> =
            (0..1u128 << 12).map(|m| plain.weight(Mask::from_bits(m))).collect();
        weights.sort_unstable();
        plain_weights.sort_unstable();
        assert_eq!(weights, plain_weights);
    }
}
