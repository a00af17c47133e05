//! The symmetric search (one block per orbit of the board's turns and
//! mirror images) must find exactly the weight the plain search finds.

use lightsout::Game;
use lightsout::solve::{Coset, search_blocks};
use lightsout::{Generate, Grid, Method, Puzzle, Solver, Target, Topology};

/// Lightest weight of a coset over all its blocks.
fn lightest(coset: &Coset) -> u64 {
    search_blocks(coset, 0..coset.layout().blocks(), false).unwrap().weight
}

/// (plain weight, symmetric weight, symmetries folded) for `board` → `goal`.
fn both(puzzle: &Puzzle, board: &Grid, goal: &Grid) -> (u64, u64, usize) {
    let solver = Solver::new(puzzle, Method::Auto, 0).unwrap();
    let target = Target::Board(goal.clone());
    let x = solver.particular_to(board, &target).unwrap().unwrap();
    let mut rhs = board.clone();
    rhs.xor_assign(goal);
    let plain = Coset::new(&x, solver.quiet_patterns());
    let symmetric = Coset::for_problem(puzzle, &rhs, &x, solver.quiet_patterns());
    // The member found is a real member of the coset: re-check it.
    let best = search_blocks(&symmetric, 0..symmetric.layout().blocks(), false).unwrap();
    let presses = solver.member(board, &target, &x, &symmetric, best.mask).unwrap();
    assert_eq!(presses.count_ones() as u64, best.weight);
    (lightest(&plain), best.weight, symmetric.symmetries())
}

#[test]
fn symmetric_search_equals_plain_search() {
    let plane = |r, c| Puzzle::new(r, c).unwrap();
    let torus = |r, c| Puzzle::new(r, c).unwrap().with_topology(Topology::Torus);
    let cases = [
        // (puzzle, symmetries expected: 7 on squares, 3 on rectangles)
        (plane(47, 47), 7),
        (plane(27, 35), 3),
        (torus(14, 18), 3),
        (torus(12, 24), 3),
    ];
    for (puzzle, expected) in cases {
        let (r, c) = (puzzle.rows(), puzzle.cols());
        for (board, goal) in [(Grid::ones(r, c), Grid::zeros(r, c)), (Grid::zeros(r, c), Grid::ones(r, c))] {
            let (plain, symmetric, folded) = both(&puzzle, &board, &goal);
            assert_eq!(plain, symmetric, "{r}x{c} {:?}", puzzle.topology());
            assert_eq!(folded, expected, "{r}x{c}");
        }
    }
}

#[test]
fn a_board_with_fewer_symmetries_folds_by_those_only() {
    // A random board made mirror-symmetric left to right: one symmetry.
    let (r, c) = (27, 35);
    let random = Generate::Random { seed: 11, density: 0.5 }.board(r, c);
    let board = Grid::from_fn(r, c, |i, j| random.get(i, j.min(c - 1 - j)));
    let puzzle = Puzzle::new(r, c).unwrap();
    let solver = Solver::new(&puzzle, Method::Auto, 0).unwrap();
    for goal in [Grid::zeros(r, c), Grid::ones(r, c)] {
        if solver.obstruction(&board, &Target::Board(goal.clone())).unwrap().is_some() {
            continue;
        }
        let (plain, symmetric, folded) = both(&puzzle, &board, &goal);
        assert_eq!((plain, folded), (symmetric, 1));
    }
}
