//! Criterion benches, one group per question:
//! - `flip_game_4x4`: the cost of one 4x4 board (POJ 1753), solvable and not;
//! - `all_black_nxn`: n x n all black to all white, chasing vs dense
//!   elimination, including the one-off factoring of the system;
//! - `particular`: one board on an already factored system, dense and chase;
//! - `cli_stream_4x4`: the command line's board loop in-process, all 65,536
//!   4x4 boards on standard input in POJ 1753's format (the card's first
//!   use): reading, solving, the re-check and printing, per board costs
//!   included (a progress bar or a lock per board once made it 4-5x slower).
//!
//! Run: `cargo bench --bench solve`. Figures: docs/performance.md.

use criterion::measurement::WallTime;
use criterion::{BenchmarkGroup, BenchmarkId, Criterion, criterion_group, criterion_main};
use lightsout::Game;
use lightsout::solve::{Chase, Dense};
use lightsout::{Grid, Method, Puzzle, Solver, Target, parse_boards};
use std::hint::black_box;

/// Factor and solve together, to all white: what one board of a new size
/// costs, the fewest presses (`minimise`) or any press set. Benchmarked as
/// `METHOD/n`.
fn factor_and_solve(
    group: &mut BenchmarkGroup<WallTime>,
    puzzle: &Puzzle,
    board: &Grid,
    method: Method,
    minimise: bool,
) {
    let id = BenchmarkId::new(format!("{method:?}").to_lowercase(), puzzle.rows());
    group.bench_function(id, |b| {
        b.iter(|| {
            let solver = Solver::new(puzzle, method, 32).unwrap();
            match minimise {
                true => solver.solve_for(black_box(board), &Target::White).unwrap().map(|s| s.presses),
                // Past --max-nullity the solver would run a local search;
                // the particular solution is the elimination's own work.
                false => solver.particular_to(black_box(board), &Target::White).unwrap(),
            }
        })
    });
}

fn flip_game_4x4(c: &mut Criterion) {
    let mut group = c.benchmark_group("flip_game_4x4");
    let solver = Solver::new(&Puzzle::new(4, 4).unwrap(), Method::Auto, 32).unwrap();
    let solvable = parse_boards(b"bwwb\nbbwb\nbwwb\nbwww\n", "bench", None, None).unwrap().remove(0);
    let impossible = parse_boards(b"bwbw\nwwww\nbbwb\nbwwb\n", "bench", None, None).unwrap().remove(0);
    group.bench_function("solvable", |b| {
        b.iter(|| solver.solve(black_box(&solvable), Target::EITHER).unwrap())
    });
    group.bench_function("impossible", |b| {
        b.iter(|| solver.solve(black_box(&impossible), Target::EITHER).unwrap())
    });
    group.finish();
}

fn all_black_nxn(c: &mut Criterion) {
    let mut group = c.benchmark_group("all_black_nxn");
    group.sample_size(10);
    // 64x64 (nullity 28: 2^28 Gray-code steps, about 11 s) is left to
    // docs/performance.md's single timing, to keep this group short.
    for n in [16usize, 32, 128] {
        let puzzle = Puzzle::new(n, n).unwrap();
        let board = Grid::ones(n, n);
        let mut methods = vec![Method::Chase];
        if n <= 64 {
            methods.push(Method::Dense);
        }
        for method in methods {
            factor_and_solve(&mut group, &puzzle, &board, method, true);
        }
    }
    group.finish();
}

/// Where does chasing stop beating elimination (and does it ever)? Factor
/// and solve one all-black board, minimisation excluded (max nullity 0).
fn dense_vs_chase(c: &mut Criterion) {
    let mut group = c.benchmark_group("dense_vs_chase");
    group.sample_size(10);
    for n in [4usize, 8, 16, 32, 64, 128] {
        let puzzle = Puzzle::new(n, n).unwrap();
        let board = Grid::ones(n, n);
        for method in [Method::Chase, Method::Dense] {
            factor_and_solve(&mut group, &puzzle, &board, method, false);
        }
    }
    group.finish();
}

/// Solving many 4x4 boards with one factored solver: the per-board cost of
/// each method once the factoring is paid.
fn per_board_4x4(c: &mut Criterion) {
    let mut group = c.benchmark_group("per_board_4x4");
    let board = parse_boards(b"bwwb\nbbwb\nbwwb\nbwww\n", "bench", None, None).unwrap().remove(0);
    for method in [Method::Chase, Method::Dense] {
        let solver = Solver::new(&Puzzle::new(4, 4).unwrap(), method, 32).unwrap();
        group.bench_function(format!("{method:?}").to_lowercase(), |b| {
            b.iter(|| solver.solve(black_box(&board), Target::EITHER).unwrap())
        });
    }
    group.finish();
}

/// One all-black board on an already factored system, no minimisation
/// and no re-check: the per-board cost of each method's particular
/// solution (for `Dense`, the replay and back substitution).
fn particular(c: &mut Criterion) {
    let mut group = c.benchmark_group("particular");
    for n in [16usize, 64, 128] {
        let puzzle = Puzzle::new(n, n).unwrap();
        let board = Grid::ones(n, n);
        let dense = Dense::new(&puzzle);
        group.bench_with_input(BenchmarkId::new("dense", n), &n, |b, _| {
            b.iter(|| dense.particular(black_box(&board)).unwrap())
        });
        let chase = Chase::new(&puzzle);
        group.bench_with_input(BenchmarkId::new("chase", n), &n, |b, _| {
            b.iter(|| chase.particular(black_box(&board)).unwrap())
        });
    }
    group.finish();
}

/// The elimination alone on the (n²)×(n²) flip matrix, as the M4RI harness
/// in ../shared/bench times it (`scripts/bench-m4ri.sh` runs both).
fn dense_elimination(c: &mut Criterion) {
    let mut group = c.benchmark_group("dense_elimination");
    group.sample_size(10);
    for n in [64usize, 128] {
        let puzzle = Puzzle::new(n, n).unwrap();
        let rows = puzzle.cell_lists();
        let rhs = lightsout::gf2::BitVector::repeat(true, n * n);
        group.bench_with_input(BenchmarkId::new("factor_and_solve", n), &n, |b, _| {
            b.iter(|| lightsout::gf2::Echelon::from_rows(n * n, black_box(&rows)).solve(&rhs))
        });
    }
    group.finish();
}

/// All 65,536 4x4 boards, one after another, POJ 1753's rows.
fn all_4x4_boards() -> Vec<u8> {
    let mut text = Vec::with_capacity(65_536 * 20);
    for board in 0u32..1 << 16 {
        for r in 0..4 {
            text.extend((0..4).map(|c| if board >> (4 * r + c) & 1 == 1 { b'b' } else { b'w' }));
            text.push(b'\n');
        }
    }
    text
}

fn cli_stream_4x4(c: &mut Criterion) {
    let mut group = c.benchmark_group("cli_stream_4x4");
    group.sample_size(20);
    let input = all_4x4_boards();
    group.bench_function("stdin", |b| {
        b.iter(|| {
            let (mut out, mut err) = (Vec::with_capacity(700_000), Vec::new());
            let code = lightsout::cli::run(["lightsout"], &mut black_box(&input[..]), &mut out, &mut err);
            assert_eq!((code, out.len()), (0, 684_032), "{}", String::from_utf8_lossy(&err));
            out
        })
    });
    group.finish();
}

criterion_group!(
    benches,
    cli_stream_4x4,
    flip_game_4x4,
    all_black_nxn,
    dense_vs_chase,
    per_board_4x4,
    particular,
    dense_elimination
);
criterion_main!(benches);
