//! What the command line does differently for the two kinds of game: two
//! states over GF(2) ([`Solver`], boards of bits) and K states over Z_K
//! ([`StateSolver`], boards of states). The flows of `solve` and `check`
//! are written once over [`Kind`]; only this differs, the way the text
//! reader serves two kinds of cell through one `Cells`.

use std::io::{self, Read, Write};

use super::Failure;
use super::input::{StateInput, for_each_board};
use super::input::{boards, read_input};
use super::plan::{MemoryHint, Solvers, shown_searching};
use super::{BoardArgs, PbmArg, PictureArgs, PuzzleArgs, SolveArgs, Streams, TargetArg};
use crate::analysis::Weighed;
use crate::present::{Report, Worded};
use crate::solve::{GameSpec, Made, TargetOf};
use crate::{Grid, Method, Solver, StateGrid, StateSolver, write_pbm, write_pgm};

/// Where a run's boards come from and how they are read.
pub(super) struct BoardInput<'a> {
    pub(super) source: &'a BoardArgs,
    pub(super) puzzle: &'a PuzzleArgs,
    /// A dense solver will factor the boards: a two-state board is then
    /// held whole (not streamed by rows).
    pub(super) dense: bool,
    pub(super) max_memory: u64,
    /// What to change when a board does not fit `--max-memory`.
    pub(super) hint: MemoryHint<'a>,
}

/// Called with each board of a run as it is read: its number, the board,
/// whether the answers so far should be flushed (the next read of a
/// stream would wait), and standard error.
pub(super) type EachBoard<'e, B> = dyn FnMut(usize, B, bool, &mut dyn Write) -> Result<(), Failure> + 'e;

/// A kind of game as the command line reads, makes and writes it.
pub(super) trait Kind: Weighed + Made + Worded {
    /// `solve`, by the routes this kind has (two states stream large
    /// generated boards; both search long, sliced and resumable).
    fn solve_command(args: &SolveArgs, io: &mut Streams) -> Result<u8, Failure>;

    /// The targets `--target` names, for a puzzle of `puzzle`'s states.
    fn targets(
        target: &TargetArg,
        source: &BoardArgs,
        puzzle: &PuzzleArgs,
        max_memory: u64,
    ) -> Result<Vec<TargetOf<Self>>, crate::Error>;

    /// A solver for each shape of board, searching up to `max_nullity`
    /// (two states: the exhaustive search's nullity; K states: a kernel
    /// of up to 2^`max_nullity` members), as asked: no work limit.
    fn solvers<'a>(
        puzzle: &'a PuzzleArgs,
        method: Method,
        max_nullity: usize,
        max_memory: u64,
        hint: MemoryHint<'a>,
    ) -> Solvers<'a, Self> {
        let settings = move |spec: GameSpec| {
            spec.with_method(method).asking_max_nullity(max_nullity).with_max_memory(max_memory)
        };
        Self::solvers_made(puzzle, settings, hint)
    }

    /// A solver for each shape of board, made from the library's
    /// [`GameSpec`] as `settings` changes it.
    fn solvers_made<'a>(
        puzzle: &'a PuzzleArgs,
        settings: impl Fn(GameSpec) -> GameSpec + 'a,
        hint: MemoryHint<'a>,
    ) -> Solvers<'a, Self>;

    /// Hands every board of the input to `each`, in order, telling a
    /// person typing at a terminal (on `stderr`) how boards are read. A bad
    /// board stops the run after the ones before it.
    fn each_board(
        input: BoardInput,
        stdin: &mut dyn Read,
        stdin_is_terminal: bool,
        stderr: &mut dyn Write,
        each: &mut EachBoard<Self::Board>,
    ) -> Result<(), Failure>;

    /// Writes a press set to `--output` (PBM for two states, PGM for K).
    fn write_presses(file: &mut dyn Write, args: &SolveArgs, presses: &Self::Board) -> io::Result<()>;

    /// Writes a board as `solve` reads images: raw PBM for two states,
    /// raw PGM for K.
    fn write_board(file: &mut dyn Write, board: &Self::Board, game: &Self) -> io::Result<()>;

    /// Draws the first board's answer to `--png`/`--svg` (two states
    /// only: K states refuse pictures before they start).
    fn picture(_: &Report<'_, Self>, _: &PictureArgs) -> Result<(), Failure> {
        Ok(())
    }
}

impl Kind for Solver {
    fn solve_command(args: &SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
        super::solve::solve_two_states(args, io)
    }

    fn targets(
        target: &TargetArg,
        source: &BoardArgs,
        _: &PuzzleArgs,
        max_memory: u64,
    ) -> Result<Vec<TargetOf<Self>>, crate::Error> {
        target.resolve(source, max_memory)
    }

    fn solvers_made<'a>(
        puzzle: &'a PuzzleArgs,
        settings: impl Fn(GameSpec) -> GameSpec + 'a,
        hint: MemoryHint<'a>,
    ) -> Solvers<'a, Self> {
        Solvers::made(puzzle, settings, hint).then(shown_searching)
    }

    fn each_board(
        input: BoardInput,
        stdin: &mut dyn Read,
        stdin_is_terminal: bool,
        stderr: &mut dyn Write,
        each: &mut EachBoard<Self::Board>,
    ) -> Result<(), Failure> {
        let BoardInput { source, puzzle, dense, max_memory, hint } = input;
        let mut read = read_input(source, puzzle, dense, max_memory, hint, stdin, stdin_is_terminal)?;
        let flush = read.announce_typing(stderr);
        for (index, board) in boards(&mut read, source).enumerate() {
            each(index + 1, board?, flush.now(), stderr)?;
        }
        Ok(())
    }

    fn write_presses(file: &mut dyn Write, args: &SolveArgs, presses: &Self::Board) -> io::Result<()> {
        write_pbm(file, args.output_kind(), presses).map(drop)
    }

    fn write_board(file: &mut dyn Write, board: &Grid, _: &Solver) -> io::Result<()> {
        write_pbm(file, crate::model::PbmKind::Raw, board).map(drop)
    }

    fn picture(report: &Report<'_, Solver>, picture: &PictureArgs) -> Result<(), Failure> {
        let presses = report.best().map(|(_, s)| &s.presses);
        let puzzle = crate::Game::puzzle(report.solver);
        let scene = crate::picture::board_on(puzzle, report.board, presses, &report.best_summary())?;
        Ok(picture.write(&scene)?)
    }
}

impl Kind for StateSolver {
    fn solve_command(args: &SolveArgs, io: &mut Streams) -> Result<u8, Failure> {
        super::solve::solve_states(args, io)
    }

    fn targets(
        target: &TargetArg,
        source: &BoardArgs,
        puzzle: &PuzzleArgs,
        max_memory: u64,
    ) -> Result<Vec<TargetOf<Self>>, crate::Error> {
        target.resolve_states(source, puzzle.modulus(), max_memory)
    }

    fn solvers_made<'a>(
        puzzle: &'a PuzzleArgs,
        settings: impl Fn(GameSpec) -> GameSpec + 'a,
        _: MemoryHint<'a>,
    ) -> Solvers<'a, Self> {
        Solvers::made(puzzle, settings, &super::smaller_or_more_memory)
    }

    fn each_board(
        input: BoardInput,
        stdin: &mut dyn Read,
        stdin_is_terminal: bool,
        stderr: &mut dyn Write,
        each: &mut EachBoard<Self::Board>,
    ) -> Result<(), Failure> {
        let BoardInput { source, puzzle, max_memory, .. } = input;
        let input = StateInput { source, puzzle, max_memory, stream: true };
        input.announce_typing(stdin_is_terminal, stderr);
        for_each_board(input, stdin, stdin_is_terminal, &mut |index, board, flush| {
            each(index, board, flush, stderr)
        })
    }

    fn write_presses(file: &mut dyn Write, args: &SolveArgs, presses: &Self::Board) -> io::Result<()> {
        let raw = !matches!(args.output_pbm, Some(PbmArg::Plain));
        write_pgm(file, presses, args.puzzle.modulus().get(), raw).map(drop)
    }

    fn write_board(file: &mut dyn Write, board: &StateGrid, game: &StateSolver) -> io::Result<()> {
        write_pgm(file, board, game.states().get(), true).map(drop)
    }
}
