//! `lightsout [solve]`: boards in, fewest presses out, by the route the
//! plan chose (`plan.rs`): in memory, streamed row by row for generated
//! boards too large to hold, or as a long search (`search.rs`).

use super::*;

pub(super) fn solve(mut args: SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.puzzle.refuse_unused(args.source.rows, args.source.cols)?;
    args.source.take_graph_shape(&args.puzzle);
    args.refuse_unused()?;
    if args.puzzle.states > 2 {
        return super::states::solve(&args, io);
    }
    let targets = args.target.resolve(&args.source, args.memory.max_memory)?;
    match args.route() {
        Route::Search => search::solve(&args, &targets, io),
        Route::Streamed { rows, cols, recipe } => solve_streamed(&args, (rows, cols), recipe, &targets, io),
        Route::InMemory => solve_in_memory(&args, &targets, io),
    }
}

/// Solves each board of the input in memory, answering it as it comes.
fn solve_in_memory(args: &SolveArgs, targets: &[Target], io: &mut Streams) -> Result<u8, Failure> {
    let max_memory = args.memory.max_memory;
    let dense = matches!(args.method, MethodArg::Dense);
    let hint = |puzzle: &Puzzle| args.memory_hint(puzzle);
    let mut input =
        read_input(&args.source, &args.puzzle, dense, max_memory, &hint, io.stdin, io.stdin_is_terminal)?;
    let typed = input.announce_typing(io.stderr);
    let mut output = OutputFile::new(args);
    let mut solvers = Solvers::new(&args.puzzle, args.method.into(), args.max_nullity, max_memory, &hint);
    let mut out = io::BufWriter::new(&mut *io.stdout);
    for (index, board) in boards(&mut input, &args.source).enumerate() {
        let (board, index) = (&board?, index + 1);
        let shape = (board.nrows(), board.ncols());
        if index == 1 && args.picture.wanted() {
            args.picture.check_size(board.nrows() * board.ncols(), "board")?;
        }
        let solver = solvers.for_board(board)?;
        let answer = solver.solve(board, targets)?;
        let report = Report { index, board, solver, answer: &answer };
        report.warn_if_not_proven(io.stderr, args.max_nullity);
        let text = report.render(args.format.into(), args.show);
        // The file is made before the answer that first goes into it is
        // printed, so that a path that cannot be created stops the run there.
        let file = if report.best().is_some() { output.get()? } else { None };
        out.write_all(text.as_bytes())?;
        if typed.now() {
            out.flush()?;
        }
        if let (Some(file), Some((_, best))) = (file, report.best()) {
            write_pbm(&mut *file, args.output_kind(), &best.presses).map_err(|e| output_error(args, e))?;
        }
        if index == 1 && args.picture.wanted() {
            let title = format!("{}x{} board, {}", shape.0, shape.1, report.best_summary());
            args.picture.write(&picture::board(board, report.best().map(|(_, s)| &s.presses), &title))?;
        }
    }
    out.flush()?;
    output.finish(io.stderr)?;
    Ok(0)
}

/// `--output FILE`, created when the first press grid is ready for it: a
/// run in which no board has a solution leaves no empty file behind (and
/// an older file of that name as it was), and says so.
pub(super) struct OutputFile<'a> {
    args: &'a SolveArgs,
    file: Option<io::BufWriter<std::fs::File>>,
}

impl<'a> OutputFile<'a> {
    pub(super) fn new(args: &'a SolveArgs) -> Self {
        OutputFile { args, file: None }
    }

    /// The file for a press grid, created on first use; `None` without
    /// `--output`.
    pub(super) fn get(&mut self) -> Result<Option<&mut io::BufWriter<std::fs::File>>, Error> {
        let Some(path) = &self.args.output else { return Ok(None) };
        if self.file.is_none() {
            self.file = Some(io::BufWriter::new(create(path)?));
        }
        Ok(self.file.as_mut())
    }

    /// Flushes the file, or says on `stderr` that there is none.
    pub(super) fn finish(self, stderr: &mut dyn Write) -> Result<(), Error> {
        match (self.file, &self.args.output) {
            (Some(mut file), _) => file.flush().map_err(|e| output_error(self.args, e)),
            (None, Some(path)) => {
                not_written(stderr, path);
                Ok(())
            }
            (None, None) => Ok(()),
        }
    }
}

/// The note for `--output FILE` when no board had presses to write.
fn not_written(stderr: &mut dyn Write, path: &std::path::Path) {
    let _ = writeln!(
        stderr,
        "lightsout: note: no board has a solution, so --output {} was not written",
        path.display()
    );
}

pub(super) fn create(path: &std::path::Path) -> Result<std::fs::File, Error> {
    std::fs::File::create(path).map_err(|e| Error::BadInput(format!("cannot create {}: {e}", path.display())))
}

pub(super) fn output_error(args: &SolveArgs, e: io::Error) -> Error {
    let name = args.output.as_ref().map_or(String::new(), |p| p.display().to_string());
    Error::BadInput(format!("cannot write {name}: {e}"))
}

/// Solves a large generated board of the classic puzzle row by row, never
/// holding it whole: `rows` runs down its longer side, and only the
/// colours of `targets` are asked (see [`SolveArgs::route`]).
fn solve_streamed(
    args: &SolveArgs,
    (rows, cols): (usize, usize),
    recipe: Generate,
    targets: &[Target],
    io: &mut Streams,
) -> Result<u8, Failure> {
    let puzzle = Puzzle::new(rows, cols)?;
    let chase = Chase::new(&puzzle);
    let max_nullity = args.max_nullity.min(MAX_STREAMED_NULLITY);
    let weighed = if chase.nullity() <= max_nullity { chase.nullity() } else { 0 };
    let work = format!("solving a {rows}x{cols} board row by row");
    limits::check(limits::streamed_bytes(cols, weighed), args.memory.max_memory, &work)
        .limit_hint(|| SMALLER_OR_MORE_MEMORY.into())?;
    let mut stream = RowsShown::new(GeneratedRows::new(recipe, cols), rows, cols);
    let mut counts = Vec::new();
    for target in targets {
        let result = chase.solve_streamed(&mut stream, target, max_nullity, &mut |_| Ok(()))?;
        counts.push((target, result));
    }
    let tallies: Vec<Tally> = counts
        .iter()
        .map(|&(target, result)| Tally { name: target.name().into(), result, lower_bound: 0, presses: None })
        .collect();
    let best = best_tally(&tallies).and_then(|best| targets.iter().find(|t| t.name() == best.name));
    if let (Some(path), Some(target)) = (&args.output, best) {
        let file = io::BufWriter::new(create(path)?);
        let mut pbm =
            PbmWriter::new(file, args.output_kind(), rows, cols).map_err(|e| output_error(args, e))?;
        chase.solve_streamed(&mut stream, target, max_nullity, &mut |row| {
            pbm.write_row(row).map_err(|e| output_error(args, e))
        })?;
        pbm.finish().map_err(|e| output_error(args, e))?;
    }
    stream.bar.finish_and_clear();
    if let (Some(path), None) = (&args.output, best) {
        not_written(io.stderr, path);
    }
    for tally in tallies.iter().filter(|t| answers(&t.name, &tallies)) {
        if let Some((count, false)) = tally.result {
            let _ = writeln!(
                io.stderr,
                "lightsout: note: board 1, {}: {}, not proven minimal \
                 (nullity {} is more than a streamed search weighs: at most {max_nullity}, and 2^d times \
                 the board within about a minute)",
                tally.name,
                presses(count),
                chase.nullity()
            );
        }
    }
    let text = match args.format {
        Format::Poj => poj_line(&tallies),
        // Sized as given (a wide uniform board is streamed transposed).
        _ => {
            let shape = (args.source.rows.unwrap_or(rows), args.source.cols.unwrap_or(cols));
            text_lines(two_state_header(1, shape, chase.nullity()), &tallies, false)
        }
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(0)
}
