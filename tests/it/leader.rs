//! Most Clicks by the leader program (src/analysis/hardest/leader.rs)
//! through the library's front door: the default answer against counting
//! every board where that is cheap, where its bounds come from, and 9x9
//! (nullity 8) proven by default (`#[ignore]`: about a CPU-minute).

use lightsout::analysis::{Bound, Goal, HardestOptions, How, distribution_cost, hardest};
use lightsout::solve::Shard;
use lightsout::{Board, Game, Method, Puzzle, Rule, Solver, Target, Topology};

/// The default answer and the exact count agree on every grid up to 7x7
/// (plane and torus, plus and neighbours rules) whose count of every board
/// is cheap, the default's bounds bracket it and say where they come from.
#[test]
fn the_default_answer_is_the_count_of_every_board() {
    let mut compared = 0;
    for rule in [Rule::plus(), Rule::neighbours()] {
        for topology in [Topology::Plane, Topology::Torus] {
            for rows in 1..=7 {
                for cols in rows..=7 {
                    let puzzle =
                        Puzzle::new(rows, cols).unwrap().with_rule(rule.clone()).with_topology(topology);
                    let solver = Solver::new(&puzzle, Method::Auto, 64).unwrap();
                    if solver.nullity() == 0
                        || distribution_cost(&solver, Goal::State(0), Shard::WHOLE).unwrap() > 1e8
                    {
                        continue;
                    }
                    let what = format!("{rows}x{cols} {topology:?} {rule}");
                    let every = HardestOptions { distribution: true, work: u64::MAX, progress: None };
                    let counted = hardest(&solver, Goal::State(0), &every, &Default::default()).unwrap();
                    assert_eq!(counted.upper_from, Bound::Tally, "{what}");
                    let most = counted.upper;
                    let default =
                        hardest(&solver, Goal::State(0), &HardestOptions::default(), &Default::default())
                            .unwrap();
                    assert_eq!((default.lower, default.upper), (Some(most), most), "{what}");
                    assert!(default.lower_from.is_some(), "{what}");
                    compared += 1;
                }
            }
        }
    }
    assert!(compared > 20, "only {compared} grids compared");
}

/// A small budget leaves bounds, each named, bracketing the truth (37).
#[test]
fn a_small_budget_gives_named_bounds_around_nine_by_nine() {
    let solver = Solver::new(&Puzzle::new(9, 9).unwrap(), Method::Auto, 64).unwrap();
    let options = HardestOptions { work: 1 << 28, ..HardestOptions::default() };
    let h = hardest(&solver, Goal::State(0), &options, &Default::default()).unwrap();
    let lower = h.lower.expect("a certified board");
    assert!(lower <= 37 && 37 <= h.upper, "{lower}..{}", h.upper);
    if !h.exact() {
        assert_eq!(h.how, How::Bounds);
        assert!(matches!(h.upper_from, Bound::Average | Bound::SubSpan | Bound::Program));
        // The note's estimate of the work that settles the level in hand.
        assert!(h.settle_work.is_some_and(|w| w > 0.0));
    }
}

/// 9x9 (nullity 8, 55 classes): 37, proven by the leader program by
/// default, and the board needs exactly 37 presses, proven by the solver.
#[test]
#[ignore = "about a CPU-minute: cargo test --release --test leader -- --ignored"]
fn nine_by_nine_is_37_by_default() {
    let solver = Solver::new(&Puzzle::new(9, 9).unwrap(), Method::Auto, 64).unwrap();
    let h = hardest(&solver, Goal::State(0), &HardestOptions::default(), &Default::default()).unwrap();
    assert_eq!((h.lower, h.upper, h.how), (Some(37), 37, How::Search));
    assert_eq!(h.upper_from, Bound::Program);
    let board = h.board.expect("a hardest board");
    let solution = solver.solve_for(&board, &Target::White).unwrap().expect("solvable to white");
    assert!(solution.proven_minimal);
    assert_eq!(solution.presses.presses(), 37);
}
