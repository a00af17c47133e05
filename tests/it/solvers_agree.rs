//! Two independent routes to every answer: dense elimination of the full
//! flip matrix and light chasing on the first row must agree, and both must
//! match the published tables.

use crate::toolbox;

use bitvec::order::Lsb0;
use bitvec::view::BitView;
use lightsout::Game;
use lightsout::{Generate, Grid, Method, Puzzle, Solver, Target};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn presses(solver: &Solver, board: &Grid, target: &Target) -> Option<usize> {
    solver.solve_for(board, target).unwrap().map(|s| {
        assert!(s.proven_minimal);
        s.presses.count_ones()
    })
}

#[test]
fn dense_and_chase_agree_on_random_boards_up_to_17x17() {
    let mut rng = ChaCha8Rng::seed_from_u64(1753);
    let mut sizes: Vec<(usize, usize)> = (1..=17).map(|n| (n, n)).collect();
    sizes.extend((0..40).map(|_| (rng.random_range(1..=17), rng.random_range(1..=17))));
    for (rows, cols) in sizes {
        let puzzle = Puzzle::new(rows, cols).unwrap();
        let dense = Solver::new(&puzzle, Method::Dense, 32).unwrap();
        let chase = Solver::new(&puzzle, Method::Chase, 32).unwrap();
        assert_eq!(dense.nullity(), chase.nullity(), "{rows}x{cols}");
        for q in chase.quiet_patterns() {
            assert!(puzzle.apply(&Grid::zeros(rows, cols), q).is_zero());
        }
        let mut boards = vec![Generate::AllBlack.board(rows, cols), Generate::AllWhite.board(rows, cols)];
        boards
            .extend((0..6).map(|_| Generate::Random { seed: rng.random(), density: 0.5 }.board(rows, cols)));
        for board in &boards {
            for target in [Target::White, Target::Black] {
                assert_eq!(
                    presses(&dense, board, &target),
                    presses(&chase, board, &target),
                    "{rows}x{cols} {target:?}"
                );
            }
        }
    }
}

#[test]
fn nxn_nullity_matches_published_sequence_up_to_200() {
    for (n, nullity) in toolbox::table("nxn_nullity.txt") {
        let n = n as usize;
        let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Chase, 0).unwrap();
        assert_eq!(solver.nullity() as u64, nullity, "n = {n}");
        if n <= 24 {
            assert_eq!(
                Solver::new(&Puzzle::new(n, n).unwrap(), Method::Dense, 0).unwrap().nullity() as u64,
                nullity
            );
        }
    }
}

#[test]
fn all_black_minimum_presses_match_published_sequence_up_to_30() {
    for (n, expected) in toolbox::table("allblack_nxn_min_presses.txt") {
        let n = n as usize;
        let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 32).unwrap();
        let board = Grid::ones(n, n);
        assert_eq!(presses(&solver, &board, &Target::White), Some(expected as usize), "n = {n}");
        // By symmetry, all white to all black costs the same.
        assert_eq!(presses(&solver, &Grid::zeros(n, n), &Target::Black), Some(expected as usize));
    }
}

/// n = 31..54, with nullities up to 32 (39x39): the exhaustive engine and
/// its symmetric search against the published terms.
#[test]
fn all_black_minimum_presses_match_published_sequence_from_31_to_54() {
    for (n, expected) in toolbox::table("allblack_nxn_min_presses_31_54.txt") {
        let n = n as usize;
        let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 36).unwrap();
        let solution = solver.solve_for(&Grid::ones(n, n), &Target::White).unwrap().unwrap();
        assert!(solution.proven_minimal, "n = {n}");
        assert_eq!(solution.presses.count_ones(), expected as usize, "n = {n}");
    }
}

#[test]
fn large_board_all_black_to_white_is_exact() {
    // 200x200 has nullity 0 (published), so the unique solution is minimal.
    let solver = Solver::new(&Puzzle::new(200, 200).unwrap(), Method::Auto, 32).unwrap();
    let answer = solver.solve(&Grid::ones(200, 200), &[Target::White]).unwrap();
    let s = answer.outcomes[0].solution.clone().unwrap();
    assert!(s.proven_minimal);
    assert!(solver.puzzle().apply(&Grid::ones(200, 200), &s.presses).is_zero());
}

#[test]
fn above_the_nullity_budget_the_answer_is_marked_not_proven() {
    // 16x16 has nullity 8; a budget of 4 cannot enumerate it.
    let puzzle = Puzzle::new(16, 16).unwrap();
    let board = Generate::Random { seed: 3, density: 0.5 }.board(16, 16);
    let full = Solver::new(&puzzle, Method::Auto, 32).unwrap();
    let capped = Solver::new(&puzzle, Method::Auto, 4).unwrap();
    for target in [Target::White, Target::Black] {
        match (full.solve_for(&board, &target).unwrap(), capped.solve_for(&board, &target).unwrap()) {
            (Some(exact), Some(rough)) => {
                assert!(exact.proven_minimal && !rough.proven_minimal);
                assert!(rough.presses.count_ones() >= exact.presses.count_ones());
            }
            (None, None) => {}
            other => panic!("solvability differs: {other:?}"),
        }
    }
}

#[test]
fn a_corrupted_press_set_is_caught_by_the_recheck() {
    let solver = Solver::new(&Puzzle::new(4, 4).unwrap(), Method::Auto, 32).unwrap();
    let board = Grid::ones(4, 4);
    let mut presses = solver.solve_for(&board, &Target::White).unwrap().unwrap().presses;
    assert!(solver.check(&board, &presses, &Target::White).is_ok());
    presses.toggle(1, 2);
    let err = solver.check(&board, &presses, &Target::White).unwrap_err();
    assert!(matches!(err, lightsout::Error::Internal(_)), "{err:?}");
}

/// The streamed solve (a few rows in memory) must match the in-memory one,
/// count for count, and its press rows must clear the board.
#[test]
fn streamed_solves_match_in_memory_solves() {
    use lightsout::model::GeneratedRows;
    use lightsout::solve::Chase;
    let sizes = [(5, 5), (9, 9), (16, 16), (17, 17), (30, 30), (33, 16), (70, 64), (130, 65), (200, 3)];
    for (rows, cols) in sizes {
        let puzzle = Puzzle::new(rows, cols).unwrap();
        let solver = Solver::new(&puzzle, Method::Chase, 20).unwrap();
        let chase = Chase::new(&puzzle);
        for recipe in
            [Generate::AllBlack, Generate::AllWhite, Generate::Random { seed: rows as u64, density: 0.5 }]
        {
            let board = recipe.board(rows, cols);
            for target in [Target::White, Target::Black] {
                let expected = solver.solve_for(&board, &target).unwrap();
                let mut streamed_rows = Vec::new();
                let got = chase
                    .solve_streamed(&mut GeneratedRows::new(recipe, cols), &target, 20, &mut |row| {
                        streamed_rows.push(row.to_vec());
                        Ok(())
                    })
                    .unwrap();
                let expected_count =
                    expected.as_ref().map(|s| (s.presses.count_ones() as u64, s.proven_minimal));
                assert_eq!(got, expected_count, "{rows}x{cols} {recipe:?} {target:?}");
                if got.is_some() {
                    let mut presses = Grid::zeros(rows, cols);
                    for (r, row) in streamed_rows.iter().enumerate() {
                        let cells = &row.view_bits::<Lsb0>()[..cols];
                        presses.row_mut(r).copy_from_bitslice(cells);
                    }
                    assert!(solver.check(&board, &presses, &target).is_ok());
                }
            }
        }
    }
}

#[test]
fn methods_agree_on_every_size_up_to_40_and_random_sizes_up_to_300() {
    use rand::{RngExt, SeedableRng};
    for rows in 1..=40 {
        for cols in 1..=40 {
            let puzzle = Puzzle::new(rows, cols).unwrap();
            let chase = Solver::new(&puzzle, Method::Chase, 12).unwrap();
            let dense = Solver::new(&puzzle, Method::Dense, 12).unwrap();
            assert_eq!(chase.nullity(), dense.nullity(), "{rows}x{cols}");
            let boards = [
                Grid::ones(rows, cols),
                Grid::zeros(rows, cols),
                Generate::Random { seed: (rows * 100 + cols) as u64, density: 0.5 }.board(rows, cols),
            ];
            for board in &boards {
                for target in [Target::White, Target::Black] {
                    let (a, b) =
                        (chase.solve_for(board, &target).unwrap(), dense.solve_for(board, &target).unwrap());
                    assert_eq!(a.is_some(), b.is_some(), "{rows}x{cols}");
                    if let (Some(a), Some(b)) = (a, b)
                        && a.proven_minimal
                        && b.proven_minimal
                    {
                        assert_eq!(a.presses.count_ones(), b.presses.count_ones(), "{rows}x{cols}");
                    }
                }
            }
        }
    }
    let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(300);
    for _ in 0..6 {
        let (rows, cols) = (rng.random_range(41..=300), rng.random_range(41..=120));
        let puzzle = Puzzle::new(rows, cols).unwrap();
        let chase = Solver::new(&puzzle, Method::Chase, 12).unwrap();
        let dense = Solver::new(&puzzle, Method::Dense, 12).unwrap();
        assert_eq!(chase.nullity(), dense.nullity(), "{rows}x{cols}");
        let board = Generate::Random { seed: rng.random(), density: 0.5 }.board(rows, cols);
        let (a, b) = (
            chase.solve_for(&board, &Target::White).unwrap(),
            dense.solve_for(&board, &Target::White).unwrap(),
        );
        assert_eq!(a.map(|s| s.presses.count_ones()), b.map(|s| s.presses.count_ones()), "{rows}x{cols}");
    }
}

/// A mask has 63 bits: null spaces of higher dimension (79x79 has 64) are
/// answered by descent, not proven, whatever `--max-nullity` says.
#[test]
fn the_exhaustive_search_has_its_own_ceiling() {
    let solver = Solver::new(&Puzzle::new(79, 79).unwrap(), Method::Auto, 63).unwrap();
    assert_eq!(solver.nullity(), 64);
    let s = solver.solve_for(&Grid::ones(79, 79), &Target::White).unwrap().unwrap();
    assert!(!s.proven_minimal);
    // Zero presses needs no search to be proven minimal.
    let s = solver.solve_for(&Grid::ones(79, 79), &Target::Black).unwrap().unwrap();
    assert!(s.proven_minimal && s.presses.is_zero());
}

/// Each refusal has its kind, and its words name no command-line flag (the
/// command line and the server add their own).
#[test]
fn library_errors_are_typed_and_neutral() {
    use lightsout::{Error, Rule, Topology};
    let torus = Puzzle::new(6, 6).unwrap().with_topology(Topology::Torus);
    let errors = [
        (Solver::new(&torus, Method::Chase, 8).err(), "unsupported"),
        (
            Solver::with_memory_limit(&Puzzle::new(500, 500).unwrap(), Method::Dense, 8, 1 << 20).err(),
            "memory",
        ),
        (Puzzle::new(0, 3).err(), "side"),
        (
            Solver::new(&Puzzle::new(3, 3).unwrap().with_rule(Rule::king()), Method::Auto, 8)
                .unwrap()
                .solve_for(&Grid::zeros(2, 3), &Target::White)
                .err(),
            "shape",
        ),
        // A target board of another shape is refused, not judged unreachable.
        (
            Solver::new(&Puzzle::new(4, 4).unwrap(), Method::Auto, 8)
                .unwrap()
                .obstruction(&Grid::zeros(4, 4), &Target::Board(Grid::zeros(2, 8)))
                .err(),
            "shape",
        ),
        (lightsout::parse_boards(b"bw\nwb\nbb\n", "t", Some(2), None).err(), "mismatch"),
        (lightsout::parse_boards(b"bx\n", "t", None, None).err(), "parse"),
    ];
    for (error, kind) in errors {
        let error = error.unwrap_or_else(|| panic!("expected a {kind} error"));
        let found = match error {
            Error::Unsupported(_) => "unsupported",
            Error::Memory { .. } => "memory",
            Error::BadSide { .. } => "side",
            Error::Shape { .. } => "shape",
            Error::Mismatch { .. } => "mismatch",
            Error::Parse { .. } => "parse",
            _ => "other",
        };
        assert_eq!(found, kind, "{error:?}");
        assert!(!error.to_string().contains("--"), "{error}");
    }
}
