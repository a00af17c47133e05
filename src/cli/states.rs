//! The K-state game on the command line (`--states K`, K > 2; grids and
//! graphs): `solve`, `check`, `analyze`, `table` and `verify` over Z_K.
//! Two states keep the bit-packed commands; these are their K-state
//! counterparts, with the same flags, exit codes and checks.

use std::io::{self, Read, Write};
use std::path::PathBuf;

use crate::cli::{BoardArgs, Failure, KStates, PipedBoards, PuzzleArgs, TargetArg, read_file, read_limited};
use crate::model::{StateBoards, is_pgm};
use crate::solve::limits;
use crate::zk::Modulus;
use crate::{Error, Generate, StateGrid, StateTarget, read_pgm};

impl TargetArg {
    /// The K-state targets named: `any` every uniform state, a state
    /// number, or a board file; the colour words are two-state words.
    pub(super) fn resolve_states(
        &self,
        source: &BoardArgs,
        states: Modulus,
        max_memory: u64,
    ) -> Result<Vec<StateTarget>, Error> {
        let k = states.get();
        match self {
            TargetArg::Any => Ok(StateTarget::any(states)),
            TargetArg::State(s) if *s < u32::from(k) => Ok(vec![StateTarget::Uniform(*s as u8)]),
            TargetArg::State(s) => {
                Err(Error::BadInput(format!("--target {s} is not a state below --states {k}")))
            }
            TargetArg::Colours(_) => Err(Error::BadInput(format!(
                "--target white, black and either are two-state words; with --states {k} give a state 0 to {} or any",
                k - 1
            ))),
            TargetArg::File(path) => {
                let source_name = path.display().to_string();
                let (data, _) = read_file(path, max_memory).map_err(|_| {
                    Error::BadInput(format!(
                        "--target {source_name} is not any or a state number, nor a readable board file"
                    ))
                })?;
                let boards: Vec<StateGrid> =
                    parse_states(&data, &source_name, k, source)?.take(2).collect::<Result<_, _>>()?;
                match <[StateGrid; 1]>::try_from(boards) {
                    Ok([goal]) => Ok(vec![StateTarget::Board(goal)]),
                    Err(b) if b.is_empty() => {
                        Err(Error::BadInput(format!("{source_name}: no board in input")))
                    }
                    Err(_) => Err(Error::BadInput(format!(
                        "--target {source_name} holds more than one board; give a file of one"
                    ))),
                }
            }
        }
    }
}

/// The K-state boards of one input's bytes: a PGM image, or text.
fn parse_states<'a>(
    data: &'a [u8],
    source: &'a str,
    k: u8,
    shape: &BoardArgs,
) -> Result<Box<dyn Iterator<Item = Result<StateGrid, Error>> + 'a>, Error> {
    if is_pgm(data) {
        let images = read_pgm(data, source, k)?;
        let (rows, cols) = (shape.rows, shape.cols);
        return Ok(Box::new(images.into_iter().map(move |board| {
            for (name, given, actual) in [("--rows", rows, board.nrows()), ("--cols", cols, board.ncols())] {
                if let Some(given) = given.filter(|&g| g != actual) {
                    return Err(Error::BadInput(format!(
                        "{source}: the PGM image is {}x{} but {name} is {given}",
                        board.nrows(),
                        board.ncols()
                    )));
                }
            }
            Ok(board)
        })));
    }
    Ok(Box::new(StateBoards::new(data, source, k, shape.rows, shape.cols)))
}

/// Where a K-state run's boards come from, and how standard input is read.
pub(super) struct StateInput<'s> {
    pub(super) source: &'s BoardArgs,
    pub(super) puzzle: &'s PuzzleArgs,
    pub(super) max_memory: u64,
    /// Standard input streams its boards (a pipe or a terminal); a long
    /// search reads it whole, to know there is one board.
    pub(super) stream: bool,
}

impl StateInput<'_> {
    /// Tells a person typing boards at a terminal how they are read (one
    /// line on stderr), when that is where the boards come from.
    pub(super) fn announce_typing(&self, stdin_is_terminal: bool, stderr: &mut dyn Write) {
        let from_stdin =
            self.source.recipe().is_none() && self.source.files.iter().all(|f| f.as_os_str() == "-");
        if !(stdin_is_terminal && from_stdin) {
            return;
        }
        let k = self.puzzle.states;
        let cells = if k <= 10 { "digits" } else { "numbers separated by spaces" };
        let _ = match self.stream {
            true => writeln!(
                stderr,
                "lightsout: reading boards of {k} states from the terminal: type rows of {cells}; each board is \
                 answered after a blank line (or --rows rows; a line on a graph); Ctrl-D ends"
            ),
            false => writeln!(
                stderr,
                "lightsout: reading one board of {k} states to search from the terminal: type rows of {cells}, \
                 then Ctrl-D"
            ),
        };
    }
}

/// Every K-state board of the run, in order, each handed to `each` as it
/// is parsed, with whether the answers so far should be flushed (the
/// next read of a stream would wait): a bad board stops the run after the
/// ones before it. Text on standard input (a pipe or a terminal) is
/// streamed as two-state text is: a board is answered once it is complete
/// and unambiguous, after `--rows` rows or a blank line, every line on a
/// graph. PGM images on standard input are read whole.
pub(super) fn for_each_board(
    input: StateInput,
    stdin: &mut dyn Read,
    stdin_is_terminal: bool,
    each: &mut dyn FnMut(usize, StateGrid, bool) -> Result<(), Failure>,
) -> Result<(), Failure> {
    let StateInput { source, puzzle, max_memory, stream } = input;
    let k = puzzle.states;
    if let Some(recipe) = source.recipe() {
        if !source.files.is_empty() {
            return Err(Error::BadInput("--generate makes the board; do not give a file too".into()).into());
        }
        if recipe != Generate::AllBlack && recipe != Generate::AllWhite && source.random.density.is_some() {
            return Err(Error::BadInput(format!(
                "--density is the share of black cells of two states; a random board of {k} states is uniform"
            ))
            .into());
        }
        let (Some(rows), Some(cols)) = (source.rows, source.cols) else {
            return Err(Error::BadInput("--generate needs --rows and --cols".into()).into());
        };
        let work = format!("a {rows}x{cols} board of {k} states");
        limits::check((rows as u64).saturating_mul(cols as u64), max_memory, &work)?;
        return each(1, recipe.states(rows, cols, k), false);
    }
    let paths: Vec<Option<&PathBuf>> = match source.files.as_slice() {
        [] => vec![None],
        files => files.iter().map(|p| (p.as_os_str() != "-").then_some(p)).collect(),
    };
    if paths.len() > 1 && paths.iter().any(Option::is_none) {
        return Err(Error::BadInput("standard input (-) can only be read as the one FILE".into()).into());
    }
    if stream && paths == [None] {
        let mut reader = io::BufReader::with_capacity(1 << 16, stdin);
        let head = io::BufRead::fill_buf(&mut reader)
            .map_err(|e| Error::BadInput(format!("cannot read <stdin>: {e}")))?;
        // A PGM image (or its first byte) comes whole.
        if is_pgm(head) || head == b"P" {
            let data = read_limited(&mut reader, "<stdin>", max_memory)?;
            return each_of(&data, "<stdin>", k, source, 0, each).map(|_| ());
        }
        let would_wait = std::rc::Rc::new(std::cell::Cell::new(false));
        let (rows, cols) = (source.rows, source.cols);
        let boards =
            PipedBoards::with_pieces(&mut reader, KStates(k), rows, cols, max_memory, would_wait.clone());
        for (index, board) in boards.enumerate() {
            let flush = stdin_is_terminal || would_wait.get();
            each(index + 1, board.map_err(|e| source.name_error(e))?, flush)?;
        }
        return Ok(());
    }
    let mut index = 0;
    for path in paths {
        let (data, name) = match path {
            Some(path) => read_file(path, max_memory)?,
            None => (read_limited(&mut *stdin, "<stdin>", max_memory)?, "<stdin>".to_string()),
        };
        index = each_of(&data, &name, k, source, index, each)?;
    }
    Ok(())
}

/// Hands the boards of one input's bytes to `each`, numbered on from
/// `before`; returns the number of the last. An input of no board is an
/// error.
fn each_of(
    data: &[u8],
    name: &str,
    k: u8,
    source: &BoardArgs,
    before: usize,
    each: &mut dyn FnMut(usize, StateGrid, bool) -> Result<(), Failure>,
) -> Result<usize, Failure> {
    let mut index = before;
    for board in parse_states(data, name, k, source)? {
        index += 1;
        each(index, board.map_err(|e| source.name_error(e))?, false)?;
    }
    if index == before {
        return Err(Error::Parse { source: name.to_string(), message: "no board in input".into() }.into());
    }
    Ok(index)
}
