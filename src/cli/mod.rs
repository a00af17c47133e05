//! The command-line front: turns arguments into library calls and prints.
//!
//! It lives in the library, above everything else, so that tests and the
//! fuzz harness can run the whole command in-process ([`run`]); `main.rs`
//! only hands it the process's arguments and streams.

use std::io::{self, Read, Write};
use std::path::PathBuf;

use clap::{Args, CommandFactory, Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use serde_json::{Value, json};

mod search;
pub(crate) mod study;

use study::{AnalyzeArgs, CheckArgs, PictureArgs, PuzzleArgs, Reach, Solvers, TableArgs, TargetArg};

use crate::picture;
use crate::solve::limits;
use crate::{
    Chase, DEFAULT_MAX_NULLITY, Error, Generate, GeneratedRows, Goal, Grid, MAX_EXHAUSTIVE_NULLITY, MAX_SIDE,
    MAX_STREAMED_NULLITY, Method, PbmKind, PbmWriter, Puzzle, RowStream, Solution, Solver, Target,
    TextBoards, bfs, grid_lines, is_pbm, read_pbm, write_pbm,
};

/// Solve Lights Out / Flip Game boards of any size with linear algebra over GF(2).
///
/// With no subcommand, `lightsout` solves: it reads boards of `b`/`w` rows
/// from FILE or standard input and prints, per board, the fewest presses that
/// make it all white or all black, or `Impossible` (the POJ 1753 format).
#[derive(Parser, Debug)]
#[command(name = "lightsout", version, args_conflicts_with_subcommands = true)]
pub struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    solve: SolveArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
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
struct CompletionsArgs {
    /// The shell to complete for.
    #[arg(value_enum)]
    shell: clap_complete::Shell,
}

#[derive(Args, Debug)]
struct GenerateArgs {
    /// What board to make.
    #[arg(value_enum)]
    kind: GenerateArg,
    /// Rows of the board.
    #[arg(short, long, value_name = "R")]
    rows: usize,
    /// Columns of the board.
    #[arg(short, long, value_name = "C")]
    cols: usize,
    /// Seed for random (default 0).
    #[arg(long)]
    seed: Option<u64>,
    /// Fraction of black cells for random, in [0, 1] (default 0.5).
    #[arg(long, value_parser = parse_density)]
    density: Option<f64>,
    /// Write a PBM image instead of `b`/`w` text.
    #[arg(long, value_enum, value_name = "KIND")]
    pbm: Option<PbmArg>,
}

#[derive(Args, Debug)]
struct SolveArgs {
    #[command(flatten)]
    source: BoardArgs,
    /// What to reach: white, black, either (the fewer presses), or a board
    /// file to reach.
    #[arg(short, long, default_value = "either", value_parser = study::parse_target, value_name = "TARGET")]
    target: TargetArg,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Pictures of the first board with the presses of its best answer.
    #[command(flatten)]
    picture: PictureArgs,
    /// Also print the press grid (`x` press, `.` none) and the board reached.
    #[arg(long)]
    show: bool,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = Format::Poj)]
    format: Format,
    /// Largest nullity whose 2^d solutions are all searched for the minimum;
    /// beyond it a local search answers, marked "not proven minimal" unless
    /// it meets its lower bound.
    #[arg(long, default_value_t = DEFAULT_MAX_NULLITY, value_parser = parse_max_nullity)]
    max_nullity: usize,
    /// How to solve the linear system.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
    /// Write the press grid of the best target as a PBM image (one image
    /// per solvable board; black pixel = press).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// PBM flavour for --output (default raw).
    #[arg(long, value_enum, value_name = "KIND")]
    output_pbm: Option<PbmArg>,
    /// Refuse work estimated to need more memory than this (e.g. 512M, 4G),
    /// and input larger than it.
    #[arg(long, default_value = "1G", value_parser = parse_bytes, value_name = "SIZE")]
    max_memory: u64,
    /// Long searches of one board.
    #[command(flatten)]
    search: search::SearchArgs,
}

/// Where boards come from: files, standard input, or a generator.
#[derive(Args, Debug, Clone)]
pub(super) struct BoardArgs {
    /// Board files (text of `b`/`w` rows, or PBM), answered in turn;
    /// standard input when absent or `-`.
    #[arg(value_name = "FILE")]
    files: Vec<PathBuf>,
    /// Rows per board (otherwise inferred from the input).
    #[arg(short, long, value_name = "R")]
    rows: Option<usize>,
    /// Columns per board (otherwise inferred from the input).
    #[arg(short, long, value_name = "C")]
    cols: Option<usize>,
    /// Make the board instead of reading one (needs --rows and --cols).
    #[arg(short, long, value_enum, value_name = "KIND")]
    generate: Option<GenerateArg>,
    /// Seed for --generate random (default 0).
    #[arg(long)]
    seed: Option<u64>,
    /// Fraction of black cells for --generate random, in [0, 1] (default 0.5).
    #[arg(long, value_parser = parse_density)]
    density: Option<f64>,
}

impl BoardArgs {
    /// Refuses `--seed` and `--density` where they would change nothing.
    fn refuse_unused(&self) -> Result<(), Error> {
        unused_random_flags(self.generate, self.seed, self.density, "--generate random")
    }
}

/// `--seed` and `--density` shape random boards only: given for another
/// kind (or none), they would be ignored without a word.
fn unused_random_flags(
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
enum PbmArg {
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
struct VerifyArgs {
    /// Rows of the board.
    #[arg(short, long, value_name = "R")]
    rows: usize,
    /// Columns of the board.
    #[arg(short, long, value_name = "C")]
    cols: usize,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// How to solve the linear system.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum Format {
    /// The answer only: a number or `Impossible`.
    Poj,
    /// A few readable lines per board.
    Text,
    /// One JSON object per board, one per line.
    Json,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum GenerateArg {
    AllBlack,
    AllWhite,
    Random,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum MethodArg {
    Auto,
    Dense,
    Chase,
}

fn parse_density(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(p) if (0.0..=1.0).contains(&p) => Ok(p),
        _ => Err(format!("expected a number from 0 to 1, got '{s}'")),
    }
}

fn parse_max_nullity(s: &str) -> Result<usize, String> {
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

/// Runs the command line `args` (program name first) against the given
/// streams and returns the exit code: 0 answered, 2 bad input or usage,
/// 3 a limit refused the work, 70 an internal check failed.
///
/// # Example
/// ```
/// let mut out = Vec::new();
/// let code = lightsout::cli::run(["lightsout"], &mut &b"bwwb\nbbwb\nbwwb\nbwww\n"[..], &mut out, &mut Vec::new());
/// assert_eq!((code, out), (0, b"4\n".to_vec()));
/// ```
pub fn run<I, T>(args: I, stdin: &mut dyn Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    run_from(args, stdin, false, stdout, stderr)
}

/// As [`run`], saying whether `stdin` is a person at a terminal: then each
/// board is answered as soon as it is typed, after a one-line hint on
/// stderr. The binary passes the real answer; [`run`] says no (files,
/// pipes, a test's buffer).
pub fn run_from<I, T>(
    args: I,
    stdin: &mut dyn Read,
    stdin_is_terminal: bool,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    if let Some(message) = mistyped_command(&args) {
        let _ = writeln!(stderr, "lightsout: {message}");
        return 2;
    }
    let cli = match Cli::try_parse_from(args) {
        Ok(cli) => cli,
        Err(e) => return usage_error(&e, stdout, stderr),
    };
    let mut io = Streams { stdin, stdin_is_terminal, stdout, stderr };
    let result = match cli.command {
        None => solve(cli.solve, &mut io),
        Some(Command::Solve(args)) => solve(args, &mut io),
        Some(Command::Verify(args)) => verify(args, &mut io),
        Some(Command::Generate(args)) => generate(args, &mut io),
        Some(Command::Analyze(args)) => study::analyze(args, &mut io),
        Some(Command::Check(args)) => study::check(args, &mut io),
        Some(Command::Table(args)) => study::table(args, &mut io),
        Some(Command::Completions(args)) => completions(args, &mut io),
        Some(Command::Man) => man_page(&mut io),
        Some(Command::Merge(args)) => search::merge_command(args, &mut io),
        Some(Command::Serve(args)) => crate::serve::run(&args, io.stdout).map_err(Failure::from),
    };
    match result {
        Ok(code) => code,
        Err(Failure::Quiet) => 0,
        Err(Failure::Error(e)) => {
            let _ = writeln!(io.stderr, "lightsout: {e}");
            e.exit_code()
        }
    }
}

/// Help and version go to stdout (exit 0); a usage error becomes one line
/// on stderr (exit 2) that keeps what clap knew: the missing arguments by
/// name, its "similar argument" tip, the possible values.
fn usage_error(e: &clap::Error, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let text = e.render().to_string();
    if !e.use_stderr() {
        let _ = stdout.write_all(text.as_bytes());
        return 0;
    }
    let _ = writeln!(stderr, "lightsout: {} (see --help)", one_line(&text));
    2
}

/// Clap's several-line error as one line: the first line, the indented list
/// it introduces (`--rows <R>, --cols <C>`), then tips and possible values.
fn one_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim_end);
    let mut line = lines.next().unwrap_or("invalid arguments").trim_start_matches("error: ").to_string();
    let mut rest = lines.peekable();
    if line.ends_with(':') {
        let mut items = Vec::new();
        while let Some(item) = rest.next_if(|l| l.starts_with("  ")) {
            items.push(item.trim());
        }
        line = format!("{line} {}", items.join(", "));
    }
    for extra in rest.map(str::trim) {
        // "To pass '--show' as a value, use '-- --show'" would make it a
        // board file's name: not what someone who typed a flag meant.
        if let Some(tip) = extra.strip_prefix("tip: ").filter(|tip| !tip.starts_with("to pass")) {
            line += &format!("; {tip}");
        } else if extra.starts_with("[possible values") {
            line += &format!(" {extra}");
        }
    }
    line
}

/// A first argument that is no subcommand and no file, but a typing slip
/// away from a subcommand (`analyse`): the user meant the command, not a
/// board file to read.
fn mistyped_command(args: &[std::ffi::OsString]) -> Option<String> {
    let word = args.get(1)?.to_str()?;
    if word.starts_with('-') || std::path::Path::new(word).exists() {
        return None;
    }
    let command = Cli::command();
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    if names.contains(&word) {
        return None;
    }
    // One slip in a short name, two in a longer one (`analyse`, `tabel`).
    let near =
        names.into_iter().find(|name| edit_distance(word, name) <= if name.len() <= 3 { 1 } else { 2 })?;
    Some(format!("no command or file '{word}'; did you mean the command '{near}'? (see --help)"))
}

/// Levenshtein distance, for the short words of command names.
fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut current = vec![i + 1];
        for (j, cb) in b.iter().enumerate() {
            let substitute = previous[j] + usize::from(ca != *cb);
            current.push(substitute.min(previous[j + 1] + 1).min(current[j] + 1));
        }
        previous = current;
    }
    previous[b.len()]
}

/// The process's streams, or a test's buffers.
struct Streams<'a> {
    stdin: &'a mut dyn Read,
    /// Whether `stdin` is a person typing at a terminal.
    stdin_is_terminal: bool,
    stdout: &'a mut dyn Write,
    stderr: &'a mut dyn Write,
}

/// Why a run stopped early.
enum Failure {
    /// The reader went away (`lightsout … | head`): stop without a word.
    Quiet,
    Error(Error),
}

impl From<Error> for Failure {
    fn from(e: Error) -> Self {
        Failure::Error(e)
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Quiet
        } else {
            Failure::Error(Error::BadInput(format!("cannot write output: {e}")))
        }
    }
}

fn completions(args: CompletionsArgs, io: &mut Streams) -> Result<u8, Failure> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "lightsout", &mut script);
    io.stdout.write_all(&script)?;
    io.stdout.flush()?;
    Ok(0)
}

fn man_page(io: &mut Streams) -> Result<u8, Failure> {
    let mut page = Vec::new();
    clap_mangen::Man::new(Cli::command()).render(&mut page)?;
    io.stdout.write_all(&page)?;
    io.stdout.flush()?;
    Ok(0)
}

fn generate(args: GenerateArgs, io: &mut Streams) -> Result<u8, Failure> {
    unused_random_flags(Some(args.kind), args.seed, args.density, "random boards")?;
    Puzzle::new(args.rows, args.cols)?;
    let recipe = match args.kind {
        GenerateArg::AllBlack => Generate::AllBlack,
        GenerateArg::AllWhite => Generate::AllWhite,
        GenerateArg::Random => {
            Generate::Random { seed: args.seed.unwrap_or(0), density: args.density.unwrap_or(0.5) }
        }
    };
    let mut rows = GeneratedRows::new(recipe, args.cols);
    let mut row = vec![0u64; args.cols.div_ceil(64)];
    let out = io::BufWriter::new(&mut *io.stdout);
    match args.pbm {
        Some(kind) => {
            let mut pbm = PbmWriter::new(out, kind.into(), args.rows, args.cols)?;
            for _ in 0..args.rows {
                rows.next_row(&mut row);
                pbm.write_row(&row)?;
            }
            pbm.finish()?;
        }
        None => {
            let mut out = out;
            let mut line = Vec::with_capacity(args.cols + 1);
            for _ in 0..args.rows {
                rows.next_row(&mut row);
                line.clear();
                line.extend(
                    (0..args.cols).map(|c| if row[c / 64] >> (c % 64) & 1 == 1 { b'b' } else { b'w' }),
                );
                line.push(b'\n');
                out.write_all(&line)?;
            }
            out.flush()?;
        }
    }
    Ok(0)
}

/// Generated boards with more cells than this are solved row by row
/// (streamed) when only the press count, or a PBM of the presses, is asked.
const STREAM_ABOVE_CELLS: usize = 1 << 26;

impl SolveArgs {
    fn output_kind(&self) -> PbmKind {
        self.output_pbm.unwrap_or(PbmArg::Raw).into()
    }

    /// Refuses flags that would do nothing in this combination: silence
    /// would let the user believe they did something.
    fn refuse_unused(&self) -> Result<(), Error> {
        self.source.refuse_unused()?;
        if self.output_pbm.is_some() && self.output.is_none() {
            return Err(Error::BadInput(
                "--output-pbm sets the format of --output FILE; give --output too".into(),
            ));
        }
        if self.show && self.format == Format::Json {
            return Err(Error::BadInput(
                "--show adds grids to poj and text output; JSON already holds the press grid (\"solution\")"
                    .into(),
            ));
        }
        Ok(())
    }
}

fn solve(args: SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.refuse_unused()?;
    if args.search.wanted() {
        return search::solve(&args, io);
    }
    if let Some(code) = solve_streamed(&args, io)? {
        return Ok(code);
    }
    let dense = matches!(args.method, MethodArg::Dense);
    let too_big = |puzzle: &Puzzle| too_big_to_solve(&args, puzzle);
    let mut input = read_input(
        &args.source,
        &args.puzzle,
        dense,
        args.max_memory,
        &too_big,
        io.stdin,
        io.stdin_is_terminal,
    )?;
    let typed = input.announce_typing(io.stderr);
    let reach = args.target.resolve(&args.source, args.max_memory)?;
    let mut output = match &args.output {
        Some(path) => Some(io::BufWriter::new(create(path)?)),
        None => None,
    };
    let mut solvers = Solvers::new(&args.puzzle, args.method.into(), args.max_nullity, args.max_memory);
    let mut out = io::BufWriter::new(&mut *io.stdout);
    for (index, board) in boards(&mut input, &args.source).enumerate() {
        let (board, index) = (&board?, index + 1);
        let shape = (board.nrows(), board.ncols());
        if index == 1 && args.picture.wanted() {
            args.picture.check_size(board.nrows() * board.ncols())?;
        }
        let solver = solvers.for_board(board)?;
        // The answers stay where the solver put them; the report borrows.
        let (answer, custom);
        let entries: Entries = match &reach {
            Reach::Board(goal) => {
                custom = solver.solve_to(board, goal)?;
                Entries::from_iter([("target", &custom)])
            }
            Reach::Goal(goal) => {
                answer = solver.solve(board, *goal)?;
                let mut entries = Entries::new();
                for (name, solution) in [("white", &answer.white), ("black", &answer.black)] {
                    if let Some(solution) = solution {
                        entries.push((name, solution));
                    }
                }
                entries
            }
        };
        let report = Report { index, board, solver, entries };
        report.warn_if_not_proven(io.stderr, args.max_nullity);
        let text = match args.format {
            Format::Poj => report.poj(args.show),
            Format::Text => report.text(args.show),
            Format::Json => report.json() + "\n",
        };
        out.write_all(text.as_bytes())?;
        if typed {
            out.flush()?;
        }
        if let (Some(file), Some((_, best))) = (output.as_mut(), report.best()) {
            write_pbm(&mut *file, args.output_kind(), &best.presses).map_err(|e| output_error(&args, e))?;
        }
        if index == 1 && args.picture.wanted() {
            let title = format!("{}x{} board, {}", shape.0, shape.1, report.best_summary());
            args.picture.write(&picture::board(board, report.best().map(|(_, s)| &s.presses), &title))?;
        }
    }
    out.flush()?;
    if let Some(mut file) = output {
        file.flush().map_err(|e| output_error(&args, e))?;
    }
    Ok(0)
}

/// A smaller board or more memory: the hint that always works.
const SMALLER_OR_MORE_MEMORY: &str = "give a smaller board, or a larger --max-memory if the machine has it";

/// What to change so that a generated board too large to solve in memory
/// is solved: only changes that work (the streamed path's conditions are
/// those of [`solve_streamed`]).
fn too_big_to_solve(args: &SolveArgs, puzzle: &Puzzle) -> String {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    if !puzzle.is_classic() {
        return format!("the torus and other rules are solved in memory only; {SMALLER_OR_MORE_MEMORY}");
    }
    let dense = matches!(args.method, MethodArg::Dense);
    if rows.saturating_mul(cols) > STREAM_ABOVE_CELLS {
        let uniform =
            args.source.generate.is_some_and(|kind| generate_recipe(&args.source, kind).is_uniform());
        let changes: Vec<&str> = [
            (dense, "drop --method dense"),
            (args.show, "drop --show"),
            (args.format == Format::Json, "use --format poj or text"),
            (args.picture.wanted(), "drop --png and --svg"),
            (matches!(args.target, TargetArg::Board(_)), "give --target a colour"),
            (rows < cols && (!uniform || args.output.is_some()), "give the longer side as --rows"),
        ]
        .into_iter()
        .filter_map(|(applies, change)| applies.then_some(change))
        .collect();
        if !changes.is_empty() {
            return format!(
                "boards this large are streamed when only the press count is asked: {}",
                changes.join(", ")
            );
        }
    }
    if dense && limits::solve_bytes(puzzle, false) <= args.max_memory {
        return "try --method chase".into();
    }
    SMALLER_OR_MORE_MEMORY.into()
}

fn create(path: &std::path::Path) -> Result<std::fs::File, Error> {
    std::fs::File::create(path).map_err(|e| Error::BadInput(format!("cannot create {}: {e}", path.display())))
}

fn output_error(args: &SolveArgs, e: io::Error) -> Error {
    let name = args.output.as_ref().map_or(String::new(), |p| p.display().to_string());
    Error::BadInput(format!("cannot write {name}: {e}"))
}

/// Solves a large generated board of the classic puzzle row by row, never
/// holding it whole; `None` when the request is not of that kind.
fn solve_streamed(args: &SolveArgs, io: &mut Streams) -> Result<Option<u8>, Failure> {
    let (Some(kind), Some(mut rows), Some(mut cols)) =
        (args.source.generate, args.source.rows, args.source.cols)
    else {
        return Ok(None);
    };
    let recipe = generate_recipe(&args.source, kind);
    let big = rows.saturating_mul(cols) > STREAM_ABOVE_CELLS;
    let special = args.picture.wanted() || !args.puzzle.is_classic();
    if !big || special || args.show || args.format == Format::Json || matches!(args.method, MethodArg::Dense)
    {
        return Ok(None);
    }
    if rows < cols {
        // Streams run down the longer side. A uniform board is its own
        // transpose, so only its press grid would come out transposed.
        if !recipe.is_uniform() || args.output.is_some() {
            return Ok(None);
        }
        std::mem::swap(&mut rows, &mut cols);
    }
    let puzzle = Puzzle::new(rows, cols)?;
    let chase = Chase::new(&puzzle);
    let max_nullity = args.max_nullity.min(MAX_STREAMED_NULLITY);
    let mut stream = RowsShown::new(GeneratedRows::new(recipe, cols), rows, cols);
    let mut counts = Vec::new();
    let TargetArg::Goal(goal) = args.target else {
        return Ok(None);
    };
    for &target in goal.targets() {
        let result = chase.solve_streamed(&mut stream, target, max_nullity, &mut |_| Ok(()))?;
        counts.push((target, result));
    }
    let best = counts.iter().filter_map(|&(t, r)| Some((t, r?))).min_by_key(|&(_, (presses, _))| presses);
    if let (Some(path), Some((target, _))) = (&args.output, best) {
        let file = io::BufWriter::new(create(path)?);
        let mut pbm =
            PbmWriter::new(file, args.output_kind(), rows, cols).map_err(|e| output_error(args, e))?;
        chase.solve_streamed(&mut stream, target, max_nullity, &mut |row| {
            pbm.write_row(row).map_err(|e| output_error(args, e))
        })?;
        pbm.finish().map_err(|e| output_error(args, e))?;
    }
    stream.bar.finish_and_clear();
    // With `either`, only the answer given is noted (see `warn_if_not_proven`).
    let answered = |target: Target| counts.len() == 1 || best.is_some_and(|(best, _)| best == target);
    for &(target, result) in counts.iter().filter(|(target, _)| answered(*target)) {
        if let Some((presses, false)) = result {
            let _ = writeln!(
                io.stderr,
                "lightsout: note: board 1, {}: {presses} presses, not proven minimal \
                 (nullity {} is more than a streamed search weighs: at most {max_nullity}, and 2^d times \
                 the board within about a minute)",
                target.name(),
                chase.nullity()
            );
        }
    }
    let best = best.map(|(t, (presses, _))| (t.name(), presses));
    let text = match args.format {
        Format::Poj => poj_line(best),
        _ => {
            let (rows, cols) = (args.source.rows.unwrap_or(rows), args.source.cols.unwrap_or(cols));
            let mut text = header_line(1, rows, cols, chase.nullity());
            for &(target, result) in &counts {
                text += &target_line(target.name(), result);
            }
            let presses = best.map_or(String::new(), |(_, count)| press_line(None, count));
            text + &best_line(best) + &presses
        }
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(Some(0))
}

/// Streamed boards of at least this many cells show their passes on a
/// terminal progress bar: each pass takes seconds from here on.
const SHOWN_STREAM_CELLS: usize = 1 << 30;

/// A streamed board's rows, counted on a progress bar as the solver reads
/// them; each restart is a new pass over the board.
struct RowsShown {
    rows: GeneratedRows,
    bar: indicatif::ProgressBar,
    passes: usize,
}

impl RowsShown {
    fn new(rows: GeneratedRows, count: usize, cols: usize) -> Self {
        let bar = match count.saturating_mul(cols) >= SHOWN_STREAM_CELLS {
            true => study::terminal_bar(count as u64, "rows"),
            false => indicatif::ProgressBar::hidden(),
        };
        RowsShown { rows, bar, passes: 0 }
    }
}

impl RowStream for RowsShown {
    fn cols(&self) -> usize {
        self.rows.cols()
    }

    fn restart(&mut self) {
        self.rows.restart();
        self.passes += 1;
        self.bar.set_position(0);
        self.bar.set_message(format!(" (pass {} over the board)", self.passes));
    }

    fn next_row(&mut self, out: &mut [u64]) {
        self.rows.next_row(out);
        self.bar.inc(1);
    }
}

fn generate_recipe(args: &BoardArgs, kind: GenerateArg) -> Generate {
    match kind {
        GenerateArg::AllBlack => Generate::AllBlack,
        GenerateArg::AllWhite => Generate::AllWhite,
        GenerateArg::Random => {
            Generate::Random { seed: args.seed.unwrap_or(0), density: args.density.unwrap_or(0.5) }
        }
    }
}

/// Where the boards come from.
enum Input<'r> {
    Generated(Grid),
    Bytes {
        data: Vec<u8>,
        source: String,
    },
    /// A person typing at a terminal: each board is answered as soon as it
    /// is complete, not at the end of input.
    Typed(io::BufReader<&'r mut dyn Read>),
    /// Several files, read one at a time when their turn comes (each within
    /// `max_memory`); their boards are numbered on from file to file.
    Files {
        paths: Vec<PathBuf>,
        max_memory: u64,
    },
}

impl Input<'_> {
    /// Whether the boards are typed at a terminal (then answers are flushed
    /// board by board); if so, tells the person on stderr, in one line.
    fn announce_typing(&self, stderr: &mut dyn Write) -> bool {
        let typed = matches!(self, Input::Typed(_));
        if typed {
            let _ = writeln!(stderr, "{TYPING_HINT}");
        }
        typed
    }
}

/// The one-line hint a person at a terminal gets when `lightsout` waits for
/// boards there (plain `lightsout`, no file).
const TYPING_HINT: &str = "lightsout: reading boards from the terminal: type rows of b and w; each board is answered \
     when complete (--rows rows, a square, or a blank line); Ctrl-D ends";

/// Makes the board, or reads the whole file or standard input.
/// `too_big` says what to change when a generated board is too large to
/// solve in memory: each command knows what works for it.
fn read_input<'r>(
    args: &BoardArgs,
    puzzle: &PuzzleArgs,
    dense: bool,
    max_memory: u64,
    too_big: &dyn Fn(&Puzzle) -> String,
    stdin: &'r mut dyn Read,
    stdin_is_terminal: bool,
) -> Result<Input<'r>, Error> {
    if let Some(kind) = args.generate {
        if !args.files.is_empty() {
            return Err(Error::BadInput("--generate makes the board; do not give a file too".into()));
        }
        let (Some(rows), Some(cols)) = (args.rows, args.cols) else {
            return Err(Error::BadInput("--generate needs --rows and --cols".into()));
        };
        let puzzle = puzzle.puzzle(rows, cols)?;
        let dense = dense || !puzzle.is_classic();
        limits::check(
            limits::solve_bytes(&puzzle, dense),
            max_memory,
            &format!("solving a {rows}x{cols} board in memory"),
            &too_big(&puzzle),
        )?;
        return Ok(Input::Generated(generate_recipe(args, kind).board(rows, cols)));
    }
    for (name, value) in [("--rows", args.rows), ("--cols", args.cols)] {
        if value == Some(0) {
            return Err(Error::BadInput(format!("{name} must be at least 1, got 0")));
        }
    }
    match args.files.as_slice() {
        [_, _, ..] => {
            if args.files.iter().any(|path| path.as_os_str() == "-") {
                return Err(Error::BadInput("standard input (-) can only be read as the one FILE".into()));
            }
            Ok(Input::Files { paths: args.files.clone(), max_memory })
        }
        [path] if path.as_os_str() != "-" => {
            let (data, source) = read_file(path, max_memory)?;
            Ok(Input::Bytes { data, source })
        }
        _ if stdin_is_terminal => Ok(Input::Typed(io::BufReader::new(stdin))),
        _ => {
            let source = "<stdin>".to_string();
            let data = read_limited(stdin, &source, max_memory)?;
            Ok(Input::Bytes { data, source })
        }
    }
}

/// The whole of the board file `path`, and its name for messages.
fn read_file(path: &std::path::Path, max_memory: u64) -> Result<(Vec<u8>, String), Error> {
    let source = path.display().to_string();
    let mut file =
        std::fs::File::open(path).map_err(|e| Error::BadInput(format!("cannot read {source}: {e}")))?;
    let data = read_limited(&mut file, &source, max_memory)?;
    Ok((data, source))
}

/// Longest text line accepted: a row of [`MAX_SIDE`] cells with room for
/// spaces around it.
const MAX_LINE: usize = MAX_SIDE + 4096;

/// Reads all of `reader`, refusing more than `max_bytes` in all and, for
/// text, any line longer than [`MAX_LINE`], as soon as either is seen (a
/// 2 GB line is not read to its end).
fn read_limited(reader: &mut dyn Read, source: &str, max_bytes: u64) -> Result<Vec<u8>, Error> {
    let mut data = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut line_length = 0usize;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(data),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::BadInput(format!("cannot read {source}: {e}"))),
        };
        if (data.len() + n) as u64 > max_bytes {
            return Err(Error::Limit(format!(
                "{source} is larger than --max-memory {}",
                limits::format_bytes(max_bytes)
            )));
        }
        data.extend_from_slice(&chunk[..n]);
        // PBM pixels are binary: only text has lines to bound.
        if is_pbm(&data) {
            continue;
        }
        // A line inside the chunk is shorter than the chunk, far below the
        // limit: only the lines that run across chunks need counting.
        let chunk = &chunk[..n];
        let too_long = match (memchr::memchr(b'\n', chunk), memchr::memrchr(b'\n', chunk)) {
            (Some(first), Some(last)) => {
                let crossing = line_length + first;
                line_length = n - last - 1;
                crossing > MAX_LINE
            }
            _ => {
                line_length += n;
                line_length > MAX_LINE
            }
        };
        if too_long {
            // The line that is too long began before this chunk.
            let line = memchr::memchr_iter(b'\n', &data[..data.len() - n]).count() + 1;
            return Err(Error::BadInput(format!(
                "{source}: line {line} is longer than {MAX_LINE} bytes (a row has at most {MAX_SIDE} cells)"
            )));
        }
    }
}

/// The boards of the input, in order. Text is parsed lazily, so a batch
/// stops at its first bad board after answering the ones before it.
fn boards<'a, 'r: 'a>(
    input: &'a mut Input<'r>,
    args: &'a BoardArgs,
) -> Box<dyn Iterator<Item = Result<Grid, Error>> + 'a> {
    let (data, source) = match input {
        Input::Generated(board) => return Box::new(std::iter::once(Ok(board.clone()))),
        Input::Bytes { data, source } => (&*data, &*source),
        Input::Typed(reader) => return Box::new(TypedBoards::new(reader, args.rows, args.cols)),
        Input::Files { paths, max_memory } => {
            let max_memory = *max_memory;
            return Box::new(paths.iter().flat_map(move |path| {
                // Each file's boards are parsed before its first is answered:
                // the file's bytes cannot outlive this step of the iterator.
                let boards: Vec<_> = match read_file(path, max_memory) {
                    Ok((data, source)) => boards(&mut Input::Bytes { data, source }, args).collect(),
                    Err(e) => vec![Err(e)],
                };
                boards
            }));
        }
    };
    if !is_pbm(data) {
        return Box::new(TextBoards::new(data, source, args.rows, args.cols));
    }
    let images = match read_pbm(data, source) {
        Ok(images) => images,
        Err(e) => return Box::new(std::iter::once(Err(e))),
    };
    Box::new(images.into_iter().map(move |board| {
        for (name, given, actual) in
            [("--rows", args.rows, board.nrows()), ("--cols", args.cols, board.ncols())]
        {
            if let Some(given) = given.filter(|&g| g != actual) {
                return Err(Error::BadInput(format!(
                    "{source}: the PBM image is {}x{} but {name} is {given}",
                    board.nrows(),
                    board.ncols()
                )));
            }
        }
        Ok(board)
    }))
}

/// Boards typed at a terminal, each handed out as soon as its last row is
/// in: after `--rows` rows, at a blank line, or when it is square (the rows
/// of a board without blank lines, as in a batch). Each board's lines are
/// parsed by [`TextBoards`] as a batch would be, with the lines before it
/// left blank so that errors name the line the user typed.
struct TypedBoards<'a, 'r> {
    reader: &'a mut io::BufReader<&'r mut dyn Read>,
    rows: Option<usize>,
    cols: Option<usize>,
    /// The lines of the board being typed, after as many newlines as lines
    /// came before it.
    board: Vec<u8>,
    /// Rows in `board`, and the width of its first.
    typed_rows: usize,
    width: usize,
    lines_read: usize,
    answered: usize,
    parsed: std::collections::VecDeque<Result<Grid, Error>>,
    done: bool,
}

impl<'a, 'r> TypedBoards<'a, 'r> {
    fn new(
        reader: &'a mut io::BufReader<&'r mut dyn Read>,
        rows: Option<usize>,
        cols: Option<usize>,
    ) -> Self {
        TypedBoards {
            reader,
            rows,
            cols,
            board: Vec::new(),
            typed_rows: 0,
            width: 0,
            lines_read: 0,
            answered: 0,
            parsed: Default::default(),
            done: false,
        }
    }

    /// Parses the board typed so far and starts the next one.
    fn finish_board(&mut self) {
        let source = "<stdin>";
        self.parsed.extend(TextBoards::new(&self.board, source, self.rows, self.cols));
        self.board = vec![b'\n'; self.lines_read];
        self.typed_rows = 0;
    }
}

impl Iterator for TypedBoards<'_, '_> {
    type Item = Result<Grid, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        use io::BufRead;
        loop {
            if let Some(board) = self.parsed.pop_front() {
                self.answered += 1;
                if board.is_err() {
                    self.done = true;
                    self.parsed.clear();
                }
                return Some(board);
            }
            if self.done {
                return None;
            }
            let mut line = Vec::new();
            match self.reader.read_until(b'\n', &mut line) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(Error::BadInput(format!("cannot read <stdin>: {e}"))));
                }
                // The end: a board cut short is parsed as it is (and one
                // never begun is "no board in input" when none came before).
                Ok(0) => {
                    self.done = true;
                    if self.typed_rows > 0 || self.answered == 0 {
                        self.finish_board();
                    }
                }
                Ok(_) => {
                    self.lines_read += 1;
                    let cells = line.trim_ascii();
                    if cells.is_empty() {
                        if self.typed_rows > 0 {
                            self.finish_board();
                        } else {
                            self.board.push(b'\n');
                        }
                        continue;
                    }
                    if self.typed_rows == 0 {
                        self.width = cells.len();
                    }
                    self.typed_rows += 1;
                    self.board.extend_from_slice(&line);
                    if !line.ends_with(b"\n") {
                        self.board.push(b'\n');
                    }
                    if self.typed_rows == self.rows.or(self.cols).unwrap_or(self.width) {
                        self.finish_board();
                    }
                }
            }
        }
    }
}

/// The POJ answer: the fewest presses, or `Impossible`.
fn poj_line(best: Option<(&str, u64)>) -> String {
    best.map_or("Impossible\n".to_string(), |(_, presses)| format!("{presses}\n"))
}

/// The first line of a board's text answer.
fn header_line(index: usize, rows: usize, cols: usize, nullity: usize) -> String {
    format!("board {index}: {rows}x{cols}, nullity {nullity}\n")
}

/// One target's line of a text answer: presses and whether proven minimal.
fn target_line(name: &str, result: Option<(u64, bool)>) -> String {
    match result {
        None => format!("  {name}: impossible\n"),
        Some((presses, proven)) => {
            let proof = if proven { "minimal" } else { "not proven minimal" };
            format!("  {name}: {presses} presses ({proof})\n")
        }
    }
}

/// The last line of a text answer: the best target.
fn best_line(best: Option<(&str, u64)>) -> String {
    best.map_or("  best: impossible\n".to_string(), |(name, presses)| {
        format!("  best: {name}, {presses} presses\n")
    })
}

/// Most presses the text output lists by coordinates: more would bury the
/// answer (`--show` draws any number, `--output` writes them as an image).
const LISTED_PRESSES: usize = 256;

/// The text answer's line of presses as (row,col) from (1,1) at the top
/// left: `None` when they are not at hand (a streamed board).
fn press_line(presses: Option<&Grid>, count: u64) -> String {
    match presses {
        _ if count == 0 => "  press (row,col): none\n".into(),
        Some(grid) if count <= LISTED_PRESSES as u64 => {
            let cells: Vec<String> = (0..grid.nrows())
                .flat_map(|r| grid.iter_ones_in_row(r).map(move |c| format!("({},{})", r + 1, c + 1)))
                .collect();
            format!("  press (row,col): {}\n", cells.join(" "))
        }
        Some(_) => format!(
            "  press (row,col): not listed above {LISTED_PRESSES} presses (--output FILE writes them as an image)\n"
        ),
        None => {
            "  press (row,col): not listed for a streamed board (--output FILE writes them as an image)\n"
                .into()
        }
    }
}

/// One board's answers, named by target, ready to print (and, as JSON, to
/// serve: `lightsout serve` answers with [`Report::json`] too).
pub(crate) struct Report<'a> {
    pub(crate) index: usize,
    pub(crate) board: &'a Grid,
    pub(crate) solver: &'a Solver,
    /// (target name, fewest presses or `None` when unreachable), in the
    /// order asked.
    pub(crate) entries: Entries<'a>,
}

/// At most two targets per board, kept inline and borrowed: a batch of
/// 65,536 boards should not pay an allocation or a copy each for them.
pub(crate) type Entries<'a> = arrayvec::ArrayVec<(&'static str, &'a Option<Solution>), 2>;

impl Report<'_> {
    /// The reachable target needing the fewest presses (the first on a tie).
    fn best(&self) -> Option<(&'static str, &Solution)> {
        self.entries
            .iter()
            .filter_map(|(name, s)| Some((*name, s.as_ref()?)))
            .min_by_key(|(_, s)| s.presses.count_ones())
    }

    fn best_summary(&self) -> String {
        match self.best() {
            None => "impossible".into(),
            Some((name, s)) => format!("{} presses to {name}", s.presses.count_ones()),
        }
    }

    /// Notes on stderr a press count not proven minimal: of the target
    /// asked for, or with `either`, of the answer given (a note on the other
    /// colour would be about a question nobody asked).
    fn warn_if_not_proven(&self, stderr: &mut dyn Write, max_nullity: usize) {
        let answered: Entries = match self.entries.len() {
            1 => self.entries.clone(),
            _ => self
                .entries
                .iter()
                .filter(|(name, _)| self.best().is_some_and(|(best, _)| best == *name))
                .copied()
                .collect(),
        };
        for (name, s) in &answered {
            if let Some(s) = s.as_ref().filter(|s| !s.proven_minimal) {
                let nullity = self.solver.nullity();
                let why = if !self.solver.holds_quiet_patterns() {
                    format!(
                        "its {nullity} quiet patterns do not fit --max-memory, so the press set was not minimised"
                    )
                } else if nullity > max_nullity {
                    format!("nullity {nullity} is above --max-nullity {max_nullity}; a local search found it")
                } else {
                    format!(
                        "nullity {nullity} is above the exhaustive search's limit of {MAX_EXHAUSTIVE_NULLITY}"
                    )
                };
                let _ = writeln!(
                    stderr,
                    "lightsout: note: board {}, {name}: {} presses, not proven minimal ({why})",
                    self.index,
                    s.presses.count_ones(),
                );
            }
        }
    }

    fn poj(&self, show: bool) -> String {
        let mut text = poj_line(self.best().map(|(name, s)| (name, s.presses.count_ones() as u64)));
        if let (true, Some((name, s))) = (show, self.best()) {
            text += &self.grids(name, s);
        }
        text
    }

    fn text(&self, show: bool) -> String {
        let (rows, cols) = (self.board.nrows(), self.board.ncols());
        let mut text = header_line(self.index, rows, cols, self.solver.nullity());
        for (name, s) in &self.entries {
            text += &target_line(name, s.as_ref().map(|s| (s.presses.count_ones() as u64, s.proven_minimal)));
        }
        text += &best_line(self.best().map(|(name, s)| (name, s.presses.count_ones() as u64)));
        if let Some((_, s)) = self.best() {
            text += &press_line(Some(&s.presses), s.presses.count_ones() as u64);
        }
        if let (true, Some((name, s))) = (show, self.best()) {
            text += &self.grids(name, s);
        }
        text
    }

    /// The press grid and the board it reaches (re-applied here, as shown).
    fn grids(&self, name: &str, s: &Solution) -> String {
        let reached = self.solver.puzzle().apply(self.board, &s.presses);
        let mut text = format!("presses (to {name}):\n");
        for line in grid_lines(&s.presses, 'x', '.') {
            text += &line;
            text.push('\n');
        }
        text += "reached:\n";
        for line in grid_lines(&reached, 'b', 'w') {
            text += &line;
            text.push('\n');
        }
        text
    }

    pub(crate) fn json(&self) -> String {
        let entry = |solution: &Option<Solution>| -> Value {
            match solution {
                None => {
                    json!({"solvable": false, "presses": null, "proven_minimal": false, "solution": null})
                }
                Some(s) => json!({
                    "solvable": true,
                    "presses": s.presses.count_ones(),
                    "proven_minimal": s.proven_minimal,
                    "solution": grid_lines(&s.presses, 'x', '.'),
                }),
            }
        };
        let named =
            |name: &str| self.entries.iter().find(|(n, _)| *n == name).map_or(Value::Null, |(_, s)| entry(s));
        let best = match self.best() {
            None => json!({"target": null, "presses": null}),
            Some((name, s)) => json!({"target": name, "presses": s.presses.count_ones()}),
        };
        let puzzle = self.solver.puzzle();
        let mut object = json!({
            "board": self.index,
            "rows": self.board.nrows(),
            "cols": self.board.ncols(),
            "topology": study::topology_name(puzzle.topology()),
            "rule": puzzle.rule().to_string(),
            "nullity": self.solver.nullity(),
            "white": named("white"),
            "black": named("black"),
        });
        if self.entries.iter().any(|(n, _)| *n == "target") {
            object["target"] = named("target");
        }
        object["best"] = best;
        object.to_string()
    }
}

fn verify(args: VerifyArgs, io: &mut Streams) -> Result<u8, Failure> {
    let (rows, cols) = (args.rows, args.cols);
    let puzzle = args.puzzle.puzzle(rows, cols)?;
    if puzzle.cells() > bfs::MAX_CELLS {
        return Err(Error::Limit(format!(
            "verify searches every board, so it takes at most {} cells; {rows}x{cols} has {}",
            bfs::MAX_CELLS,
            puzzle.cells()
        ))
        .into());
    }
    let solver = Solver::new(&puzzle, args.method.into(), DEFAULT_MAX_NULLITY)?;
    let (white, black) = bfs::uniform_states(rows, cols);
    // The two searches are independent: one a core.
    let (to_white, to_black) =
        rayon::join(|| bfs::distances(&puzzle, &[white]), || bfs::distances(&puzzle, &[black]));
    let presses =
        |s: &Option<Solution>| s.as_ref().map_or(bfs::UNREACHABLE, |s| s.presses.count_ones() as u8);
    let states = 1u32 << puzzle.cells();
    let bar = study::terminal_bar(u64::from(states), "boards");
    let disagreements: Vec<u32> = (0..states)
        .into_par_iter()
        .map(|state| -> Result<Option<u32>, Error> {
            if state % 4096 == 0 {
                bar.inc(4096);
            }
            let board = bfs::decode(rows, cols, state);
            let answer = solver.solve(&board, Goal::Either)?;
            let w = answer.white.as_ref().map_or(bfs::UNREACHABLE, presses);
            let b = answer.black.as_ref().map_or(bfs::UNREACHABLE, presses);
            let agree = w == to_white[state as usize] && b == to_black[state as usize];
            Ok((!agree).then_some(state))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    bar.finish_and_clear();
    let out = &mut *io.stdout;
    let agreed = states as usize - disagreements.len();
    // The classic puzzle keeps its short name; other shapes say theirs.
    let shape = match puzzle.is_classic() {
        true => format!("{rows}x{cols}"),
        false => format!("{rows}x{cols} {}, rule {}", study::topology_name(puzzle.topology()), puzzle.rule()),
    };
    writeln!(
        out,
        "{shape}: {agreed} of {states} boards agree with breadth-first search \
         (fewest presses to all white and to all black; nullity {})",
        solver.nullity()
    )?;
    if let Some(&state) = disagreements.first() {
        let board = bfs::decode(rows, cols, state);
        writeln!(
            out,
            "first disagreement: board {} (bfs: white {}, black {})",
            grid_lines(&board, 'b', 'w').join("/"),
            to_white[state as usize],
            to_black[state as usize]
        )?;
        return Ok(1);
    }
    Ok(0)
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert!(parse_bytes("lots").is_err() && parse_bytes("-1G").is_err() && parse_bytes("").is_err());
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
