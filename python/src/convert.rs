//! Python values to the library's types: puzzles, boards, targets, errors.
//!
//! Every conversion either gives a library value or a `ValueError` whose one
//! line names the bad input in the API's own words (`rule`, `states`,
//! `board`, `target`, `graph`), never a command-line flag.

use std::sync::Arc;

use lightsout::present::{TARGET_WORDS, colour_targets, parse_rule, topology};
use lightsout::zk::Modulus;
use lightsout::{Error, Graph, Grid, Puzzle, Rule, StateGrid, StateTarget, Target};
use numpy::{PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyList, PyString, PyTuple};

use crate::LimitError;

/// The library's error as the Python exception of its kind: a stated limit
/// (`Error::Memory`, `Error::Limit`) is a `LimitError`, a failed re-check
/// (`Error::Internal`) a `RuntimeError`, and everything else is input that
/// is wrong: a `ValueError`.
pub fn to_py(e: Error) -> PyErr {
    let message = e.to_string();
    match e {
        Error::Memory { .. } | Error::Limit(_) => LimitError::new_err(message),
        Error::Internal(_) => PyRuntimeError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// A `ValueError` with `message`.
pub fn bad(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// Everything about a puzzle but its size: the keyword arguments that every
/// function shares.
#[derive(Clone)]
pub struct Spec {
    pub rule: Rule,
    pub torus: bool,
    pub states: Modulus,
    pub graph: Option<Arc<Graph>>,
}

impl Spec {
    /// Reads `rule`, `torus`, `states` and `graph`.
    pub fn new(rule: &str, torus: bool, states: u32, graph: Option<&Bound<'_, PyAny>>) -> PyResult<Spec> {
        let rule = parse_rule(rule).map_err(|e| bad(format!("rule: {e}")))?;
        let states = Modulus::new(states).map_err(to_py)?;
        let graph = graph.map(parse_graph).transpose()?.map(Arc::new);
        if graph.is_some() && torus {
            return Err(bad("a graph has no edges to wrap: give torus=True only for a grid"));
        }
        Ok(Spec { rule, torus, states, graph })
    }

    /// Whether boards have two states (the bit-packed solver's game).
    pub fn two_states(&self) -> bool {
        self.states.get() == 2
    }

    /// The puzzle of a `rows × cols` board (on a graph, its one row of
    /// vertices: the size is the graph's).
    pub fn puzzle(&self, rows: usize, cols: usize) -> PyResult<Puzzle> {
        match &self.graph {
            Some(graph) => Puzzle::on_graph(Arc::clone(graph), self.rule.clone()).map_err(to_py),
            None => Ok(Puzzle::new(rows, cols)
                .map_err(to_py)?
                .with_topology(topology(self.torus))
                .with_rule(self.rule.clone())),
        }
    }
}

/// A graph: a name (`petersen`, `cycle:7`, …), a graph6 string or an edge
/// list as text, or a pair `(n, edges)` with the edges as pairs of vertices
/// `0..n`.
fn parse_graph(graph: &Bound<'_, PyAny>) -> PyResult<Graph> {
    if let Ok(text) = graph.cast::<PyString>() {
        let text = text.to_cow()?;
        let named = match Graph::named(text.trim()) {
            Ok(graph) => return Ok(graph),
            Err(e) => e,
        };
        // Not a name: graph6 or an edge list. A word that is neither says
        // both reasons, since either may have been meant.
        return Graph::parse(text.as_bytes(), "graph").map_err(|parsed| {
            let word = text.trim();
            if !word.is_empty()
                && word.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == ':')
            {
                bad(format!("graph '{word}': {named}; nor is it graph6 or an edge list ({parsed})"))
            } else {
                to_py(parsed)
            }
        });
    }
    let pair =
        graph.cast::<PyTuple>().ok().filter(|t| t.len() == 2).ok_or_else(|| {
            bad("graph is a name, a graph6 string, an edge list as text, or a pair (n, edges)")
        })?;
    let n: usize =
        pair.get_item(0)?.extract().map_err(|_| bad("graph: n in (n, edges) is a count of vertices"))?;
    let edges: Vec<(usize, usize)> = pair
        .get_item(1)?
        .extract()
        .map_err(|_| bad("graph: the edges in (n, edges) are pairs of vertex numbers (u, v)"))?;
    Graph::from_edges(n, edges).map_err(to_py)
}

/// A board as its cells, one state a byte, row by row.
pub struct Cells {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<u8>,
}

impl Cells {
    /// The two-state board (states 0 and 1, checked before).
    pub fn grid(&self) -> Grid {
        let cols = self.cols;
        Grid::from_fn(self.rows, self.cols, |r, c| self.cells[r * cols + c] == 1)
    }

    /// The K-state board.
    pub fn state_grid(self) -> StateGrid {
        StateGrid::from_fn(self.rows, self.cols, |r, c| self.cells[r * self.cols + c])
    }

    /// Refuses a state of K or more, naming the first one as the library
    /// names a bad state.
    fn check_states(&self, k: u8, what: &str) -> PyResult<()> {
        match self.cells.iter().position(|&s| s >= k) {
            None => Ok(()),
            Some(i) => Err(bad(format!(
                "the {what} has a state of {} at row {}, column {}, but the states are 0 to {}",
                self.cells[i],
                i / self.cols + 1,
                i % self.cols + 1,
                k - 1
            ))),
        }
    }
}

/// Reads a board: a list of strings (`"bwwb"`, or digits `"0120"`, or
/// numbers separated by spaces), one string with a line per row, nested
/// lists of integers, or a 1-D or 2-D numpy array of integers or booleans.
/// On a graph (`vertices` given) a board is one row of the n states: a
/// string, a flat list or a 1-D array (a 1 × n one is taken too).
///
/// `what` names the board in messages (`board`, `target board`, `board 7`).
pub fn read_board(
    value: &Bound<'_, PyAny>,
    k: Modulus,
    vertices: Option<usize>,
    what: &str,
) -> PyResult<Cells> {
    let cells = if let Ok(array) = value.cast::<PyUntypedArray>() {
        read_array(array, what)?
    } else if let Ok(text) = value.cast::<PyString>() {
        let text = text.to_cow()?;
        let lines: Vec<&str> = text.lines().map(str::trim).filter(|l| !l.is_empty()).collect();
        read_lines(&lines, k, what)?
    } else if let Ok(list) = value
        .cast::<PyList>()
        .map(|l| l.as_any().clone())
        .or_else(|_| value.cast::<PyTuple>().map(|t| t.as_any().clone()))
    {
        read_sequence(&list, k, what)?
    } else {
        return Err(bad(format!(
            "the {what} is a list of strings, nested lists of integers or a numpy array, not {}",
            value.get_type().name()?
        )));
    };
    cells.check_states(k.get(), what)?;
    if let Some(n) = vertices {
        let cells = if cells.rows != 1 && cells.cols == 1 {
            Cells { rows: 1, cols: cells.rows, ..cells }
        } else {
            cells
        };
        if cells.rows != 1 || cells.cols != n {
            return Err(bad(format!(
                "the {what} on a graph of {n} vertices is one row of {n} states, got {}x{}",
                cells.rows, cells.cols
            )));
        }
        return Ok(cells);
    }
    Ok(cells)
}

/// A list (or tuple) of strings or of rows of integers; a flat list of
/// integers is one row.
fn read_sequence(list: &Bound<'_, PyAny>, k: Modulus, what: &str) -> PyResult<Cells> {
    let len = list.len()?;
    if len == 0 {
        return Err(bad(format!("the {what} has no rows")));
    }
    let first = list.get_item(0)?;
    if first.is_instance_of::<PyString>() {
        let lines: Vec<String> = list
            .extract()
            .map_err(|_| bad(format!("the {what} mixes strings with other rows: give one string a row")))?;
        let lines: Vec<&str> = lines.iter().map(|l| l.trim()).collect();
        if let Some(i) = lines.iter().position(|l| l.is_empty()) {
            return Err(bad(format!("row {} of the {what} is empty", i + 1)));
        }
        return read_lines(&lines, k, what);
    }
    let rows: Vec<Vec<i64>> = match first.extract::<i64>() {
        Ok(_) => vec![list.extract().map_err(|_| bad(format!("the {what}'s cells are integers")))?],
        Err(_) => list.extract().map_err(|_| {
            bad(format!(
                "the {what} is a list of strings or of rows of integers (states 0 to {})",
                k.get() - 1
            ))
        })?,
    };
    let cols = rows[0].len();
    if cols == 0 {
        return Err(bad(format!("row 1 of the {what} is empty")));
    }
    let mut cells = Vec::with_capacity(rows.len() * cols);
    for (r, row) in rows.iter().enumerate() {
        if row.len() != cols {
            return Err(bad(format!(
                "row {} of the {what} has {} cells but row 1 has {cols}",
                r + 1,
                row.len()
            )));
        }
        for (c, &v) in row.iter().enumerate() {
            cells.push(state(v, k, r, c, what)?);
        }
    }
    Ok(Cells { rows: rows.len(), cols, cells })
}

/// One integer as a state `0..K`.
fn state(v: i64, k: Modulus, r: usize, c: usize, what: &str) -> PyResult<u8> {
    match u8::try_from(v) {
        Ok(s) if s < k.get() => Ok(s),
        _ => Err(bad(format!(
            "the {what} has a state of {v} at row {}, column {}, but the states are 0 to {}",
            r + 1,
            c + 1,
            k.get() - 1
        ))),
    }
}

/// Rows of text, read by the library's own board reader (for two states
/// `b`/`w` and the other characters it knows; digits for K ≤ 10; numbers
/// separated by spaces for any K).
fn read_lines(lines: &[&str], k: Modulus, what: &str) -> PyResult<Cells> {
    if lines.is_empty() {
        return Err(bad(format!("the {what} has no rows")));
    }
    let text = lines.join("\n");
    let boards = lightsout::parse_state_boards(text.as_bytes(), what, k.get(), Some(lines.len()), None)
        .map_err(to_py)?;
    match boards.into_iter().next() {
        Some(board) => Ok(Cells { rows: board.nrows(), cols: board.ncols(), cells: board.cells().to_vec() }),
        None => Err(bad(format!("the {what} has no rows"))),
    }
}

/// A numpy array of one or two dimensions (one is a single row), read
/// without a Python object per cell.
fn read_array(array: &Bound<'_, PyUntypedArray>, what: &str) -> PyResult<Cells> {
    let shape = array.shape().to_vec();
    let (rows, cols) = match shape[..] {
        [n] => (1, n),
        [r, c] => (r, c),
        _ => return Err(bad(format!("the {what} is a 1-D or 2-D array, got {} dimensions", shape.len()))),
    };
    if rows == 0 || cols == 0 {
        return Err(bad(format!("the {what} is an array of shape {shape:?}, with no cells")));
    }
    let cells = array_cells(array.as_any(), what)?;
    Ok(Cells { rows, cols, cells })
}

/// The cells of an integer or boolean array of any shape, in C order, as
/// states (a value outside 0..=255 is refused, naming its position).
pub fn array_cells(array: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<u8>> {
    if let Ok(a) = array.cast::<PyArrayDyn<u8>>() {
        let ro = a.readonly();
        // A C-ordered array is copied as it lies; any other (Fortran order,
        // a strided view) is read in logical order, row by row.
        return Ok(match ro.as_slice() {
            Ok(slice) if a.is_c_contiguous() => slice.to_vec(),
            _ => ro.as_array().iter().copied().collect(),
        });
    }
    if let Ok(a) = array.cast::<PyArrayDyn<bool>>() {
        return Ok(a.readonly().as_array().iter().map(|&b| u8::from(b)).collect());
    }
    macro_rules! wide {
        ($($t:ty),*) => {$(
            if let Ok(a) = array.cast::<PyArrayDyn<$t>>() {
                let ro = a.readonly();
                let view = ro.as_array();
                let cols = view.shape().last().copied().unwrap_or(1).max(1);
                return view
                    .iter()
                    .enumerate()
                    .map(|(i, &v)| {
                        u8::try_from(v).map_err(|_| {
                            bad(format!(
                                "the {what} has a state of {v} at row {}, column {}, but states are 0 to 255 at most",
                                i / cols + 1,
                                i % cols + 1
                            ))
                        })
                    })
                    .collect();
            }
        )*};
    }
    wide!(i8, i16, i32, i64, u16, u32, u64);
    let dtype = array.getattr("dtype")?.str()?.to_string();
    Err(bad(format!("the {what} is an array of integers or booleans, not of {dtype}")))
}

/// What a board should become, as the caller gave it.
pub enum Goal {
    Two(Vec<Target>),
    Many(Vec<StateTarget>),
}

/// Reads `target`: `"any"` (`"either"`: whichever reachable uniform board
/// takes the fewest presses), a colour word (`"white"` = state 0, `"black"`
/// = state 1; two states only), a state number, or a board of the same
/// shape as `board`.
pub fn read_target(target: &Bound<'_, PyAny>, spec: &Spec, vertices: Option<usize>) -> PyResult<Goal> {
    let k = spec.states;
    if let Ok(word) = target.cast::<PyString>() {
        let word = word.to_cow()?;
        let word: &str = &word;
        match (word, colour_targets(word), spec.two_states()) {
            ("any", _, true) => return Ok(Goal::Two(Target::EITHER.to_vec())),
            ("any" | "either", _, false) => return Ok(Goal::Many(StateTarget::any(k))),
            (_, Some(colours), true) => return Ok(Goal::Two(colours.to_vec())),
            (_, Some(_), false) => {
                return Err(bad(format!(
                    "target '{word}' names a colour of the two-state game; with {k} states give a state \
                     0 to {}, 'any' or a board",
                    k.get() - 1
                )));
            }
            // A string of one row or several is a board (on a graph, or
            // a one-line grid written as text).
            _ if word.chars().any(|c| !c.is_ascii_alphabetic())
                || word.chars().all(|c| "bBwW".contains(c)) => {}
            _ => {
                return Err(bad(format!(
                    "target: expected any, {TARGET_WORDS}, a state number or a board, got '{word}'"
                )));
            }
        }
    }
    if !target.is_instance_of::<pyo3::types::PyBool>()
        && let Ok(s) = target.extract::<i64>()
    {
        let s = u8::try_from(s)
            .ok()
            .filter(|&s| s < k.get())
            .ok_or_else(|| bad(format!("the target state is 0 to {}, got {s}", k.get() - 1)))?;
        return Ok(match (spec.two_states(), s) {
            (true, 0) => Goal::Two(vec![Target::White]),
            (true, _) => Goal::Two(vec![Target::Black]),
            (false, s) => Goal::Many(vec![StateTarget::Uniform(s)]),
        });
    }
    let board = read_board(target, k, vertices, "target board")?;
    Ok(match spec.two_states() {
        true => Goal::Two(vec![Target::Board(board.grid())]),
        false => Goal::Many(vec![StateTarget::Board(board.state_grid())]),
    })
}
