//! Memory estimates, checked before work starts.
//!
//! Each estimate is an upper bound of the memory the work will hold at its
//! peak, in bytes, from the sizes alone, so a request can be refused before
//! it allocates anything (and a refusal can say what would fit).

use crate::error::Error;
use crate::model::Puzzle;
use crate::solve::MAX_STREAMED_NULLITY;

/// Default nullity up to which an analysis searches the lightest quiet
/// pattern of a two-state board exhaustively: 2^28 patterns, under a
/// second on every size up to 128x128.
pub const ANALYZE_MAX_NULLITY: usize = 28;

/// Default member budget (its log2) of an analysis over Z_K: 2^24
/// members (past it, 0.05 to 0.10 s measured on 24x24 over Z_5 and 12x12
/// torus over Z_3), where the two-state default of
/// 28 would be 2^28 members of a slower walk (5^12 over Z_5, 8 to 10 s).
/// A count of members, not a time, so answers do not depend on the
/// machine; past it a local search answers, marked not proven lightest.
pub const ANALYZE_MAX_MEMBERS_LOG2: u32 = 24;

/// The analysis budget (log2 of the members searched exhaustively) for a
/// game of `states` states, when none is asked.
pub fn analyze_budget(states: u8) -> usize {
    if states == 2 { ANALYZE_MAX_NULLITY } else { ANALYZE_MAX_MEMBERS_LOG2 as usize }
}

/// Bytes of one `rows × cols` grid.
pub fn grid_bytes(rows: usize, cols: usize) -> u64 {
    rows as u64 * cols.div_ceil(64) as u64 * 8
}

/// Grids an in-memory solve holds at once: the board, the right-hand side,
/// the particular solution, the minimiser's current and best members, the
/// re-check's board, and the answers for both targets.
const GRIDS_PER_SOLVE: u64 = 8;

/// Upper bound for factoring `puzzle` by elimination: each of the R·C rows
/// spans at most about twice the bandwidth, and the recorded row operations
/// (8 bytes each) number about R·C times the bandwidth.
pub fn dense_bytes(puzzle: &Puzzle) -> u64 {
    if let Some(graph) = puzzle.graph() {
        return graph_dense_bytes(puzzle.cells() as u64, graph.bandwidth() as u64, graph.edge_count() as u64);
    }
    let reach_rows = puzzle.rule().offsets().iter().map(|o| o.0.unsigned_abs()).max().unwrap_or(0) as u64;
    let reach_cols = puzzle.rule().offsets().iter().map(|o| o.1.unsigned_abs()).max().unwrap_or(0) as u64;
    let (rows, cols) = (puzzle.rows() as u64, puzzle.cols() as u64);
    // Elimination runs along the cells row-major, so the band is set by the
    // columns; on a torus, wrapped rows add as much again.
    let band = 2 * (reach_rows * cols + reach_cols) + 64;
    let cells = rows * cols;
    let per_system = cells.saturating_mul(band).saturating_mul(4) + cells.saturating_mul(band / 8 + 32);
    // A rule whose matrix is not symmetric factors its transpose too.
    if puzzle.is_symmetric() { per_system } else { per_system.saturating_mul(2) }
}

/// [`dense_bytes`] on a graph of `n` vertices, `m` edges and bandwidth `b`
/// (the farthest edge from the diagonal in vertex order: a random graph's
/// is about n, a path's 1).
///
/// A row operation (8 bytes) pairs a pivot column with a row that is not yet
/// a pivot, at most once each: at most n(n−1)/2 of them, and at most about
/// n·(2b + 64)/2 on a band. The grid's bound, n·(2b + 64)/2 alone, is about
/// n² on a random graph, twice this one. Rows span at most n bits, or the
/// band; the lists of the flip matrix's ones (one per edge end and vertex)
/// are held while it factors.
///
/// Measured peaks (`/usr/bin/time -v lightsout solve --graph FILE
/// --generate random`, G(n, m), load 6.8 on 2 cores), the whole process
/// (4.8 MiB on a path of 10) against this bound: n = 8000, degree 10, 81 MiB
/// against 254 MiB; degree 200, 159 against 277; n = 4000: 25 against 64
/// and 50 against 76; n = 2000: 10 against 16 and 20 against 22 (the old
/// bound: 504, 505, 127, 127, 32 and 32 MiB). The worst graphs a search over
/// small ones found take 0.38·n² operations, so the bound of 0.5·n² stays.
fn graph_dense_bytes(n: u64, b: u64, m: u64) -> u64 {
    let band = 2 * b + 64;
    let operations = (n.saturating_mul(n.saturating_sub(1)) / 2).min(n.saturating_mul(band) / 2);
    let row_words = n.min(band).div_ceil(64) + 1;
    let rows = n.saturating_mul(row_words * 8 + 96);
    let lists = (2 * m + n).saturating_mul(16);
    operations.saturating_mul(8).saturating_add(rows).saturating_add(lists)
}

/// Upper bound for solving boards of `puzzle` in memory (grids and, for
/// elimination, the factored matrix), before the nullity is known.
pub fn solve_bytes(puzzle: &Puzzle, dense: bool) -> u64 {
    let grids = grid_bytes(puzzle.rows(), puzzle.cols()).saturating_mul(GRIDS_PER_SOLVE);
    if dense { grids.saturating_add(dense_bytes(puzzle)) } else { grids }
}

/// Upper bound for the quiet patterns of a null space of dimension
/// `nullity`, and the minimiser's work space over them: cells grouped by
/// key (the sort holds one 16-byte entry per cell, then the groups), and
/// per thread one transform table of at most 2^`MAX_TABLE_BITS` rows of
/// 64 bytes.
pub fn quiet_bytes(puzzle: &Puzzle, nullity: usize) -> u64 {
    let patterns = grid_bytes(puzzle.rows(), puzzle.cols()).saturating_mul(nullity as u64);
    // Past a mask's 63 bits no coset is keyed (a descent over whole patterns).
    if nullity == 0 || nullity > super::minimal::MAX_KEY_BITS {
        return patterns;
    }
    let keys = (puzzle.cells() as u64).saturating_mul(32);
    let tables = (rayon::current_num_threads() as u64) << (super::minimal::MAX_TABLE_BITS + 6);
    patterns.saturating_add(keys).saturating_add(tables)
}

/// Upper bound for branch and bound's buffers over a null space of
/// dimension `nullity`: per thread, both children's groups at every depth
/// (at most one per cell), 16 bytes a group while keys fit a `u64`, 32
/// beyond. 79×79 (nullity 64): 13 MB a thread.
pub fn branch_bytes(puzzle: &Puzzle, nullity: usize) -> u64 {
    let entry = if nullity <= 64 { 16 } else { 32 };
    let per_depth = (puzzle.cells() as u64).saturating_mul(2 * entry);
    per_depth.saturating_mul(nullity as u64 + 1).saturating_mul(rayon::current_num_threads() as u64)
}

/// Upper bound for solving a board of `cols` columns row by row
/// (`Chase::solve_streamed`), weighing a null space of dimension `weighed`:
/// a dozen rows, three per quiet pattern (its chase and first row), and
/// 2^`weighed` press counts.
pub fn streamed_bytes(cols: usize, weighed: usize) -> u64 {
    let row = grid_bytes(1, cols);
    let counts = 8u64 << weighed.min(MAX_STREAMED_NULLITY);
    (12 + 3 * weighed as u64).saturating_mul(row).saturating_add(counts)
}

/// Refuses `needed` bytes over `limit`, saying what `work` was asked.
///
/// # Errors
/// [`Error::Memory`] when `needed` is over `limit`.
pub fn check(needed: u64, limit: u64, work: &str) -> Result<(), Error> {
    if needed <= limit {
        return Ok(());
    }
    Err(Error::Memory { work: work.to_string(), needed, limit })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dense_estimate_bounds_what_elimination_holds() {
        // 200x200: the run holds about 72 MB (measured RSS); the bound must
        // be above that but of the same order.
        let bytes = dense_bytes(&Puzzle::new(200, 200).unwrap());
        assert!((70 << 20..400 << 20).contains(&bytes), "{bytes} bytes");
    }

    /// Regression: on a random graph the bound was about 8·n² bytes, six
    /// times the measured peak (the band of a random graph is all of it,
    /// and every row operation of the band was counted twice over). Now
    /// it is 4·n² and a little: what n(n−1)/2 operations take, with the rows
    /// and the lists of ones.
    #[test]
    fn the_dense_estimate_of_a_random_graph_is_the_triangle_of_operations() {
        for (n, m) in [(1000, 5000), (2000, 200_000), (8000, 40_000)] {
            let graph = crate::Graph::random(n, m, 1).unwrap();
            let puzzle = Puzzle::on_graph(graph, crate::Rule::plus()).unwrap();
            let (n, bytes) = (n as u64, dense_bytes(&puzzle));
            let operations = 8 * n * (n - 1) / 2;
            assert!(bytes >= operations && bytes < 6 * n * n, "{n}: {bytes} bytes");
        }
        // A path keeps its band: a few hundred bytes a vertex.
        let path =
            Puzzle::on_graph(crate::Graph::named("path:100000").unwrap(), crate::Rule::plus()).unwrap();
        assert!(dense_bytes(&path) < 100_000 * 1000, "{}", dense_bytes(&path));
    }
}
