//! One study of a size for both kinds of game: what [`analyze`](super::analyze)
//! finds over GF(2) and what the K-state solver finds over Z_K, in one
//! shape, with the budget each kind gets when none is asked. The fronts
//! that describe a size whatever its states (Python's `analyze`) read it.

use crate::StateSolver;
use crate::error::Error;
use crate::gf2::Poly;
use crate::model::Puzzle;
use crate::solve::limits::analyze_budget;
use crate::solve::{Board, Game, GameSpec, KernelSize, Limits, Made};
use crate::zk::Modulus;

/// What is known about one puzzle size and rule, over either ring: the
/// cells of each pattern row by row (states for K).
#[derive(Clone, Debug, PartialEq)]
pub struct Study {
    /// The press matrix's rank, where the ring is a field (two states, or
    /// K prime).
    pub rank: Option<usize>,
    /// How many quiet patterns there are: exact, its log2, its dimension.
    pub kernel: KernelSize,
    /// A basis of the quiet patterns (generators for K states) with the
    /// order of each; `None` when they do not fit the memory limit.
    pub quiet: Option<Vec<(Vec<u8>, u32)>>,
    /// The lightest quiet pattern, and whether it is proven lightest.
    pub lightest: Option<(Vec<u8>, bool)>,
    /// The classic plane's `gcd(f_R(x), f_C(x+1))` and its factors (two
    /// states only).
    pub gcd: Option<(Poly, Vec<(Poly, usize)>)>,
    /// Whether every board that can be made all white can be made all
    /// black (two states only).
    pub targets_interchangeable: Option<bool>,
    /// The budget the lightest was searched within: the nullity (two
    /// states) or log2 of the members (K states) searched exhaustively.
    pub max_nullity: usize,
}

/// Studies `puzzle` with `states` states per cell: the lightest quiet
/// pattern searched exhaustively up to `max_nullity` (two states: the
/// nullity; K states: 2^`max_nullity` members), by default
/// [`analyze_budget`] (a moment), and for K states within `limits`
/// (the factoring and the search).
///
/// # Errors
/// [`Error::Memory`] past `max_memory`; the K-state solver's own.
///
/// # Example
/// ```
/// use lightsout::analysis::study;
/// use lightsout::solve::Limits;
/// use lightsout::zk::Modulus;
/// use lightsout::Puzzle;
///
/// let puzzle = Puzzle::new(5, 5)?;
/// let two = study(&puzzle, Modulus::new(2)?, None, u64::MAX, &Limits::default())?;
/// assert_eq!((two.rank, two.kernel.nullity, two.targets_interchangeable), (Some(23), Some(2), Some(true)));
/// let three = study(&puzzle, Modulus::new(3)?, None, u64::MAX, &Limits::default())?;
/// assert_eq!((three.kernel.size.as_str(), three.kernel.nullity), ("27", Some(3)));
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn study(
    puzzle: &Puzzle,
    states: Modulus,
    max_nullity: Option<usize>,
    max_memory: u64,
    limits: &Limits,
) -> Result<Study, Error> {
    let max_nullity = max_nullity.unwrap_or_else(|| analyze_budget(states.get()));
    if states.get() == 2 {
        let a = super::analyze(puzzle, max_nullity, max_memory)?;
        let held = a.quiet.len() == a.nullity;
        let kernel = KernelSize {
            size: (num_bigint::BigUint::from(1u8) << a.nullity).to_string(),
            log2: a.nullity as f64,
            nullity: Some(a.nullity),
        };
        return Ok(Study {
            rank: Some(a.rank()),
            kernel,
            quiet: held.then(|| a.quiet.iter().map(|q| (q.cell_values(), 2)).collect()),
            lightest: a.lightest_quiet.as_ref().map(|(q, proven)| (q.cell_values(), *proven)),
            gcd: a.gcd,
            targets_interchangeable: Some(a.targets_interchangeable),
            max_nullity,
        });
    }
    let spec =
        GameSpec::new(puzzle.clone(), states).with_max_memory(max_memory).asking_max_nullity(max_nullity);
    // Factored within `limits` too: a large K-state size takes seconds.
    let solver = StateSolver::make_within(&spec, limits)?;
    let kernel = solver.kernel();
    Ok(Study {
        rank: solver.rank(),
        kernel,
        quiet: Some(solver.quiet_patterns().iter().map(|(g, order)| (g.cells().to_vec(), *order)).collect()),
        lightest: solver
            .lightest_quiet_pattern_within(limits)
            .map(|(q, proven)| (q.cells().to_vec(), proven)),
        gcd: None,
        targets_interchangeable: None,
        max_nullity,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Method, Solver};

    #[test]
    fn both_kinds_agree_with_their_solvers() {
        for (rows, cols) in [(4, 4), (5, 5), (9, 9), (3, 7)] {
            let puzzle = Puzzle::new(rows, cols).unwrap();
            let two = study(&puzzle, Modulus::new(2).unwrap(), None, u64::MAX, &Limits::default()).unwrap();
            let solver = Solver::new(&puzzle, Method::Auto, 32).unwrap();
            assert_eq!(two.kernel, solver.kernel());
            assert_eq!(two.quiet.as_ref().map(Vec::len), Some(solver.nullity()));
            for k in [3u32, 4, 6] {
                let k = Modulus::new(k).unwrap();
                let many = study(&puzzle, k, None, u64::MAX, &Limits::default()).unwrap();
                let game = StateSolver::new(&puzzle, k, Method::Auto, 24, u64::MAX).unwrap();
                assert_eq!((many.kernel, many.rank), (game.kernel(), game.rank()));
            }
        }
    }
}
