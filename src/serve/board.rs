//! The handlers that take a board: `/api/solve` and `/api/check`.

use axum::extract::State;
use axum::response::Response;

use super::error::ApiError;
use super::request::{self, ApiJson, CheckRequest, SolveRequest};
use super::work::App;
use super::{Limits, json_response};
use crate::present::{Report, StateReport, check_json, state_check_json};
use crate::zk::Modulus;
use crate::{Error, Game, Grid, Method, Puzzle, Solver, StateGrid, StateSolver, StateTarget, Target};
use serde_json::Value;

/// `POST /api/solve`: the object `lightsout solve --format json` prints.
pub(super) async fn solve(
    State(app): State<App>,
    ApiJson(req): ApiJson<SolveRequest>,
) -> Result<Response, ApiError> {
    app.run(move |job| solve_json(&req, &job.limits)).await.map(json_response)
}

/// What a request that takes a board asks about.
struct Asked<'a> {
    board: &'a Value,
    target: Option<&'a Value>,
    rule: Option<&'a str>,
    torus: bool,
    states: Option<u32>,
    graph: Option<&'a str>,
}

/// A request's board, read for its number of states.
enum Read {
    Bits(Grid, Puzzle, Vec<Target>),
    States(StateGrid, Puzzle, Vec<StateTarget>, Modulus),
}

/// The board of a request, its puzzle and its targets, checked.
fn read(asked: &Asked, limits: &Limits) -> Result<Read, ApiError> {
    let states = request::states(asked.states)?;
    let k = states.get();
    let board = request::state_board(asked.board, "board", k, asked.graph.is_some(), limits)?;
    let puzzle = match asked.graph {
        Some(graph6) => {
            let graph = request::graph(graph6, limits)?;
            if (board.nrows(), board.ncols()) != (1, graph.vertex_count()) {
                return Err(ApiError::bad(format!(
                    "board: a board on a graph is one row of its {} vertices' states, got {}x{}",
                    graph.vertex_count(),
                    board.nrows(),
                    board.ncols()
                )));
            }
            request::graph_puzzle(graph, asked.rule, asked.torus)?
        }
        None => request::puzzle(board.nrows(), board.ncols(), asked.rule, asked.torus, limits)?,
    };
    if k == 2 {
        let bits = Grid::from_fn(board.nrows(), board.ncols(), |r, c| board.get(r, c) == 1);
        let targets = request::target(asked.target, asked.graph.is_some(), limits)?;
        return Ok(Read::Bits(bits, puzzle, targets));
    }
    let targets = request::state_target(asked.target, states, limits)?;
    Ok(Read::States(board, puzzle, targets, states))
}

fn solve_json(req: &SolveRequest, limits: &Limits) -> Result<String, ApiError> {
    let asked = Asked {
        board: &req.board,
        target: req.target.as_ref(),
        rule: req.rule.as_deref(),
        torus: req.torus,
        states: req.states,
        graph: req.graph.as_deref(),
    };
    let max_nullity = request::max_nullity(req.max_nullity, limits)?;
    match read(&asked, limits)? {
        Read::Bits(board, puzzle, targets) => {
            let solver = Solver::with_memory_limit(&puzzle, Method::Auto, max_nullity, limits.max_memory)?;
            let answer = solver.solve(&board, &targets)?;
            Ok(Report { index: 1, board: &board, solver: &solver, answer: &answer }.json())
        }
        Read::States(board, puzzle, targets, states) => {
            let solver =
                StateSolver::new(&puzzle, states, Method::Auto, max_nullity as u32, limits.max_memory)?;
            let answer = solver.solve(&board, &targets)?;
            Ok(StateReport { index: 1, board: &board, solver: &solver, answer: &answer }.json())
        }
    }
}

/// `POST /api/check`: the object `lightsout check --format json` prints.
pub(super) async fn check(
    State(app): State<App>,
    ApiJson(req): ApiJson<CheckRequest>,
) -> Result<Response, ApiError> {
    app.run(move |job| check_answer(&req, &job.limits)).await.map(json_response)
}

fn check_answer(req: &CheckRequest, limits: &Limits) -> Result<String, ApiError> {
    let asked = Asked {
        board: &req.board,
        target: req.target.as_ref(),
        rule: req.rule.as_deref(),
        torus: req.torus,
        states: req.states,
        graph: req.graph.as_deref(),
    };
    // As `lightsout check`: solvability needs no minimisation.
    match read(&asked, limits)? {
        Read::Bits(board, puzzle, targets) => {
            let solver = Solver::with_memory_limit(&puzzle, Method::Auto, 0, limits.max_memory)?;
            let verdicts: Vec<(&str, Option<Grid>)> = targets
                .iter()
                .map(|t| Ok((t.name(), solver.obstruction(&board, t)?)))
                .collect::<Result<_, Error>>()?;
            Ok(check_json(1, &solver, &verdicts))
        }
        Read::States(board, puzzle, targets, states) => {
            let solver = StateSolver::new(&puzzle, states, Method::Auto, 0, limits.max_memory)?;
            let verdicts = targets
                .iter()
                .map(|t| Ok((t.clone(), solver.obstruction(&board, t)?)))
                .collect::<Result<Vec<_>, Error>>()?;
            Ok(state_check_json(1, &solver, &verdicts))
        }
    }
}
