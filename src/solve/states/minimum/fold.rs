//! Symmetric folding of the K-state exhaustive search, for prime K.
//!
//! A turn or mirror `σ` of the board that keeps the rule commutes with the
//! press matrix; if it also fixes the right-hand side (target − board), it
//! maps every solution to a solution of the same weight. Over GF(p) the
//! kernel is a vector space and `σ` acts on coefficient vectors as an
//! affine map `c ↦ L_σ·c + t_σ`. As for two states
//! (`solve/minimal/symmetry.rs`), a new basis is chosen whose first `m`
//! generators span a subspace `U` every `L_σ` maps onto itself; the engine's
//! inner block is then exactly `U` (its first `m` coefficients), `σ` maps
//! each block (a coset of `U`, one value of the outer coefficients) onto a
//! whole block, and only the smallest block of each orbit is weighed.
//!
//! Ties: a block's index is the high part of its members' indices, so the
//! first lightest member (over the new basis) lies in a block that is the
//! smallest of its orbit; the folded search returns the member the unfolded
//! search returns over the same basis. Over the solver's basis the two may
//! pick different members of equal weight.
//!
//! Composite K is not folded: the kernel is then a direct sum of cyclic
//! groups, not a vector space, and an invariant subgroup need not be a
//! direct summand (2·Z_4 in Z_4), so the split into blocks may not exist.

/// A basis adapted to the symmetries and how they move the blocks.
pub(super) struct Folding {
    /// The new generators (each of order p); the first `invariant` span U.
    pub(super) gens: Vec<Vec<u8>>,
    pub(super) invariant: usize,
    /// Per symmetry, its action on the outer coefficients (`d − invariant`
    /// of them): `o ↦ offset + Σ_k o_k·columns[k]` (mod p).
    pub(super) maps: Vec<(Vec<Vec<u8>>, Vec<u8>)>,
    p: u8,
}

impl Folding {
    /// Whether the block of outer coefficients `outer` (the least
    /// significant first) is the smallest of its orbit.
    pub(super) fn is_canonical(&self, outer: &[usize]) -> bool {
        let p = u32::from(self.p);
        let mut image = vec![0u32; outer.len()];
        self.maps.iter().all(|(columns, offset)| {
            for (i, slot) in image.iter_mut().enumerate() {
                *slot = u32::from(offset[i]);
            }
            for (k, &o) in outer.iter().enumerate().filter(|&(_, &o)| o != 0) {
                for (slot, &e) in image.iter_mut().zip(&columns[k]) {
                    *slot += o as u32 * u32::from(e);
                }
            }
            // Compare as mixed-radix numbers, the most significant first.
            for i in (0..outer.len()).rev() {
                let v = image[i] % p;
                if v != outer[i] as u32 {
                    return v > outer[i] as u32;
                }
            }
            true
        })
    }

    /// Symmetries folded by.
    pub(super) fn symmetries(&self) -> usize {
        self.maps.len()
    }
}

fn inv(a: u32, p: u32) -> u32 {
    // a^(p−2) mod p, a ≠ 0.
    let (mut result, mut base, mut e) = (1u32, a % p, p - 2);
    while e > 0 {
        if e & 1 == 1 {
            result = result * base % p;
        }
        base = base * base % p;
        e >>= 1;
    }
    result
}

/// A subspace of GF(p)^d kept in reduced echelon form, to test membership.
#[derive(Clone, Default)]
struct Span {
    /// The vectors added, in order.
    vectors: Vec<Vec<u32>>,
    /// Reduced: (pivot, vector with 1 at the pivot).
    echelon: Vec<(usize, Vec<u32>)>,
}

impl Span {
    fn insert(&mut self, v: &[u32], p: u32) -> bool {
        let mut r = v.to_vec();
        for (pivot, e) in &self.echelon {
            let f = r[*pivot];
            if f != 0 {
                for (x, &y) in r.iter_mut().zip(e) {
                    *x = (*x + (p - f) * y) % p;
                }
            }
        }
        let Some(pivot) = r.iter().position(|&x| x != 0) else {
            return false;
        };
        let scale = inv(r[pivot], p);
        r.iter_mut().for_each(|x| *x = *x * scale % p);
        for (_, e) in &mut self.echelon {
            let f = e[pivot];
            if f != 0 {
                for (x, &y) in e.iter_mut().zip(&r) {
                    *x = (*x + (p - f) * y) % p;
                }
            }
        }
        self.echelon.push((pivot, r));
        self.vectors.push(v.to_vec());
        true
    }
}

/// The inverse of the d×d matrix of `columns` over GF(p), as columns.
fn invert(columns: &[Vec<u32>], p: u32) -> Option<Vec<Vec<u32>>> {
    let d = columns.len();
    // Rows of [T | I].
    let mut rows: Vec<Vec<u32>> = (0..d)
        .map(|i| (0..2 * d).map(|j| if j < d { columns[j][i] } else { u32::from(j - d == i) }).collect())
        .collect();
    for col in 0..d {
        let pivot = (col..d).find(|&i| rows[i][col] != 0)?;
        rows.swap(col, pivot);
        let scale = inv(rows[col][col], p);
        rows[col].iter_mut().for_each(|x| *x = *x * scale % p);
        let pivot_row = rows[col].clone();
        for (i, row) in rows.iter_mut().enumerate() {
            let f = row[col];
            if i != col && f != 0 {
                for (x, &y) in row.iter_mut().zip(&pivot_row) {
                    *x = (*x + (p - f) * y) % p;
                }
            }
        }
    }
    Some((0..d).map(|k| (0..d).map(|i| rows[i][d + k]).collect()).collect())
}

/// The folding of `x0 + span(gens)` over GF(p) (`p` prime, every generator
/// of order p and together independent) by the cell permutations
/// `symmetries` (each must keep the rule; those that do not fix the
/// right-hand side, seen as `σ(x0) − x0` outside the kernel, are left out),
/// with an invariant subspace of dimension at most `inner`; `None` when no
/// symmetry moves anything or no invariant subspace fits.
pub(super) fn fold(
    p: u8,
    x0: &[u8],
    gens: &[&[u8]],
    symmetries: &[Vec<usize>],
    inner: usize,
) -> Option<Folding> {
    let (d, pp) = (gens.len(), u32::from(p));
    if d < 2 || inner == 0 || inner >= d || symmetries.is_empty() {
        return None;
    }
    let (sys, pivots) = systematic(gens, pp)?;
    let actions: Vec<Action> =
        symmetries.iter().filter_map(|sigma| action(sigma, x0, &sys, &pivots, pp)).collect();
    if actions.is_empty() {
        return None;
    }
    let invariant = invariant_span(d, inner, &actions, pp);
    let m = invariant.vectors.len();
    if m == 0 {
        return None;
    }
    let columns = completed(invariant, d, pp);
    let inverse = invert(&columns, pp)?;
    let maps = actions.iter().map(|action| outer_map(action, &inverse, &columns, m, pp)).collect();
    let new_gens = columns.iter().map(|t| combine(t, &sys, x0.len(), pp)).collect();
    Some(Folding { gens: new_gens, invariant: m, maps, p })
}

/// How a symmetry acts on coordinates over the systematic basis: the
/// images of the basis vectors (columns) and `σ(x0) − x0` (the offset).
type Action = (Vec<Vec<u32>>, Vec<u32>);

/// The systematic form of `gens` (pattern j is 1 at pivot cell j and 0 at
/// the others) and its pivot cells; `None` if a generator reduces to 0.
fn systematic(gens: &[&[u8]], pp: u32) -> Option<(Vec<Vec<u8>>, Vec<usize>)> {
    let d = gens.len();
    let mut sys: Vec<Vec<u8>> = gens.iter().map(|g| g.to_vec()).collect();
    let mut pivots = Vec::with_capacity(d);
    for i in 0..d {
        let pivot = sys[i].iter().position(|&e| e != 0)?;
        let scale = inv(u32::from(sys[i][pivot]), pp);
        sys[i].iter_mut().for_each(|e| *e = (u32::from(*e) * scale % pp) as u8);
        let row = sys[i].clone();
        for (k, other) in sys.iter_mut().enumerate() {
            let f = u32::from(other[pivot]);
            if k != i && f != 0 {
                for (x, &y) in other.iter_mut().zip(&row) {
                    *x = ((u32::from(*x) + (pp - f) * u32::from(y)) % pp) as u8;
                }
            }
        }
        pivots.push(pivot);
    }
    Some((sys, pivots))
}

/// The action of the cell permutation `sigma` over the systematic basis
/// `sys` (coordinates of a kernel vector: its values at the `pivots`), or
/// `None` when it does not fix the right-hand side: it then maps solutions
/// to solutions of another board, not one to fold by.
fn action(sigma: &[usize], x0: &[u8], sys: &[Vec<u8>], pivots: &[usize], pp: u32) -> Option<Action> {
    let n = x0.len();
    let mut back = vec![0usize; n];
    for (c, &to) in sigma.iter().enumerate() {
        back[to] = c;
    }
    // `σ(v)[σ(c)] = v[c]`: σ(v) at pivot j is v at back[pivot j].
    let columns: Vec<Vec<u32>> =
        sys.iter().map(|q| pivots.iter().map(|&c| u32::from(q[back[c]]) % pp).collect()).collect();
    // σ(x0) − x0 over the systematic basis.
    let offset: Vec<u32> =
        pivots.iter().map(|&c| (u32::from(x0[back[c]]) + pp - u32::from(x0[c])) % pp).collect();
    // The offset read at the pivots is only right if σ(x0) − x0 lies in
    // the kernel's span, which a symmetry fixing the right-hand side
    // guarantees; checked on every cell all the same (cheap beside a
    // search that pays for folding).
    let delta_ok = (0..n).all(|c| {
        let delta = (u32::from(x0[back[c]]) + pp - u32::from(x0[c])) % pp;
        let spanned = offset.iter().zip(sys).fold(0u32, |a, (&o, q)| (a + o * u32::from(q[c])) % pp);
        delta == spanned
    });
    delta_ok.then_some((columns, offset))
}

/// `Σ_j v_j·columns[j]` (mod p): the matrix of `columns` applied to `v`.
fn apply(columns: &[Vec<u32>], v: &[u32], pp: u32) -> Vec<u32> {
    let mut out = vec![0u32; columns.first().map_or(0, Vec::len)];
    for (j, &vj) in v.iter().enumerate().filter(|&(_, &x)| x != 0) {
        for (o, &e) in out.iter_mut().zip(&columns[j]) {
            *o = (*o + vj * e) % pp;
        }
    }
    out
}

/// The invariant subspace of GF(p)^d: orbits' spans of unit vectors under
/// the `actions`, added while they fit in `inner` dimensions.
fn invariant_span(d: usize, inner: usize, actions: &[Action], pp: u32) -> Span {
    let mut invariant = Span::default();
    for j in 0..d {
        if invariant.vectors.len() == inner {
            break;
        }
        let mut trial = invariant.clone();
        let mut pending = vec![unit(d, j)];
        while let Some(v) = pending.pop() {
            if trial.vectors.len() > inner {
                break;
            }
            if trial.insert(&v, pp) {
                pending.extend(actions.iter().map(|(columns, _)| apply(columns, &v, pp)));
            }
        }
        if trial.vectors.len() <= inner {
            invariant = trial;
        }
    }
    invariant
}

/// Unit vector `j` of GF(p)^d.
fn unit(d: usize, j: usize) -> Vec<u32> {
    (0..d).map(|i| u32::from(i == j)).collect()
}

/// The new basis (over the systematic one): the invariant span's vectors,
/// then unit vectors completing it to GF(p)^d.
fn completed(invariant: Span, d: usize, pp: u32) -> Vec<Vec<u32>> {
    let mut columns = invariant.vectors.clone();
    let mut full = invariant;
    for j in 0..d {
        if full.insert(&unit(d, j), pp) {
            columns.push(unit(d, j));
        }
    }
    columns
}

/// An action over the new basis `columns` (`inverse` its inverse), on the
/// outer coefficients only (those past the `m` invariant ones), which is
/// all it depends on there.
fn outer_map(
    (linear, offset): &Action,
    inverse: &[Vec<u32>],
    columns: &[Vec<u32>],
    m: usize,
    pp: u32,
) -> (Vec<Vec<u8>>, Vec<u8>) {
    let outer_columns = columns[m..]
        .iter()
        .map(|column| apply(inverse, &apply(linear, column, pp), pp)[m..].iter().map(|&e| e as u8).collect())
        .collect();
    (outer_columns, apply(inverse, offset, pp)[m..].iter().map(|&e| e as u8).collect())
}

/// The pattern on `n` cells of coordinates `t` over the systematic basis
/// `sys`: `Σ_j t_j·sys[j]` (mod p).
fn combine(t: &[u32], sys: &[Vec<u8>], n: usize, pp: u32) -> Vec<u8> {
    let mut g = vec![0u32; n];
    for (j, &tj) in t.iter().enumerate().filter(|&(_, &x)| x != 0) {
        for (x, &e) in g.iter_mut().zip(&sys[j]) {
            *x = (*x + tj * u32::from(e)) % pp;
        }
    }
    g.into_iter().map(|e| e as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::super::{minimize, minimize_symmetric};
    use super::*;
    use crate::model::{Puzzle, StateGrid, Topology};
    use crate::solve::minimal::grid_symmetries;
    use crate::zk::Modulus;
    use crate::{Game, Method, StateSolver, StateTarget};

    /// Folded equals unfolded: the same weight, a press set that solves the
    /// board, on boards that the symmetries fix (uniform ones) and boards
    /// that they do not.
    #[test]
    fn folded_equals_unfolded() {
        let cases = [
            (Puzzle::new(5, 5).unwrap(), 3u8),
            (Puzzle::new(17, 17).unwrap(), 3),
            (Puzzle::new(11, 29).unwrap(), 3),
            (Puzzle::new(6, 6).unwrap().with_topology(Topology::Torus), 3),
            (Puzzle::new(5, 5).unwrap().with_topology(Topology::Torus), 5),
            (Puzzle::new(4, 4).unwrap(), 5),
        ];
        let mut folded_some = 0;
        for (puzzle, k) in cases {
            let states = Modulus::new(u32::from(k)).unwrap();
            let solver = StateSolver::new(&puzzle, states, Method::Auto, 40, 1 << 32).unwrap();
            let gens: Vec<(&[u8], u32)> =
                solver.quiet_patterns().iter().map(|(g, o)| (g.cells(), *o)).collect();
            let symmetries = grid_symmetries(&puzzle);
            let (rows, cols) = (puzzle.rows(), puzzle.cols());
            let random =
                StateGrid::from_fn(rows, cols, |r, c| ((r * 7 + c * 3 + r * c) % usize::from(k)) as u8);
            for board in [StateGrid::filled(rows, cols, 1), StateGrid::zeros(rows, cols), random] {
                for target in StateTarget::any(states) {
                    let Some(x) = solver.particular_to(&board, &target).unwrap() else { continue };
                    let plain = minimize(k, x.cells(), &gens, 40);
                    let folded = minimize_symmetric(k, x.cells(), &gens, 40, &symmetries, 0);
                    let what = format!("{rows}x{cols} K={k} target {target:?}");
                    assert_eq!(folded.total, plain.total, "{what}");
                    assert!(folded.proven_minimal, "{what}");
                    let presses = StateGrid::from_cells(rows, cols, folded.presses).unwrap();
                    let reached = solver.apply(&board, &presses).unwrap();
                    let goal = match &target {
                        StateTarget::Uniform(s) => StateGrid::filled(rows, cols, *s),
                        StateTarget::Board(g) => g.clone(),
                    };
                    assert_eq!(reached, goal, "{what}: the folded press set does not solve the board");
                    let cosets: Vec<&[u8]> = gens.iter().map(|g| g.0).collect();
                    if fold(k, x.cells(), &cosets, &symmetries, gens.len().saturating_sub(2)).is_some() {
                        folded_some += 1;
                    }
                }
            }
        }
        assert!(folded_some > 10, "{folded_some}");
    }

    #[test]
    fn blocks_fold_into_orbits_of_the_smallest() {
        // 17x17 over Z_3, all 1s to 0: eight symmetries, nullity 12.
        let puzzle = Puzzle::new(17, 17).unwrap();
        let states = Modulus::new(3).unwrap();
        let solver = StateSolver::new(&puzzle, states, Method::Auto, 40, 1 << 32).unwrap();
        let board = StateGrid::filled(17, 17, 1);
        let x = solver.particular_to(&board, &StateTarget::Uniform(0)).unwrap().unwrap();
        let gens: Vec<&[u8]> = solver.quiet_patterns().iter().map(|(g, _)| g.cells()).collect();
        let folding = fold(3, x.cells(), &gens, &grid_symmetries(&puzzle), 6).unwrap();
        assert_eq!(folding.symmetries(), 7);
        let outer = gens.len() - folding.invariant;
        let blocks = 3usize.pow(outer as u32);
        let canonical = (0..blocks)
            .filter(|&b| {
                let digits: Vec<usize> = (0..outer).map(|i| b / 3usize.pow(i as u32) % 3).collect();
                folding.is_canonical(&digits)
            })
            .count();
        // Fewer blocks weighed, at least one per orbit of 8.
        assert!(canonical < blocks && canonical * 8 >= blocks, "{canonical} of {blocks}");
    }
}
