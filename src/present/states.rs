//! Boards of K states, as both fronts print and serve them: how the K-state
//! game shows its answers in a [`Report`] (its header, press lines and
//! JSON; the rest is the report's, shared with two states), the verdicts of
//! `check`, the analysis of a size. Every object here carries `states`.

use serde_json::{Value, json};

use super::{LISTED_PRESSES, Report, Shown, Tally, outcome_json, puzzle_topology};
use crate::solve::KernelSize;
use crate::{Answer, Game, Outcome, Puzzle, StateGrid, StateSolver, StateTarget, state_lines};

/// `"2"` for a uniform target, `"target"` for a board.
pub fn state_target_name(target: &StateTarget) -> String {
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
pub fn states_json(grid: &StateGrid, k: u8) -> Value {
    if k <= 10 {
        json!(state_lines(grid, k))
    } else {
        json!((0..grid.nrows()).map(|r| grid.row(r).to_vec()).collect::<Vec<_>>())
    }
}

/// What every K-state object says about its puzzle: shape, rule, states,
/// and on a graph its vertices and edges.
pub fn puzzle_json(puzzle: &Puzzle, states: u8) -> serde_json::Map<String, Value> {
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

/// The kernel's numbers: its size (exact, and log2), and rank and nullity
/// where K is prime (`null` otherwise: Z_K is no field).
fn kernel_json(v: &mut serde_json::Map<String, Value>, solver: &StateSolver) {
    v.insert("kernel_size".into(), json!(solver.kernel_size()));
    v.insert("kernel_size_log2".into(), json!(solver.kernel_size_log2()));
    v.insert("rank".into(), json!(solver.rank()));
    v.insert("nullity".into(), json!(solver.nullity()));
}

/// `27 (nullity 3)`, or `64 = 2^6` for a composite K.
pub fn kernel_text(solver: &StateSolver) -> String {
    kernel_size_text(&solver.kernel())
}

/// [`kernel_text`] of a kernel's size.
pub fn kernel_size_text(kernel: &KernelSize) -> String {
    let size = &kernel.size;
    match kernel.nullity {
        Some(d) => format!("{size} (nullity {d})"),
        None if size.len() > 20 => format!("2^{:.2}", kernel.log2),
        None => format!("{size} = 2^{:.2}", kernel.log2),
    }
}

/// One K-state board's answer, ready to print or serve: the one
/// [`Report`] of both kinds, answered by a game of states.
pub type StateReport<'a> = Report<'a, StateSolver>;

impl Shown for StateSolver {
    const SHOWS_LOWER_BOUND: bool = true;

    fn target_name(&self, target: &StateTarget) -> std::borrow::Cow<'static, str> {
        state_target_name(target).into()
    }

    fn tallies<'a>(&self, answer: &'a Answer<StateGrid>) -> Vec<Tally<'a, StateSolver>> {
        let tally = |o: &'a Outcome<StateGrid>| {
            let solution = o.solution.as_ref();
            Tally {
                name: state_target_name(&o.target).into(),
                result: solution.map(|s| (s.presses.total(), s.proven_minimal)),
                lower_bound: solution.map_or(0, |s| s.lower_bound),
                presses: solution.map(|s| &s.presses),
            }
        };
        answer.outcomes.iter().map(tally).collect()
    }

    /// The size, the states and the kernel.
    fn header(&self, index: usize, _: &StateGrid) -> String {
        let puzzle = self.puzzle();
        let shape = match puzzle.graph() {
            Some(g) => format!("graph of {} vertices", g.vertex_count()),
            None => format!("{}x{}", puzzle.rows(), puzzle.cols()),
        };
        let k = self.states().get();
        format!("board {index}: {shape}, {k} states, kernel {}\n", kernel_text(self))
    }

    fn on_graph(&self) -> bool {
        self.puzzle().graph().is_some()
    }

    /// `press (row,col) (xN: N times): (1,2)x2 (3,1)` (a count of one
    /// unwritten), or by vertex on a graph.
    fn press_line(presses: &StateGrid, _: u64, graph: bool) -> String {
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
            n if n > LISTED_PRESSES => format!(
                "  {what}: {n} cells, not listed above {LISTED_PRESSES} (--output FILE writes them as a PGM image)\n"
            ),
            _ => format!("  {what} (xN: N times): {}\n", cells.join(" ")),
        }
    }

    fn press_lines(&self, presses: &StateGrid) -> Vec<String> {
        state_lines(presses, self.states().get())
    }

    fn reached_lines(&self, board: &StateGrid, presses: &StateGrid) -> Option<Vec<String>> {
        let reached = self.apply(board, presses).ok()?;
        Some(state_lines(&reached, self.states().get()))
    }

    fn check_json(&self, index: usize, verdicts: &[(StateTarget, Option<StateGrid>)]) -> String {
        state_check_json(index, self, verdicts)
    }

    fn presses_json(&self, presses: &StateGrid) -> Value {
        states_json(presses, self.states().get())
    }

    fn board_lines(&self, board: &StateGrid) -> Vec<String> {
        state_lines(board, self.states().get())
    }

    fn board_json(&self, board: &StateGrid) -> Value {
        states_json(board, self.states().get())
    }

    fn answer_json(&self, index: usize, _: &StateGrid, answer: &Answer<StateGrid>) -> String {
        state_answer_json(index, self, answer)
    }
}

/// One board's answer as JSON: its puzzle, its kernel, each target's result
/// and the best ([`Shown::answer_json`] of K states). A function here, not
/// the method's body, which the compiler builds beside `StateSolver`'s code:
/// there its map inserts changed how the two-state ones are inlined, and the
/// JSON of the 65,536 4x4 boards took 2.5 % more instructions (callgrind).
fn state_answer_json(index: usize, solver: &StateSolver, answer: &Answer<StateGrid>) -> String {
    let k = solver.states().get();
    let mut object = serde_json::Map::new();
    object.insert("board".into(), json!(index));
    object.extend(puzzle_json(solver.puzzle(), k));
    kernel_json(&mut object, solver);
    let targets: Vec<Value> = answer
        .outcomes
        .iter()
        .map(|o| {
            let mut entry = serde_json::Map::new();
            entry.insert("target".into(), target_json(&o.target));
            entry.extend(outcome_json(solver, o.solution.as_ref()));
            Value::Object(entry)
        })
        .collect();
    object.insert("targets".into(), json!(targets));
    let best = match answer.best() {
        None => json!({"target": null, "presses": null}),
        Some((t, s)) => json!({"target": target_json(t), "presses": s.presses.total()}),
    };
    object.insert("best".into(), best);
    Value::Object(object).to_string()
}

/// One board's verdicts as JSON: per target, solvable, or the pattern `y`
/// with `yᵀ·A = 0` whose product with the change needed is not 0 mod K.
pub fn state_check_json(
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
