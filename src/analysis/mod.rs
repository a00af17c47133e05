//! Studying the puzzle itself: which sizes are always solvable, what the
//! quiet patterns look like, how many boards can be cleared.
//!
//! Beside the solvers, on the same model and algebra: [`analyze`] describes
//! one size, [`nullity_table`] tabulates many.

mod table;

pub use table::{nullity_table, plane_nullity};

use crate::error::Error;
use crate::gf2::Poly;
use crate::model::{Grid, Puzzle};
use crate::solve::{
    Budget, Chase, Coset, MAX_EXHAUSTIVE_NULLITY, Method, Solver, improve, minimize, search_blocks,
};

/// What is known about one puzzle size and rule.
#[derive(Clone, Debug)]
pub struct Analysis {
    /// The puzzle analysed.
    pub puzzle: Puzzle,
    /// Dimension of the null space (quiet patterns).
    pub nullity: usize,
    /// A basis of the quiet patterns.
    pub quiet: Vec<Grid>,
    /// Whether every board that can be made all white can also be made all
    /// black (the all-black board is solvable).
    pub targets_interchangeable: bool,
    /// The lightest non-zero quiet pattern, and whether it is proven
    /// lightest (`None` when the nullity is 0).
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

    /// log₂ of the number of boards that can be made all white:
    /// 2^(R·C − nullity).
    pub fn solvable_log2(&self) -> usize {
        self.rank()
    }
}

/// Analyses `puzzle`: rank and nullity, quiet patterns, whether the two
/// targets are interchangeable, the lightest quiet pattern (searched
/// exhaustively up to `max_nullity`), and for the classic plane the gcd
/// polynomial and its factorisation.
///
/// # Errors
/// [`Error::Limit`] when the work would need more than `max_memory` bytes.
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
    let targets_interchangeable = solver.obstruction(&all_black, crate::Target::White).is_none();
    let lightest_quiet = lightest(&quiet, max_nullity);
    let gcd = puzzle.is_classic().then(|| {
        let g = Chase::new(puzzle).gcd().clone();
        let factors = g.factor();
        (g, factors)
    });
    Ok(Analysis {
        puzzle: puzzle.clone(),
        nullity: quiet.len(),
        quiet,
        targets_interchangeable,
        lightest_quiet,
        gcd,
    })
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
    let combine = |mask: u64| {
        let mut member = Grid::zeros(rows, cols);
        for (j, q) in basis.iter().enumerate() {
            if mask >> j & 1 == 1 {
                member.xor_assign(q);
            }
        }
        member
    };
    if d <= max_nullity.min(MAX_EXHAUSTIVE_NULLITY) {
        let coset = Coset::new(&Grid::zeros(rows, cols), basis);
        let best = search_blocks(&coset, 0..coset.layout().blocks(), true)?;
        return Some((combine(best.mask), true));
    }
    // A quarter of a search's default work, shared by the d cosets.
    let budget = Budget { work: Budget::default().work / 4 / d as u64, ..Budget::default() };
    (0..d)
        .map(|i| {
            if i > MAX_EXHAUSTIVE_NULLITY {
                // Keys wider than a mask: descent over whole patterns.
                return minimize(&basis[i], &basis[..i], 0).0;
            }
            let coset = Coset::new(&basis[i], &basis[..i]);
            let found = improve(&coset, &budget);
            let mut member = combine(found.best.mask);
            member.xor_assign(&basis[i]);
            member
        })
        .min_by_key(Grid::count_ones)
        .map(|g| (g, false))
}
