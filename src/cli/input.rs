//! Where boards come from: a generator, files, standard input (whole, or
//! board by board as it is typed), text or PBM.

use std::cell::Cell;
use std::rc::Rc;

use super::*;

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

/// Longest text line accepted: a row of [`MAX_SIDE`] cells with room for
/// spaces around it.
pub(super) const MAX_LINE: usize = MAX_SIDE + 4096;

/// Reads all of `reader`, refusing more than `max_bytes` in all and, for
/// text, any line longer than [`MAX_LINE`], as soon as either is seen (a
/// 2 GB line is not read to its end).
pub(super) fn read_limited(reader: &mut dyn Read, source: &str, max_bytes: u64) -> Result<Vec<u8>, Error> {
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
            return Err(Error::Limit(format!(
                "{source} is larger than --max-memory {}",
                format_bytes(max_bytes)
            )));
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
                "{source}: line {line} is longer than {MAX_LINE} bytes (a row has at most {MAX_SIDE} cells)"
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
            let boards = TypedBoards::new(reader, args.rows, args.cols);
            return Box::new(boards.map(|b| b.map_err(|e| args.name_error(e))));
        }
        Input::Piped { reader, max_memory, would_wait } => {
            let boards = PipedBoards::new(reader, args.rows, args.cols, *max_memory, would_wait.clone());
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
    Box::new(images.into_iter().map(move |board| {
        for (name, given, actual) in
            [("--rows", args.rows, board.nrows()), ("--cols", args.cols, board.ncols())]
        {
            if let Some(given) = given.filter(|&g| g != actual) {
                return Err(Error::BadInput(format!(
                    "{source}: the PBM image is {}x{} but {name} is {given}",
                    board.nrows(),
                    board.ncols()
                )));
            }
        }
        Ok(board)
    }))
}

/// Boards typed at a terminal, each handed out as soon as its last row is
/// in: after `--rows` rows, at a blank line, or when it is square (the rows
/// of a board without blank lines, as in a batch). Each board's lines are
/// parsed by [`TextBoards`] as a batch would be, with the lines before it
/// left blank so that errors name the line the user typed.
pub(super) struct TypedBoards<'a, 'r> {
    pub(super) reader: &'a mut io::BufReader<&'r mut dyn Read>,
    pub(super) rows: Option<usize>,
    pub(super) cols: Option<usize>,
    /// The lines of the board being typed, after as many newlines as lines
    /// came before it.
    pub(super) board: Vec<u8>,
    /// Rows in `board`, and the width of its first.
    pub(super) typed_rows: usize,
    pub(super) width: usize,
    pub(super) lines_read: usize,
    pub(super) answered: usize,
    pub(super) parsed: std::collections::VecDeque<Result<Grid, Error>>,
    pub(super) done: bool,
}

impl<'a, 'r> TypedBoards<'a, 'r> {
    pub(super) fn new(
        reader: &'a mut io::BufReader<&'r mut dyn Read>,
        rows: Option<usize>,
        cols: Option<usize>,
    ) -> Self {
        TypedBoards {
            reader,
            rows,
            cols,
            board: Vec::new(),
            typed_rows: 0,
            width: 0,
            lines_read: 0,
            answered: 0,
            parsed: Default::default(),
            done: false,
        }
    }

    /// Parses the board typed so far and starts the next one.
    pub(super) fn finish_board(&mut self) {
        let source = "<stdin>";
        self.parsed.extend(TextBoards::new(&self.board, source, self.rows, self.cols));
        self.board = vec![b'\n'; self.lines_read];
        self.typed_rows = 0;
    }
}

impl Iterator for TypedBoards<'_, '_> {
    type Item = Result<Grid, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        use io::BufRead;
        loop {
            if let Some(board) = self.parsed.pop_front() {
                self.answered += 1;
                if board.is_err() {
                    self.done = true;
                    self.parsed.clear();
                }
                return Some(board);
            }
            if self.done {
                return None;
            }
            let mut line = Vec::new();
            match self.reader.read_until(b'\n', &mut line) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(Error::BadInput(format!("cannot read <stdin>: {e}"))));
                }
                // The end: a board cut short is parsed as it is (and one
                // never begun is "no board in input" when none came before).
                Ok(0) => {
                    self.done = true;
                    if self.typed_rows > 0 || self.answered == 0 {
                        self.finish_board();
                    }
                }
                Ok(_) => {
                    self.lines_read += 1;
                    let cells = line.trim_ascii();
                    if cells.is_empty() {
                        if self.typed_rows > 0 {
                            self.finish_board();
                        } else {
                            self.board.push(b'\n');
                        }
                        continue;
                    }
                    if self.typed_rows == 0 {
                        self.width = cells.len();
                    }
                    self.typed_rows += 1;
                    self.board.extend_from_slice(&line);
                    if !line.ends_with(b"\n") {
                        self.board.push(b'\n');
                    }
                    if self.typed_rows == self.rows.or(self.cols).unwrap_or(self.width) {
                        self.finish_board();
                    }
                }
            }
        }
    }
}

/// Text boards on a pipe, each handed out as soon as it is complete and
/// unambiguous: with `--rows`, every `rows` rows; otherwise at the blank
/// line after it, once a blank line between rows has shown that blank
/// lines separate the boards. Before that (a stream without blank lines:
/// squares of the first row's width, or one rectangle) nothing is certain
/// until the input ends, and the rows wait for it, as a file's would. Each
/// piece is read by [`TextBoards`] as the whole input would be, with its
/// line numbers, so answers and errors are a file's.
pub(super) struct PipedBoards<'a, 'r, P: Pieces = TwoStates> {
    reader: &'a mut io::BufReader<&'r mut dyn Read>,
    /// How a piece of the text is read into boards.
    pieces: P,
    rows: Option<usize>,
    cols: Option<usize>,
    max_memory: u64,
    /// Set after each board when the reader has nothing buffered: the
    /// next read would wait, so the answers so far should be flushed.
    would_wait: Rc<Cell<bool>>,
    /// The lines of the piece not yet parsed, from line `first_line`.
    piece: Vec<u8>,
    first_line: usize,
    piece_rows: usize,
    /// Bytes of the piece's first row (its width, for text of one byte a
    /// cell).
    width: usize,
    lines_read: usize,
    /// Whether a blank line between rows has been seen: then each block
    /// between blank lines is one board.
    blocks: bool,
    /// A blank line came after rows, before blank lines were known to
    /// separate boards: the next row makes them so.
    gap: bool,
    parsed: std::collections::VecDeque<Result<P::Board, Error>>,
    answered: usize,
    done: bool,
}

/// How [`PipedBoards`] reads the text of a piece into boards: two-state
/// rows ([`TwoStates`]) or K-state ones ([`KStates`]).
pub(super) trait Pieces {
    type Board;

    /// The boards of `piece`, whose first line is line `first_line` of the
    /// input, read as the whole input would be (`blocks`: blank lines
    /// separate its boards).
    fn parse(
        &self,
        piece: &[u8],
        first_line: usize,
        blocks: bool,
        rows: Option<usize>,
        cols: Option<usize>,
    ) -> Vec<Result<Self::Board, Error>>;

    /// Cells of a row (trimmed), as the parser counts them.
    fn width(&self, row: &[u8]) -> usize;
}

/// Two-state text: one character a cell.
pub(super) struct TwoStates;

impl Pieces for TwoStates {
    type Board = Grid;

    fn parse(
        &self,
        piece: &[u8],
        first_line: usize,
        blocks: bool,
        rows: Option<usize>,
        cols: Option<usize>,
    ) -> Vec<Result<Grid, Error>> {
        TextBoards::new(piece, "<stdin>", rows, cols).continuing(first_line, blocks).collect()
    }

    fn width(&self, row: &[u8]) -> usize {
        row.len()
    }
}

/// K-state text: digits, or numbers separated by white space (see
/// [`StateBoards`]).
pub(super) struct KStates(pub(super) u8);

impl Pieces for KStates {
    type Board = StateGrid;

    fn parse(
        &self,
        piece: &[u8],
        first_line: usize,
        blocks: bool,
        rows: Option<usize>,
        cols: Option<usize>,
    ) -> Vec<Result<StateGrid, Error>> {
        StateBoards::new(piece, "<stdin>", self.0, rows, cols).continuing(first_line, blocks).collect()
    }

    fn width(&self, row: &[u8]) -> usize {
        crate::model::state_row_width(row, self.0)
    }
}

impl<'a, 'r> PipedBoards<'a, 'r, TwoStates> {
    fn new(
        reader: &'a mut io::BufReader<&'r mut dyn Read>,
        rows: Option<usize>,
        cols: Option<usize>,
        max_memory: u64,
        would_wait: Rc<Cell<bool>>,
    ) -> Self {
        PipedBoards::with_pieces(reader, TwoStates, rows, cols, max_memory, would_wait)
    }
}

impl<'a, 'r, P: Pieces> PipedBoards<'a, 'r, P> {
    /// Boards of `reader` read by `pieces`.
    pub(super) fn with_pieces(
        reader: &'a mut io::BufReader<&'r mut dyn Read>,
        pieces: P,
        rows: Option<usize>,
        cols: Option<usize>,
        max_memory: u64,
        would_wait: Rc<Cell<bool>>,
    ) -> Self {
        PipedBoards {
            reader,
            pieces,
            rows,
            cols,
            max_memory,
            would_wait,
            piece: Vec::new(),
            first_line: 1,
            piece_rows: 0,
            width: 0,
            lines_read: 0,
            blocks: false,
            gap: false,
            parsed: Default::default(),
            answered: 0,
            done: false,
        }
    }

    /// Parses the piece read so far and starts the next at the next line.
    fn finish_piece(&mut self) {
        let boards = self.pieces.parse(&self.piece, self.first_line, self.blocks, self.rows, self.cols);
        self.parsed.extend(boards);
        self.piece.clear();
        self.piece_rows = 0;
        self.first_line = self.lines_read + 1;
    }
}

impl<P: Pieces> Iterator for PipedBoards<'_, '_, P> {
    type Item = Result<P::Board, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        use io::BufRead;
        loop {
            if let Some(board) = self.parsed.pop_front() {
                self.answered += 1;
                if board.is_err() {
                    self.done = true;
                    self.parsed.clear();
                }
                self.would_wait.set(self.parsed.is_empty() && self.reader.buffer().is_empty());
                return Some(board);
            }
            if self.done {
                return None;
            }
            let mut start = self.piece.len();
            // At most one line's worth: a 2 GB line is refused, not read.
            match self.reader.by_ref().take(MAX_LINE as u64 + 1).read_until(b'\n', &mut self.piece) {
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => {
                    self.done = true;
                    return Some(Err(Error::BadInput(format!("cannot read <stdin>: {e}"))));
                }
                Ok(0) => {
                    // The end: what is left is parsed as it is (and an input
                    // with no board at all says so, as a file does).
                    self.done = true;
                    if self.piece_rows > 0 || self.answered == 0 {
                        self.finish_piece();
                    }
                }
                Ok(n) => {
                    self.lines_read += 1;
                    if n > MAX_LINE {
                        self.done = true;
                        return Some(Err(Error::BadInput(format!(
                            "<stdin>: line {} is longer than {MAX_LINE} bytes (a row has at most {MAX_SIDE} cells)",
                            self.lines_read
                        ))));
                    }
                    if self.piece.len() as u64 > self.max_memory {
                        self.done = true;
                        return Some(Err(Error::Limit(format!(
                            "<stdin>: the board ending at line {} is larger than --max-memory {}",
                            self.lines_read,
                            format_bytes(self.max_memory)
                        ))));
                    }
                    let blank = self.piece[start..].trim_ascii().is_empty();
                    if !blank {
                        if self.gap {
                            // Rows after a blank line after rows: blank lines
                            // separate the boards, so the rows before it are
                            // one board, and this line starts the next.
                            self.gap = false;
                            self.blocks = true;
                            let line = self.piece.split_off(start);
                            self.lines_read -= 1;
                            self.finish_piece();
                            self.lines_read += 1;
                            self.piece = line;
                            start = 0;
                        }
                        if self.piece_rows == 0 {
                            self.width = self.pieces.width(self.piece[start..].trim_ascii());
                        }
                        self.piece_rows += 1;
                        if self.rows == Some(self.piece_rows) {
                            self.finish_piece();
                        }
                    } else if self.piece_rows > 0 && self.blocks {
                        self.piece.truncate(start);
                        self.finish_piece();
                    } else if self.piece_rows > 0 && self.rows.is_none() && self.piece_rows <= self.width {
                        // At most as many rows as the first is wide: one
                        // board whether blank lines separate boards (a
                        // block) or not (a square, or the one rectangle).
                        self.piece.truncate(start);
                        self.finish_piece();
                    } else if self.piece_rows > 0 && self.rows.is_none() {
                        // Several squares, or one tall block: the next row
                        // says (a blank line between rows makes it a block).
                        self.gap = true;
                    } else if self.piece_rows == 0 {
                        self.piece.clear();
                        self.first_line = self.lines_read + 1;
                    }
                }
            }
        }
    }
}
