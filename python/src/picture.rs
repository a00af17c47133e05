//! Pictures for a notebook: a solution, an analysis and a hardest board
//! drawn by the library's own `picture` code, as the command line's
//! `--svg` and `--png` draw them (a graph as a graph), for Jupyter's
//! `_repr_svg_` and `_repr_png_`.
//!
//! A picture the command line would not draw is `None`, never an error:
//! the notebook then shows the text `repr`. That is a board of K > 2
//! states (the command line writes those as PGM, not pictures) and a
//! graph past [`picture::check_graph`]'s limits. A notebook also keeps
//! every picture in its `.ipynb` file, so an SVG past [`MAX_SVG_SHAPES`]
//! is `None` too (the notebook then shows the PNG, a few kilobytes), and a
//! PNG past [`MAX_PNG_SHAPES`].

use lightsout::Grid;
use lightsout::picture::{self, Scene};
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::convert::Layout;
use crate::engine::press_count;
use crate::game::Reached;

/// Most shapes (cells, vertices and edges, all panels together) an SVG
/// draws: 16,384, a 128×128 board, about a megabyte of SVG (a `rect` a
/// cell, 60 bytes; a graph's `line` 150). The 256×256 board's SVG is 3.9
/// MB, its PNG 27 kB.
pub const MAX_SVG_SHAPES: usize = 1 << 14;

/// Most shapes a PNG draws: 2^20, a 1024×1024 board (a pixel a cell). The
/// command line, which writes a file, draws boards up to 2^22 cells; a
/// notebook draws on every display, and each shape is held until written.
pub const MAX_PNG_SHAPES: usize = 1 << 20;

/// The picture asked for: SVG text or PNG bytes, each with its limit.
#[derive(Clone, Copy)]
pub enum Format {
    Svg,
    Png,
}

impl Format {
    fn max_shapes(self) -> usize {
        match self {
            Format::Svg => MAX_SVG_SHAPES,
            Format::Png => MAX_PNG_SHAPES,
        }
    }
}

/// `cells` as a board of `rows × cols` (a graph's: one row), a cell set
/// where it is not 0.
fn grid(rows: usize, cols: usize, cells: &[u8]) -> Grid {
    Grid::from_fn(rows, cols, |r, c| cells.get(r * cols + c).is_some_and(|&v| v != 0))
}

/// `1 press` or `n presses`.
fn presses(n: u64) -> String {
    if n == 1 { "1 press".into() } else { format!("{n} presses") }
}

/// Whether a picture of `drawings` copies of `layout`'s board (or graph)
/// may be drawn in `format`: two states, and the shapes within its limit.
fn drawable(layout: &Layout, drawings: usize, format: Format) -> bool {
    let edges = layout.setting.graph.as_ref().map_or(0, |g| g.edge_count());
    let shapes = (layout.rows * layout.cols).saturating_add(edges).saturating_mul(drawings.max(1));
    layout.setting.states.get() == 2 && shapes <= format.max_shapes()
}

/// A board with its presses (red dots) when given, titled `title_end`
/// after its size (a graph: after what it is), as `solve --svg` draws it.
fn board_scene(
    layout: &Layout,
    board: &[u8],
    presses: Option<&[u8]>,
    title_end: &str,
    format: Format,
) -> Option<Scene> {
    let (rows, cols) = (layout.rows, layout.cols);
    if !drawable(layout, 1, format) {
        return None;
    }
    let puzzle = layout.setting.puzzle(rows, cols).ok()?;
    let presses = presses.map(|p| grid(rows, cols, p));
    picture::board_on(&puzzle, &grid(rows, cols, board), presses.as_ref(), title_end).ok()
}

/// A solution: its board and its press set, titled `4 presses to white`
/// (or `impossible`), as `lightsout solve --svg` draws the best answer.
pub fn solution(
    layout: &Layout,
    board: &[u8],
    best: Option<(&Reached, &[u8])>,
    format: Format,
) -> Option<Scene> {
    match best {
        None => board_scene(layout, board, None, "impossible", format),
        Some((reached, cells)) => {
            let to = match reached {
                Reached::Name(name) => name.to_string(),
                Reached::State(state) => format!("state {state}"),
            };
            let title = format!("{} to {to}", presses(press_count(cells)));
            board_scene(layout, board, Some(cells), &title, format)
        }
    }
}

/// A hardest board and its lightest press set, titled by what was proven:
/// `one of the hardest: 7 presses to white`, or where only bounds were
/// reached `124 presses to white (no board needs more than 125)`.
pub fn hardest(
    layout: &Layout,
    board: &[u8],
    press_set: &[u8],
    lower: u64,
    upper: u64,
    goal: &str,
    format: Format,
) -> Option<Scene> {
    let title_end = if lower == upper {
        format!("one of the hardest: {} to {goal}", presses(lower))
    } else {
        format!("{} to {goal} (no board needs more than {upper})", presses(lower))
    };
    board_scene(layout, board, Some(press_set), &title_end, format)
}

/// The quiet patterns, a panel each, as `lightsout analyze --svg` draws
/// them; titled by the size, topology (or graph) and rule.
pub fn quiet_patterns(layout: &Layout, quiet: &[Vec<u8>], nullity: usize, format: Format) -> Option<Scene> {
    let (rows, cols) = (layout.rows, layout.cols);
    if !drawable(layout, quiet.len(), format) {
        return None;
    }
    let puzzle = layout.setting.puzzle(rows, cols).ok()?;
    let patterns: Vec<Grid> = quiet.iter().map(|q| grid(rows, cols, q)).collect();
    picture::quiet_patterns_on(&puzzle, &patterns, nullity).ok()
}

/// A scene as SVG text (`None` stays `None`: no picture).
pub fn svg(scene: Option<Scene>) -> Option<String> {
    let mut out = Vec::new();
    scene?.write_svg(&mut out).ok()?;
    String::from_utf8(out).ok()
}

/// A scene as PNG bytes (`None` stays `None`: no picture).
pub fn png<'py>(py: Python<'py>, scene: Option<Scene>) -> Option<Bound<'py, PyBytes>> {
    let mut out = Vec::new();
    scene?.write_png(&mut out).ok()?;
    Some(PyBytes::new(py, &out))
}
