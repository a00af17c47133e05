//! Criterion benches of the K-state minimum (`lightsout::solve::states::minimum`),
//! one group per question:
//! - `five_by_five`: the exact minimum of a 5x5 board over Z_3 (the plus
//!   rule's kernel there has 3^3 members), the whole call;
//! - `members`: kernels of 3^8 and 4^8 members on boards of 25 to 4·10^6
//!   cells: what a realistic exact minimum costs, grouping included;
//! - `throughput`: members per second on kernels large enough that the
//!   walk dominates (Throughput is in members);
//! - `tuning`: the engine's buffer size and lanes against the number of
//!   units, which `Tuning::auto` chooses from;
//! - `local`: the local search past the budget on 500x500 and 2000x2000
//!   boards with a few dozen generators;
//! - `folding`: the search folded by the board's symmetries against the
//!   plain one, and the sliced search of `--shard`/`--checkpoint`, on
//!   symmetric boards.
//!
//! Generators other than the 5x5 kernel are random vectors of the stated
//! order (dense, as quiet patterns are): every cell then has its own key
//! once the generators are many, the hard case for grouping.
//!
//! Run: `cargo bench --bench states_minimum`.

use criterion::{BenchmarkId, Criterion, Throughput, criterion_group, criterion_main};
use lightsout::Game;
use lightsout::Puzzle;
use lightsout::solve::Shard;
use lightsout::solve::states::minimum::{
    SlicedCoset, StateSearchState, Tuning, minimize, minimize_symmetric, minimize_tuned,
};
use lightsout::zk::Modulus;
use lightsout::{Method, StateGrid, StateSolver, StateTarget, Topology};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::hint::black_box;

/// A random coset over Z_k on `n` cells: a particular and `d` generators of
/// order `r` (entries multiples of k/r).
fn random_coset(k: u8, r: u8, n: usize, d: usize, seed: u64) -> (Vec<u8>, Vec<(Vec<u8>, u32)>) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let x0 = (0..n).map(|_| rng.random_range(0..k)).collect();
    let gens =
        (0..d).map(|_| ((0..n).map(|_| rng.random_range(0..r) * (k / r)).collect(), u32::from(r))).collect();
    (x0, gens)
}

fn borrowed(gens: &[(Vec<u8>, u32)]) -> Vec<(&[u8], u32)> {
    gens.iter().map(|(g, r)| (&g[..], *r)).collect()
}

/// `board` after pressing cell j `presses[j]` times, plus rule, over Z_k.
fn press(puzzle: &Puzzle, k: u8, board: &[u8], presses: &[u8]) -> Vec<u8> {
    let mut out = board.to_vec();
    for (cells, &times) in puzzle.press_lists().iter().zip(presses) {
        for &c in cells {
            out[c] = ((u32::from(out[c]) + u32::from(times)) % u32::from(k)) as u8;
        }
    }
    out
}

/// Light chasing over Z_k: the press set with first row `first` that
/// clears every row of `board` but the last, and that last row.
fn chase(puzzle: &Puzzle, k: u8, board: &[u8], first: &[u8]) -> (Vec<u8>, Vec<u8>) {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let mut presses = vec![0u8; rows * cols];
    presses[..cols].copy_from_slice(first);
    let mut b = press(puzzle, k, board, &presses);
    for r in 0..rows - 1 {
        let mut next = vec![0u8; rows * cols];
        for c in 0..cols {
            next[(r + 1) * cols + c] = (k - b[r * cols + c]) % k;
            presses[(r + 1) * cols + c] = next[(r + 1) * cols + c];
        }
        b = press(puzzle, k, &b, &next);
    }
    (presses, b[(rows - 1) * cols..].to_vec())
}

/// Every first row of `cols` cells over Z_k.
fn first_rows(cols: usize, k: u8) -> impl Iterator<Item = Vec<u8>> {
    (0..u32::from(k).pow(cols as u32))
        .map(move |f| (0..cols).map(|j| (f / u32::from(k).pow(j as u32) % u32::from(k)) as u8).collect())
}

fn five_by_five(c: &mut Criterion) {
    let (k, puzzle) = (3u8, Puzzle::new(5, 5).unwrap());
    let zero = vec![0u8; 25];
    // The kernel: first rows whose chase of the empty board leaves nothing;
    // a basis of 3 of them (Z_3 is a field: greedily independent).
    let kernel: Vec<Vec<u8>> = first_rows(5, k)
        .map(|f| chase(&puzzle, k, &zero, &f))
        .filter(|(_, rest)| rest.iter().all(|&s| s == 0))
        .map(|(x, _)| x)
        .collect();
    assert_eq!(kernel.len(), 27);
    let mut basis: Vec<Vec<u8>> = Vec::new();
    let mut span = vec![zero.clone()];
    for z in kernel {
        if !span.contains(&z) {
            span = span
                .iter()
                .flat_map(|s| (0..3u8).map(|c| s.iter().zip(&z).map(|(&a, &b)| (a + c * b) % 3).collect()))
                .collect();
            basis.push(z);
        }
    }
    assert_eq!(basis.len(), 3);
    let gens: Vec<(&[u8], u32)> = basis.iter().map(|g| (&g[..], 3)).collect();
    // Solvable boards: what random press sets make of the empty board.
    let mut rng = ChaCha8Rng::seed_from_u64(5);
    let particulars: Vec<Vec<u8>> = (0..16)
        .map(|_| {
            let x: Vec<u8> = (0..25).map(|_| rng.random_range(0..3)).collect();
            let board = press(&puzzle, k, &zero, &x);
            // The first press set the chase finds that clears the board.
            first_rows(5, k)
                .map(|f| chase(&puzzle, k, &board, &f))
                .find(|(_, rest)| rest.iter().all(|&s| s == 0))
                .map(|(x, _)| x)
                .unwrap()
        })
        .collect();
    let mut group = c.benchmark_group("five_by_five");
    group.throughput(Throughput::Elements(particulars.len() as u64));
    group.bench_function("z3_16_boards", |b| {
        b.iter(|| {
            for x in &particulars {
                black_box(minimize(k, black_box(x), &gens, 36));
            }
        })
    });
    group.finish();
}

fn members(c: &mut Criterion) {
    let mut group = c.benchmark_group("members");
    group.sample_size(10);
    for (k, d) in [(3u8, 8usize), (4, 8)] {
        for n in [25usize, 10_000, 250_000, 4_000_000] {
            let (x0, gens) = random_coset(k, k, n, d, 1);
            let gens = borrowed(&gens);
            group.throughput(Throughput::Elements(u64::from(k).pow(d as u32)));
            group.bench_with_input(BenchmarkId::new(format!("z{k}_{k}^{d}"), n), &n, |b, _| {
                b.iter(|| minimize(k, black_box(&x0), &gens, 36))
            });
        }
    }
    group.finish();
}

fn throughput(c: &mut Criterion) {
    let mut group = c.benchmark_group("throughput");
    group.sample_size(10);
    for (k, d, n) in
        [(2u8, 26usize, 100usize), (3, 16, 100), (4, 12, 100), (5, 10, 100), (6, 9, 100), (3, 16, 10_000)]
    {
        let (x0, gens) = random_coset(k, k, n, d, 2);
        let gens = borrowed(&gens);
        group.throughput(Throughput::Elements(u64::from(k).pow(d as u32)));
        group.bench_function(BenchmarkId::new(format!("z{k}_{k}^{d}"), n), |b| {
            b.iter(|| minimize(k, black_box(&x0), &gens, 40))
        });
    }
    group.finish();
}

fn tuning(c: &mut Criterion) {
    let mut group = c.benchmark_group("tuning");
    group.sample_size(10);
    let (k, d) = (3u8, 14usize);
    group.throughput(Throughput::Elements(u64::from(k).pow(d as u32)));
    for n in [100usize, 3_000, 10_000] {
        let (x0, gens) = random_coset(k, k, n, d, 3);
        let gens = borrowed(&gens);
        for (log2, lanes) in [(14, 16), (16, 1), (16, 4), (16, 16), (18, 4)] {
            let tuning = Tuning { max_inner: 1 << log2, lanes, wide: false };
            group.bench_function(BenchmarkId::new(format!("n{n}"), format!("2^{log2}_x{lanes}")), |b| {
                b.iter(|| minimize_tuned(k, black_box(&x0), &gens, 40, &|_, _| {}, Some(tuning)))
            });
        }
    }
    group.finish();
}

fn local(c: &mut Criterion) {
    let mut group = c.benchmark_group("local");
    group.sample_size(10);
    for (k, d, side) in [(4u8, 30usize, 500usize), (3, 36, 2000)] {
        let (x0, gens) = random_coset(k, k, side * side, d, 4);
        let gens = borrowed(&gens);
        group.bench_function(
            BenchmarkId::new(format!("z{k}_{d}_generators"), format!("{side}x{side}")),
            |b| b.iter(|| minimize(k, black_box(&x0), &gens, 0)),
        );
    }
    group.finish();
}

/// A particular, the kernel's generators and the symmetries.
type SymmetricProblem = (Vec<u8>, Vec<(Vec<u8>, u32)>, Vec<Vec<usize>>);

/// The kernel and a particular of `puzzle` over Z_k for a symmetric board to all 0s,
/// and the grid's symmetries (cell permutations).
fn symmetric_problem(puzzle: &Puzzle, k: u8) -> SymmetricProblem {
    let states = Modulus::new(u32::from(k)).unwrap();
    let solver = StateSolver::new(puzzle, states, Method::Auto, 40, 1 << 32).unwrap();
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    // A board every turn and mirror fixes, and solvable: the presses of
    // concentric rings (ring i pressed i mod k times) on the all-0 board.
    let ring = |r: usize, c: usize| (r.min(c).min(rows - 1 - r).min(cols - 1 - c) % usize::from(k)) as u8;
    let board = solver.apply(&StateGrid::zeros(rows, cols), &StateGrid::from_fn(rows, cols, ring)).unwrap();
    let x =
        solver.particular_to(&board, &StateTarget::Uniform(0)).unwrap().expect("solvable by construction");
    let gens = solver.quiet_patterns().iter().map(|(g, o)| (g.cells().to_vec(), *o)).collect();
    // The motions of a square board that keep the plus rule: all eight.
    let n = rows;
    let motion = |f: &dyn Fn(usize, usize) -> (usize, usize)| -> Vec<usize> {
        (0..n * n)
            .map(|cell| {
                let (r, c) = f(cell / n, cell % n);
                r * n + c
            })
            .collect()
    };
    let last = n - 1;
    let symmetries = vec![
        motion(&|r, c| (c, last - r)),
        motion(&|r, c| (last - r, last - c)),
        motion(&|r, c| (last - c, r)),
        motion(&|r, c| (last - r, c)),
        motion(&|r, c| (r, last - c)),
        motion(&|r, c| (c, r)),
        motion(&|r, c| (last - c, last - r)),
    ];
    (x.cells().to_vec(), gens, symmetries)
}

/// Folded by the board's eight symmetries against the plain search, and
/// the sliced search (the long-search engine) against the plain one, on
/// symmetric boards (rings of presses, to all 0s): 14x14 over Z_3 (3^7 members),
/// 12x12 over Z_5 (5^6), 20x20 over Z_7 (7^6), 17x17 over Z_3 (3^12),
/// 26x26 over Z_3 (3^13) and the 12x12 torus over Z_3 (3^17).
fn folding(c: &mut Criterion) {
    let mut group = c.benchmark_group("folding");
    group.sample_size(10);
    let cases = [
        ("14x14_k3", Puzzle::new(14, 14).unwrap(), 3),
        ("12x12_k5", Puzzle::new(12, 12).unwrap(), 5),
        ("20x20_k7", Puzzle::new(20, 20).unwrap(), 7),
        ("17x17_k3", Puzzle::new(17, 17).unwrap(), 3),
        ("26x26_k3", Puzzle::new(26, 26).unwrap(), 3),
        ("torus12_k3", Puzzle::new(12, 12).unwrap().with_topology(Topology::Torus), 3),
    ];
    for (name, puzzle, k) in cases {
        let (x, gens, symmetries) = symmetric_problem(&puzzle, k);
        let gens = borrowed(&gens);
        let plain = minimize(k, &x, &gens, 40);
        assert_eq!(minimize_symmetric(k, &x, &gens, 40, &symmetries, 0).total, plain.total, "{name}");
        group.throughput(Throughput::Elements(gens.iter().map(|g| u64::from(g.1)).product()));
        group.bench_function(BenchmarkId::new("plain", name), |b| {
            b.iter(|| minimize(3, black_box(&x), &gens, 40))
        });
        group.bench_function(BenchmarkId::new("folded", name), |b| {
            b.iter(|| minimize_symmetric(k, black_box(&x), &gens, 40, &symmetries, 0))
        });
        group.bench_function(BenchmarkId::new("sliced", name), |b| {
            b.iter(|| {
                let coset = SlicedCoset::new(k, black_box(&x), &gens);
                let mut state = StateSearchState::new(&coset, Shard::WHOLE).unwrap();
                state.run(&coset, &mut |_| std::ops::ControlFlow::Continue(()));
                state.best
            })
        });
    }
    group.finish();
}

criterion_group!(benches, five_by_five, members, throughput, tuning, local, folding);
criterion_main!(benches);
