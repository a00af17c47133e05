//! Strong answers at once past the exhaustive budget: the solutions that a
//! symmetry of the problem maps to themselves.
//!
//! A symmetry `g` of the problem (see [`problem_motions`]) maps the coset of
//! solutions `x + span(quiet)` onto itself by an affine map. The members it
//! fixes, `g(m) = m`, form an empty set or an affine subspace: for a
//! motion of order two (a half turn, a mirror) of dimension between d/2
//! and d, since `g − 1` squares to zero. The members fixed by several
//! motions at once (all of a subgroup) are the intersection, smaller
//! still. Light press sets of symmetric problems are often symmetric
//! themselves (the known minima of the all-black square boards are), so an
//! exhaustive search of each small subspace, and a local search inside
//! each large one, finds strong answers in seconds where the whole coset
//! is out of reach; a local search over the whole coset then starts from
//! the best of them. Nothing here is a proof: the answer is proven minimal
//! only when it meets the coset's lower bound.

use std::collections::HashSet;

use super::coset::Coset;
use super::local::{Budget, improve};
#[cfg(test)]
use super::symmetry::motion_names;
use super::symmetry::{Motion, problem_motions};
use super::{MAX_KEY_BITS, greedy, search_blocks};
use crate::model::{Grid, Puzzle};
use crate::solve::answer::{FixedSpaceSearch, Start, SymmetricSearch};
use crate::solve::slices::Mask;

/// Largest fixed subspace searched exhaustively, in bits: 2^36 members
/// take a few seconds on two cores (docs/performance.md).
pub const MAX_FIXED_EXHAUSTIVE_BITS: usize = 36;

/// Members weighed exhaustively over all fixed subspaces of one problem
/// (after folding by their own symmetries), cheapest subspaces first, so
/// that a board of large nullity (many subspaces just under the cap) does
/// not stall: 2^31 members (79x79's half turn, folded) take 2 to 3 s on
/// the two shared cores here, 159x159's 2^32 of the quarter turn 9 s, past
/// the budget (docs/performance.md).
pub const FIXED_EXHAUSTIVE_BUDGET: u64 = 3 << 30;

/// Most cells × patterns the fixed subspaces are worked out for: moving
/// and eliminating d grids costs O(d² · R·C / 64) word operations and
/// holds a few copies of the patterns (4 MiB each at the limit), a fraction
/// of a second here; past it (8000x8000, nullity 80) the answer is the
/// local search's alone.
pub const MAX_FIXED_CELL_PATTERNS: usize = 1 << 25;

/// The members of a coset that some motions fix: `x + span(basis)`.
#[derive(Clone, Debug)]
pub struct FixedSpace {
    /// A member fixed by the motions.
    pub x: Grid,
    /// A basis of the fixed patterns (independent).
    pub basis: Vec<Grid>,
    /// Every motion that fixes each member (bit k for `Motion::ALL[k]`):
    /// those asked for and any that follow from them.
    motions: u8,
}

impl FixedSpace {
    /// Dimension of the subspace.
    pub fn dimension(&self) -> usize {
        self.basis.len()
    }

    /// Whether `h` maps this space onto `other`: the images of its member
    /// and basis are all fixed by `other`'s motions, so the image lies in
    /// `other`, and the dimensions are equal.
    fn maps_onto(&self, h: Motion, other: &FixedSpace) -> bool {
        let fixes = |v: &Grid| {
            let image = h.grid(v);
            Motion::ALL
                .iter()
                .enumerate()
                .filter(|&(k, _)| other.motions >> k & 1 == 1)
                .all(|(_, g)| g.grid(&image) == image)
        };
        self.dimension() == other.dimension() && fixes(&self.x) && self.basis.iter().all(fixes)
    }

    /// The motions that fix it, named ("half turn and transpose").
    #[cfg(test)]
    pub fn motion_names(&self) -> String {
        motion_names(self.motions)
    }
}

/// Every distinct non-empty subspace of `x + span(quiet)` fixed by a set of
/// the problem's symmetries (`puzzle` with right-hand side `rhs`), the
/// whole coset excepted, smallest first (ties: by the set of motions).
///
/// Two sets of motions that fix the same members give one subspace (the
/// quarter turn and the three-quarter turn, say): each is keyed by every
/// motion that fixes all of it.
///
/// # Complexity
/// At most a few dozen eliminations of d + 1 grids each, O(d² · R·C / 64)
/// word operations apiece.
pub fn fixed_spaces(puzzle: &Puzzle, rhs: &Grid, x: &Grid, quiet: &[Grid]) -> Vec<FixedSpace> {
    let motions = problem_motions(puzzle, rhs);
    let bit = |m: Motion| 1u8 << Motion::ALL.iter().position(|&a| a == m).unwrap_or(0);
    let mut seen = HashSet::new();
    let mut found: Vec<FixedSpace> = Vec::new();
    let mut pending = vec![FixedSpace { x: x.clone(), basis: quiet.to_vec(), motions: 0 }];
    while let Some(space) = pending.pop() {
        for &g in motions.iter().filter(|&&g| space.motions & bit(g) == 0) {
            let Some((x, basis)) = restrict(&space.x, &space.basis, g) else {
                continue;
            };
            let fixes_all = |m: &Motion| m.grid(&x) == x && basis.iter().all(|b| m.grid(b) == *b);
            let more = motions.iter().filter(|m| fixes_all(m)).fold(0u8, |t, &m| t | bit(m));
            let key = space.motions | bit(g) | more;
            if seen.insert(key) {
                let child = FixedSpace { x, basis, motions: key };
                found.push(child.clone());
                pending.push(child);
            }
        }
    }
    found.sort_by_key(|s| (s.dimension(), s.motions));
    found
}

/// The members of `x + span(basis)` that `g` fixes, as a member and a basis
/// of patterns, or `None` when it fixes none.
///
/// `m = x + Σ s_j b_j` is fixed when `(g − 1)x + Σ s_j (g − 1)b_j = 0`: the
/// images `(g − 1)b_j` are eliminated in order, each remembering which
/// patterns it combines; those that vanish give a basis of the solutions
/// `s` of the homogeneous system, and `(g − 1)x` reduced to zero gives one
/// solution of the whole.
fn restrict(x: &Grid, basis: &[Grid], g: Motion) -> Option<(Grid, Vec<Grid>)> {
    let e = basis.len();
    let moved = |v: &Grid| {
        let mut image = g.grid(v);
        image.xor_assign(v);
        image
    };
    // (pivot cell, reduced image, its combination of b_0 … b_(e−1), x).
    let mut pivots: Vec<((usize, usize), Grid, Grid)> = Vec::new();
    let mut kernel: Vec<Grid> = Vec::new();
    let mut particular = None;
    for (j, v) in basis.iter().chain(std::iter::once(x)).enumerate() {
        let mut image = moved(v);
        let mut combination = Grid::zeros(1, e + 1);
        combination.set(0, j, true);
        for (cell, pivot, with) in &pivots {
            if image.get(cell.0, cell.1) {
                image.xor_assign(pivot);
                combination.xor_assign(with);
            }
        }
        match (first_one(&image), j < e) {
            (Some(cell), true) => pivots.push((cell, image, combination)),
            (Some(_), false) => return None,
            (None, true) => kernel.push(combination),
            (None, false) => particular = Some(combination),
        }
    }
    let combine = |mut sum: Grid, combination: &Grid| {
        for (j, b) in basis.iter().enumerate() {
            if combination.get(0, j) {
                sum.xor_assign(b);
            }
        }
        sum
    };
    let fixed_x = combine(x.clone(), &particular?);
    let zero = Grid::zeros(x.nrows(), x.ncols());
    Some((fixed_x, kernel.iter().map(|k| combine(zero.clone(), k)).collect()))
}

/// The first cell set in `g`, in row-major order, a word at a time.
fn first_one(g: &Grid) -> Option<(usize, usize)> {
    (0..g.nrows()).find_map(|r| {
        g.words(r)
            .iter()
            .enumerate()
            .find(|(_, w)| **w != 0)
            .map(|(i, w)| (r, i * 64 + w.trailing_zeros() as usize))
    })
}

/// Members an exhaustive search of `coset` weighs (its blocks after
/// folding, each of the same size), or `None` past
/// [`MAX_FIXED_EXHAUSTIVE_BITS`].
fn exhaustive_cost(coset: &Coset) -> Option<u64> {
    if coset.nullity() > MAX_FIXED_EXHAUSTIVE_BITS {
        return None;
    }
    let layout = coset.layout();
    let weighed = (0..layout.blocks()).filter(|&b| coset.weighs_block(b)).count() as u64;
    Some(weighed * layout.block_members())
}

/// A press set found without a proof, and how.
#[derive(Clone, Debug)]
pub struct Incumbent {
    /// The presses: a member of the coset.
    pub presses: Grid,
    /// No member of the coset is lighter than this.
    pub lower_bound: u64,
    /// How it was found: where the search started, the fixed subspace
    /// whose member beat the start, and whether a local search then did.
    pub found_by: SymmetricSearch,
}

impl Incumbent {
    /// Whether the press set is proven minimal: it meets the lower bound.
    pub fn proven(&self) -> bool {
        self.presses.count_ones() as u64 <= self.lower_bound
    }
}

/// A lighter member of `x + span(quiet)` (the solutions of `puzzle` for
/// right-hand side `rhs`) than `start`, if the fixed subspaces hold one
/// (`None` when the problem has no symmetry, or more cells × patterns than
/// [`MAX_FIXED_CELL_PATTERNS`]):
/// each searched exhaustively when it has at most 2^36 members (within a
/// total of [`FIXED_EXHAUSTIVE_BUDGET`] members weighed, cheapest first;
/// spaces that a symmetry maps onto each other searched once), by a
/// local search inside it otherwise; then a local search over the whole
/// coset from the best found. `start` (found as `start_found_by` says) is a
/// member of the coset; it is kept unless something strictly lighter is
/// found.
///
/// Deterministic: of members of equal weight the one found first is kept,
/// `start` first, then the subspaces in the order of [`fixed_spaces`], and
/// inside an exhaustive search the smallest mask.
///
/// # Complexity
/// [`fixed_spaces`], then at most [`FIXED_EXHAUSTIVE_BUDGET`] members
/// weighed by transforms and a default local search per subspace.
pub fn improve_with_symmetry(
    puzzle: &Puzzle,
    rhs: &Grid,
    quiet: &[Grid],
    start: Grid,
    start_found_by: Start,
) -> Option<Incumbent> {
    // The size first: finding the motions weighs every cell's flips.
    if puzzle.cells().saturating_mul(quiet.len()) > MAX_FIXED_CELL_PATTERNS {
        return None;
    }
    let motions = problem_motions(puzzle, rhs);
    if motions.is_empty() {
        return None;
    }
    let lower_bound = lower_bound(&start, quiet);
    let mut best = (start.count_ones(), start, None);
    let mut spent = 0u64;
    let spaces = fixed_spaces(puzzle, rhs, &best.1, quiet);
    let mut searched: Vec<&FixedSpace> = Vec::new();
    let mut plans = Vec::new();
    for space in &spaces {
        // A space that a symmetry maps onto one kept already (the members
        // a mirror fixes, turned a quarter, are those the other mirror
        // fixes) holds members of the same weights.
        if searched.iter().any(|b| motions.iter().any(|&h| space.maps_onto(h, b))) {
            continue;
        }
        searched.push(space);
        // The space's own symmetries fold its search where they pay.
        let coset = Coset::for_problem(puzzle, rhs, &space.x, &space.basis);
        let cost = exhaustive_cost(&coset);
        plans.push((cost, space, coset));
    }
    // Cheapest first (ties: in the order of `fixed_spaces`, as the sort
    // is stable), so that the budget goes to as many spaces as it covers.
    plans.sort_by_key(|plan| plan.0);
    for (cost, space, coset) in plans {
        let e = space.dimension();
        let exhaustive = cost.is_some_and(|members| spent + members <= FIXED_EXHAUSTIVE_BUDGET);
        let mask = if exhaustive {
            spent += cost.unwrap_or(0);
            let found = search_blocks(&coset, 0..coset.layout().blocks(), false);
            found.map_or(Mask::ZERO, |b| b.mask)
        } else {
            improve(&coset, &Budget::default()).best.mask
        };
        let member = coset.member(&space.x, &space.basis, mask);
        let weight = member.count_ones();
        if weight < best.0 {
            let found_by = FixedSpaceSearch { exhaustive, dimension: e, motions: space.motions };
            best = (weight, member, Some(found_by));
        }
        if best.0 as u64 <= lower_bound {
            break;
        }
    }
    // A local search over the whole coset from the best so far: its coset
    // has that member as mask 0, where the search starts. Past a key's
    // width it moves along the first patterns only, and a descent over
    // whole patterns follows.
    let (weight, presses, space) = best;
    let coset = Coset::new(&presses, quiet);
    let mut polished = coset.member(&presses, quiet, improve(&coset, &Budget::default()).best.mask);
    if quiet.len() > MAX_KEY_BITS {
        polished = greedy(&polished, quiet);
    }
    let polish = polished.count_ones() < weight;
    let presses = if polish { polished } else { presses };
    let found_by = SymmetricSearch { start: start_found_by, space, polished: polish };
    Some(Incumbent { presses, lower_bound, found_by })
}

/// Σ over the cells grouped by their whole key over `quiet` (any number of
/// patterns) of min(black, white) in `x`: cells of one key flip together,
/// so at least that many of them are pressed in every member. Rounded up
/// to the parity of `|x|` when every pattern weighs even (then every
/// member has that parity).
pub fn lower_bound(x: &Grid, quiet: &[Grid]) -> u64 {
    let parity = quiet.iter().all(|q| q.count_ones() % 2 == 0).then(|| x.count_ones() as u64 & 1);
    super::coset::round_to_parity(groups_bound(x, quiet), parity)
}

/// The groups' bound of [`lower_bound`], before the parity.
fn groups_bound(x: &Grid, quiet: &[Grid]) -> u64 {
    let cells = x.nrows() * x.ncols();
    let words = quiet.len().div_ceil(64);
    // Cell c's key in keys[c * words..][..words], read word by word: a
    // bit read per cell and pattern made it a fifth of a nullity-4096
    // graph's solve (hypercube:13, docs/performance.md).
    let mut keys = vec![0u64; cells * words];
    for (j, q) in quiet.iter().enumerate() {
        for cell in q.ones_row_major() {
            keys[cell * words + j / 64] |= 1 << (j % 64);
        }
    }
    let key = |cell: usize| &keys[cell * words..(cell + 1) * words];
    let mut black = vec![false; cells];
    for cell in x.ones_row_major() {
        black[cell] = true;
    }
    let mut order: Vec<usize> = (0..cells).collect();
    order.sort_unstable_by(|&a, &b| key(a).cmp(key(b)));
    order
        .chunk_by(|&a, &b| key(a) == key(b))
        .map(|group| {
            let black = group.iter().filter(|&&cell| black[cell]).count() as u64;
            black.min(group.len() as u64 - black)
        })
        .sum()
}

#[cfg(test)]
mod tests;
