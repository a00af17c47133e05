//! The command line's arguments: what clap parses, and the small parsers
//! of values (sizes, densities, byte counts) it calls.

use super::*;

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
    Merge(search::MergeArgs),
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
    /// Rows of the board.
    #[arg(short, long, value_name = "R")]
    pub(super) rows: usize,
    /// Columns of the board.
    #[arg(short, long, value_name = "C")]
    pub(super) cols: usize,
    /// Seed for random (default 0).
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// Fraction of black cells for random, in [0, 1] (default 0.5).
    #[arg(long, value_parser = parse_density)]
    pub(super) density: Option<f64>,
    /// Write a PBM image instead of `b`/`w` text.
    #[arg(long, value_enum, value_name = "KIND")]
    pub(super) pbm: Option<PbmArg>,
}

#[derive(Args, Debug)]
pub(super) struct SolveArgs {
    #[command(flatten)]
    pub(super) source: BoardArgs,
    /// What to reach: white, black, either (the fewer presses), or a board
    /// file to reach.
    #[arg(short, long, default_value = "either", value_parser = study::parse_target, value_name = "TARGET")]
    pub(super) target: TargetArg,
    #[command(flatten)]
    pub(super) puzzle: PuzzleArgs,
    /// Pictures of the first board with the presses of its best answer.
    #[command(flatten)]
    pub(super) picture: PictureArgs,
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
    /// Refuse work estimated to need more memory than this (e.g. 512M, 4G),
    /// and input larger than it.
    #[arg(long, default_value = "1G", value_parser = parse_bytes, value_name = "SIZE")]
    pub(super) max_memory: u64,
    /// Long searches of one board.
    #[command(flatten)]
    pub(super) search: search::SearchArgs,
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
    /// Seed for --generate random (default 0).
    #[arg(long)]
    pub(super) seed: Option<u64>,
    /// Fraction of black cells for --generate random, in [0, 1] (default 0.5).
    #[arg(long, value_parser = parse_density)]
    pub(super) density: Option<f64>,
}

impl BoardArgs {
    /// Refuses `--seed` and `--density` where they would change nothing.
    pub(super) fn refuse_unused(&self) -> Result<(), Error> {
        unused_random_flags(self.generate, self.seed, self.density, "--generate random")
    }
}

/// `--seed` and `--density` shape random boards only: given for another
/// kind (or none), they would be ignored without a word.
pub(super) fn unused_random_flags(
    kind: Option<GenerateArg>,
    seed: Option<u64>,
    density: Option<f64>,
    random: &str,
) -> Result<(), Error> {
    if kind == Some(GenerateArg::Random) {
        return Ok(());
    }
    for (flag, given) in [("--seed", seed.is_some()), ("--density", density.is_some())] {
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
    /// Rows of the board.
    #[arg(short, long, value_name = "R")]
    pub(super) rows: usize,
    /// Columns of the board.
    #[arg(short, long, value_name = "C")]
    pub(super) cols: usize,
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

/// Parses `512M`, `2G`, `1.5GiB`, `1000000` (bytes) into bytes.
pub(crate) fn parse_bytes(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let split = t.find(|c: char| !(c.is_ascii_digit() || c == '.')).unwrap_or(t.len());
    let (number, unit) = t.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "k" | "kb" | "kib" => 1 << 10,
        "m" | "mb" | "mib" => 1 << 20,
        "g" | "gb" | "gib" => 1 << 30,
        "t" | "tb" | "tib" => 1 << 40,
        _ => return Err(format!("expected a size like 512M or 2G, got '{text}'")),
    };
    match number.parse::<f64>() {
        Ok(v) if v.is_finite() && v >= 0.0 && v * (scale as f64) < u64::MAX as f64 => {
            Ok((v * scale as f64) as u64)
        }
        _ => Err(format!("expected a size like 512M or 2G, got '{text}'")),
    }
}
