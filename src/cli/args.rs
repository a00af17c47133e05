//! The command line's arguments: what clap parses, and the small parsers
//! of values (sizes, densities, byte counts) it calls.

use std::sync::Arc;

use super::*;
use crate::Graph;
use crate::zk::Modulus;

/// Solve Lights Out / Flip Game boards of any size with linear algebra over GF(2).
///
/// With no subcommand, `lightsout` solves: it reads boards of `b`/`w` rows
/// from FILE or standard input and prints, per board, the fewest presses that
/// make it all white or all black, or `Impossible` (the POJ 1753 format).
#[derive(Parser, Debug)]
#[command(name = "lightsout", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    pub(super) command: Option<Command>,
    #[command(flatten)]
    pub(super) solve: SolveArgs,
}

#[derive(Subcommand, Debug)]
pub(super) enum Command {
    /// Solve boards (the default).
    Solve(SolveArgs),
    /// Check the solver against breadth-first search on every board of a size
    /// (at most 25 cells).
    Verify(VerifyArgs),
    /// Print a board (all black, all white or seeded random) as text or PBM,
    /// row by row, to feed back in later.
    Generate(GenerateArgs),
    /// Describe a size: rank, nullity, how many boards are solvable, the
    /// quiet patterns, and for the classic plane the gcd polynomial.
    Analyze(AnalyzeArgs),
    /// Say whether boards can reach each target, and if not, which quiet
    /// pattern proves it.
    Check(CheckArgs),
    /// Tabulate the nullity over ranges of sizes.
    Table(TableArgs),
    /// Combine the partial results of `--shard K/N` runs into the proven
    /// minimum (every slice of one problem exactly once).
    Merge(MergeArgs),
    /// Print a shell completion script, e.g. `lightsout completions bash >
    /// ~/.local/share/bash-completion/completions/lightsout`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), e.g. `lightsout man > lightsout.1`.
    Man,
    /// Serve the explorer page and its JSON API (on 127.0.0.1 unless --bind).
    Serve(crate::serve::ServeArgs),
}

#[derive(Args, Debug)]
pub(super) struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    pub(super) shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
pub(super) struct GenerateArgs {
    /// What board to make.
    #[arg(value_enum)]
    pub(super) kind: GenerateArg,
    #[command(flatten)]
    pub(super) size: SizeArgs,
    #[command(flatten)]
    pub(super) random: RandomArgs,
    #[command(flatten)]
    pub(super) shape: ShapeArgs,
    /// Write a PBM image instead of `b`/`w` text (two states).
    #[arg(long, value_enum, value_name = "KIND")]
    pub(super) pbm: Option<PbmArg>,
    /// Write a PGM image instead of text (more than two states).
    #[arg(long, value_enum, value_name = "KIND", conflicts_with = "pbm")]
    pub(super) pgm: Option<PbmArg>,
}

#[derive(Args, Debug)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    pub(super) source: BoardArgs,
    /// What to reach: any (the fewer presses: either colour, or any uniform
    /// state with --states), white, black, either, a state number (every
    /// cell in it; 0 white, 1 black), or a board file (a file named like a
    /// number is written ./2).
    #[arg(short, long, default_value = "any", value_parser = parse_target, value_name = "TARGET")]
    pub(super) target: TargetArg,
    #[command(flatten)]
    pub(super) puzzle: PuzzleArgs,
    /// Also print the press grid (`x` press, `.` none) and the board reached.
    #[arg(long)]
    pub(super) show: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Poj)]
    pub(super) format: Format,
    /// Largest nullity whose 2^d solutions are all searched for the minimum;
    /// beyond it a local search answers, marked "not proven minimal" unless
    /// it meets its lower bound.
    #[arg(long, default_value_t = DEFAULT_MAX_NULLITY, value_parser = parse_max_nullity)]
    pub(super) max_nullity: usize,
    /// How to solve the linear system.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub(super) method: MethodArg,
    /// Write the press grid of the best target as a PBM image (one image
    /// per solvable board; black pixel = press).
    #[arg(short, long, value_name = "FILE")]
    pub(super) output: Option<PathBuf>,
    /// PBM flavour for --output (default raw).
    #[arg(long, value_enum, value_name = "KIND")]
    pub(super) output_pbm: Option<PbmArg>,
    #[command(flatten)]
    pub(super) memory: MemoryArgs,
    #[command(flatten, next_help_heading = "Picture of the first board with the presses of its best answer")]
    pub(super) picture: PictureArgs,
    #[command(flatten, next_help_heading = "Long searches of one board")]
    pub(super) search: SearchArgs,
}

/// Where boards come from: files, standard input, or a generator.
#[derive(Args, Debug, Clone)]
pub(super) struct BoardArgs {
    /// Board files (text of `b`/`w` rows, or PBM), answered in turn;
    /// standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    /// Rows per board (otherwise inferred from the input).
    #[arg(short, long, value_name = "R")]
    pub(super) rows: Option<usize>,
    /// Columns per board (otherwise inferred from the input).
    #[arg(short, long, value_name = "C")]
    pub(super) cols: Option<usize>,
    /// Make the board instead of reading one (needs --rows and --cols).
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
    #[arg(long, default_value = "1G", value_parser = parse_bytes, value_name = "SIZE")]
    pub(super) max_memory: u64,
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
            _ if s.is_empty() => Err("expected a file name".into()),
            _ => Ok(path),
        }
    }
}

impl PictureArgs {
    pub(super) fn wanted(&self) -> bool {
        self.png.is_some() || self.svg.is_some()
    }
}

/// What `--target` names: colours, or a board file read once the boards'
/// shape is known.
#[derive(Clone, Debug)]
pub(super) enum TargetArg {
    Colours(&'static [Target]),
    /// Every uniform state, the fewest presses (for two states: either).
    Any,
    /// Every cell in this state.
    State(u32),
    File(PathBuf),
}

pub(super) fn parse_target(s: &str) -> Result<TargetArg, String> {
    if let Some(colours) = colour_targets(s) {
        return Ok(TargetArg::Colours(colours));
    }
    if s == "any" {
        return Ok(TargetArg::Any);
    }
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        // A file named like a number is written ./2.
        return s.parse().map(TargetArg::State).map_err(|_| format!("state {s} is not below 256"));
    }
    if s.is_empty() {
        return Err(format!("expected {TARGET_WORDS} or a board file"));
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

impl From<PbmArg> for PbmKind {
    fn from(p: PbmArg) -> PbmKind {
        match p {
            PbmArg::Raw => PbmKind::Raw,
            PbmArg::Plain => PbmKind::Plain,
        }
    }
}

#[derive(Args, Debug)]
pub(super) struct VerifyArgs {
    #[command(flatten)]
    pub(super) size: SizeArgs,
    #[command(flatten)]
    pub(super) puzzle: PuzzleArgs,
    /// How to solve the linear system.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub(super) method: MethodArg,
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

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum GenerateArg {
    AllBlack,
    AllWhite,
    Random,
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

pub(super) fn parse_max_nullity(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(d) if d <= 63 => Ok(d),
        _ => Err(format!("expected a whole number from 0 to 63, got '{s}'")),
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

/// Default --max-nullity of `analyze`: keeps it under a second on every
/// size up to 128x128.
pub(super) const ANALYZE_MAX_NULLITY: usize = 28;

#[derive(Args, Debug)]
pub(super) struct AnalyzeArgs {
    #[command(flatten)]
    pub(super) size: SizeArgs,
    #[command(flatten)]
    pub(super) puzzle: PuzzleArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = StudyFormat::Text)]
    pub(super) format: StudyFormat,
    /// Largest nullity searched exhaustively for the lightest quiet pattern
    /// (2^28 patterns take about a tenth of a second; beyond, a local search
    /// gives a light one, not proven lightest).
    #[arg(long, default_value_t = ANALYZE_MAX_NULLITY, value_parser = parse_max_nullity)]
    pub(super) max_nullity: usize,
    #[command(flatten)]
    pub(super) memory: MemoryArgs,
    #[command(flatten, next_help_heading = "Picture of the quiet patterns, a panel each")]
    pub(super) picture: PictureArgs,
}

#[derive(Args, Debug)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    pub(super) source: BoardArgs,
    #[command(flatten)]
    pub(super) puzzle: PuzzleArgs,
    /// What to reach: any (every uniform state is checked; for two states
    /// both colours, as either), white, black, a state number, or a board
    /// file.
    #[arg(short, long, default_value = "any", value_parser = parse_target, value_name = "TARGET")]
    pub(super) target: TargetArg,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = StudyFormat::Text)]
    pub(super) format: StudyFormat,
    #[command(flatten)]
    pub(super) memory: MemoryArgs,
}

#[derive(Args, Debug)]
pub(super) struct TableArgs {
    /// Rows: a range A..B (inclusive) or one number.
    #[arg(short, long, value_parser = parse_range, value_name = "A..B")]
    pub(super) rows: (usize, usize),
    /// Columns: a range C..D (inclusive) or one number.
    #[arg(short, long, value_parser = parse_range, value_name = "C..D")]
    pub(super) cols: (usize, usize),
    #[command(flatten)]
    pub(super) puzzle: PuzzleArgs,
    /// Output format: text (a grid), csv (rows,cols,nullity) or json (one
    /// object per size, one per line). Default text; with --png or --svg
    /// and no --format, the picture alone.
    #[arg(short, long, value_enum)]
    pub(super) format: Option<TableFormat>,
    #[command(flatten)]
    pub(super) memory: MemoryArgs,
    /// Compute only slice K of N of the rows (1 <= K <= N) and print it as
    /// one JSON line, for `lightsout merge`.
    #[arg(long, value_name = "K/N", value_parser = crate::Shard::parse)]
    pub(super) shard: Option<crate::Shard>,
    #[command(flatten, next_help_heading = "Picture of the table as a heat map")]
    pub(super) picture: PictureArgs,
}

/// Options of a long search (solve with one board).
#[derive(Args, Debug, Clone, Default)]
pub(super) struct SearchArgs {
    /// Search only slice K of N of the null space (1 <= K <= N) and print
    /// the partial result as one JSON line, for `lightsout merge`.
    #[arg(long, value_name = "K/N", value_parser = crate::Shard::parse)]
    pub(super) shard: Option<crate::Shard>,
    /// Save the search's state to FILE at least every --checkpoint-every
    /// seconds and on Ctrl-C or SIGTERM; the same command resumes from it.
    #[arg(long, value_name = "FILE")]
    pub(super) checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints (default 60; needs --checkpoint).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub(super) checkpoint_every: Option<f64>,
    /// Stop searching after this many seconds and report the best found,
    /// marked not proven minimal unless it is.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub(super) time_limit: Option<f64>,
}

impl SearchArgs {
    /// Whether the run is a long search rather than a plain solve.
    pub(super) fn wanted(&self) -> bool {
        self.shard.is_some()
            || self.checkpoint.is_some()
            || self.time_limit.is_some()
            || self.checkpoint_every.is_some()
    }
}

pub(super) fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v < 1e9 => Ok(v),
        _ => Err(format!("expected a number of seconds above 0, got '{s}'")),
    }
}

/// Arguments of `lightsout merge`.
#[derive(Args, Debug)]
pub(super) struct MergeArgs {
    /// Partial results of `--shard K/N` runs (one JSON line each).
    #[arg(required = true, value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    /// Output format: as solve's (poj, text, json) for searches, as
    /// table's (text, csv, json) for tables.
    #[arg(long, value_enum)]
    pub(super) format: Option<MergeFormat>,
    /// Also print the press grid and the board reached.
    #[arg(long)]
    pub(super) show: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(super) enum MergeFormat {
    Poj,
    Text,
    Json,
    Csv,
}

/// `--graph FILE|NAME`: a built-in name (petersen, cycle:N, path:N,
/// complete:N, hypercube:D, cube) when it is one, else a file of graph6 or
/// an edge list (a file named like a built-in is written ./cube).
pub(super) fn parse_graph(s: &str) -> Result<Arc<Graph>, String> {
    const BUILT_IN: [&str; 6] = ["petersen", "cycle:", "path:", "complete:", "hypercube:", "cube"];
    let named = BUILT_IN.iter().any(|b| s == *b || (b.ends_with(':') && s.starts_with(b)));
    if named {
        return Graph::named(s).map(Arc::new).map_err(|e| e.to_string());
    }
    let path = std::path::Path::new(s);
    let mut file = std::fs::File::open(path).map_err(|e| {
        format!("no built-in graph '{s}' (petersen, cycle:N, path:N, complete:N, hypercube:D, cube) and no readable file: {e}")
    })?;
    // A graph file is small next to what its boards' work needs: 256 MiB
    // holds graph6 of 45,000 vertices or an edge list of 20 million edges.
    let data = super::read_limited(&mut file, s, 256 << 20).map_err(|e| e.to_string())?;
    Graph::parse(&data, s).map(Arc::new).map_err(|e| e.to_string())
}
