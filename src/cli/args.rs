//! The command line's arguments: one struct per command, built from the
//! shared groups of `groups.rs` and the values of `values.rs`.

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::cli::{
    BoardArgs, BoardKind, Format, MemoryArgs, MergeFormat, MethodArg, PbmArg, PgmArg, PictureArgs,
    PuzzleArgs, RandomArgs, ShapeArgs, SizeArgs, StudyFormat, TableFormat, TargetArg, checkpoint_path,
    output_path, parse_duration, parse_fraction, parse_max_nullity, parse_seconds, parse_target, parse_work,
};
use crate::present::parse_range;
use crate::solve::DEFAULT_MAX_NULLITY;

/// Solve Lights Out / Flip Game boards of any size, of K states, or on any
/// graph, with linear algebra over GF(2) and Z_K.
///
/// With no subcommand, `lightsout` solves: it reads boards of `b`/`w` rows
/// from FILE or standard input and prints, per board, the fewest presses that
/// make it all white or all black, or `Impossible` (the POJ 1753 format).
/// With --states K, boards are rows of digits and the goal is any uniform
/// state; with --graph, a board is one line of the graph's vertices.
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
    /// The hardest boards of a size: the most presses a solvable board
    /// needs (Most Clicks), a board that needs them, and with
    /// --distribution how the boards spread over their fewest presses.
    Hardest(HardestArgs),
    /// Combine the partial results of `--shard K/N` runs into the proven
    /// minimum, the whole table or the whole hardest-boards distribution
    /// (every slice of one problem exactly once).
    Merge(MergeArgs),
    /// Print a shell completion script, e.g. `lightsout completions bash >
    /// ~/.local/share/bash-completion/completions/lightsout`.
    Completions(CompletionsArgs),
    /// Print the manual page (roff), e.g. `lightsout man > lightsout.1`.
    Man,
    /// Serve the explorer page and its JSON API (on 127.0.0.1 unless --bind).
    Serve(crate::serve::ServeArgs),
}

impl Command {
    /// The number of states the command's game has (`--states`; 2 for
    /// the commands without a game).
    pub(super) fn states(&self) -> u8 {
        match self {
            Command::Solve(args) => args.puzzle.states,
            Command::Verify(args) => args.puzzle.states,
            Command::Analyze(args) => args.puzzle.states,
            Command::Check(args) => args.puzzle.states,
            Command::Table(args) => args.puzzle.states,
            Command::Hardest(args) => args.puzzle.states,
            Command::Generate(_)
            | Command::Merge(_)
            | Command::Completions(_)
            | Command::Man
            | Command::Serve(_) => 2,
        }
    }
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
    pub(super) kind: BoardKind,
    #[command(flatten)]
    pub(super) size: SizeArgs,
    #[command(flatten)]
    pub(super) random: RandomArgs,
    #[command(flatten)]
    pub(super) shape: ShapeArgs,
    /// For random-solvable: the state every cell is to reach (white, black
    /// or a state number; default white, 0).
    #[arg(short, long, value_parser = parse_target, value_name = "TARGET")]
    pub(super) target: Option<TargetArg>,
    /// For random-solvable: what a press flips (as for solving; default plus).
    #[arg(long, value_parser = crate::present::parse_rule)]
    pub(super) rule: Option<crate::Rule>,
    /// For random-solvable: wrap rows and columns around (a torus).
    #[arg(long)]
    pub(super) torus: bool,
    /// Write a PBM image instead of `b`/`w` text (two states).
    #[arg(long, value_enum, value_name = "KIND")]
    pub(super) pbm: Option<PbmArg>,
    /// Write a PGM image instead of text (more than two states).
    #[arg(long, value_enum, value_name = "KIND", conflicts_with = "pbm")]
    pub(super) pgm: Option<PgmArg>,
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
    /// Whether `--max-nullity` was on the command line (set by `cli::run`
    /// from clap's matches): without it, K states limit a board's work.
    #[arg(skip)]
    pub(super) max_nullity_asked: bool,
    /// How to solve the linear system.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    pub(super) method: MethodArg,
    /// Write the press grid of the best target as a PBM image (one image
    /// per solvable board; black pixel = press).
    #[arg(short, long, value_name = "FILE", value_parser = output_path)]
    pub(super) output: Option<PathBuf>,
    /// PBM flavour for --output (default raw); with --states, the PGM flavour (raw P5, plain P2).
    #[arg(long, value_enum, value_name = "KIND")]
    pub(super) output_pbm: Option<PbmArg>,
    #[command(flatten)]
    pub(super) memory: MemoryArgs,
    #[command(flatten, next_help_heading = "Picture of the first board with the presses of its best answer")]
    pub(super) picture: PictureArgs,
    #[command(flatten, next_help_heading = "Long searches of one board")]
    pub(super) search: SearchArgs,
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
    /// gives a light one, not proven lightest); with --states K, the log2 of
    /// the kernel members searched [default: 28; 24 with --states K]
    #[arg(long, value_parser = parse_max_nullity)]
    pub(super) max_nullity: Option<usize>,
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
    #[arg(long, value_name = "K/N", value_parser = crate::solve::Shard::parse)]
    pub(super) shard: Option<crate::solve::Shard>,
    #[command(flatten, next_help_heading = "Picture of the table as a heat map")]
    pub(super) picture: PictureArgs,
}

#[derive(Args, Debug)]
pub(super) struct HardestArgs {
    /// Rows of the board, or a range A..B of them (inclusive): then Most
    /// Clicks of every size in the ranges, as a table.
    #[arg(
        short,
        long,
        value_name = "R",
        value_parser = super::values::parse_sizes,
        required_unless_present = "graph",
        conflicts_with = "graph"
    )]
    pub(super) rows: Option<super::values::Sizes>,
    /// Columns of the board, or a range C..D of them.
    #[arg(
        short,
        long,
        value_name = "C",
        value_parser = super::values::parse_sizes,
        required_unless_present = "graph",
        conflicts_with = "graph"
    )]
    pub(super) cols: Option<super::values::Sizes>,
    #[command(flatten)]
    pub(super) puzzle: PuzzleArgs,
    /// What every board is weighed to: a state number (default 0, white),
    /// any (each board to the uniform state nearest it), or for two states
    /// white, black or either.
    #[arg(short, long, default_value = "0", value_name = "TARGET")]
    pub(super) target: String,
    /// Output format: text or json; for a table of sizes also csv
    /// (rows,cols,nullity,lower,upper,proven,...).
    #[arg(short, long, value_enum, default_value_t = TableFormat::Text)]
    pub(super) format: TableFormat,
    /// Also count the boards of every fewest-presses value (refused when
    /// the count would pass the work budget).
    #[arg(long)]
    pub(super) distribution: bool,
    /// Stop after this many seconds and report the bounds reached (for a
    /// table of sizes, the sizes weighed by then).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(super) time_limit: Option<f64>,
    /// Most member weighings (one member weighed against one class of
    /// cells) the searches and the count may make: 2^37 unless given, about
    /// 14 s of counting boards (1e10 a second) or, with half of it, 2
    /// CPU-minutes of the exact search (5e8 a second; 9x9 is proven in about
    /// 20), which stops sooner once it moves no bound for 1/32 of the budget
    /// (about 9 s), e.g. 1e12 for a larger distribution or tighter bounds.
    /// For a table of sizes, the whole table's: the sizes in order of
    /// nullity each get an even share of what the ones before left.
    #[arg(long, value_name = "N", value_parser = parse_work)]
    pub(super) max_work: Option<u64>,
    /// With --distribution: count only slice K of N of the boards (1 <= K
    /// <= N; --max-work then bounds one slice) and print its record as one
    /// JSON line, for `lightsout merge`.
    #[arg(long, value_name = "K/N", value_parser = crate::solve::Shard::parse)]
    pub(super) shard: Option<crate::solve::Shard>,
    /// With --shard: save the slice's count so far to FILE at least every
    /// --checkpoint-every seconds, at --time-limit and on Ctrl-C or
    /// SIGTERM; the same command goes on from it.
    #[arg(long, value_name = "FILE", value_parser = checkpoint_path)]
    pub(super) checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints (default 60; needs --checkpoint).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub(super) checkpoint_every: Option<f64>,
    /// Write the hardest board to FILE as a PBM image (two states) or PGM
    /// (more), to solve later: `lightsout -t TARGET FILE`.
    #[arg(short, long, value_name = "FILE", value_parser = output_path)]
    pub(super) output: Option<PathBuf>,
    #[command(flatten)]
    pub(super) memory: MemoryArgs,
    #[command(flatten, next_help_heading = "Picture of --distribution as a histogram")]
    pub(super) picture: PictureArgs,
}

/// Options of a long search (solve with one board).
#[derive(Args, Debug, Clone, Default)]
pub(super) struct SearchArgs {
    /// Search only slice K of N of the null space (1 <= K <= N) and print
    /// the partial result as one JSON line, for `lightsout merge`.
    #[arg(long, value_name = "K/N", value_parser = crate::solve::Shard::parse)]
    pub(super) shard: Option<crate::solve::Shard>,
    /// Save the search's state to FILE at least every --checkpoint-every
    /// seconds and on Ctrl-C or SIGTERM; the same command resumes from it.
    #[arg(long, value_name = "FILE", value_parser = checkpoint_path)]
    pub(super) checkpoint: Option<PathBuf>,
    /// Seconds between checkpoints (default 60; needs --checkpoint).
    #[arg(long, value_name = "SECS", value_parser = parse_seconds)]
    pub(super) checkpoint_every: Option<f64>,
    /// Stop searching after this many seconds and report the best found,
    /// marked not proven minimal unless it is.
    #[arg(long, value_name = "SECS", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub(super) time_limit: Option<f64>,
    /// Look only for press sets of at most W presses (branch and bound:
    /// a known upper bound prunes far more than a local search's); the
    /// search proves "none lighter than W" when it finds none.
    #[arg(long, value_name = "W")]
    pub(super) incumbent: Option<u64>,
    /// Print the estimated work of the exact search (and core-hours at
    /// the rates measured on the way) without searching.
    #[arg(long)]
    pub(super) estimate: bool,
    /// With --estimate: also print the slice count N (for --shard K/N)
    /// that makes a slice take about this long on one core (600, 90s,
    /// 10m, 1.5h, 2d).
    #[arg(long, value_name = "TIME", value_parser = parse_duration, requires = "estimate")]
    pub(super) slice_time: Option<f64>,
    /// Exact engine: auto (branch and bound from nullity 48), transform
    /// or branch. Every shard of one job must use the same.
    #[arg(long, value_enum, value_name = "ENGINE")]
    pub(super) engine: Option<EngineArg>,
    /// Branch and bound: free bits left to the transform at the leaves
    /// (default 0: pure branch and bound, the fastest on 79x79). For
    /// measurements; every shard of one job must use the same.
    #[arg(long, value_name = "BITS", value_parser = clap::value_parser!(u8).range(0..=32))]
    pub(super) leaf_bits: Option<u8>,
}

/// The exact engine of a long search.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(super) enum EngineArg {
    Auto,
    Transform,
    Branch,
}

impl SearchArgs {
    /// Whether the run is a long search rather than a plain solve.
    pub(super) fn wanted(&self) -> bool {
        self.shard.is_some()
            || self.checkpoint.is_some()
            || self.time_limit.is_some()
            || self.checkpoint_every.is_some()
            || self.incumbent.is_some()
            || self.estimate
            || self.engine.is_some()
            || self.leaf_bits.is_some()
    }
}

/// Arguments of `lightsout merge`.
#[derive(Args, Debug)]
pub(super) struct MergeArgs {
    /// Partial results of `--shard K/N` runs (one JSON line each); a
    /// folder stands for every `.json` file in it.
    #[arg(required = true, value_name = "FILE")]
    pub(super) files: Vec<PathBuf>,
    /// Output format: as solve's (poj, text, json) for searches, as
    /// table's (text, csv, json) for tables, as hardest's (text, json) for
    /// distributions.
    #[arg(short, long, value_enum)]
    pub(super) format: Option<MergeFormat>,
    /// Also print the press grid and the board reached.
    #[arg(long)]
    pub(super) show: bool,
    /// Search again this share of each slice's blocks, picked at random,
    /// and refuse a slice if they hold a member lighter than it claims
    /// (a spot check of the work; the checksum only shows damage); for
    /// hardest-boards records, count this share of the slices again.
    #[arg(long, value_name = "SHARE", value_parser = parse_fraction)]
    pub(super) recheck: Option<f64>,
}
