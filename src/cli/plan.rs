//! A run resolved once from its arguments: the targets read, one solver
//! per board shape, and the way a `solve` reaches its answers (a long
//! search, a board streamed row by row, or boards solved in memory),
//! decided in this one place.

use crate::cli::{
    BoardArgs, BoardInput, Failure, Format, Kind, MethodArg, PbmArg, PuzzleArgs, SolveArgs, TargetArg,
    read_limited,
};
use crate::model::PbmKind;
use crate::solve::{AskedTarget, GameSpec, TargetOf, limits};
use crate::zk::Modulus;
use crate::{Error, Game, Generate, Method, Puzzle};

impl TargetArg {
    /// The targets named, in a game `G` of `states` states, reading the
    /// target board's file if one is given (a text target takes the
    /// puzzle's shape from `--rows`/`--cols`, `source`, like the boards
    /// it is paired with). The words are refused here in the flags' terms;
    /// the library makes them the game's ([`Made::targets_of`]).
    pub(super) fn resolve<G: Kind>(
        &self,
        source: &BoardArgs,
        states: Modulus,
        max_memory: u64,
    ) -> Result<Vec<TargetOf<G>>, Error> {
        let k = states.get();
        let board: G::Board;
        let cells;
        let asked = match self {
            TargetArg::Any => AskedTarget::Any,
            TargetArg::State(s) if *s < u32::from(k) => AskedTarget::State(*s as u8),
            TargetArg::State(s) if k == 2 => {
                return Err(Error::BadInput(format!(
                    "--target {s} is not a state of a two-state board (0 white, 1 black); more states need --states"
                )));
            }
            TargetArg::State(s) => {
                return Err(Error::BadInput(format!("--target {s} is not a state below --states {k}")));
            }
            TargetArg::Colours(word, targets) if k == 2 => AskedTarget::Colour { word, targets },
            TargetArg::Colours(..) => {
                return Err(Error::BadInput(format!(
                    "--target white, black and either are two-state words; with --states {k} give a state 0 to {} or any",
                    k - 1
                )));
            }
            TargetArg::File(path) => {
                let words = if k == 2 { "white, black or either" } else { "any or a state number" };
                let parse = |data: &[u8], name: &str| G::target_boards(data, name, k, source, 2);
                board = target_board(path, max_memory, words, parse)?;
                cells = crate::Board::cell_values(&board);
                let (rows, cols) = crate::Board::shape(&board);
                AskedTarget::Board { rows, cols, cells: &cells }
            }
        };
        G::targets_of(&asked, states)
    }
}

/// The one board of the target file `path` as `parse` reads its first two
/// (two are enough to know it is not one), refused unless there is one.
/// `words`: what else `--target` could have named.
fn target_board<B>(
    path: &std::path::Path,
    max_memory: u64,
    words: &str,
    parse: impl FnOnce(&[u8], &str) -> Result<Vec<B>, Error>,
) -> Result<B, Error> {
    let source = path.display().to_string();
    let mut file = std::fs::File::open(path).map_err(|e| {
        Error::BadInput(format!("--target {source} is not {words}, nor a readable board file: {e}"))
    })?;
    let data = read_limited(&mut file, &source, max_memory)?;
    match <[B; 1]>::try_from(parse(&data, &source)?) {
        Ok([goal]) => Ok(goal),
        Err(boards) if boards.is_empty() => Err(Error::BadInput(format!("{source}: no board in input"))),
        Err(_) => {
            Err(Error::BadInput(format!("--target {source} holds more than one board; give a file of one")))
        }
    }
}

/// The checks of flags that go together, made once before any work.
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
        if self.search.wanted() {
            self.refuse_unused_in_search()?;
        }
        Ok(())
    }

    /// A long search answers one board as the plain solve would, or prints
    /// a shard's record: what belongs to neither is refused.
    fn refuse_unused_in_search(&self) -> Result<(), Error> {
        let search = &self.search;
        if search.checkpoint_every.is_some() && search.checkpoint.is_none() {
            return Err(Error::BadInput("--checkpoint-every needs --checkpoint FILE".into()));
        }
        // The record is JSON whatever --format says (json is accepted as a
        // matter of course); text and the grids belong to the merged answer.
        if search.shard.is_some() && (self.format == Format::Text || self.show) {
            return Err(Error::BadInput(
                "--shard prints its partial result as one JSON line; --format text and --show go with `lightsout merge`".into(),
            ));
        }
        if self.output.is_some() || self.picture.wanted() {
            return Err(Error::BadInput(
                "--output, --png and --svg do not go with --shard, --checkpoint or --time-limit".into(),
            ));
        }
        Ok(())
    }
}

/// How a `solve` run reaches its answers.
pub(super) enum Route {
    /// One board searched at length: sharded, checkpointed or time-bounded.
    Search,
    /// A generated board of the classic puzzle too large to hold, solved
    /// row by row down its longer side.
    Streamed { rows: usize, cols: usize, recipe: Generate },
    /// Boards read or made whole, each solved in memory.
    InMemory,
}

/// Generated boards with more cells than this are solved row by row
/// (streamed) when only the press count, or a PBM of the presses, is asked.
pub(super) const STREAM_ABOVE_CELLS: usize = 1 << 26;

impl SolveArgs {
    /// The way to the answers: the one place that decides between a long
    /// search, a streamed board and boards in memory.
    pub(super) fn route(&self) -> Route {
        if self.search.wanted() {
            return Route::Search;
        }
        match (self.source.recipe(), self.source.rows, self.source.cols) {
            (Some(recipe), Some(rows), Some(cols))
                if rows.saturating_mul(cols) > STREAM_ABOVE_CELLS
                    && self.puzzle.is_classic()
                    && self.puzzle.states == 2
                    && self.streaming_blockers().is_empty() =>
            {
                // Streams run down the longer side; a uniform board is its
                // own transpose (see `streaming_blockers`).
                Route::Streamed { rows: rows.max(cols), cols: rows.min(cols), recipe }
            }
            _ => Route::InMemory,
        }
    }

    /// What keeps a large generated board of the classic puzzle from being
    /// streamed: the changes that would let it be. Empty when it can be.
    pub(super) fn streaming_blockers(&self) -> Vec<&'static str> {
        let (rows, cols) = (self.source.rows.unwrap_or(0), self.source.cols.unwrap_or(0));
        let uniform = self.source.recipe().is_some_and(|recipe| recipe.is_uniform());
        [
            (matches!(self.method, MethodArg::Dense), "drop --method dense"),
            (self.show, "drop --show"),
            (self.format == Format::Json, "use --format poj or text"),
            (self.picture.wanted(), "drop --png and --svg"),
            (matches!(self.target, TargetArg::File(_)), "give --target a colour"),
            // A transposed uniform board is itself; its press grid is not.
            (rows < cols && (!uniform || self.output.is_some()), "give the longer side as --rows"),
        ]
        .into_iter()
        .filter_map(|(blocks, change)| blocks.then_some(change))
        .collect()
    }
}

/// A smaller board or more memory: the hint that always works.
pub(super) const SMALLER_OR_MORE_MEMORY: &str =
    "give a smaller board, or a larger --max-memory if the machine has it";

/// [`SMALLER_OR_MORE_MEMORY`] as the hint of a command that has no other.
pub(super) fn smaller_or_more_memory(_: &Puzzle) -> String {
    SMALLER_OR_MORE_MEMORY.into()
}

/// What to change when a puzzle's work does not fit `--max-memory`: each
/// command knows what works for it.
pub(super) type MemoryHint<'a> = &'a dyn Fn(&Puzzle) -> String;

impl SolveArgs {
    /// What to change so that `puzzle`'s boards are solved within
    /// `--max-memory`: only changes that work for this request (streaming
    /// is for generated boards of the classic puzzle outside a long search,
    /// see [`route`](Self::route)).
    pub(super) fn memory_hint(&self, puzzle: &Puzzle) -> String {
        // K states have neither streaming nor a choice of method.
        if self.puzzle.states > 2 {
            return SMALLER_OR_MORE_MEMORY.into();
        }
        if !puzzle.is_classic() {
            return format!("the torus and other rules are solved in memory only; {SMALLER_OR_MORE_MEMORY}");
        }
        let streamable = self.source.generate.is_some() && !self.search.wanted();
        if streamable && puzzle.cells() > STREAM_ABOVE_CELLS {
            let changes = self.streaming_blockers();
            if !changes.is_empty() {
                return format!(
                    "boards this large are streamed when only the press count is asked: {}",
                    changes.join(", ")
                );
            }
        }
        let dense = matches!(self.method, MethodArg::Dense);
        if dense && limits::solve_bytes(puzzle, false) <= self.memory.max_memory {
            return "try --method chase".into();
        }
        SMALLER_OR_MORE_MEMORY.into()
    }
}

impl SolveArgs {
    /// Where this run's boards come from (`whole`: the one board of a long
    /// search); a dense method holds a two-state board whole.
    pub(super) fn board_input<'a, 'r>(
        &'a self,
        hint: MemoryHint<'a>,
        whole: bool,
        stdin: &'r mut dyn std::io::Read,
        stdin_is_terminal: bool,
    ) -> BoardInput<'a, 'r> {
        let (source, puzzle, max_memory) = (&self.source, &self.puzzle, self.memory.max_memory);
        let dense = matches!(self.method, MethodArg::Dense);
        BoardInput { source, puzzle, dense, max_memory, hint, whole, stdin, stdin_is_terminal }
    }
}

/// How a cache of solvers factors a puzzle, the command line's refusals
/// already worded.
type MakeGame<'a, G> = dyn Fn(&Puzzle) -> Result<G, Failure> + 'a;

/// One factored game per board shape, made on first use by `make` (a
/// two-state [`Solver`] or a [`StateSolver`]): the one cache both kinds of
/// board use. Batches are usually of one shape, so a short list beats
/// hashing.
pub(super) struct Solvers<'a, G: Game> {
    make: Box<MakeGame<'a, G>>,
    puzzle: &'a PuzzleArgs,
    made: Vec<((usize, usize), G)>,
}

impl<'a, G: Kind + 'a> Solvers<'a, G> {
    /// Games of each shape made from the library's [`GameSpec`] of the
    /// puzzle, its defaults changed by `settings` (the one place a game's
    /// defaults live is the library's; the command line says only what
    /// its flags change), each showing its search as the kind does.
    pub(super) fn made(
        puzzle: &'a PuzzleArgs,
        settings: impl Fn(GameSpec) -> GameSpec + 'a,
        hint: MemoryHint<'a>,
    ) -> Self {
        let states = puzzle.modulus();
        let make = move |p: &Puzzle| {
            let spec = settings(GameSpec::new(p.clone(), states));
            G::make(&spec).map(G::searching_shown).map_err(|e| solver_failure(e, p, spec.method, hint))
        };
        Solvers { make: Box::new(make), puzzle, made: Vec::new() }
    }
}

impl<G: Game> Solvers<'_, G> {
    /// The solver for boards of `board`'s shape.
    pub(super) fn for_board(&mut self, board: &G::Board) -> Result<&G, Failure> {
        let (rows, cols) = crate::Board::shape(board);
        self.for_shape(rows, cols)
    }

    /// The solver for boards of `rows` x `cols`.
    pub(super) fn for_shape(&mut self, rows: usize, cols: usize) -> Result<&G, Failure> {
        let shape = (rows, cols);
        let index = match self.made.iter().position(|(s, _)| *s == shape) {
            Some(i) => i,
            None => {
                let puzzle = self.puzzle.puzzle(shape.0, shape.1)?;
                self.made.push((shape, (self.make)(&puzzle)?));
                self.made.len() - 1
            }
        };
        Ok(&self.made[index].1)
    }
}

/// A refusal of `Solver::new` in the command line's terms: the flag at
/// fault, and what to change.
pub(super) fn solver_failure(error: Error, puzzle: &Puzzle, method: Method, hint: MemoryHint) -> Failure {
    match error {
        Error::Unsupported(_) if method == Method::Chase => Failure::hinted(
            Error::BadInput("--method chase needs the classic rule on the plane".into()),
            "use --method dense",
        ),
        Error::Memory { .. } => Failure::hinted(error, hint(puzzle)),
        _ => error.into(),
    }
}

#[cfg(test)]
mod tests {
    use clap::Parser;

    use super::*;
    use crate::cli::Cli;
    use crate::solve::Board;
    use crate::{Solver, StateSolver, StateTarget, Target};

    /// The flags of a plain `solve` run.
    fn solve_args(words: &[&str]) -> SolveArgs {
        Cli::try_parse_from([&["lightsout"], words].concat()).unwrap().solve
    }

    /// `--target` is resolved in one place for both kinds of game: its
    /// words are refused in the flags' terms by the number of states (as
    /// the two `resolve`s did before they were one), and what is left is
    /// made the game's targets by the library.
    #[test]
    fn targets_resolve_for_either_kind_in_one_place() {
        let resolve_two = |target: &str| {
            let args = solve_args(&["--target", target]);
            args.target.resolve::<Solver>(&args.source, Modulus::TWO, u64::MAX).map_err(|e| e.to_string())
        };
        let resolve_k = |target: &str| {
            let args = solve_args(&["--states", "3", "--target", target]);
            let states = args.puzzle.modulus();
            args.target.resolve::<StateSolver>(&args.source, states, u64::MAX).map_err(|e| e.to_string())
        };
        assert_eq!(resolve_two("either").unwrap(), [Target::White, Target::Black]);
        assert_eq!(resolve_two("1").unwrap(), [Target::Black]);
        assert_eq!(resolve_two("any").unwrap(), Target::EITHER);
        assert!(resolve_two("2").unwrap_err().contains("not a state of a two-state board"));
        assert_eq!(resolve_k("2").unwrap(), [StateTarget::Uniform(2)]);
        assert_eq!(resolve_k("any").unwrap().len(), 3);
        assert!(resolve_k("3").unwrap_err().contains("--target 3 is not a state below --states 3"));
        assert!(resolve_k("white").unwrap_err().contains("two-state words; with --states 3"));
        // A board file: read by the kind's reader, checked by the library.
        let folder = std::env::temp_dir().join(format!("lightsout-plan-{}", std::process::id()));
        std::fs::create_dir_all(&folder).unwrap();
        let (two, three) = (folder.join("two.txt"), folder.join("three.txt"));
        std::fs::write(&two, "bw\nwb\n").unwrap();
        std::fs::write(&three, "02\n21\n").unwrap();
        let [Target::Board(grid)] = &resolve_two(two.to_str().unwrap()).unwrap()[..] else {
            panic!("a board")
        };
        assert_eq!(grid.cell_values(), [1, 0, 0, 1]);
        let [StateTarget::Board(grid)] = &resolve_k(three.to_str().unwrap()).unwrap()[..] else {
            panic!("a board")
        };
        assert_eq!(grid.cell_values(), [0, 2, 2, 1]);
        assert!(resolve_two(three.to_str().unwrap()).is_err());
        std::fs::remove_dir_all(&folder).unwrap();
    }
}
