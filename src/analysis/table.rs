//! Nullity tables over ranges of sizes.

use rayon::prelude::*;

use crate::error::{Error, Side};
use crate::gf2::Poly;
use crate::model::{Puzzle, check_side};
use crate::solve::{Method, Solver, limits};

/// The nullity of the classic R×C plane puzzle: `deg gcd(f_R(x), f_C(x+1))`
/// (docs/math.md), from the polynomials `f` and `h` given.
pub fn plane_nullity(f_rows: &Poly, h_cols: &Poly) -> usize {
    f_rows.gcd(h_cols).degree().unwrap_or(0)
}

/// Word operations a table may take: a few minutes here
/// (`table --rows 1..1000 --cols 1..1000`, about 1.6·10^10 by the estimate
/// below, takes 3.6 s of CPU).
const MAX_TABLE_WORK: f64 = 2.5e12;

/// The estimated cost of a table of `n_rows × n_cols` sizes up to
/// `r_end × c_end` with `template`'s rule and topology: (word operations,
/// bytes). The one estimate that both `lightsout table` and the server's
/// `/api/table` hold against their budgets.
pub(crate) fn table_cost(
    n_rows: usize,
    n_cols: usize,
    r_end: usize,
    c_end: usize,
    template: &Puzzle,
) -> (f64, f64) {
    let sizes = n_rows as f64 * n_cols as f64;
    if template.is_classic() {
        // A gcd of degree-n polynomials: about n²/64 word operations; the
        // sequences f_0..f_R and h_0..h_C hold about (R² + C²)/16 bytes.
        let degree = r_end.max(c_end) as f64;
        let memory = (r_end as f64).powi(2) / 16.0 + (c_end as f64).powi(2) / 16.0 + sizes * 8.0;
        (sizes * degree * degree / 64.0, memory)
    } else {
        // Elimination of each size: cells × (2·band)² / 64.
        let cells = r_end as f64 * c_end as f64;
        let band = 2.0 * c_end as f64 + 64.0;
        (sizes * cells * band * band / 64.0, sizes * 8.0)
    }
}

/// Refuses a table whose polynomials would not fit in `max_memory`, or
/// whose work would run for hours, before any is done.
fn check_cost(
    n_rows: usize,
    n_cols: usize,
    r_end: usize,
    c_end: usize,
    template: &Puzzle,
    max_memory: u64,
) -> Result<(), Error> {
    let (work, memory) = table_cost(n_rows, n_cols, r_end, c_end, template);
    let ranges = format!("a table of {} sizes up to {r_end}x{c_end}", n_rows * n_cols);
    limits::check(memory as u64, max_memory, &ranges)?;
    if work > MAX_TABLE_WORK {
        return Err(Error::Limit(format!(
            "{ranges} needs about {work:.1e} word operations, more than the {MAX_TABLE_WORK:.1e} (a few \
             minutes) a table may take"
        )));
    }
    Ok(())
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
/// [`Error::BadSide`] for a size of 0 or above the limit; [`Error::Memory`]
/// when the table would need more than `max_memory` bytes, and
/// [`Error::Limit`] when it would take more than a few minutes.
pub fn nullity_table(
    rows: std::ops::RangeInclusive<usize>,
    cols: std::ops::RangeInclusive<usize>,
    template: &Puzzle,
    max_memory: u64,
    progress: &(dyn Fn() + Sync),
) -> Result<Vec<Vec<usize>>, Error> {
    let (r_end, c_end) = (*rows.end(), *cols.end());
    for (side, range) in [(Side::Rows, &rows), (Side::Cols, &cols)] {
        check_side(side, *range.start())?;
        check_side(side, *range.end())?;
    }
    let rows: Vec<usize> = rows.collect();
    let cols: Vec<usize> = cols.collect();
    check_cost(rows.len(), cols.len(), r_end, c_end, template, max_memory)?;
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
