//! `POST /api/chase`: light chasing step by step, for the page to walk a
//! person through (the library's [`LightChase`]).

use axum::routing::MethodRouter;
use serde::Deserialize;
use serde_json::{Value, json};

use super::error::ApiError;
use super::request;
use super::work::{App, Job, Lane};
use crate::Grid;
use crate::analysis::{ChaseWalk, LIGHTEST_FIRST_ROW_NULLITY, LightChase};

/// A board of the classic game to chase. `rule`, `torus`, `states` and
/// `graph` are read so that a request for another game is told why it
/// cannot be chased, not that the field is unknown.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct ChaseRequest {
    /// Rows of `b`/`w` (or `1`/`0`, `#`/`.`), as `/api/solve` takes them.
    board: Value,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    torus: bool,
    #[serde(default)]
    states: Option<u32>,
    #[serde(default)]
    graph: Option<String>,
}

/// `POST /api/chase`: the walk of [`answer`].
pub(super) fn chase() -> MethodRouter<App> {
    let lane = |r: &ChaseRequest| Lane::of_board(&r.board, r.states, r.graph.as_deref());
    request::answering_in(lane, "a smaller board", walk_json)
}

/// Why a request's game cannot be chased, in one line.
const CLASSIC_ONLY: &str = "light chasing is for the classic game: the plus rule on a plane grid, two states";

fn walk_json(req: ChaseRequest, job: &Job) -> Result<String, ApiError> {
    let limits = &*job.limits;
    if req.graph.is_some() {
        return Err(ApiError::bad(format!("graph: {CLASSIC_ONLY} (a graph has no rows to chase down)")));
    }
    let k = request::states(req.states)?.get();
    if k != 2 {
        return Err(ApiError::bad(format!("states: {CLASSIC_ONLY}, not {k} states")));
    }
    let cells = request::state_board(&req.board, "board", 2, None, limits)?;
    let puzzle = request::puzzle(cells.nrows(), cells.ncols(), req.rule.as_deref(), req.torus, limits)?;
    if !puzzle.is_classic() {
        let what = if req.torus { "a torus".to_owned() } else { format!("the rule {}", puzzle.rule()) };
        return Err(ApiError::bad(format!("{CLASSIC_ONLY}, not {what}")));
    }
    let board = Grid::from_fn(cells.nrows(), cells.ncols(), |r, c| cells.get(r, c) == 1);
    let chase = LightChase::new(&puzzle)?;
    let walk = chase.walk(&board)?;
    // Re-checked here too: the presses the page is told clear the board.
    let solution = walk.presses();
    if let Some(presses) = &solution
        && !puzzle.apply(&board, presses).is_zero()
    {
        return Err(ApiError::Internal("the light chase's presses do not clear the board".into()));
    }
    Ok(answer(&chase, &walk, solution.as_ref(), &board).to_string())
}

/// The walk as JSON: rows of presses `x`/`.` as `/api/solve` writes its
/// solution, the last row's lights `b`/`w` as boards are written.
fn answer(chase: &LightChase, walk: &ChaseWalk, solution: Option<&Grid>, board: &Grid) -> Value {
    let cols = board.ncols();
    let row = |columns: &[usize], on: char, off: char| -> String {
        let mut text = vec![off; cols];
        for &c in columns {
            text[c] = on;
        }
        text.into_iter().collect()
    };
    let steps = |steps: &[Vec<usize>]| steps.iter().map(|s| row(s, 'x', '.')).collect::<Vec<_>>();
    json!({
        "rows": board.nrows(),
        "cols": cols,
        "topology": "plane",
        "rule": "plus",
        "nullity": chase.nullity(),
        "first_chase": steps(&walk.first_chase),
        "last_row": row(&walk.last_row, 'b', 'w'),
        "first_row": walk.first_row.as_ref().map(|first| row(first, 'x', '.')),
        "fewest_first_row": chase.nullity() <= LIGHTEST_FIRST_ROW_NULLITY,
        "second_chase": steps(&walk.second_chase),
        "presses": walk.press_count(),
        "solution": solution.map(|s| crate::grid_lines(s, 'x', '.')),
    })
}
