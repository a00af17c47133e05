//! The values flags take and their parsers: targets, graphs, image kinds,
//! formats, methods, densities, budgets and times.

use std::path::PathBuf;
use std::sync::Arc;

use clap::ValueEnum;

use crate::model::PbmKind;
use crate::present::{AnswerFormat, TARGET_WORDS, colour_targets, is_graph_name};
use crate::{Graph, Method, Target};

/// What `--target` names: colours, or a board file read once the boards'
/// shape is known.
#[derive(Clone, Debug)]
pub(super) enum TargetArg {
    /// A colour word of two states and the colours it names.
    Colours(String, &'static [Target]),
    /// Every uniform state, the fewest presses (for two states: either).
    Any,
    /// Every cell in this state.
    State(u32),
    File(PathBuf),
}

pub(super) fn parse_target(s: &str) -> Result<TargetArg, String> {
    if let Some(colours) = colour_targets(s) {
        return Ok(TargetArg::Colours(s.into(), colours));
    }
    if s == "any" {
        return Ok(TargetArg::Any);
    }
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        // A file named like a number is written ./2.
        return s.parse().map(TargetArg::State).map_err(|_| format!("state {s} is not below 256"));
    }
    if s.is_empty() {
        return Err(format!("expected any, {TARGET_WORDS}, a state number or a board file"));
    }
    Ok(TargetArg::File(PathBuf::from(s)))
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum PbmArg {
    /// P4: 8 pixels a byte.
    Raw,
    /// P1: ASCII 0 and 1.
    Plain,
}

/// The flavour of a PGM image (boards of more than two states).
#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum PgmArg {
    /// P5: a byte a cell.
    Raw,
    /// P2: ASCII numbers.
    Plain,
}

impl From<PbmArg> for PbmKind {
    fn from(p: PbmArg) -> PbmKind {
        match p {
            PbmArg::Raw => PbmKind::Raw,
            PbmArg::Plain => PbmKind::Plain,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum Format {
    /// The answer only: a number or `Impossible`.
    Poj,
    /// A few readable lines per board.
    Text,
    /// One JSON object per board, one per line.
    Json,
}

impl From<Format> for AnswerFormat {
    fn from(f: Format) -> AnswerFormat {
        match f {
            Format::Poj => AnswerFormat::Poj,
            Format::Text => AnswerFormat::Text,
            Format::Json => AnswerFormat::Json,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum GenerateArg {
    AllBlack,
    AllWhite,
    Random,
}

/// What `lightsout generate` makes: a board `--generate` makes, or a random
/// board that the puzzle (`--rule`, `--torus`, `--graph`) solves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum BoardKind {
    AllBlack,
    AllWhite,
    Random,
    /// A uniform random press set taken away from `--target`: a board the
    /// puzzle solves to it.
    RandomSolvable,
}

impl BoardKind {
    /// The same board as `--generate` makes it, if `--generate` makes it.
    pub(super) fn recipe_kind(self) -> Option<GenerateArg> {
        match self {
            BoardKind::AllBlack => Some(GenerateArg::AllBlack),
            BoardKind::AllWhite => Some(GenerateArg::AllWhite),
            BoardKind::Random => Some(GenerateArg::Random),
            BoardKind::RandomSolvable => None,
        }
    }
}

#[derive(Clone, Copy, Debug, ValueEnum)]
pub(super) enum MethodArg {
    Auto,
    Dense,
    Chase,
}

pub(super) fn parse_density(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("expected a number from 0 to 1, got '{s}'")),
    }
}

pub(super) fn parse_fraction(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if p > 0.0 && p <= 1.0 => Ok(p),
        _ => Err(format!("expected a share above 0 and at most 1, such as 0.01, got '{s}'")),
    }
}

pub(super) fn parse_max_nullity(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(d) if d <= crate::solve::MAX_EXHAUSTIVE_NULLITY => Ok(d),
        _ => Err(format!("expected a whole number from 0 to 128, got '{s}'")),
    }
}

impl From<MethodArg> for Method {
    fn from(m: MethodArg) -> Method {
        match m {
            MethodArg::Auto => Method::Auto,
            MethodArg::Dense => Method::Dense,
            MethodArg::Chase => Method::Chase,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum StudyFormat {
    Text,
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum TableFormat {
    Text,
    Csv,
    Json,
}

/// A duration as `600`, `90s`, `10m`, `1.5h` or `2d`, in seconds (above
/// 0, below 1e9).
pub(super) fn parse_duration(s: &str) -> Result<f64, String> {
    let text = s.trim();
    let split = text.find(|c: char| c.is_ascii_alphabetic()).unwrap_or(text.len());
    let (number, unit) = text.split_at(split);
    let scale = match unit {
        "" | "s" => Some(1.0),
        "m" | "min" => Some(60.0),
        "h" => Some(3600.0),
        "d" => Some(86400.0),
        _ => None,
    };
    match (number.trim().parse::<f64>(), scale) {
        (Ok(v), Some(scale)) if v.is_finite() && v > 0.0 && v * scale < 1e9 => Ok(v * scale),
        _ => {
            Err(format!("expected a time above 0 such as 600, 90s, 10m, 1.5h or 2d (below 1e9 s), got '{s}'"))
        }
    }
}

pub(super) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!("expected a number of seconds above 0 and below 1e9 (about 31 years), got '{s}'")),
    }
}

/// `--max-work`: a count of weighings, digits or a float such as `1e12`.
pub(super) fn parse_work(s: &str) -> Result<u64, String> {
    match s.parse::<f64>() {
        Ok(v) if (1.0..1.8e19).contains(&v) => Ok(v as u64),
        _ => Err(format!("expected a number of weighings from 1 to 1.8e19 (such as 1e12), got '{s}'")),
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum MergeFormat {
    Poj,
    Text,
    Json,
    Csv,
}

/// Largest graph file `--graph` reads (whatever `--max-memory` says).
const MAX_GRAPH_BYTES: u64 = 256 << 20;

/// `--graph FILE|NAME`: a built-in name (petersen, cycle:N, path:N,
/// complete:N, hypercube:D, cube) when it is one, else a file of graph6 or
/// an edge list (a file named like a built-in is written ./cube).
pub(super) fn parse_graph(s: &str) -> Result<Arc<Graph>, String> {
    if is_graph_name(s) {
        return Graph::named(s).map(Arc::new).map_err(|e| e.to_string());
    }
    let path = std::path::Path::new(s);
    let mut file = std::fs::File::open(path).map_err(|e| {
        format!("no built-in graph '{s}' (petersen, cycle:N, path:N, complete:N, hypercube:D, cube) and no readable file: {e}")
    })?;
    // A graph file is small next to what its boards' work needs, and is
    // read before --max-memory is known: a fixed cap, named as such.
    let limit = format!(
        "{}, the most a graph file may hold (graph6 of 45,000 vertices, an edge list of 20 million edges)",
        crate::present::format_bytes(MAX_GRAPH_BYTES)
    );
    let data = super::read_capped(&mut file, s, MAX_GRAPH_BYTES, &limit, "").map_err(|e| e.to_string())?;
    let graph = Graph::parse(&data, s).map_err(|e| e.to_string())?;
    if graph.vertex_count() == 0 {
        return Err(format!("{s}: a graph needs at least one vertex, this one has none"));
    }
    Ok(Arc::new(graph))
}

/// A `--rows` or `--cols` of `hardest`: one size, or a range `A..B` of
/// them (a table of Most Clicks; `9..9` is a table of one size).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Sizes {
    pub(super) first: usize,
    pub(super) last: usize,
    /// Written as a range.
    pub(super) range: bool,
}

/// `9` (one size, checked later as every size is) or `1..12` (as
/// `table`'s ranges).
pub(super) fn parse_sizes(s: &str) -> Result<Sizes, String> {
    if s.contains("..") {
        let (first, last) = crate::present::parse_range(s)?;
        return Ok(Sizes { first, last, range: true });
    }
    let n: usize = s.trim().parse().map_err(|e: std::num::ParseIntError| e.to_string())?;
    Ok(Sizes { first: n, last: n, range: false })
}
