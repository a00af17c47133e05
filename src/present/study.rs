//! The study commands' JSON, shared by `lightsout analyze`, `check` and
//! `table` and by the server's `/api/analyze`, `/api/check` and `/api/table`.

use serde_json::json;

use super::puzzle_topology;
use crate::analysis::KernelEntry;
use crate::{Analysis, Game, Grid, Puzzle, Solver, grid_lines};

/// `2^k` in decimal, for k up to a few thousand (beyond, `None`).
pub(crate) fn power_of_two(k: usize) -> Option<String> {
    if k > 4096 {
        return None;
    }
    // Base 10^9 limbs, least significant first, doubled k times.
    let mut limbs = vec![1u64];
    for _ in 0..k {
        let mut carry = 0;
        for limb in &mut limbs {
            let v = *limb * 2 + carry;
            *limb = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut text = limbs.last().map_or(String::new(), u64::to_string);
    for limb in limbs.iter().rev().skip(1) {
        text += &format!("{limb:09}");
    }
    Some(text)
}

/// Most quiet patterns an analysis lists, in text and in JSON.
pub(crate) const LISTED_PATTERNS: usize = 64;

/// Most cells of quiet patterns an analysis lists in all: beyond, the grids
/// would bury the numbers in text and take gigabytes in JSON (a 2031x2031
/// size has 896 patterns of 4 million cells: 7.7 GB of JSON before this
/// limit); `--png` draws them.
pub(crate) const LISTED_CELLS: usize = 1 << 20;

/// How many of `patterns` quiet patterns of `cells` cells are listed.
pub(crate) fn listed_patterns(patterns: usize, cells: usize) -> usize {
    (LISTED_CELLS / cells.max(1)).min(LISTED_PATTERNS).min(patterns)
}

/// Why the patterns past the first `listed` are left out.
pub(crate) fn omitted_patterns(patterns: usize, listed: usize, cells: usize) -> String {
    format!(
        "{} patterns of {cells} cells are not listed: an analysis lists at most {LISTED_PATTERNS} patterns and \
         {LISTED_CELLS} cells of them",
        patterns - listed
    )
}

/// A quiet pattern as JSON: rows of `x`/`.` on a grid, the pressed
/// vertices' numbers on a graph.
fn pattern_json(p: &Puzzle, q: &Grid) -> serde_json::Value {
    match p.graph() {
        Some(_) => json!(q.row(0).iter_ones().collect::<Vec<_>>()),
        None => json!(grid_lines(q, 'x', '.')),
    }
}

/// An analysis as a JSON object: the numbers, the lightest quiet pattern,
/// and the first quiet patterns of the basis ([`listed_patterns`];
/// `quiet_patterns_omitted` says how many more and why).
pub(crate) fn analysis_json(a: &Analysis) -> String {
    let p = &a.puzzle;
    let held = a.quiet.len() == a.nullity;
    let listed = listed_patterns(a.quiet.len(), p.cells());
    let mut v = json!({
        "rows": p.rows(),
        "cols": p.cols(),
        "topology": puzzle_topology(p),
        "rule": p.rule().to_string(),
        "rank": a.rank(),
        "nullity": a.nullity,
        "solvable_boards_log2": a.rank(),
        "solvable_boards": power_of_two(a.rank()),
        "solutions_per_solvable_board_log2": a.nullity,
        "targets_interchangeable": a.targets_interchangeable,
        "kernel_size": power_of_two(a.nullity),
        "kernel_size_log2": a.nullity,
        "quiet_patterns": held.then(|| a.quiet[..listed].iter().map(|q| pattern_json(p, q)).collect::<Vec<_>>()),
        "quiet_patterns_omitted": (held && listed < a.quiet.len()).then(|| json!({
            "count": a.quiet.len() - listed,
            "why": omitted_patterns(a.quiet.len(), listed, p.cells()),
        })),
        "lightest_quiet_pattern": a.lightest_quiet.as_ref().map(|(q, proven)| json!({
            "presses": q.count_ones(),
            "proven": proven,
            "pattern": pattern_json(p, q),
        })),
    });
    if let Some(g) = p.graph() {
        v["graph"] = json!({"vertices": g.vertex_count(), "edges": g.edge_count()});
    }
    if let Some((g, factors)) = &a.gcd {
        v["gcd"] = json!(g.to_string());
        v["gcd_factors"] = json!(
            factors
                .iter()
                .map(|(p, m)| json!({"factor": p.to_string(), "multiplicity": m}))
                .collect::<Vec<_>>()
        );
    }
    v.to_string()
}

/// One board's verdicts as a JSON object (also what `lightsout serve`
/// answers): for each target, solvable or the pattern that proves it is not.
pub(crate) fn check_json(index: usize, solver: &Solver, verdicts: &[(&str, Option<Grid>)]) -> String {
    let puzzle = solver.puzzle();
    let mut v = json!({"board": index, "rows": puzzle.rows(), "cols": puzzle.cols(),
        "topology": puzzle_topology(puzzle), "rule": puzzle.rule().to_string(),
        "nullity": solver.nullity(), "white": null, "black": null});
    if let Some(g) = puzzle.graph() {
        v["graph"] = json!({"vertices": g.vertex_count(), "edges": g.edge_count()});
    }
    for (name, obstruction) in verdicts {
        v[*name] = json!({
            "solvable": obstruction.is_none(),
            "obstruction": obstruction.as_ref().map(|y| grid_lines(y, 'x', '.')),
        });
    }
    v.to_string()
}

/// One size of a nullity table as a JSON object (a line of `--format json`).
pub(crate) fn table_entry_json(rows: usize, cols: usize, nullity: usize) -> serde_json::Value {
    json!({"rows": rows, "cols": cols, "nullity": nullity})
}

/// One size of a K-state kernel table as a JSON object (a line of `table
/// --states K --format json`, an element of `/api/table`'s array).
pub(crate) fn kernel_entry_json(
    rows: usize,
    cols: usize,
    states: u8,
    entry: &KernelEntry,
) -> serde_json::Value {
    json!({"rows": rows, "cols": cols, "states": states,
        "kernel_size_log2": entry.kernel_size_log2, "nullity": entry.nullity})
}
