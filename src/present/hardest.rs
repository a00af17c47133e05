//! The hardest boards of a size, as both fronts print and serve them: a
//! few lines of text, or one JSON object (the problem as `analyze` gives
//! it, then `most_presses` and the `distribution`).

use num_bigint::BigUint;
use serde_json::{Value, json};

use super::{Worded, goal_words, presses, puzzle_json, shape_text, topology_name};
use crate::analysis::hardest::{Carried, TABLE_PROVENANCE};
use crate::analysis::{Goal, Hardest, How, WEIGHINGS_PER_SECOND, Weighed};

/// Counts up to this many digits are spelled out in text; longer ones as
/// a power (a 128x128 board has 2^16376 solvable boards, an 8x8 one over
/// Z_3 3^60), or as a power of two rounded where the count is no power.
/// JSON keeps every digit.
const SPELLED_OUT_DIGITS: usize = 20;

/// A count of boards for reading: `8388608`, `2^16376`, `3^60`, `6^40`,
/// or `≈ 2^41.58`.
fn count_words(decimal: &str) -> String {
    if decimal.len() <= SPELLED_OUT_DIGITS {
        return decimal.to_string();
    }
    let Some(n) = BigUint::parse_bytes(decimal.as_bytes(), 10) else {
        return decimal.to_string();
    };
    if let Some((base, exponent)) = exact_power(&n) {
        return format!("{base}^{exponent}");
    }
    // The leading 53 bits give the fraction of the logarithm.
    let bits = n.bits();
    let top = (&n >> (bits - 53)).to_u64_digits().first().copied().unwrap_or(1);
    format!("≈ 2^{:.2}", (bits - 53) as f64 + (top as f64).log2())
}

/// `n` as `base^exponent` where it is a power of the product of primes up
/// to 255 (the boards counted over Z_K, K ≤ 255, are often K^r or p^r);
/// `None` for any other number, a smooth one of unequal powers included.
fn exact_power(n: &BigUint) -> Option<(u64, u64)> {
    let twos = n.trailing_zeros()?;
    let mut rest = n >> twos;
    let mut factors = vec![(2u64, twos)];
    for p in (3u32..=255).filter(|p| (2..*p).take_while(|q| q * q <= *p).all(|q| p % q != 0)) {
        let mut exponent = 0u64;
        while (&rest % p).bits() == 0 {
            rest /= p;
            exponent += 1;
        }
        factors.push((u64::from(p), exponent));
    }
    factors.retain(|&(_, e)| e > 0);
    let exponent = factors.first()?.1;
    let base = factors.iter().try_fold(1u64, |b, &(p, e)| (e == exponent).then(|| b.checked_mul(p))?)?;
    (rest.bits() == 1).then_some((base, exponent))
}

/// The puzzle in words: `5x5 plane, rule plus`, with the states past two,
/// or the graph's vertices and edges.
fn puzzle_words<G: Weighed>(game: &G, states: u8) -> String {
    let p = game.puzzle();
    let shape = match p.graph() {
        Some(g) => format!("{} and {} edges", shape_text(p), g.edge_count()),
        None => format!("{} {}", shape_text(p), topology_name(p.topology())),
    };
    let states = if states > 2 { format!(", {states} states") } else { String::new() };
    format!("{shape}, rule {}{states}", p.rule())
}

/// Where the bounds come from: `lower: tabu search, upper: sub-span ceiling`.
fn sources_words<B: crate::Board>(h: &Hardest<B>, states: u8) -> String {
    let upper = h.upper_from.name(states);
    match h.lower_from {
        Some(lower) if lower == h.upper_from => upper.to_string(),
        Some(lower) => format!("lower: {}, upper: {upper}", lower.name(states)),
        None => format!("upper: {upper}"),
    }
}

/// A family's words (`; one family with 9x9 (classes ×25), …`), where the
/// bounds were left apart by the size's own searches: what the smaller
/// size's answer did for this one.
fn family_words<B: crate::Board>(h: &Hardest<B>) -> String {
    let Some(f) = &h.family else { return String::new() };
    let what = format!("one family with {}x{} (classes ×{})", f.base_rows, f.base_cols, f.scale());
    match f.carried {
        Carried::Settled => format!("; {what}, which settles it"),
        Carried::BaseUnsettled => format!("; {what}, unsettled there too"),
        Carried::SmallClasses(cells) => format!(
            "; {what}, whose answer bounds it from one side only: {}x{} has classes of {cells} cell{}, too few to hold its proof here",
            f.base_rows,
            f.base_cols,
            if cells == 1 { "" } else { "s" }
        ),
    }
}

/// Why bounds were left apart, and what would settle them: the work and
/// its time at the slower of the fixed rates.
fn unsettled_words<B: crate::Board>(h: &Hardest<B>) -> String {
    if h.stopped {
        return "stopped before the bounds met".into();
    }
    let rate = WEIGHINGS_PER_SECOND.0;
    let why = match h.stalled {
        // The patience grows with the budget: the flag that buys more.
        Some(patience) => format!(
            "the search stopped after {:.1e} weighings without progress (about {} at {rate:.0e} a second; --max-work raises that with the budget)",
            patience as f64,
            duration_words(patience as f64 / rate)
        ),
        None => "the exact methods do not finish within the work budget".into(),
    };
    let Some(work) = h.settle_work else { return why };
    let time = duration_words(work / rate);
    let at = format!("about {work:.1e} weighings, {time} at {rate:.0e} a second");
    if work <= SUGGESTED_WORK {
        // Within reach of a patient user: say how to ask for it (a run
        // spends the default's work again before the rest; the leader
        // program's search gets half the budget, and its patience, 1/32 of
        // it, must outlast its longest stretch without a new percent of the
        // tree: under a fifth of the level in 9x9's proof, so a quarter).
        let patience = crate::analysis::STALL_SHARE as f64 / 4.0;
        let budget = patience * work * 1.1 + crate::analysis::DEFAULT_HARDEST_WORK as f64;
        format!("{why}; settling them takes {at}: --max-work {budget:.1e}")
    } else {
        format!("{why}; settling them would take {at}")
    }
}

/// Seconds in the largest unit that keeps them above 1: `40 s`, `3.2
/// hours`, `2.0e5 years`.
fn duration_words(seconds: f64) -> String {
    const UNITS: [(f64, &str); 4] =
        [(31_557_600.0, "years"), (86_400.0, "days"), (3_600.0, "hours"), (60.0, "minutes")];
    for (size, name) in UNITS {
        if seconds >= size {
            let n = seconds / size;
            return if n < 1e4 { format!("{n:.1} {name}") } else { format!("{n:.1e} {name}") };
        }
    }
    format!("{seconds:.0} s")
}

/// The most work the text suggests asking for: about 6 hours of the
/// leader program's search at its fixed rate.
const SUGGESTED_WORK: f64 = 1e13;

/// The hardest boards in a few lines: the puzzle and how many boards were
/// weighed, the most presses (proven or bounded) and how many boards need
/// them, a board that needs them, and with the distribution the boards by
/// their fewest presses.
pub fn hardest_text<G: Weighed + Worded>(game: &G, goal: Goal, h: &Hardest<G::Board>) -> String {
    let states = game.cell_states();
    let goal = goal_words(goal, states);
    let kernel = game.kernel();
    let kernel = match kernel.nullity {
        Some(d) => format!("nullity {d}"),
        None => format!("a kernel of {}", count_words(&kernel.size)),
    };
    let mut t = format!(
        "{}, {kernel}: {} boards can reach {goal}\n",
        puzzle_words(game, states),
        count_words(&h.boards)
    );
    let at_most = h.boards_at_most.as_ref().map_or(String::new(), |n| {
        let them = if n == "1" {
            "1 board needs them".to_string()
        } else {
            format!("{} boards need them", count_words(n))
        };
        format!("; {them}")
    });
    t += &match h.lower {
        Some(lower) if h.how == How::Table => {
            format!("most presses: {lower}, proven ({}: {TABLE_PROVENANCE}){at_most}\n", h.how.name())
        }
        Some(lower) if h.exact() => {
            format!(
                "most presses: {lower}, proven ({}: {}{}){at_most}\n",
                h.how.name(),
                sources_words(h, states),
                family_words(h)
            )
        }
        Some(lower) => format!(
            "most presses: {lower} to {}, not proven ({}; {}{})\n",
            h.upper,
            sources_words(h, states),
            unsettled_words(h),
            family_words(h)
        ),
        None => format!(
            "most presses: at most {}; no board certified (its fewest presses are past the exhaustive search)\n",
            h.upper
        ),
    };
    if let (Some(lower), Some(board)) = (h.lower, &h.board) {
        t += &if h.exact() {
            format!("a hardest board, {} to {goal}:\n", presses(lower))
        } else {
            format!("a board that needs {} to {goal} (the lower bound):\n", presses(lower))
        };
        for line in game.board_lines(board) {
            t += &line;
            t.push('\n');
        }
    }
    if let Some(distribution) = &h.distribution {
        t += "boards by their fewest presses:\n";
        let width = distribution.last().map_or(1, |(w, _)| w.to_string().len());
        for (w, n) in distribution {
            t += &format!("  {w:>width$}  {}\n", count_words(n));
        }
    }
    t
}

/// The hardest boards as one JSON object: the problem's fields as
/// `analyze` gives them (no quiet patterns), the target, `most_presses`
/// and, when counted, `distribution` (counts as decimal strings: they
/// pass 2^64).
pub fn hardest_json<G: Weighed + Worded>(game: &G, goal: Goal, h: &Hardest<G::Board>) -> Value {
    let states = game.cell_states();
    let mut v = puzzle_json(game.puzzle(), states);
    let kernel = game.kernel();
    v.insert("kernel_size".into(), json!(kernel.size));
    // As `analyze` gives it: a whole number for two states.
    v.insert(
        "kernel_size_log2".into(),
        match kernel.nullity {
            Some(d) if states == 2 => json!(d),
            _ => json!(kernel.log2),
        },
    );
    v.insert("nullity".into(), json!(kernel.nullity));
    v.insert(
        "target".into(),
        match goal {
            Goal::State(t) => json!(t),
            Goal::Any => json!("any"),
        },
    );
    v.insert("solvable_boards".into(), json!(h.boards));
    v.insert(
        "most_presses".into(),
        json!({
            "lower": h.lower,
            "upper": h.upper,
            "exact": h.exact(),
            "how": h.how.name(),
            "lower_from": h.lower_from.map(|b| b.name(states)),
            "upper_from": h.upper_from.name(states),
            "board": h.board.as_ref().map(|b| game.board_json(b)),
            "boards": h.boards_at_most,
            "stopped": h.stopped,
            "stop": h.stop().map(|s| s.name()),
        }),
    );
    if let (How::Table, Some(Value::Object(most))) = (h.how, v.get_mut("most_presses")) {
        // Only on a shipped answer: where its upper bound was proven.
        most.insert("provenance".into(), json!(TABLE_PROVENANCE));
    }
    if let (Some(f), Some(Value::Object(most))) = (&h.family, v.get_mut("most_presses")) {
        // Only where a family was looked for (bounds left apart), so the
        // other answers keep their shape.
        let carried = match f.carried {
            Carried::Settled => "settled",
            Carried::BaseUnsettled => "base unsettled",
            Carried::SmallClasses(_) => "small classes",
        };
        most.insert(
            "family".into(),
            json!({"base_rows": f.base_rows, "base_cols": f.base_cols, "scale": f.scale(), "carried": carried}),
        );
    }
    if let Some(distribution) = &h.distribution {
        let rows: Vec<Value> = distribution.iter().map(|(w, n)| json!({"presses": w, "boards": n})).collect();
        v.insert("distribution".into(), json!(rows));
    }
    Value::Object(v)
}

/// One size of a table of Most Clicks: what `hardest -f json` says of it
/// (the bounds, how and where from, the certified board), and the
/// weighings its search spent of the table's budget.
pub struct SizeAnswer {
    /// What `hardest -f json` says of the size.
    pub answer: Value,
    /// The weighings its search spent.
    pub spent: u64,
}

impl SizeAnswer {
    fn most(&self) -> &Value {
        &self.answer["most_presses"]
    }

    /// `37`, `124..125`, or `..4516` where no board was certified.
    fn text(&self) -> String {
        let most = self.most();
        match (most["lower"].as_u64(), most["upper"].as_u64().unwrap_or(0)) {
            (Some(lower), upper) if lower == upper => lower.to_string(),
            (Some(lower), upper) => format!("{lower}..{upper}"),
            (None, upper) => format!("..{upper}"),
        }
    }

    fn proven(&self) -> bool {
        self.most()["exact"] == true
    }
}

/// The table as a grid (rows down, columns across), its title above and
/// what the entries mean below: how many are proven, and the budget.
pub fn most_clicks_text(
    title: &str,
    entries: &[Vec<Option<SizeAnswer>>],
    ((r0, r1), (c0, c1)): ((usize, usize), (usize, usize)),
    nullity: &[Vec<usize>],
    (budget, spent): (u64, u64),
) -> String {
    let cells: Vec<Vec<String>> = entries
        .iter()
        .map(|row| row.iter().map(|e| e.as_ref().map_or("-".into(), SizeAnswer::text)).collect())
        .collect();
    let width = cells.iter().flatten().map(String::len).max().unwrap_or(1).max(c1.to_string().len());
    let label = r1.to_string().len();
    let mut t = format!("{title}\n{:>label$} |", "");
    for c in c0..=c1 {
        t += &format!(" {c:>width$}");
    }
    t.push('\n');
    for (i, row) in cells.iter().enumerate() {
        t += &format!("{:>label$} |", r0 + i);
        for cell in row {
            t += &format!(" {cell:>width$}");
        }
        t.push('\n');
    }
    let done: Vec<&SizeAnswer> = entries.iter().flatten().flatten().collect();
    let proven = done.iter().filter(|e| e.proven()).count();
    let zero = nullity.iter().flatten().filter(|n| **n == 0).count();
    let mut open = String::new();
    if proven < done.len() {
        open += "; A..B: bounds, not proven";
    }
    if done.iter().any(|e| e.most()["lower"].is_null()) {
        open += " (..B: no board certified)";
    }
    let stopped = done.iter().filter(|e| e.most()["stopped"] == true).count();
    if stopped > 0 {
        open += &format!("; {stopped} stopped by the time limit or an interrupt");
    }
    t += &format!(
        "{proven} of {} sizes proven ({zero} of nullity 0){open}; work: {spent:.1e} of the table's {budget:.1e} weighings\n",
        done.len(),
        spent = spent as f64,
        budget = budget as f64,
    );
    t
}

/// The table as CSV: a line per size weighed, the bounds and where they
/// come from (`lower` empty where no board was certified).
pub fn most_clicks_csv(entries: &[Vec<Option<SizeAnswer>>]) -> String {
    let mut t = String::from("rows,cols,nullity,lower,upper,proven,how,lower_from,upper_from,weighings\n");
    for e in entries.iter().flatten().flatten() {
        let (a, most) = (&e.answer, e.most());
        let word = |v: &Value| v.as_str().unwrap_or("").to_string();
        t += &format!(
            "{},{},{},{},{},{},{},{},{},{}\n",
            a["rows"],
            a["cols"],
            a["nullity"],
            most["lower"].as_u64().map_or(String::new(), |l| l.to_string()),
            most["upper"],
            e.proven(),
            word(&most["how"]),
            word(&most["lower_from"]),
            word(&most["upper_from"]),
            e.spent
        );
    }
    t
}

/// The table as JSON lines: per size weighed, the size, its nullity and
/// target, `lower`, `upper` and `proven`, how and where from, the
/// certified board (rows of `b`/`w`, null if none) and the weighings spent.
pub fn most_clicks_json(entries: &[Vec<Option<SizeAnswer>>]) -> String {
    let mut t = String::new();
    for e in entries.iter().flatten().flatten() {
        let (a, most) = (&e.answer, e.most());
        let line = json!({
            "rows": a["rows"],
            "cols": a["cols"],
            "topology": a["topology"],
            "rule": a["rule"],
            "nullity": a["nullity"],
            "target": a["target"],
            "lower": most["lower"],
            "upper": most["upper"],
            "proven": most["exact"],
            "how": most["how"],
            "lower_from": most["lower_from"],
            "upper_from": most["upper_from"],
            "board": most["board"],
            "stopped": most["stopped"],
            "weighings": e.spent,
        });
        t += &line.to_string();
        t.push('\n');
    }
    t
}

#[cfg(test)]
mod tests {
    use super::{count_words, hardest_json, hardest_text};
    use crate::analysis::{Goal, hardest_settled};
    use crate::{Method, Puzzle, Solver};
    use num_bigint::BigUint;

    #[test]
    fn a_shipped_answer_says_where_its_bound_was_proven() {
        let solver = Solver::new(&Puzzle::new(9, 9).unwrap(), Method::Auto, 32).unwrap();
        let h = hardest_settled(&solver, Goal::State(0)).unwrap().unwrap();
        let text = hardest_text(&solver, Goal::State(0), &h);
        let line = text.lines().nth(1).unwrap();
        assert_eq!(
            line,
            "most presses: 37, proven (shipped table: settled offline by the leader program, see docs/study.md; the board solved again here)"
        );
        assert!(text.contains("a hardest board, 37 presses to white:"), "{text}");
        let most = &hardest_json(&solver, Goal::State(0), &h)["most_presses"];
        assert_eq!((most["how"].as_str(), most["stop"].as_str()), (Some("shipped table"), None));
        assert!(most["provenance"].as_str().unwrap().starts_with("settled offline"));
    }

    #[test]
    fn counts_past_twenty_digits_read_as_powers() {
        assert_eq!(count_words("8388608"), "8388608");
        let two_to_100 = "1267650600228229401496703205376";
        assert_eq!(count_words(two_to_100), "2^100");
        // Exactly, as two states are (issue 32: 3^60 was "≈ 2^95.10").
        assert_eq!(count_words("717897987691852588770249"), "3^50");
        assert_eq!(count_words(&(BigUint::from(6u8).pow(40)).to_string()), "6^40");
        assert_eq!(count_words(&(BigUint::from(251u8).pow(30)).to_string()), "251^30");
        // No power: 3^50 + 1, and 2^100 times a prime past 255.
        assert_eq!(count_words("717897987691852588770250"), "≈ 2^79.25");
        let past = BigUint::from(2u8).pow(100) * 257u32;
        assert_eq!(count_words(&past.to_string()), "≈ 2^108.01");
        // Powers of unequal exponents (a smooth count of a distribution's row)
        // are no power: approximated.
        let mixed = BigUint::from(2u8).pow(70) * BigUint::from(3u8).pow(5);
        assert!(count_words(&mixed.to_string()).starts_with('≈'));
    }
}
