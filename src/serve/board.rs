//! The handlers that take a board: `/api/solve` and `/api/check`.

use std::borrow::Cow;

use axum::extract::State;
use axum::response::Response;

use super::error::ApiError;
use super::request::{self, ApiJson, CheckRequest, SolveRequest};
use super::work::App;
use super::{Limits, json_response};
use crate::present::{Report, check_json};
use crate::{Error, Grid, Method, Puzzle, Solver, Target};
use serde_json::Value;

/// `POST /api/solve`: the object `lightsout solve --format json` prints.
pub(super) async fn solve(
    State(app): State<App>,
    ApiJson(req): ApiJson<SolveRequest>,
) -> Result<Response, ApiError> {
    app.run(move |job| solve_json(&req, &job.limits)).await.map(json_response)
}

/// The board of a request, its puzzle and its target, checked.
fn read(
    rows: &[String],
    target: Option<&Value>,
    rule: Option<&str>,
    torus: bool,
    limits: &Limits,
) -> Result<(Grid, Puzzle, Vec<Target>), ApiError> {
    let board = request::board(rows, "board", limits)?;
    let shape = (board.nrows(), board.ncols());
    let puzzle = request::puzzle(shape.0, shape.1, rule, torus, limits)?;
    let targets = request::target(target, limits)?;
    Ok((board, puzzle, targets))
}

fn solve_json(req: &SolveRequest, limits: &Limits) -> Result<String, ApiError> {
    let (board, puzzle, targets) =
        read(&req.board, req.target.as_ref(), req.rule.as_deref(), req.torus, limits)?;
    let max_nullity = request::max_nullity(req.max_nullity, limits)?;
    let solver = Solver::with_memory_limit(&puzzle, Method::Auto, max_nullity, limits.max_memory)?;
    let answer = solver.solve(&board, &targets)?;
    Ok(Report { index: 1, board: &board, solver: &solver, answer: &answer }.json())
}

/// `POST /api/check`: the object `lightsout check --format json` prints.
pub(super) async fn check(
    State(app): State<App>,
    ApiJson(req): ApiJson<CheckRequest>,
) -> Result<Response, ApiError> {
    app.run(move |job| check_answer(&req, &job.limits)).await.map(json_response)
}

fn check_answer(req: &CheckRequest, limits: &Limits) -> Result<String, ApiError> {
    let (board, puzzle, targets) =
        read(&req.board, req.target.as_ref(), req.rule.as_deref(), req.torus, limits)?;
    // As `lightsout check`: solvability needs no minimisation.
    let solver = Solver::with_memory_limit(&puzzle, Method::Auto, 0, limits.max_memory)?;
    let verdicts: Vec<(&str, Option<Cow<Grid>>)> = targets
        .iter()
        .map(|t| Ok((t.name(), solver.obstruction(&board, t)?)))
        .collect::<Result<_, Error>>()?;
    Ok(check_json(1, &solver, &verdicts))
}
