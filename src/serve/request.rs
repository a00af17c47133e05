//! The API's request bodies and how their fields become library values,
//! checked against the [`Limits`] on the way.
//!
//! Every body is `deny_unknown_fields`: a misspelt option is a 400 naming
//! it, never silently ignored.

use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::header;
use serde::Deserialize;
use serde::de::DeserializeOwned;
use serde_json::Value;

use super::Limits;
use super::error::ApiError;
use super::work::App;
use crate::present::{TARGET_WORDS, colour_targets, parse_range, parse_rule, topology};
use crate::{Grid, Puzzle, Target, TextBoards};

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
        serde_json::from_slice(&bytes).map(ApiJson).map_err(|e| ApiError::bad(format!("request body: {e}")))
    }
}

/// `POST /api/solve`: the fewest presses, as `lightsout solve --format json`.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct SolveRequest {
    /// Rows of `b`/`w` (or `1`/`0`, `#`/`.`), top first.
    pub(super) board: Vec<String>,
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
    pub(super) board: Vec<String>,
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
    pub(super) rows: usize,
    pub(super) cols: usize,
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

/// The board given as rows, named `what` in messages.
pub(super) fn board(rows: &[String], what: &str, limits: &Limits) -> Result<Grid, ApiError> {
    if rows.is_empty() {
        return Err(ApiError::bad(format!("{what} has no rows")));
    }
    check_side(&format!("the height of {what}"), rows.len(), limits)?;
    for (i, row) in rows.iter().enumerate() {
        // Counted in characters, and before parsing: a huge row is refused
        // without being looked at twice.
        check_side(&format!("the width of {what} row {}", i + 1), row.chars().count(), limits)?;
        if row.trim().is_empty() {
            return Err(ApiError::bad(format!("{what} row {} is empty", i + 1)));
        }
        if row.contains(['\n', '\r']) {
            return Err(ApiError::bad(format!(
                "{what} row {} contains a line break; give one string per row",
                i + 1
            )));
        }
    }
    let text = rows.join("\n");
    // Every row is non-blank, so with the height given the rows are one board.
    let mut boards = TextBoards::new(text.as_bytes(), what, Some(rows.len()), None);
    match boards.next() {
        Some(board) => Ok(board?),
        None => Err(ApiError::bad(format!("{what} has no rows"))),
    }
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

/// The target: `"white"`, `"black"`, `"either"` (also when absent) or a
/// board of rows (of the board's shape: the solver checks).
pub(super) fn target(value: Option<&Value>, limits: &Limits) -> Result<Vec<Target>, ApiError> {
    let rows = match value {
        None => return Ok(Target::EITHER.to_vec()),
        Some(Value::String(s)) => {
            return colour_targets(s).map(<[Target]>::to_vec).ok_or_else(|| {
                ApiError::bad(format!(
                    "target: expected {TARGET_WORDS} or a board (a list of rows), got '{s}'"
                ))
            });
        }
        Some(Value::Array(rows)) => rows,
        Some(other) => {
            return Err(ApiError::bad(format!(
                "target: expected {TARGET_WORDS} or a board (a list of rows), got {other}"
            )));
        }
    };
    let rows: Vec<String> = rows
        .iter()
        .map(|r| {
            r.as_str()
                .map(str::to_owned)
                .ok_or_else(|| ApiError::bad("target: each row of a target board is a string"))
        })
        .collect::<Result<_, _>>()?;
    // Its shape is checked against the board's by the solver.
    Ok(vec![Target::Board(board(&rows, "target", limits)?)])
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
