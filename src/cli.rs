//! Command-line front: turns arguments into library calls and prints.

use std::collections::HashMap;
use std::collections::hash_map::Entry;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand, ValueEnum};
use rayon::prelude::*;
use serde_json::{Value, json};

use lightsout::{
    Answer, DEFAULT_MAX_NULLITY, Error, Generate, Goal, Grid, Method, Puzzle, Solution, Solver, Target, bfs,
    grid_lines, parse_boards,
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
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// Board file of `b`/`w` rows; standard input when absent or `-`.
    file: Option<PathBuf>,
    /// Rows per board (otherwise inferred from the input).
    #[arg(long, value_name = "R")]
    rows: Option<usize>,
    /// Columns per board (otherwise inferred from the input).
    #[arg(long, value_name = "C")]
    cols: Option<usize>,
    /// The colour to reach.
    #[arg(long, value_enum, default_value_t = GoalArg::Either)]
    target: GoalArg,
    /// Also print the press grid (`x` press, `.` none) and the board reached.
    #[arg(long)]
    show: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = Format::Poj)]
    format: Format,
    /// Make the board instead of reading one (needs --rows and --cols).
    #[arg(long, value_enum, value_name = "KIND")]
    generate: Option<GenerateArg>,
    /// Seed for --generate random.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Fraction of black cells for --generate random, in [0, 1].
    #[arg(long, default_value_t = 0.5, value_parser = parse_density)]
    density: f64,
    /// Largest nullity whose 2^d solutions are all searched for the minimum;
    /// beyond it the answer is marked "not proven minimal".
    #[arg(long, default_value_t = DEFAULT_MAX_NULLITY, value_parser = parse_max_nullity)]
    max_nullity: usize,
    /// How to solve the linear system.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
}

#[derive(Args, Debug)]
struct VerifyArgs {
    /// Rows of the board.
    #[arg(long, value_name = "R")]
    rows: usize,
    /// Columns of the board.
    #[arg(long, value_name = "C")]
    cols: usize,
    /// How to solve the linear system.
    #[arg(long, value_enum, default_value_t = MethodArg::Auto)]
    method: MethodArg,
}

#[derive(Clone, Copy, Debug, ValueEnum)]
enum GoalArg {
    White,
    Black,
    Either,
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

#[derive(Clone, Copy, Debug, ValueEnum)]
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

impl From<GoalArg> for Goal {
    fn from(g: GoalArg) -> Goal {
        match g {
            GoalArg::White => Goal::White,
            GoalArg::Black => Goal::Black,
            GoalArg::Either => Goal::Either,
        }
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

/// Runs the command line and maps the outcome to an exit code.
pub fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(e.exit_code() as u8);
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(Failure::Quiet) => ExitCode::SUCCESS,
        Err(Failure::Error(e)) => {
            eprintln!("lightsout: {e}");
            ExitCode::from(e.exit_code())
        }
    }
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

fn run(cli: Cli) -> Result<ExitCode, Failure> {
    match cli.command {
        None => solve(cli.solve),
        Some(Command::Solve(args)) => solve(args),
        Some(Command::Verify(args)) => verify(args),
    }
}

fn solve(args: SolveArgs) -> Result<ExitCode, Failure> {
    let boards = read_boards(&args)?;
    let goal = Goal::from(args.target);
    let mut solvers: HashMap<(usize, usize), Solver> = HashMap::new();
    let stdout = io::stdout();
    let mut out = io::BufWriter::new(stdout.lock());
    for (index, board) in boards.iter().enumerate() {
        let shape = (board.nrows(), board.ncols());
        let solver = match solvers.entry(shape) {
            Entry::Occupied(e) => e.into_mut(),
            Entry::Vacant(e) => {
                let puzzle = Puzzle::new(shape.0, shape.1)?;
                e.insert(Solver::new(&puzzle, args.method.into(), args.max_nullity)?)
            }
        };
        let answer = solver.solve(board, goal)?;
        warn_if_not_proven(index + 1, solver, &answer, args.max_nullity);
        let text = match args.format {
            Format::Poj => render_poj(board, solver, &answer, args.show),
            Format::Text => render_text(index + 1, board, solver, &answer, args.show),
            Format::Json => render_json(index + 1, board, solver, &answer) + "\n",
        };
        out.write_all(text.as_bytes())?;
    }
    out.flush()?;
    Ok(ExitCode::SUCCESS)
}

/// The boards to solve: generated, or read from the file or standard input.
fn read_boards(args: &SolveArgs) -> Result<Vec<Grid>, Error> {
    if let Some(kind) = args.generate {
        if args.file.is_some() {
            return Err(Error::BadInput("--generate makes the board; do not give a file too".into()));
        }
        let (Some(rows), Some(cols)) = (args.rows, args.cols) else {
            return Err(Error::BadInput("--generate needs --rows and --cols".into()));
        };
        Puzzle::new(rows, cols)?;
        let recipe = match kind {
            GenerateArg::AllBlack => Generate::AllBlack,
            GenerateArg::AllWhite => Generate::AllWhite,
            GenerateArg::Random => Generate::Random { seed: args.seed, density: args.density },
        };
        return Ok(vec![recipe.board(rows, cols)]);
    }
    for (name, value) in [("--rows", args.rows), ("--cols", args.cols)] {
        if value == Some(0) {
            return Err(Error::BadInput(format!("{name} must be at least 1, got 0")));
        }
    }
    let (input, source) = match &args.file {
        Some(path) if path.as_os_str() != "-" => {
            let name = path.display().to_string();
            let bytes =
                std::fs::read(path).map_err(|e| Error::BadInput(format!("cannot read {name}: {e}")))?;
            (bytes, name)
        }
        _ => {
            let mut bytes = Vec::new();
            io::stdin()
                .read_to_end(&mut bytes)
                .map_err(|e| Error::BadInput(format!("cannot read standard input: {e}")))?;
            (bytes, "<stdin>".to_string())
        }
    };
    parse_boards(&input, &source, args.rows, args.cols)
}

fn warn_if_not_proven(index: usize, solver: &Solver, answer: &Answer, max_nullity: usize) {
    for target in [Target::White, Target::Black] {
        if let Some(Some(s)) = answer.get(target)
            && !s.proven_minimal
        {
            eprintln!(
                "lightsout: note: board {index}, {}: {} presses, not proven minimal \
                 (nullity {} is above --max-nullity {max_nullity})",
                target.name(),
                s.presses.count_ones(),
                solver.nullity()
            );
        }
    }
}

fn render_poj(board: &Grid, solver: &Solver, answer: &Answer, show: bool) -> String {
    match answer.best() {
        None => "Impossible\n".to_string(),
        Some((target, s)) => {
            let mut text = format!("{}\n", s.presses.count_ones());
            if show {
                text += &render_grids(board, solver, target, s);
            }
            text
        }
    }
}

fn render_text(index: usize, board: &Grid, solver: &Solver, answer: &Answer, show: bool) -> String {
    let mut text =
        format!("board {index}: {}x{}, nullity {}\n", board.nrows(), board.ncols(), solver.nullity());
    for target in [Target::White, Target::Black] {
        match answer.get(target) {
            None => {}
            Some(None) => text += &format!("  {}: impossible\n", target.name()),
            Some(Some(s)) => {
                let proof = if s.proven_minimal { "minimal" } else { "not proven minimal" };
                text += &format!("  {}: {} presses ({proof})\n", target.name(), s.presses.count_ones());
            }
        }
    }
    match answer.best() {
        None => text += "  best: impossible\n",
        Some((target, s)) => {
            text += &format!("  best: {}, {} presses\n", target.name(), s.presses.count_ones());
            if show {
                text += &render_grids(board, solver, target, s);
            }
        }
    }
    text
}

/// The press grid and the board it reaches (re-applied here, as shown).
fn render_grids(board: &Grid, solver: &Solver, target: Target, s: &Solution) -> String {
    let reached = solver.puzzle().apply(board, &s.presses);
    let mut text = format!("presses (to {}):\n", target.name());
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

fn render_json(index: usize, board: &Grid, solver: &Solver, answer: &Answer) -> String {
    let per_target = |target: Target| -> Value {
        match answer.get(target) {
            None => Value::Null,
            Some(None) => {
                json!({"solvable": false, "presses": null, "proven_minimal": false, "solution": null})
            }
            Some(Some(s)) => json!({
                "solvable": true,
                "presses": s.presses.count_ones(),
                "proven_minimal": s.proven_minimal,
                "solution": grid_lines(&s.presses, 'x', '.'),
            }),
        }
    };
    let best = match answer.best() {
        None => json!({"target": null, "presses": null}),
        Some((t, s)) => json!({"target": t.name(), "presses": s.presses.count_ones()}),
    };
    json!({
        "board": index,
        "rows": board.nrows(),
        "cols": board.ncols(),
        "nullity": solver.nullity(),
        "white": per_target(Target::White),
        "black": per_target(Target::Black),
        "best": best,
    })
    .to_string()
}

fn verify(args: VerifyArgs) -> Result<ExitCode, Failure> {
    let (rows, cols) = (args.rows, args.cols);
    let puzzle = Puzzle::new(rows, cols)?;
    if puzzle.cells() > bfs::MAX_CELLS {
        return Err(Error::BadInput(format!(
            "verify searches every board, so it takes at most {} cells; {rows}x{cols} has {}",
            bfs::MAX_CELLS,
            puzzle.cells()
        ))
        .into());
    }
    let solver = Solver::new(&puzzle, args.method.into(), DEFAULT_MAX_NULLITY)?;
    let (white, black) = bfs::uniform_states(rows, cols);
    let to_white = bfs::distances(rows, cols, &[white]);
    let to_black = bfs::distances(rows, cols, &[black]);
    let presses =
        |s: &Option<Solution>| s.as_ref().map_or(bfs::UNREACHABLE, |s| s.presses.count_ones() as u8);
    let states = 1u32 << puzzle.cells();
    let disagreements: Vec<u32> = (0..states)
        .into_par_iter()
        .map(|state| -> Result<Option<u32>, Error> {
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
    let stdout = io::stdout();
    let mut out = stdout.lock();
    let agreed = states as usize - disagreements.len();
    writeln!(
        out,
        "{rows}x{cols}: {agreed} of {states} boards agree with breadth-first search \
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
        return Ok(ExitCode::from(1));
    }
    Ok(ExitCode::SUCCESS)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
