//! `lightsout [solve]`: boards in, fewest presses out; in memory, or
//! streamed row by row for generated boards too large to hold
//! (`solve_streamed`), or as a long search (`search.rs`).

use super::*;

/// Generated boards with more cells than this are solved row by row
/// (streamed) when only the press count, or a PBM of the presses, is asked.
pub(super) const STREAM_ABOVE_CELLS: usize = 1 << 26;

impl SolveArgs {
    pub(super) fn output_kind(&self) -> PbmKind {
        self.output_pbm.unwrap_or(PbmArg::Raw).into()
    }

    /// Refuses flags that would do nothing in this combination: silence
    /// would let the user believe they did something.
    pub(super) fn refuse_unused(&self) -> Result<(), Error> {
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

pub(super) fn solve(args: SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
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
pub(super) const SMALLER_OR_MORE_MEMORY: &str =
    "give a smaller board, or a larger --max-memory if the machine has it";

/// What to change so that a generated board too large to solve in memory
/// is solved: only changes that work (the streamed path's conditions are
/// those of [`solve_streamed`]).
pub(super) fn too_big_to_solve(args: &SolveArgs, puzzle: &Puzzle) -> String {
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

pub(super) fn create(path: &std::path::Path) -> Result<std::fs::File, Error> {
    std::fs::File::create(path).map_err(|e| Error::BadInput(format!("cannot create {}: {e}", path.display())))
}

pub(super) fn output_error(args: &SolveArgs, e: io::Error) -> Error {
    let name = args.output.as_ref().map_or(String::new(), |p| p.display().to_string());
    Error::BadInput(format!("cannot write {name}: {e}"))
}

/// Solves a large generated board of the classic puzzle row by row, never
/// holding it whole; `None` when the request is not of that kind.
pub(super) fn solve_streamed(args: &SolveArgs, io: &mut Streams) -> Result<Option<u8>, Failure> {
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
pub(super) const SHOWN_STREAM_CELLS: usize = 1 << 30;

/// A streamed board's rows, counted on a progress bar as the solver reads
/// them; each restart is a new pass over the board.
pub(super) struct RowsShown {
    pub(super) rows: GeneratedRows,
    pub(super) bar: indicatif::ProgressBar,
    pub(super) passes: usize,
}

impl RowsShown {
    pub(super) fn new(rows: GeneratedRows, count: usize, cols: usize) -> Self {
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
