//! Studying the puzzle itself: which sizes are always solvable, what the
//! quiet patterns look like, how many boards can be cleared.
//!
//! Beside the solvers, on the same model and algebra: [`analyze`] describes
//! one size, [`nullity_table`] tabulates many (and [`kernel_table`] their
//! kernels over Z_K).

mod chase;
pub mod hardest;
mod study;
mod table;
mod verify;

#[cfg(feature = "cli")]
pub(crate) use table::table_cost;

pub use chase::{ChaseWalk, LIGHTEST_FIRST_ROW_NULLITY, LightChase, chase_lights};
pub use hardest::{
    Bound, CosetTally, DEFAULT_HARDEST_WORK, DistributionSlice, Goal, Hardest, HardestOptions, How,
    QuietCode, STALL_SHARE, SliceHeaviest, Stop, TableRun, WEIGHINGS_PER_SECOND, WalkPrefixes, Weighed,
    distribution_cost, distribution_done, distribution_shards, hardest, hardest_cost, hardest_merged,
    hardest_settled, hardest_slice, most_clicks_table,
};
pub use study::{Study, study};
pub use table::{
    KernelEntry, MAX_KERNEL_TABLE_SECONDS, check_kernel_table_cost, kernel_table, kernel_table_seconds,
    kernel_table_within, nullity_table, plane_nullity,
};
pub use verify::{MAX_BOARDS, Verification, board_count, verify};

use crate::error::Error;
use crate::gf2::Poly;
use crate::model::{Grid, Puzzle};
use crate::solve::minimal::MAX_TRANSFORM_NULLITY;
use crate::solve::{Budget, Chase, Coset, Method, Solver, improve, minimize, search_blocks};

/// What is known about one puzzle size and rule.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The puzzle analysed.
    pub puzzle: Puzzle,
    /// Dimension of the null space (quiet patterns).
    pub nullity: usize,
    /// A basis of the quiet patterns (empty when there are too many to hold
    /// within the memory limit: see [`Solver::holds_quiet_patterns`]).
    pub quiet: Vec<Grid>,
    /// Whether every board that can be made all white can also be made all
    /// black (the all-black board is solvable).
    pub targets_interchangeable: bool,
    /// The lightest non-zero quiet pattern, and whether it is proven
    /// lightest (`None` when the nullity is 0 or the patterns are not held).
    pub lightest_quiet: Option<(Grid, bool)>,
    /// For the classic plane puzzle: `gcd(f_R(x), f_C(x+1))`, whose degree is
    /// the nullity, with its irreducible factors and multiplicities.
    pub gcd: Option<(Poly, Vec<(Poly, usize)>)>,
}

impl Analysis {
    /// Rank of the flip matrix: cells minus nullity.
    pub fn rank(&self) -> usize {
        self.puzzle.cells() - self.nullity
    }
}

/// Analyses `puzzle`: rank and nullity, quiet patterns, whether the two
/// targets are interchangeable, the lightest quiet pattern (searched
/// exhaustively up to `max_nullity`), and for the classic plane the gcd
/// polynomial and its factorisation.
///
/// # Errors
/// [`Error::Memory`] when the work would need more than `max_memory` bytes.
///
/// # Example
/// ```
/// use lightsout::{analyze, Puzzle};
///
/// let a = analyze(&Puzzle::new(5, 5)?, 32, u64::MAX)?;
/// assert_eq!((a.rank(), a.nullity), (23, 2));
/// assert_eq!(a.lightest_quiet.as_ref().map(|(q, _)| q.count_ones()), Some(12));
/// assert_eq!(a.gcd.as_ref().map(|(g, _)| g.to_string()), Some("x^2 + x".into()));
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn analyze(puzzle: &Puzzle, max_nullity: usize, max_memory: u64) -> Result<Analysis, Error> {
    let solver = Solver::with_memory_limit(puzzle, Method::Auto, max_nullity, max_memory)?;
    let quiet = solver.quiet_patterns().to_vec();
    let all_black = Grid::ones(puzzle.rows(), puzzle.cols());
    // Whether the all-black board can be cleared: a solve, not a test
    // against every quiet pattern (which a huge null space would chase).
    let targets_interchangeable =
        crate::Game::particular_to(&solver, &all_black, &crate::Target::White)?.is_some();
    let lightest_quiet = lightest(&quiet, max_nullity);
    let gcd = puzzle.is_classic().then(|| {
        // The chase works on the tall orientation, C×R when R < C, and so
        // holds gcd(f_C(x), f_R(x+1)); substituting x+1 for x (over GF(2),
        // x+2 = x) turns it into the gcd(f_R(x), f_C(x+1)) this field names.
        let g = Chase::new(puzzle).gcd().clone();
        let g = if puzzle.rows() < puzzle.cols() { shift_by_one(&g) } else { g };
        let factors = g.factor();
        (g, factors)
    });
    Ok(Analysis {
        puzzle: puzzle.clone(),
        nullity: solver.nullity(),
        quiet,
        targets_interchangeable,
        lightest_quiet,
        gcd,
    })
}

/// Most cells × patterns whose lightest member a local search looks for
/// (128x128 with 56 patterns is 917,504): beyond, the lightest basis
/// pattern is reported, not proven lightest.
const LOCAL_SEARCH_CELL_PATTERNS: usize = 1 << 21;

/// `p(x+1)`, by Horner's rule.
fn shift_by_one(p: &Poly) -> Poly {
    let x_plus_one = Poly::from_exponents(&[1, 0]);
    let mut shifted = Poly::zero();
    for k in (0..=p.degree().unwrap_or(0)).rev() {
        shifted = &shifted * &x_plus_one;
        if p.coeff(k) {
            shifted.toggle(0);
        }
    }
    shifted
}

/// The lightest non-zero member of the span of `basis` (the null space's
/// minimum distance), and whether it is proven lightest.
///
/// Up to `max_nullity` every member is weighed by the exhaustive engine
/// (mask 0 left out). Beyond, the non-zero members whose highest basis
/// index is i form the coset `basis[i] + span(basis[..i])`, and a local
/// search of each, sharing one budget, gives a light member, not proven.
fn lightest(basis: &[Grid], max_nullity: usize) -> Option<(Grid, bool)> {
    let d = basis.len();
    let (rows, cols) = (basis.first()?.nrows(), basis.first()?.ncols());
    if d <= max_nullity.min(MAX_TRANSFORM_NULLITY) {
        let zero = Grid::zeros(rows, cols);
        let coset = Coset::new(&zero, basis);
        let best = search_blocks(&coset, 0..coset.layout().blocks(), true)?;
        return Some((coset.member(&zero, basis, best.mask), true));
    }
    if rows * cols * d > LOCAL_SEARCH_CELL_PATTERNS {
        // Too large to search at all in a moment: the lightest pattern of
        // the basis, an upper bound only.
        return basis.iter().min_by_key(|q| q.count_ones()).map(|q| (q.clone(), false));
    }
    // A quarter of a search's default work, shared by the d cosets.
    let budget = Budget { work: Budget::default().work / 4 / d as u64, ..Budget::default() };
    let mut cosets = Coset::by_highest_pattern(basis);
    (0..d)
        .map(|i| match cosets.next() {
            Some(coset) => {
                let found = improve(&coset, &budget);
                // basis[i] plus patterns below it: never zero.
                coset.member(&basis[i], &basis[..i], found.best.mask)
            }
            // Keys wider than a mask: descent over whole patterns.
            None => minimize(&basis[i], &basis[..i], 0).0,
        })
        .min_by_key(Grid::count_ones)
        .map(|g| (g, false))
}
