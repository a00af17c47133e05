//! The handlers that take sizes: `/api/analyze` and `/api/table`.

use axum::routing::MethodRouter;

use super::Limits;
use super::error::ApiError;
use super::game::{OnGame, Served, TableSizes, for_states};
use super::request::{self, AnalyzeRequest, TableRequest};
use super::work::{App, Job};
use crate::Puzzle;
use crate::analysis::{check_kernel_table_cost, study, table_cost};
use crate::model::{Graph, Layout};
use crate::picture::MAX_GRAPH_VERTICES;
use crate::present::study_json;
use crate::solve::limits::analyze_budget;

/// `POST /api/analyze`: the object `lightsout analyze --format json` prints.
pub(super) fn analyze() -> MethodRouter<App> {
    request::answering("a smaller size or fewer states", analysis)
}

/// The puzzle a study request describes: a size, or a graph.
pub(super) fn sized_puzzle(
    rows: Option<usize>,
    cols: Option<usize>,
    graph: Option<&str>,
    rule: Option<&str>,
    torus: bool,
    limits: &Limits,
) -> Result<Puzzle, ApiError> {
    match (graph, rows, cols) {
        (Some(graph6), None, None) => request::graph_puzzle(request::graph(graph6, limits)?, rule, torus),
        (Some(_), _, _) => Err(ApiError::bad("rows, cols: a graph gives the shape; give one or the other")),
        (None, Some(rows), Some(cols)) => request::puzzle(rows, cols, rule, torus, limits),
        (None, _, _) => Err(ApiError::bad("rows and cols (or a graph) are needed")),
    }
}

fn analysis(req: AnalyzeRequest, job: &Job) -> Result<String, ApiError> {
    let limits = &*job.limits;
    let puzzle =
        sized_puzzle(req.rows, req.cols, req.graph.as_deref(), req.rule.as_deref(), req.torus, limits)?;
    let states = request::states(req.states)?;
    // Where the page draws a graph's vertices: the library's layout, the
    // one the CLI's pictures use, so the page keeps no copy of its own.
    let layout = puzzle.graph().filter(|g| g.vertex_count() <= MAX_GRAPH_VERTICES).map(layout_json);
    // The command line's default budget, capped by this server's: its own
    // max_nullity would let one request search for seconds.
    let default = analyze_budget(states.get()).min(limits.max_nullity);
    let max_nullity = request::max_nullity(req.max_nullity.or(Some(default)), limits)?;
    let found = job.stoppable(|stop| study(&puzzle, states, Some(max_nullity), limits.max_memory, stop))?;
    let answer = study_json(&found, &puzzle, states.get());
    match layout {
        Some(layout) => {
            let mut answer: serde_json::Value = serde_json::from_str(&answer)
                .map_err(|e| ApiError::Internal(format!("the analysis is not JSON: {e}")))?;
            answer.as_object_mut().map(|fields| fields.insert("layout".into(), layout));
            Ok(answer.to_string())
        }
        None => Ok(answer),
    }
}

/// `{"shape": "Petersen graph", "net": false, "positions": [[x, y], …]}`:
/// what [`Layout::of`] makes of `graph`, positions in the unit box (y
/// down) to 4 decimals, a tenth of a pixel on the page's largest drawing.
fn layout_json(graph: &Graph) -> serde_json::Value {
    let layout = Layout::of(graph);
    let round = |x: f64| (x * 1e4).round() / 1e4;
    let positions: Vec<[f64; 2]> = layout.positions().iter().map(|p| [round(p[0]), round(p[1])]).collect();
    serde_json::json!({ "shape": layout.shape().name(), "net": layout.is_net(), "positions": positions })
}

/// `POST /api/table`: the objects `lightsout table --format json` prints,
/// one per size, in an array (rows, then columns, ascending).
pub(super) fn table() -> MethodRouter<App> {
    request::answering("narrower ranges of rows and cols", nullity_rows)
}

fn nullity_rows(req: TableRequest, job: &Job) -> Result<String, ApiError> {
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
    let states = request::states(req.states)?;
    if states.get() > 2 {
        // Each size is a factoring over Z_K: priced by the library in
        // CPU-seconds, refused unless it fits in the time limit on one core
        // (the table uses every core, shared with the other jobs).
        let time = limits.time.as_secs_f64();
        let limit = format!("the server's time limit of {time} s; narrow the ranges");
        check_kernel_table_cost(r0..=r1, &(c0..=c1).collect::<Vec<_>>(), &template, states, time, &limit)
            .map_err(|e| ApiError::limit("table_work", e.to_string()))?;
    } else if !template.is_classic() {
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
    struct Table<'a> {
        sizes: TableSizes,
        job: &'a Job,
    }
    impl OnGame for Table<'_> {
        fn on<G: Served>(self) -> Result<String, ApiError> {
            let entries = G::table(&self.sizes, self.job)?;
            Ok(serde_json::Value::from(entries).to_string())
        }
    }
    let sizes = TableSizes { states, rows: (r0, r1), cols: (c0, c1), template };
    for_states(states, Table { sizes, job })
}
