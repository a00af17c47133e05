//! Branch and bound folded by the board's turns and mirrors at every depth
//! they act on (`Fold`) against the same search unfolded, on all-black
//! squares small enough to search whole, and as the CLI prints them.

use lightsout::solve::minimal::{Branching, cross_coset, search_branch};
use lightsout::solve::{Budget, Shard, improve};
use lightsout::{Grid, Method, Puzzle, Solver, Target};

use crate::toolbox::run;

/// Folded and unfolded find the same (weight, mask) over the same cross
/// basis, whole and in 3 slices, and the fold acts below the cross: on
/// odd squares it reaches 7.5x or more before the last coordinate.
#[test]
fn folded_equals_unfolded_on_all_black_squares() {
    for (n, known) in [(19, Some(141)), (33, None), (39, None), (47, Some(971))] {
        let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 63).unwrap();
        let board = Grid::ones(n, n);
        let (x, folded) = solver.cross_coset(&board, &Target::White).unwrap().unwrap();
        let unfolded = cross_coset(&x, solver.quiet_patterns()).unwrap();
        let d = folded.nullity();
        let fold = folded.fold().unwrap();
        let reached = fold.depths().into_iter().find(|&t| fold.fold_at(t) >= 7.5);
        assert!(reached.is_some_and(|t| t < d), "{n}x{n}: fold reaches {reached:?} of {d}");
        let bound = improve(&folded, &Budget::default()).best.weight;
        let plan = Branching::new(d, 3, bound);
        let blocks = 1u64 << plan.prefix_bits;
        let whole = |coset| search_branch(coset, &plan, Shard::WHOLE, 0..blocks).unwrap();
        let (a, b) = (whole(&folded), whole(&unfolded));
        assert_eq!(a, b, "{n}x{n}");
        if let Some(known) = known {
            assert_eq!(a.weight, known, "{n}x{n}");
        }
        let sliced = (1..=3)
            .map(|index| {
                let shard = Shard { index, count: 3 };
                search_branch(&folded, &plan, shard, 0..shard.len(blocks))
            })
            .fold(None, lightsout::solve::Best::better);
        assert_eq!(sliced, Some(a), "{n}x{n} in 3 slices");
    }
}

/// The CLI's branch and bound prints exactly what the transform prints.
#[test]
fn the_folded_engine_answers_as_the_transform_does() {
    for n in ["19", "33", "39", "47"] {
        let problem = ["-g", "all-black", "-r", n, "-c", n, "-t", "white", "--engine"];
        let branch = run(&[&problem[..], &["branch"]].concat(), "");
        let transform = run(&[&problem[..], &["transform"]].concat(), "");
        assert_eq!(branch.2, 0, "{n}: {}", branch.1);
        assert_eq!(branch, transform, "{n}x{n}");
    }
}

/// `--estimate` names how far the fold gets, by depth: on 79x79 the cross
/// folds 2x and the distance shells below it 8x by depth 41; the merges
/// come first, then the rate with the load it was measured at, the time a
/// slice and on 64 and 1000 cores, and the engine the search runs by.
#[test]
fn the_estimate_prints_the_fold_reached() {
    let (out, err, code) = run(
        &[
            "-g",
            "all-black",
            "-r",
            "79",
            "-c",
            "79",
            "-t",
            "white",
            "--max-nullity",
            "64",
            "--engine",
            "branch",
            "--estimate",
        ],
        "",
    );
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.contains("7 symmetries folded, "), "{out}");
    // About 6·10^15 merge-equivalents with the parity checks (1.1·10^16
    // merges before them): the figure is the estimate's, not pinned.
    assert!(out.contains("4.6x at 34, 6.7x at 36, 8.0x from 41): about "), "{out}");
    assert!(out.contains(" merges a CPU-second (measured here, load "), "{out}");
    assert!(out.contains(" on 64 cores, ") && out.contains(" on 1000, "), "{out}");
    assert!(out.contains("white: this search runs by branch and bound\n"), "{out}");
}
