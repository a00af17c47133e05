//! The `lightsout` Python module: the library's solvers and analyses for
//! Python, Jupyter and Sage, with numpy arrays in and out.
//!
//! A thin floor, like the command line and the server: each function turns
//! its Python arguments into library types in one place (`convert`), picks
//! the game for its number of states once (`game::with_game`: the one
//! "two states or K?" of the module) and runs generically over it, calls the
//! library with the interpreter released, and turns the answer into Python
//! objects. Errors keep the library's neutral words; their kinds
//! become `ValueError`, `LimitError` and `RuntimeError` (`convert::to_py`).

// No unwrap, expect or panic reachable from Python input: a panic would
// surface as a `PanicException`, not as the ValueError the caller can catch.
#![warn(clippy::unwrap_used, clippy::expect_used, clippy::panic)]

mod convert;
mod engine;
mod game;
mod hardest;
mod picture;
mod solve;
mod stop;
mod study;

use pyo3::prelude::*;

pyo3::create_exception!(
    lightsout,
    LimitError,
    pyo3::exceptions::PyRuntimeError,
    "A stated limit refused the work: its memory estimate is over max_memory, or it would run longer \
     than the library allows (a nullity table of hours, say). The input is valid; ask for less, or raise \
     the limit. A subclass of RuntimeError, so it is told apart from the ValueError of bad input."
);

/// Lights Out and the Flip Game solved by linear algebra: any board size, K
/// states per cell (Z_K, 2 ≤ K ≤ 255), grids (plane or torus, any press
/// rule) and graphs; the fewest presses, proven; the hardest boards of a
/// size; quiet patterns and nullity tables as numpy arrays.
///
/// >>> import lightsout
/// >>> lightsout.solve(["bwwb", "bbwb", "bwwb", "bwww"]).presses
/// 4
/// >>> lightsout.analyze(5, 5).nullity
/// 2
/// >>> lightsout.hardest(5, 5).upper
/// 15
#[pymodule(name = "lightsout")]
fn lightsout_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add("LimitError", m.py().get_type::<LimitError>())?;
    m.add_class::<solve::Solution>()?;
    m.add_class::<solve::Check>()?;
    m.add_class::<study::Analysis>()?;
    m.add_class::<hardest::Hardest>()?;
    m.add_function(wrap_pyfunction!(solve::solve, m)?)?;
    m.add_function(wrap_pyfunction!(solve::solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(solve::check, m)?)?;
    m.add_function(wrap_pyfunction!(study::analyze, m)?)?;
    m.add_function(wrap_pyfunction!(study::nullity_table, m)?)?;
    m.add_function(wrap_pyfunction!(study::press_matrix, m)?)?;
    m.add_function(wrap_pyfunction!(hardest::hardest, m)?)?;
    Ok(())
}
