//! Names and words every front uses: of topologies, rules and targets,
//! ranges of sizes, byte counts. Plain functions of text, with no
//! dependency: the command line, the server and the Python binding read
//! them alike (the Python crate builds without the `cli` feature).

use crate::analysis::Goal;
use crate::{Puzzle, Rule, Target, Topology};

/// The target words and what each asks: `white`, `black`, or `either`
/// (both, for the fewer presses). Anything else names a board, a state
/// or, on every front, `any`.
///
/// # Example
/// ```
/// use lightsout::{Target, present::colour_targets};
///
/// assert_eq!(colour_targets("black"), Some(&[Target::Black][..]));
/// assert_eq!(colour_targets("either"), Some(Target::EITHER));
/// assert_eq!(colour_targets("grey"), None);
/// ```
pub fn colour_targets(word: &str) -> Option<&'static [Target]> {
    match word {
        "white" => Some(&[Target::White]),
        "black" => Some(&[Target::Black]),
        "either" => Some(Target::EITHER),
        _ => None,
    }
}

/// The words [`colour_targets`] knows, for messages.
pub const TARGET_WORDS: &str = "white, black, either";

/// What the hardest boards are weighed to, as every front names it for a
/// puzzle of `states` states: a state number, `any`, and for two states
/// also `white` (0), `black` (1) and `either` (any).
///
/// # Example
/// ```
/// use lightsout::analysis::Goal;
/// use lightsout::present::parse_goal;
///
/// assert_eq!(parse_goal("white", 2), Ok(Goal::State(0)));
/// assert_eq!(parse_goal("7", 9), Ok(Goal::State(7)));
/// assert_eq!(parse_goal("either", 2), Ok(Goal::Any));
/// assert!(parse_goal("grey", 2).is_err());
/// assert!(parse_goal("black", 3).is_err() && parse_goal("3", 3).is_err());
/// ```
///
/// # Errors
/// A message naming what is expected, for any other word.
pub fn parse_goal(word: &str, states: u8) -> Result<Goal, String> {
    let top = states.saturating_sub(1);
    let expected = if states == 2 {
        "0 or white, 1 or black, or any".to_string()
    } else {
        format!("a state 0 to {top} or any")
    };
    match word {
        "any" => Ok(Goal::Any),
        "white" | "black" | "either" if states > 2 => {
            Err(format!("'{word}' is a two-state word; with {states} states give {expected}"))
        }
        "white" => Ok(Goal::State(0)),
        "black" => Ok(Goal::State(1)),
        "either" => Ok(Goal::Any),
        _ if !word.is_empty() && word.bytes().all(|b| b.is_ascii_digit()) => match word.parse::<u8>() {
            Ok(t) if t < states => Ok(Goal::State(t)),
            _ => Err(format!("state {word} is not a state of this puzzle: give {expected}")),
        },
        _ => Err(format!(
            "expected {expected}, not '{word}' (the hardest boards are weighed to a uniform state)"
        )),
    }
}

/// A goal in words: `white`, `black` or `state 3`, or `any uniform state`
/// (`either colour` for two states).
pub fn goal_words(goal: Goal, states: u8) -> String {
    match (goal, states) {
        (Goal::State(0), 2) => "white".into(),
        (Goal::State(1), 2) => "black".into(),
        (Goal::State(t), _) => format!("state {t}"),
        (Goal::Any, 2) => "either colour".into(),
        (Goal::Any, _) => "any uniform state".into(),
    }
}

/// Whether `s` names a built-in graph (`petersen`, `cycle:N`, `path:N`,
/// `complete:N`, `hypercube:D`, `cube`) rather than a file or graph6.
///
/// # Example
/// ```
/// use lightsout::present::is_graph_name;
///
/// assert!(is_graph_name("cycle:7") && is_graph_name("petersen"));
/// assert!(!is_graph_name("Dhc") && !is_graph_name("graph.g6"));
/// ```
pub fn is_graph_name(s: &str) -> bool {
    const BUILT_IN: [&str; 6] = ["petersen", "cycle:", "path:", "complete:", "hypercube:", "cube"];
    BUILT_IN.iter().any(|b| s == *b || (b.ends_with(':') && s.starts_with(b)))
}

/// `RxC`, or `graph of N vertices`: a board's shape in text.
#[cfg(feature = "json")]
pub(crate) fn shape_text(puzzle: &crate::Puzzle) -> String {
    match puzzle.graph() {
        Some(g) => format!("graph of {} vertices", g.vertex_count()),
        None => format!("{}x{}", puzzle.rows(), puzzle.cols()),
    }
}

/// The topology of a board that wraps around (`torus`) or not.
pub fn topology(torus: bool) -> Topology {
    if torus { Topology::Torus } else { Topology::Plane }
}

/// `plane` or `torus`.
pub fn topology_name(t: Topology) -> &'static str {
    match t {
        Topology::Plane => "plane",
        Topology::Torus => "torus",
    }
}

/// `plane`, `torus`, or `graph`: a puzzle's topology as records and
/// JSON name it.
pub fn puzzle_topology(puzzle: &Puzzle) -> &'static str {
    if puzzle.graph().is_some() { "graph" } else { topology_name(puzzle.topology()) }
}

/// Reads a topology's name, as [`topology_name`] writes it.
///
/// # Example
/// ```
/// use lightsout::Topology;
/// use lightsout::present::{parse_topology, topology_name};
///
/// assert_eq!(parse_topology(topology_name(Topology::Torus)), Some(Topology::Torus));
/// assert_eq!(parse_topology("sphere"), None);
/// ```
pub fn parse_topology(name: &str) -> Option<Topology> {
    match name {
        "plane" => Some(Topology::Plane),
        "torus" => Some(Topology::Torus),
        _ => None,
    }
}

/// `plus`, `neighbours` (or `neighbors`), `king`, or a mask of 0/1 rows.
///
/// # Errors
/// A message naming the text: a word that is no rule's name, or a mask
/// that is not one ([`Rule::from_mask`]'s words).
///
/// # Example
/// ```
/// use lightsout::{Rule, present::parse_rule};
///
/// assert_eq!(parse_rule("king")?, Rule::king());
/// assert_eq!(parse_rule("010/111/010")?, Rule::plus());
/// assert_eq!(
///     parse_rule("cross").unwrap_err(),
///     "expected plus, neighbours, king or a mask like 010/111/010, got 'cross'"
/// );
/// # Ok::<(), String>(())
/// ```
pub fn parse_rule(s: &str) -> Result<Rule, String> {
    if let Some(rule) = Rule::named(s) {
        return Ok(rule);
    }
    // A word that is no rule's name and no mask: say which names there are
    // (the model's list, `NAMED_RULES`).
    if s.chars().any(|c| c.is_ascii_alphabetic()) {
        let names: Vec<&str> = crate::model::NAMED_RULES.iter().map(|named| named.name).collect();
        return Err(format!("expected {} or a mask like 010/111/010, got '{s}'", names.join(", ")));
    }
    Rule::from_mask(s)
}

/// Parses `512M`, `2G`, `1.5GiB`, `1000000` (bytes) into bytes.
///
/// # Example
/// ```
/// use lightsout::present::parse_bytes;
///
/// assert_eq!(parse_bytes("512M"), Ok(512 << 20));
/// assert_eq!(parse_bytes("1.5GiB"), Ok(3 << 29));
/// assert!(parse_bytes("lots").is_err());
/// ```
pub fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(format!("expected a size like 512M or 2G, got '{text}'")),
    };
    match number.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && v * (scale as f64) < u64::MAX as f64 => {
            Ok((v * scale as f64) as u64)
        }
        _ => Err(format!("expected a size like 512M or 2G, got '{text}'")),
    }
}

/// `A..B` (inclusive), `A..=B` or one number `N`, from 1 up.
///
/// # Example
/// ```
/// use lightsout::present::parse_range;
///
/// assert_eq!(parse_range("1..64"), Ok((1, 64)));
/// assert_eq!(parse_range("7"), Ok((7, 7)));
/// assert!(parse_range("0..3").is_err());
/// ```
pub fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected a size or a range like 1..100, got '{s}'");
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().trim_start_matches('=').parse().map_err(|_| bad())?;
    if a == 0 || a > b {
        return Err(format!("a range runs from 1 or more up, got '{s}'"));
    }
    Ok((a, b))
}

/// A duration in the unit that reads best: 42 s, 12 min, 3.4 hours,
/// 5.1 days, 2.3 years (the command line's estimates and interrupts).
#[cfg(feature = "cli")]
pub(crate) fn human(seconds: f64) -> String {
    const UNITS: [(f64, &str); 5] =
        [(365.25 * 86400.0, "years"), (86400.0, "days"), (3600.0, "hours"), (60.0, "min"), (1.0, "s")];
    for (size, name) in UNITS {
        if seconds >= 2.0 * size || size == 1.0 {
            let value = seconds / size;
            return if value >= 10.0 { format!("{value:.0} {name}") } else { format!("{value:.1} {name}") };
        }
    }
    String::new()
}

/// `1536` → `1.5 KiB`.
///
/// # Example
/// ```
/// use lightsout::present::format_bytes;
///
/// assert_eq!((format_bytes(1536), format_bytes(100)), ("1.5 KiB".into(), "100 B".into()));
/// ```
pub fn format_bytes(bytes: u64) -> String {
    let units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"];
    let mut value = bytes as f64;
    let mut unit = 0;
    while value >= 1024.0 && unit + 1 < units.len() {
        value /= 1024.0;
        unit += 1;
    }
    if unit == 0 { format!("{bytes} B") } else { format!("{value:.1} {}", units[unit]) }
}

/// A number of presses in words, `1 press` or `n presses`: what the text
/// output says (the POJ line and JSON give the bare number).
#[cfg(feature = "json")]
pub(crate) fn presses(n: u64) -> String {
    if n == 1 { "1 press".into() } else { format!("{n} presses") }
}

/// A number of members (of a kernel, given in decimal as K-state kernels
/// are), `1 member` or `n members`.
#[cfg(feature = "json")]
pub(crate) fn members(count: &str) -> String {
    if count == "1" { "1 member".into() } else { format!("{count} members") }
}
