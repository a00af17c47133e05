//! `lightsout [solve]`: boards in, fewest presses out, by the route the
//! plan chose (`plan.rs`): in memory, streamed row by row for generated
//! boards too large to hold, or as a long search (`search.rs`).

use std::io::{self, Write};

use crate::cli::{
    Failure, Format, Kind, LimitHint, Long, PbmArg, Route, RowsShown, SMALLER_OR_MORE_MEMORY, SolveArgs,
    Solvers, Streams, note_not_proven, search,
};
use crate::model::{GeneratedRows, PbmWriter};
use crate::present::{Report, Tally, answers, best_tally, poj_line, presses, text_lines, two_state_header};
use crate::solve::{Chase, GameSpec, MAX_STREAMED_NULLITY, limits};
use crate::zk::Modulus;
use crate::{Error, Generate, Puzzle, Solver, Target};

pub(super) fn solve<G: Long>(mut args: SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.puzzle.refuse_unused(args.source.rows, args.source.cols)?;
    args.source.take_graph_shape(&args.puzzle);
    args.refuse_unused()?;
    if args.puzzle.states > 2 {
        refuse_two_state_only(&args)?;
    }
    match args.route() {
        Route::Search => search::solve::<G>(&args, io),
        Route::Streamed { rows, cols, recipe } => {
            let targets =
                args.target.resolve::<Solver>(&args.source, Modulus::TWO, args.memory.max_memory)?;
            solve_streamed(&args, (rows, cols), recipe, &targets, io)
        }
        Route::InMemory => solve_in_memory::<G>(&args, io),
    }
}

/// What a K-state solve does not do (yet): refused in words, not ignored.
fn refuse_two_state_only(args: &SolveArgs) -> Result<(), Error> {
    let k = args.puzzle.states;
    if args.picture.wanted() {
        return Err(Error::BadInput(format!(
            "--png and --svg draw two-state boards; a board of {k} states is written with --output FILE (PGM)"
        )));
    }
    let search = &args.search;
    let steering = [
        ("--estimate", search.estimate),
        ("--engine", search.engine.is_some()),
        ("--incumbent", search.incumbent.is_some()),
        ("--leaf-bits", search.leaf_bits.is_some()),
    ];
    if let Some((flag, _)) = steering.iter().find(|(_, given)| *given) {
        return Err(Error::BadInput(format!(
            "{flag} steers the two-state search; a search of {k} states has one engine and no estimate yet \
             (--max-nullity, --shard, --checkpoint and --time-limit work with --states)"
        )));
    }
    Ok(())
}

/// What an interrupted solve in memory says to do next time.
const UNSAVED_ADVICE: &str = "add --checkpoint FILE to be able to resume";

/// Solves each board of the input in memory, answering it as it comes,
/// for either kind of game.
pub(super) fn solve_in_memory<G: Kind>(args: &SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
    let max_memory = args.memory.max_memory;
    let targets = args.target.resolve::<G>(&args.source, args.puzzle.modulus(), max_memory)?;
    let hint = |puzzle: &Puzzle| args.memory_hint(puzzle);
    let mut output = OutputFile::new(args);
    let (method, asked) = (args.method.into(), args.max_nullity_asked.then_some(args.max_nullity));
    // The library's defaults, and what the flags given change: a
    // `--max-nullity` asked lifts the K-state work limit.
    let settings = move |spec: GameSpec| {
        spec.with_method(method).with_max_memory(max_memory).max_nullity_or(asked, usize::MAX)
    };
    let mut solvers = Solvers::<G>::made(&args.puzzle, settings, &hint);
    let Streams { stdin, stdin_is_terminal, stdout, stderr } = io;
    let input = args.board_input(&hint, false, &mut **stdin, *stdin_is_terminal);
    let mut out = io::BufWriter::new(&mut **stdout);
    // Minutes of search can go on in a board, and nothing of them is kept:
    // an interrupt says so, and how to keep it. Once per run on a stream
    // (the classic 65,536 boards pay nothing per board); per board at a
    // terminal, where an interrupt while a board is typed just ends.
    let per_board = *stdin_is_terminal;
    let unsaved = || super::interrupt::end_on_interrupt_unmeasured(UNSAVED_ADVICE);
    let _interrupt = (!per_board).then(unsaved);
    let mut text = String::new();
    G::each_board(input, &mut **stderr, &mut |index, board, flush, stderr| {
        if index == 1 && args.picture.wanted() {
            let (rows, cols) = crate::Board::shape(&board);
            args.picture.check_size(rows * cols, "board")?;
        }
        let solver = solvers.for_board(&board)?;
        let answer = {
            let _interrupt = per_board.then(unsaved);
            solver.solve(&board, &targets)?
        };
        note_not_proven(stderr, index, solver, &answer, args.max_nullity);
        let report = Report { index, board: &board, game: solver, answer: &answer };
        text.clear();
        report.render_into(&mut text, args.format.into(), args.show);
        // The file is made before the answer that first goes into it is
        // printed, so that a path that cannot be created stops the run there.
        let best = answer.best();
        let file = if best.is_some() { output.get()? } else { None };
        out.write_all(text.as_bytes())?;
        if flush {
            out.flush()?;
        }
        if let (Some(file), Some((_, best))) = (file, best) {
            let plain = matches!(args.output_pbm, Some(PbmArg::Plain));
            G::write_image(file, &best.presses, args.puzzle.states, plain)
                .map_err(|e| output_error(args, e))?;
        }
        if index == 1 && args.picture.wanted() {
            G::picture(&report, &args.picture)?;
        }
        Ok(())
    })?;
    out.flush()?;
    output.finish(*stderr)?;
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
        Format::Poj => {
            poj_line(best_tally(&tallies).and_then(|t| t.result).map(|(presses, _)| presses)).into()
        }
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
