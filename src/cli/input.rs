//! Where boards come from: a generator, files, standard input (whole, or
//! board by board as it is typed), text or PBM.

use std::cell::Cell;
use std::io::{self, Read, Write};
use std::path::PathBuf;
use std::rc::Rc;

use stream::TypedBoards;

use crate::cli::{BoardArgs, BoardInput, EachBoard, Failure, LimitHint, MemoryHint, PuzzleArgs};
use crate::model::{MAX_LINE, MAX_SIDE, PipedBoards, StateBoards, StateRows, TextBoards, is_pbm, is_pgm};
use crate::present::format_bytes;
use crate::solve::{Board, limits};
use crate::{Error, Generate, Grid, StateGrid, read_pbm, read_pgm};

mod stream;

/// Where the boards come from.
pub(super) enum Input<'r> {
    Generated(Grid),
    Bytes {
        data: Vec<u8>,
        source: String,
    },
    /// A person typing at a terminal: each board is answered as soon as it
    /// is complete, not at the end of input.
    Typed(io::BufReader<&'r mut dyn Read>),
    /// Text on a pipe: each board answered once it is complete and
    /// unambiguous ([`PipedBoards`]), the answers flushed whenever the next
    /// read would wait (`would_wait`).
    Piped {
        reader: io::BufReader<&'r mut dyn Read>,
        max_memory: u64,
        would_wait: Rc<Cell<bool>>,
    },
    /// Several files, read one at a time when their turn comes (each within
    /// `max_memory`); their boards are numbered on from file to file.
    Files {
        paths: Vec<PathBuf>,
        max_memory: u64,
    },
}

impl Input<'_> {
    /// When to flush the answers: after every board when they are typed at
    /// a terminal (and then the person is told so on stderr, in one line),
    /// when the next read would wait for a pipe, never for a file.
    pub(super) fn announce_typing(&self, stderr: &mut dyn Write) -> Flush {
        match self {
            Input::Typed(_) => {
                let _ = writeln!(stderr, "{TYPING_HINT}");
                Flush::Always
            }
            Input::Piped { would_wait, .. } => Flush::WhenInputWaits(would_wait.clone()),
            _ => Flush::AtEnd,
        }
    }
}

/// When a batch flushes its answers.
pub(super) enum Flush {
    Always,
    /// When the flag says that reading on would wait for more input.
    WhenInputWaits(Rc<Cell<bool>>),
    AtEnd,
}

impl Flush {
    /// Whether to flush now, after an answer.
    pub(super) fn now(&self) -> bool {
        match self {
            Flush::Always => true,
            Flush::WhenInputWaits(flag) => flag.get(),
            Flush::AtEnd => false,
        }
    }
}

/// The one-line hint a person at a terminal gets when `lightsout` waits for
/// boards there (plain `lightsout`, no file).
pub(super) const TYPING_HINT: &str = "lightsout: reading boards from the terminal: type rows of b and w; each board is answered \
     when complete (--rows rows, a square, or a blank line); Ctrl-D ends";

/// The hint of a long search waiting for its one board at a terminal: it
/// reads to the end of input to be sure there is only one.
pub(super) const SEARCH_TYPING_HINT: &str =
    "lightsout: reading one board to search from the terminal: type rows of b and w, then Ctrl-D";

/// Makes the board, or reads the whole file or standard input.
/// `hint` says what to change when a generated board is too large to solve
/// in memory: each command knows what works for it.
pub(super) fn read_input<'r>(
    args: &BoardArgs,
    puzzle: &PuzzleArgs,
    dense: bool,
    max_memory: u64,
    hint: MemoryHint,
    stdin: &'r mut dyn Read,
    stdin_is_terminal: bool,
) -> Result<Input<'r>, Failure> {
    if let Some(recipe) = args.recipe() {
        if !args.files.is_empty() {
            return Err(Error::BadInput("--generate makes the board; do not give a file too".into()).into());
        }
        let (Some(rows), Some(cols)) = (args.rows, args.cols) else {
            return Err(Error::BadInput("--generate needs --rows and --cols".into()).into());
        };
        let puzzle = puzzle.puzzle(rows, cols)?;
        let dense = dense || !puzzle.is_classic();
        // Refused before it is made: the solver would refuse it the same way,
        // but only after the board had taken its memory.
        let work = format!("solving a {rows}x{cols} board in memory");
        limits::check(limits::solve_bytes(&puzzle, dense), max_memory, &work).limit_hint(|| hint(&puzzle))?;
        return Ok(Input::Generated(recipe.board(rows, cols)));
    }
    match args.files.as_slice() {
        [_, _, ..] => {
            if args.files.iter().any(|path| path.as_os_str() == "-") {
                return Err(
                    Error::BadInput("standard input (-) can only be read as the one FILE".into()).into()
                );
            }
            Ok(Input::Files { paths: args.files.clone(), max_memory })
        }
        [path] if path.as_os_str() != "-" => {
            let (data, source) = read_file(path, max_memory)?;
            Ok(Input::Bytes { data, source })
        }
        _ if stdin_is_terminal => Ok(Input::Typed(io::BufReader::new(stdin))),
        _ => {
            // PBM images come whole; text is answered board by board.
            let mut reader = io::BufReader::with_capacity(1 << 16, stdin);
            let head = io::BufRead::fill_buf(&mut reader)
                .map_err(|e| Error::BadInput(format!("cannot read <stdin>: {e}")))?;
            if is_pbm(head) || head.len() < 2 && !head.is_empty() && head[0] == b'P' {
                let source = "<stdin>".to_string();
                let data = read_limited(&mut reader, &source, max_memory)?;
                return Ok(Input::Bytes { data, source });
            }
            Ok(Input::Piped { reader, max_memory, would_wait: Rc::new(Cell::new(false)) })
        }
    }
}

/// The whole of the board file `path`, and its name for messages.
pub(super) fn read_file(path: &std::path::Path, max_memory: u64) -> Result<(Vec<u8>, String), Error> {
    let source = path.display().to_string();
    let mut file =
        std::fs::File::open(path).map_err(|e| Error::BadInput(format!("cannot read {source}: {e}")))?;
    let data = read_limited(&mut file, &source, max_memory)?;
    Ok((data, source))
}

/// Largest record file `merge` and `--checkpoint` read: a record is a few
/// kilobytes (a table's, a few megabytes); anything larger is not one.
pub(super) const MAX_RECORD_BYTES: u64 = 256 << 20;

/// The text of a record file (a shard's, a checkpoint's or a table's):
/// a regular file of at most [`MAX_RECORD_BYTES`], read no further than
/// that (`/dev/zero` is refused, not read until memory runs out).
pub(super) fn read_record(path: &std::path::Path) -> Result<String, Error> {
    let source = path.display().to_string();
    let cannot = |e: io::Error| Error::BadInput(format!("cannot read {source}: {e}"));
    let file = std::fs::File::open(path).map_err(cannot)?;
    if !file.metadata().map_err(cannot)?.is_file() {
        return Err(Error::BadInput(format!("{source} is not a regular file, so not a lightsout record")));
    }
    let mut text = String::new();
    let read = io::Read::take(file, MAX_RECORD_BYTES + 1).read_to_string(&mut text);
    match read {
        Ok(n) if n as u64 > MAX_RECORD_BYTES => Err(Error::BadInput(format!(
            "{source} is larger than {}, so not a lightsout record",
            format_bytes(MAX_RECORD_BYTES)
        ))),
        Ok(_) => Ok(text),
        Err(e) if e.kind() == io::ErrorKind::InvalidData => {
            Err(Error::BadInput(format!("{source} is not text, so not a lightsout record")))
        }
        Err(e) => Err(cannot(e)),
    }
}

/// Reads all of `reader`, refusing more than `max_bytes` in all and, for
/// text, any line longer than [`MAX_LINE`], as soon as either is seen (a
/// 2 GB line is not read to its end).
pub(super) fn read_limited(reader: &mut dyn Read, source: &str, max_bytes: u64) -> Result<Vec<u8>, Error> {
    read_capped(
        reader,
        source,
        max_bytes,
        &memory_words(max_bytes),
        &format!(" (a row has at most {MAX_SIDE} cells)"),
    )
}

/// `--max-memory` as an error names it.
fn memory_words(max_bytes: u64) -> String {
    format!("--max-memory {}", format_bytes(max_bytes))
}

/// [`read_limited`] with the limit named as `limit` says ("--max-memory
/// 1.0 GiB", or a fixed cap in words) when it is hit, and `why_lines`
/// after the line length (why no line is longer: a board's row; nothing
/// for a graph file).
pub(super) fn read_capped(
    reader: &mut dyn Read,
    source: &str,
    max_bytes: u64,
    limit: &str,
    why_lines: &str,
) -> Result<Vec<u8>, Error> {
    let mut data = Vec::new();
    let mut chunk = vec![0u8; 1 << 16];
    let mut line_length = 0usize;
    loop {
        let n = match reader.read(&mut chunk) {
            Ok(0) => return Ok(data),
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(Error::BadInput(format!("cannot read {source}: {e}"))),
        };
        if (data.len() + n) as u64 > max_bytes {
            return Err(Error::Limit(format!("{source} is larger than {limit}")));
        }
        data.extend_from_slice(&chunk[..n]);
        // PBM and PGM pixels are binary: only text has lines to bound.
        if is_pbm(&data) || is_pgm(&data) {
            continue;
        }
        // A line inside the chunk is shorter than the chunk, far below the
        // limit: only the lines that run across chunks need counting.
        let chunk = &chunk[..n];
        let too_long = match (memchr::memchr(b'\n', chunk), memchr::memrchr(b'\n', chunk)) {
            (Some(first), Some(last)) => {
                let crossing = line_length + first;
                line_length = n - last - 1;
                crossing > MAX_LINE
            }
            _ => {
                line_length += n;
                line_length > MAX_LINE
            }
        };
        if too_long {
            // The line that is too long began before this chunk.
            let line = memchr::memchr_iter(b'\n', &data[..data.len() - n]).count() + 1;
            return Err(Error::BadInput(format!(
                "{source}: line {line} is longer than {MAX_LINE} bytes{why_lines}"
            )));
        }
    }
}

/// The boards of the input, in order. Text is parsed lazily, so a batch
/// stops at its first bad board after answering the ones before it.
pub(super) fn boards<'a, 'r: 'a>(
    input: &'a mut Input<'r>,
    args: &'a BoardArgs,
) -> Box<dyn Iterator<Item = Result<Grid, Error>> + 'a> {
    let (data, source) = match input {
        Input::Generated(board) => return Box::new(std::iter::once(Ok(board.clone()))),
        Input::Bytes { data, source } => (&*data, &*source),
        Input::Typed(reader) => {
            // A bad row is said on the process's stderr as it is typed:
            // stdin is a terminal only for a person at one.
            let name = Box::new(|e| args.name_error(e));
            let boards = TypedBoards::new(reader, args.rows, args.cols, Box::new(io::stderr()), name);
            return Box::new(boards.map(|b| b.map_err(|e| args.name_error(e))));
        }
        Input::Piped { reader, max_memory, would_wait } => {
            let limit = (*max_memory, memory_words(*max_memory));
            let boards = PipedBoards::new(reader, args.rows, args.cols, limit, would_wait.clone());
            return Box::new(boards.map(|b| b.map_err(|e| args.name_error(e))));
        }
        Input::Files { paths, max_memory } => {
            let max_memory = *max_memory;
            return Box::new(paths.iter().flat_map(move |path| {
                // Each file's boards are parsed before its first is answered:
                // the file's bytes cannot outlive this step of the iterator.
                let boards: Vec<_> = match read_file(path, max_memory) {
                    Ok((data, source)) => boards(&mut Input::Bytes { data, source }, args).collect(),
                    Err(e) => vec![Err(e)],
                };
                boards
            }));
        }
    };
    if !is_pbm(data) {
        return Box::new(
            TextBoards::new(data, source, args.rows, args.cols).map(|b| b.map_err(|e| args.name_error(e))),
        );
    }
    let images = match read_pbm(data, source) {
        Ok(images) => images,
        Err(e) => return Box::new(std::iter::once(Err(e))),
    };
    Box::new(images.into_iter().map(move |board| of_the_shape_given(board, "PBM", source, args)))
}

/// An image `board` (`kind`: PBM or PGM) of `source`, refused when
/// `--rows` or `--cols` give another shape.
fn of_the_shape_given<B: Board>(board: B, kind: &str, source: &str, args: &BoardArgs) -> Result<B, Error> {
    let (rows, cols) = board.shape();
    for (name, given, actual) in [("--rows", args.rows, rows), ("--cols", args.cols, cols)] {
        if let Some(given) = given.filter(|&g| g != actual) {
            return Err(Error::BadInput(format!(
                "{source}: the {kind} image is {rows}x{cols} but {name} is {given}"
            )));
        }
    }
    Ok(board)
}

/// The K-state boards of one input's bytes: a PGM image, or text.
pub(super) fn parse_states<'a>(
    data: &'a [u8],
    source: &'a str,
    k: u8,
    shape: &BoardArgs,
) -> Result<Box<dyn Iterator<Item = Result<StateGrid, Error>> + 'a>, Error> {
    if is_pgm(data) {
        let images = read_pgm(data, source, k)?;
        let shape = shape.clone();
        return Ok(Box::new(
            images.into_iter().map(move |board| of_the_shape_given(board, "PGM", source, &shape)),
        ));
    }
    Ok(Box::new(StateBoards::new(data, source, k, shape.rows, shape.cols)))
}

/// Tells a person typing K-state boards at a terminal how they are read
/// (one line on stderr), when that is where the boards come from.
fn announce_typing(input: &BoardInput, stderr: &mut dyn Write) {
    if !(input.stdin_is_terminal && input.reads_stdin()) {
        return;
    }
    let k = input.puzzle.states;
    let cells = if k <= 10 { "digits" } else { "numbers separated by spaces" };
    let _ = match input.whole {
        false => writeln!(
            stderr,
            "lightsout: reading boards of {k} states from the terminal: type rows of {cells}; each board is \
             answered after a blank line (or --rows rows; a line on a graph); Ctrl-D ends"
        ),
        true => writeln!(
            stderr,
            "lightsout: reading one board of {k} states to search from the terminal: type rows of {cells}, \
             then Ctrl-D"
        ),
    };
}

/// Every K-state board of the run, in order, each handed to `each` as it
/// is parsed, with whether the answers so far should be flushed (the
/// next read of a stream would wait): a bad board stops the run after the
/// ones before it. Text on standard input (a pipe or a terminal) is
/// streamed as two-state text is: a board is answered once it is complete
/// and unambiguous, after `--rows` rows or a blank line, every line on a
/// graph. PGM images on standard input are read whole.
pub(super) fn for_each_board(
    input: BoardInput,
    stderr: &mut dyn Write,
    each: &mut EachBoard<StateGrid>,
) -> Result<(), Failure> {
    announce_typing(&input, stderr);
    let BoardInput { source, puzzle, max_memory, whole, stdin, stdin_is_terminal, .. } = input;
    let each = &mut |index, board, flush| each(index, board, flush, stderr);
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
    if !whole && paths == [None] {
        let mut reader = io::BufReader::with_capacity(1 << 16, stdin);
        let head = io::BufRead::fill_buf(&mut reader)
            .map_err(|e| Error::BadInput(format!("cannot read <stdin>: {e}")))?;
        // A PGM image (or its first byte) comes whole.
        if is_pgm(head) || head == b"P" {
            let data = read_limited(&mut reader, "<stdin>", max_memory)?;
            return each_of(&data, "<stdin>", k, source, 0, each).map(|_| ());
        }
        let (rows, cols) = (source.rows, source.cols);
        if stdin_is_terminal {
            // A bad row is said on the process's stderr as it is typed,
            // and the board typed again (as two-state boards are).
            let name = Box::new(|e| source.name_error(e));
            let boards =
                TypedBoards::with_pieces(&mut reader, StateRows(k), rows, cols, Box::new(io::stderr()), name);
            for (index, board) in boards.enumerate() {
                each(index + 1, board.map_err(|e| source.name_error(e))?, true)?;
            }
            return Ok(());
        }
        let would_wait = std::rc::Rc::new(std::cell::Cell::new(false));
        let limit = (max_memory, memory_words(max_memory));
        let boards =
            PipedBoards::with_pieces(&mut reader, StateRows(k), rows, cols, limit, would_wait.clone());
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
