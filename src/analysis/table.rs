//! Nullity tables over ranges of sizes, and their K-state kin: the size
//! of the kernel over Z_K.

use rayon::prelude::*;

use crate::error::{Error, Side};
use crate::gf2::Poly;
use crate::model::{Puzzle, check_side};
use crate::solve::states::StateSolver;
use crate::solve::{Limits, Method, Solver, limits};
use crate::zk::Modulus;

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

/// One size of a K-state kernel table: how many press sets are quiet.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct KernelEntry {
    /// log2 of the kernel's size (for prime K, the nullity times log2 K).
    pub kernel_size_log2: f64,
    /// The kernel's dimension where K is prime (Z_K a field), else `None`.
    pub nullity: Option<usize>,
}

/// The kernel over Z_`states` of every size `r × c` (`r` from `rows`, `c`
/// from `cols`) for puzzles like `template` (its topology and rule): one
/// item per row of the table, each size factored by [`StateSolver`].
///
/// A row is computed when it is asked for, its sizes on all cores, so that
/// a caller can show progress or stop between rows (a front with a time
/// limit checks it before asking for the next).
///
/// # Errors
/// Per row: [`Error::BadSide`] for a size of 0 or above the limit;
/// [`Error::Memory`] when a size's solver would need more than
/// `max_memory` bytes.
///
/// # Complexity
/// One [`StateSolver::new`] per size: light chasing and a C×C system for
/// the classic plane, an elimination of the R·C cells otherwise.
///
/// # Example
/// ```
/// use lightsout::{Puzzle, kernel_table, zk::Modulus};
///
/// let three = Modulus::new(3)?;
/// let table = kernel_table(1..=2, &[1, 2], &Puzzle::new(1, 1)?, three, u64::MAX)
///     .collect::<Result<Vec<_>, _>>()?;
/// // Over Z_3, 1x2, 2x1 and 2x2 have a quiet pattern and its multiples (3 members).
/// let nullities: Vec<Vec<_>> = table.iter().map(|row| row.iter().map(|e| e.nullity).collect()).collect();
/// assert_eq!(nullities, [[Some(0), Some(1)], [Some(1), Some(1)]]);
/// assert!((table[0][1].kernel_size_log2 - 3f64.log2()).abs() < 1e-12);
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn kernel_table<'a>(
    rows: impl IntoIterator<Item = usize> + 'a,
    cols: &'a [usize],
    template: &'a Puzzle,
    states: Modulus,
    max_memory: u64,
) -> impl Iterator<Item = Result<Vec<KernelEntry>, Error>> + 'a {
    kernel_table_within(rows, cols, template, states, max_memory, &Limits::NONE)
}

/// [`kernel_table`] within `limits`: once they stop it (a flag set, the
/// time up), no further size is factored and the row answers
/// [`Error::Limit`]. A row's sizes can each take seconds (an elimination
/// of R·C unknowns over Z_K), so a caller with a deadline stops inside a
/// row, and inside a size's elimination (checked every few milliseconds),
/// not only between rows: a server's request past its limit no longer
/// runs on for minutes, nor for the seconds of the size in hand.
///
/// # Errors
/// As [`kernel_table`], and [`Error::Limit`] once stopped.
pub fn kernel_table_within<'a>(
    rows: impl IntoIterator<Item = usize> + 'a,
    cols: &'a [usize],
    template: &'a Puzzle,
    states: Modulus,
    max_memory: u64,
    limits: &Limits<'a>,
) -> impl Iterator<Item = Result<Vec<KernelEntry>, Error>> + 'a {
    let stopped = limits.stopped_from_now();
    rows.into_iter().map(move |r| {
        cols.par_iter()
            .map(|&c| {
                if stopped() {
                    return Err(Error::Limit(format!("stopped before the size {r}x{c} of the table")));
                }
                let puzzle =
                    Puzzle::new(r, c)?.with_topology(template.topology()).with_rule(template.rule().clone());
                // The kernel's size only: its generators are not made.
                let kernel = StateSolver::kernel_size_within(&puzzle, states, max_memory, &stopped)?;
                Ok(KernelEntry { kernel_size_log2: kernel.log2, nullity: kernel.nullity })
            })
            .collect()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two routes to one number: the K-state table at K = 2 (Z_2 is GF(2))
    /// against the polynomial formula, and against elimination on the
    /// torus, over sizes 1..=12.
    #[test]
    fn kernel_table_at_two_states_is_the_nullity_table() {
        let two = Modulus::new(2).unwrap();
        let cols: Vec<usize> = (1..=12).collect();
        for template in
            [Puzzle::new(1, 1).unwrap(), Puzzle::new(1, 1).unwrap().with_topology(crate::Topology::Torus)]
        {
            let nullity = nullity_table(1..=12, 1..=12, &template, u64::MAX, &|| {}).unwrap();
            let kernel: Vec<Vec<KernelEntry>> =
                kernel_table(1..=12, &cols, &template, two, u64::MAX).collect::<Result<_, _>>().unwrap();
            for (r, (n_row, k_row)) in nullity.iter().zip(&kernel).enumerate() {
                for (c, (&d, entry)) in n_row.iter().zip(k_row).enumerate() {
                    assert_eq!(entry.nullity, Some(d), "{}x{} {:?}", r + 1, c + 1, template.topology());
                    assert_eq!(entry.kernel_size_log2, d as f64, "{}x{}", r + 1, c + 1);
                }
            }
        }
    }
}
