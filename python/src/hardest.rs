//! `hardest`: the most presses a solvable board of a puzzle needs, a board
//! that needs them, and the boards by their fewest presses.

use std::time::Duration;

use lightsout::analysis::{self, DEFAULT_HARDEST_WORK, Goal, HardestOptions, How, Stop};
use lightsout::picture::Scene;
use lightsout::present::{goal_words, parse_goal};
use lightsout::solve::{Board, DEFAULT_MAX_NULLITY, GameSpec, Limits};
use lightsout::zk::Modulus;
use lightsout::{Error, Puzzle};
use pyo3::prelude::*;
use pyo3::types::{PyBool, PyBytes, PyDict, PyList, PyString, PyTuple, PyType};

use crate::LimitError;
use crate::convert::{Int, Layout, Spec, bad, exact_int, to_py};
use crate::engine::engine;
use crate::game::{Play, PyGame, with_game};
use crate::picture::{self, Format};
use crate::solve::{DEFAULT_MEMORY, memory, seconds};
use crate::stop::run_interruptible;
use crate::study::study_puzzle;

/// The hardest boards of one size (or graph) and rule, for one target.
///
/// ``upper`` is a number of presses no solvable board needs more than, and
/// ``lower`` one that ``board`` needs exactly (proven by the exhaustive
/// engine before it is returned; ``None`` when no board could be
/// certified): ``exact`` when they meet. ``how`` says how the value was
/// settled: ``"closed form"`` (a bound from the quiet patterns' classes,
/// met by a board built to meet it), ``"search"`` (every board counted, or
/// a search proving that none needs more) or ``"bounds"`` (not settled;
/// ``stop`` says why: ``"budget"``, the exact methods do not finish within
/// ``max_work``; ``"stalled"``, no bound moved for 1/32 of it; or
/// ``"interrupted"``, the time limit or Ctrl-C, also ``stopped``).
/// ``board`` and its lightest press set ``presses`` are numpy ``uint8``
/// arrays, rows × cols (on a graph vectors over ``vertices``).
/// ``solvable_boards`` is the number of boards that reach the target,
/// ``boards_at_most`` how many of them need ``upper`` presses (``None``
/// where the boards were not all counted), and ``distribution`` (when
/// asked) a dict from each number of presses to the boards that need
/// exactly that many, ascending. Counts are exact Python integers.
/// Results compare equal when all of that is, and pickle. In a notebook a
/// result shows ``board`` and ``presses`` as a picture (``_repr_svg_``,
/// ``_repr_png_``).
///
/// >>> h = lightsout.hardest(4, 4)
/// >>> h
/// Hardest(lower=7, upper=7, exact=True, how='search')
/// >>> lightsout.solve(h.board, target="white").presses, int(h.presses.sum())
/// (7, 7)
/// >>> h.solvable_boards, h.boards_at_most
/// (4096, 32)
#[pyclass(frozen, module = "lightsout")]
pub struct Hardest {
    found: Hardness,
    layout: Layout,
}

/// What `hardest` found, held without Python objects.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Hardness {
    lower: Option<u64>,
    upper: u64,
    how: How,
    /// The certified board and its lightest press set, row by row.
    board: Option<Vec<u8>>,
    presses: Option<Vec<u8>>,
    boards_at_most: Option<String>,
    solvable_boards: String,
    distribution: Option<Vec<(u64, String)>>,
    stopped: bool,
    /// The target in words (`white`, `either colour`, `state 2`), for the
    /// picture's title.
    goal: String,
    /// Why the bounds were left apart, where they were.
    stop: Option<Stop>,
}

impl Hardness {
    fn of<G: PyGame>(h: analysis::Hardest<G::Board>, goal: String) -> Hardness {
        let stop = h.stop();
        Hardness {
            lower: h.lower,
            upper: h.upper,
            how: h.how,
            board: h.board.as_ref().map(Board::cell_values),
            presses: h.presses.as_ref().map(Board::cell_values),
            boards_at_most: h.boards_at_most,
            solvable_boards: h.boards,
            distribution: h.distribution,
            stopped: h.stopped,
            goal,
            stop,
        }
    }
}

/// The ways a value is settled, for reading a pickle back by name.
const HOWS: [How; 4] = [How::ClosedForm, How::Search, How::Bounds, How::Table];

/// Why bounds are left apart, for reading a pickle back by name.
const STOPS: [Stop; 3] = [Stop::Interrupted, Stop::Stalled, Stop::Budget];

#[pymethods]
impl Hardest {
    /// A board needing exactly this many presses exists (``None``: no board
    /// was certified).
    #[getter]
    fn lower(&self) -> Option<u64> {
        self.found.lower
    }

    /// No solvable board needs more presses than this.
    #[getter]
    fn upper(&self) -> u64 {
        self.found.upper
    }

    /// Whether the most presses is proven: ``lower == upper``.
    #[getter]
    fn exact(&self) -> bool {
        self.found.lower == Some(self.found.upper)
    }

    /// ``"closed form"``, ``"search"`` or ``"bounds"``.
    #[getter]
    fn how(&self) -> &'static str {
        self.found.how.name()
    }

    /// A board whose fewest presses to the target are exactly ``lower``:
    /// ``uint8``, rows × cols, or over the vertices on a graph; ``None``
    /// when none was certified.
    #[getter]
    fn board<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.found.board.as_ref().map(|cells| self.layout.array(py, cells)).transpose()
    }

    /// The lightest press set of ``board`` (``lower`` presses), same layout.
    #[getter]
    fn presses<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.found.presses.as_ref().map(|cells| self.layout.array(py, cells)).transpose()
    }

    /// How many boards need ``upper`` presses, where every board was
    /// counted; else ``None``.
    #[getter]
    fn boards_at_most<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyAny>>> {
        self.found.boards_at_most.as_deref().map(|n| exact_int(py, n)).transpose()
    }

    /// How many boards reach the target at all.
    #[getter]
    fn solvable_boards<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        exact_int(py, &self.found.solvable_boards)
    }

    /// ``{presses: boards}``, ascending, the numbers of presses no board
    /// needs left out; ``None`` unless asked (``distribution=True``).
    #[getter]
    fn distribution<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let Some(distribution) = &self.found.distribution else {
            return Ok(None);
        };
        let dict = PyDict::new(py);
        for (presses, boards) in distribution {
            dict.set_item(presses, exact_int(py, boards)?)?;
        }
        Ok(Some(dict))
    }

    /// Whether the time limit (or Ctrl-C) cut the work short.
    #[getter]
    fn stopped(&self) -> bool {
        self.found.stopped
    }

    /// Why the bounds were left apart: ``"budget"`` (the exact methods do
    /// not finish within ``max_work``), ``"stalled"`` (no bound moved for
    /// 1/32 of it: a larger ``max_work`` buys more patience too) or
    /// ``"interrupted"`` (the time limit or Ctrl-C); ``None`` when exact.
    #[getter]
    fn stop(&self) -> Option<&'static str> {
        self.found.stop.map(Stop::name)
    }

    /// On a graph, its vertices in the order of ``board`` (a networkx
    /// graph's own labels, else 0 to n − 1); ``None`` on a grid.
    #[getter]
    fn vertices<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyList>>> {
        self.layout.vertices(py)
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, Self>) -> PyResult<bool> {
        let other = other.get();
        Ok(self.found == other.found && self.layout.same(py, &other.layout)?)
    }

    fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<(Bound<'py, PyAny>, (Bound<'py, PyTuple>,))> {
        let (py, f) = (slf.py(), &slf.get().found);
        let state = (
            slf.get().layout.state(py)?,
            (f.lower, f.upper, f.how.name(), f.board.clone(), f.presses.clone()),
            (
                f.boards_at_most.clone(),
                f.solvable_boards.clone(),
                f.distribution.clone(),
                f.stopped,
                f.goal.clone(),
                f.stop.map(Stop::name),
            ),
        )
            .into_pyobject(py)?;
        Ok((slf.get_type().getattr("_from_state")?, (state,)))
    }

    /// The result a pickle holds (`__reduce__`'s state).
    #[classmethod]
    fn _from_state(_cls: &Bound<'_, PyType>, state: &Bound<'_, PyAny>) -> PyResult<Hardest> {
        type Bounds = (Option<u64>, u64, String, Option<Vec<u8>>, Option<Vec<u8>>);
        type Counts = (Option<String>, String, Option<Vec<(u64, String)>>, bool, String, Option<String>);
        let (layout, bounds, counts): (Bound<'_, PyAny>, Bounds, Counts) = state.extract()?;
        let (lower, upper, how, board, presses) = bounds;
        let how = HOWS
            .into_iter()
            .find(|h| h.name() == how)
            .ok_or_else(|| bad(format!("not a pickled lightsout result: how '{how}'")))?;
        let (boards_at_most, solvable_boards, distribution, stopped, goal, stop) = counts;
        let stop = match stop {
            None => None,
            Some(name) => Some(
                STOPS
                    .into_iter()
                    .find(|s| s.name() == name)
                    .ok_or_else(|| bad(format!("not a pickled lightsout result: stop '{name}'")))?,
            ),
        };
        let found = Hardness {
            lower,
            upper,
            how,
            board,
            presses,
            boards_at_most,
            solvable_boards,
            distribution,
            stopped,
            goal,
            stop,
        };
        Ok(Hardest { found, layout: Layout::from_state(&layout)? })
    }

    /// The hardest board and its lightest press set as an SVG picture, for
    /// a notebook (drawn as ``lightsout solve --svg`` draws a board; a graph
    /// as the graph): ``None`` for K > 2 states, when no board was
    /// certified, past the picture's graph limits, or past 16,384 shapes
    /// (cells, vertices and edges), where the notebook shows the PNG or the
    /// ``repr``.
    fn _repr_svg_(&self) -> Option<String> {
        picture::svg(self.scene(Format::Svg))
    }

    /// The same picture as PNG bytes: ``None`` for K > 2 states, past the
    /// graph limits or past 2**20 shapes (a 1024×1024 board).
    fn _repr_png_<'py>(&self, py: Python<'py>) -> Option<Bound<'py, PyBytes>> {
        picture::png(py, self.scene(Format::Png))
    }

    fn __repr__(&self) -> String {
        let f = &self.found;
        let lower = f.lower.map_or("None".to_string(), |l| l.to_string());
        let exact = if f.lower == Some(f.upper) { "True" } else { "False" };
        let stop = f.stop.map_or(String::new(), |s| format!(", stop='{}'", s.name()));
        format!("Hardest(lower={lower}, upper={}, exact={exact}, how='{}'{stop})", f.upper, f.how.name())
    }
}

impl Hardest {
    /// The picture of the certified board and its presses, where one is drawn.
    fn scene(&self, format: Format) -> Option<Scene> {
        let f = &self.found;
        let (board, presses, lower) = (f.board.as_ref()?, f.presses.as_ref()?, f.lower?);
        picture::hardest(&self.layout, board, presses, lower, f.upper, &f.goal, format)
    }
}

/// Reads `target`: a state number below K, or a word as every front of
/// `hardest` reads it (`parse_goal`: `"any"`, digits, and for two states
/// `"white"` = 0, `"black"` = 1 and `"either"`).
fn read_goal(target: Option<&Bound<'_, PyAny>>, states: Modulus) -> PyResult<Goal> {
    let Some(target) = target else {
        return Ok(Goal::State(0));
    };
    let top = states.get() - 1;
    if let Ok(word) = target.cast::<PyString>() {
        return parse_goal(&word.to_cow()?, states.get()).map_err(|e| bad(format!("target: {e}")));
    }
    if !target.is_instance_of::<PyBool>()
        && let Ok(s) = target.extract::<Int>()
    {
        return Ok(Goal::State(s.within(0, top, |s| format!("the target state is 0 to {top}, got {s}"))?));
    }
    Err(bad(format!("target: expected a state number or any, not {}", target.get_type().name()?)))
}

/// `hardest`'s work, in whichever game.
struct HardestOf {
    puzzle: Puzzle,
    states: Modulus,
    goal: Goal,
    distribution: bool,
    time_limit: Option<Duration>,
    max_memory: u64,
    max_work: u64,
}

impl Play for HardestOf {
    type Output = Hardness;

    fn play<G: PyGame>(self) -> PyResult<Hardness> {
        let HardestOf { puzzle, states, goal, distribution, time_limit, max_memory, max_work } = self;
        run_interruptible(move |stop| {
            // The board is certified by the exhaustive engine `solve` uses by
            // default, so the same factored puzzle serves both.
            let spec = GameSpec::new(puzzle, states).with_max_memory(max_memory);
            let factored = engine::<G>(&spec.asking_max_nullity(DEFAULT_MAX_NULLITY))?;
            let limits = Limits { stop: Some(stop.flag()), time_limit };
            let options = HardestOptions { distribution, work: max_work, ..HardestOptions::default() };
            match analysis::hardest(&factored.game, goal, &options, &limits) {
                Ok(found) => Ok(Hardness::of::<G>(found, goal_words(goal, states.get()))),
                Err(e @ Error::DistributionPastBudget { .. }) => Err(LimitError::new_err(format!(
                    "{e}; without distribution=True the most presses is still answered"
                ))),
                Err(e) => Err(to_py(e)),
            }
        })?
    }
}

/// The most presses any solvable board of ``rows × cols`` (or of
/// ``graph``) needs to reach ``target``, and a board that needs them: a
/// :class:`Hardest`. ``target`` is ``0`` / ``"white"`` (the default),
/// ``1`` / ``"black"``, any state number below ``states``, or ``"any"``
/// (``"either"``: each board to the uniform state that takes it the fewest
/// presses, POJ 1753's either colour). ``distribution=True`` also counts
/// the boards by their fewest presses (refused with ``LimitError`` past
/// the work budget; the most presses alone is then still answered).
/// ``max_work`` is that budget, the CLI's ``--max-work``: member weighings
/// (one member weighed against one class of cells), ``2**37`` unless
/// given, about 14 s of counting boards or, with half of it, 2 CPU-minutes
/// of the exact search (9x9 is proven in about 20); a search stops sooner
/// once it has moved no bound for 1/32 of it. A count, not a clock, so the
/// answer is the same on every machine. Where the exact methods do not
/// finish (large nullity), or ``time_limit`` seconds pass, the answer is
/// bounds, reported as bounds (``exact`` false). The rest as
/// :func:`analyze`. Releases the GIL; Ctrl-C stops the work.
///
/// >>> lightsout.hardest(4, 4, target="any").lower
/// 6
/// >>> d = lightsout.hardest(5, 5, distribution=True).distribution
/// >>> d[7], d[15], sum(d.values()) == 2**23
/// (467104, 7350, True)
/// >>> h = lightsout.hardest(3, 3, states=3, target=1)
/// >>> h.upper, lightsout.solve(h.board, states=3, target=1).presses
/// (18, 18)
/// >>> lightsout.hardest(graph="petersen").board.shape
/// (10,)
/// >>> lightsout.hardest(16, 16, max_work=2**31)
/// Hardest(lower=124, upper=125, exact=False, how='bounds', stop='stalled')
#[pyfunction]
#[pyo3(signature = (rows = None, cols = None, *, target = None, torus = false, rule = "plus",
    states = Int::new(2), graph = None, distribution = false, time_limit = None,
    max_memory = Int::new(DEFAULT_MEMORY as i128), max_work = Int::new(DEFAULT_HARDEST_WORK as i128)))]
#[pyo3(
    text_signature = "(rows=None, cols=None, *, target=0, torus=False, rule='plus', states=2, graph=None, \
    distribution=False, time_limit=None, max_memory=1073741824, max_work=137438953472)"
)]
#[allow(clippy::too_many_arguments)]
pub fn hardest(
    py: Python<'_>,
    rows: Option<Int>,
    cols: Option<Int>,
    target: Option<&Bound<'_, PyAny>>,
    torus: bool,
    rule: &str,
    states: Int,
    graph: Option<&Bound<'_, PyAny>>,
    distribution: bool,
    time_limit: Option<f64>,
    max_memory: Int,
    max_work: Int,
) -> PyResult<Hardest> {
    let spec = Spec::new(rule, torus, &states, graph)?;
    let puzzle = study_puzzle(&spec, rows, cols)?;
    let goal = read_goal(target, spec.states)?;
    let time_limit = seconds(time_limit)?;
    let max_memory = memory(&max_memory)?;
    let max_work = max_work
        .within(1, u64::MAX, |w| format!("max_work is a number of weighings, 1 to 2**64 - 1, got {w}"))?;
    let layout = spec.layout(py, puzzle.rows(), puzzle.cols());
    let work =
        HardestOf { puzzle, states: spec.states, goal, distribution, time_limit, max_memory, max_work };
    let found = py.detach(|| with_game(spec.states, work))?;
    Ok(Hardest { found, layout })
}
