//! Criterion benches of the minimum-weight search, one group per question:
//! - `table_bits`: which table size suits this machine's caches? The same
//!   2^26 members of the 39x39 all-black coset (nullity 32), weighed with
//!   tables of 2^10 … 2^16 rows of 64 bytes;
//! - `symmetry`: the whole 39x39 coset (2^32 members) weighed plainly, and
//!   folded by the board's 7 turns and mirrors;
//! - `minimize`: the whole exact minimum of all-black n x n to white, as
//!   `lightsout` runs it (47x47: nullity 30; 39x39: nullity 32);
//! - `incumbents`: the default answer past the exhaustive budget (nullity
//!   above `DEFAULT_MAX_NULLITY`), found in the solutions each symmetry
//!   fixes: all-black 79x79 (nullity 64, target ≤ 2629 presses in 10 s)
//!   and 95x95 (nullity 62, target ≤ 4131).
//!
//! Run: `cargo bench --bench minimum`. Figures: docs/performance.md.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use lightsout::Game;
use lightsout::solve::{Coset, DEFAULT_MAX_NULLITY, search_blocks};
use lightsout::{Grid, Method, Puzzle, Solver, Target};
use std::hint::black_box;

/// The coset of press sets that clear the all-black n x n board.
fn all_black_coset(n: usize) -> Coset {
    let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 0).unwrap();
    let board = Grid::ones(n, n);
    let particular = solver.particular_to(&board, &Target::White).unwrap().unwrap();
    Coset::new(&particular, solver.quiet_patterns())
}

fn table_bits(c: &mut Criterion) {
    let mut group = c.benchmark_group("table_bits");
    group.sample_size(10);
    const MEMBERS_LOG2: usize = 26;
    group.throughput(Throughput::Elements(1 << MEMBERS_LOG2));
    for bits in 10..=16usize {
        let coset = all_black_coset(39).with_table_bits(bits);
        let layout = coset.layout();
        let blocks = 1u64 << (MEMBERS_LOG2 - layout.table_bits - layout.lane_bits);
        group.bench_with_input(BenchmarkId::from_parameter(bits), &bits, |b, _| {
            b.iter(|| search_blocks(black_box(&coset), 0..blocks, false))
        });
    }
    group.finish();
}

fn symmetry(c: &mut Criterion) {
    let mut group = c.benchmark_group("symmetry");
    group.sample_size(10);
    let n = 39;
    let puzzle = Puzzle::new(n, n).unwrap();
    let solver = Solver::new(&puzzle, Method::Auto, 0).unwrap();
    let board = Grid::ones(n, n);
    let x = solver.particular_to(&board, &Target::White).unwrap().unwrap();
    let plain = Coset::new(&x, solver.quiet_patterns());
    let folded = Coset::for_problem(&puzzle, &board, &x, solver.quiet_patterns());
    for (name, coset) in [("plain", &plain), ("folded", &folded)] {
        group.bench_function(name, |b| {
            b.iter(|| search_blocks(black_box(coset), 0..coset.layout().blocks(), false))
        });
    }
    group.finish();
}

fn minimize(c: &mut Criterion) {
    let mut group = c.benchmark_group("minimize");
    group.sample_size(10);
    for n in [47usize, 39] {
        let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 40).unwrap();
        let board = Grid::ones(n, n);
        group.bench_with_input(BenchmarkId::new("all_black", n), &n, |b, _| {
            b.iter(|| solver.solve_for(black_box(&board), &Target::White).unwrap())
        });
    }
    group.finish();
}

fn incumbents(c: &mut Criterion) {
    let mut group = c.benchmark_group("incumbents");
    group.sample_size(10);
    for (n, target) in [(79usize, 2629usize), (95, 4131)] {
        let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, DEFAULT_MAX_NULLITY).unwrap();
        let board = Grid::ones(n, n);
        let found = solver.solve_for(&board, &Target::White).unwrap().unwrap();
        let presses = found.presses.count_ones();
        eprintln!("incumbents/all_black/{n}: {presses} presses (target {target}), {:?}", found.found_by);
        assert!(presses <= target, "{n}x{n}: {presses} presses, target {target}");
        group.bench_with_input(BenchmarkId::new("all_black", n), &n, |b, _| {
            b.iter(|| solver.solve_for(black_box(&board), &Target::White).unwrap())
        });
    }
    group.finish();
}

criterion_group!(benches, table_bits, symmetry, minimize, incumbents);
criterion_main!(benches);
