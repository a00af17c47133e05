//! Most Clicks of every n×n up to a size and a nullity (issue 23's sweep):
//! each size's value, whether it is exact, how, and the time it took,
//! then the slowest.
//!
//! Run: `cargo run --release --example hardest_sweep -- [MAX_N] [MAX_NULLITY]`
//! (default 128 and 6).

use std::time::Instant;

use lightsout::analysis::{Goal, HardestOptions, hardest};
use lightsout::{Method, Puzzle, Solver};

fn main() -> Result<(), lightsout::Error> {
    let mut args = std::env::args().skip(1).filter_map(|a| a.parse::<usize>().ok());
    let (max_n, max_nullity) = (args.next().unwrap_or(128), args.next().unwrap_or(6));
    let mut slowest = (0.0, 0);
    for n in 1..=max_n {
        let started = Instant::now();
        let solver = Solver::new(&Puzzle::new(n, n)?, Method::Auto, 64)?;
        if solver.nullity() > max_nullity {
            continue;
        }
        let found = hardest(&solver, Goal::State(0), &HardestOptions::default(), &Default::default())?;
        let seconds = started.elapsed().as_secs_f64();
        let lower = found.lower.map_or("-".to_string(), |l| l.to_string());
        let exact = if found.exact() { "exact" } else { "NOT exact" };
        println!(
            "{n}\t{}\t{lower}\t{}\t{exact}\t{}\t{seconds:.3} s",
            solver.nullity(),
            found.upper,
            found.how.name()
        );
        if seconds > slowest.0 {
            slowest = (seconds, n);
        }
    }
    println!("slowest: {}x{} in {:.3} s", slowest.1, slowest.1, slowest.0);
    Ok(())
}
