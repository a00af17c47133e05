//! The groups of flags that several commands share: where boards come
//! from, their size, the puzzle (rule, torus, states, graph), memory,
//! random boards and pictures.

use std::path::PathBuf;
use std::sync::Arc;

use clap::Args;

use crate::cli::{GenerateArg, parse_density, parse_graph};
use crate::error::Side;
use crate::model::check_side;
use crate::present::{parse_bytes, parse_rule, topology};
use crate::zk::Modulus;
use crate::{Error, Generate, Graph, Puzzle, Rule};

/// Where boards come from: files, standard input, or a generator.
#[derive(Args, Debug, Clone)]
pub(super) struct BoardArgs {
    /// Board files (text of `b`/`w` rows, or PBM; digits or numbers, or PGM,
    /// with --states), answered in turn;
    /// standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    /// Rows per board (otherwise inferred from the input).
    #[arg(short, long, value_name = "R")]
    pub(super) rows: Option<usize>,
    /// Columns per board (otherwise inferred from the input).
    #[arg(short, long, value_name = "C")]
    pub(super) cols: Option<usize>,
    /// Make the board instead of reading one (needs --rows and --cols, or
    /// --graph).
    #[arg(short, long, value_enum, value_name = "KIND")]
    pub(super) generate: Option<GenerateArg>,
    #[command(flatten)]
    pub(super) random: RandomArgs,
    /// Whether the boards are a graph's (one row of its vertices): then a
    /// row of the wrong length is named by the graph, not by --cols.
    #[arg(skip)]
    pub(super) on_graph: bool,
}

impl BoardArgs {
    /// Refuses sizes out of range, and `--seed` and `--density` where they
    /// would change nothing: before anything is read.
    pub(super) fn refuse_unused(&self) -> Result<(), Error> {
        for (side, given) in [(Side::Rows, self.rows), (Side::Cols, self.cols)] {
            given.map_or(Ok(()), |n| check_side(side, n))?;
        }
        self.random.refuse_unused(self.generate, "--generate random")
    }

    /// On a graph, boards are one row of its vertices: the shape every
    /// reader and generator then takes.
    pub(super) fn take_graph_shape(&mut self, puzzle: &PuzzleArgs) {
        if let Some(graph) = &puzzle.graph {
            self.rows = Some(1);
            self.cols = Some(graph.vertex_count());
            self.on_graph = true;
        }
    }

    /// A board's error in the words of its input: on a graph, a row of the
    /// wrong length is one of the wrong number of vertices.
    pub(super) fn name_error(&self, error: Error) -> Error {
        match error {
            Error::Mismatch { source, side: Side::Cols, line, found, expected, .. } if self.on_graph => {
                Error::BadInput(format!(
                    "{source}: line {line} has {} but the graph has {expected} vertices",
                    crate::error::plural(found, "state")
                ))
            }
            e => e,
        }
    }

    /// The generator's recipe, when the board is made rather than read.
    pub(super) fn recipe(&self) -> Option<Generate> {
        self.generate.map(|kind| self.random.recipe(kind))
    }
}

/// The size of one board: `--rows` and `--cols`, both required unless
/// `--graph` gives the shape.
#[derive(Args, Debug, Clone, Copy)]
pub(super) struct SizeArgs {
    /// Rows of the board.
    #[arg(short, long, value_name = "R", required_unless_present = "graph", conflicts_with = "graph")]
    pub(super) rows: Option<usize>,
    /// Columns of the board.
    #[arg(short, long, value_name = "C", required_unless_present = "graph", conflicts_with = "graph")]
    pub(super) cols: Option<usize>,
}

impl SizeArgs {
    /// The board's rows and columns: the graph's one row of its vertices,
    /// or the sizes given (clap insists on one or the other).
    pub(super) fn shape(&self, graph: Option<&Graph>) -> (usize, usize) {
        match graph {
            Some(g) => (1, g.vertex_count()),
            None => (self.rows.unwrap_or(0), self.cols.unwrap_or(0)),
        }
    }
}

/// The states of a cell and the graph, for `generate` (which has no rule).
#[derive(Args, Debug, Clone)]
pub(super) struct ShapeArgs {
    /// States of a cell (2 to 255): boards of digits (K <= 10) or numbers.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..), value_name = "K")]
    pub(super) states: u8,
    /// A graph instead of a grid (graph6 or edge-list FILE, or a built-in
    /// NAME); a board is then one line of its vertices' states.
    #[arg(long, value_name = "FILE|NAME", value_parser = parse_graph)]
    pub(super) graph: Option<Arc<Graph>>,
}

/// How a random board is drawn.
#[derive(Args, Debug, Clone, Copy)]
pub(super) struct RandomArgs {
    /// Seed of a random board (default 0).
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// Fraction of black cells of a random board, in [0, 1] (default 0.5).
    #[arg(long, value_parser = parse_density)]
    pub(super) density: Option<f64>,
}

impl RandomArgs {
    /// The recipe of a board of `kind`.
    pub(super) fn recipe(&self, kind: GenerateArg) -> Generate {
        match kind {
            GenerateArg::AllBlack => Generate::AllBlack,
            GenerateArg::AllWhite => Generate::AllWhite,
            GenerateArg::Random => {
                Generate::Random { seed: self.seed.unwrap_or(0), density: self.density.unwrap_or(0.5) }
            }
        }
    }

    /// `--seed` and `--density` shape random boards only: given for
    /// another kind (or none), they would be ignored without a word.
    pub(super) fn refuse_unused(&self, kind: Option<GenerateArg>, random: &str) -> Result<(), Error> {
        if kind == Some(GenerateArg::Random) {
            return Ok(());
        }
        for (flag, given) in [("--seed", self.seed.is_some()), ("--density", self.density.is_some())] {
            if given {
                let what = match kind {
                    Some(GenerateArg::AllBlack) => "an all-black board",
                    Some(GenerateArg::AllWhite) => "an all-white board",
                    _ => "a board read from input",
                };
                return Err(Error::BadInput(format!("{flag} applies to {random} only, not to {what}")));
            }
        }
        Ok(())
    }
}

/// The memory a run may use.
#[derive(Args, Debug, Clone, Copy)]
pub(super) struct MemoryArgs {
    /// Refuse work estimated to need more memory than this (e.g. 512M, 4G),
    /// and input larger than it.
    #[arg(long, default_value = MAX_MEMORY_WORDS, value_parser = parse_bytes, value_name = "SIZE")]
    pub(super) max_memory: u64,
}

/// The library's [`DEFAULT_MAX_MEMORY`](crate::solve::DEFAULT_MAX_MEMORY)
/// as `--help` shows it.
const MAX_MEMORY_WORDS: &str = "1G";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_memory_default_is_the_librarys() {
        assert_eq!(parse_bytes(MAX_MEMORY_WORDS), Ok(crate::solve::DEFAULT_MAX_MEMORY));
    }
}

/// The shape of the puzzle besides its size: edges and press rule.
#[derive(Args, Debug, Clone)]
pub(super) struct PuzzleArgs {
    /// Wrap rows and columns around (a torus). On a torus narrower than the
    /// rule, a cell reached twice by one press is flipped once.
    #[arg(long)]
    pub(super) torus: bool,
    /// What a press flips: plus (the cell and its 4 neighbours), neighbours
    /// (the 4 neighbours only), king (the 3x3 block), or a mask of 0/1 rows
    /// like 010/111/010 (odd sides; the centre is the pressed cell). On a
    /// graph: plus (a vertex and its neighbours, σ⁺) or neighbours (σ).
    #[arg(long, default_value = "plus", value_parser = parse_rule)]
    pub(super) rule: Rule,
    /// States of a cell, 2 to 255: a press adds 1 (mod K) to each cell it
    /// reaches. Boards of more than two states are rows of digits (K <= 10)
    /// or of numbers separated by spaces, or PGM images.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(2..), value_name = "K")]
    pub(super) states: u8,
    /// Lights Out on a graph instead of a grid: a graph6 or edge-list FILE,
    /// or a built-in NAME (petersen, cycle:N, path:N, complete:N,
    /// hypercube:D, cube). A board is one line of its vertices' states.
    #[arg(long, value_name = "FILE|NAME", value_parser = parse_graph)]
    pub(super) graph: Option<Arc<Graph>>,
}

impl PuzzleArgs {
    /// The flags that name `puzzle` with `states` per cell (a record's
    /// problem read back).
    pub(super) fn of(puzzle: &Puzzle, states: u8) -> PuzzleArgs {
        PuzzleArgs {
            torus: puzzle.topology() == crate::Topology::Torus,
            rule: puzzle.rule().clone(),
            states,
            graph: puzzle.graph().cloned().map(std::sync::Arc::new),
        }
    }

    /// The puzzle of this shape and size (on a graph, the graph's: one row
    /// of its vertices, whatever the size).
    pub(super) fn puzzle(&self, rows: usize, cols: usize) -> Result<Puzzle, Error> {
        if let Some(graph) = &self.graph {
            return Puzzle::on_graph(graph.clone(), self.rule.clone()).map_err(|e| match e {
                Error::Unsupported(_) => Error::BadInput(format!(
                    "--rule {} is not a rule on a graph: use plus or neighbours",
                    self.rule
                )),
                e => e,
            });
        }
        Ok(Puzzle::new(rows, cols)?.with_topology(topology(self.torus)).with_rule(self.rule.clone()))
    }

    /// Whether this is the classic rule on the plane.
    pub(super) fn is_classic(&self) -> bool {
        !self.torus && self.rule.is_plus() && self.graph.is_none()
    }

    /// The states of a cell as the library's modulus (clap kept it in
    /// 2..=255).
    pub(super) fn modulus(&self) -> Modulus {
        Modulus::new(u32::from(self.states)).unwrap_or_else(|_| unreachable!("clap checks --states"))
    }

    /// Refuses what does not go with a graph: a torus, and a board size
    /// (the graph gives it).
    pub(super) fn refuse_unused(&self, rows: Option<usize>, cols: Option<usize>) -> Result<(), Error> {
        if self.graph.is_some() {
            if self.torus {
                return Err(Error::BadInput("--torus is for grids; a graph has its own edges".into()));
            }
            if rows.is_some() || cols.is_some() {
                return Err(Error::BadInput(
                    "--graph gives the board's shape (one line of its vertices' states); drop --rows and --cols"
                        .into(),
                ));
            }
        }
        Ok(())
    }
}

/// Where to draw a command's picture.
#[derive(Args, Debug, Clone)]
pub(super) struct PictureArgs {
    /// Write the picture as a PNG image (FILE ends in .png, or has no
    /// extension).
    #[arg(long, value_name = "FILE", value_parser = picture_path("png"))]
    pub(super) png: Option<PathBuf>,
    /// Write the picture as an SVG image (FILE ends in .svg, or has no
    /// extension).
    #[arg(long, value_name = "FILE", value_parser = picture_path("svg"))]
    pub(super) svg: Option<PathBuf>,
}

/// A picture's path, refused when its extension names another format
/// (`--png x.jpg` wrote PNG bytes into a file named .jpg).
fn picture_path(format: &'static str) -> impl Fn(&str) -> Result<PathBuf, String> + Clone {
    move |s: &str| {
        let path = PathBuf::from(s);
        match path.extension().and_then(|e| e.to_str()) {
            Some(ext) if !ext.eq_ignore_ascii_case(format) => {
                Err(format!("writes {} images; name the file .{format}, not .{ext}", format.to_uppercase()))
            }
            _ => output_path(s),
        }
    }
}

/// A file a command writes: a name, and not `-`, which would mix the file
/// with the answers on standard output (it once made a file named `-`).
pub(super) fn output_path(s: &str) -> Result<PathBuf, String> {
    match s {
        "" => Err("expected a file name".into()),
        "-" => Err("writes a file, and standard output carries the answers: name a file".into()),
        _ => Ok(PathBuf::from(s)),
    }
}

/// A `--checkpoint` file: saved again and again and read back to resume,
/// so standard input or output (`-`) cannot hold it.
pub(super) fn checkpoint_path(s: &str) -> Result<PathBuf, String> {
    match s {
        "" => Err("expected a file name".into()),
        "-" => Err("is saved again and again and read back to resume: name a file".into()),
        _ => Ok(PathBuf::from(s)),
    }
}

impl PictureArgs {
    pub(super) fn wanted(&self) -> bool {
        self.png.is_some() || self.svg.is_some()
    }
}
