//! Criterion benches, one group per question:
//! - `flip_game_4x4`: the cost of one 4x4 board (POJ 1753), solvable and not;
//! - `all_black_nxn`: n x n all black to all white, chasing vs dense
//!   elimination, including the one-off factoring of the system.
//!
//! Run: `cargo bench --bench solve`. Figures: docs/performance.md.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lightsout::{Goal, Grid, Method, Puzzle, Solver, Target, parse_boards};
use std::hint::black_box;

fn flip_game_4x4(c: &mut Criterion) {
    let mut group = c.benchmark_group("flip_game_4x4");
    let solver = Solver::new(&Puzzle::new(4, 4).unwrap(), Method::Auto, 32).unwrap();
    let solvable = parse_boards(b"bwwb\nbbwb\nbwwb\nbwww\n", "bench", None, None).unwrap().remove(0);
    let impossible = parse_boards(b"bwbw\nwwww\nbbwb\nbwwb\n", "bench", None, None).unwrap().remove(0);
    group
        .bench_function("solvable", |b| b.iter(|| solver.solve(black_box(&solvable), Goal::Either).unwrap()));
    group.bench_function("impossible", |b| {
        b.iter(|| solver.solve(black_box(&impossible), Goal::Either).unwrap())
    });
    group.finish();
}

fn all_black_nxn(c: &mut Criterion) {
    let mut group = c.benchmark_group("all_black_nxn");
    group.sample_size(10);
    for n in [16usize, 32, 64, 128] {
        let puzzle = Puzzle::new(n, n).unwrap();
        let board = Grid::ones(n, n);
        let mut methods = vec![Method::Chase];
        if n <= 64 {
            methods.push(Method::Dense);
        }
        for method in methods {
            // Factor and solve together: what one board of a new size costs.
            group.bench_with_input(BenchmarkId::new(format!("{method:?}").to_lowercase(), n), &n, |b, _| {
                b.iter(|| {
                    let solver = Solver::new(&puzzle, method, 32).unwrap();
                    solver.solve_for(black_box(&board), Target::White).unwrap()
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, flip_game_4x4, all_black_nxn);
criterion_main!(benches);
