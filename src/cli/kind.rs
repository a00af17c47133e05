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
use super::states_search::beyond_budget;
use super::{BoardArgs, PbmArg, PictureArgs, PuzzleArgs, SolveArgs, Streams, TargetArg};
use crate::analysis::Weighed;
use crate::present::{Report, Shown, found_by_words, kernel_text, presses, shape_text};
use crate::solve::{GameSpec, MAX_EXHAUSTIVE_NULLITY, Made, Solution, TargetOf};
use crate::{Answer, Grid, Method, Solver, StateGrid, StateSolver, write_pbm, write_pgm};

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
pub(super) trait Kind: Weighed + Made
where
    Self::Board: Shown<Solver = Self>,
{
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
    fn picture(_: &Report<'_, Self::Board>, _: &PictureArgs) -> Result<(), Failure> {
        Ok(())
    }

    /// The kernel as `check`'s first line gives it: `nullity 4`, or the
    /// states and the kernel's size.
    fn kernel_words(&self) -> String;

    /// Why a board with an obstruction cannot reach its target.
    fn unsolvable_words(&self) -> String;

    /// Why `solution`, not proven minimal, was not proven, in the command
    /// line's words (`--max-nullity`, `--max-memory`).
    /// `reachable`: the targets of the board that can be reached.
    fn not_proven_why(
        &self,
        solution: &Solution<Self::Board>,
        max_nullity: usize,
        reachable: usize,
    ) -> String;

    /// Why targets of a board were not searched in full although their
    /// cosets fit `--max-nullity` (the work limit of K states), with what
    /// it would take: `reachable` targets, each of the kernel's size.
    /// `None` when no work limit is set (every target within the budget is
    /// then searched in full).
    fn work_limit_why(&self, _reachable: usize) -> Option<String> {
        None
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

    fn picture(report: &Report<'_, Grid>, picture: &PictureArgs) -> Result<(), Failure> {
        let presses = report.best().map(|(_, s)| &s.presses);
        let puzzle = crate::Game::puzzle(report.solver);
        let scene = crate::picture::board_on(puzzle, report.board, presses, &report.best_summary())?;
        Ok(picture.write(&scene)?)
    }

    fn kernel_words(&self) -> String {
        format!("nullity {}", self.nullity())
    }

    fn unsolvable_words(&self) -> String {
        "the cells to flip meet this pattern in an odd number of cells, and every press meets it in an even \
         number (x = pattern)"
            .into()
    }

    fn not_proven_why(&self, solution: &Solution<Self::Board>, max_nullity: usize, _: usize) -> String {
        let nullity = self.nullity();
        let how = found_by_words(&solution.found_by, solution.lower_bound);
        if !self.holds_quiet_patterns() {
            format!(
                "its {nullity} quiet patterns do not fit --max-memory, so the press set was not minimised"
            )
        } else if nullity > max_nullity {
            let how = how.as_deref().unwrap_or("a local search found it");
            format!("nullity {nullity} is above --max-nullity {max_nullity}; {how}")
        } else if let Some(how) = how {
            // An exhaustive search cut short (a stop or a time limit).
            how
        } else {
            format!("nullity {nullity} is above the exhaustive search's limit of {MAX_EXHAUSTIVE_NULLITY}")
        }
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

    fn kernel_words(&self) -> String {
        format!("{} states, kernel {}", self.states().get(), kernel_text(self))
    }

    fn unsolvable_words(&self) -> String {
        format!(
            "every press meets this pattern in a sum of 0 mod {}, the change the board needs does not (numbers: \
             the pattern's weights)",
            self.states().get()
        )
    }

    fn not_proven_why(
        &self,
        solution: &Solution<Self::Board>,
        max_nullity: usize,
        reachable: usize,
    ) -> String {
        // A kernel within the budget is searched in full unless the work
        // limit of a default run cut it short, or the board is at another
        // target already (then only cheap searches run).
        let why = match self.kernel_size_log2() <= max_nullity as f64 {
            true => self.work_limit_why(reachable).filter(|_| reachable > 1).unwrap_or_else(|| {
                "the board is at another target already (0 presses), so this one was searched only as far as \
                     is cheap"
                    .to_string()
            }),
            false => beyond_budget(self, max_nullity),
        };
        format!("{why}; a local search found it; at least {}", solution.lower_bound)
    }

    fn work_limit_why(&self, reachable: usize) -> Option<String> {
        let limit = self.work_limit()?;
        let each = self.kernel_size_log2();
        let all = each + (reachable.max(1) as f64).log2();
        // The K-state engine weighs 1-3·10^8 members a second on two
        // cores (docs/performance.md); the estimate takes the low end.
        let seconds = all.exp2() / 1e8;
        let targets =
            format!("the {reachable} reachable targets' 2^{each:.1} members each, 2^{all:.1} in all");
        Some(format!(
            "an exhaustive search of {targets} (about {seconds:.1} s at 10^8 members a second) is past the \
             2^{limit} members a board gets over all its targets without --max-nullity; --max-nullity {} \
             searches every target in full",
            each.ceil() as u64
        ))
    }
}

/// Notes on `stderr` each count of `report` not proven minimal: of the
/// target asked for, or with several, of the answer given (a note on
/// another target would be about a question nobody asked).
pub(super) fn note_not_proven<G: Kind>(
    stderr: &mut dyn Write,
    index: usize,
    solver: &G,
    answer: &Answer<G::Board>,
    max_nullity: usize,
) where
    G::Board: Shown<Solver = G>,
{
    // The common case, every answer proven: nothing to say or count.
    if answer.outcomes.iter().all(|o| o.solution.as_ref().is_none_or(|s| s.proven_minimal)) {
        return;
    }
    let best = answer.best().map(|(t, _)| t);
    let reachable = answer.outcomes.iter().filter(|o| o.solution.is_some()).count();
    note_not_fewest_over_targets(stderr, index, solver, answer);
    for outcome in &answer.outcomes {
        let asked = answer.outcomes.len() == 1 || best == Some(&outcome.target);
        let Some(s) = outcome.solution.as_ref().filter(|s| asked && !s.proven_minimal) else { continue };
        let _ = writeln!(
            stderr,
            "lightsout: note: board {index}, {}: {}, not proven minimal ({})",
            G::Board::target_name(&outcome.target),
            presses(crate::Board::presses(&s.presses)),
            solver.not_proven_why(s, max_nullity, reachable),
        );
    }
}

/// A note when the best answer of several targets is proven for its own
/// target but other targets, cut short by the work limit, have bounds below
/// it: the fewest over all targets is then not proven.
fn note_not_fewest_over_targets<G: Kind>(
    stderr: &mut dyn Write,
    index: usize,
    solver: &G,
    answer: &Answer<G::Board>,
) where
    G::Board: Shown<Solver = G>,
{
    let Some((target, best)) = answer.best().filter(|(_, s)| s.proven_minimal) else { return };
    let weight = crate::Board::presses(&best.presses);
    let solved = || answer.outcomes.iter().filter_map(|o| o.solution.as_ref());
    let open: Vec<u64> =
        solved().filter(|s| !s.proven_minimal && s.lower_bound < weight).map(|s| s.lower_bound).collect();
    let (Some(&lowest), Some(why)) = (open.iter().min(), solver.work_limit_why(solved().count())) else {
        return;
    };
    let _ = writeln!(
        stderr,
        "lightsout: note: board {index}, {}: {}, the fewest there, not proven the fewest of all targets ({} \
         other targets were not searched in full, bounds from {lowest}: {why})",
        G::Board::target_name(target),
        presses(weight),
        open.len(),
    );
}

/// `check`'s text for one board: per target, solvable, or the pattern
/// that proves it is not.
pub(super) fn check_text<G: Kind>(
    index: usize,
    solver: &G,
    verdicts: &[(TargetOf<G>, Option<G::Board>)],
) -> String
where
    G::Board: Shown<Solver = G>,
{
    let mut text = format!("board {index}: {}, {}\n", shape_text(solver.puzzle()), solver.kernel_words());
    for (target, obstruction) in verdicts {
        let name = G::Board::target_name(target);
        let Some(y) = obstruction else {
            text += &format!("  {name}: solvable\n");
            continue;
        };
        text += &format!("  {name}: not solvable: {}\n", solver.unsolvable_words());
        for line in y.press_lines(solver) {
            text += &format!("    {line}\n");
        }
    }
    text
}
