//! The algebra against breadth-first search, wherever search can run.

use crate::toolbox;

use lightsout::Game;
use lightsout::{Answer, Grid, Method, Puzzle, Rule, Solver, Target, Topology, bfs};

/// Compares the `boards` given against BFS, for both targets and for
/// "either", with both methods. (It returns nothing: a count of the boards
/// it was given could not fail; the checks are the asserts inside.)
fn agree_with_bfs(rows: usize, cols: usize, boards: impl Iterator<Item = u32>) {
    let puzzle = Puzzle::new(rows, cols).unwrap();
    let (white, black) = bfs::uniform_states(rows, cols);
    let to_white = bfs::distances(&puzzle, &[white]);
    let to_black = bfs::distances(&puzzle, &[black]);
    let boards: Vec<u32> = boards.collect();
    assert!(!boards.is_empty());
    for method in [Method::Chase, Method::Dense] {
        check_method(&puzzle, method, &boards, &to_white, &to_black);
    }
}

/// The press counts of an answer for [`Target::EITHER`] (white, then
/// black), `bfs::UNREACHABLE` where a colour cannot be reached.
fn presses_to_white_and_black(answer: &Answer) -> (u8, u8) {
    let count = |target: &Target| {
        let outcome = answer.get(target).expect("both colours are asked");
        outcome.solution.as_ref().map_or(bfs::UNREACHABLE, |s| s.presses.count_ones() as u8)
    };
    (count(&Target::White), count(&Target::Black))
}

fn check_method(puzzle: &Puzzle, method: Method, boards: &[u32], to_white: &[u8], to_black: &[u8]) {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let solver = Solver::new(puzzle, method, 32).unwrap();
    for &state in boards {
        let board = bfs::decode(rows, cols, state);
        let answer = solver.solve(&board, Target::EITHER).unwrap();
        let (w, b) = presses_to_white_and_black(&answer);
        let s = state as usize;
        assert_eq!((w, b), (to_white[s], to_black[s]), "{rows}x{cols} {method:?} board {state:#x}");
        let best = answer.best().map_or(bfs::UNREACHABLE, |(_, s)| s.presses.count_ones() as u8);
        assert_eq!(best, to_white[s].min(to_black[s]));
        assert!(answer.best().is_none_or(|(_, s)| s.proven_minimal));
    }
}

#[test]
fn all_65536_flip_game_boards_agree_with_bfs() {
    agree_with_bfs(4, 4, 0..1 << 16);
}

#[test]
fn flip_game_distribution_matches_published_table() {
    let expected = toolbox::table("flipgame_4x4_distribution.txt");
    let solver = Solver::new(&Puzzle::new(4, 4).unwrap(), Method::Auto, 32).unwrap();
    let mut counts = std::collections::BTreeMap::new();
    for state in 0..1u32 << 16 {
        let answer = solver.solve(&bfs::decode(4, 4, state), Target::EITHER).unwrap();
        let k = answer.best().map_or(-1, |(_, s)| s.presses.count_ones() as i64);
        *counts.entry(k).or_insert(0u64) += 1;
    }
    assert_eq!(counts, expected);
}

#[test]
fn every_board_up_to_16_cells_agrees_with_bfs() {
    for rows in 1..=16 {
        for cols in 1..=16 / rows {
            agree_with_bfs(rows, cols, 0..1 << (rows * cols));
            // Two routes to one number: the boards search reaches from all
            // white are the 2^rank the algebra says are solvable.
            let puzzle = Puzzle::new(rows, cols).unwrap();
            let reached = bfs::distances(&puzzle, &[0]).iter().filter(|&&d| d != bfs::UNREACHABLE).count();
            let nullity = Solver::new(&puzzle, Method::Auto, 0).unwrap().nullity();
            assert_eq!(reached, 1 << (rows * cols - nullity), "{rows}x{cols}");
        }
    }
}

#[test]
fn bfs_reproduces_the_published_5x5_distribution_and_random_5x5_boards_agree() {
    // First the reference itself: the 5x5 BFS must give OEIS A079873.
    let expected = toolbox::table("classic_5x5_distribution.txt");
    let to_white = bfs::distances(&Puzzle::new(5, 5).unwrap(), &[0]);
    let mut counts = std::collections::BTreeMap::new();
    for &d in to_white.iter().filter(|&&d| d != bfs::UNREACHABLE) {
        *counts.entry(d as i64).or_insert(0u64) += 1;
    }
    assert_eq!(counts, expected);
    // Then seeded random boards, plus the whole first 2^14 states.
    let random = (0..3000u64).map(|i| (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 39) as u32 & ((1 << 25) - 1));
    agree_with_bfs(5, 5, random.chain(0..1 << 14));
}

#[test]
fn rectangles_with_up_to_25_cells_agree_on_random_boards() {
    for (rows, cols) in [(3, 7), (7, 3), (2, 11), (4, 5), (1, 23), (23, 1)] {
        let n = rows * cols;
        let sample = (1..=500u64)
            .map(|i| (i.wrapping_mul(0xD1B5_4A32_D192_ED03) >> 20) as u32 & ((1u64 << n) - 1) as u32);
        agree_with_bfs(rows, cols, sample);
    }
    // Uniform boards are both solved: the target itself costs nothing.
    let solver = Solver::new(&Puzzle::new(5, 5).unwrap(), Method::Auto, 32).unwrap();
    let answer = solver.solve(&Grid::ones(5, 5), Target::EITHER).unwrap();
    assert_eq!(answer.best().unwrap().1.presses.count_ones(), 0);
}

/// Every rule and topology the CLI offers, on every board of every size up
/// to 12 cells, against a search that builds its presses from the rule's
/// definition: the fewest presses to each colour agree.
#[test]
fn every_rule_and_topology_agrees_with_bfs_on_every_small_board() {
    let rules = [Rule::plus(), Rule::neighbours(), Rule::king(), Rule::from_mask("010/101/010").unwrap()];
    for topology in [Topology::Plane, Topology::Torus] {
        for rule in &rules {
            for rows in 1..=12 {
                for cols in 1..=12 / rows {
                    let puzzle =
                        Puzzle::new(rows, cols).unwrap().with_topology(topology).with_rule(rule.clone());
                    let (white, black) = bfs::uniform_states(rows, cols);
                    let to_white = bfs::distances(&puzzle, &[white]);
                    let to_black = bfs::distances(&puzzle, &[black]);
                    let solver = Solver::new(&puzzle, Method::Auto, 32).unwrap();
                    for state in 0..1u32 << (rows * cols) {
                        let answer = solver.solve(&bfs::decode(rows, cols, state), Target::EITHER).unwrap();
                        let (w, b) = presses_to_white_and_black(&answer);
                        let s = state as usize;
                        assert_eq!(
                            (w, b),
                            (to_white[s], to_black[s]),
                            "{rows}x{cols} {topology:?} {rule} board {state:#x}"
                        );
                    }
                }
            }
        }
    }
}
