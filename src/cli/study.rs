//! The study commands: `analyze` (a size's null space), `check` (which
//! targets a board can reach, and why not), `table` (nullity over ranges).

use std::io::{self, Write};

use crate::analysis::{Study, study};
use crate::cli::{
    AnalyzeArgs, BoardInput, CheckArgs, Failure, Kind, LimitHint, PictureArgs, Streams, StudyFormat,
    TableArgs, TableFormat, check_text, smaller_or_more_memory, solver_failure, terminal_bar,
};
use crate::present::{kernel_entry_json, study_json, study_text, table_entry_json, topology_name};
use crate::record::{TableProblem, table_record};
use crate::solve::{Board, Limits, limits};
use crate::{Error, Grid, Method, Puzzle, kernel_table, nullity_table, picture};

/// `analyze`: the null space of a size, over GF(2) or Z_K (the library's
/// one [`study`] of both kinds), as text or JSON, and for two states its
/// quiet patterns drawn.
pub(super) fn analyze(args: AnalyzeArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.puzzle.refuse_unused(None, None)?;
    let states = args.puzzle.modulus();
    if args.picture.wanted() && states.get() > 2 {
        return Err(Error::BadInput("--png and --svg draw two-state quiet patterns".into()).into());
    }
    let (rows, cols) = args.size.shape(args.puzzle.graph.as_deref());
    let puzzle = args.puzzle.puzzle(rows, cols)?;
    let max_memory = args.memory.max_memory;
    let failure = |e| solver_failure(e, &puzzle, Method::Auto, &smaller_or_more_memory);
    if states.get() == 2 {
        let work = format!("analysing a {rows}x{cols} board");
        limits::check(limits::solve_bytes(&puzzle, !puzzle.is_classic()), max_memory, &work)
            .map_err(failure)?;
    }
    let s = study(&puzzle, states, args.max_nullity, max_memory, &Limits::NONE).map_err(failure)?;
    if args.picture.wanted() {
        draw_quiet_patterns(&s, &puzzle, &args.picture)?;
    }
    let text = match args.format {
        StudyFormat::Text => study_text(&s, &puzzle, states.get()),
        StudyFormat::Json => study_json(&s, &puzzle, states.get()) + "\n",
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(0)
}

/// Draws a two-state study's quiet patterns to `--png`/`--svg`.
fn draw_quiet_patterns(s: &Study, puzzle: &Puzzle, picture: &PictureArgs) -> Result<(), Failure> {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let quiet: Vec<Grid> =
        s.quiet.iter().flatten().map(|(q, _)| Grid::from_cell_values(rows, cols, q)).collect();
    picture.check_size(quiet.len().max(1) * puzzle.cells(), "size")?;
    Ok(picture.write(&picture::quiet_patterns_on(puzzle, &quiet, s.kernel.nullity.unwrap_or(0))?)?)
}

/// `check`: per board and target, solvable, or the obstruction that
/// proves it is not (no minimisation is needed).
pub(super) fn check<G: Kind>(mut args: CheckArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.puzzle.refuse_unused(args.source.rows, args.source.cols)?;
    args.source.take_graph_shape(&args.puzzle);
    args.source.refuse_unused()?;
    let max_memory = args.memory.max_memory;
    let targets = args.target.resolve::<G>(&args.source, args.puzzle.modulus(), max_memory)?;
    let hint = &smaller_or_more_memory;
    let mut solvers = G::solvers(&args.puzzle, Method::Auto, 0, max_memory, hint);
    let Streams { stdin, stdin_is_terminal, stdout, stderr } = io;
    let (source, puzzle, whole, stdin_is_terminal) = (&args.source, &args.puzzle, false, *stdin_is_terminal);
    let stdin = &mut **stdin;
    let input =
        BoardInput { source, puzzle, dense: false, max_memory, hint, whole, stdin, stdin_is_terminal };
    let mut out = io::BufWriter::new(&mut **stdout);
    G::each_board(input, &mut **stderr, &mut |index, board, flush, _| {
        let solver = solvers.for_board(&board)?;
        let verdicts = targets
            .iter()
            .map(|t| Ok((t.clone(), solver.obstruction(&board, t)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        let text = match args.format {
            StudyFormat::Text => check_text(index, solver, &verdicts),
            StudyFormat::Json => solver.check_json(index, &verdicts) + "\n",
        };
        out.write_all(text.as_bytes())?;
        if flush {
            out.flush()?;
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(0)
}

/// What an interrupted `table` says it lost, and how to keep it (both
/// kinds).
pub(super) const TABLE_ADVICE: &str =
    "--shard K/N cuts a table into slices that run one at a time (merge joins them)";

/// `table`: the nullity (two states) or the kernel's size (K states) of
/// every size in the ranges.
pub(super) fn table(args: TableArgs, io: &mut Streams) -> Result<u8, Failure> {
    if args.puzzle.graph.is_some() {
        return Err(
            Error::BadInput("--graph has one size; a table runs over ranges of grid sizes".into()).into()
        );
    }
    if args.puzzle.states > 2 {
        return state_table(&args, io);
    }
    let template = args.puzzle.puzzle(1, 1)?;
    let max_memory = args.memory.max_memory;
    let narrow = || "narrow the ranges of --rows and --cols".to_string();
    let ((r0, r1), (c0, c1)) = (args.rows, args.cols);
    if let Some(shard) = args.shard {
        if args.picture.wanted() {
            return Err(Error::BadInput(
                "--png and --svg do not go with --shard: draw the merged table".into(),
            )
            .into());
        }
        if args.format == Some(TableFormat::Csv) {
            return Err(Error::BadInput(
                "--shard prints its slice as one JSON line; --format csv goes with `lightsout merge`".into(),
            )
            .into());
        }
        // Every N-th row: late rows cost more, so interleaved slices share
        // the work evenly.
        let mut nullity = Vec::new();
        for i in 0..shard.len((r1 - r0 + 1) as u64) {
            let row = r0 + shard.block(i) as usize;
            nullity
                .extend(nullity_table(row..=row, c0..=c1, &template, max_memory, &|| {}).limit_hint(narrow)?);
        }
        let problem = TableProblem {
            rows: args.rows,
            cols: args.cols,
            topology: topology_name(template.topology()).into(),
            rule: template.rule().mask(),
        };
        writeln!(io.stdout, "{}", table_record(problem, shard, nullity))?;
        return Ok(0);
    }
    if args.picture.wanted() {
        args.picture.check_size((r1 - r0 + 1).saturating_mul(c1 - c0 + 1), "range")?;
    }
    let bar = terminal_bar((r1 - r0 + 1) as u64, "rows");
    let _interrupt = super::interrupt::end_on_interrupt(&bar, TABLE_ADVICE);
    let table = nullity_table(r0..=r1, c0..=c1, &template, max_memory, &|| bar.inc(1)).limit_hint(narrow)?;
    bar.finish_and_clear();
    let title = format!(
        "nullity of {r0}..{r1} x {c0}..{c1}, {}, rule {}",
        topology_name(template.topology()),
        template.rule()
    );
    if args.picture.wanted() {
        args.picture.write(&picture::heat_map(&table, r0, c0, &title))?;
    }
    // A picture asked for alone is the answer: the table is not printed
    // too (a million sizes of text nobody asked for).
    match (args.format, args.picture.wanted()) {
        (None, true) => {}
        (format, _) => {
            write_table(&table, (r0, r1), (c0, c1), format.unwrap_or(TableFormat::Text), io.stdout)?
        }
    }
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
            write_grid(&mut out, table, r0, (c0, c1), (label, " |"), width, |&n| n)?;
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

/// Writes `table` as a text grid: a line of the column numbers `c0..=c1`,
/// then a line a row, led by its number from `r0`. The numbers that lead
/// the lines take `label.0` places and are followed by `label.1`; every
/// cell, `cell` of an entry, takes `width` places after a space.
fn write_grid<T, D: std::fmt::Display>(
    out: &mut impl Write,
    table: &[Vec<T>],
    r0: usize,
    (c0, c1): (usize, usize),
    (label, after_label): (usize, &str),
    width: usize,
    cell: impl Fn(&T) -> D,
) -> io::Result<()> {
    write!(out, "{:>label$}{after_label}", "")?;
    for c in c0..=c1 {
        write!(out, " {c:>width$}")?;
    }
    writeln!(out)?;
    for (i, row) in table.iter().enumerate() {
        write!(out, "{:>label$}{after_label}", r0 + i)?;
        for entry in row {
            write!(out, " {:>width$}", cell(entry))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

/// `lightsout table --states K`: log2 of the kernel's size over ranges of
/// sizes (for prime K, the nullity times log2 K).
fn state_table(args: &TableArgs, io: &mut Streams) -> Result<u8, Failure> {
    if args.shard.is_some() || args.picture.wanted() {
        return Err(Error::BadInput(
            "--shard, --png and --svg tabulate two states; a table of K states is printed whole".into(),
        )
        .into());
    }
    let states = args.puzzle.modulus();
    let ((r0, r1), (c0, c1)) = (args.rows, args.cols);
    let sizes = (r1 - r0 + 1).saturating_mul(c1 - c0 + 1);
    if sizes > 1 << 20 {
        return Err(Failure::hinted(
            Error::Limit(format!("a table of {sizes} sizes of {} states is more than 2^20", states.get())),
            "narrow the ranges of --rows and --cols",
        ));
    }
    let template = args.puzzle.puzzle(1, 1)?;
    let cols: Vec<usize> = (c0..=c1).collect();
    let bar = terminal_bar((r1 - r0 + 1) as u64, "rows");
    let _interrupt = super::interrupt::end_on_interrupt(&bar, TABLE_ADVICE);
    let mut table = Vec::new();
    for row in kernel_table(r0..=r1, &cols, &template, states, args.memory.max_memory) {
        table.push(row.map_err(|e| solver_failure(e, &template, Method::Auto, &smaller_or_more_memory))?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let k = states.get();
    let mut out = io::BufWriter::new(&mut *io.stdout);
    match args.format.unwrap_or(TableFormat::Text) {
        TableFormat::Text => {
            writeln!(out, "log2 of the kernel size, {k} states (rows down, columns across)")?;
            write_grid(&mut out, &table, r0, (c0, c1), (6, ""), 6, |entry| {
                format!("{:.2}", entry.kernel_size_log2)
            })?;
        }
        TableFormat::Csv => {
            writeln!(out, "rows,cols,states,kernel_size_log2,nullity")?;
            for (i, row) in table.iter().enumerate() {
                for (j, entry) in row.iter().enumerate() {
                    let d = entry.nullity.map_or(String::new(), |d| d.to_string());
                    writeln!(out, "{},{},{k},{},{d}", r0 + i, c0 + j, entry.kernel_size_log2)?;
                }
            }
        }
        TableFormat::Json => {
            for (i, row) in table.iter().enumerate() {
                for (j, entry) in row.iter().enumerate() {
                    writeln!(out, "{}", kernel_entry_json(r0 + i, c0 + j, k, entry))?;
                }
            }
        }
    }
    out.flush()?;
    Ok(0)
}
