//! The study commands (`analyze`, `check`, `table`) and what they share with
//! `solve`: the topology and rule flags, board targets, pictures.

use std::borrow::Cow;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use serde_json::json;

use super::{BoardArgs, Failure, SMALLER_OR_MORE_MEMORY, Streams, boards, read_input, read_limited};
use crate::analysis::Analysis;
use crate::picture::{self, Scene};
use crate::solve::limits;
use crate::{
    Error, Goal, Grid, Method, Puzzle, Rule, Solver, TextBoards, Topology, analyze as analyse, grid_lines,
    is_pbm, nullity_table, read_pbm,
};

/// The shape of the puzzle besides its size: edges and press rule.
#[derive(Args, Debug, Clone)]
pub(super) struct PuzzleArgs {
    /// Wrap rows and columns around (a torus). On a torus narrower than the
    /// rule, a cell reached twice by one press is flipped once.
    #[arg(long)]
    torus: bool,
    /// What a press flips: plus (the cell and its 4 neighbours), neighbours
    /// (the 4 neighbours only), king (the 3x3 block), or a mask of 0/1 rows
    /// like 010/111/010 (odd sides; the centre is the pressed cell).
    #[arg(long, default_value = "plus", value_parser = parse_rule)]
    rule: Rule,
}

impl PuzzleArgs {
    /// The puzzle of this shape and size.
    pub(super) fn puzzle(&self, rows: usize, cols: usize) -> Result<Puzzle, Error> {
        let topology = if self.torus { Topology::Torus } else { Topology::Plane };
        Ok(Puzzle::new(rows, cols)?.with_topology(topology).with_rule(self.rule.clone()))
    }

    /// Whether this is the classic rule on the plane.
    pub(super) fn is_classic(&self) -> bool {
        !self.torus && self.rule.is_plus()
    }
}

pub(crate) fn parse_rule(s: &str) -> Result<Rule, String> {
    match s {
        "plus" => Ok(Rule::plus()),
        "neighbours" | "neighbors" => Ok(Rule::neighbours()),
        "king" => Ok(Rule::king()),
        mask => Rule::from_mask(mask),
    }
}

/// `plane` or `torus`.
pub(crate) fn topology_name(t: Topology) -> &'static str {
    match t {
        Topology::Plane => "plane",
        Topology::Torus => "torus",
    }
}

/// What to reach: a colour (or either), or a given board.
#[derive(Clone, Debug)]
pub(super) enum TargetArg {
    Goal(Goal),
    Board(PathBuf),
}

pub(super) fn parse_target(s: &str) -> Result<TargetArg, String> {
    Ok(match s {
        "white" => TargetArg::Goal(Goal::White),
        "black" => TargetArg::Goal(Goal::Black),
        "either" => TargetArg::Goal(Goal::Either),
        "" => return Err("expected white, black, either or a board file".into()),
        path => TargetArg::Board(PathBuf::from(path)),
    })
}

/// A target ready to use: a colour goal, or the board read from its file.
pub(super) enum Reach {
    Goal(Goal),
    Board(Grid),
}

impl TargetArg {
    /// Reads the target board's file, if the target is a board. A text
    /// target takes the puzzle's shape from `--rows`/`--cols` (`source`),
    /// like the boards it is paired with.
    pub(super) fn resolve(&self, source: &BoardArgs, max_memory: u64) -> Result<Reach, Error> {
        match self {
            TargetArg::Board(path) => read_target(path, source, max_memory).map(Reach::Board),
            TargetArg::Goal(goal) => Ok(Reach::Goal(*goal)),
        }
    }
}

/// The first board of a target file (text or PBM).
fn read_target(path: &Path, shape: &BoardArgs, max_memory: u64) -> Result<Grid, Error> {
    let source = path.display().to_string();
    let mut file = std::fs::File::open(path).map_err(|e| {
        Error::BadInput(format!(
            "--target {source} is not white, black or either, nor a readable board file: {e}"
        ))
    })?;
    let data = read_limited(&mut file, &source, max_memory)?;
    let first = if is_pbm(&data) {
        read_pbm(&data, &source)?.into_iter().next()
    } else {
        TextBoards::new(&data, &source, shape.rows, shape.cols).next().transpose()?
    };
    first.ok_or_else(|| Error::BadInput(format!("{source}: no board in input")))
}

/// A progress bar of `len` steps on stderr, drawn only when stderr is a
/// terminal: never in pipes, files or JSON.
pub(super) fn terminal_bar(len: u64, unit: &str) -> ProgressBar {
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let template = format!("{{bar:40}} {{pos}}/{{len}} {unit}, {{eta}} left{{msg}}");
    bar.set_style(ProgressStyle::with_template(&template).unwrap_or_else(|_| ProgressStyle::default_bar()));
    bar
}

/// Most cells a picture draws (each is a shape until it is written).
const MAX_PICTURE_CELLS: usize = 1 << 22;

/// Where to draw a command's picture.
#[derive(Args, Debug, Clone)]
pub(super) struct PictureArgs {
    /// Write the picture as a PNG image.
    #[arg(long, value_name = "FILE")]
    png: Option<PathBuf>,
    /// Write the picture as an SVG image.
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

impl PictureArgs {
    pub(super) fn wanted(&self) -> bool {
        self.png.is_some() || self.svg.is_some()
    }

    /// Refuses pictures of more than [`MAX_PICTURE_CELLS`] cells: they would
    /// take gigabytes to draw and show nothing a smaller one does not.
    pub(super) fn check_size(&self, cells: usize) -> Result<(), Error> {
        if cells > MAX_PICTURE_CELLS {
            return Err(Error::Limit(format!(
                "a picture of {cells} cells is too large to draw (at most {MAX_PICTURE_CELLS}); draw a smaller board \
                 or range"
            )));
        }
        Ok(())
    }

    /// Writes `scene` to the PNG and SVG files asked for.
    pub(super) fn write(&self, scene: &Scene) -> Result<(), Error> {
        let fail =
            |path: &Path, e: io::Error| Error::BadInput(format!("cannot write {}: {e}", path.display()));
        if let Some(path) = &self.png {
            let file = std::fs::File::create(path).map_err(|e| fail(path, e))?;
            scene.write_png(io::BufWriter::new(file)).map_err(|e| fail(path, e))?;
        }
        if let Some(path) = &self.svg {
            let file = std::fs::File::create(path).map_err(|e| fail(path, e))?;
            let mut out = io::BufWriter::new(file);
            scene.write_svg(&mut out).and_then(|_| out.flush()).map_err(|e| fail(path, e))?;
        }
        Ok(())
    }
}

/// One factored solver per board shape, made on first use. Batches are
/// usually of one shape, so a short list beats hashing.
pub(super) struct Solvers<'a> {
    puzzle: &'a PuzzleArgs,
    method: Method,
    max_nullity: usize,
    max_memory: u64,
    made: Vec<((usize, usize), Solver)>,
}

/// Reports a long minimisation on a terminal progress bar, one per board.
fn minimisation_bar(nullity: usize) -> Box<crate::Progress> {
    let bar = std::sync::Mutex::new(None::<ProgressBar>);
    Box::new(move |done, total| {
        let Ok(mut bar) = bar.lock() else { return };
        let current =
            bar.get_or_insert_with(|| terminal_bar(total, &format!("parts of 2^{nullity} solutions")));
        current.set_position(done);
        if done == total {
            current.finish_and_clear();
            *bar = None;
        }
    })
}

impl<'a> Solvers<'a> {
    pub(super) fn new(puzzle: &'a PuzzleArgs, method: Method, max_nullity: usize, max_memory: u64) -> Self {
        Solvers { puzzle, method, max_nullity, max_memory, made: Vec::new() }
    }

    /// The solver for boards of `board`'s shape.
    pub(super) fn for_board(&mut self, board: &Grid) -> Result<&Solver, Error> {
        let shape = (board.nrows(), board.ncols());
        let index = match self.made.iter().position(|(s, _)| *s == shape) {
            Some(i) => i,
            None => {
                let puzzle = self.puzzle.puzzle(shape.0, shape.1)?;
                let mut solver =
                    Solver::with_memory_limit(&puzzle, self.method, self.max_nullity, self.max_memory)?;
                // Minimising over more than 2^30 solutions takes a second or more.
                if solver.nullity() > 30 && solver.nullity() <= self.max_nullity {
                    solver.set_progress(minimisation_bar(solver.nullity()));
                }
                self.made.push((shape, solver));
                self.made.len() - 1
            }
        };
        Ok(&self.made[index].1)
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
const ANALYZE_MAX_NULLITY: usize = 28;

#[derive(Args, Debug)]
pub(super) struct AnalyzeArgs {
    /// Rows of the board.
    #[arg(short, long, value_name = "R")]
    rows: usize,
    /// Columns of the board.
    #[arg(short, long, value_name = "C")]
    cols: usize,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = StudyFormat::Text)]
    format: StudyFormat,
    /// Largest nullity searched exhaustively for the lightest quiet pattern
    /// (2^28 patterns take about a tenth of a second; beyond, a local search
    /// gives a light one, not proven lightest).
    #[arg(long, default_value_t = ANALYZE_MAX_NULLITY, value_parser = super::parse_max_nullity)]
    max_nullity: usize,
    /// Refuse work estimated to need more memory than this.
    #[arg(long, default_value = "1G", value_parser = super::parse_bytes, value_name = "SIZE")]
    max_memory: u64,
    /// Pictures of the quiet patterns, a panel each.
    #[command(flatten)]
    picture: PictureArgs,
}

/// Quiet patterns printed as grids in text output (all are in JSON).
const PRINTED_PATTERNS: usize = 64;

pub(super) fn analyze(args: AnalyzeArgs, io: &mut Streams) -> Result<u8, Failure> {
    let puzzle = args.puzzle.puzzle(args.rows, args.cols)?;
    // The analysis eliminates in memory: no streamed way round, so the
    // solver's own hint (streaming a generated board) would mislead.
    limits::check(
        limits::solve_bytes(&puzzle, !puzzle.is_classic()),
        args.max_memory,
        &format!("analysing a {}x{} board", args.rows, args.cols),
        SMALLER_OR_MORE_MEMORY,
    )?;
    let a = analyse(&puzzle, args.max_nullity, args.max_memory)?;
    let title = format!(
        "{}x{} {}, rule {}: {} quiet patterns",
        args.rows,
        args.cols,
        topology_name(puzzle.topology()),
        puzzle.rule(),
        a.nullity
    );
    if args.picture.wanted() {
        args.picture.check_size(a.quiet.len().max(1) * puzzle.cells())?;
        args.picture.write(&picture::patterns(&a.quiet, &title))?;
    }
    let text = match args.format {
        StudyFormat::Text => analysis_text(&a),
        StudyFormat::Json => analysis_json(&a) + "\n",
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(0)
}

/// `2^k` in decimal, for k up to a few thousand (beyond, `None`).
fn power_of_two(k: usize) -> Option<String> {
    if k > 4096 {
        return None;
    }
    // Base 10^9 limbs, least significant first, doubled k times.
    let mut limbs = vec![1u64];
    for _ in 0..k {
        let mut carry = 0;
        for limb in &mut limbs {
            let v = *limb * 2 + carry;
            *limb = v % 1_000_000_000;
            carry = v / 1_000_000_000;
        }
        if carry > 0 {
            limbs.push(carry);
        }
    }
    let mut text = limbs.last().map_or(String::new(), u64::to_string);
    for limb in limbs.iter().rev().skip(1) {
        text += &format!("{limb:09}");
    }
    Some(text)
}

/// Largest power of two whose digits the text output spells out (20
/// digits); beyond it `2^k` says all (2^2240 has 675 digits). JSON keeps
/// the digits.
const SPELLED_OUT_POWER: usize = 64;

/// `2^k` for reading: `8`, `2^12 = 4096`, or `2^2240` alone.
fn count(k: usize) -> String {
    match power_of_two(k) {
        Some(n) if k <= 3 => n,
        Some(n) if k <= SPELLED_OUT_POWER => format!("2^{k} = {n}"),
        _ => format!("2^{k}"),
    }
}

fn factors_text(factors: &[(crate::gf2::Poly, usize)]) -> String {
    if factors.is_empty() {
        return "1".into();
    }
    factors
        .iter()
        .map(|(p, m)| if *m == 1 { format!("({p})") } else { format!("({p})^{m}") })
        .collect::<Vec<_>>()
        .join(" ")
}

fn analysis_text(a: &Analysis) -> String {
    let p = &a.puzzle;
    let cells = p.cells();
    let mut t = format!("{}x{} {}, rule {}\n", p.rows(), p.cols(), topology_name(p.topology()), p.rule());
    t += &format!("rank {}, nullity {}\n", a.rank(), a.nullity);
    t += &format!("solvable boards: {} of {} (1 in {})\n", count(a.rank()), count(cells), count(a.nullity));
    t += &format!("solutions per solvable board: {}\n", count(a.nullity));
    t += if a.targets_interchangeable {
        "all white and all black: every board that can reach one can reach the other\n"
    } else {
        "all white and all black: not interchangeable (the all-black board cannot be cleared)\n"
    };
    if let Some((g, factors)) = &a.gcd {
        // The factorisation is shown when it says more than `g` itself.
        let factored = match factors.as_slice() {
            [] => String::new(),
            [(_, 1)] => " (irreducible)".into(),
            _ => format!(" = {}", factors_text(factors)),
        };
        t += &format!("gcd(f_R(x), f_C(x+1)) = {g}{factored}\n");
    }
    match &a.lightest_quiet {
        None if a.nullity == 0 => t += "quiet patterns: none (every board is solvable, in exactly one way)\n",
        None => {
            t += &format!(
                "quiet patterns: {} of {} cells each, too many to hold within --max-memory: none listed, the \
                 lightest not searched (raise --max-memory to list them)\n",
                a.nullity, cells
            )
        }
        Some((q, proven)) => {
            let how = if *proven {
                String::new()
            } else if a.nullity > crate::MAX_EXHAUSTIVE_NULLITY {
                format!(
                    " (not proven lightest: nullity {} is above 63, past an exhaustive search)",
                    a.nullity
                )
            } else if a.nullity <= 42 {
                format!(
                    " (not proven lightest: nullity {0} is above --max-nullity; --max-nullity {0} searches all 2^{0})",
                    a.nullity
                )
            } else {
                format!(" (not proven lightest: nullity {} is above --max-nullity)", a.nullity)
            };
            t += &format!("lightest quiet pattern: {} presses{how}\n", q.count_ones());
            t += &format!("quiet patterns (a basis of {}; x = press):\n", a.nullity);
            for (i, q) in a.quiet.iter().take(PRINTED_PATTERNS).enumerate() {
                t += &format!("  {}: {} presses\n", i + 1, q.count_ones());
                for line in grid_lines(q, 'x', '.') {
                    t += &format!("    {line}\n");
                }
            }
            if a.quiet.len() > PRINTED_PATTERNS {
                t +=
                    &format!("  … and {} more (--format json lists all)\n", a.quiet.len() - PRINTED_PATTERNS);
            }
        }
    }
    t
}

pub(crate) fn analysis_json(a: &Analysis) -> String {
    let p = &a.puzzle;
    let mut v = json!({
        "rows": p.rows(),
        "cols": p.cols(),
        "topology": topology_name(p.topology()),
        "rule": p.rule().to_string(),
        "rank": a.rank(),
        "nullity": a.nullity,
        "solvable_boards_log2": a.rank(),
        "solvable_boards": power_of_two(a.rank()),
        "solutions_per_solvable_board_log2": a.nullity,
        "targets_interchangeable": a.targets_interchangeable,
        "quiet_patterns": (a.quiet.len() == a.nullity)
            .then(|| a.quiet.iter().map(|q| grid_lines(q, 'x', '.')).collect::<Vec<_>>()),
        "lightest_quiet_pattern": a.lightest_quiet.as_ref().map(|(q, proven)| json!({
            "presses": q.count_ones(),
            "proven": proven,
            "pattern": grid_lines(q, 'x', '.'),
        })),
    });
    if let Some((g, factors)) = &a.gcd {
        v["gcd"] = json!(g.to_string());
        v["gcd_factors"] = json!(
            factors
                .iter()
                .map(|(p, m)| json!({"factor": p.to_string(), "multiplicity": m}))
                .collect::<Vec<_>>()
        );
    }
    v.to_string()
}

#[derive(Args, Debug)]
pub(super) struct CheckArgs {
    #[command(flatten)]
    source: BoardArgs,
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// What to reach: white, black, either (both are checked), or a board file.
    #[arg(short, long, default_value = "either", value_parser = parse_target, value_name = "TARGET")]
    target: TargetArg,
    /// Output format.
    #[arg(short, long, value_enum, default_value_t = StudyFormat::Text)]
    format: StudyFormat,
    /// Refuse work estimated to need more memory than this.
    #[arg(long, default_value = "1G", value_parser = super::parse_bytes, value_name = "SIZE")]
    max_memory: u64,
}

pub(super) fn check(args: CheckArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.source.refuse_unused()?;
    let too_big = |_: &Puzzle| SMALLER_OR_MORE_MEMORY.to_string();
    let mut input = read_input(
        &args.source,
        &args.puzzle,
        false,
        args.max_memory,
        &too_big,
        io.stdin,
        io.stdin_is_terminal,
    )?;
    let typed = input.announce_typing(io.stderr);
    let reach = args.target.resolve(&args.source, args.max_memory)?;
    let mut solvers = Solvers::new(&args.puzzle, Method::Auto, 0, args.max_memory);
    let mut out = io::BufWriter::new(&mut *io.stdout);
    for (index, board) in boards(&mut input, &args.source).enumerate() {
        let (board, index) = (&board?, index + 1);
        let shape = (board.nrows(), board.ncols());
        let solver = solvers.for_board(board)?;
        let verdicts: Vec<(&str, Option<std::borrow::Cow<Grid>>)> = match &reach {
            Reach::Board(goal) => {
                if (goal.nrows(), goal.ncols()) != shape {
                    return Err(Error::BadInput(format!(
                        "the target board is {}x{} but board {index} is {}x{}",
                        goal.nrows(),
                        goal.ncols(),
                        shape.0,
                        shape.1
                    ))
                    .into());
                }
                vec![("target", solver.obstruction_to(board, goal))]
            }
            Reach::Goal(goal) => {
                goal.targets().iter().map(|&t| (t.name(), solver.obstruction(board, t))).collect()
            }
        };
        let text = match args.format {
            StudyFormat::Text => {
                let mut t = format!("board {index}: {}x{}, nullity {}\n", shape.0, shape.1, solver.nullity());
                for (name, obstruction) in &verdicts {
                    match obstruction {
                        None => t += &format!("  {name}: solvable\n"),
                        Some(y) => {
                            t += &format!(
                                "  {name}: not solvable: the cells to flip meet this pattern in an odd number of \
                                 cells, and every press meets it in an even number (x = pattern)\n"
                            );
                            for line in grid_lines(y, 'x', '.') {
                                t += &format!("    {line}\n");
                            }
                        }
                    }
                }
                t
            }
            StudyFormat::Json => check_json(index, solver, &verdicts) + "\n",
        };
        out.write_all(text.as_bytes())?;
        if typed {
            out.flush()?;
        }
    }
    out.flush()?;
    Ok(0)
}

/// One board's verdicts as a JSON object (also what `lightsout serve`
/// answers): for each target, solvable or the pattern that proves it is not.
pub(crate) fn check_json(index: usize, solver: &Solver, verdicts: &[(&str, Option<Cow<Grid>>)]) -> String {
    let puzzle = solver.puzzle();
    let mut v = json!({"board": index, "rows": puzzle.rows(), "cols": puzzle.cols(),
        "topology": topology_name(puzzle.topology()), "rule": puzzle.rule().to_string(),
        "nullity": solver.nullity(), "white": null, "black": null});
    for (name, obstruction) in verdicts {
        v[*name] = json!({
            "solvable": obstruction.is_none(),
            "obstruction": obstruction.as_ref().map(|y| grid_lines(y, 'x', '.')),
        });
    }
    v.to_string()
}

/// One size of a nullity table as a JSON object (a line of `--format json`).
pub(crate) fn table_entry_json(rows: usize, cols: usize, nullity: usize) -> serde_json::Value {
    json!({"rows": rows, "cols": cols, "nullity": nullity})
}

#[derive(Args, Debug)]
pub(super) struct TableArgs {
    /// Rows: a range A..B (inclusive) or one number.
    #[arg(short, long, value_parser = parse_range, value_name = "A..B")]
    rows: (usize, usize),
    /// Columns: a range C..D (inclusive) or one number.
    #[arg(short, long, value_parser = parse_range, value_name = "C..D")]
    cols: (usize, usize),
    #[command(flatten)]
    puzzle: PuzzleArgs,
    /// Output format: text (a grid), csv (rows,cols,nullity) or json (one
    /// object per size, one per line).
    #[arg(short, long, value_enum, default_value_t = TableFormat::Text)]
    format: TableFormat,
    /// Refuse a size whose elimination needs more memory than this.
    #[arg(long, default_value = "1G", value_parser = super::parse_bytes, value_name = "SIZE")]
    max_memory: u64,
    /// Pictures of the table as a heat map.
    #[command(flatten)]
    picture: PictureArgs,
    /// Compute only slice K of N of the rows (1 <= K <= N) and print it as
    /// one JSON line, for `lightsout merge`.
    #[arg(long, value_name = "K/N", value_parser = crate::Shard::parse)]
    shard: Option<crate::Shard>,
}

pub(crate) fn parse_range(s: &str) -> Result<(usize, usize), String> {
    let bad = || format!("expected a size or a range like 1..100, got '{s}'");
    let (a, b) = s.split_once("..").unwrap_or((s, s));
    let a: usize = a.trim().parse().map_err(|_| bad())?;
    let b: usize = b.trim().trim_start_matches('=').parse().map_err(|_| bad())?;
    if a == 0 || a > b {
        return Err(format!("a range runs from 1 or more up, got '{s}'"));
    }
    Ok((a, b))
}

pub(super) fn table(args: TableArgs, io: &mut Streams) -> Result<u8, Failure> {
    let template = args.puzzle.puzzle(1, 1)?;
    let ((r0, r1), (c0, c1)) = (args.rows, args.cols);
    if let Some(shard) = args.shard {
        if args.picture.wanted() {
            return Err(
                Error::bad_input("--png and --svg do not go with --shard: draw the merged table").into()
            );
        }
        if args.format == TableFormat::Csv {
            return Err(Error::bad_input(
                "--shard prints its slice as one JSON line; --format csv goes with `lightsout merge`",
            )
            .into());
        }
        // Every N-th row: late rows cost more, so interleaved slices share
        // the work evenly.
        let mut nullity = Vec::new();
        for i in 0..shard.len((r1 - r0 + 1) as u64) {
            let row = r0 + shard.block(i) as usize;
            nullity.extend(nullity_table(row..=row, c0..=c1, &template, args.max_memory, &|| {})?);
        }
        let problem = super::search::TableProblem {
            rows: args.rows,
            cols: args.cols,
            topology: topology_name(template.topology()).into(),
            rule: template.rule().mask(),
        };
        writeln!(io.stdout, "{}", super::search::table_record(problem, shard, nullity))?;
        return Ok(0);
    }
    if args.picture.wanted() {
        args.picture.check_size((r1 - r0 + 1).saturating_mul(c1 - c0 + 1))?;
    }
    let bar = terminal_bar((r1 - r0 + 1) as u64, "rows");
    let table = nullity_table(r0..=r1, c0..=c1, &template, args.max_memory, &|| bar.inc(1))?;
    bar.finish_and_clear();
    let title = format!(
        "nullity of {r0}..{r1} x {c0}..{c1}, {}, rule {}",
        topology_name(template.topology()),
        template.rule()
    );
    if args.picture.wanted() {
        args.picture.write(&picture::heat_map(&table, r0, c0, &title))?;
    }
    write_table(&table, (r0, r1), (c0, c1), args.format, io.stdout)?;
    Ok(0)
}

/// Prints a nullity table whose first row and column are `r0` and `c0`.
pub(super) fn write_table(
    table: &[Vec<usize>],
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
    format: TableFormat,
    stdout: &mut dyn Write,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(stdout);
    match format {
        TableFormat::Text => {
            let width =
                table.iter().flatten().max().map_or(1, |m| m.to_string().len()).max(c1.to_string().len());
            let label = r1.to_string().len();
            write!(out, "{:>label$} |", "")?;
            for c in c0..=c1 {
                write!(out, " {c:>width$}")?;
            }
            writeln!(out)?;
            for (i, row) in table.iter().enumerate() {
                write!(out, "{:>label$} |", r0 + i)?;
                for n in row {
                    write!(out, " {n:>width$}")?;
                }
                writeln!(out)?;
            }
        }
        TableFormat::Csv => {
            writeln!(out, "rows,cols,nullity")?;
            for (i, row) in table.iter().enumerate() {
                for (j, n) in row.iter().enumerate() {
                    writeln!(out, "{},{},{n}", r0 + i, c0 + j)?;
                }
            }
        }
        TableFormat::Json => {
            for (i, row) in table.iter().enumerate() {
                for (j, n) in row.iter().enumerate() {
                    writeln!(out, "{}", table_entry_json(r0 + i, c0 + j, *n))?;
                }
            }
        }
    }
    out.flush()
}
