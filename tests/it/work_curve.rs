//! The work models behind a long search's progress bar (issue 22, item 4):
//! the share of its work done, not of its blocks.

use lightsout::solve::{Coset, Shard, Sliced, WorkCurve};
use lightsout::{Grid, Method, Puzzle, Solver, Target};

/// The symmetric transform search of 61x61 all black to white (2^40
/// members, 2^22 blocks, 7 symmetries folded; the README's search).
fn coset_61() -> Coset {
    let solver = Solver::new(&Puzzle::new(61, 61).unwrap(), Method::Auto, 40).unwrap();
    let (_, coset) = solver.coset(&Grid::ones(61, 61), &Target::White).unwrap().unwrap();
    coset
}

/// A symmetric transform search weighs one block per orbit: its work is
/// the count of blocks it weighs, counted block by block (the same from one
/// call to the next), about the blocks over the symmetries and the
/// identity (the figure `--estimate` gives; 1.3 % more here, the orbits of
/// the blocks some symmetry fixes being smaller), and the slices of a split add
/// up to it. Its first tenth of the blocks holds most of the work: the
/// bar's blocks a second climbed tenfold as the search went on.
#[test]
fn a_symmetric_transform_s_work_is_the_blocks_it_weighs() {
    let coset = coset_61();
    let layout = coset.layout();
    let blocks = layout.blocks();
    assert_eq!((coset.nullity(), layout.symmetries, blocks), (40, 7, 1 << 22));
    let curve = coset.work_curve(&None, Shard::WHOLE, blocks).unwrap();
    assert_eq!(curve, coset.work_curve(&None, Shard::WHOLE, blocks).unwrap());
    let weighed = (0..blocks).filter(|&b| coset.weighs_block(b)).count() as f64;
    assert_eq!(curve.total(), weighed);
    let burnside = blocks as f64 / (layout.symmetries as f64 + 1.0);
    assert!((weighed / burnside - 1.0).abs() < 0.02, "{weighed} blocks weighed, {burnside} by --estimate");
    // Never less done with more blocks done; exact at every run's end.
    let points: Vec<f64> = (0..=64).map(|k| curve.done(k * blocks / 64)).collect();
    assert!(points.windows(2).all(|w| w[0] <= w[1]), "{points:?}");
    let first = (0..blocks / 64).filter(|&b| coset.weighs_block(b)).count() as f64;
    assert_eq!(points[1], first);
    let tenth = curve.done(blocks / 10) / curve.total();
    assert!(tenth > 0.5, "the first tenth of the blocks holds {tenth} of the work");
    let slices: f64 = (1..=3)
        .map(|index| {
            let shard = Shard { index, count: 3 };
            coset.work_curve(&None, shard, shard.len(blocks)).unwrap().total()
        })
        .sum();
    assert_eq!(slices, weighed);
}

/// A plain (unfolded) transform's blocks all cost the same: its work is
/// its blocks.
#[test]
fn a_plain_transform_s_work_is_its_blocks() {
    let x = Grid::ones(9, 9);
    let quiet: Vec<Grid> = (0..24).map(|j| Grid::from_fn(9, 9, |r, c| (r * 9 + c) % 25 == j)).collect();
    let coset = Coset::new(&x, &quiet);
    let blocks = coset.layout().blocks();
    let curve = coset.work_curve(&None, Shard::WHOLE, blocks).unwrap();
    assert_eq!((curve.total(), curve.done(blocks / 4)), (blocks as f64, (blocks / 4) as f64));
}

/// The curve of a few units, run by run.
#[test]
fn a_work_curve_adds_its_runs() {
    let curve = WorkCurve::from_units(5, |r| r.map(|u| [8.0, 1.0, 0.0, 1.0, f64::NAN][u as usize]).sum());
    assert_eq!(curve.total(), 10.0);
    assert_eq!(
        [curve.done(0), curve.done(1), curve.done(3), curve.done(5), curve.done(99)],
        [0.0, 8.0, 9.0, 10.0, 10.0]
    );
    let many = WorkCurve::from_units(10_000, |r| (r.end - r.start) as f64);
    assert_eq!((many.total(), many.done(4321)), (10_000.0, 4321.0));
}
