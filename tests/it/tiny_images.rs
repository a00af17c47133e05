//! Most Clicks where the solvable boards are few (issue 34 item 7): the
//! press matrix's image is walked board by board, whatever the kernel. A
//! complete graph of 3000 vertices has two solvable boards and a kernel of
//! 2^2999 members; it said `1 to 1499, not proven` before the walk.

use std::collections::BTreeMap;

use lightsout::analysis::{Bound, Goal, HardestOptions, How, Weighed, hardest};
use lightsout::model::Graph;
use lightsout::zk::Modulus;
use lightsout::{Board, Method, Puzzle, Rule, Solver, StateSolver};

use crate::toolbox::run;

/// Every press set of a small puzzle over Z_K tried: each solvable
/// board's fewest presses to the goal (`None`: any uniform state), as
/// boards by their fewest presses.
fn brute_force(puzzle: &Puzzle, states: u8, target: Option<u8>) -> BTreeMap<u64, u64> {
    let n = puzzle.cells();
    let lists = puzzle.press_lists();
    let k = u32::from(states);
    // The fewest presses reaching each image board y = A·x.
    let mut fewest: BTreeMap<Vec<u8>, u64> = BTreeMap::new();
    for code in 0..k.pow(n as u32) {
        let digits: Vec<u32> = (0..n).map(|i| code / k.pow(i as u32) % k).collect();
        let mut y = vec![0u32; n];
        for (press, &times) in digits.iter().enumerate() {
            for &cell in &lists[press] {
                y[cell] = (y[cell] + times) % k;
            }
        }
        let y: Vec<u8> = y.into_iter().map(|v| v as u8).collect();
        let presses: u64 = digits.iter().map(|&d| u64::from(d)).sum();
        let entry = fewest.entry(y).or_insert(u64::MAX);
        *entry = (*entry).min(presses);
    }
    // A board b reaches t in the presses of y = t − b.
    let targets: Vec<u8> = match target {
        Some(t) => vec![t],
        None => (0..states).collect(),
    };
    let mut boards: BTreeMap<Vec<u8>, u64> = BTreeMap::new();
    for (y, &presses) in &fewest {
        for &t in &targets {
            let board: Vec<u8> = y.iter().map(|&v| (t + states - v) % states).collect();
            let entry = boards.entry(board).or_insert(u64::MAX);
            *entry = (*entry).min(presses);
        }
    }
    let mut by_weight = BTreeMap::new();
    for presses in boards.into_values() {
        *by_weight.entry(presses).or_insert(0) += 1;
    }
    by_weight
}

/// The library's answer with the distribution, checked against brute
/// force: exact, every board counted, the same boards by their fewest
/// presses, and a board that needs the most (proven by the solver).
fn agrees<G: Weighed>(game: &G, goal: Goal, what: &str) {
    let states = game.cell_states();
    let target = match goal {
        Goal::State(t) => Some(t),
        Goal::Any => None,
    };
    let expected = brute_force(game.puzzle(), states, target);
    let options = HardestOptions { distribution: true, ..HardestOptions::default() };
    let h = hardest(game, goal, &options, &Default::default()).unwrap();
    let most = *expected.keys().last().unwrap();
    assert_eq!((h.lower, h.upper, h.how), (Some(most), most, How::Search), "{what}");
    assert_eq!(h.upper_from, Bound::Tally, "{what}");
    let distribution: BTreeMap<u64, u64> =
        h.distribution.unwrap().into_iter().map(|(w, n)| (w, n.parse().unwrap())).collect();
    assert_eq!(distribution, expected, "{what}");
    assert_eq!(h.boards_at_most, Some(expected[&most].to_string()), "{what}");
    assert_eq!(h.presses.unwrap().presses(), most, "{what}");
}

fn star(leaves: usize) -> Graph {
    Graph::from_edges(leaves + 1, (1..=leaves).map(|leaf| (0, leaf))).unwrap()
}

/// Complete graphs and stars (their kernels far larger than their images),
/// two states, to white and to either colour, against brute force.
#[test]
fn two_states_agree_with_brute_force() {
    let mut graphs: Vec<(Graph, Rule, String)> = Vec::new();
    for n in 2..=9 {
        graphs.push((Graph::named(&format!("complete:{n}")).unwrap(), Rule::plus(), format!("complete:{n}")));
    }
    for leaves in 2..=9 {
        // Neighbours only: the centre flips every leaf, a leaf the centre,
        // so four boards are solvable whatever the leaves.
        graphs.push((star(leaves), Rule::neighbours(), format!("star of {leaves}, neighbours")));
    }
    for (graph, rule, name) in graphs {
        let solver = Solver::new(&Puzzle::on_graph(graph, rule).unwrap(), Method::Auto, 64).unwrap();
        for goal in [Goal::State(0), Goal::State(1), Goal::Any] {
            agrees(&solver, goal, &format!("{name} {goal:?}"));
        }
    }
}

/// The same over Z_3, Z_4 and Z_6 (a complete graph's press adds one to
/// every vertex: K solvable boards, the hardest K − 1 presses from 0).
#[test]
fn more_states_agree_with_brute_force() {
    for (k, n) in [(3u8, 2usize), (3, 5), (4, 4), (6, 3)] {
        let puzzle = Puzzle::on_graph(Graph::named(&format!("complete:{n}")).unwrap(), Rule::plus()).unwrap();
        let solver =
            StateSolver::new(&puzzle, Modulus::new(u32::from(k)).unwrap(), Method::Auto, 30, 1 << 30)
                .unwrap();
        for goal in [Goal::State(0), Goal::State(k - 1), Goal::Any] {
            agrees(&solver, goal, &format!("complete:{n} over Z_{k} {goal:?}"));
        }
    }
    let puzzle = Puzzle::on_graph(star(4), Rule::neighbours()).unwrap();
    let solver = StateSolver::new(&puzzle, Modulus::new(3).unwrap(), Method::Auto, 30, 1 << 30).unwrap();
    agrees(&solver, Goal::State(0), "star of 4 over Z_3");
}

/// Past brute force: a star of 2000 leaves (neighbours rule, nullity 1999)
/// has four solvable boards, the hardest (centre and leaves lit) two presses.
#[test]
fn a_large_star_is_exact() {
    let puzzle = Puzzle::on_graph(star(2000), Rule::neighbours()).unwrap();
    let solver = Solver::new(&puzzle, Method::Auto, 64).unwrap();
    let options = HardestOptions { distribution: true, ..HardestOptions::default() };
    let h = hardest(&solver, Goal::State(0), &options, &Default::default()).unwrap();
    assert_eq!((h.lower, h.upper), (Some(2), 2));
    assert_eq!(h.boards, "4");
    let distribution: Vec<(u64, String)> = vec![(0, "1".into()), (1, "2".into()), (2, "1".into())];
    assert_eq!(h.distribution, Some(distribution));
}

/// The example, from the command line: one press, proven, where
/// it said `1 to 1499, not proven`.
#[test]
fn complete_3000_is_one_press() {
    let (stdout, stderr, code) = run(&["hardest", "--graph", "complete:3000"], "");
    assert_eq!(code, 0, "{stderr}");
    let second = stdout.lines().nth(1).unwrap();
    assert_eq!(second, "most presses: 1, proven (search: every board counted); 1 board needs them");
}

/// Disjoint cliques: each adds one independent press (its vertices' columns
/// are one), so 12 copies of K_5 have 2^12 solvable boards, and as many
/// need `k` presses as there are ways to light `k` cliques of 12. The walk
/// reads them by 12 of the 60 vertices (the pivots of the columns).
#[test]
fn disjoint_cliques_give_the_binomial_distribution() {
    let edges =
        (0..12).flat_map(|c| (0..5).flat_map(move |u| (u + 1..5).map(move |v| (5 * c + u, 5 * c + v))));
    let puzzle = Puzzle::on_graph(Graph::from_edges(60, edges).unwrap(), Rule::plus()).unwrap();
    // Nullity 48: an engine asked to go to 64 proves the board's minimum in
    // a minute; one to 32 leaves it to the walk's own check.
    let solver = Solver::new(&puzzle, Method::Auto, 32).unwrap();
    let options = HardestOptions { distribution: true, ..HardestOptions::default() };
    let h = hardest(&solver, Goal::State(0), &options, &Default::default()).unwrap();
    assert_eq!((h.lower, h.upper, h.how), (Some(12), 12, How::Search));
    let mut binomial = vec![1u64];
    for _ in 0..12 {
        let mut next = vec![1u64; binomial.len() + 1];
        for k in 1..binomial.len() {
            next[k] = binomial[k - 1] + binomial[k];
        }
        binomial = next;
    }
    let expected: Vec<(u64, String)> =
        binomial.iter().enumerate().map(|(k, n)| (k as u64, n.to_string())).collect();
    assert_eq!(h.distribution, Some(expected));
}
