//! What the command line does differently for the two kinds of game: two
//! states over GF(2) ([`Solver`], boards of bits) and K states over Z_K
//! ([`StateSolver`], boards of states). The library makes both games
//! ([`Made`]) and names their targets ([`Made::targets_of`]); what is
//! left here is input and output: the formats a board is read and
//! written in, and the progress shown while one is searched.

use std::io::{self, Read, Write};

use super::Failure;
use super::input::{boards, for_each_board, parse_states, read_input};
use super::plan::{MemoryHint, Solvers};
use super::{BoardArgs, PictureArgs, PuzzleArgs, SEARCH_TYPING_HINT, minimisation_bar};
use crate::analysis::Weighed;
use crate::model::{PbmKind, TextBoards, is_pbm};
use crate::present::{Report, Worded};
use crate::solve::{GameSpec, Made};
use crate::{Error, Grid, Method, Solver, StateGrid, StateSolver, read_pbm, write_pbm, write_pgm};

/// Where a run's boards come from and how they are read.
pub(super) struct BoardInput<'a, 'r> {
    pub(super) source: &'a BoardArgs,
    pub(super) puzzle: &'a PuzzleArgs,
    /// A dense solver will factor the boards: a two-state board is then
    /// held whole (not streamed by rows).
    pub(super) dense: bool,
    pub(super) max_memory: u64,
    /// What to change when a board does not fit `--max-memory`.
    pub(super) hint: MemoryHint<'a>,
    /// The one board of a long search: standard input is read to its end,
    /// even at a terminal, to know there is one board.
    pub(super) whole: bool,
    pub(super) stdin: &'r mut dyn Read,
    /// Whether `stdin` is a person typing at a terminal.
    pub(super) stdin_is_terminal: bool,
}

impl BoardInput<'_, '_> {
    /// Whether the boards are read from standard input (no generator, no
    /// file but `-`).
    pub(super) fn reads_stdin(&self) -> bool {
        self.source.recipe().is_none() && self.source.files.iter().all(|f| f.as_os_str() == "-")
    }
}

/// Called with each board of a run as it is read: its number, the board,
/// whether the answers so far should be flushed (the next read of a
/// stream would wait), and standard error.
pub(super) type EachBoard<'e, B> = dyn FnMut(usize, B, bool, &mut dyn Write) -> Result<(), Failure> + 'e;

/// A kind of game as the command line reads and writes it.
pub(super) trait Kind: Weighed + Made + Worded + 'static {
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
        Solvers::made(puzzle, settings, hint)
    }

    /// This game, showing a progress bar while a board's search takes
    /// seconds (two states past nullity 30; K states show none).
    fn searching_shown(self) -> Self {
        self
    }

    /// Hands every board of the input to `each`, in order, telling a
    /// person typing at a terminal (on `stderr`) how boards are read. A bad
    /// board stops the run after the ones before it.
    fn each_board(
        input: BoardInput,
        stderr: &mut dyn Write,
        each: &mut EachBoard<Self::Board>,
    ) -> Result<(), Failure>;

    /// The boards of the `--target` file's bytes `data` (named `name`), as
    /// many as `take`, in `states` states shaped by `shape`.
    fn target_boards(
        data: &[u8],
        name: &str,
        states: u8,
        shape: &BoardArgs,
        take: usize,
    ) -> Result<Vec<Self::Board>, Error>;

    /// Writes a board as an image of `states` states: PBM for two states,
    /// PGM for K; `plain` for the ASCII flavour (P1, P2), else raw.
    fn write_image(file: &mut dyn Write, board: &Self::Board, states: u8, plain: bool) -> io::Result<()>;

    /// Writes a board as `solve` reads images: raw PBM for two states,
    /// raw PGM for K.
    fn write_board(file: &mut dyn Write, board: &Self::Board, game: &Self) -> io::Result<()> {
        Self::write_image(file, board, game.cell_states(), false)
    }

    /// Draws the first board's answer to `--png`/`--svg` (two states
    /// only: K states refuse pictures before they start).
    fn picture(_: &Report<'_, Self>, _: &PictureArgs) -> Result<(), Failure> {
        Ok(())
    }
}

impl Kind for Solver {
    /// A bar past nullity 30, where a search takes a second or more.
    fn searching_shown(mut self) -> Solver {
        if self.nullity() > 30 && self.nullity() <= self.max_nullity() {
            self.set_progress(minimisation_bar());
        }
        self
    }

    fn each_board(
        input: BoardInput,
        stderr: &mut dyn Write,
        each: &mut EachBoard<Grid>,
    ) -> Result<(), Failure> {
        // A long search's one board is read whole, told by its own hint.
        let typed = input.stdin_is_terminal && !input.whole;
        if input.whole && input.stdin_is_terminal && input.reads_stdin() {
            let _ = writeln!(stderr, "{SEARCH_TYPING_HINT}");
        }
        let BoardInput { source, puzzle, dense, max_memory, hint, stdin, .. } = input;
        let mut read = read_input(source, puzzle, dense, max_memory, hint, stdin, typed)?;
        let flush = read.announce_typing(stderr);
        for (index, board) in boards(&mut read, source).enumerate() {
            each(index + 1, board?, flush.now(), stderr)?;
        }
        Ok(())
    }

    fn target_boards(
        data: &[u8],
        name: &str,
        _: u8,
        shape: &BoardArgs,
        take: usize,
    ) -> Result<Vec<Grid>, Error> {
        match is_pbm(data) {
            true => read_pbm(data, name),
            false => TextBoards::new(data, name, shape.rows, shape.cols).take(take).collect(),
        }
    }

    fn write_image(file: &mut dyn Write, board: &Grid, _: u8, plain: bool) -> io::Result<()> {
        let kind = if plain { PbmKind::Plain } else { PbmKind::Raw };
        write_pbm(file, kind, board).map(drop)
    }

    fn picture(report: &Report<'_, Solver>, picture: &PictureArgs) -> Result<(), Failure> {
        let presses = report.best().map(|(_, s)| &s.presses);
        let puzzle = crate::Game::puzzle(report.game);
        let scene = crate::picture::board_on(puzzle, report.board, presses, &report.best_summary())?;
        Ok(picture.write(&scene)?)
    }
}

impl Kind for StateSolver {
    fn each_board(
        input: BoardInput,
        stderr: &mut dyn Write,
        each: &mut EachBoard<StateGrid>,
    ) -> Result<(), Failure> {
        for_each_board(input, stderr, each)
    }

    fn target_boards(
        data: &[u8],
        name: &str,
        k: u8,
        shape: &BoardArgs,
        take: usize,
    ) -> Result<Vec<StateGrid>, Error> {
        parse_states(data, name, k, shape)?.take(take).collect()
    }

    fn write_image(file: &mut dyn Write, board: &StateGrid, states: u8, plain: bool) -> io::Result<()> {
        write_pgm(file, board, states, !plain).map(drop)
    }
}
