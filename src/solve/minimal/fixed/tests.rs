//! The fixed subspaces against brute force, the incumbents between their
//! bounds, and folded searches of a subspace against plain ones.

use super::*;
use crate::model::{Generate, Topology};
use crate::{Method, Solver, Target};

/// The coset of the solutions of `board` → `target` on `puzzle`:
/// right-hand side, particular solution, quiet patterns.
fn problem(puzzle: &Puzzle, board: &Grid, target: &Target) -> Option<(Grid, Grid, Vec<Grid>)> {
    let solver = Solver::new(puzzle, Method::Auto, 0).unwrap();
    let (x, _) = solver.coset(board, target).unwrap()?;
    Some((target.right_hand_side(board), x, solver.quiet_patterns().to_vec()))
}

fn motions_of(space: &FixedSpace) -> Vec<Motion> {
    Motion::ALL.into_iter().enumerate().filter(|(k, _)| space.motions >> k & 1 == 1).map(|(_, m)| m).collect()
}

fn combine(x: &Grid, basis: &[Grid], mask: u64) -> Grid {
    let mut m = x.clone();
    for (_, b) in basis.iter().enumerate().filter(|&(j, _)| mask >> j & 1 == 1) {
        m.xor_assign(b);
    }
    m
}

/// Every fixed subspace, checked by brute force on boards whose whole
/// coset is small: its members are exactly the members of the coset
/// that its motions fix, every one a solution; and its lightest member
/// (found by the transform engine) equals the lightest by plain
/// enumeration of its basis, and is never below the coset's minimum.
#[test]
fn fixed_spaces_match_brute_force() {
    let boards = [
        (Puzzle::new(5, 5).unwrap(), Target::White),
        (Puzzle::new(9, 9).unwrap(), Target::White),
        (Puzzle::new(16, 16).unwrap(), Target::White),
        (Puzzle::new(17, 17).unwrap(), Target::White),
        (Puzzle::new(19, 19).unwrap(), Target::Black),
        (Puzzle::new(4, 9).unwrap(), Target::White),
        (Puzzle::new(11, 23).unwrap(), Target::White),
        (Puzzle::new(6, 6).unwrap().with_topology(Topology::Torus), Target::White),
        (Puzzle::new(5, 10).unwrap().with_topology(Topology::Torus), Target::White),
    ];
    let mut checked = 0;
    for (puzzle, target) in boards {
        let board = Grid::ones(puzzle.rows(), puzzle.cols());
        let (rhs, x, quiet) = problem(&puzzle, &board, &target).expect("all black is solvable here");
        let d = quiet.len();
        assert!(d <= 20, "{}x{} has nullity {d}", puzzle.rows(), puzzle.cols());
        let members: Vec<Grid> = (0..1u64 << d).map(|s| combine(&x, &quiet, s)).collect();
        let minimum = members.iter().map(Grid::count_ones).min().unwrap();
        for space in fixed_spaces(&puzzle, &rhs, &x, &quiet) {
            let motions = motions_of(&space);
            assert!(!motions.is_empty());
            let e = space.dimension();
            let mut inside: Vec<Grid> = (0..1u64 << e).map(|s| combine(&space.x, &space.basis, s)).collect();
            let mut expected: Vec<Grid> =
                members.iter().filter(|m| motions.iter().all(|g| g.grid(m) == **m)).cloned().collect();
            let key = |g: &Grid| (0..g.nrows()).flat_map(|r| g.words(r).to_vec()).collect::<Vec<u64>>();
            inside.sort_by_key(key);
            expected.sort_by_key(key);
            assert_eq!(
                inside,
                expected,
                "{}x{} fixed by {}",
                puzzle.rows(),
                puzzle.cols(),
                space.motion_names()
            );
            for m in &inside {
                assert_eq!(
                    puzzle.apply(&board, m),
                    match &target {
                        Target::White => Grid::zeros(puzzle.rows(), puzzle.cols()),
                        _ => Grid::ones(puzzle.rows(), puzzle.cols()),
                    }
                );
            }
            let brute = inside.iter().map(Grid::count_ones).min().unwrap();
            let coset = Coset::new(&space.x, &space.basis);
            let best = search_blocks(&coset, 0..coset.layout().blocks(), false).unwrap();
            let found = coset.member(&space.x, &space.basis, best.mask);
            assert_eq!(found.count_ones(), brute);
            assert_eq!(best.weight as usize, brute);
            assert!(brute >= minimum);
            checked += 1;
        }
    }
    assert!(checked >= 20, "only {checked} subspaces checked");
}

/// The incumbent is a solution, never lighter than the true minimum nor
/// than its lower bound, no heavier than where it started, and the same
/// on a second run; on a board of no symmetry there is none.
#[test]
fn incumbents_are_solutions_between_the_bounds() {
    let mut checked = 0;
    for (n, seed) in [(16usize, 0u64), (17, 0), (19, 1), (24, 2), (30, 3), (33, 4)] {
        let puzzle = Puzzle::new(n, n).unwrap();
        let random = Generate::Random { seed, density: 0.5 }.board(n, n);
        if let Some((rhs, x, quiet)) = problem(&puzzle, &random, &Target::White) {
            assert!(
                improve_with_symmetry(&puzzle, &rhs, &quiet, x, Start::Particular).is_none(),
                "{n}x{n} seed {seed}"
            );
        }
        // Random, but the same turned half way round.
        let mut half_turn = Motion::Rotate180.grid(&random);
        half_turn.xor_assign(&random);
        for board in [Grid::ones(n, n), half_turn] {
            let Some((rhs, x, quiet)) = problem(&puzzle, &board, &Target::White) else {
                continue;
            };
            checked += 1;
            let found = improve_with_symmetry(&puzzle, &rhs, &quiet, x.clone(), Start::Particular).unwrap();
            assert_eq!(puzzle.apply(&board, &found.presses), Grid::zeros(n, n), "{n}x{n}");
            assert!(found.presses.count_ones() <= x.count_ones());
            assert!(found.lower_bound <= found.presses.count_ones() as u64);
            let again = improve_with_symmetry(&puzzle, &rhs, &quiet, x.clone(), Start::Particular).unwrap();
            assert_eq!((again.presses, again.found_by), (found.presses.clone(), found.found_by));
            if quiet.len() <= 20 {
                let minimum =
                    (0..1u64 << quiet.len()).map(|s| combine(&x, &quiet, s).count_ones()).min().unwrap();
                assert!(found.presses.count_ones() >= minimum);
                assert!(found.lower_bound as usize <= minimum);
            }
        }
    }
    assert!(checked >= 6, "only {checked} boards solvable");
}

/// Found in writing this: the problem's motions do not all map a fixed
/// subspace onto itself (a quarter turn takes the transpose's onto the
/// anti-transpose's), and the symmetric basis read their images'
/// coordinates as if they did, folding the transpose's subspace by all
/// seven motions on wrong coordinates. It now keeps only the motions
/// that map the coset onto itself; folded must equal unfolded.
#[test]
fn folded_search_of_a_fixed_space_equals_the_plain_one() {
    let mut folded = 0;
    for puzzle in [
        Puzzle::new(65, 65).unwrap(),
        Puzzle::new(61, 61).unwrap(),
        Puzzle::new(33, 33).unwrap().with_topology(Topology::Torus),
    ] {
        let (n, m) = (puzzle.rows(), puzzle.cols());
        let board = Grid::ones(n, m);
        let (rhs, x, quiet) = problem(&puzzle, &board, &Target::White).unwrap();
        for space in fixed_spaces(&puzzle, &rhs, &x, &quiet) {
            if !(22..=28).contains(&space.dimension()) {
                continue;
            }
            let plain = Coset::new(&space.x, &space.basis);
            let fold = Coset::for_problem(&puzzle, &rhs, &space.x, &space.basis);
            let weigh = |c: &Coset| search_blocks(c, 0..c.layout().blocks(), false).unwrap();
            let (a, b) = (weigh(&plain), weigh(&fold));
            assert_eq!(a.weight, b.weight, "{n}x{m} fixed by {}", space.motion_names());
            let member = fold.member(&space.x, &space.basis, b.mask);
            assert_eq!(member.count_ones() as u64, b.weight);
            assert_eq!(puzzle.apply(&board, &member), Grid::zeros(n, m));
            // The half turn commutes with every motion; a subspace of
            // the transpose is mapped onto itself by the transpose, the
            // anti-transpose and the half turn only.
            let keeping = motions_of(&space).iter().fold(0, |k, m| match m {
                Motion::Rotate180 => k.max(7),
                Motion::Transpose | Motion::AntiTranspose | Motion::MirrorRows | Motion::MirrorCols => {
                    k.max(3)
                }
                _ => k,
            });
            assert_eq!(fold.symmetries(), keeping, "{n}x{m} fixed by {}", space.motion_names());
            folded += usize::from(fold.symmetries() > 0);
        }
    }
    assert!(folded >= 2, "only {folded} folded searches compared");
}

/// The whole-key bound equals the coset's own where keys fit a word.
#[test]
fn lower_bound_matches_the_cosets() {
    for seed in 0..6u64 {
        let x = Generate::Random { seed, density: 0.5 }.board(9, 11);
        let quiet: Vec<Grid> = (0..12u64)
            .map(|j| Generate::Random { seed: 100 + seed * 16 + j, density: 0.2 }.board(9, 11))
            .collect();
        assert_eq!(lower_bound(&x, &quiet), Coset::new(&x, &quiet).lower_bound());
    }
}

/// Past a key's width the bound groups cells by their whole key, as
/// counted here cell by cell (rows of more than one word, keys of four).
#[test]
fn lower_bound_groups_cells_by_their_whole_key() {
    let (rows, cols) = (5, 70);
    for (seed, d, density) in [(0u64, 200u64, 0.02), (1, 130, 0.01), (2, 65, 0.03)] {
        let x = Generate::Random { seed, density: 0.5 }.board(rows, cols);
        let quiet: Vec<Grid> = (0..d)
            .map(|j| Generate::Random { seed: 1000 + seed * 256 + j, density }.board(rows, cols))
            .collect();
        let mut groups: std::collections::HashMap<Vec<bool>, (u64, u64)> = std::collections::HashMap::new();
        for r in 0..rows {
            for c in 0..cols {
                let group = groups.entry(quiet.iter().map(|q| q.get(r, c)).collect()).or_default();
                *group = (group.0 + u64::from(x.get(r, c)), group.1 + 1);
            }
        }
        assert!(groups.len() < rows * cols, "seed {seed}: no two cells share a key");
        let expected: u64 = groups.values().map(|&(black, cells)| black.min(cells - black)).sum();
        assert!(expected > 0, "seed {seed}");
        assert_eq!(lower_bound(&x, &quiet), expected, "seed {seed}");
    }
}
