//! How answers are printed: the POJ line, the text lines and the JSON
//! object of one board (shared with `lightsout serve`).

use super::*;

/// The POJ answer: the fewest presses, or `Impossible`.
pub(crate) fn poj_line(best: Option<(&str, u64)>) -> String {
    best.map_or("Impossible\n".to_string(), |(_, presses)| format!("{presses}\n"))
}

/// The first line of a board's text answer.
pub(crate) fn header_line(index: usize, rows: usize, cols: usize, nullity: usize) -> String {
    format!("board {index}: {rows}x{cols}, nullity {nullity}\n")
}

/// One target's line of a text answer: presses and whether proven minimal.
pub(crate) fn target_line(name: &str, result: Option<(u64, bool)>) -> String {
    match result {
        None => format!("  {name}: impossible\n"),
        Some((presses, proven)) => {
            let proof = if proven { "minimal" } else { "not proven minimal" };
            format!("  {name}: {presses} presses ({proof})\n")
        }
    }
}

/// The last line of a text answer: the best target.
pub(crate) fn best_line(best: Option<(&str, u64)>) -> String {
    best.map_or("  best: impossible\n".to_string(), |(name, presses)| {
        format!("  best: {name}, {presses} presses\n")
    })
}

/// Most presses the text output lists by coordinates: more would bury the
/// answer (`--show` draws any number, `--output` writes them as an image).
pub(crate) const LISTED_PRESSES: usize = 256;

/// The text answer's line of presses as (row,col) from (1,1) at the top
/// left: `None` when they are not at hand (a streamed board).
pub(crate) fn press_line(presses: Option<&Grid>, count: u64) -> String {
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

/// One board's answers, named by target, ready to print (and, as JSON, to
/// serve: `lightsout serve` answers with [`Report::json`] too).
pub(crate) struct Report<'a> {
    pub(crate) index: usize,
    pub(crate) board: &'a Grid,
    pub(crate) solver: &'a Solver,
    /// (target name, fewest presses or `None` when unreachable), in the
    /// order asked.
    pub(crate) entries: Entries<'a>,
}

/// At most two targets per board, kept inline and borrowed: a batch of
/// 65,536 boards should not pay an allocation or a copy each for them.
pub(crate) type Entries<'a> = arrayvec::ArrayVec<(&'static str, &'a Option<Solution>), 2>;

impl Report<'_> {
    /// The reachable target needing the fewest presses (the first on a tie).
    pub(crate) fn best(&self) -> Option<(&'static str, &Solution)> {
        self.entries
            .iter()
            .filter_map(|(name, s)| Some((*name, s.as_ref()?)))
            .min_by_key(|(_, s)| s.presses.count_ones())
    }

    pub(crate) fn best_summary(&self) -> String {
        match self.best() {
            None => "impossible".into(),
            Some((name, s)) => format!("{} presses to {name}", s.presses.count_ones()),
        }
    }

    /// Notes on stderr a press count not proven minimal: of the target
    /// asked for, or with `either`, of the answer given (a note on the other
    /// colour would be about a question nobody asked).
    pub(crate) fn warn_if_not_proven(&self, stderr: &mut dyn Write, max_nullity: usize) {
        let answered: Entries = match self.entries.len() {
            1 => self.entries.clone(),
            _ => self
                .entries
                .iter()
                .filter(|(name, _)| self.best().is_some_and(|(best, _)| best == *name))
                .copied()
                .collect(),
        };
        for (name, s) in &answered {
            if let Some(s) = s.as_ref().filter(|s| !s.proven_minimal) {
                let nullity = self.solver.nullity();
                let why = if !self.solver.holds_quiet_patterns() {
                    format!(
                        "its {nullity} quiet patterns do not fit --max-memory, so the press set was not minimised"
                    )
                } else if nullity > max_nullity {
                    format!("nullity {nullity} is above --max-nullity {max_nullity}; a local search found it")
                } else {
                    format!(
                        "nullity {nullity} is above the exhaustive search's limit of {MAX_EXHAUSTIVE_NULLITY}"
                    )
                };
                let _ = writeln!(
                    stderr,
                    "lightsout: note: board {}, {name}: {} presses, not proven minimal ({why})",
                    self.index,
                    s.presses.count_ones(),
                );
            }
        }
    }

    pub(crate) fn poj(&self, show: bool) -> String {
        let mut text = poj_line(self.best().map(|(name, s)| (name, s.presses.count_ones() as u64)));
        if let (true, Some((name, s))) = (show, self.best()) {
            text += &self.grids(name, s);
        }
        text
    }

    pub(crate) fn text(&self, show: bool) -> String {
        let (rows, cols) = (self.board.nrows(), self.board.ncols());
        let mut text = header_line(self.index, rows, cols, self.solver.nullity());
        for (name, s) in &self.entries {
            text += &target_line(name, s.as_ref().map(|s| (s.presses.count_ones() as u64, s.proven_minimal)));
        }
        text += &best_line(self.best().map(|(name, s)| (name, s.presses.count_ones() as u64)));
        if let Some((_, s)) = self.best() {
            text += &press_line(Some(&s.presses), s.presses.count_ones() as u64);
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
        let named =
            |name: &str| self.entries.iter().find(|(n, _)| *n == name).map_or(Value::Null, |(_, s)| entry(s));
        let best = match self.best() {
            None => json!({"target": null, "presses": null}),
            Some((name, s)) => json!({"target": name, "presses": s.presses.count_ones()}),
        };
        let puzzle = self.solver.puzzle();
        let mut object = json!({
            "board": self.index,
            "rows": self.board.nrows(),
            "cols": self.board.ncols(),
            "topology": study::topology_name(puzzle.topology()),
            "rule": puzzle.rule().to_string(),
            "nullity": self.solver.nullity(),
            "white": named("white"),
            "black": named("black"),
        });
        if self.entries.iter().any(|(n, _)| *n == "target") {
            object["target"] = named("target");
        }
        object["best"] = best;
        object.to_string()
    }
}
