//! Python values to the library's types: puzzles, boards, targets, errors.
//!
//! Every conversion either gives a library value or a `ValueError` whose one
//! line names the bad input in the API's own words (`rule`, `states`,
//! `board`, `target`, `graph`), never a command-line flag.

use std::sync::{Arc, Mutex, OnceLock};

use lightsout::model::{MAX_EDGES, MAX_VERTICES};
use lightsout::present::{TARGET_WORDS, colour_targets, parse_rule, topology};
use lightsout::solve::AskedTarget;
use lightsout::zk::Modulus;
use lightsout::{Error, Graph, Puzzle, Rule, Target};
use numpy::{PyArray1, PyArrayDyn, PyArrayMethods, PyUntypedArray, PyUntypedArrayMethods};
use pyo3::exceptions::{PyOverflowError, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString, PyTuple};

use crate::LimitError;

/// The library's error as the Python exception of its kind: a stated limit
/// (`Error::Memory`, `Error::Limit`) is a `LimitError`, a failed re-check
/// (`Error::Internal`) a `RuntimeError`, and everything else is input that
/// is wrong: a `ValueError`.
pub fn to_py(e: Error) -> PyErr {
    let message = e.to_string();
    match e {
        e if e.is_limit() => LimitError::new_err(message),
        Error::Internal(_) => PyRuntimeError::new_err(message),
        _ => PyValueError::new_err(message),
    }
}

/// A `ValueError` with `message`.
pub fn bad(message: impl Into<String>) -> PyErr {
    PyValueError::new_err(message.into())
}

/// A count the library gives in decimal (it may pass 2^64) as an exact
/// Python `int`.
pub fn exact_int<'py>(py: Python<'py>, decimal: &str) -> PyResult<Bound<'py, PyAny>> {
    py.import("builtins")?.getattr("int")?.call1((decimal,))
}

/// Everything about a puzzle but its size: the keyword arguments that every
/// function shares.
pub struct Spec {
    pub states: Modulus,
    pub graph: Option<Arc<Graph>>,
    /// A networkx graph's vertices, in the order of its `nodes()`.
    pub labels: Option<Py<PyList>>,
    /// The rule, topology, states and graph, shared by every result's
    /// [`Layout`] (a batch's answers hold one between them).
    setting: Arc<Setting>,
}

impl Spec {
    /// Reads `rule`, `torus`, `states` and `graph`.
    pub fn new(rule: &str, torus: bool, states: &Int, graph: Option<&Bound<'_, PyAny>>) -> PyResult<Spec> {
        let rule = parse_rule(rule).map_err(|e| bad(format!("rule: {e}")))?;
        let states = states_of(states)?;
        let (graph, labels) = match graph.map(parse_graph).transpose()? {
            Some((graph, labels)) => (Some(Arc::new(graph)), labels),
            None => (None, None),
        };
        if graph.is_some() && torus {
            return Err(bad("a graph has no edges to wrap: give torus=True only for a grid"));
        }
        let setting = Arc::new(Setting::new(rule, torus, states, graph.clone()));
        Ok(Spec { states, graph, labels, setting })
    }

    /// The number of vertices, on a graph.
    pub fn vertices(&self) -> Option<usize> {
        self.graph.as_ref().map(|g| g.vertex_count())
    }

    /// The puzzle of a `rows × cols` board (on a graph, its one row of
    /// vertices: the size is the graph's).
    pub fn puzzle(&self, rows: usize, cols: usize) -> PyResult<Puzzle> {
        self.setting.puzzle(rows, cols)
    }

    /// How the results of a `rows × cols` board are laid out.
    pub fn layout(&self, py: Python<'_>, rows: usize, cols: usize) -> Layout {
        Layout {
            rows,
            cols,
            setting: Arc::clone(&self.setting),
            labels: self.labels.as_ref().map(|l| l.clone_ref(py)),
        }
    }
}

/// The number of states, as the library words a bad one.
fn states_of(states: &Int) -> PyResult<Modulus> {
    match states.value().and_then(|k| u32::try_from(k).ok()) {
        Some(k) => Modulus::new(k).map_err(to_py),
        None => Err(bad(format!("the number of states is 2 to 255, got {}", states.shown()))),
    }
}

/// A Python `int` argument of any size: checked against its range where
/// its name is known (extracted straight to `usize`, -1 would raise an
/// `OverflowError` that names nothing). Not an integer is a `TypeError`.
pub struct Int(Result<i128, String>);

impl Int {
    /// `value` as an argument's default.
    pub const fn new(value: i128) -> Int {
        Int(Ok(value))
    }

    /// The value, when it fits in an `i128`.
    pub fn value(&self) -> Option<i128> {
        self.0.as_ref().ok().copied()
    }

    /// The value as Python prints it.
    pub fn shown(&self) -> String {
        match &self.0 {
            Ok(v) => v.to_string(),
            Err(digits) => digits.clone(),
        }
    }

    /// The value as a `T` within `lo..=hi`, else a `ValueError` of
    /// `message(shown value)`.
    pub fn within<T>(&self, lo: T, hi: T, message: impl FnOnce(String) -> String) -> PyResult<T>
    where
        T: TryFrom<i128> + PartialOrd,
    {
        match self.value().and_then(|v| T::try_from(v).ok()) {
            Some(v) if lo <= v && v <= hi => Ok(v),
            _ => Err(bad(message(self.shown()))),
        }
    }
}

impl<'a, 'py> FromPyObject<'a, 'py> for Int {
    type Error = PyErr;

    fn extract(value: Borrowed<'a, 'py, PyAny>) -> PyResult<Int> {
        match value.extract::<i128>() {
            Ok(v) => Ok(Int(Ok(v))),
            Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => {
                Ok(Int(Err(value.str()?.to_string())))
            }
            Err(e) => Err(e),
        }
    }
}

/// The puzzle a result belongs to, past its size: what a picture of it
/// draws (a graph as a graph) and titles (the rule, the topology), and
/// whether it draws at all (two states only, as the command line).
#[derive(Debug)]
pub struct Setting {
    pub rule: Rule,
    pub torus: bool,
    pub states: Modulus,
    pub graph: Option<Arc<Graph>>,
    /// Its pickled state, made once: the answers of a batch share one
    /// Python object, which pickle writes once (a graph's edges are not
    /// repeated in every answer).
    pickled: OnceLock<Py<PyTuple>>,
}

impl PartialEq for Setting {
    fn eq(&self, other: &Setting) -> bool {
        (&self.rule, self.torus, self.states, &self.graph)
            == (&other.rule, other.torus, other.states, &other.graph)
    }
}

/// A graph as a pickle holds it: its vertex count and edges.
type GraphState = (usize, Vec<(usize, usize)>);

impl Setting {
    fn new(rule: Rule, torus: bool, states: Modulus, graph: Option<Arc<Graph>>) -> Setting {
        Setting { rule, torus, states, graph, pickled: OnceLock::new() }
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

    /// The setting as a pickle holds it: `(rule, torus, states, graph)`,
    /// the graph as its vertex count and edges.
    fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        if let Some(state) = self.pickled.get() {
            return Ok(state.bind(py).clone());
        }
        let graph = self.graph.as_ref().map(|g| (g.vertex_count(), g.edges().collect::<Vec<_>>()));
        let state =
            (self.rule.to_string(), self.torus, u32::from(self.states.get()), graph).into_pyobject(py)?;
        // Two threads may both make one: either serves.
        let _ = self.pickled.set(state.clone().unbind());
        Ok(state)
    }

    /// The setting of a pickle's [`state`](Self::state), shared with the
    /// answer read before when it names the same state object (pickle
    /// wrote a batch's once, and gives each answer that one object).
    fn shared(state: &Bound<'_, PyAny>) -> PyResult<Arc<Setting>> {
        /// The setting read last, with the state object it was read from.
        static LAST: Mutex<Option<(Py<PyAny>, Arc<Setting>)>> = Mutex::new(None);
        if let Ok(last) = LAST.lock()
            && let Some((seen, setting)) = last.as_ref()
            && seen.bind(state.py()).is(state)
        {
            return Ok(Arc::clone(setting));
        }
        let setting = Arc::new(Setting::from_state(state)?);
        if let Ok(mut last) = LAST.lock() {
            *last = Some((state.clone().unbind(), Arc::clone(&setting)));
        }
        Ok(setting)
    }

    /// The setting of a pickle's [`state`](Self::state), which it keeps to
    /// be pickled again.
    fn from_state(state: &Bound<'_, PyAny>) -> PyResult<Setting> {
        let (rule, torus, states, graph): (String, bool, u32, Option<GraphState>) = state.extract()?;
        let rule = parse_rule(&rule).map_err(|e| bad(format!("not a pickled lightsout rule: {e}")))?;
        let states = Modulus::new(states).map_err(to_py)?;
        let graph =
            graph.map(|(n, edges)| Graph::from_edges(n, edges).map(Arc::new)).transpose().map_err(to_py)?;
        let setting = Setting::new(rule, torus, states, graph);
        if let Ok(tuple) = state.cast::<PyTuple>() {
            let _ = setting.pickled.set(tuple.clone().unbind());
        }
        Ok(setting)
    }
}

/// How a result's cells are laid out for Python: a grid's rows × cols, or
/// on a graph one vector over the vertices (their networkx labels kept);
/// and the puzzle they belong to, for its pictures.
pub struct Layout {
    pub rows: usize,
    pub cols: usize,
    pub setting: Arc<Setting>,
    pub labels: Option<Py<PyList>>,
}

impl Layout {
    /// Whether the cells are a graph's vertices.
    fn on_graph(&self) -> bool {
        self.setting.graph.is_some()
    }

    /// One pattern's cells as a numpy array: rows × cols, or over the
    /// vertices on a graph.
    pub fn array<'py>(&self, py: Python<'py>, cells: &[u8]) -> PyResult<Bound<'py, PyAny>> {
        let flat = PyArray1::from_slice(py, cells);
        Ok(if self.on_graph() { flat.into_any() } else { flat.reshape([self.rows, self.cols])?.into_any() })
    }

    /// `count` patterns' cells, one after the other, as a stack of arrays.
    pub fn stack<'py>(&self, py: Python<'py>, cells: Vec<u8>, count: usize) -> PyResult<Bound<'py, PyAny>> {
        let flat = PyArray1::from_vec(py, cells);
        Ok(if self.on_graph() {
            flat.reshape([count, self.cols])?.into_any()
        } else {
            flat.reshape([count, self.rows, self.cols])?.into_any()
        })
    }

    /// The vertices on a graph (its labels, or 0..n), else `None`.
    pub fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        if !self.on_graph() {
            return Ok(None);
        }
        match &self.labels {
            Some(labels) => Ok(Some(PyList::new(py, labels.bind(py).iter())?)),
            None => Ok(Some(PyList::new(py, 0..self.cols)?)),
        }
    }

    /// Whether two layouts are the same (labels compared as Python does).
    pub fn same(&self, py: Python<'_>, other: &Layout) -> PyResult<bool> {
        if (self.rows, self.cols) != (other.rows, other.cols) || self.setting != other.setting {
            return Ok(false);
        }
        match (&self.labels, &other.labels) {
            (None, None) => Ok(true),
            (Some(a), Some(b)) => a.bind(py).eq(b.bind(py)),
            _ => Ok(false),
        }
    }

    /// The layout as a pickle holds it: `(rows, cols, setting, labels)`.
    pub fn state<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let labels = self.labels.as_ref().map(|l| l.clone_ref(py));
        (self.rows, self.cols, self.setting.state(py)?, labels).into_pyobject(py)
    }

    /// The layout of a pickle's [`state`](Self::state).
    pub fn from_state(state: &Bound<'_, PyAny>) -> PyResult<Layout> {
        let (rows, cols, setting, labels): (usize, usize, Bound<'_, PyAny>, Option<Py<PyList>>) =
            state.extract()?;
        Ok(Layout { rows, cols, setting: Setting::shared(&setting)?, labels })
    }
}

/// A graph: a name (`petersen`, `cycle:7`, …), a graph6 string or an edge
/// list as text, a pair `(n, edges)` with the edges as pairs of vertices
/// `0..n`, or an undirected networkx graph (anything with `nodes()` and
/// `edges()`), whose vertices, in `nodes()` order, are kept as labels.
fn parse_graph(graph: &Bound<'_, PyAny>) -> PyResult<(Graph, Option<Py<PyList>>)> {
    if let Ok(text) = graph.cast::<PyString>() {
        let text = text.to_cow()?;
        let named = match Graph::named(text.trim()) {
            Ok(graph) => return Ok((graph, None)),
            Err(e) => e,
        };
        // Not a name: graph6 or an edge list. A word that is neither says
        // both reasons, since either may have been meant.
        return Graph::parse(text.as_bytes(), "graph").map(|g| (g, None)).map_err(|parsed| {
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
    if graph.hasattr("nodes")? && graph.hasattr("edges")? {
        return networkx_graph(graph);
    }
    let pair = graph.cast::<PyTuple>().ok().filter(|t| t.len() == 2).ok_or_else(|| {
        bad("graph is a name, a graph6 string, an edge list as text, a pair (n, edges) or a networkx graph")
    })?;
    let n: usize =
        pair.get_item(0)?.extract().map_err(|_| bad("graph: n in (n, edges) is a count of vertices"))?;
    if n > MAX_VERTICES {
        return Err(bad(format!("graph: {n} vertices is more than the limit of {MAX_VERTICES}")));
    }
    let not_pairs = || bad("graph: the edges in (n, edges) are pairs of vertex numbers (u, v)");
    // Counted as they are read: a huge iterable is refused at the limit,
    // not collected whole (as the text edge list, repeats allowed).
    let mut edges = Vec::new();
    for edge in pair.get_item(1)?.try_iter().map_err(|_| not_pairs())? {
        let (u, v): (u32, u32) = edge?.extract().map_err(|_| not_pairs())?;
        if edges.len() == 2 * MAX_EDGES {
            return Err(bad(format!("graph: more than {} edges in (n, edges)", 2 * MAX_EDGES)));
        }
        edges.push((u, v));
    }
    let edges = edges.into_iter().map(|(u, v)| (u as usize, v as usize));
    Graph::from_edges(n, edges).map(|g| (g, None)).map_err(to_py)
}

/// A networkx graph (duck-typed: `nodes()`, `edges()`, and `is_directed()`
/// where it has one): vertex `i` is the `i`-th of `nodes()`.
fn networkx_graph(graph: &Bound<'_, PyAny>) -> PyResult<(Graph, Option<Py<PyList>>)> {
    if graph.hasattr("is_directed")? && graph.call_method0("is_directed")?.is_truthy()? {
        return Err(bad(
            "graph: a directed graph has no Lights Out game here; give an undirected one (G.to_undirected())",
        ));
    }
    // Vertices and edges are counted as they are read: a graph-like object
    // with 10^9 nodes() is refused at the limit, not collected whole.
    let mut nodes = Vec::new();
    for node in graph.call_method0("nodes")?.try_iter()? {
        if nodes.len() == MAX_VERTICES {
            return Err(bad(format!("graph: more than {MAX_VERTICES} nodes(), the limit of vertices")));
        }
        nodes.push(node?);
    }
    let labels = PyList::new(graph.py(), nodes)?;
    let index = PyDict::new(graph.py());
    for (i, label) in labels.iter().enumerate() {
        index.set_item(label, i)?;
    }
    let mut edges = Vec::new();
    for edge in graph.call_method0("edges")?.try_iter()? {
        let (u, v): (Bound<'_, PyAny>, Bound<'_, PyAny>) =
            edge?.extract().map_err(|_| bad("graph: its edges() are not pairs of vertices"))?;
        let at = |x: &Bound<'_, PyAny>| -> PyResult<usize> {
            index
                .get_item(x)?
                .ok_or_else(|| {
                    bad(format!(
                        "graph: an edge names {}, which is not among its nodes()",
                        x.repr().map_or_else(|_| "a vertex".into(), |r| r.to_string())
                    ))
                })?
                .extract()
        };
        if edges.len() == MAX_EDGES {
            return Err(bad(format!("graph: more than {MAX_EDGES} edges(), the limit of edges")));
        }
        edges.push((at(&u)?, at(&v)?));
    }
    let graph = Graph::from_edges(labels.len(), edges).map_err(to_py)?;
    Ok((graph, Some(labels.unbind())))
}

/// A board as its cells, one state a byte, row by row.
pub struct Cells {
    pub rows: usize,
    pub cols: usize,
    pub cells: Vec<u8>,
}

impl Cells {
    /// The board of a game of this kind with these cells (states checked
    /// below K before).
    pub fn board<B: lightsout::solve::Board>(&self) -> B {
        B::from_cell_values(self.rows, self.cols, &self.cells)
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
pub fn read_board(value: &Bound<'_, PyAny>, spec: &Spec, what: &str) -> PyResult<Cells> {
    let (k, vertices) = (spec.states, spec.vertices());
    if let (Ok(map), Some(n)) = (value.cast::<PyDict>(), vertices) {
        return read_vertex_map(map, spec, n, what);
    }
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

/// A board on a graph as a dict from each vertex (its networkx label, or
/// its number) to its state.
fn read_vertex_map(map: &Bound<'_, PyDict>, spec: &Spec, n: usize, what: &str) -> PyResult<Cells> {
    let py = map.py();
    let labels: Vec<Bound<'_, PyAny>> = match &spec.labels {
        Some(labels) => labels.bind(py).iter().collect(),
        None => (0..n).map(|v| pyo3::types::PyInt::new(py, v).into_any()).collect(),
    };
    let shown = |v: &Bound<'_, PyAny>| v.repr().map_or_else(|_| "a vertex".to_string(), |r| r.to_string());
    let mut cells = Vec::with_capacity(n);
    for label in &labels {
        let value = map
            .get_item(label)?
            .ok_or_else(|| bad(format!("the {what} gives no state for vertex {}", shown(label))))?;
        let v: i64 = value.extract().map_err(|_| bad(format!("the {what}'s states are integers")))?;
        let k = spec.states.get();
        match u8::try_from(v) {
            Ok(s) if s < k => cells.push(s),
            _ => {
                return Err(bad(format!(
                    "the {what} has a state of {v} at vertex {}, but the states are 0 to {}",
                    shown(label),
                    k - 1
                )));
            }
        }
    }
    if map.len() != n {
        let index = PyDict::new(py);
        for label in &labels {
            index.set_item(label, true)?;
        }
        for key in map.keys() {
            if !index.contains(&key)? {
                return Err(bad(format!(
                    "the {what} names {}, which is not a vertex of the graph",
                    shown(&key)
                )));
            }
        }
    }
    Ok(Cells { rows: 1, cols: n, cells })
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

/// What a board should become, as the caller gave it, in neither game's
/// terms yet: [`Goal::asked`] is the library's [`AskedTarget`], which
/// [`Made::targets_of`](lightsout::solve::Made::targets_of) makes the
/// game's targets.
pub enum Goal {
    /// `"any"`: the uniform board that takes the fewest presses.
    Any,
    /// A colour word of the two-state game, and the targets it names.
    Colour(String, &'static [Target]),
    /// A uniform state, below K.
    State(u8),
    /// A board of the same shape.
    Board(Cells),
}

impl Goal {
    /// The target as the library reads it.
    pub fn asked(&self) -> AskedTarget<'_> {
        match self {
            Goal::Any => AskedTarget::Any,
            Goal::Colour(word, targets) => AskedTarget::Colour { word, targets },
            Goal::State(state) => AskedTarget::State(*state),
            Goal::Board(cells) => {
                AskedTarget::Board { rows: cells.rows, cols: cells.cols, cells: &cells.cells }
            }
        }
    }
}

/// Reads `target`: `"any"` (whichever reachable uniform board takes the
/// fewest presses), a colour word (`"white"` = state 0, `"black"` = state
/// 1, `"either"` = any; two states only), a state number, or a board of the
/// same shape as `board`.
pub fn read_target(target: &Bound<'_, PyAny>, spec: &Spec) -> PyResult<Goal> {
    let k = spec.states;
    if let Ok(word) = target.cast::<PyString>() {
        let word = word.to_cow()?;
        let word: &str = &word;
        match (word, colour_targets(word)) {
            // `either` is a colour word, as on the other fronts: two states only.
            ("any", _) => return Ok(Goal::Any),
            (_, Some(targets)) => return Ok(Goal::Colour(word.to_string(), targets)),
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
        && let Ok(s) = target.extract::<Int>()
    {
        let top = k.get() - 1;
        return Ok(Goal::State(s.within(0, top, |s| format!("the target state is 0 to {top}, got {s}"))?));
    }
    Ok(Goal::Board(read_board(target, spec, "target board")?))
}
