//! Criterion benches of branch and bound against the transform, side by
//! side on the same problems:
//! - `engines/47`: all-black 47x47 to white (nullity 30, 971 presses),
//!   the whole exact search by the transform (folded), by pure branch and
//!   bound (folded and not) and by the hybrid with 12 transform bits at the
//!   leaves, each from the same local-search bound;
//! - `a79_blocks`: 16 blocks of the a(79) proof (79x79, nullity 64,
//!   looking below 2629 presses), folded and not: 2^−26 of the proof.
//!
//! Run: `cargo bench --bench branch`. Figures: docs/performance.md.

use criterion::{Criterion, criterion_group, criterion_main};
use lightsout::solve::minimal::{Branching, cross_coset, search_branch};
use lightsout::solve::{Budget, Coset, Shard, improve, search_blocks};
use lightsout::{Grid, Method, Puzzle, Solver, Target};
use std::hint::black_box;

/// The solver's coset (symmetric basis), the folded cross coset and the
/// unfolded one, for all-black n x n to white.
fn cosets(n: usize) -> (Coset, Coset, Coset) {
    let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 64).unwrap();
    let board = Grid::ones(n, n);
    let (x, plain) = solver.coset(&board, &Target::White).unwrap().unwrap();
    let (_, folded) = solver.cross_coset(&board, &Target::White).unwrap().unwrap();
    let unfolded = cross_coset(&x, solver.quiet_patterns()).unwrap();
    (plain, folded, unfolded)
}

fn engines(c: &mut Criterion) {
    let mut group = c.benchmark_group("engines/47");
    group.sample_size(10);
    let (plain, folded, unfolded) = cosets(47);
    let bound = improve(&folded, &Budget::default()).best.weight;
    group.bench_function("transform", |b| {
        b.iter(|| search_blocks(black_box(&plain), 0..plain.layout().blocks(), false))
    });
    for (name, coset, leaf_bits) in
        [("branch", &folded, 0), ("branch_unfolded", &unfolded, 0), ("hybrid_12", &folded, 12)]
    {
        let mut plan = Branching::new(coset.nullity(), 1, bound);
        plan.leaf_bits = leaf_bits;
        plan.prefix_bits = plan.prefix_bits.min(coset.nullity() - leaf_bits);
        let blocks = 1u64 << plan.prefix_bits;
        group.bench_function(name, |b| {
            b.iter(|| search_branch(black_box(coset), &plan, Shard::WHOLE, 0..blocks))
        });
    }
    group.finish();
}

fn a79_blocks(c: &mut Criterion) {
    let mut group = c.benchmark_group("a79_blocks");
    group.sample_size(10);
    let (_, folded, unfolded) = cosets(79);
    // 16 interleaved blocks of slice 12345 of 2^20: 1/64 of that slice.
    let shard = Shard { index: 12345, count: 1 << 20 };
    for (name, coset) in [("folded", &folded), ("unfolded", &unfolded)] {
        let plan = Branching::new(64, shard.count, 2628);
        group.bench_function(name, |b| b.iter(|| search_branch(black_box(coset), &plan, shard, 0..16)));
    }
    group.finish();
}

criterion_group!(benches, engines, a79_blocks);
criterion_main!(benches);
