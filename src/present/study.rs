//! The study commands' JSON, shared by `lightsout analyze`, `check` and
//! `table` and by the server's `/api/analyze`, `/api/check` and `/api/table`.

use serde_json::json;

use serde_json::Value;

use super::{members, presses, puzzle_json, puzzle_topology, states_json, topology_name};
use crate::analysis::{KernelEntry, Study};
use crate::solve::Board;
use crate::{Game, Grid, Puzzle, Solver, StateGrid, grid_lines, state_lines};

/// `2^k` in decimal, for k up to a few thousand (beyond, `None`).
pub fn power_of_two(k: usize) -> Option<String> {
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
pub const LISTED_PATTERNS: usize = 64;

/// Most cells of quiet patterns an analysis lists in all: beyond, the grids
/// would bury the numbers in text and take gigabytes in JSON (a 2031x2031
/// size has 896 patterns of 4 million cells: 7.7 GB of JSON before this
/// limit); `--png` draws them.
pub const LISTED_CELLS: usize = 1 << 20;

/// How many of `patterns` quiet patterns of `cells` cells are listed.
pub fn listed_patterns(patterns: usize, cells: usize) -> usize {
    (LISTED_CELLS / cells.max(1)).min(LISTED_PATTERNS).min(patterns)
}

/// Why the patterns past the first `listed` are left out.
pub fn omitted_patterns(patterns: usize, listed: usize, cells: usize) -> String {
    format!(
        "{} patterns of {cells} cells are not listed: an analysis lists at most {LISTED_PATTERNS} patterns and \
         {LISTED_CELLS} cells of them",
        patterns - listed
    )
}

/// A pattern's cells as text rows of `x`/`.` (two states).
fn cell_lines(cells: &[u8], cols: usize) -> Vec<String> {
    cells
        .chunks(cols.max(1))
        .map(|row| row.iter().map(|&v| if v == 0 { '.' } else { 'x' }).collect())
        .collect()
}

/// The cells of a pattern with states as a board of states.
fn state_grid(p: &Puzzle, cells: &[u8]) -> StateGrid {
    StateGrid::from_cell_values(p.rows(), p.cols(), cells)
}

/// A two-state quiet pattern as JSON: rows of `x`/`.` on a grid, the
/// pressed vertices' numbers on a graph.
fn pattern_json(p: &Puzzle, cells: &[u8]) -> serde_json::Value {
    match p.graph() {
        Some(_) => {
            json!(cells.iter().enumerate().filter(|(_, v)| **v != 0).map(|(i, _)| i).collect::<Vec<_>>())
        }
        None => json!(cell_lines(cells, p.cols())),
    }
}

/// A study of `puzzle` with `states` states as a JSON object (`analyze
/// --format json`, `/api/analyze`): the numbers, the lightest quiet
/// pattern, and the first quiet patterns of the basis ([`listed_patterns`];
/// `quiet_patterns_omitted` says how many more and why).
pub fn study_json(study: &Study, p: &Puzzle, states: u8) -> String {
    match states {
        2 => two_state_study_json(study, p),
        k => state_study_json(study, p, k),
    }
}

fn two_state_study_json(s: &Study, p: &Puzzle) -> String {
    let nullity = s.kernel.nullity.unwrap_or(0);
    let rank = p.cells() - nullity;
    let quiet = s.quiet.as_deref();
    let patterns = quiet.map_or(0, <[_]>::len);
    let listed = listed_patterns(patterns, p.cells());
    let mut v = json!({
        "rows": p.rows(),
        "cols": p.cols(),
        "topology": puzzle_topology(p),
        "rule": p.rule().to_string(),
        "rank": rank,
        "nullity": nullity,
        "solvable_boards_log2": rank,
        "solvable_boards": power_of_two(rank),
        "solutions_per_solvable_board_log2": nullity,
        "targets_interchangeable": s.targets_interchangeable,
        "kernel_size": power_of_two(nullity),
        "kernel_size_log2": nullity,
        "quiet_patterns": quiet.map(|q| q[..listed].iter().map(|(q, _)| pattern_json(p, q)).collect::<Vec<_>>()),
        "quiet_patterns_omitted": (quiet.is_some() && listed < patterns).then(|| json!({
            "count": patterns - listed,
            "why": omitted_patterns(patterns, listed, p.cells()),
        })),
        "lightest_quiet_pattern": s.lightest.as_ref().map(|(q, proven)| json!({
            "presses": q.iter().filter(|&&v| v != 0).count(),
            "proven": proven,
            "pattern": pattern_json(p, q),
        })),
    });
    if let Some(g) = p.graph() {
        v["graph"] = json!({"vertices": g.vertex_count(), "edges": g.edge_count()});
    }
    if let Some((g, factors)) = &s.gcd {
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

/// The K-state study: the kernel's size, rank and nullity (prime K), the
/// generators of the kernel with their orders, and the lightest quiet
/// pattern (`proven` when the kernel was searched whole).
fn state_study_json(s: &Study, puzzle: &Puzzle, k: u8) -> String {
    let mut v = serde_json::Map::new();
    v.extend(puzzle_json(puzzle, k));
    v.insert("kernel_size".into(), json!(s.kernel.size));
    v.insert("kernel_size_log2".into(), json!(s.kernel.log2));
    v.insert("rank".into(), json!(s.rank));
    v.insert("nullity".into(), json!(s.kernel.nullity));
    let quiet = s.quiet.as_deref().unwrap_or_default();
    let listed = listed_patterns(quiet.len(), puzzle.cells());
    // Every board is K^cells / |image|; solvable boards number K^cells / |kernel| (A is square).
    let cells_log2 = puzzle.cells() as f64 * f64::from(k).log2();
    v.insert("solvable_boards_log2".into(), json!(cells_log2 - s.kernel.log2));
    let generators: Vec<_> = quiet[..listed]
        .iter()
        .map(|(q, order)| json!({"order": order, "pattern": states_json(&state_grid(puzzle, q), k)}))
        .collect();
    v.insert("quiet_patterns".into(), json!(generators));
    let omitted = (listed < quiet.len()).then(|| {
        json!({"count": quiet.len() - listed, "why": omitted_patterns(quiet.len(), listed, puzzle.cells())})
    });
    v.insert("quiet_patterns_omitted".into(), json!(omitted));
    let lightest = s.lightest.as_ref().map(|(q, proven)| {
        let q = state_grid(puzzle, q);
        json!({"presses": q.total(), "proven": proven, "pattern": states_json(&q, k)})
    });
    v.insert("lightest_quiet_pattern".into(), json!(lightest));
    Value::Object(v).to_string()
}

/// A study of `puzzle` with `states` states as `analyze` prints it.
pub fn study_text(study: &Study, p: &Puzzle, states: u8) -> String {
    match states {
        2 => two_state_study_text(study, p),
        k => state_study_text(study, p, k),
    }
}

/// Largest nullity `analyze` suggests searching in full: 2^42 members take
/// minutes on two cores (65×65, folded by its symmetries: 79 s).
const SUGGESTED_MAX_NULLITY: usize = 42;

/// Largest power of two whose digits the text output spells out (20
/// digits); beyond it `2^k` says all (2^2240 has 675 digits). JSON keeps
/// the digits.
const SPELLED_OUT_POWER: usize = 64;

/// `2^k` for reading: `8`, `2^12 = 4096`, or `2^2240` alone.
fn count(k: usize) -> String {
    match power_of_two(k) {
        Some(n) if k <= 3 => n,
        Some(n) if k <= SPELLED_OUT_POWER => format!("2^{k} = {n}"),
        _ => format!("2^{k}"),
    }
}

fn factors_text(factors: &[(crate::gf2::Poly, usize)]) -> String {
    if factors.is_empty() {
        return "1".into();
    }
    factors
        .iter()
        .map(|(p, m)| if *m == 1 { format!("({p})") } else { format!("({p})^{m}") })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The puzzle a study is of, as its first line begins.
fn shape_line(p: &Puzzle) -> String {
    match p.graph() {
        Some(g) => format!("graph of {} vertices and {} edges", g.vertex_count(), g.edge_count()),
        None => format!("{}x{} {}", p.rows(), p.cols(), topology_name(p.topology())),
    }
}

fn two_state_study_text(s: &Study, p: &Puzzle) -> String {
    let cells = p.cells();
    let nullity = s.kernel.nullity.unwrap_or(0);
    let mut t = format!("{}, rule {}\n", shape_line(p), p.rule());
    t += &format!("rank {}, nullity {nullity}\n", cells - nullity);
    t += &format!(
        "solvable boards: {} of {} (1 in {})\n",
        count(cells - nullity),
        count(cells),
        count(nullity)
    );
    t += &format!("solutions per solvable board: {}\n", count(nullity));
    t += if s.targets_interchangeable == Some(true) {
        "all white and all black: every board that can reach one can reach the other\n"
    } else {
        "all white and all black: not interchangeable (the all-black board cannot be cleared)\n"
    };
    if let Some((g, factors)) = &s.gcd {
        // The factorisation is shown when it says more than `g` itself.
        let factored = match factors.as_slice() {
            [] => String::new(),
            [(_, 1)] => " (irreducible)".into(),
            // x^k says it already.
            [(p, _)] if p.weight() == 1 => String::new(),
            _ => format!(" = {}", factors_text(factors)),
        };
        t += &format!("gcd(f_R(x), f_C(x+1)) = {g}{factored}\n");
    }
    let Some((q, proven)) = &s.lightest else {
        t += &match nullity {
            0 => "quiet patterns: none (every board is solvable, in exactly one way)\n".to_string(),
            _ => format!(
                "quiet patterns: {nullity} of {cells} cells each, too many to hold within --max-memory: none \
                 listed, the lightest not searched (raise --max-memory to list them)\n"
            ),
        };
        return t;
    };
    let how = if *proven {
        String::new()
    } else if nullity > crate::solve::MAX_EXHAUSTIVE_NULLITY {
        format!(
            " (not proven lightest: nullity {nullity} is above {}, past an exhaustive search)",
            crate::solve::MAX_EXHAUSTIVE_NULLITY
        )
    } else if nullity <= SUGGESTED_MAX_NULLITY {
        format!(
            " (not proven lightest: nullity {nullity} is above --max-nullity; --max-nullity {nullity} searches all \
             2^{nullity})"
        )
    } else {
        format!(" (not proven lightest: nullity {nullity} is above --max-nullity)")
    };
    let weight = |q: &[u8]| presses(q.iter().filter(|&&v| v != 0).count() as u64);
    t += &format!("lightest quiet pattern: {}{how}\n", weight(q));
    t += &format!("quiet patterns (a basis of {nullity}; x = press):\n");
    let quiet = s.quiet.as_deref().unwrap_or_default();
    let drawn = listed_patterns(quiet.len(), cells);
    for (i, (q, _)) in quiet.iter().take(drawn).enumerate() {
        t += &format!("  {}: {}\n", i + 1, weight(q));
        if p.graph().is_some() {
            let vertices: Vec<String> =
                q.iter().enumerate().filter(|(_, v)| **v != 0).map(|(i, _)| i.to_string()).collect();
            t += &format!("    vertices {}\n", vertices.join(" "));
            continue;
        }
        for line in cell_lines(q, p.cols()) {
            t += &format!("    {line}\n");
        }
    }
    if quiet.len() > drawn {
        let listed = if drawn == 0 { "none drawn" } else { "and more" };
        t += &format!("  … {listed}: {}\n", omitted_patterns(quiet.len(), drawn, cells));
    }
    t
}

fn state_study_text(s: &Study, p: &Puzzle, k: u8) -> String {
    let budget = s.max_nullity;
    let mut t = format!("{}, rule {}, {k} states\n", shape_line(p), p.rule());
    match (s.rank, s.kernel.nullity) {
        (Some(r), Some(d)) => t += &format!("rank {r}, nullity {d} (Z_{k} is a field)\n"),
        _ => t += &format!("Z_{k} is no field: no rank or nullity, the kernel is a group\n"),
    }
    t += &format!("quiet patterns: {} (2^{:.2})\n", members(&s.kernel.size), s.kernel.log2);
    let cells = p.cells() as f64 * f64::from(k).log2();
    t += &format!(
        "solvable boards: 1 in {} (2^{:.2} of 2^{cells:.2})\n",
        s.kernel.size,
        cells - s.kernel.log2
    );
    let quiet = s.quiet.as_deref().unwrap_or_default();
    match &s.lightest {
        Some((q, true)) => t += &format!("lightest quiet pattern: {}\n", presses(state_grid(p, q).total())),
        Some((q, false)) => {
            t += &format!(
                "lightest quiet pattern: {} (not proven lightest: more than 2^{budget} members, past an \
                 exhaustive search; a local search found it; raise --max-nullity)\n",
                presses(state_grid(p, q).total())
            )
        }
        None if quiet.is_empty() => t += "every board is solvable, in exactly one way\n",
        None => {
            t += &format!(
                "lightest quiet pattern: not searched (more than 2^{budget} members; raise --max-nullity)\n"
            )
        }
    }
    let listed = listed_patterns(quiet.len(), p.cells());
    if !quiet.is_empty() {
        t += &format!(
            "generators of the kernel ({}, each with its order; every quiet pattern is one sum of their \
             multiples; numbers = presses):\n",
            quiet.len()
        );
    }
    for (i, (q, order)) in quiet.iter().take(listed).enumerate() {
        let q = state_grid(p, q);
        t += &format!("  {}: order {order}, {}\n", i + 1, presses(q.total()));
        for line in state_lines(&q, k) {
            t += &format!("    {line}\n");
        }
    }
    if listed < quiet.len() {
        t += &format!("  … {}\n", omitted_patterns(quiet.len(), listed, p.cells()));
    }
    t
}

/// One board's verdicts as a JSON object (also what `lightsout serve`
/// answers): for each target, solvable or the pattern that proves it is not.
pub fn check_json(index: usize, solver: &Solver, verdicts: &[(&str, Option<Grid>)]) -> String {
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
pub fn table_entry_json(rows: usize, cols: usize, nullity: usize) -> serde_json::Value {
    json!({"rows": rows, "cols": cols, "nullity": nullity})
}

/// One size of a K-state kernel table as a JSON object (a line of `table
/// --states K --format json`, an element of `/api/table`'s array).
pub fn kernel_entry_json(rows: usize, cols: usize, states: u8, entry: &KernelEntry) -> serde_json::Value {
    json!({"rows": rows, "cols": cols, "states": states,
        "kernel_size_log2": entry.kernel_size_log2, "nullity": entry.nullity})
}
