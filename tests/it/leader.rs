//! Most Clicks by the leader program (src/analysis/hardest/leader.rs)
//! through the library's front door: the default answer against counting
//! every board where that is cheap, where its bounds come from, the stop
//! once nothing moves (the patience, a count), and 9x9 (nullity 8) proven by
//! default (`#[ignore]`: about 20 CPU-s).

use lightsout::analysis::{Bound, Goal, HardestOptions, How, STALL_SHARE, distribution_cost, hardest};
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
                    // Settled, so not stopped for want of progress.
                    assert_eq!(default.stalled, None, "{what}");
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
#[ignore = "about 20 CPU-s: cargo test --release --test it leader:: -- --ignored"]
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

/// 16x16 (nullity 8) is not settled: the leader program stops once
/// neither a level nor a whole percent of its search moves for the
/// patience (1/32 of the budget), a count, so two runs give the same
/// bounds and board, the ones the default budget gives (124 to 125).
#[test]
fn an_unsettled_size_stops_the_same_way_twice() {
    let solver = Solver::new(&Puzzle::new(16, 16).unwrap(), Method::Auto, 64).unwrap();
    // A small budget keeps the test short: 2^31, a patience of 2^26.
    let options = HardestOptions { work: 1 << 31, ..HardestOptions::default() };
    let run = || hardest(&solver, Goal::State(0), &options, &Default::default()).unwrap();
    let (first, second) = (run(), run());
    assert_eq!(first.how, How::Bounds);
    assert_eq!(first.stalled, Some((1 << 31) / STALL_SHARE));
    assert!(!first.stopped);
    assert_eq!((first.lower, first.upper), (Some(124), 125));
    assert_eq!((first.lower, first.upper, first.stalled), (second.lower, second.upper, second.stalled));
    assert_eq!(first.board, second.board);
}

/// The patience stops only a search that does not move: on 9x9's small
/// budgets, where the leader program cannot finish, the bounds still
/// bracket 37 and the level above 38 is refuted (a million weighings).
#[test]
fn the_patience_never_loses_a_bound() {
    let solver = Solver::new(&Puzzle::new(9, 9).unwrap(), Method::Auto, 64).unwrap();
    for work in [1u64 << 26, 1 << 30] {
        let options = HardestOptions { work, ..HardestOptions::default() };
        let h = hardest(&solver, Goal::State(0), &options, &Default::default()).unwrap();
        let lower = h.lower.expect("a certified board");
        assert!(lower <= 37 && 37 <= h.upper, "{work}: {lower}..{}", h.upper);
        assert!(h.upper <= 38, "{work}: {lower}..{}", h.upper);
    }
}
