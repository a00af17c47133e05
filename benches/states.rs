//! Criterion benches of the K-state game, one group per question:
//! - `zk_factor`: what does elimination over Z_K cost, by size and K? A
//!   random n×n matrix factored (O(n³) per prime power of K), then one
//!   right-hand side solved;
//! - `chase_solve`: a whole solvable n×n board of K states by light
//!   chasing, as a new size costs it: `StateSolver::new` (the first-row
//!   system built and factored, the quiet patterns chased) and one press
//!   set, re-checked (targets: 2000x2000, K = 3 ≤ 5 s; 1500x1500, K = 6
//!   ≤ 10 s);
//! - `dense_solve`: the same by elimination of the whole press matrix;
//! - `minimum_5x5_k3`: the exact minimum of one 5x5 board of 3 states on a
//!   factored solver (target ≤ 10 ms).
//!
//! Run: `cargo bench --bench states`.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lightsout::Game;
use lightsout::zk::{Modulus, ZkFactors, ZkMatrix};
use lightsout::{Method, Puzzle, StateGrid, StateSolver, StateTarget};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;
use std::time::Duration;

/// A board some press set clears: A·x for a random x, pressed on zero and
/// negated, so that the target all-0 is reachable.
fn solvable_board(puzzle: &Puzzle, k: Modulus, seed: u64) -> StateGrid {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (r, c) = (puzzle.rows(), puzzle.cols());
    let solver = StateSolver::new(puzzle, k, Method::Auto, 0, u64::MAX).unwrap();
    let x = StateGrid::from_fn(r, c, |_, _| rng.random_range(0..k.get()));
    let flipped = solver.apply(&StateGrid::zeros(r, c), &x).unwrap();
    StateGrid::from_fn(r, c, |i, j| k.neg(flipped.get(i, j)))
}

fn zk_factor(c: &mut Criterion) {
    let mut group = c.benchmark_group("zk_factor");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for (k, sizes) in [(3u32, &[500usize, 1000, 2000][..]), (6, &[500, 1500][..]), (251, &[1000][..])] {
        let k = Modulus::new(k).unwrap();
        for &n in sizes {
            let mut rng = ChaCha8Rng::seed_from_u64(n as u64);
            let a = ZkMatrix::from_fn(n, n, |_, _| rng.random_range(0..k.get()));
            let b: Vec<u8> = (0..n).map(|_| rng.random_range(0..k.get())).collect();
            group.bench_with_input(BenchmarkId::new(format!("k{k}"), n), &n, |bench, _| {
                bench.iter(|| ZkFactors::new(black_box(&a), k).solve(&b))
            });
        }
    }
    group.finish();
}

fn chase_solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("chase_solve");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    for (k, sizes) in [(3u32, &[500usize, 1000, 2000][..]), (6, &[500, 1500][..])] {
        let k = Modulus::new(k).unwrap();
        for &n in sizes {
            let puzzle = Puzzle::new(n, n).unwrap();
            let board = solvable_board(&puzzle, k, 7);
            group.bench_with_input(BenchmarkId::new(format!("k{k}"), n), &n, |bench, _| {
                bench.iter(|| {
                    let solver = StateSolver::new(&puzzle, k, Method::Chase, 0, 1 << 30).unwrap();
                    solver.particular_to(black_box(&board), &StateTarget::Uniform(0)).unwrap().unwrap()
                })
            });
        }
    }
    group.finish();
}

fn dense_solve(c: &mut Criterion) {
    let mut group = c.benchmark_group("dense_solve");
    group.sample_size(10).warm_up_time(Duration::from_secs(1));
    let k = Modulus::new(3).unwrap();
    for n in [10usize, 20, 30] {
        let puzzle = Puzzle::new(n, n).unwrap();
        let board = solvable_board(&puzzle, k, 8);
        group.bench_with_input(BenchmarkId::new("k3", n), &n, |bench, _| {
            bench.iter(|| {
                let solver = StateSolver::new(&puzzle, k, Method::Dense, 0, 1 << 30).unwrap();
                solver.particular_to(black_box(&board), &StateTarget::Uniform(0)).unwrap().unwrap()
            })
        });
    }
    group.finish();
}

fn minimum_5x5_k3(c: &mut Criterion) {
    let mut group = c.benchmark_group("minimum_5x5_k3");
    let k = Modulus::new(3).unwrap();
    let puzzle = Puzzle::new(5, 5).unwrap();
    let board = solvable_board(&puzzle, k, 9);
    let solver = StateSolver::new(&puzzle, k, Method::Auto, 32, 1 << 30).unwrap();
    group.bench_function("solve_for", |bench| {
        bench.iter(|| {
            let s = solver.solve_for(black_box(&board), &StateTarget::Uniform(0)).unwrap().unwrap();
            assert!(s.proven_minimal);
            s
        })
    });
    group.bench_function("any_target", |bench| {
        bench.iter(|| solver.solve(black_box(&board), &StateTarget::any(k)).unwrap())
    });
    group.finish();
}

criterion_group!(benches, zk_factor, chase_solve, dense_solve, minimum_5x5_k3);
criterion_main!(benches);
