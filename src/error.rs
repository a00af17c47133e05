//! The crate's one error type.

use std::fmt;

/// What went wrong, by kind, in neutral words: no command-line flag, no
/// hint and no exit code. The command line and the server say each kind in
/// their own terms (`--max-memory` and a hint; a JSON limit and a status).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// Text or an image that is not a board: `message` says where (line and
    /// column, or byte) and what is wrong.
    Parse { source: String, message: String },
    /// A board whose rows or columns (`side`) are not as many as `expected`:
    /// `found` cells on `line`, or `found` rows in the board starting at
    /// `first_line`. `given` says whether `expected` was given by the caller;
    /// if not, it is the width of the board's first line, or the side of
    /// the square that boards without blank lines between them are.
    Mismatch {
        source: String,
        side: Side,
        line: usize,
        first_line: usize,
        found: usize,
        expected: usize,
        given: bool,
    },
    /// Over 10 states, a row that is one run of digits (`123` on `line`):
    /// one number or as many cells. `width_given`: the caller gave the
    /// board's width, so making it one cell wide is no way out.
    AmbiguousRow { source: String, line: usize, text: String, states: u8, width_given: bool },
    /// A board side of `value` rows or columns, outside `1..=max`.
    BadSide { side: Side, value: usize, max: usize },
    /// A grid whose shape (rows, columns) is not the puzzle's.
    Shape { of: ShapeOf, found: (usize, usize), expected: (usize, usize) },
    /// The method or the route asked for cannot serve this puzzle (light
    /// chasing off the classic plane, say).
    Unsupported(String),
    /// `work` would need about `needed` bytes, more than the `limit` allowed.
    Memory { work: String, needed: u64, limit: u64 },
    /// The hardest boards' distribution would take `needed` steps (in
    /// words: "about 2.480e10"; `what` part of the count), past the work
    /// `budget`: a front may offer its own way round (a larger budget,
    /// slices, or no distribution).
    DistributionPastBudget { needed: String, what: String, budget: u64 },
    /// Another stated limit refused the work.
    Limit(String),
    /// The caller's own check of its input failed: the messages the command
    /// line and the server make of their arguments and requests.
    BadInput(String),
    /// A press set failed its re-check: a bug, never printed as an answer.
    Internal(String),
}

/// `1 row`, `2 rows`: a count with its noun.
pub(crate) fn plural(n: usize, noun: &str) -> String {
    if n == 1 { format!("1 {noun}") } else { format!("{n} {noun}s") }
}

/// A side of a board: its rows (the height) or its columns (the width).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    Rows,
    Cols,
}

impl Side {
    /// `"rows"` or `"columns"`.
    pub fn name(self) -> &'static str {
        match self {
            Side::Rows => "rows",
            Side::Cols => "columns",
        }
    }
}

/// Which grid has a shape that is not the puzzle's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ShapeOf {
    Board,
    Target,
    Presses,
}

impl ShapeOf {
    /// `"board"`, `"target board"` or `"press set"`.
    pub fn name(self) -> &'static str {
        match self {
            ShapeOf::Board => "board",
            ShapeOf::Target => "target board",
            ShapeOf::Presses => "press set",
        }
    }
}

impl Error {
    /// Whether a stated limit refused the work (memory or otherwise), as
    /// against input that is wrong or a bug.
    pub fn is_limit(&self) -> bool {
        matches!(self, Error::Memory { .. } | Error::Limit(_) | Error::DistributionPastBudget { .. })
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Parse { source, message } => write!(f, "{source}: {message}"),
            Error::Mismatch { source, side: Side::Cols, line, first_line, found, expected, given } => {
                let why = match given {
                    true => format!("{expected} columns were given"),
                    false => format!("line {first_line} has {expected}"),
                };
                write!(f, "{source}: line {line} has {} but {why}", plural(*found, "cell"))
            }
            Error::Mismatch { source, side: Side::Rows, first_line, found, expected, given, .. } => {
                let why = match given {
                    true => format!("{expected} rows were given"),
                    false => {
                        format!(
                            "boards without blank lines between them are square, {expected}x{expected} here"
                        )
                    }
                };
                write!(
                    f,
                    "{source}: the board starting at line {first_line} has {} but {why}",
                    plural(*found, "row")
                )
            }
            Error::AmbiguousRow { source, line, text, states, width_given } => {
                let or_tall = if *width_given { "" } else { ", or make the boards one cell wide" };
                write!(
                    f,
                    "{source}: line {line}: '{text}' is one number or {} cells: with {states} states write a \
                     row's states apart (like '{}'){or_tall}",
                    text.len(),
                    states_apart(text)
                )
            }
            Error::BadSide { side, value, max } => {
                write!(f, "a board of {value} {} is outside 1..={max}", side.name())
            }
            // The board is checked first: a target board is compared with it.
            Error::Shape { of, found: (r, c), expected: (er, ec) } => {
                let against = if *of == ShapeOf::Target { "board" } else { "puzzle" };
                write!(f, "the {} is {r}x{c} but the {against} is {er}x{ec}", of.name())
            }
            Error::Memory { work, needed, limit } => {
                write!(f, "{work} needs about {needed} bytes, more than the limit of {limit}")
            }
            Error::DistributionPastBudget { needed, what, budget } => {
                let budget = *budget as f64;
                write!(f, "the distribution needs {needed} steps{what}, past the work budget of {budget:.3e}")
            }
            Error::Unsupported(m) | Error::Limit(m) | Error::BadInput(m) => f.write_str(m),
            Error::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for Error {}

/// A run of digits written apart, a state each: `123` as `1 2 3`.
pub(crate) fn states_apart(digits: &str) -> String {
    digits.chars().map(String::from).collect::<Vec<_>>().join(" ")
}
