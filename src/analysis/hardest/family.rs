//! Families of sizes: a grid whose quiet patterns are a smaller grid's,
//! tiled by reflection, so that its classes are the smaller grid's, each
//! `j` times as large.
//!
//! **The tiling.** Let `m + 1 = j·(n + 1)` for rows (and likewise for
//! columns). Cut the `m`-side into `j` blocks of `n` cells with one
//! separator cell between blocks, and read member cell `i` in block
//! `b = i / (n + 1)` at offset `r = i mod (n + 1)` as base cell `r` (`b`
//! even) or `n − 1 − r` (`b` odd), the separators as no cell. A quiet
//! pattern `q` of the base tiled this way is quiet on the member for any
//! rule of reach 1 that is symmetric under reflection: a cell inside a
//! block sees what the base cell sees (its neighbours across a separator
//! are 0, as off the base's edge); a separator cell sees two mirrored
//! rows, which cancel over GF(2). The tiled patterns are independent (the
//! first block holds the base's basis), so when the member's nullity is
//! the base's they are its whole kernel. Nothing here trusts the argument:
//! [`family_of`] builds the tiled patterns and checks each one quiet on
//! the member with the member's own press lists, and the nullities equal.
//!
//! **Why it matters.** The member's cells then group by the base's keys:
//! class `k` holds `j_r·j_c·s_k` cells, the separators and the copies of
//! the base's untouched cells are untouched. With `e_k = 2a_k − s_k` and
//! `D = −max_e min_s F(s)`, Most Clicks is `(N + n_0 − D)/2`, and every `e`
//! reaching level `−D` has `|e_k| ≤ D` (`leader.rs`: `F + D ≥ 0` sums to
//! `D·2^d`, and `e_k` is its transform over `2^d`). So the size of a class
//! matters only through its parity, as long as it holds at least `D`
//! cells: write `D_∞` for the level of the program with the sizes
//! unbounded (parities only). For an odd number of copies the parities
//! are the base's, and
//! - every member has `D_∞ ≤ D(member) ≤ D(base)` (the base's counts fit
//!   the larger classes), and `D(member) = D_∞` once its smallest class
//!   holds at least `D_∞` cells;
//! - the base's own proof is a proof of `D_∞` when it was not bounded by
//!   its classes: when its level meets the parity ceiling (which reads
//!   the parities only), or when its smallest class holds at least
//!   `D(base) − 2` cells (the level above, `2 − D(base)`, was refuted
//!   with every class allowed all of `|e_k| ≤ D(base) − 2`).
//!
//! Then every member has `D(base)`. A base whose classes are too small
//! for that (9x9: classes of 1 to 4 cells, `D = 8`) bounds its members
//! from one side only: 49x49 needs at least the presses of 9x9's `D`, and
//! its own search, which is the family's `D_∞` program, must do the rest.

use crate::model::{Puzzle, Topology};
use crate::solve::{Board, Game, Method, Solver};

use super::classes::Classes;

/// A grid recognised as a larger copy of a smaller one: its quiet patterns
/// are the base's tiled by reflection, `row_copies × col_copies` times,
/// and it has no others.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Family {
    /// The base's rows.
    pub base_rows: usize,
    /// The base's columns.
    pub base_cols: usize,
    /// Copies of the base down the rows (odd): `rows + 1 = row_copies·(base_rows + 1)`.
    pub row_copies: usize,
    /// Copies across the columns (odd).
    pub col_copies: usize,
    /// Whether the base's proof was carried over to settle this size (see
    /// the module's notes), and if not, why.
    pub carried: Carried,
}

/// What the base's answer did for the member.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Carried {
    /// The base's level is proven and holds for every member (or a board
    /// of the base's class sizes meets this size's upper bound): the size
    /// is settled by it, with a board built from the base's and certified.
    Settled,
    /// The base's own bounds are apart (with the work it was given).
    BaseUnsettled,
    /// The base's smallest class holds this few cells: its proof is bound
    /// by them and says nothing of the larger classes.
    SmallClasses(u64),
}

impl Family {
    /// How many times larger each class is: `row_copies · col_copies`.
    pub fn scale(&self) -> usize {
        self.row_copies * self.col_copies
    }

    /// The base cell a member cell of a grid `cols` wide copies (`None`
    /// for a separator).
    pub(crate) fn base_cell(&self, cols: usize, cell: usize) -> Option<usize> {
        let row = fold(cell / cols, self.base_rows)?;
        let col = fold(cell % cols, self.base_cols)?;
        Some(row * self.base_cols + col)
    }
}

/// The base index member index `i` copies along a side of base length `n`
/// (`None` on a separator): blocks alternate between the base and its
/// mirror image.
fn fold(i: usize, n: usize) -> Option<usize> {
    let (block, offset) = (i / (n + 1), i % (n + 1));
    match offset {
        _ if offset == n => None,
        _ if block % 2 == 0 => Some(offset),
        _ => Some(n - 1 - offset),
    }
}

/// The odd divisors of `n`, largest first.
fn odd_divisors(n: usize) -> Vec<usize> {
    (1..=n).rev().filter(|d| d % 2 == 1 && n.is_multiple_of(*d)).collect()
}

/// The family of a two-state grid: the smallest grid on the plane, of the
/// same rule, whose quiet patterns tiled an odd number of times each way
/// are quiet on this one and as many as its own, with that base's solver.
/// `None` for a torus, a graph, nullity 0, or no such base.
///
/// # Complexity
/// A solver per candidate base (the odd divisors of `rows + 1` and
/// `cols + 1`), and `d` tiled patterns checked against every press:
/// O(d·R·C·|rule|).
pub(crate) fn family_of(solver: &Solver) -> Option<(Family, Solver)> {
    let puzzle = solver.puzzle();
    if puzzle.graph().is_some()
        || puzzle.topology() != Topology::Plane
        || solver.nullity() == 0
        || !solver.holds_quiet_patterns()
    {
        return None;
    }
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let mut candidates: Vec<(usize, usize)> = odd_divisors(rows + 1)
        .into_iter()
        .flat_map(|jr| odd_divisors(cols + 1).into_iter().map(move |jc| (jr, jc)))
        .filter(|&(jr, jc)| (jr, jc) != (1, 1) && (rows + 1) / jr >= 2 && (cols + 1) / jc >= 2)
        .collect();
    // The smallest base first: most copies.
    candidates.sort_by_key(|&(jr, jc)| std::cmp::Reverse((jr * jc, jr)));
    let presses = puzzle.press_lists();
    for (row_copies, col_copies) in candidates {
        let (base_rows, base_cols) = ((rows + 1) / row_copies - 1, (cols + 1) / col_copies - 1);
        let Ok(base) = Puzzle::new(base_rows, base_cols) else { continue };
        let base = base.with_rule(puzzle.rule().clone());
        let Ok(base) = Solver::new(&base, Method::Auto, solver.max_nullity()) else { continue };
        if base.nullity() != solver.nullity() || !base.holds_quiet_patterns() {
            continue;
        }
        let family = Family { base_rows, base_cols, row_copies, col_copies, carried: Carried::BaseUnsettled };
        let quiet = base.quiet_patterns().iter().all(|q| {
            let values = q.cell_values();
            let tiled: Vec<u8> = (0..rows * cols)
                .map(|cell| family.base_cell(cols, cell).map_or(0, |b| values[b] & 1))
                .collect();
            is_quiet(&presses, &tiled)
        });
        if quiet {
            return Some((family, base));
        }
    }
    None
}

/// Whether pressing the cells set in `pattern` flips no cell.
fn is_quiet(presses: &[Vec<usize>], pattern: &[u8]) -> bool {
    let mut flips = vec![0u8; pattern.len()];
    for (press, cells) in presses.iter().enumerate().filter(|&(press, _)| pattern[press] == 1) {
        debug_assert!(press < pattern.len());
        for &cell in cells {
            flips[cell] ^= 1;
        }
    }
    flips.iter().all(|&f| f == 0)
}

/// For each of the member's classes, the base's class it copies: checked
/// cell by cell (every cell of the class copies a cell of that base class,
/// the class is `scale` times the base's, each base class is copied once,
/// the untouched cells copy untouched cells or separators). `None` if
/// anything differs, which the tiling rules out.
pub(crate) fn class_map(
    family: &Family,
    cols: usize,
    member: &Classes,
    base: &Classes,
) -> Option<Vec<usize>> {
    let mut base_class = vec![usize::MAX; family.base_rows * family.base_cols];
    for (k, class) in base.classes.iter().enumerate() {
        for &cell in &class.cells {
            base_class[cell] = k;
        }
    }
    let mut copied = vec![false; base.classes.len()];
    let mut map = Vec::with_capacity(member.classes.len());
    for class in &member.classes {
        let first = family.base_cell(cols, *class.cells.first()?)?;
        let k = *base_class.get(first).filter(|&&k| k != usize::MAX)?;
        let same =
            class.cells.iter().all(|&cell| family.base_cell(cols, cell).map(|b| base_class[b]) == Some(k));
        if !same || copied[k] || class.cells.len() != family.scale() * base.classes[k].cells.len() {
            return None;
        }
        copied[k] = true;
        map.push(k);
    }
    let untouched = member
        .untouched
        .iter()
        .all(|&cell| family.base_cell(cols, cell).is_none_or(|b| base_class[b] == usize::MAX));
    (untouched && copied.iter().all(|&c| c)).then_some(map)
}

/// Whether a base settled at level `level` (`−D`, proven) with these class
/// sizes proves the same level for every member of its family: its level
/// meets the parity ceiling, or no class of it held fewer than `D − 2`
/// cells when the level above was refuted.
pub(crate) fn base_proof_carries(sizes: &[u64], level: i64) -> bool {
    let smallest = sizes.iter().copied().min().unwrap_or(0) as i64;
    level == super::spectrum::parity_ceiling(sizes) || smallest >= -level - 2
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::leader::Leader;
    use super::super::level::Level;
    use super::super::spectrum::parity_ceiling;
    use super::super::work::Work;
    use super::super::{Goal, prepare};
    use super::*;

    fn solver(rows: usize, cols: usize) -> Solver {
        Solver::new(&Puzzle::new(rows, cols).unwrap(), Method::Auto, 64).unwrap()
    }

    /// The family of every n x n up to 128 of nullity 1 or more, as the
    /// tiling finds it: `(n, base, copies)`.
    fn square_families(most: usize) -> Vec<(usize, usize, usize)> {
        (1..=most)
            .filter_map(|n| {
                let member = solver(n, n);
                let (family, _) = family_of(&member)?;
                assert_eq!(family.base_rows, family.base_cols, "{n}");
                assert_eq!(family.row_copies, family.col_copies, "{n}");
                Some((n, family.base_rows, family.row_copies))
            })
            .collect()
    }

    #[test]
    fn recognises_the_square_families_to_128() {
        let found = square_families(128);
        // The six (49, 69, 109 of 9x9; 50, 118 of 16x16; 89 of
        // 29x29), the settled nullity-2, 4 and 6 sizes, and four more
        // unsettled ones (71 of 23x23, 92 of 30x30, 98 of 32x32, 99 of 19x19).
        let expected = [
            (14, 4, 3),
            (17, 5, 3),
            (24, 4, 5),
            (34, 4, 7),
            (35, 11, 3),
            (41, 5, 7),
            (44, 4, 9),
            (49, 9, 5),
            (50, 16, 3),
            (53, 5, 9),
            (54, 4, 11),
            (69, 9, 7),
            (71, 23, 3),
            (74, 4, 15),
            (77, 5, 13),
            (83, 11, 7),
            (89, 29, 3),
            (92, 30, 3),
            (94, 4, 19),
            (98, 32, 3),
            (99, 19, 5),
            (104, 4, 21),
            (107, 11, 9),
            (109, 9, 11),
            (113, 5, 19),
            (114, 4, 23),
            (118, 16, 7),
            (124, 4, 25),
        ];
        assert_eq!(found, expected);
        // n + 1 = j(m + 1) alone is no family: 84 = 5·17 − 1 has nullity
        // 12 where 16x16 has 8; 64 = 5·13 − 1 has 28 where 12x12 has 0.
        assert!(family_of(&solver(84, 84)).is_none());
        assert!(family_of(&solver(64, 64)).is_none());
    }

    /// The classes of a member are the base's, `scale` times as large, in
    /// the member's own basis of quiet patterns, on squares and rectangles.
    #[test]
    fn members_classes_are_the_bases_scaled() {
        for (rows, cols) in [(49, 49), (14, 14), (17, 17), (50, 50), (9, 49), (49, 69), (14, 24), (4, 14)] {
            let member = solver(rows, cols);
            let Some((family, base)) = family_of(&member) else { panic!("{rows}x{cols}: no family") };
            let member_classes = prepare(&member, Goal::State(0)).unwrap().classes;
            let base_classes = prepare(&base, Goal::State(0)).unwrap().classes;
            let map = class_map(&family, cols, &member_classes, &base_classes);
            assert!(map.is_some(), "{rows}x{cols}: classes do not copy {family:?}");
            let (b, j) = (base_classes.untouched.len(), family.scale());
            let separators = rows * cols - j * family.base_rows * family.base_cols;
            assert_eq!(member_classes.untouched.len(), j * b + separators, "{rows}x{cols}");
        }
    }

    /// The paths of `hardest` that settle a member by its base: 14x14
    /// (4x4's classes ×9) with its bounds left at the parity and no board,
    /// as a starved search leaves them. A tabu search on the base's class
    /// sizes meets the parity (the family's board); without it, 4x4's own
    /// answer (7 presses, `D = 2`, the parity ceiling) carries over. Either way 123, a board built from the base's
    /// counts and certified by the exhaustive engine.
    #[test]
    fn a_settled_base_settles_its_member() {
        use super::super::{Bound, Found, How, finish};

        let member = solver(14, 14);
        let (family, base) = family_of(&member).unwrap();
        assert_eq!((family.base_rows, family.scale()), (4, 9));
        let prepared = prepare(&member, Goal::State(0)).unwrap();
        let never = || false;
        for (climb, upper_from) in [(true, Bound::Average), (false, Bound::Family)] {
            let classes = &prepared.classes;
            let mut found = Found::new(super::super::average_bound(classes), Bound::Average);
            let mut work = Work::new(1 << 24, &never);
            let carried = found
                .settle_by_family(&family, 14, classes, &base, Goal::State(0), &mut work, climb)
                .unwrap();
            assert_eq!(carried, Carried::Settled, "climb {climb}");
            assert_eq!((found.lower, found.upper, found.how), (Some(123), 123, How::Search), "climb {climb}");
            let h = finish(&member, Goal::State(0), found, &prepared, false, false, 0.0).unwrap();
            assert!(h.exact() && h.lower == Some(123), "{:?} {}", h.lower, h.upper);
            assert_eq!((h.lower_from, h.upper_from), (Some(Bound::Family), upper_from), "climb {climb}");
            // The board needs 123 presses: solved again here, apart from finish.
            let board = h.board.unwrap();
            let solution = member.solve_for(&board, &crate::solve::Target::White).unwrap().unwrap();
            assert!(solution.proven_minimal);
            assert_eq!(solution.presses.presses(), 123);
        }
    }

    /// Issue 34's last item: the family step took shares of the budget
    /// (a quarter for the climb on the base's class sizes, half for the
    /// base's own search, with a fresh budget, stop check and time limit)
    /// and never gave them back, so the run's count of weighings, the
    /// progress bar's and a table's left them out, and a time limit
    /// started again for the base. Now both spend from the member's
    /// `Work`: it counts them, tells the counter, and stops them when the
    /// next weighing would pass the budget, bounds kept.
    #[test]
    fn the_family_step_spends_from_the_budget() {
        use super::super::{Bound, Found};
        use std::sync::atomic::{AtomicU64, Ordering};

        let never = || false;
        // 14x14 (4x4 ×9) runs the climb, or without it the base's search;
        // 49x49 (9x9 ×25) the climb only (9x9's classes are too small).
        for (n, climb) in [(14, true), (14, false), (49, true)] {
            let member = solver(n, n);
            let (family, base) = family_of(&member).unwrap();
            let classes = prepare(&member, Goal::State(0)).unwrap().classes;
            let parity = super::super::average_bound(&classes);
            for budget in [1u64 << 24, 5_000, 1] {
                let what = format!("{n}x{n}, climb {climb}, budget {budget}");
                let counter = AtomicU64::new(0);
                let mut work = Work::new(budget, &never).watched(Some(&counter));
                let mut found = Found::new(parity, Bound::Average);
                found
                    .settle_by_family(&family, n, &classes, &base, Goal::State(0), &mut work, climb)
                    .unwrap();
                work.report();
                let spent = work.spent();
                assert!(spent <= budget, "{what}: spent {spent}");
                assert_eq!(counter.load(Ordering::Relaxed), spent, "{what}: the counter");
                if budget == 1 << 24 {
                    assert!(spent > 0, "{what}: the family's work was not counted");
                }
                // Whatever the budget, the bounds hold: 14x14 is 123, and
                // 49x49's lower bound is a board's, at most its parity.
                assert!(found.lower.is_none_or(|lower| lower <= found.upper), "{what}");
                if n == 14 {
                    assert!(found.lower.is_none_or(|lower| lower <= 123) && found.upper >= 123, "{what}");
                }
            }
        }
    }

    /// The highest level some signed counts reach, and whether the search
    /// settled it.
    fn level_of(keys: &[u64], sizes: &[u64], bits: usize) -> i64 {
        let never = || false;
        let leader = Leader::new(bits, keys, sizes);
        let mut level = parity_ceiling(sizes);
        loop {
            match leader.decide(level, &mut Work::new(u64::MAX, &never)).0 {
                Level::Reached(_) => return level,
                Level::Refuted => level -= 2,
                Level::Unknown => unreachable!("no budget was set"),
            }
        }
    }

    /// The module's claims on random codes: a member (classes times an odd
    /// square) has `D_∞ ≤ D(member) ≤ D(base)`, equal to `D_∞` (the sizes
    /// unbounded) once its classes hold `D_∞` cells; where the base's
    /// proof carries, every member has the base's level. Where it does not
    /// carry, the member's level is counted apart from the base's (a small
    /// class can bind the base: then the member is above it).
    #[test]
    fn the_level_is_shared_where_the_classes_are_large_enough() {
        let mut rng = ChaCha8Rng::seed_from_u64(49);
        let (mut carried, mut differs, mut bound) = (0, 0, 0);
        for round in 0..400 {
            let bits = rng.random_range(2..=6usize);
            let share = rng.random_range(2..=6);
            let mut keys: Vec<u64> = (1..1u64 << bits).filter(|_| rng.random_range(0..share) == 0).collect();
            keys.truncate(16);
            let sizes: Vec<u64> = keys.iter().map(|_| rng.random_range(1..=2)).collect();
            let base = level_of(&keys, &sizes, bits);
            // Unbounded: a class of the right parity larger than any level.
            let big = 2 * keys.len() as u64 + 2;
            let unbounded: Vec<u64> = sizes.iter().map(|s| s + 2 * big).collect();
            let infinity = level_of(&keys, &unbounded, bits);
            for scale in [9u64, 25] {
                let scaled: Vec<u64> = sizes.iter().map(|s| s * scale).collect();
                let member = level_of(&keys, &scaled, bits);
                let what = format!("round {round}: {keys:?} {sizes:?} x{scale}");
                assert!(base <= member && member <= infinity, "{what}: {base} {member} {infinity}");
                if scaled.iter().min().copied().unwrap_or(0) as i64 >= -infinity {
                    assert_eq!(member, infinity, "{what}");
                }
                if base_proof_carries(&sizes, base) {
                    assert_eq!(member, base, "{what}");
                    carried += 1;
                } else {
                    bound += 1;
                    if member != base {
                        eprintln!("{what}: base level {base}, member {member}");
                        differs += 1;
                    }
                }
            }
        }
        eprintln!("carried {carried}, bound by small classes {bound}, of which the member differs {differs}");
        assert!(carried > 100 && bound > 20, "only {carried} carried, {bound} bound");
    }
}
