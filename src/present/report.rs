//! The answer to one board, as the POJ line, the text lines and the JSON
//! object (`lightsout solve` prints them; `lightsout serve` answers with
//! the JSON).

use serde_json::{Value, json};

use super::puzzle_topology;
use crate::{Answer, Game, Grid, Outcome, Solution, Solver, Target, grid_lines};

/// One target's result as the POJ and text answers print it.
pub(crate) struct Tally<'a> {
    pub(crate) name: &'static str,
    /// The presses and whether they are proven fewest; `None` when the
    /// target cannot be reached.
    pub(crate) result: Option<(u64, bool)>,
    /// The press grid, when at hand (not for a streamed board).
    pub(crate) presses: Option<&'a Grid>,
}

impl<'a> Tally<'a> {
    /// The tally of a solved target.
    pub(crate) fn of(outcome: &'a Outcome) -> Self {
        let solution = outcome.solution.as_ref();
        Tally {
            name: outcome.target.name(),
            result: solution.map(|s| (s.presses.count_ones() as u64, s.proven_minimal)),
            presses: solution.map(|s| &s.presses),
        }
    }
}

/// The reachable target with the fewest presses (the first on a tie).
pub(crate) fn best_tally<'t, 'a>(tallies: &'t [Tally<'a>]) -> Option<&'t Tally<'a>> {
    tallies.iter().filter(|t| t.result.is_some()).min_by_key(|t| t.result.map(|(presses, _)| presses))
}

/// Whether a note about target `name` is about the question answered: the
/// one target asked, or with several, the one answered (a note on the other
/// colour would be about a question nobody asked).
pub(crate) fn answers(name: &str, tallies: &[Tally]) -> bool {
    tallies.len() == 1 || best_tally(tallies).is_some_and(|best| best.name == name)
}

/// The POJ answer: the fewest presses, or `Impossible`.
pub(crate) fn poj_line(tallies: &[Tally]) -> String {
    match best_tally(tallies).and_then(|t| t.result) {
        Some((presses, _)) => format!("{presses}\n"),
        None => "Impossible\n".into(),
    }
}

/// A board's text answer: its size and nullity, a line per target, the
/// best, and the best's presses.
pub(crate) fn text_lines(
    index: usize,
    (rows, cols): (usize, usize),
    nullity: usize,
    tallies: &[Tally],
) -> String {
    let mut text = format!("board {index}: {rows}x{cols}, nullity {nullity}\n");
    for tally in tallies {
        text += &match tally.result {
            None => format!("  {}: impossible\n", tally.name),
            Some((presses, proven)) => {
                let proof = if proven { "minimal" } else { "not proven minimal" };
                format!("  {}: {} ({proof})\n", tally.name, super::presses(presses))
            }
        };
    }
    match best_tally(tallies) {
        None => text += "  best: impossible\n",
        Some(best) => {
            let presses = best.result.map_or(0, |(presses, _)| presses);
            text += &format!("  best: {}, {}\n", best.name, super::presses(presses));
            text += &press_line(best.presses, presses);
        }
    }
    text
}

/// Most presses the text output lists by coordinates: more would bury the
/// answer (`--show` draws any number, `--output` writes them as an image).
pub(crate) const LISTED_PRESSES: usize = 256;

/// The text answer's line of presses as (row,col) from (1,1) at the top
/// left: `None` when they are not at hand (a streamed board).
fn press_line(presses: Option<&Grid>, count: u64) -> String {
    match presses {
        _ if count == 0 => "  press (row,col): none\n".into(),
        Some(grid) if count <= LISTED_PRESSES as u64 => {
            let cells: Vec<String> = (0..grid.nrows())
                .flat_map(|r| grid.row(r).iter_ones().map(move |c| format!("({},{})", r + 1, c + 1)))
                .collect();
            format!("  press (row,col): {}\n", cells.join(" "))
        }
        Some(_) => format!(
            "  press (row,col): not listed above {LISTED_PRESSES} presses (--output FILE writes them as an image)\n"
        ),
        None => {
            "  press (row,col): not listed for a streamed board (--output FILE writes them as an image)\n"
                .into()
        }
    }
}

/// One board's answer, ready to print (and, as JSON, to serve: `lightsout
/// serve` answers with [`Report::json`] too).
pub(crate) struct Report<'a> {
    pub(crate) index: usize,
    pub(crate) board: &'a Grid,
    pub(crate) solver: &'a Solver,
    pub(crate) answer: &'a Answer,
}

impl Report<'_> {
    /// The reachable target needing the fewest presses, by name.
    pub(crate) fn best(&self) -> Option<(&'static str, &Solution)> {
        self.answer.best().map(|(target, s)| (target.name(), s))
    }

    /// Each target's result, as printed.
    pub(crate) fn tallies(&self) -> Vec<Tally<'_>> {
        self.answer.outcomes.iter().map(Tally::of).collect()
    }

    pub(crate) fn best_summary(&self) -> String {
        match self.best() {
            None => "impossible".into(),
            Some((name, s)) => format!("{} to {name}", super::presses(s.presses.count_ones() as u64)),
        }
    }

    pub(crate) fn poj(&self, show: bool) -> String {
        let mut text = poj_line(&self.tallies());
        if let (true, Some((name, s))) = (show, self.best()) {
            text += &self.grids(name, s);
        }
        text
    }

    pub(crate) fn text(&self, show: bool) -> String {
        let shape = (self.board.nrows(), self.board.ncols());
        let mut text = text_lines(self.index, shape, self.solver.nullity(), &self.tallies());
        if let Some(g) = self.solver.puzzle().graph() {
            // A graph's board is one row of its vertices: say so, and list
            // presses by vertex.
            let grid = format!("board {}: 1x{}, ", self.index, shape.1);
            text = text.replacen(
                &grid,
                &format!("board {}: graph of {} vertices, ", self.index, g.vertex_count()),
                1,
            );
            if let Some((_, s)) = self.best().filter(|(_, s)| s.presses.count_ones() <= LISTED_PRESSES) {
                let vertices: Vec<String> = s.presses.row(0).iter_ones().map(|v| v.to_string()).collect();
                let listed = if vertices.is_empty() { "none".to_string() } else { vertices.join(" ") };
                if let Some(at) = text.find("  press (row,col): ") {
                    let end = text[at..].find('\n').map_or(text.len(), |e| at + e + 1);
                    text.replace_range(at..end, &format!("  press vertex: {listed}\n"));
                }
            }
        }
        if let (true, Some((name, s))) = (show, self.best()) {
            text += &self.grids(name, s);
        }
        text
    }

    /// The press grid and the board it reaches (re-applied here, as shown).
    pub(crate) fn grids(&self, name: &str, s: &Solution) -> String {
        let reached = self.solver.puzzle().apply(self.board, &s.presses);
        let mut text = format!("presses (to {name}):\n");
        for line in grid_lines(&s.presses, 'x', '.') {
            text += &line;
            text.push('\n');
        }
        text += "reached:\n";
        for line in grid_lines(&reached, 'b', 'w') {
            text += &line;
            text.push('\n');
        }
        text
    }

    pub(crate) fn json(&self) -> String {
        let entry = |solution: &Option<Solution>| -> Value {
            match solution {
                None => {
                    json!({"solvable": false, "presses": null, "proven_minimal": false, "solution": null})
                }
                Some(s) => json!({
                    "solvable": true,
                    "presses": s.presses.count_ones(),
                    "proven_minimal": s.proven_minimal,
                    "solution": grid_lines(&s.presses, 'x', '.'),
                }),
            }
        };
        let named = |name: &str| {
            let outcome = self.answer.outcomes.iter().find(|o| o.target.name() == name);
            outcome.map_or(Value::Null, |o| entry(&o.solution))
        };
        let best = match self.best() {
            None => json!({"target": null, "presses": null}),
            Some((name, s)) => json!({"target": name, "presses": s.presses.count_ones()}),
        };
        let puzzle = self.solver.puzzle();
        let mut object = json!({
            "board": self.index,
            "rows": self.board.nrows(),
            "cols": self.board.ncols(),
            "topology": puzzle_topology(puzzle),
            "rule": puzzle.rule().to_string(),
            "nullity": self.solver.nullity(),
            "white": named("white"),
            "black": named("black"),
        });
        if let Some(g) = puzzle.graph() {
            object["graph"] = json!({"vertices": g.vertex_count(), "edges": g.edge_count()});
        }
        if self.answer.outcomes.iter().any(|o| matches!(o.target, Target::Board(_))) {
            object["target"] = named("target");
        }
        object["best"] = best;
        object.to_string()
    }
}
