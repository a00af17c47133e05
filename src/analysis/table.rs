//! Nullity tables over ranges of sizes.

use rayon::prelude::*;

use crate::error::Error;
use crate::gf2::Poly;
use crate::model::Puzzle;
use crate::solve::{Method, Solver};

/// The nullity of the classic R×C plane puzzle: `deg gcd(f_R(x), f_C(x+1))`
/// (docs/math.md), from the polynomials `f` and `h` given.
pub fn plane_nullity(f_rows: &Poly, h_cols: &Poly) -> usize {
    f_rows.gcd(h_cols).degree().unwrap_or(0)
}

/// `f_0 … f_n` with `f₀ = 1`, `f₁ = x + shift`, `f_(k+1) = (x + shift)·f_k + f_(k−1)`:
/// `shift = 0` gives `f_k(x)`, `shift = 1` gives `f_k(x+1)`.
fn sequence(n: usize, shift: bool) -> Vec<Poly> {
    let step = if shift { Poly::from_exponents(&[1, 0]) } else { Poly::monomial(1) };
    let mut seq = vec![Poly::one()];
    if n >= 1 {
        seq.push(step.clone());
    }
    while seq.len() <= n {
        let k = seq.len();
        let mut next = &seq[k - 1] * &step;
        next.add_shifted(&seq[k - 2], 0);
        seq.push(next);
    }
    seq
}

/// The nullity of every size `rows × cols` in the ranges, for puzzles like
/// `template` (its topology and rule), row by row. `progress` is called
/// once per finished row of the table.
///
/// The classic plane uses the polynomial formula (a gcd per size, on all
/// cores); other rules and the torus factor each size by elimination, so
/// their ranges should stay small.
///
/// # Errors
/// [`Error::BadInput`] for a size of 0 or above the limit; [`Error::Limit`]
/// when one size's elimination would need more than `max_memory` bytes.
pub fn nullity_table(
    rows: std::ops::RangeInclusive<usize>,
    cols: std::ops::RangeInclusive<usize>,
    template: &Puzzle,
    max_memory: u64,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Vec<usize>>, Error> {
    let (r_end, c_end) = (*rows.end(), *cols.end());
    Puzzle::new(r_end.max(1), c_end.max(1))?;
    Puzzle::new((*rows.start()).max(1), (*cols.start()).max(1))?;
    if *rows.start() == 0 || *cols.start() == 0 {
        return Err(Error::BadInput("table sizes start at 1".into()));
    }
    let rows: Vec<usize> = rows.collect();
    let cols: Vec<usize> = cols.collect();
    if template.is_classic() {
        let f = sequence(r_end, false);
        let h = sequence(c_end, true);
        return Ok(rows
            .par_iter()
            .map(|&r| {
                let row = cols.iter().map(|&c| plane_nullity(&f[r], &h[c])).collect();
                progress();
                row
            })
            .collect());
    }
    rows.par_iter()
        .map(|&r| {
            let row = cols
                .iter()
                .map(|&c| {
                    let puzzle = Puzzle::new(r, c)?
                        .with_topology(template.topology())
                        .with_rule(template.rule().clone());
                    Ok(Solver::with_memory_limit(&puzzle, Method::Dense, 0, max_memory)?.nullity())
                })
                .collect::<Result<Vec<_>, Error>>();
            progress();
            row
        })
        .collect()
}
