//! K-state search records (version 2).
//!
//! A K-state [`Record`](super::Record) holds the problem of a K-state long search (with
//! `states` and, on a graph, the graph6), its hash, and per target the
//! `StateSearchState` of its exhaustive search; a long K-state search
//! writes them (a shard's line, a checkpoint) and `merge` joins them, each
//! slice verified against the problem rebuilt from the record. Two-state
//! records ([`search`](super::search)) stay version 1.

use serde::{Deserialize, Serialize};

use super::problem::{Shape, method_word, problem_error, read_puzzle};
use super::search::{RecordKind, Words};
use crate::present::topology_name;
use crate::solve::states::minimum::TaskLayout;
use crate::zk::Modulus;
use crate::{Error, Graph, Method, Puzzle, StateGrid, StateTarget};

/// Version of K-state search records (two-state ones are version 1).
pub const STATE_RECORD_VERSION: u32 = 2;

/// What a K-state search answers: everything that decides its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StateProblem {
    /// K.
    pub states: u8,
    pub rows: usize,
    pub cols: usize,
    pub topology: String,
    /// The rule as a mask (`010/111/010`).
    pub rule: String,
    /// The board: one list of states per row.
    pub board: Vec<Vec<u8>>,
    /// `any`, a state number, or `board` (then `target_board` holds it).
    pub target: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub target_board: Option<Vec<Vec<u8>>>,
    /// `auto`, `dense` or `chase`: the method picks the generators of the
    /// kernel, and so what a mask means.
    pub method: String,
    /// The graph (graph6) of a puzzle on a graph; absent for a grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<String>,
}

impl StateProblem {
    pub fn of(puzzle: &Puzzle, k: u8, board: &StateGrid, targets: &[StateTarget], method: Method) -> Self {
        let rows_of = |g: &StateGrid| (0..g.nrows()).map(|r| g.row(r).to_vec()).collect::<Vec<_>>();
        let (target, target_board) = match targets {
            [StateTarget::Uniform(s)] => (s.to_string(), None),
            [StateTarget::Board(goal)] => ("board".to_string(), Some(rows_of(goal))),
            _ => ("any".to_string(), None),
        };
        StateProblem {
            states: k,
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            topology: topology_name(puzzle.topology()).into(),
            rule: puzzle.rule().mask(),
            board: rows_of(board),
            target,
            target_board,
            method: method_word(method).into(),
            graph: puzzle.graph().map(Graph::to_graph6),
        }
    }

    /// The values the record holds, read back: puzzle, K, board, targets,
    /// method.
    pub fn question(
        &self,
        source: &str,
    ) -> Result<(Puzzle, Modulus, StateGrid, Vec<StateTarget>, Method), Error> {
        let wrap = problem_error(source);
        let bad = |why: String| wrap(Error::BadInput(why));
        let states = Modulus::new(u32::from(self.states))
            .map_err(|_| bad(format!("has {} states; the number of states is 2 to 255", self.states)))?;
        let shape = Shape { rows: self.rows, cols: self.cols, topology: &self.topology, rule: &self.rule };
        let (puzzle, method) = read_puzzle(shape, &self.method, self.graph.as_deref(), source)?;
        let grid = |rows: &[Vec<u8>]| {
            let cells: Vec<u8> = rows.iter().flatten().copied().collect();
            let shaped = rows.len() == puzzle.rows() && rows.iter().all(|r| r.len() == puzzle.cols());
            StateGrid::from_cells(puzzle.rows(), puzzle.cols(), cells)
                .filter(|g| shaped && g.max_state() < self.states)
                .ok_or_else(|| bad("has a board that does not fit the puzzle or its states".into()))
        };
        let board = grid(&self.board)?;
        let targets = match (self.target.as_str(), &self.target_board) {
            ("any", None) => StateTarget::any(states),
            ("board", Some(rows)) => vec![StateTarget::Board(grid(rows)?)],
            (s, None) => match s.parse::<u8>() {
                Ok(s) if s < self.states => vec![StateTarget::Uniform(s)],
                _ => return Err(bad(format!("has an unknown target '{s}'"))),
            },
            _ => return Err(bad("has a target board without target 'board'".into())),
        };
        Ok((puzzle, states, board, targets, method))
    }
}

impl RecordKind for StateProblem {
    /// Members of the kernel, in decimal.
    type Size = String;
    type Slices = TaskLayout;
    const VERSION: u32 = STATE_RECORD_VERSION;
    const WORDS: Words = K_STATE_WORDS;
}

/// The words of K-state search records.
const K_STATE_WORDS: Words =
    Words::new("board, states, rule, shape, target or method", "--max-nullity", "kernel_size");

/// Whether `text` is a K-state search record (version 2), by its header.
pub fn is_state_record(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text.trim()).is_ok_and(|v| {
        v["lightsout"] == "search" && v["version"].as_u64() == Some(u64::from(STATE_RECORD_VERSION))
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_problems_read_back() {
        let puzzle = Puzzle::new(2, 3).unwrap();
        let board = StateGrid::from_fn(2, 3, |r, c| ((r + c) % 3) as u8);
        let targets = vec![StateTarget::Board(StateGrid::filled(2, 3, 1))];
        let problem = StateProblem::of(&puzzle, 3, &board, &targets, Method::Auto);
        let (p, k, b, t, m) = problem.question("x.json").unwrap();
        assert_eq!((p.rows(), p.cols(), k.get(), b, t, m), (2, 3, 3, board, targets, Method::Auto));
        let mut edited = problem.clone();
        edited.board[0][0] = 3;
        assert!(edited.question("x.json").is_err(), "a state of K is refused");
        assert_ne!(edited.hash(), problem.hash());
    }
}
