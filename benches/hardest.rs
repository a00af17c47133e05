//! Criterion benches of the hardest boards (`lightsout::analysis::hardest`),
//! one group per target of issue 23:
//! - `most_clicks`: Most Clicks to all white on n×n of nullity 4 to 6 (the
//!   signed counts, the certification included);
//! - `nullity_two`: the published nullity-2 sizes 53 and 245;
//! - `distribution`: every board by its minimum, 4×4, 5×5 and 17×17.
//!
//! Run: `cargo bench --bench hardest` (a few minutes: small samples).

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lightsout::analysis::{Goal, HardestOptions, hardest};
use lightsout::{Method, Puzzle, Solver};
use std::hint::black_box;

fn solver(n: usize) -> Solver {
    Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 64).unwrap()
}

fn group(c: &mut Criterion, name: &str, sizes: &[usize], distribution: bool) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    let options = HardestOptions { distribution, ..HardestOptions::default() };
    for &n in sizes {
        let game = solver(n);
        group.bench_with_input(BenchmarkId::from_parameter(n), &game, |b, game| {
            b.iter(|| {
                let found = hardest(game, Goal::State(0), &options, &Default::default()).unwrap();
                assert!(found.exact());
                black_box(found)
            })
        });
    }
    group.finish();
}

fn most_clicks(c: &mut Criterion) {
    group(c, "most_clicks", &[11, 24, 35, 83, 124], false);
}

fn nullity_two(c: &mut Criterion) {
    group(c, "nullity_two", &[53, 245], false);
}

fn distribution(c: &mut Criterion) {
    group(c, "distribution", &[4, 5, 17], true);
}

criterion_group!(benches, most_clicks, nullity_two, distribution);
criterion_main!(benches);
