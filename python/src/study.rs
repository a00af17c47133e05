//! `analyze` and `nullity_table`: the puzzle itself, not one board.

use lightsout::Puzzle;
use lightsout::model::MAX_SIDE;
use lightsout::picture::Scene;
use lightsout::solve::Limits;
use lightsout::zk::Modulus;
use numpy::{PyArray1, PyArray2, PyArrayMethods};
use pyo3::exceptions::PyOverflowError;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyList, PyTuple, PyType};

use crate::convert::{Int, Layout, Spec, bad, exact_int, to_py};
use crate::game::{KernelSize, Play, PyGame, Study, Table, with_game};
use crate::picture::{self, Format};
use crate::solve::{DEFAULT_MEMORY, memory};
use crate::stop::run_interruptible;

/// What is known about one puzzle size and rule.
///
/// ``kernel_size`` is the number of quiet patterns (press sets that change
/// nothing: every solvable board has that many solutions), ``rank`` and
/// ``nullity`` those of the press matrix (``None`` for a composite number of
/// states, as the command line's JSON), ``quiet_patterns`` a basis (numpy
/// ``uint8``, d × rows × cols; for K states generators of orders
/// ``quiet_orders``; ``None`` when too many to hold), ``gcd`` the polynomial
/// ``gcd(f_R(x), f_C(x+1))`` of the classic plane (else ``None``), and
/// ``lightest_quiet_pattern`` the quiet pattern with the fewest presses
/// (``lightest_proven`` says whether it is proven lightest). On a graph the
/// patterns are vectors over the vertices (d × n), in the order of
/// ``vertices``. Analyses compare equal when all of that is, and pickle.
/// In a notebook an analysis shows its quiet patterns as a picture
/// (``_repr_svg_``, ``_repr_png_``), a panel each.
///
/// >>> a = lightsout.analyze(5, 5)
/// >>> a.rank, a.nullity, a.kernel_size, a.gcd
/// (23, 2, 4, 'x^2 + x')
/// >>> a.quiet_patterns.shape, int(a.lightest_quiet_pattern.sum())
/// ((2, 5, 5), 12)
#[pyclass(frozen, module = "lightsout")]
pub struct Analysis {
    study: Study,
    layout: Layout,
}

#[pymethods]
impl Analysis {
    /// The number of quiet patterns, as an exact ``int``.
    #[getter]
    fn kernel_size<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.study.kernel {
            KernelSize::PowerOfTwo(d) => 1u8.into_pyobject(py)?.call_method1("__lshift__", (*d,)),
            KernelSize::Decimal(s) => exact_int(py, s),
        }
    }

    /// Rank of the press matrix (``None`` for a composite K).
    #[getter]
    fn rank(&self) -> Option<usize> {
        self.study.rank
    }

    /// Dimension of the quiet patterns (``None`` for a composite K).
    #[getter]
    fn nullity(&self) -> Option<usize> {
        self.study.nullity
    }

    /// A basis (generators, for K states) of the quiet patterns:
    /// ``uint8``, d × rows × cols (d × n on a graph); ``None`` when they do
    /// not fit in memory.
    #[getter]
    fn quiet_patterns<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(quiet) = &self.study.quiet else {
            return Ok(None);
        };
        let flat: Vec<u8> = quiet.iter().flatten().copied().collect();
        Ok(Some(self.layout.stack(py, flat, quiet.len())?))
    }

    /// The order of each quiet pattern of the basis (2 for two states).
    #[getter]
    fn quiet_orders<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.study.orders)
    }

    /// ``gcd(f_R(x), f_C(x+1))`` over GF(2) for the classic plane, else ``None``.
    #[getter]
    fn gcd(&self) -> Option<String> {
        self.study.gcd.as_ref().map(|g| g.0.clone())
    }

    /// The gcd's irreducible factors with their multiplicities.
    #[getter]
    fn gcd_factors(&self) -> Option<Vec<(String, usize)>> {
        self.study.gcd.as_ref().map(|g| g.1.clone())
    }

    /// The non-zero quiet pattern with the fewest presses (``None`` when
    /// there is none, or it was not looked for).
    #[getter]
    fn lightest_quiet_pattern<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some((cells, _)) = &self.study.lightest else {
            return Ok(None);
        };
        Ok(Some(self.layout.array(py, cells)?))
    }

    /// Whether ``lightest_quiet_pattern`` is proven lightest.
    #[getter]
    fn lightest_proven(&self) -> Option<bool> {
        self.study.lightest.as_ref().map(|l| l.1)
    }

    /// Two states: whether every board that can be made white can be made
    /// black too (``None`` for K states).
    #[getter]
    fn targets_interchangeable(&self) -> Option<bool> {
        self.study.targets_interchangeable
    }

    /// On a graph, its vertices in the order of the patterns (a networkx
    /// graph's own labels, else 0 to n − 1); ``None`` on a grid.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.layout.vertices(py)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, Self>) -> PyResult<bool> {
        let other = other.get();
        Ok(self.study == other.study && self.layout.same(py, &other.layout)?)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyTuple>,))> {
        let (py, s) = (slf.py(), &slf.get().study);
        let kernel = match &s.kernel {
            KernelSize::PowerOfTwo(d) => (Some(*d), None),
            KernelSize::Decimal(size) => (None, Some(size.clone())),
        };
        let state = (
            slf.get().layout.state(py)?,
            (s.rows, s.cols, s.rank, s.nullity, kernel, s.quiet.clone(), s.orders.clone()),
            (s.gcd.clone(), s.lightest.clone(), s.targets_interchangeable),
        )
            .into_pyobject(py)?;
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// The analysis a pickle holds (`__reduce__`'s state).
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: &Bound<'_, PyAny>) -> PyResult<Analysis> {
        type Kernel = (Option<usize>, Option<String>);
        type Sizes = (usize, usize, Option<usize>, Option<usize>, Kernel, Option<Vec<Vec<u8>>>, Vec<u32>);
        type Found = (Option<(String, Vec<(String, usize)>)>, Option<(Vec<u8>, bool)>, Option<bool>);
        let (layout, sizes, found): (Bound<'_, PyAny>, Sizes, Found) = state.extract()?;
        let (rows, cols, rank, nullity, kernel, quiet, orders) = sizes;
        let kernel = match kernel {
            (Some(d), _) => KernelSize::PowerOfTwo(d),
            (None, Some(size)) => KernelSize::Decimal(size),
            (None, None) => return Err(bad("not a pickled lightsout analysis")),
        };
        let (gcd, lightest, targets_interchangeable) = found;
        let study = Study {
            rows,
            cols,
            rank,
            nullity,
            kernel,
            quiet,
            orders,
            gcd,
            lightest,
            targets_interchangeable,
        };
        Ok(Analysis { study, layout: Layout::from_state(&layout)? })
    }

    /// The quiet patterns as an SVG picture, a panel each, for a notebook
    /// (as ``lightsout analyze --svg`` draws them; on a graph, drawings of
    /// the graph): ``None`` for K > 2 states, when the patterns were not
    /// held, past the picture's graph limits, or past 16,384 shapes in all
    /// (cells, vertices and edges), where the notebook shows the PNG or
    /// the ``repr``.
    fn _repr_svg_(&self) -> Option<String> {
        picture::svg(self.scene(Format::Svg))
    }

    /// The same picture as PNG bytes: ``None`` for K > 2 states, past the
    /// graph limits or past 2**20 shapes (a 1024×1024 board).
    fn _repr_png_<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        picture::png(py, self.scene(Format::Png))
    }

    fn __repr__(&self) -> String {
        let kernel = match &self.study.kernel {
            KernelSize::PowerOfTwo(d) => format!("2**{d}"),
            KernelSize::Decimal(s) => s.clone(),
        };
        let show = |v: Option<usize>| v.map_or("None".to_string(), |v| v.to_string());
        format!(
            "Analysis({}x{}, rank={}, nullity={}, kernel_size={kernel})",
            self.study.rows,
            self.study.cols,
            show(self.study.rank),
            show(self.study.nullity)
        )
    }
}

impl Analysis {
    /// The picture of the quiet patterns, where one is drawn.
    fn scene(&self, format: Format) -> Option<Scene> {
        let (quiet, nullity) = (self.study.quiet.as_ref()?, self.study.nullity?);
        picture::quiet_patterns(&self.layout, quiet, nullity, format)
    }
}

/// The puzzle of `rows × cols` (or of the graph) for a study.
pub fn study_puzzle(spec: &Spec, rows: Option<Int>, cols: Option<Int>) -> PyResult<Puzzle> {
    let side = |value: &Int, name: &str| {
        value.within(1, MAX_SIDE, |v| format!("a board of {v} {name} is outside 1..={MAX_SIDE}"))
    };
    match (&spec.graph, rows, cols) {
        (Some(_), None, None) => spec.puzzle(1, 1),
        (Some(_), _, _) => Err(bad("give either rows and cols or graph, not both")),
        (None, Some(r), Some(c)) => spec.puzzle(side(&r, "rows")?, side(&c, "columns")?),
        (None, _, _) => Err(bad("give rows and cols (or graph)")),
    }
}

/// Analyses one size (or graph) and rule: rank, nullity, the quiet
/// patterns, the gcd polynomial, the lightest quiet pattern (searched
/// exhaustively up to nullity ``max_nullity``, by default 28 for two
/// states and 2^24 members for K states, as ``lightsout analyze``: a
/// moment; a local search beyond, ``lightest_proven`` false). Releases the
/// GIL; Ctrl-C returns at once (the work runs on to its end in the
/// background).
///
/// >>> a = lightsout.analyze(4, 4, states=4)
/// >>> a.kernel_size, a.nullity, sorted(a.quiet_orders)
/// (64, None, [2, 2, 4, 4])
/// >>> lightsout.analyze(graph="petersen").nullity
/// 5
#[pyfunction]
#[pyo3(signature = (rows = None, cols = None, *, torus = false, rule = "plus", states = Int::new(2),
    graph = None, max_nullity = None, max_memory = Int::new(DEFAULT_MEMORY as i128)))]
#[pyo3(text_signature = "(rows=None, cols=None, *, torus=False, rule='plus', states=2, graph=None, \
    max_nullity=None, max_memory=1073741824)")]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    rows: Option<Int>,
    cols: Option<Int>,
    torus: bool,
    rule: &str,
    states: Int,
    graph: Option<&Bound<'_, PyAny>>,
    max_nullity: Option<Int>,
    max_memory: Int,
) -> PyResult<Analysis> {
    let spec = Spec::new(rule, torus, &states, graph)?;
    let puzzle = study_puzzle(&spec, rows, cols)?;
    let max_memory = memory(&max_memory)?;
    let k = spec.states;
    let max_nullity = max_nullity
        .map(|n| n.within(0, usize::MAX, |n| format!("max_nullity is 0 or more, got {n}")))
        .transpose()?;
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let layout = spec.layout(py, rows, cols);
    let study = py
        .detach(|| {
            run_interruptible(move |stop| {
                let limits = Limits { stop: Some(stop.flag()), time_limit: None };
                lightsout::analysis::study(&puzzle, k, max_nullity, max_memory, &limits)
            })
        })?
        .map_err(to_py)?;
    Ok(Analysis { study: Study::of(rows, cols, k, study), layout })
}

/// The press matrix ``A`` of a size (or graph) and rule: ``uint8``, N × N
/// for N cells (vertices), row-major as the boards are; column ``j`` holds
/// 1 at every cell that pressing cell ``j`` changes, so the board a press
/// set ``x`` (flattened) reaches from ``b`` is ``(b + A @ x) % K``. It is
/// the same for every number of states: a press adds 1 to each cell it
/// reaches. Refused (``LimitError``) past ``max_memory`` bytes (N² of them).
///
/// >>> a = lightsout.press_matrix(2, 3)
/// >>> a.shape, int(a.sum()), (a == a.T).all()
/// ((6, 6), 22, True)
/// >>> a[:, 0].reshape(2, 3).tolist()
/// [[1, 1, 0], [1, 0, 0]]
#[pyfunction]
#[pyo3(signature = (rows = None, cols = None, *, torus = false, rule = "plus", graph = None,
    max_memory = Int::new(DEFAULT_MEMORY as i128)))]
#[pyo3(
    text_signature = "(rows=None, cols=None, *, torus=False, rule='plus', graph=None, max_memory=1073741824)"
)]
pub fn press_matrix<'py>(
    py: Python<'py>,
    rows: Option<Int>,
    cols: Option<Int>,
    torus: bool,
    rule: &str,
    graph: Option<&Bound<'py, PyAny>>,
    max_memory: Int,
) -> PyResult<Bound<'py, PyArray2<u8>>> {
    let spec = Spec::new(rule, torus, &Int::new(2), graph)?;
    let puzzle = study_puzzle(&spec, rows, cols)?;
    let max_memory = memory(&max_memory)?;
    let n = puzzle.cells();
    let needed = (n as u128 * n as u128).min(u128::from(u64::MAX)) as u64;
    if needed > max_memory {
        return Err(to_py(lightsout::Error::Memory {
            work: format!("the press matrix of {n} cells"),
            needed,
            limit: max_memory,
        }));
    }
    let mut matrix = vec![0u8; n * n];
    for (press, cells) in puzzle.press_lists().into_iter().enumerate() {
        for cell in cells {
            matrix[cell * n + press] = 1;
        }
    }
    PyArray1::from_vec(py, matrix).reshape([n, n])
}

/// Sizes from a range or any sequence of positive integers, counted by
/// `len()` before any is read: a range of 10^9 sizes is refused at once.
fn sizes(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<usize>> {
    let shape = || bad(format!("{what} is a range or a sequence of sizes, such as range(1, 101)"));
    let count = match value.len() {
        Ok(count) => count.to_string(),
        Err(e) if e.is_instance_of::<PyOverflowError>(value.py()) => "more than 2**63".to_string(),
        Err(_) => return Err(shape()),
    };
    if count == "0" {
        return Err(bad(format!("{what} is empty")));
    }
    if count.parse::<usize>().map_or(true, |n| n > MAX_SIDE) {
        return Err(bad(format!("{what} holds {count} sizes, more than the {MAX_SIDE} a table may have")));
    }
    let sizes: Vec<i64> = value.extract().map_err(|_| shape())?;
    sizes
        .iter()
        .map(|&s| {
            usize::try_from(s)
                .ok()
                .filter(|&s| s >= 1)
                .ok_or_else(|| bad(format!("{what} holds {s}; sizes are 1 or more")))
        })
        .collect()
}

/// `nullity_table`'s work, in whichever game.
struct TableOf {
    rows: Vec<usize>,
    cols: Vec<usize>,
    template: Puzzle,
    states: Modulus,
    max_memory: u64,
    nullity: bool,
}

impl Play for TableOf {
    type Output = Table;

    fn play<G: PyGame>(self) -> PyResult<Table> {
        let TableOf { rows, cols, template, states, max_memory, nullity } = self;
        run_interruptible(move |stop| G::table(&rows, &cols, &template, states, max_memory, nullity, stop))?
    }
}

/// The nullity of every size ``rows[i] × cols[j]``, as a numpy array
/// (``int64``); for ``states`` > 2, ``log2`` of the number of quiet patterns
/// (``float64``), or with ``nullity=True`` (K prime) their dimension over
/// Z_K (``int64``). ``rows`` and ``cols`` are ranges (or sequences) of
/// sizes; the two-state table is computed over their span. The classic
/// plane uses the gcd formula on all cores (``range(1, 1001)`` by
/// ``range(1, 1001)`` in about two seconds); other rules and the torus
/// factor each size. Raises ``LimitError`` for a table of more than a few
/// minutes' work, or one whose entries need more than ``max_memory``.
///
/// >>> import math
/// >>> t = lightsout.nullity_table(range(1, 6), range(1, 6))
/// >>> t.tolist()[3:]
/// [[0, 0, 0, 4, 0], [1, 1, 3, 0, 2]]
/// >>> lightsout.nullity_table([4], [4], states=3).tolist() == [[2 * math.log2(3)]]
/// True
/// >>> lightsout.nullity_table([4], [4], states=3, nullity=True).tolist()
/// [[2]]
#[pyfunction]
#[pyo3(signature = (rows, cols, *, torus = false, rule = "plus", states = Int::new(2),
    max_memory = Int::new(DEFAULT_MEMORY as i128), nullity = false))]
#[pyo3(text_signature = "(rows, cols, *, torus=False, rule='plus', states=2, max_memory=1073741824, \
    nullity=False)")]
#[allow(clippy::too_many_arguments)]
pub fn nullity_table<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    cols: &Bound<'py, PyAny>,
    torus: bool,
    rule: &str,
    states: Int,
    max_memory: Int,
    nullity: bool,
) -> PyResult<Bound<'py, PyAny>> {
    let spec = Spec::new(rule, torus, &states, None)?;
    let max_memory = memory(&max_memory)?;
    let (rows, cols) = (sizes(rows, "rows")?, sizes(cols, "cols")?);
    let (nr, nc) = (rows.len(), cols.len());
    // The entries themselves, 8 bytes each, before any is computed.
    let entries = format!("a table of {} sizes", nr * nc);
    lightsout::solve::limits::check(nr as u64 * nc as u64 * 8, max_memory, &entries).map_err(to_py)?;
    let template = spec.puzzle(1, 1)?;
    let work = TableOf { rows, cols, template, states: spec.states, max_memory, nullity };
    Ok(match py.detach(|| with_game(spec.states, work))? {
        Table::Nullity(flat) => PyArray1::from_vec(py, flat).reshape([nr, nc])?.into_any(),
        Table::Log2(flat) => PyArray1::from_vec(py, flat).reshape([nr, nc])?.into_any(),
    })
}
