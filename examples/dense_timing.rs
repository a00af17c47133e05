//! Times our elimination the way ../shared/bench/m4ri_lightsout.c times
//! M4RI's, for `scripts/bench-m4ri.sh`: the (n·m)×(n·m) flip matrix of the
//! classic plane puzzle, all-black board to all white.
//!
//!     cargo run --release --example dense_timing -- N M

use std::time::Instant;

use lightsout::gf2::{BitVector, Echelon};
use lightsout::{Grid, Puzzle};

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).map(|a| a.parse().expect("N M")).collect();
    let (n, m) = (args[0], args[1]);
    let puzzle = Puzzle::new(n, m).expect("valid size");
    let t = Instant::now();
    let rows = puzzle.cell_lists();
    let build_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let echelon = Echelon::from_rows(n * m, &rows);
    let factor_s = t.elapsed().as_secs_f64();
    let t = Instant::now();
    let x = echelon.solve(&BitVector::repeat(true, n * m)).expect("all black is always solvable");
    let solve_s = t.elapsed().as_secs_f64();
    let presses = Grid::from_vector(n, m, &x);
    let left_on = puzzle.apply(&Grid::ones(n, m), &presses).count_ones();
    println!(
        "mode=ours n={n} m={m} dim={} build_s={build_s:.6} factor_s={factor_s:.6} solve_s={solve_s:.6} \
         total_s={:.6} rank={} nullity={} presses={} left_on={left_on}",
        n * m,
        factor_s + solve_s,
        echelon.rank(),
        echelon.nullity(),
        presses.count_ones()
    );
}
