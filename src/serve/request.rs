//! The API's request bodies and how their fields become library values,
//! checked against the [`Limits`] on the way.
//!
//! Every body is `deny_unknown_fields`: a misspelt option is a 400 naming
//! it, never silently ignored.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request, State};
use axum::http::header;
use axum::routing::{MethodRouter, post};
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Limits;
use super::error::ApiError;
use super::json_response;
use super::work::{App, Job, Lane};
use crate::model::StateBoards;
use crate::present::{TARGET_WORDS, colour_targets, parse_range, parse_rule, topology};
use crate::solve::{AskedTarget, Made, TargetOf};
use crate::zk::Modulus;
use crate::{Error, Graph, Puzzle, StateGrid};

/// A JSON request body, read up to [`super::Limits::body_bytes`] and parsed into
/// `T` (whose fields are `deny_unknown_fields`), with every failure an
/// [`ApiError`] that says what was wrong and where.
pub(super) struct ApiJson<T>(pub(super) T);

impl<T: DeserializeOwned> FromRequest<App> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, app: &App) -> Result<Self, ApiError> {
        let limits = &app.limits;
        // Requiring the JSON type also makes a browser ask before sending
        // a request from another site (a CORS preflight this server never
        // approves).
        let is_json =
            request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
                v.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !is_json {
            return Err(ApiError::NotJson);
        }
        let too_large = || {
            ApiError::limit(
                "body_bytes",
                format!("the request body is larger than {} bytes", limits.body_bytes),
            )
        };
        let declared =
            request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse().ok());
        if declared.is_some_and(|n: usize| n > limits.body_bytes) {
            return Err(too_large());
        }
        let bytes: Bytes =
            axum::body::to_bytes(request.into_body(), limits.body_bytes).await.map_err(|_| too_large())?;
        // serde reads a struct from an array too (`[]` was every default):
        // a request is an object.
        if bytes.iter().find(|b| !b.is_ascii_whitespace()) == Some(&b'[') {
            return Err(ApiError::bad("request body: a JSON object of named fields, not an array"));
        }
        serde_json::from_slice(&bytes).map(ApiJson).map_err(|e| ApiError::bad(format!("request body: {e}")))
    }
}

/// The route of an API call: `POST` of a request `R`, answered with the
/// JSON text `work` makes of it, run as a job in the long lane; `advice`
/// is what the request could ask for instead when the job runs past the
/// time limit.
pub(super) fn answering<R>(
    advice: &'static str,
    work: fn(R, &Job) -> Result<String, ApiError>,
) -> MethodRouter<App>
where
    R: DeserializeOwned + Send + 'static,
{
    answering_in(|_| Lane::Long, advice, work)
}

/// [`answering`] in the lane `lane` picks for the request.
pub(super) fn answering_in<R>(
    lane: fn(&R) -> Lane,
    advice: &'static str,
    work: fn(R, &Job) -> Result<String, ApiError>,
) -> MethodRouter<App>
where
    R: DeserializeOwned + Send + 'static,
{
    post(move |State(app): State<App>, ApiJson(req): ApiJson<R>| async move {
        app.run_in(lane(&req), advice, move |job| work(req, job)).await.map(json_response)
    })
}

/// `POST /api/solve`: the fewest presses, as `lightsout solve --format json`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct SolveRequest {
    /// The board: rows of `b`/`w` (or `1`/`0`, `#`/`.`; digits for more
    /// states), top first, as a list of strings, one string with line
    /// breaks, or a list of lists of numbers.
    pub(super) board: Value,
    /// States of a cell, 2 (default) to 255.
    #[serde(default)]
    pub(super) states: Option<u32>,
    /// A graph (graph6) instead of a grid: the board is one row of its
    /// vertices' states.
    #[serde(default)]
    pub(super) graph: Option<String>,
    /// `"white"`, `"black"`, `"either"` (default) or a board (rows) to reach.
    #[serde(default)]
    pub(super) target: Option<Value>,
    /// `"plus"` (default), `"neighbours"`, `"king"` or a mask like `010/111/010`.
    #[serde(default)]
    pub(super) rule: Option<String>,
    #[serde(default)]
    pub(super) torus: bool,
    /// Largest nullity searched exhaustively (default and at most the
    /// server's limit).
    #[serde(default)]
    pub(super) max_nullity: Option<usize>,
}

/// `POST /api/check`: reachable or not, with the proof, as `lightsout check --format json`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct CheckRequest {
    pub(super) board: Value,
    #[serde(default)]
    pub(super) states: Option<u32>,
    #[serde(default)]
    pub(super) graph: Option<String>,
    #[serde(default)]
    pub(super) target: Option<Value>,
    #[serde(default)]
    pub(super) rule: Option<String>,
    #[serde(default)]
    pub(super) torus: bool,
}

/// `POST /api/analyze`: one size described, as `lightsout analyze --format json`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct AnalyzeRequest {
    /// The size (not with `graph`).
    #[serde(default)]
    pub(super) rows: Option<usize>,
    #[serde(default)]
    pub(super) cols: Option<usize>,
    #[serde(default)]
    pub(super) states: Option<u32>,
    #[serde(default)]
    pub(super) graph: Option<String>,
    #[serde(default)]
    pub(super) rule: Option<String>,
    #[serde(default)]
    pub(super) torus: bool,
    #[serde(default)]
    pub(super) max_nullity: Option<usize>,
}

/// `POST /api/table`: the nullity of ranges of sizes, as the lines of
/// `lightsout table --format json` in an array.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct TableRequest {
    /// `"1..64"` or a number.
    pub(super) rows: Value,
    pub(super) cols: Value,
    #[serde(default)]
    pub(super) states: Option<u32>,
    #[serde(default)]
    pub(super) rule: Option<String>,
    #[serde(default)]
    pub(super) torus: bool,
}

/// Refuses a side over [`Limits::max_side`].
pub(super) fn check_side(name: &str, value: usize, limits: &Limits) -> Result<(), ApiError> {
    if value > limits.max_side {
        return Err(ApiError::limit(
            "side",
            format!("{name} is {value}; this server takes at most {} rows and columns", limits.max_side),
        ));
    }
    Ok(())
}

/// A board as a request gives it: rows as a list of strings, as one
/// string with line breaks, or as a list of lists of numbers.
pub(super) enum Rows {
    Text(Vec<String>),
    Numbers(Vec<Vec<u64>>),
}

/// The rows of `value`, named `what` in messages.
pub(super) fn rows(value: &Value, what: &str) -> Result<Rows, ApiError> {
    let bad = || {
        ApiError::bad(format!(
            "{what}: expected a list of rows (strings), one string with line breaks, or a list of lists of numbers"
        ))
    };
    match value {
        Value::String(s) => Ok(Rows::Text(s.lines().map(str::to_owned).collect())),
        Value::Array(rows) if rows.iter().all(Value::is_string) => {
            Ok(Rows::Text(rows.iter().filter_map(|r| r.as_str().map(str::to_owned)).collect()))
        }
        Value::Array(rows) if rows.iter().all(Value::is_array) => rows
            .iter()
            .map(|r| r.as_array().into_iter().flatten().map(|x| x.as_u64().ok_or_else(bad)).collect())
            .collect::<Result<Vec<_>, _>>()
            .map(Rows::Numbers),
        _ => Err(bad()),
    }
}

/// Checks the rows' count and lengths against the limits, before parsing.
fn check_rows(rows: &[String], what: &str, k: u8, wide: bool, limits: &Limits) -> Result<(), ApiError> {
    if rows.is_empty() {
        return Err(ApiError::bad(format!("{what} has no rows")));
    }
    check_side(&format!("the height of {what}"), rows.len(), limits)?;
    for (i, row) in rows.iter().enumerate() {
        // Counted in cells, and before parsing: a huge row is refused
        // without being looked at twice.
        check_width(&format!("the width of {what} row {}", i + 1), row_cells(row, k), wide, limits)?;
        if row.trim().is_empty() {
            return Err(ApiError::bad(format!("{what} row {} is empty", i + 1)));
        }
        if row.contains(['\n', '\r']) {
            return Err(ApiError::bad(format!(
                "{what} row {} contains a line break; give one string per row, or the whole board as one string",
                i + 1
            )));
        }
    }
    Ok(())
}

/// The refusal of a board of `shape` on a graph of `vertices` vertices.
pub(super) fn not_on_graph(what: &str, vertices: usize, (rows, cols): (usize, usize)) -> ApiError {
    ApiError::bad(format!(
        "{what}: a board on a graph is one row of its {vertices} vertices' states, got {rows}x{cols}"
    ))
}

/// The cells of a row of text: its numbers when they are written apart
/// (always for more than 10 states), else its characters (one a cell).
fn row_cells(row: &str, k: u8) -> usize {
    if k > 10 || row.contains([' ', '\t']) { row.split_whitespace().count() } else { row.chars().count() }
}

/// A row is at most `max_side` wide, or on a graph (one row of its
/// vertices, `wide`) `max_side²`: the cells of the largest grid.
fn check_width(name: &str, value: usize, wide: bool, limits: &Limits) -> Result<(), ApiError> {
    if !wide {
        return check_side(name, value, limits);
    }
    let most = limits.max_side * limits.max_side;
    if value > most {
        return Err(ApiError::limit(
            "side",
            format!("{name} is {value}; this server takes at most {most} cells"),
        ));
    }
    Ok(())
}

/// The board of `k` states given as rows, named `what` in messages.
/// `graph`: the vertex count of the graph it is on (one row of its
/// vertices' states, read as the command line reads `--graph`'s).
pub(super) fn state_board(
    value: &Value,
    what: &str,
    k: u8,
    graph: Option<usize>,
    limits: &Limits,
) -> Result<StateGrid, ApiError> {
    let wide = graph.is_some();
    match rows(value, what)? {
        Rows::Text(rows) => {
            check_rows(&rows, what, k, wide, limits)?;
            if let Some(vertices) = graph {
                let width = row_cells(&rows[0], k);
                if (rows.len(), width) != (1, vertices) {
                    return Err(not_on_graph(what, vertices, (rows.len(), width)));
                }
            }
            let text = rows.join("\n");
            // Every row is non-blank, so with the height given the rows are
            // one board. A graph's width is its vertex count; rows of one
            // number each (more than 10 states) are one cell wide.
            let one_wide = k > 10 && rows.iter().all(|r| row_cells(r, k) == 1);
            let cols = graph.or(one_wide.then_some(1));
            let mut boards = match graph {
                Some(vertices) => StateBoards::on_graph(text.as_bytes(), what, k, vertices),
                None => StateBoards::new(text.as_bytes(), what, k, Some(rows.len()), cols),
            };
            match boards.next() {
                Some(board) => Ok(board?),
                None => Err(ApiError::bad(format!("{what} has no rows"))),
            }
        }
        Rows::Numbers(rows) => {
            let width = rows.first().map_or(0, Vec::len);
            if rows.is_empty() || width == 0 {
                return Err(ApiError::bad(format!("{what} has no rows")));
            }
            check_side(&format!("the height of {what}"), rows.len(), limits)?;
            check_width(&format!("the width of {what}"), width, wide, limits)?;
            let mut cells = Vec::with_capacity(rows.len() * width);
            for (r, row) in rows.iter().enumerate() {
                if row.len() != width {
                    return Err(ApiError::bad(format!(
                        "{what} row {} has {} cells but row 1 has {width}",
                        r + 1,
                        row.len()
                    )));
                }
                for (c, &s) in row.iter().enumerate() {
                    if s >= u64::from(k) {
                        return Err(ApiError::bad(format!(
                            "{what}: state {s} at row {}, column {} is not below {k}",
                            r + 1,
                            c + 1
                        )));
                    }
                    cells.push(s as u8);
                }
            }
            StateGrid::from_cells(rows.len(), width, cells)
                .ok_or_else(|| ApiError::bad(format!("{what} is ragged")))
        }
    }
}

/// The states asked for: 2 when absent, refused outside 2..=255.
pub(super) fn states(asked: Option<u32>) -> Result<Modulus, ApiError> {
    Modulus::new(asked.unwrap_or(2)).map_err(|e| ApiError::bad(format!("states: {e}")))
}

/// The graph of a request: graph6, or a built-in name as the command line
/// takes them (`petersen`, `cycle:N`, …); refused over the server's cells.
pub(super) fn graph(graph6: &str, limits: &Limits) -> Result<Graph, ApiError> {
    let graph = match crate::present::is_graph_name(graph6) {
        true => {
            // A name is a few bytes for any size: sized before it is built.
            if let Some((vertices, edges)) = named_graph_size(graph6) {
                check_width(
                    "the graph's vertex count",
                    usize::try_from(vertices).unwrap_or(usize::MAX),
                    true,
                    limits,
                )?;
                let most = graph_edges(limits);
                if edges > most {
                    return Err(ApiError::limit(
                        "graph_edges",
                        format!(
                            "graph: {graph6} has {edges} edges; this server takes at most {most} (what a graph6 \
                             body of {} holds)",
                            crate::present::format_bytes(limits.body_bytes as u64)
                        ),
                    ));
                }
            }
            Graph::named(graph6)?
        }
        false => Graph::parse(graph6.as_bytes(), "graph")?,
    };
    if graph.vertex_count() == 0 {
        return Err(ApiError::bad("graph: a graph needs at least one vertex"));
    }
    check_width("the graph's vertex count", graph.vertex_count(), true, limits)?;
    Ok(graph)
}

/// The vertices and edges of the built-in graph `name` (`petersen`,
/// `cycle:N`, …), from the name alone; `None` when it names none (then
/// [`Graph::named`] says what is wrong).
fn named_graph_size(name: &str) -> Option<(u64, u64)> {
    let (kind, size) = name.split_once(':').map_or((name, None), |(kind, size)| (kind, Some(size)));
    let n: Option<u64> = size.and_then(|s| s.parse().ok());
    match (kind, n) {
        ("petersen", None) => Some((10, 15)),
        ("cube", None) => Some((54, 108)),
        ("cycle", Some(n)) => Some((n, n)),
        ("path", Some(n)) => Some((n, n.saturating_sub(1))),
        ("complete", Some(n)) => Some((n, n.saturating_mul(n.saturating_sub(1)) / 2)),
        ("hypercube", Some(d)) if d < 63 => Some((1 << d, d << d.saturating_sub(1))),
        ("hypercube", Some(_)) => Some((u64::MAX, u64::MAX)),
        _ => None,
    }
}

/// Most edges of a graph a request may name: as many as a graph6 body
/// within [`Limits::body_bytes`] can give (six of its bits a character).
fn graph_edges(limits: &Limits) -> u64 {
    6 * limits.body_bytes as u64
}

/// The puzzle on `graph` with `rule` (plus or neighbours).
pub(super) fn graph_puzzle(graph: Graph, rule: Option<&str>, torus: bool) -> Result<Puzzle, ApiError> {
    if torus {
        return Err(ApiError::bad("torus: a graph has its own edges"));
    }
    let rule = parse_rule(rule.unwrap_or("plus")).map_err(|e| ApiError::bad(format!("rule: {e}")))?;
    Puzzle::on_graph(graph, rule).map_err(|e| match e {
        Error::Unsupported(_) => ApiError::bad("rule: a graph takes plus or neighbours"),
        e => e.into(),
    })
}

/// The puzzle of the given size, rule and topology.
pub(super) fn puzzle(
    rows: usize,
    cols: usize,
    rule: Option<&str>,
    torus: bool,
    limits: &Limits,
) -> Result<Puzzle, ApiError> {
    check_side("rows", rows, limits)?;
    check_side("cols", cols, limits)?;
    let rule = parse_rule(rule.unwrap_or("plus")).map_err(|e| ApiError::bad(format!("rule: {e}")))?;
    Ok(Puzzle::new(rows, cols)?.with_topology(topology(torus)).with_rule(rule))
}

/// Whether `text` is a state number written as a string (`"2"`): a few
/// digits, nothing else.
fn is_state_number(text: &str) -> bool {
    (1..=3).contains(&text.len()) && text.bytes().all(|b| b.is_ascii_digit())
}

/// The enumeration budget asked for: the server's limit when absent,
/// refused above it.
pub(super) fn max_nullity(asked: Option<usize>, limits: &Limits) -> Result<usize, ApiError> {
    match asked {
        None => Ok(limits.max_nullity),
        Some(d) if d <= limits.max_nullity => Ok(d),
        Some(d) => Err(ApiError::limit(
            "max_nullity",
            format!(
                "max_nullity {d} asks to search 2^{d} solutions; this server searches at most 2^{} (answers above \
                 it are marked not proven minimal)",
                limits.max_nullity
            ),
        )),
    }
}

/// A range of sizes: `"A..B"`, `"N"` or a number.
pub(super) fn range(name: &str, value: &Value) -> Result<(usize, usize), ApiError> {
    let text = match value {
        Value::String(s) => s.clone(),
        Value::Number(n) => n.to_string(),
        other => {
            return Err(ApiError::bad(format!(
                "{name}: expected a size or a range like \"1..64\", got {other}"
            )));
        }
    };
    parse_range(&text).map_err(|e| ApiError::bad(format!("{name}: {e}")))
}

/// The targets a request asks for in a game of `states` states:
/// `"any"` (also when absent), a state number (in quotes too, as a form or
/// a URL gives it), for two states a colour word, or a board (rows, as the
/// board is given); the library makes them the game's
/// ([`Made::targets_of`]).
pub(super) fn targets<G: Made>(
    value: Option<&Value>,
    graph: Option<usize>,
    states: Modulus,
    limits: &Limits,
) -> Result<Vec<TargetOf<G>>, ApiError> {
    let k = states.get();
    let beyond = |n: &dyn std::fmt::Display| {
        let more = if k == 2 { " (give states for more)" } else { "" };
        ApiError::bad(format!("target: state {n} is not below {k}{more}"))
    };
    let expected = |got: String| match k {
        2 => ApiError::bad(format!("target: expected {TARGET_WORDS} or a board (a list of rows), got {got}")),
        _ => ApiError::bad(format!("target: expected any, a state number below {k} or a board, got {got}")),
    };
    let board;
    let asked = match value {
        None => AskedTarget::Any,
        Some(Value::String(s)) if s == "any" => AskedTarget::Any,
        Some(Value::Number(n)) => match n.as_u64() {
            Some(s) if s < u64::from(k) => AskedTarget::State(s as u8),
            _ => return Err(beyond(n)),
        },
        Some(Value::String(s)) if is_state_number(s) => match s.parse::<u8>() {
            Ok(state) if state < k => AskedTarget::State(state),
            _ => return Err(beyond(s)),
        },
        Some(Value::String(s)) if k == 2 => match colour_targets(s) {
            Some(targets) => AskedTarget::Colour { word: s, targets },
            None => return Err(expected(format!("'{s}'"))),
        },
        // Its shape is checked against the board's by the solver.
        Some(rows @ Value::Array(_)) => {
            board = state_board(rows, "target", k, graph, limits)?;
            AskedTarget::Board { rows: board.nrows(), cols: board.ncols(), cells: board.cells() }
        }
        Some(other) => return Err(expected(other.to_string())),
    };
    Ok(G::targets_of(&asked, states)?)
}
