//! Most Clicks of the sizes settled offline, shipped with the library for
//! a front that cannot wait for the proof (the server answers within
//! 15 s; 9x9's proof takes about 20 CPU-s).
//!
//! An entry holds a size's Most Clicks and a board that needs them. The
//! board is solved again by the game's exhaustive engine before it is
//! reported, and its proven minimum must equal the entry: a wrong entry is
//! an error, never an answer. That no board needs more is not proven again
//! here: it is the leader program's refutation, run offline with the
//! command and figures of docs/study.md ("Most Clicks of every n×n up to
//! 128"), which the answer says ([`TABLE_PROVENANCE`]).
//!
//! The table holds the n×n plane grids of the plus rule to 128 that
//! `hardest` proves by default but not within the server's 15 s; every
//! other exact size to 128 takes under 0.01 CPU-s.

use super::{Bound, Goal, Hardest, How, Weighed, certify, prepare, solvable_boards};
use crate::error::Error;
use crate::model::{Rule, Topology};

/// Where a shipped answer's bounds come from, in words.
pub const TABLE_PROVENANCE: &str =
    "settled offline by the leader program, see docs/study.md; the board solved again here";

/// One size settled offline: its Most Clicks to a uniform target, and a
/// board that needs them.
#[derive(Clone, Copy, Debug)]
pub struct SettledSize {
    /// Rows of the plane grid (plus rule, two states).
    pub rows: usize,
    /// Columns.
    pub cols: usize,
    /// The uniform target: 0 all white, 1 all black.
    pub target: u8,
    /// The most presses any board solvable to the target needs.
    pub most_presses: u64,
    /// A board needing exactly that many, one word per row: bit `c` is
    /// column `c`, set where the cell is lit.
    pub board: &'static [u128],
}

impl SettledSize {
    /// The board's cells row by row (1 lit, 0 dark).
    pub fn cells(&self) -> Vec<u8> {
        self.board.iter().flat_map(|&row| (0..self.cols).map(move |c| (row >> c & 1) as u8)).collect()
    }
}

/// The sizes settled offline. 9x9 to all white: the board `hardest -r 9
/// -c 9 -f json` printed at 578d60e (21.6 CPU-s, 2026-12-06); to all
/// black, its complement (all black is reachable, so the two targets'
/// boards pair off by complement, as `-t black` printed in 20.7 CPU-s).
pub const SETTLED: &[SettledSize] = &[
    SettledSize {
        rows: 9,
        cols: 9,
        target: 0,
        most_presses: 37,
        board: &[0x1f7, 0x0f8, 0x036, 0x1cb, 0x1ad, 0x1f0, 0x048, 0x018, 0x1ef],
    },
    SettledSize {
        rows: 9,
        cols: 9,
        target: 1,
        most_presses: 37,
        board: &[0x008, 0x107, 0x1c9, 0x034, 0x052, 0x00f, 0x1b7, 0x1e7, 0x010],
    },
];

/// The entry for a game and goal, if the table holds one: a plane grid of
/// the plus rule, two states, to a uniform state.
pub fn settled_size<G: Weighed>(game: &G, goal: Goal) -> Option<&'static SettledSize> {
    let puzzle = game.puzzle();
    let classic = game.cell_states() == 2
        && puzzle.graph().is_none()
        && puzzle.topology() == Topology::Plane
        && *puzzle.rule() == Rule::plus();
    let Goal::State(target) = goal else { return None };
    SETTLED.iter().find(|s| classic && (s.rows, s.cols, s.target) == (puzzle.rows(), puzzle.cols(), target))
}

/// The hardest boards of `game` for `goal` from the shipped table, where
/// it holds the size (`None` elsewhere): the entry's board, solved again
/// by the exhaustive engine, and the entry's Most Clicks as both bounds
/// (`how` [`How::Table`], both bounds from [`Bound::Table`]). No
/// distribution and no count of the hardest boards.
///
/// # Errors
/// [`Error::Internal`] when the engine does not prove the board's minimum
/// equal to the entry (a wrong entry is never reported); as [`super::hardest`]
/// for the game's quiet patterns.
///
/// # Example
/// ```
/// use lightsout::analysis::{Goal, How, hardest_settled};
/// use lightsout::{Method, Puzzle, Solver};
///
/// let solver = Solver::new(&Puzzle::new(9, 9)?, Method::Auto, 32)?;
/// let h = hardest_settled(&solver, Goal::State(0))?.expect("9x9 is in the table");
/// assert_eq!((h.lower, h.upper, h.how), (Some(37), 37, How::Table));
/// let small = Solver::new(&Puzzle::new(4, 4)?, Method::Auto, 32)?;
/// assert!(hardest_settled(&small, Goal::State(0))?.is_none());
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn hardest_settled<G: Weighed>(game: &G, goal: Goal) -> Result<Option<Hardest<G::Board>>, Error> {
    settled_size(game, goal).map(|entry| from_entry(game, goal, entry)).transpose()
}

/// The answer an entry gives, its board solved again first.
fn from_entry<G: Weighed>(game: &G, goal: Goal, entry: &SettledSize) -> Result<Hardest<G::Board>, Error> {
    let prepared = prepare(game, goal)?;
    let board = game.board_of(entry.cells());
    let (weight, presses) = match certify(game, &board, &game.goal_targets(goal))? {
        Some((weight, presses)) if weight == entry.most_presses => (weight, presses),
        certified => {
            let needs = certified.map_or("no proven number of".into(), |(w, _)| w.to_string());
            return Err(Error::Internal(format!(
                "the shipped table's {}x{} board needs {needs} presses, not {}",
                entry.rows, entry.cols, entry.most_presses
            )));
        }
    };
    Ok(Hardest {
        lower: Some(weight),
        upper: weight,
        board: Some(board),
        presses: Some(presses),
        how: How::Table,
        boards_at_most: None,
        distribution: None,
        boards: solvable_boards(&prepared.classes, prepared.per_coset),
        stopped: false,
        stalled: None,
        settle_work: None,
        lower_from: Some(Bound::Table),
        upper_from: Bound::Table,
        family: None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Method, Puzzle, Solver};

    fn nine() -> Solver {
        Solver::new(&Puzzle::new(9, 9).unwrap(), Method::Auto, 32).unwrap()
    }

    #[test]
    fn a_wrong_entry_is_an_error_never_an_answer() {
        let solver = nine();
        // The right board with a wrong count, either side of the truth.
        for most_presses in [36, 38] {
            let wrong = SettledSize { most_presses, ..SETTLED[0] };
            let e = from_entry(&solver, Goal::State(0), &wrong).unwrap_err();
            assert!(matches!(&e, Error::Internal(m) if m.contains("needs 37 presses, not")), "{e}");
        }
        // A board of a hardest board's count that needs fewer (a single
        // lit cell), and one that cannot reach the target at all.
        let light = SettledSize { board: &[1, 0, 0, 0, 0, 0, 0, 0, 0], ..SETTLED[0] };
        let e = from_entry(&solver, Goal::State(0), &light).unwrap_err();
        assert!(e.to_string().contains("the shipped table's 9x9 board needs"), "{e}");
    }

    #[test]
    fn only_the_classic_game_of_an_entry_is_answered() {
        let solver = nine();
        assert!(settled_size(&solver, Goal::State(0)).is_some());
        assert!(settled_size(&solver, Goal::State(1)).is_some());
        assert!(settled_size(&solver, Goal::Any).is_none());
        let torus = Puzzle::new(9, 9).unwrap().with_topology(Topology::Torus);
        let king = Puzzle::new(9, 9).unwrap().with_rule(Rule::king());
        for puzzle in [torus, king, Puzzle::new(9, 8).unwrap()] {
            let other = Solver::new(&puzzle, Method::Auto, 32).unwrap();
            assert!(settled_size(&other, Goal::State(0)).is_none(), "{puzzle:?}");
        }
    }
}
