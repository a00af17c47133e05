//! Symmetry: when a problem looks the same turned or mirrored, so does its
//! set of solutions, and a search needs only one block per orbit.
//!
//! A symmetry `g` of the board (a turn or a mirror image) that maps the
//! rule's flips onto themselves commutes with the flip matrix `A`. If it
//! also fixes the right-hand side `b + t` (the all-black board to white
//! always does), it maps every solution to a solution of the same weight.
//! On masks it acts as an affine map `s ↦ M_g·s + c_g`. The search picks a
//! basis whose first `m` patterns span a subspace `U` that every `M_g` maps
//! onto itself: then `g` maps each block (a coset of `U`, one value of the
//! outer bits) onto a whole block, the blocks fall into orbits of equal
//! lightest weight, and only the smallest block of each orbit is weighed.

use crate::model::{Grid, Puzzle};

/// Most quiet patterns a symmetric basis is built over (its masks are
/// `u64`); larger null spaces are searched unfolded.
pub const MAX_SYMMETRIC_NULLITY: usize = 63;

/// The motions whose bits are set in `motions` (bit k for
/// `Motion::ALL[k]`), named ("half turn and transpose").
pub(crate) fn motion_names(motions: u8) -> String {
    let names: Vec<&str> = Motion::ALL
        .iter()
        .enumerate()
        .filter(|&(k, _)| motions >> k & 1 == 1)
        .map(|(_, m)| m.name())
        .collect();
    match names.split_last() {
        None => String::new(),
        Some((last, [])) => (*last).to_string(),
        Some((last, rest)) => format!("{} and {last}", rest.join(", ")),
    }
}

impl crate::solve::FixedSpaceSearch {
    /// The motions fixing the subspace, named ("half turn and transpose").
    pub fn motion_names(&self) -> String {
        motion_names(self.motions)
    }
}

/// A turn or mirror image of the board: where cell (r, c) goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Motion {
    Rotate90,
    Rotate180,
    Rotate270,
    MirrorRows,
    MirrorCols,
    Transpose,
    AntiTranspose,
}

impl Motion {
    pub(crate) const ALL: [Motion; 7] = [
        Motion::Rotate90,
        Motion::Rotate180,
        Motion::Rotate270,
        Motion::MirrorRows,
        Motion::MirrorCols,
        Motion::Transpose,
        Motion::AntiTranspose,
    ];

    /// Whether the motion maps a rows × cols board onto itself.
    fn fits(self, rows: usize, cols: usize) -> bool {
        matches!(self, Motion::Rotate180 | Motion::MirrorRows | Motion::MirrorCols) || rows == cols
    }

    /// Where the motion sends each cell `r·cols + c` of a rows×cols grid.
    fn cell_map(self, rows: usize, cols: usize) -> Vec<usize> {
        (0..rows * cols)
            .map(|cell| {
                let (r, c) = self.apply((cell / cols, cell % cols), rows, cols);
                r * cols + c
            })
            .collect()
    }

    fn apply(self, (r, c): (usize, usize), rows: usize, cols: usize) -> (usize, usize) {
        let (last_r, last_c) = (rows - 1, cols - 1);
        match self {
            Motion::Rotate90 => (c, last_r - r),
            Motion::Rotate180 => (last_r - r, last_c - c),
            Motion::Rotate270 => (last_c - c, r),
            Motion::MirrorRows => (last_r - r, c),
            Motion::MirrorCols => (r, last_c - c),
            Motion::Transpose => (c, r),
            Motion::AntiTranspose => (last_c - c, last_r - r),
        }
    }

    fn inverse(self) -> Motion {
        match self {
            Motion::Rotate90 => Motion::Rotate270,
            Motion::Rotate270 => Motion::Rotate90,
            other => other,
        }
    }

    /// What the motion is called in a note.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Motion::Rotate90 => "quarter turn",
            Motion::Rotate180 => "half turn",
            Motion::Rotate270 => "three-quarter turn",
            Motion::MirrorRows => "top-bottom mirror",
            Motion::MirrorCols => "left-right mirror",
            Motion::Transpose => "transpose",
            Motion::AntiTranspose => "anti-transpose",
        }
    }

    /// The grid moved: cell `g(r, c)` of the result holds cell (r, c).
    pub(crate) fn grid(self, grid: &Grid) -> Grid {
        let (rows, cols) = (grid.nrows(), grid.ncols());
        let back = self.inverse();
        Grid::from_fn(rows, cols, |r, c| {
            let (r0, c0) = back.apply((r, c), rows, cols);
            grid.get(r0, c0)
        })
    }

    /// Whether pressing `g(cell)` flips exactly `g` of what pressing `cell` flips.
    fn keeps_rule(self, puzzle: &Puzzle) -> bool {
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        (0..rows).all(|r| {
            (0..cols).all(|c| {
                let mut moved: Vec<(usize, usize)> =
                    puzzle.flipped_by(r, c).into_iter().map(|cell| self.apply(cell, rows, cols)).collect();
                moved.sort_unstable();
                let (gr, gc) = self.apply((r, c), rows, cols);
                moved == puzzle.flipped_by(gr, gc)
            })
        })
    }
}

/// The turns and mirrors of a grid puzzle that keep its rule, each as the
/// cell it sends cell `r·cols + c` to (none on a graph: see
/// [`symmetric_basis`]). The K-state search folds by those of them that
/// also fix its right-hand side.
pub(crate) fn grid_symmetries(puzzle: &Puzzle) -> Vec<Vec<usize>> {
    if puzzle.graph().is_some() {
        return Vec::new();
    }
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    Motion::ALL
        .into_iter()
        .filter(|m| m.fits(rows, cols) && m.keeps_rule(puzzle))
        .map(|m| m.cell_map(rows, cols))
        .collect()
}

/// The motions that are symmetries of the problem: they map the board
/// onto itself, keep the rule's flips and fix the right-hand side `rhs`
/// (board plus target), so they map solutions to solutions of the same
/// weight. None on a graph (see [`symmetric_basis`]); a motion that moves
/// no cell (a mirror of a board one row high) is left out.
pub(crate) fn problem_motions(puzzle: &Puzzle, rhs: &Grid) -> Vec<Motion> {
    if puzzle.graph().is_some() {
        return Vec::new();
    }
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let moves_a_cell =
        |m: Motion| (0..rows).any(|r| (0..cols).any(|c| m.apply((r, c), rows, cols) != (r, c)));
    Motion::ALL
        .into_iter()
        .filter(|&m| m.fits(rows, cols) && moves_a_cell(m) && m.grid(rhs) == *rhs && m.keeps_rule(puzzle))
        .collect()
}

/// How the symmetries move the blocks of a search: for each symmetry, the
/// affine map `o ↦ offset ⊕ Σ_(bit k of o) columns[k]` on outer values.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BlockOrbits {
    maps: Vec<(Vec<u64>, u64)>,
}

impl BlockOrbits {
    /// Whether block `outer` is the smallest of its orbit (the one weighed).
    pub fn is_canonical(&self, outer: u64) -> bool {
        self.maps.iter().all(|(columns, offset)| {
            let mut image = *offset;
            let mut bits = outer;
            while bits != 0 {
                image ^= columns[bits.trailing_zeros() as usize];
                bits &= bits - 1;
            }
            image >= outer
        })
    }

    /// How many symmetries besides the identity.
    pub fn symmetries(&self) -> usize {
        self.maps.len()
    }
}

/// A basis of the quiet patterns adapted to the symmetries of a problem.
pub struct SymmetricBasis {
    /// The new basis: its first `invariant` patterns span the subspace
    /// every symmetry maps onto itself.
    pub basis: Vec<Grid>,
    /// Dimension of that subspace.
    pub invariant: usize,
    /// `to_original[k]`: the mask over the original basis that equals new
    /// pattern k.
    pub to_original: Vec<u64>,
    /// How the symmetries move blocks whose inner bits are the first
    /// `invariant`.
    pub orbits: BlockOrbits,
}

/// The basis for a symmetric search of `x + span(quiet)`, the solutions of
/// `puzzle` for right-hand side `rhs`, with an invariant subspace of
/// dimension at most `inner` (and as close to it as the orbits allow), or
/// `None` when the problem has no symmetry to use (or more than 63
/// patterns).
pub fn symmetric_basis(
    puzzle: &Puzzle,
    rhs: &Grid,
    x: &Grid,
    quiet: &[Grid],
    inner: usize,
) -> Option<SymmetricBasis> {
    let d = quiet.len();
    // The motions are of a grid. A puzzle on a graph is a board of one
    // row, which the mirror maps onto itself, but reversing the vertex
    // order is no symmetry of a graph in general (and where it happens to
    // be one, it is one of many automorphisms this does not look for):
    // graphs fold by none.
    if d == 0 || d > MAX_SYMMETRIC_NULLITY || inner >= d || puzzle.graph().is_some() {
        return None;
    }
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let motions: Vec<Motion> = Motion::ALL
        .into_iter()
        .filter(|m| m.fits(rows, cols) && m.grid(rhs) == *rhs && m.keeps_rule(puzzle))
        .collect();
    if motions.is_empty() {
        return None;
    }
    let (systematic, pivots, from_original) = systematic(quiet)?;
    let actions: Vec<MaskAction> =
        motions.iter().filter_map(|&m| mask_action(m, x, &systematic, &pivots)).collect();
    if actions.is_empty() {
        return None;
    }
    let invariant = invariant_span(d, inner, &actions);
    let m = invariant.len();
    if m == 0 {
        return None;
    }
    let columns = completed(invariant, d);
    let inverse = invert(&columns)?;
    // In new coordinates, motion g maps s to T⁻¹(M_g·T·s + c_g); its outer
    // part depends only on the outer part of s.
    let maps = actions
        .iter()
        .map(|(linear, offset)| {
            let outer_columns =
                columns[m..].iter().map(|&t| apply(&inverse, apply(linear, t)) >> m).collect();
            (outer_columns, apply(&inverse, *offset) >> m)
        })
        .collect();
    let basis = columns.iter().map(|&t| combine(t, &systematic, rows, cols)).collect();
    let to_original = columns.iter().map(|&t| apply(&from_original, t)).collect();
    Some(SymmetricBasis { basis, invariant: m, to_original, orbits: BlockOrbits { maps } })
}

/// How a motion acts on masks over the systematic basis: the images of
/// the basis patterns (columns) and the offset.
type MaskAction = (Vec<u64>, u64);

/// The action of motion `m` on masks over the `systematic` basis (with its
/// `pivots`), for the coset `x + span`; `None` unless it maps the coset
/// onto itself: always so for all the solutions, not for a subspace of
/// them (the members a transpose fixes, turned a quarter, are those the
/// anti-transpose fixes).
fn mask_action(m: Motion, x: &Grid, systematic: &[Grid], pivots: &[(usize, usize)]) -> Option<MaskAction> {
    let images: Vec<Grid> = systematic.iter().map(|q| m.grid(q)).collect();
    let columns: Vec<u64> = images.iter().map(|v| coordinates(v, pivots)).collect();
    let mut moved = m.grid(x);
    moved.xor_assign(x);
    let offset = coordinates(&moved, pivots);
    let maps_onto_itself = images.iter().zip(&columns).all(|(v, &c)| in_span(v, c, systematic))
        && in_span(&moved, offset, systematic);
    maps_onto_itself.then_some((columns, offset))
}

/// Coordinates over the systematic basis: the values at the pivot cells.
fn coordinates(v: &Grid, pivots: &[(usize, usize)]) -> u64 {
    pivots.iter().enumerate().fold(0u64, |s, (j, &(r, c))| s | (v.get(r, c) as u64) << j)
}

/// Whether `v` is the member of span(systematic) its coordinates name.
fn in_span(v: &Grid, coords: u64, systematic: &[Grid]) -> bool {
    let mut rest = v.clone();
    for (_, q) in systematic.iter().enumerate().filter(|&(j, _)| coords >> j & 1 == 1) {
        rest.xor_assign(q);
    }
    rest.is_zero()
}

/// The matrix of `columns` applied to the mask `v`.
fn apply(columns: &[u64], v: u64) -> u64 {
    (0..columns.len()).filter(|&j| v >> j & 1 == 1).fold(0u64, |a, j| a ^ columns[j])
}

/// The invariant subspace of masks of `d` bits: orbits' spans of unit
/// vectors under the `actions`, added while they fit in `inner` dimensions.
fn invariant_span(d: usize, inner: usize, actions: &[MaskAction]) -> Span {
    let mut invariant = Span::default();
    for j in 0..d {
        if invariant.len() == inner {
            break;
        }
        let mut trial = invariant.clone();
        let mut pending = vec![1u64 << j];
        while let Some(v) = pending.pop() {
            if trial.insert(v) {
                pending.extend(actions.iter().map(|(columns, _)| apply(columns, v)));
            }
        }
        if trial.len() <= inner {
            invariant = trial;
        }
    }
    invariant
}

/// The new basis (as masks over the systematic one): the invariant span,
/// then unit vectors completing it.
fn completed(invariant: Span, d: usize) -> Vec<u64> {
    let mut columns: Vec<u64> = invariant.vectors.clone();
    let mut full = invariant;
    for j in 0..d {
        if full.insert(1u64 << j) {
            columns.push(1u64 << j);
        }
    }
    columns
}

/// The pattern whose mask over `parts` is `mask`.
fn combine(mask: u64, parts: &[Grid], rows: usize, cols: usize) -> Grid {
    let mut g = Grid::zeros(rows, cols);
    for (j, p) in parts.iter().enumerate() {
        if mask >> j & 1 == 1 {
            g.xor_assign(p);
        }
    }
    g
}

/// The turns and mirrors (besides the identity) that map the problem of
/// `puzzle` with right-hand side `rhs` onto itself, each as where cell
/// `r·cols + c` goes (for branch and bound's folding); none for a graph.
pub fn cell_motions(puzzle: &Puzzle, rhs: &Grid) -> Vec<Vec<usize>> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if puzzle.graph().is_some() {
        return Vec::new();
    }
    Motion::ALL
        .into_iter()
        .filter(|m| m.fits(rows, cols) && m.grid(rhs) == *rhs && m.keeps_rule(puzzle))
        .map(|m| m.cell_map(rows, cols))
        .collect()
}

/// A basis in systematic form: the patterns, their pivot cells and, per
/// pattern, its mask over the original basis.
type Systematic = (Vec<Grid>, Vec<(usize, usize)>, Vec<u64>);

/// The basis brought to systematic form: pattern j is 1 at pivot cell j
/// and 0 at the other pivots (`None` if `quiet` is not independent).
fn systematic(quiet: &[Grid]) -> Option<Systematic> {
    let mut rows: Vec<(Grid, u64)> = quiet.iter().enumerate().map(|(j, q)| (q.clone(), 1u64 << j)).collect();
    let mut pivots = Vec::with_capacity(quiet.len());
    for i in 0..rows.len() {
        let (r, c) = first_one(&rows[i].0)?;
        for k in 0..rows.len() {
            if k != i && rows[k].0.get(r, c) {
                let (pattern, mask) = (rows[i].0.clone(), rows[i].1);
                rows[k].0.xor_assign(&pattern);
                rows[k].1 ^= mask;
            }
        }
        pivots.push((r, c));
    }
    let (patterns, masks) = rows.into_iter().unzip();
    Some((patterns, pivots, masks))
}

fn first_one(g: &Grid) -> Option<(usize, usize)> {
    (0..g.nrows()).find_map(|r| (0..g.ncols()).find(|&c| g.get(r, c)).map(|c| (r, c)))
}

/// The inverse of the d×d matrix whose columns are `columns` (masks of d
/// bits), as columns too; `None` if singular.
fn invert(columns: &[u64]) -> Option<Vec<u64>> {
    let d = columns.len();
    let columns: Vec<u128> = columns.iter().map(|&c| u128::from(c)).collect();
    // The rows of T are its columns transposed, and the columns of T⁻¹
    // its rows transposed; d ≤ 64, so they fit back in u64.
    let inverse = inverse_rows(&transpose(&columns, d), d)?;
    Some(transpose(&inverse, d).into_iter().map(|c| c as u64).collect())
}

/// The rows of the inverse of the d×d matrix with rows `rows` (row i: bit
/// k is entry (i, k)); `None` if singular.
pub(super) fn inverse_rows(rows: &[u128], d: usize) -> Option<Vec<u128>> {
    // Gauss–Jordan on [M | I]; afterwards the right half is M⁻¹ by rows.
    let mut work: Vec<(u128, u128)> = rows[..d].iter().enumerate().map(|(i, &r)| (r, 1u128 << i)).collect();
    for col in 0..d {
        let pivot = (col..d).find(|&i| work[i].0 >> col & 1 == 1)?;
        work.swap(col, pivot);
        for i in 0..d {
            if i != col && work[i].0 >> col & 1 == 1 {
                work[i].0 ^= work[col].0;
                work[i].1 ^= work[col].1;
            }
        }
    }
    Some(work.into_iter().map(|(_, inverse)| inverse).collect())
}

/// The transpose of the d×d matrix with rows `rows`: row j of the result
/// has bit k = bit j of row k.
pub(super) fn transpose(rows: &[u128], d: usize) -> Vec<u128> {
    (0..d).map(|j| (0..d).fold(0u128, |acc, k| acc | (rows[k] >> j & 1) << k)).collect()
}

/// A linear span of masks, kept in echelon form to test membership.
#[derive(Clone, Debug, Default)]
struct Span {
    /// The vectors added, in order (a basis of the span).
    vectors: Vec<u64>,
    /// The same span reduced: (leading bit, vector).
    echelon: Vec<(u32, u64)>,
}

impl Span {
    fn len(&self) -> usize {
        self.vectors.len()
    }

    /// Adds `v`; false if it was already in the span.
    fn insert(&mut self, v: u64) -> bool {
        let mut r = v;
        for &(lead, e) in &self.echelon {
            if r >> lead & 1 == 1 {
                r ^= e;
            }
        }
        if r == 0 {
            return false;
        }
        let lead = 63 - r.leading_zeros();
        for entry in &mut self.echelon {
            if entry.1 >> lead & 1 == 1 {
                entry.1 ^= r;
            }
        }
        self.echelon.push((lead, r));
        self.vectors.push(v);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn motions_and_inverses() {
        let g = Grid::from_fn(3, 3, |r, c| r * 3 + c == 1 || r * 3 + c == 5);
        for m in Motion::ALL {
            assert_eq!(m.inverse().grid(&m.grid(&g)), g, "{m:?}");
        }
        let t = Grid::from_fn(2, 3, |r, c| r == 0 && c == 2);
        assert_eq!(Motion::MirrorCols.grid(&t), Grid::from_fn(2, 3, |r, c| r == 0 && c == 0));
    }

    /// The plus rule is kept by every turn and mirror of a square; a rule
    /// with one corner added, only by the mirror through that corner's
    /// diagonal (27x35 with it has nullity 5, too small for an integration
    /// test to reach this check).
    #[test]
    fn motions_keep_a_rule_only_when_it_is_symmetric() {
        let plus = Puzzle::new(6, 6).unwrap();
        assert!(Motion::ALL.iter().all(|m| m.keeps_rule(&plus)));
        let skew =
            Puzzle::new(6, 6).unwrap().with_rule(crate::model::Rule::from_mask("110/111/010").unwrap());
        let kept: Vec<Motion> = Motion::ALL.into_iter().filter(|m| m.keeps_rule(&skew)).collect();
        assert_eq!(kept, vec![Motion::Transpose]);
        // The torus keeps the same motions as the plane.
        let torus = Puzzle::new(6, 6).unwrap().with_topology(crate::model::Topology::Torus);
        assert!(Motion::ALL.iter().all(|m| m.keeps_rule(&torus)));
    }

    #[test]
    fn inverse_of_a_matrix() {
        let columns = vec![0b011u64, 0b110, 0b001];
        let inverse = invert(&columns).unwrap();
        let apply = |m: &[u64], v: u64| (0..3).filter(|&j| v >> j & 1 == 1).fold(0u64, |a, j| a ^ m[j]);
        for v in 0..8u64 {
            assert_eq!(apply(&inverse, apply(&columns, v)), v);
        }
        assert!(invert(&[0b01, 0b01]).is_none());
    }
}
