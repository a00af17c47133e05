//! Every board of a size solved and checked against breadth-first search,
//! for both kinds of game: the exhaustive check that the algebra answers
//! as a search that knows no algebra does.

use rayon::iter::{IntoParallelIterator, ParallelIterator};

use crate::error::Error;
use crate::model::Puzzle;
use crate::solve::states::bfs as state_bfs;
use crate::solve::{Board, Game, KernelSize, TargetOf, bfs};
use crate::zk::Modulus;
use crate::{Method, Solver, StateSolver, StateTarget, Target};

/// Most boards [`verify`] checks: 2^25 (two states: 25 cells).
pub const MAX_BOARDS: u64 = state_bfs::MAX_STATES;

/// What [`verify`] found.
#[derive(Clone, Debug, PartialEq)]
pub struct Verification {
    /// Every board of the size: K^cells.
    pub boards: u64,
    /// The boards whose fewest presses to every uniform target the solver
    /// and breadth-first search agree on.
    pub agreed: u64,
    /// The first board they disagree on (its cells, row by row), with the
    /// search's distance to each uniform target (`u16::MAX`: unreachable).
    pub first_disagreement: Option<(Vec<u8>, Vec<u16>)>,
    /// The size of the solver's kernel.
    pub kernel: KernelSize,
}

/// How many boards of `cells` cells of `states` states there are, if at
/// most [`MAX_BOARDS`].
pub fn board_count(cells: usize, states: Modulus) -> Option<u64> {
    let k = u64::from(states.get());
    (0..cells).try_fold(1u64, |acc, _| acc.checked_mul(k).filter(|&b| b <= MAX_BOARDS))
}

/// Solves every board of `puzzle` (K^cells of them, at most
/// [`MAX_BOARDS`]) for every uniform target with the solver `method`
/// makes, and checks each fewest count against breadth-first search.
/// `done` is told of the boards checked, 4096 at a time.
///
/// # Errors
/// [`Error::Limit`] past [`MAX_BOARDS`]; the solver's own.
///
/// # Example
/// ```
/// use lightsout::analysis::verify;
/// use lightsout::zk::Modulus;
/// use lightsout::{Method, Puzzle};
///
/// let v = verify(&Puzzle::new(3, 3)?, Modulus::new(3)?, Method::Auto, &|_| {})?;
/// assert_eq!((v.boards, v.agreed, v.first_disagreement), (19683, 19683, None));
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn verify(
    puzzle: &Puzzle,
    states: Modulus,
    method: Method,
    done: &(dyn Fn(u64) + Sync),
) -> Result<Verification, Error> {
    let (n, k) = (puzzle.cells(), states.get());
    let boards = board_count(n, states).ok_or_else(|| {
        Error::Limit(format!("every board is checked, at most 2^25 of them; {k}^{n} is more"))
    })?;
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if k == 2 {
        let solver = Solver::new(puzzle, method, crate::solve::DEFAULT_MAX_NULLITY)?;
        let (white, black) = bfs::uniform_states(rows, cols);
        // The two searches are independent: one a core.
        let (to_white, to_black) =
            rayon::join(|| bfs::distances(puzzle, &[white]), || bfs::distances(puzzle, &[black]));
        let wide = |d: u8| if d == bfs::UNREACHABLE { u16::MAX } else { u16::from(d) };
        let distance = |s: u64| [to_white[s as usize], to_black[s as usize]].map(wide).to_vec();
        let board = |s: u64| bfs::decode(rows, cols, s as u32);
        return check_every_board(&solver, boards, board, Target::EITHER, distance, done);
    }
    let solver = StateSolver::new(puzzle, states, method, 63, u64::MAX)?;
    let lists = puzzle.press_lists();
    let distances = (0..k)
        .into_par_iter()
        .map(|s| state_bfs::distances(n, &lists, k, &vec![s; n]))
        .collect::<Result<Vec<_>, Error>>()?;
    let distance = |b: u64| distances.iter().map(|d| d[b as usize]).collect();
    let board =
        |b: u64| crate::StateGrid::from_cell_values(rows, cols, &state_bfs::board_of(b as usize, n, k));
    check_every_board(&solver, boards, board, &StateTarget::any(states), distance, done)
}

/// The one loop of [`verify`], for either game: board number `b` is
/// `board(b)`, and `distance(b)` the search's fewest presses from it to
/// each of `targets`.
fn check_every_board<G: Game + Sync>(
    solver: &G,
    boards: u64,
    board: impl Fn(u64) -> G::Board + Sync,
    targets: &[TargetOf<G>],
    distance: impl Fn(u64) -> Vec<u16> + Sync,
    done: &(dyn Fn(u64) + Sync),
) -> Result<Verification, Error>
where
    TargetOf<G>: Sync,
{
    let disagreements: Vec<u64> = (0..boards)
        .into_par_iter()
        .map(|b| -> Result<Option<u64>, Error> {
            if b % 4096 == 0 {
                done(4096);
            }
            let answer = solver.solve(&board(b), targets)?;
            let presses = answer.outcomes.iter().map(|o| {
                o.solution
                    .as_ref()
                    .map_or(u16::MAX, |s| u16::try_from(s.presses.presses()).unwrap_or(u16::MAX))
            });
            Ok((!presses.eq(distance(b))).then_some(b))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    Ok(Verification {
        boards,
        agreed: boards - disagreements.len() as u64,
        first_disagreement: disagreements.first().map(|&b| (board(b).cell_values(), distance(b))),
        kernel: solver.kernel(),
    })
}
