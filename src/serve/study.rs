//! The handlers that take sizes: `/api/analyze` and `/api/table`.

use axum::extract::State;
use axum::response::Response;

use super::error::ApiError;
use super::request::{self, AnalyzeRequest, ApiJson, TableRequest};
use super::work::{App, Job, time_limit};
use super::{Limits, json_response};
use crate::analysis::table_cost;
use crate::present::{analysis_json, kernel_entry_json, state_analysis_json, table_entry_json};
use crate::zk::Modulus;
use crate::{Method, Puzzle, StateSolver};
use crate::{analyze as analyse, kernel_table, nullity_table};

/// `POST /api/analyze`: the object `lightsout analyze --format json` prints.
pub(super) async fn analyze(
    State(app): State<App>,
    ApiJson(req): ApiJson<AnalyzeRequest>,
) -> Result<Response, ApiError> {
    app.run(move |job| analysis(&req, &job.limits)).await.map(json_response)
}

fn analysis(req: &AnalyzeRequest, limits: &Limits) -> Result<String, ApiError> {
    let puzzle = match (&req.graph, req.rows, req.cols) {
        (Some(graph6), None, None) => {
            request::graph_puzzle(request::graph(graph6, limits)?, req.rule.as_deref(), req.torus)?
        }
        (Some(_), _, _) => {
            return Err(ApiError::bad("rows, cols: a graph gives the shape; give one or the other"));
        }
        (None, Some(rows), Some(cols)) => {
            request::puzzle(rows, cols, req.rule.as_deref(), req.torus, limits)?
        }
        (None, _, _) => return Err(ApiError::bad("rows and cols (or a graph) are needed")),
    };
    let states = request::states(req.states)?;
    // With K states, the command line's default member budget (2^24): the
    // server's own max_nullity would let one request search for seconds.
    let budget = crate::solve::limits::ANALYZE_MAX_MEMBERS_LOG2 as usize;
    let asked = if states.get() > 2 {
        req.max_nullity.or(Some(budget.min(limits.max_nullity)))
    } else {
        req.max_nullity
    };
    let max_nullity = request::max_nullity(asked, limits)?;
    if states.get() > 2 {
        let solver = StateSolver::new(&puzzle, states, Method::Auto, max_nullity as u32, limits.max_memory)?;
        let lightest = solver.lightest_quiet_pattern();
        return Ok(state_analysis_json(&solver, lightest.as_ref().map(|(q, proven)| (q, *proven))));
    }
    Ok(analysis_json(&analyse(&puzzle, max_nullity, limits.max_memory)?))
}

/// `POST /api/table`: the objects `lightsout table --format json` prints,
/// one per size, in an array (rows, then columns, ascending).
pub(super) async fn table(
    State(app): State<App>,
    ApiJson(req): ApiJson<TableRequest>,
) -> Result<Response, ApiError> {
    app.run(move |job| nullity_rows(&req, job)).await.map(json_response)
}

/// Rows of a table computed between two checks of [`Job::should_stop`]:
/// enough for both cores, few enough that an abandoned table stops soon.
const ROWS_PER_PART: usize = 4;

fn nullity_rows(req: &TableRequest, job: &Job) -> Result<String, ApiError> {
    let limits = &*job.limits;
    let (r0, r1) = request::range("rows", &req.rows)?;
    let (c0, c1) = request::range("cols", &req.cols)?;
    let template = request::puzzle(r1, c1, req.rule.as_deref(), req.torus, limits)?;
    let sizes = (r1 - r0 + 1) * (c1 - c0 + 1);
    if sizes > limits.max_table_sizes {
        return Err(ApiError::limit(
            "table_sizes",
            format!(
                "a table of {sizes} sizes is more than the {} this server tabulates at once",
                limits.max_table_sizes
            ),
        ));
    }
    if !template.is_classic() {
        // Each size is factored by elimination: the library's own
        // estimate, held against the server's budget.
        let (work, _) = table_cost(r1 - r0 + 1, c1 - c0 + 1, r1, c1, &template);
        if work > limits.max_table_work {
            return Err(ApiError::limit(
                "table_work",
                format!(
                    "a table of {sizes} sizes up to {r1}x{c1} with this rule needs about {work:.1e} word operations, \
                     more than the {:.1e} this server spends on one; narrow the ranges",
                    limits.max_table_work
                ),
            ));
        }
    }
    let states = request::states(req.states)?;
    if states.get() > 2 {
        return state_rows(states, (r0, r1), (c0, c1), &template, job);
    }
    let mut table = Vec::with_capacity(r1 - r0 + 1);
    for first in (r0..=r1).step_by(ROWS_PER_PART) {
        if job.should_stop() {
            return Err(time_limit(limits.time));
        }
        let last = (first + ROWS_PER_PART - 1).min(r1);
        table.extend(nullity_table(first..=last, c0..=c1, &template, limits.max_memory, &|| {})?);
    }
    let entries: Vec<_> = table
        .iter()
        .enumerate()
        .flat_map(|(i, row)| row.iter().enumerate().map(move |(j, &n)| table_entry_json(r0 + i, c0 + j, n)))
        .collect();
    Ok(serde_json::Value::from(entries).to_string())
}

/// A K-state table: log2 of the kernel's size (and the nullity for prime
/// K) per size, as the library's [`kernel_table`] gives it, a row between
/// two checks of [`Job::should_stop`]. `template`, the largest size, has
/// had its sides checked against the server's.
fn state_rows(
    states: Modulus,
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
    template: &Puzzle,
    job: &Job,
) -> Result<String, ApiError> {
    let limits = &*job.limits;
    let cols: Vec<usize> = (c0..=c1).collect();
    let mut table = kernel_table(r0..=r1, &cols, template, states, limits.max_memory);
    let mut entries = Vec::new();
    for r in r0..=r1 {
        if job.should_stop() {
            return Err(time_limit(limits.time));
        }
        let Some(row) = table.next() else { break };
        let row = row?;
        entries
            .extend(row.iter().zip(c0..=c1).map(|(entry, c)| kernel_entry_json(r, c, states.get(), entry)));
    }
    Ok(serde_json::Value::from(entries).to_string())
}
