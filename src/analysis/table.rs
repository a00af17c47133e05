//! Nullity tables over ranges of sizes, and their K-state kin: the size
//! of the kernel over Z_K.

use rayon::prelude::*;

use crate::error::{Error, Side};
use crate::gf2::Poly;
use crate::model::{Puzzle, check_side};
use crate::solve::states::StateSolver;
use crate::solve::{Limits, Method, Solver, limits};
use crate::zk::{ENTRY_PASSES_PER_SECOND, Modulus};

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

/// CPU-seconds a K-state table may take, by [`kernel_table_seconds`]: a
/// few minutes, as the two-state tables get (2.5·10^12 word operations).
pub const MAX_KERNEL_TABLE_SECONDS: f64 = 300.0;

/// Entry passes each size costs besides its factoring: making its puzzle
/// and buffers, 10 µs.
const PASSES_PER_SIZE: f64 = 1e3;

/// Estimated CPU-seconds of the kernel table of the sizes `rows × cols`
/// like `template` over `states`: each size's factoring, priced by
/// [`ZkFactors::cost`](crate::zk::ZkFactors::cost) at
/// [`ENTRY_PASSES_PER_SECOND`], summed (up to a size that is not one:
/// the table says so when it gets there).
///
/// Not monotone in the size: a grid rule costs about (R·C)² per prime
/// power of K (passes over its press matrix), so 96x96 costs 5 times 64x64
/// over Z_7; the kernel (380 generators on 96x96, none on 64x64) adds
/// nothing, as its generators are not made.
///
/// # Example
/// ```
/// use lightsout::analysis::kernel_table_seconds;
/// use lightsout::{Puzzle, Rule, Topology, zk::Modulus};
///
/// let king = Puzzle::new(1, 1)?.with_rule(Rule::king()).with_topology(Topology::Torus);
/// let seven = Modulus::new(7)?;
/// // Issue 32's request: 256 rows by 1..64 columns, about a minute.
/// let cols: Vec<usize> = (1..=64).collect();
/// let seconds = kernel_table_seconds(256..=256, &cols, &king, seven);
/// assert!((30.0..120.0).contains(&seconds), "{seconds}");
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn kernel_table_seconds(
    rows: impl IntoIterator<Item = usize>,
    cols: &[usize],
    template: &Puzzle,
    states: Modulus,
) -> f64 {
    priced(rows, cols, template, states, f64::INFINITY).0
}

/// [`kernel_table_seconds`], counted only until it passes `ceiling` (a
/// range of rows need not be walked to its end to know it is too much),
/// and whether it stopped counting there.
fn priced(
    rows: impl IntoIterator<Item = usize>,
    cols: &[usize],
    template: &Puzzle,
    states: Modulus,
    ceiling: f64,
) -> (f64, bool) {
    let mut passes = 0.0;
    for r in rows {
        if passes / ENTRY_PASSES_PER_SECOND > ceiling {
            return (passes / ENTRY_PASSES_PER_SECOND, true);
        }
        for &c in cols {
            let Ok(puzzle) = Puzzle::new(r, c) else { return (passes / ENTRY_PASSES_PER_SECOND, false) };
            let puzzle = puzzle.with_topology(template.topology()).with_rule(template.rule().clone());
            passes += PASSES_PER_SIZE + crate::solve::states::factoring_cost(&puzzle, states);
        }
    }
    (passes / ENTRY_PASSES_PER_SECOND, false)
}

/// Refuses a K-state table estimated at more than `max_seconds` CPU-s,
/// in one line with the estimate and `limit` (whose limit it is).
///
/// # Errors
/// [`Error::Limit`] over it.
pub fn check_kernel_table_cost(
    rows: impl IntoIterator<Item = usize>,
    cols: &[usize],
    template: &Puzzle,
    states: Modulus,
    max_seconds: f64,
    limit: &str,
) -> Result<(), Error> {
    let rows: Vec<usize> = rows.into_iter().collect();
    let (seconds, cut) = priced(rows.iter().copied(), cols, template, states, max_seconds);
    if seconds <= max_seconds {
        return Ok(());
    }
    let sizes = rows.len().saturating_mul(cols.len());
    let (r_end, c_end) = (rows.iter().max().unwrap_or(&0), cols.iter().max().unwrap_or(&0));
    let more = if cut { "more than " } else { "about " };
    Err(Error::Limit(format!(
        "a table of {sizes} sizes up to {r_end}x{c_end} over Z_{states} with this rule needs {more}{seconds:.0} \
         CPU-s of elimination by the estimate (each size's press matrix passed over), more than {limit}"
    )))
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
/// `max_memory` bytes. Before any row, [`Error::Limit`] (the one item)
/// for a table estimated at more than [`MAX_KERNEL_TABLE_SECONDS`] CPU-s
/// ([`kernel_table_seconds`]).
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
    let rows: Vec<usize> = rows.into_iter().collect();
    let limit =
        format!("the {MAX_KERNEL_TABLE_SECONDS} CPU-s (a few minutes) a table may take; narrow the ranges");
    let refused = check_kernel_table_cost(
        rows.iter().copied(),
        cols,
        template,
        states,
        MAX_KERNEL_TABLE_SECONDS,
        &limit,
    )
    .err();
    let stopped = limits.stopped_from_now();
    // Refused: that one error, and no row.
    let rows = if refused.is_some() { Vec::new() } else { rows };
    refused.map(Err).into_iter().chain(rows.into_iter().map(move |r| {
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
    }))
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

    /// The price of a K-state table, as docs/performance.md measures it:
    /// not monotone in the size (what a size costs is its press matrix's
    /// passes, not its kernel), the issue's request over the server's 15 s
    /// and under the library's few minutes, and refused up front, in one
    /// line with its estimate, past them.
    #[test]
    fn k_state_tables_are_priced_by_their_eliminations() {
        let seven = Modulus::new(7).unwrap();
        let king =
            Puzzle::new(1, 1).unwrap().with_rule(crate::Rule::king()).with_topology(crate::Topology::Torus);
        let one = |r: usize, c: usize| kernel_table_seconds([r], &[c], &king, seven);
        for (r, c) in [(64, 64), (96, 96), (128, 64), (256, 33), (256, 48), (256, 64), (1, 1)] {
            eprintln!("{r}x{c} king torus Z_7: {:.3} CPU-s", one(r, c));
        }
        assert!(one(96, 96) > 4.0 * one(64, 64) && one(96, 96) < 6.0 * one(64, 64));
        let twelve = Modulus::new(12).unwrap();
        assert!(kernel_table_seconds([96], &[96], &king, twelve) > 1.9 * one(96, 96));
        let cols: Vec<usize> = (1..=64).collect();
        let issue = kernel_table_seconds([256], &cols, &king, seven);
        eprintln!("256 x 1..64: {issue:.1} CPU-s");
        assert!((15.0..MAX_KERNEL_TABLE_SECONDS).contains(&issue), "{issue}");
        let err = check_kernel_table_cost([256], &cols, &king, seven, 15.0, "15 s").unwrap_err().to_string();
        assert!(
            err.starts_with("a table of 64 sizes up to 256x64 over Z_7 with this rule needs about "),
            "{err}"
        );
        assert!(check_kernel_table_cost([256], &cols, &king, seven, issue + 1.0, "").is_ok());
        // The library's own ceiling: the whole 256x256 square of sizes is
        // refused before any row, counted only as far as it must be.
        let square: Vec<usize> = (1..=256).collect();
        let mut table = kernel_table(1..=256, &square, &king, seven, u64::MAX);
        let refused = table.next().unwrap().unwrap_err().to_string();
        assert!(refused.contains("needs more than") && refused.contains("a few minutes"), "{refused}");
        assert!(table.next().is_none());
        // The classic plane is light chasing: a min(R, C)-square system.
        let plane = Puzzle::new(1, 1).unwrap();
        let classic = kernel_table_seconds(1..=64, &cols, &plane, seven);
        eprintln!("1..64 x 1..64 classic Z_7: {classic:.2} CPU-s");
        assert!(classic < 1.0, "{classic}");
        // Every size up to 256x256 (8 CPU-s measured) fits in 15 s.
        let all = kernel_table_seconds(1..=256, &square, &plane, seven);
        eprintln!("1..256 x 1..256 classic Z_7: {all:.1} CPU-s");
        assert!((8.0..15.0).contains(&all), "{all}");
        let near = kernel_table_seconds(200..=256, &square[199..], &plane, seven);
        let kings = kernel_table_seconds(1..=64, &cols, &king, seven);
        let forty = kernel_table_seconds(1..=40, &cols[..40], &king, seven);
        eprintln!("200..256 classic {near:.2}, 1..64 king torus {kings:.1}, 1..40 {forty:.1} CPU-s");
    }
}
