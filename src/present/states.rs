//! Boards of K states, as both fronts print and serve them: the answer to
//! a board (POJ line, text, JSON), the verdicts of `check`, the analysis
//! of a size. Two-state boards keep their own shapes (`report.rs`); every
//! object here carries `states`.

use serde_json::{Value, json};

use super::{LISTED_CELLS, LISTED_PATTERNS, omitted_patterns, topology_name};
use crate::{Answer, Game, Puzzle, StateGrid, StateSolver, StateTarget, state_lines};

/// `"2"` for a uniform target, `"target"` for a board.
pub(crate) fn state_target_name(target: &StateTarget) -> String {
    match target {
        StateTarget::Uniform(s) => s.to_string(),
        StateTarget::Board(_) => "target".into(),
    }
}

/// A target as JSON: the state number, or `"target"` for a board.
fn target_json(target: &StateTarget) -> Value {
    match target {
        StateTarget::Uniform(s) => json!(s),
        StateTarget::Board(_) => json!("target"),
    }
}

/// A grid of states as JSON: rows of digits while K ≤ 10, lists of
/// numbers above.
pub(crate) fn states_json(grid: &StateGrid, k: u8) -> Value {
    if k <= 10 {
        json!(state_lines(grid, k))
    } else {
        json!((0..grid.nrows()).map(|r| grid.row(r).to_vec()).collect::<Vec<_>>())
    }
}

/// What every K-state object says about its puzzle: shape, rule, states,
/// and on a graph its vertices and edges.
pub(crate) fn puzzle_json(puzzle: &Puzzle, states: u8) -> serde_json::Map<String, Value> {
    let mut v = serde_json::Map::new();
    v.insert("rows".into(), json!(puzzle.rows()));
    v.insert("cols".into(), json!(puzzle.cols()));
    v.insert("topology".into(), json!(puzzle_topology(puzzle)));
    v.insert("rule".into(), json!(puzzle.rule().to_string()));
    v.insert("states".into(), json!(states));
    if let Some(g) = puzzle.graph() {
        v.insert("graph".into(), json!({"vertices": g.vertex_count(), "edges": g.edge_count()}));
    }
    v
}

/// `plane`, `torus`, or `graph`.
pub(crate) fn puzzle_topology(puzzle: &Puzzle) -> &'static str {
    if puzzle.graph().is_some() { "graph" } else { topology_name(puzzle.topology()) }
}

/// The kernel's numbers: its size (exact, and log2), and rank and nullity
/// where K is prime (`null` otherwise: Z_K is no field).
fn kernel_json(v: &mut serde_json::Map<String, Value>, solver: &StateSolver) {
    v.insert("kernel_size".into(), json!(solver.kernel_size()));
    v.insert("kernel_size_log2".into(), json!(solver.kernel_size_log2()));
    v.insert("rank".into(), json!(solver.rank()));
    v.insert("nullity".into(), json!(solver.nullity()));
}

/// `27 (nullity 3)`, or `64 = 2^6` for a composite K.
pub(crate) fn kernel_text(solver: &StateSolver) -> String {
    let size = solver.kernel_size();
    match solver.nullity() {
        Some(d) => format!("{size} (nullity {d})"),
        None if size.len() > 20 => format!("2^{:.2}", solver.kernel_size_log2()),
        None => format!("{size} = 2^{:.2}", solver.kernel_size_log2()),
    }
}

/// One K-state board's answer, ready to print or serve.
pub(crate) struct StateReport<'a> {
    pub(crate) index: usize,
    pub(crate) board: &'a StateGrid,
    pub(crate) solver: &'a StateSolver,
    pub(crate) answer: &'a Answer<StateGrid>,
}

impl StateReport<'_> {
    fn k(&self) -> u8 {
        self.solver.states().get()
    }

    /// The fewest presses, or `Impossible`.
    pub(crate) fn poj(&self, show: bool) -> String {
        let mut text = match self.answer.best() {
            Some((_, s)) => format!("{}\n", s.presses.total()),
            None => "Impossible\n".into(),
        };
        if show {
            text += &self.grids();
        }
        text
    }

    /// The size, the kernel, a line per target, the best and its presses.
    pub(crate) fn text(&self, show: bool) -> String {
        let puzzle = self.solver.puzzle();
        let shape = match puzzle.graph() {
            Some(g) => format!("graph of {} vertices", g.vertex_count()),
            None => format!("{}x{}", puzzle.rows(), puzzle.cols()),
        };
        let mut text = format!(
            "board {}: {shape}, {} states, kernel {}\n",
            self.index,
            self.k(),
            kernel_text(self.solver)
        );
        for outcome in &self.answer.outcomes {
            let name = state_target_name(&outcome.target);
            text += &match &outcome.solution {
                None => format!("  {name}: impossible\n"),
                Some(s) if s.proven_minimal => {
                    format!("  {name}: {} (minimal)\n", super::presses(s.presses.total()))
                }
                Some(s) => format!(
                    "  {name}: {} (not proven minimal; at least {})\n",
                    super::presses(s.presses.total()),
                    s.lower_bound
                ),
            };
        }
        match self.answer.best() {
            None => text += "  best: impossible\n",
            Some((target, s)) => {
                text += &format!(
                    "  best: {}, {}\n",
                    state_target_name(target),
                    super::presses(s.presses.total())
                );
                text += &press_line(&s.presses, puzzle.graph().is_some());
            }
        }
        if show {
            text += &self.grids();
        }
        text
    }

    /// The press counts and the board they reach (re-applied here).
    fn grids(&self) -> String {
        let Some((target, s)) = self.answer.best() else {
            return String::new();
        };
        let k = self.k();
        let mut text = format!("presses (to {}):\n", state_target_name(target));
        for line in state_lines(&s.presses, k) {
            text += &line;
            text.push('\n');
        }
        if let Ok(reached) = self.solver.apply(self.board, &s.presses) {
            text += "reached:\n";
            for line in state_lines(&reached, k) {
                text += &line;
                text.push('\n');
            }
        }
        text
    }

    pub(crate) fn json(&self) -> String {
        let k = self.k();
        let mut object = serde_json::Map::new();
        object.insert("board".into(), json!(self.index));
        object.extend(puzzle_json(self.solver.puzzle(), k));
        kernel_json(&mut object, self.solver);
        let targets: Vec<Value> = self
            .answer
            .outcomes
            .iter()
            .map(|o| match &o.solution {
                None => json!({"target": target_json(&o.target), "solvable": false, "presses": null,
                    "proven_minimal": false, "lower_bound": null, "solution": null}),
                Some(s) => json!({"target": target_json(&o.target), "solvable": true,
                    "presses": s.presses.total(), "proven_minimal": s.proven_minimal,
                    "lower_bound": s.lower_bound, "solution": states_json(&s.presses, k)}),
            })
            .collect();
        object.insert("targets".into(), json!(targets));
        let best = match self.answer.best() {
            None => json!({"target": null, "presses": null}),
            Some((t, s)) => json!({"target": target_json(t), "presses": s.presses.total()}),
        };
        object.insert("best".into(), best);
        Value::Object(object).to_string()
    }
}

/// Most presses listed by coordinates in text (as for two states).
const LISTED_PRESSES: usize = 256;

/// `press (row,col)xcount: (1,2)x2 (3,1)` (a count of one unwritten), or
/// by vertex on a graph.
fn press_line(presses: &StateGrid, graph: bool) -> String {
    let cells: Vec<String> = (0..presses.nrows())
        .flat_map(|r| (0..presses.ncols()).map(move |c| (r, c)))
        .filter(|&(r, c)| presses.get(r, c) > 0)
        .map(|(r, c)| {
            let at = if graph { format!("{c}") } else { format!("({},{})", r + 1, c + 1) };
            match presses.get(r, c) {
                1 => at,
                n => format!("{at}x{n}"),
            }
        })
        .collect();
    let what = if graph { "press vertex" } else { "press (row,col)" };
    match cells.len() {
        0 => format!("  {what}: none\n"),
        n if n > LISTED_PRESSES => {
            format!(
                "  {what}: {n} cells, not listed above {LISTED_PRESSES} (--output FILE writes them as a PGM image)\n"
            )
        }
        _ => format!("  {what} (xN: N times): {}\n", cells.join(" ")),
    }
}

/// One board's verdicts as JSON: per target, solvable, or the pattern `y`
/// with `yᵀ·A = 0` whose product with the change needed is not 0 mod K.
pub(crate) fn state_check_json(
    index: usize,
    solver: &StateSolver,
    verdicts: &[(StateTarget, Option<StateGrid>)],
) -> String {
    let k = solver.states().get();
    let mut object = serde_json::Map::new();
    object.insert("board".into(), json!(index));
    object.extend(puzzle_json(solver.puzzle(), k));
    kernel_json(&mut object, solver);
    let targets: Vec<Value> = verdicts
        .iter()
        .map(|(t, y)| {
            json!({"target": target_json(t), "solvable": y.is_none(),
                "obstruction": y.as_ref().map(|y| states_json(y, k))})
        })
        .collect();
    object.insert("targets".into(), json!(targets));
    Value::Object(object).to_string()
}

/// The analysis of a K-state puzzle as JSON: the kernel's size, rank and
/// nullity (prime K), the generators of the kernel with their orders (the
/// first [`LISTED_PATTERNS`], at most [`LISTED_CELLS`] cells), and the
/// lightest quiet pattern (`proven` when the kernel was searched whole).
pub(crate) fn state_analysis_json(solver: &StateSolver, lightest: Option<(&StateGrid, bool)>) -> String {
    let k = solver.states().get();
    let puzzle = solver.puzzle();
    let mut v = serde_json::Map::new();
    v.extend(puzzle_json(puzzle, k));
    kernel_json(&mut v, solver);
    let quiet = solver.quiet_patterns();
    let listed = (LISTED_CELLS / puzzle.cells().max(1)).min(LISTED_PATTERNS).min(quiet.len());
    // Every board is K^cells / |image|; solvable boards number K^cells / |kernel| (A is square).
    let cells_log2 = puzzle.cells() as f64 * f64::from(k).log2();
    v.insert("solvable_boards_log2".into(), json!(cells_log2 - solver.kernel_size_log2()));
    v.insert(
        "quiet_patterns".into(),
        json!(
            quiet[..listed]
                .iter()
                .map(|(q, order)| json!({"order": order, "pattern": states_json(q, k)}))
                .collect::<Vec<_>>()
        ),
    );
    let omitted = if listed < quiet.len() {
        json!({"count": quiet.len() - listed, "why": omitted_patterns(quiet.len(), listed, puzzle.cells())})
    } else {
        Value::Null
    };
    v.insert("quiet_patterns_omitted".into(), omitted);
    v.insert(
        "lightest_quiet_pattern".into(),
        lightest.map_or(
            Value::Null,
            |(q, proven)| json!({"presses": q.total(), "proven": proven, "pattern": states_json(q, k)}),
        ),
    );
    Value::Object(v).to_string()
}
