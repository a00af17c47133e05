//! `analyze` and `nullity_table`: the puzzle itself, not one board.

use lightsout::zk::Modulus;
use lightsout::{Method, Puzzle, StateSolver};
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyList;

use crate::convert::{Spec, bad, to_py};
use crate::engine::{check_signals, grid_cells, run_interruptible};
use crate::solve::DEFAULT_MEMORY;

/// How many press sets are quiet: 2^nullity, or the K-state count in decimal.
enum KernelSize {
    PowerOfTwo(usize),
    Decimal(String),
}

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
/// (``lightest_proven`` says whether it is proven lightest).
///
/// >>> a = lightsout.analyze(5, 5)
/// >>> a.rank, a.nullity, a.kernel_size, a.gcd
/// (23, 2, 4, 'x^2 + x')
/// >>> a.quiet_patterns.shape, int(a.lightest_quiet_pattern.sum())
/// ((2, 5, 5), 12)
#[pyclass(frozen, module = "lightsout")]
pub struct Analysis {
    rows: usize,
    cols: usize,
    rank: Option<usize>,
    nullity: Option<usize>,
    kernel: KernelSize,
    quiet: Option<Vec<Vec<u8>>>,
    orders: Vec<u32>,
    gcd: Option<(String, Vec<(String, usize)>)>,
    lightest: Option<(Vec<u8>, bool)>,
    targets_interchangeable: Option<bool>,
}

#[pymethods]
impl Analysis {
    /// The number of quiet patterns, as an exact ``int``.
    #[getter]
    fn kernel_size<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match &self.kernel {
            KernelSize::PowerOfTwo(d) => 1u8.into_pyobject(py)?.call_method1("__lshift__", (*d,)),
            KernelSize::Decimal(s) => py.import("builtins")?.getattr("int")?.call1((s.as_str(),)),
        }
    }

    /// Rank of the press matrix (``None`` for a composite K).
    #[getter]
    fn rank(&self) -> Option<usize> {
        self.rank
    }

    /// Dimension of the quiet patterns (``None`` for a composite K).
    #[getter]
    fn nullity(&self) -> Option<usize> {
        self.nullity
    }

    /// A basis (generators, for K states) of the quiet patterns:
    /// ``uint8``, d × rows × cols; ``None`` when they do not fit in memory.
    #[getter]
    fn quiet_patterns<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some(quiet) = &self.quiet else {
            return Ok(None);
        };
        let flat: Vec<u8> = quiet.iter().flatten().copied().collect();
        let array = PyArray1::from_vec(py, flat).reshape([quiet.len(), self.rows, self.cols])?;
        Ok(Some(array.into_any()))
    }

    /// The order of each quiet pattern of the basis (2 for two states).
    #[getter]
    fn quiet_orders<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        PyList::new(py, &self.orders)
    }

    /// ``gcd(f_R(x), f_C(x+1))`` over GF(2) for the classic plane, else ``None``.
    #[getter]
    fn gcd(&self) -> Option<String> {
        self.gcd.as_ref().map(|g| g.0.clone())
    }

    /// The gcd's irreducible factors with their multiplicities.
    #[getter]
    fn gcd_factors(&self) -> Option<Vec<(String, usize)>> {
        self.gcd.as_ref().map(|g| g.1.clone())
    }

    /// The non-zero quiet pattern with the fewest presses (``None`` when
    /// there is none, or it was not looked for).
    #[getter]
    fn lightest_quiet_pattern<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        let Some((cells, _)) = &self.lightest else {
            return Ok(None);
        };
        Ok(Some(PyArray1::from_slice(py, cells).reshape([self.rows, self.cols])?.into_any()))
    }

    /// Whether ``lightest_quiet_pattern`` is proven lightest.
    #[getter]
    fn lightest_proven(&self) -> Option<bool> {
        self.lightest.as_ref().map(|l| l.1)
    }

    /// Two states: whether every board that can be made white can be made
    /// black too (``None`` for K states).
    #[getter]
    fn targets_interchangeable(&self) -> Option<bool> {
        self.targets_interchangeable
    }

    fn __repr__(&self) -> String {
        let kernel = match &self.kernel {
            KernelSize::PowerOfTwo(d) => format!("2**{d}"),
            KernelSize::Decimal(s) => s.clone(),
        };
        let show = |v: Option<usize>| v.map_or("None".to_string(), |v| v.to_string());
        format!(
            "Analysis({}x{}, rank={}, nullity={}, kernel_size={kernel})",
            self.rows,
            self.cols,
            show(self.rank),
            show(self.nullity)
        )
    }
}

/// The puzzle of `rows × cols` (or of the graph) for a study.
fn study_puzzle(spec: &Spec, rows: Option<usize>, cols: Option<usize>) -> PyResult<Puzzle> {
    match (&spec.graph, rows, cols) {
        (Some(_), None, None) => spec.puzzle(1, 1),
        (Some(_), _, _) => Err(bad("give either rows and cols or graph, not both")),
        (None, Some(r), Some(c)) => spec.puzzle(r, c),
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
#[pyo3(signature = (rows = None, cols = None, *, torus = false, rule = "plus", states = 2, graph = None,
    max_nullity = None, max_memory = DEFAULT_MEMORY))]
#[allow(clippy::too_many_arguments)]
pub fn analyze(
    py: Python<'_>,
    rows: Option<usize>,
    cols: Option<usize>,
    torus: bool,
    rule: &str,
    states: u32,
    graph: Option<&Bound<'_, PyAny>>,
    max_nullity: Option<usize>,
    max_memory: u64,
) -> PyResult<Analysis> {
    let spec = Spec::new(rule, torus, states, graph)?;
    let puzzle = study_puzzle(&spec, rows, cols)?;
    let k = spec.states;
    let max_nullity = max_nullity.unwrap_or(lightsout::solve::limits::analyze_budget(k.get()));
    py.detach(move || run_interruptible(move |_| analyze_puzzle(&puzzle, k, max_nullity, max_memory)))?
}

fn analyze_puzzle(puzzle: &Puzzle, k: Modulus, max_nullity: usize, max_memory: u64) -> PyResult<Analysis> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if k.get() == 2 {
        let a = lightsout::analyze(puzzle, max_nullity, max_memory).map_err(to_py)?;
        let held = a.quiet.len() == a.nullity;
        return Ok(Analysis {
            rows,
            cols,
            rank: Some(a.rank()),
            nullity: Some(a.nullity),
            kernel: KernelSize::PowerOfTwo(a.nullity),
            quiet: held.then(|| a.quiet.iter().map(grid_cells).collect()),
            orders: vec![2; a.nullity],
            gcd: a.gcd.as_ref().map(|(g, factors)| {
                (g.to_string(), factors.iter().map(|(p, m)| (p.to_string(), *m)).collect())
            }),
            lightest: a.lightest_quiet.as_ref().map(|(q, proven)| (grid_cells(q), *proven)),
            targets_interchangeable: Some(a.targets_interchangeable),
        });
    }
    let log2 = u32::try_from(max_nullity).unwrap_or(u32::MAX);
    let solver = StateSolver::new(puzzle, k, Method::Auto, log2, max_memory).map_err(to_py)?;
    let quiet = solver.quiet_patterns();
    let lightest = solver.lightest_quiet_pattern().map(|(q, proven)| (q.cells().to_vec(), proven));
    Ok(Analysis {
        rows,
        cols,
        rank: solver.rank(),
        nullity: solver.nullity(),
        kernel: KernelSize::Decimal(solver.kernel_size()),
        quiet: Some(quiet.iter().map(|(g, _)| g.cells().to_vec()).collect()),
        orders: quiet.iter().map(|(_, o)| *o).collect(),
        gcd: None,
        lightest,
        targets_interchangeable: None,
    })
}

/// Sizes from a range or any sequence of positive integers.
fn sizes(value: &Bound<'_, PyAny>, what: &str) -> PyResult<Vec<usize>> {
    let sizes: Vec<i64> = value
        .extract()
        .map_err(|_| bad(format!("{what} is a range or a sequence of sizes, such as range(1, 101)")))?;
    if sizes.is_empty() {
        return Err(bad(format!("{what} is empty")));
    }
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

/// The nullity of every size ``rows[i] × cols[j]``, as a numpy array
/// (``int64``); for ``states`` > 2, ``log2`` of the number of quiet patterns
/// (``float64``). ``rows`` and ``cols`` are ranges (or sequences) of sizes;
/// the table is computed over their span. The classic plane uses the gcd
/// formula on all cores (``range(1, 1001)`` by ``range(1, 1001)`` in about two
/// seconds); other rules and the torus factor each size. Raises
/// ``LimitError`` for a table of more than a few minutes' work.
///
/// >>> import math
/// >>> t = lightsout.nullity_table(range(1, 6), range(1, 6))
/// >>> t.tolist()[3:]
/// [[0, 0, 0, 4, 0], [1, 1, 3, 0, 2]]
/// >>> lightsout.nullity_table([4], [4], states=3).tolist() == [[2 * math.log2(3)]]
/// True
#[pyfunction]
#[pyo3(signature = (rows, cols, *, torus = false, rule = "plus", states = 2, max_memory = DEFAULT_MEMORY))]
pub fn nullity_table<'py>(
    py: Python<'py>,
    rows: &Bound<'py, PyAny>,
    cols: &Bound<'py, PyAny>,
    torus: bool,
    rule: &str,
    states: u32,
    max_memory: u64,
) -> PyResult<Bound<'py, PyAny>> {
    let spec = Spec::new(rule, torus, states, None)?;
    let (rows, cols) = (sizes(rows, "rows")?, sizes(cols, "cols")?);
    let template = spec.puzzle(1, 1)?;
    let (nr, nc) = (rows.len(), cols.len());
    if spec.two_states() {
        let (r_lo, r_hi) = span(&rows);
        let (c_lo, c_hi) = span(&cols);
        let table = py
            .detach(move || {
                run_interruptible(move |stop| {
                    lightsout::nullity_table(r_lo..=r_hi, c_lo..=c_hi, &template, max_memory, &|| {
                        stop.check()
                    })
                })
            })?
            .map_err(to_py)?;
        let flat: Vec<i64> = rows
            .iter()
            .flat_map(|&r| cols.iter().map(|&c| table[r - r_lo][c - c_lo] as i64).collect::<Vec<_>>())
            .collect();
        return Ok(PyArray1::from_vec(py, flat).reshape([nr, nc])?.into_any());
    }
    let k = spec.states;
    let flat = py.detach(|| -> PyResult<Vec<f64>> {
        let mut flat = Vec::with_capacity(nr * nc);
        // A row of sizes at a time on all cores, with a check for Ctrl-C
        // between rows.
        for row in lightsout::kernel_table(rows.iter().copied(), &cols, &template, k, max_memory) {
            flat.extend(row.map_err(to_py)?.iter().map(|entry| entry.kernel_size_log2));
            check_signals()?;
        }
        Ok(flat)
    })?;
    Ok(PyArray1::from_vec(py, flat).reshape([nr, nc])?.into_any())
}

/// The smallest and the largest size.
fn span(sizes: &[usize]) -> (usize, usize) {
    let lo = sizes.iter().copied().min().unwrap_or(1);
    let hi = sizes.iter().copied().max().unwrap_or(1);
    (lo, hi)
}
