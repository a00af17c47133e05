//! The handlers that take a board: `/api/solve` and `/api/check`.

use axum::routing::MethodRouter;

use super::error::ApiError;
use super::game::{OnGame, Served, for_states};
use super::request::{self, CheckRequest, SolveRequest};
use super::work::{App, Job, Lane};
use crate::present::Report;
use crate::solve::{Board, GameSpec, TargetOf};
use crate::zk::Modulus;
use crate::{Error, Puzzle, StateGrid};
use serde_json::Value;

/// Why a request that takes a board may be refused as too large.
const ADVICE: &str = "a smaller board or fewer states";

/// `POST /api/solve`: the object `lightsout solve --format json` prints.
pub(super) fn solve() -> MethodRouter<App> {
    request::answering_in(|r: &SolveRequest| lane(&r.board, r.states, &r.graph), ADVICE, solve_json)
}

/// `POST /api/check`: the object `lightsout check --format json` prints.
pub(super) fn check() -> MethodRouter<App> {
    request::answering_in(|r: &CheckRequest| lane(&r.board, r.states, &r.graph), ADVICE, check_answer)
}

/// The lane of a request about `board`.
fn lane(board: &Value, states: Option<u32>, graph: &Option<String>) -> Lane {
    Lane::of_board(board, states, graph.as_deref())
}

/// A request's board, its puzzle and its targets, of one kind of game.
struct Play<G: Served> {
    board: G::Board,
    puzzle: Puzzle,
    targets: Vec<TargetOf<G>>,
    states: Modulus,
}

/// What a handler does with a request's board, whatever its kind.
trait OnBoard {
    fn on<G: Served>(self, play: Play<G>, job: &Job) -> Result<String, ApiError>;
}

/// Reads the board of a request, its puzzle and its targets, checked, and
/// hands them to `then` as the kind of game its states make.
fn read(asked: &CheckRequest, job: &Job, then: impl OnBoard) -> Result<String, ApiError> {
    let limits = &*job.limits;
    let states = request::states(asked.states)?;
    let k = states.get();
    // The graph first: its vertex count is the board's width.
    let graph = asked.graph.as_deref().map(|g| request::graph(g, limits)).transpose()?;
    let vertices = graph.as_ref().map(crate::Graph::vertex_count);
    let board = request::state_board(&asked.board, "board", k, vertices, limits)?;
    let puzzle = match graph {
        Some(graph) => {
            if (board.nrows(), board.ncols()) != (1, graph.vertex_count()) {
                return Err(request::not_on_graph(
                    "board",
                    graph.vertex_count(),
                    (board.nrows(), board.ncols()),
                ));
            }
            request::graph_puzzle(graph, asked.rule.as_deref(), asked.torus)?
        }
        None => request::puzzle(board.nrows(), board.ncols(), asked.rule.as_deref(), asked.torus, limits)?,
    };
    struct ReadBoard<'a, T: OnBoard> {
        board: StateGrid,
        puzzle: Puzzle,
        vertices: Option<usize>,
        asked: &'a CheckRequest,
        states: Modulus,
        job: &'a Job,
        then: T,
    }
    impl<T: OnBoard> OnGame for ReadBoard<'_, T> {
        fn on<G: Served>(self) -> Result<String, ApiError> {
            let ReadBoard { board, puzzle, vertices, asked, states, job, then } = self;
            let targets = request::targets::<G>(asked.target.as_ref(), vertices, states, &job.limits)?;
            then.on(
                Play::<G> {
                    board: Board::from_cell_values(board.nrows(), board.ncols(), board.cells()),
                    puzzle,
                    targets,
                    states,
                },
                job,
            )
        }
    }
    for_states(states, ReadBoard { board, puzzle, vertices, asked, states, job, then })
}

/// `/api/solve`'s work: the fewest presses, up to `max_nullity`, found
/// before the deadline (a search stopped by it answers the best it found,
/// not proven minimal).
struct SolveBoard {
    /// The request's `max_nullity`, if it named one (within the limit).
    asked: Option<usize>,
}

impl OnBoard for SolveBoard {
    fn on<G: Served>(self, play: Play<G>, job: &Job) -> Result<String, ApiError> {
        // The library's defaults under the server's own ceiling: the same
        // answer as the command line's and Python's where that is no lower.
        let spec = GameSpec::new(play.puzzle.clone(), play.states)
            .with_max_memory(job.limits.max_memory)
            .max_nullity_or(self.asked, job.limits.max_nullity);
        let solver = job.stoppable(|limits| G::make_within(&spec, limits))?;
        // Every target reached answers a press set of the board's cells.
        let written = play.targets.len().saturating_mul(play.puzzle.cells());
        let answer = job.with_search_limits_for(written, |limits| {
            solver.solve_within(&play.board, &play.targets, limits)
        })?;
        Ok(Report { index: 1, board: &play.board, game: &solver, answer: &answer }.json())
    }
}

/// `/api/check`'s work: solvability needs no minimisation.
struct CheckBoard;

impl OnBoard for CheckBoard {
    fn on<G: Served>(self, play: Play<G>, job: &Job) -> Result<String, ApiError> {
        let spec = GameSpec::new(play.puzzle.clone(), play.states).with_max_memory(job.limits.max_memory);
        let solver = G::make(&spec.asking_max_nullity(0))?;
        let verdicts = play
            .targets
            .iter()
            .map(|t| Ok((t.clone(), solver.obstruction(&play.board, t)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        Ok(solver.check_json(1, &verdicts))
    }
}

fn solve_json(req: SolveRequest, job: &Job) -> Result<String, ApiError> {
    let checked = req.max_nullity.map(|d| request::max_nullity(Some(d), &job.limits)).transpose()?;
    let SolveRequest { board, states, graph, target, rule, torus, max_nullity: _ } = req;
    read(&CheckRequest { board, states, graph, target, rule, torus }, job, SolveBoard { asked: checked })
}

fn check_answer(req: CheckRequest, job: &Job) -> Result<String, ApiError> {
    read(&req, job, CheckBoard)
}
