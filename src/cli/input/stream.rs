//! The streaming readers of standard input: boards typed at a terminal
//! ([`TypedBoards`]) and text on a pipe ([`PipedBoards`], two-state or
//! K-state rows), each board handed out as soon as it is complete.

use std::cell::Cell;
use std::io::{self, Read, Write};
use std::rc::Rc;

use super::MAX_LINE;
use crate::model::{MAX_SIDE, Place, Sides, StateBoards, TextBoards};
use crate::present::format_bytes;
use crate::solve::Board;
use crate::{Error, Grid, StateGrid};

/// Boards typed at a terminal, each handed out as soon as its last row is
/// in: after `--rows` rows, at a blank line, or when it is square (the rows
/// of a board without blank lines, as in a batch). Each board's lines are
/// parsed by [`TextBoards`] as a batch would be, with the lines before it
/// left blank so that errors name the line the user typed.
///
/// A row is checked as soon as it is typed: a bad character, or a width
/// other than the board's first row's (or `--cols`), is said at once in
/// one line on `notes` (stderr), and the board typed so far is dropped so
/// that the person types it again from its first row. On a pipe
/// ([`PipedBoards`]) a bad board still ends the run: no one is there to
/// type it again.
pub(super) struct TypedBoards<'a, 'r, P: Pieces = TwoStates> {
    reader: &'a mut io::BufReader<&'r mut dyn Read>,
    /// How a row, and the board typed, are read: two-state or K-state.
    pieces: P,
    /// Where a bad row is said as it is typed, and how its error names
    /// the flags (`--cols` rather than the library's "columns given").
    notes: Box<dyn io::Write + 'a>,
    name_error: Box<dyn Fn(Error) -> Error + 'a>,
    /// The line number of the first row of the board being typed.
    first_row_line: usize,
    rows: Option<usize>,
    cols: Option<usize>,
    /// The lines of the board being typed, after as many newlines as lines
    /// came before it.
    board: Vec<u8>,
    /// Rows in `board`, and the width of its first.
    typed_rows: usize,
    width: usize,
    lines_read: usize,
    answered: usize,
    parsed: std::collections::VecDeque<Result<P::Board, Error>>,
    done: bool,
}

impl<'a, 'r> TypedBoards<'a, 'r> {
    pub(super) fn new(
        reader: &'a mut io::BufReader<&'r mut dyn Read>,
        rows: Option<usize>,
        cols: Option<usize>,
        notes: Box<dyn io::Write + 'a>,
        name_error: Box<dyn Fn(Error) -> Error + 'a>,
    ) -> Self {
        TypedBoards::with_pieces(reader, TwoStates, rows, cols, notes, name_error)
    }
}

impl<'a, 'r, P: Pieces<Board: Board>> TypedBoards<'a, 'r, P> {
    /// Boards typed at a terminal, read by `pieces` (two-state or K-state
    /// rows).
    pub(in crate::cli) fn with_pieces(
        reader: &'a mut io::BufReader<&'r mut dyn Read>,
        pieces: P,
        rows: Option<usize>,
        cols: Option<usize>,
        notes: Box<dyn io::Write + 'a>,
        name_error: Box<dyn Fn(Error) -> Error + 'a>,
    ) -> Self {
        TypedBoards {
            reader,
            pieces,
            notes,
            name_error,
            first_row_line: 0,
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

    /// What is wrong with `line`, typed as line `number`, as a row of the
    /// board being typed: a cell that is not one (read as a batch reads a
    /// row, so the message is a batch's), or a width that is not the
    /// board's. A good row's width otherwise.
    fn bad_row(&self, line: &[u8], number: usize) -> Result<usize, Error> {
        let sides = (Some(1), self.cols);
        let mut place = self.pieces.start(line, number, false, sides);
        let width = match self.pieces.next_board(line, &mut place, sides) {
            Some(Ok(row)) => row.shape().1,
            Some(Err(e)) => return Err(e),
            None => return Ok(0),
        };
        if self.typed_rows > 0 && width != self.width {
            return Err(Error::Parse {
                source: "<stdin>".into(),
                message: format!(
                    "line {number} has {width} cells but line {} has {}",
                    self.first_row_line, self.width
                ),
            });
        }
        Ok(width)
    }

    /// Says `error` of a row just typed and drops the board typed so far:
    /// the person types it again.
    fn retype(&mut self, error: Error) {
        let error = (self.name_error)(error);
        let again =
            if self.typed_rows > 0 { "type this board again from its first row" } else { "type it again" };
        let _ = writeln!(self.notes, "lightsout: {error}; {again}");
        let _ = self.notes.flush();
        self.board = vec![b'\n'; self.lines_read];
        self.typed_rows = 0;
    }

    /// Parses the board typed so far and starts the next one.
    fn finish_board(&mut self) {
        let sides = (self.rows, self.cols);
        let mut place = self.pieces.start(&self.board, 1, false, sides);
        while let Some(board) = self.pieces.next_board(&self.board, &mut place, sides) {
            self.parsed.push_back(board);
        }
        self.board = vec![b'\n'; self.lines_read];
        self.typed_rows = 0;
    }
}

impl<P: Pieces<Board: Board>> Iterator for TypedBoards<'_, '_, P> {
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
                    let width = match self.bad_row(&line, self.lines_read) {
                        Ok(width) => width,
                        Err(e) => {
                            self.retype(e);
                            continue;
                        }
                    };
                    if self.typed_rows == 0 {
                        self.width = width;
                        self.first_row_line = self.lines_read;
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
pub(in crate::cli) struct PipedBoards<'a, 'r, P: Pieces = TwoStates> {
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
    /// The piece whose boards are being handed out, and where its reading
    /// stands: its boards are read one at a time, never held all at once.
    ready: Vec<u8>,
    place: Option<Place>,
    answered: usize,
    done: bool,
}

/// How [`PipedBoards`] reads the text of a piece into boards: two-state
/// rows ([`TwoStates`]) or K-state ones ([`KStates`]).
pub(in crate::cli) trait Pieces {
    type Board;

    /// Where a reading of `piece` starts, its first line being line
    /// `first_line` of the input, read as the whole input would be
    /// (`blocks`: blank lines separate its boards).
    fn start(&self, piece: &[u8], first_line: usize, blocks: bool, sides: Sides) -> Place;

    /// The next board of `piece` from `place`, which moves past it.
    fn next_board(&self, piece: &[u8], place: &mut Place, sides: Sides)
    -> Option<Result<Self::Board, Error>>;

    /// Cells of a row (trimmed), as the parser counts them.
    fn width(&self, row: &[u8]) -> usize;
}

/// Two-state text: one character a cell.
pub(in crate::cli) struct TwoStates;

impl Pieces for TwoStates {
    type Board = Grid;

    fn start(&self, piece: &[u8], first_line: usize, blocks: bool, (rows, cols): Sides) -> Place {
        TextBoards::new(piece, "<stdin>", rows, cols).continuing(first_line, blocks).place()
    }

    fn next_board(&self, piece: &[u8], place: &mut Place, sides: Sides) -> Option<Result<Grid, Error>> {
        TextBoards::next_at(piece, "<stdin>", sides, place)
    }

    fn width(&self, row: &[u8]) -> usize {
        row.len()
    }
}

/// K-state text: digits, or numbers separated by white space (see
/// [`StateBoards`]).
pub(in crate::cli) struct KStates(pub(in crate::cli) u8);

impl Pieces for KStates {
    type Board = StateGrid;

    fn start(&self, piece: &[u8], first_line: usize, blocks: bool, (rows, cols): Sides) -> Place {
        StateBoards::new(piece, "<stdin>", self.0, rows, cols).continuing(first_line, blocks).place()
    }

    fn next_board(&self, piece: &[u8], place: &mut Place, sides: Sides) -> Option<Result<StateGrid, Error>> {
        StateBoards::next_at(piece, "<stdin>", self.0, sides, place)
    }

    fn width(&self, row: &[u8]) -> usize {
        crate::model::state_row_width(row, self.0)
    }
}

impl<'a, 'r> PipedBoards<'a, 'r, TwoStates> {
    pub(super) fn new(
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
    pub(in crate::cli) fn with_pieces(
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
            ready: Vec::new(),
            place: None,
            answered: 0,
            done: false,
        }
    }

    /// Takes the buffered lines that change nothing but the count of the
    /// piece's rows, in one pass: rows after the piece's first, with no
    /// `--rows` and no blank line pending (a stream of squares without
    /// blank lines waits for its end). The classic 65,536 boards are
    /// 262,144 such lines, and a call per line cost more than their
    /// parsing. Whether any was taken; a line that may be blank (it starts
    /// with white space), or one past `--max-memory`, is left to the
    /// general way.
    fn take_rows(&mut self) -> bool {
        if self.rows.is_some() || self.gap || self.piece_rows == 0 {
            return false;
        }
        let buffer = self.reader.buffer();
        let (mut taken, mut rows) = (0, 0);
        for end in crate::model::newlines(buffer) {
            // White space as `trim_ascii` counts it, as the general way does.
            let blank_maybe = buffer[taken].is_ascii_whitespace();
            if blank_maybe || (self.piece.len() + end + 1) as u64 > self.max_memory {
                break;
            }
            (taken, rows) = (end + 1, rows + 1);
        }
        self.piece.extend_from_slice(&buffer[..taken]);
        io::BufRead::consume(self.reader, taken);
        self.piece_rows += rows;
        self.lines_read += rows;
        rows > 0
    }

    /// Parses the piece read so far and starts the next at the next line.
    fn finish_piece(&mut self) {
        std::mem::swap(&mut self.ready, &mut self.piece);
        self.place =
            Some(self.pieces.start(&self.ready, self.first_line, self.blocks, (self.rows, self.cols)));
        self.piece.clear();
        self.piece_rows = 0;
        self.first_line = self.lines_read + 1;
    }
}

/// Appends one line of `reader` (with its newline, if any) to `piece`, or
/// a little more than [`MAX_LINE`] bytes of a longer one (a 2 GB line is
/// refused, not read); its length, 0 at the end. `read_until` through
/// `take` cost a third of the time of the 65,536 4x4 boards on a pipe.
fn read_line(reader: &mut impl io::BufRead, piece: &mut Vec<u8>) -> io::Result<usize> {
    let start = piece.len();
    loop {
        let buffer = match reader.fill_buf() {
            Ok(buffer) => buffer,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buffer.is_empty() {
            break;
        }
        if let Some(end) = crate::model::newline(buffer) {
            piece.extend_from_slice(&buffer[..=end]);
            reader.consume(end + 1);
            break;
        }
        let taken = buffer.len();
        piece.extend_from_slice(buffer);
        reader.consume(taken);
        if piece.len() - start > MAX_LINE {
            break;
        }
    }
    Ok(piece.len() - start)
}

impl<P: Pieces> Iterator for PipedBoards<'_, '_, P> {
    type Item = Result<P::Board, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(place) = self.place.as_mut() {
                match self.pieces.next_board(&self.ready, place, (self.rows, self.cols)) {
                    Some(board) => {
                        self.answered += 1;
                        if board.is_err() {
                            self.done = true;
                            self.place = None;
                        }
                        let piece_done = self.place.is_none_or(|place| place.at_end(&self.ready));
                        // A blank line after the board, already buffered,
                        // is read before the next wait: flush now too.
                        let waits = self.reader.buffer().trim_ascii().is_empty();
                        self.would_wait.set(piece_done && waits);
                        return Some(board);
                    }
                    None => self.place = None,
                }
            }
            if self.done {
                return None;
            }
            if self.take_rows() {
                continue;
            }
            let mut start = self.piece.len();
            match read_line(&mut *self.reader, &mut self.piece) {
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

#[cfg(test)]
mod tests {
    use super::*;

    /// The boards typed in `text` (as a terminal delivers it, a line at a
    /// time) with `--rows`/`--cols`, and what was said of bad rows.
    fn typed(text: &str, rows: Option<usize>, cols: Option<usize>) -> (Vec<Result<Grid, String>>, String) {
        let mut bytes = text.as_bytes();
        let stdin: &mut dyn Read = &mut bytes;
        let mut reader = io::BufReader::new(&mut *stdin);
        let mut notes = Vec::new();
        let boards: Vec<_> = TypedBoards::new(&mut reader, rows, cols, Box::new(&mut notes), Box::new(|e| e))
            .map(|b| b.map_err(|e| e.to_string()))
            .collect();
        (boards, String::from_utf8(notes).unwrap())
    }

    /// A reader that hands out at most `chunk` bytes a read, as a pipe
    /// written in pieces does.
    struct Chunked<'a> {
        bytes: &'a [u8],
        chunk: usize,
    }

    impl Read for Chunked<'_> {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            let n = self.chunk.min(buf.len()).min(self.bytes.len());
            buf[..n].copy_from_slice(&self.bytes[..n]);
            self.bytes = &self.bytes[n..];
            Ok(n)
        }
    }

    /// Regression: a line of white space other than spaces, tabs and `\r`
    /// (a form feed) was a row when taken with others from the buffer and
    /// blank when read alone, so the answer hung on where the pipe's reads
    /// fell. However the text arrives, its boards are the same.
    #[test]
    fn boards_on_a_pipe_do_not_hang_on_its_reads() {
        let texts = [
            "bwwb\nbbwb\n\x0c\nbwwb\nbwww\n",
            "bwwb\nbbwb\nbwwb\nbwww\n\x0c\nbbbb\nwwww\nbbbb\nwwww\n",
            "bw\nwb\n \nbb\nww\n\nb\n",
            "bwb\nwbw\nbwb\nwww\nbbb\nwbw\nbwb\nw%w\nbbb\n",
        ];
        for text in texts {
            let boards = |chunk: usize| {
                let mut source = Chunked { bytes: text.as_bytes(), chunk };
                let stdin: &mut dyn Read = &mut source;
                let mut reader = io::BufReader::with_capacity(1 << 16, &mut *stdin);
                let would_wait = Rc::new(Cell::new(false));
                PipedBoards::new(&mut reader, None, None, u64::MAX, would_wait)
                    .map(|b| b.map_err(|e| e.to_string()))
                    .collect::<Vec<_>>()
            };
            let whole = boards(usize::MAX);
            for chunk in 1..=12 {
                assert_eq!(boards(chunk), whole, "{text:?} in reads of {chunk} bytes");
            }
        }
    }

    #[test]
    fn a_bad_row_is_said_and_its_board_typed_again() {
        // A typo in the first row, then a short third row: each said in one
        // line, the board dropped, and the board typed again answered.
        let (boards, notes) = typed("bwbx\nbw\nwb\n\nbbb\nwww\nbb\nbbb\nwww\nbwb\n", None, None);
        assert_eq!(
            notes,
            "lightsout: <stdin>: invalid character 'x' at line 1, column 4 (expected b, B, 1 or # for black, w, W, \
             0 or . for white); type it again\n\
             lightsout: <stdin>: line 7 has 2 cells but line 5 has 3; type this board again from its first row\n"
        );
        let boards: Vec<Grid> = boards.into_iter().map(Result::unwrap).collect();
        assert_eq!(boards.len(), 2);
        assert_eq!((boards[0].nrows(), boards[0].ncols(), boards[0].count_ones()), (2, 2, 2));
        assert_eq!((boards[1].nrows(), boards[1].ncols(), boards[1].count_ones()), (3, 3, 5));
        // The columns given are held against every row as it is typed (the
        // CLI names them --cols).
        let (boards, notes) = typed("bwb\nbw\nwb\n", Some(2), Some(2));
        assert_eq!(notes, "lightsout: <stdin>: line 1 has 3 cells but 2 columns were given; type it again\n");
        assert_eq!(boards.len(), 1);
        assert!(boards[0].is_ok());
    }
}
