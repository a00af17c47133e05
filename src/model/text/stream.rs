//! Text boards read from a stream as they arrive ([`PipedBoards`]): each
//! board handed out as soon as it is complete and unambiguous, so that a
//! front answers a pipe's boards as they come, never holding more than
//! one board's text. The pieces are parsed by the text readers
//! ([`TextBoards`], [`StateBoards`]) as the whole input would be.

use std::cell::Cell;
use std::io::{self, Read};
use std::rc::Rc;

use super::reader::{Place, newline, newlines};
use super::{StateBoards, TextBoards};
use crate::error::Error;
use crate::model::{Grid, MAX_SIDE, Sides, StateGrid};

/// Longest text line accepted: a row of [`MAX_SIDE`] cells with room for
/// spaces around it.
pub(crate) const MAX_LINE: usize = MAX_SIDE + 4096;

/// Text boards on a pipe, each handed out as soon as it is complete and
/// unambiguous: with `--rows`, every `rows` rows; otherwise at the blank
/// line after it, once a blank line between rows has shown that blank
/// lines separate the boards. Before that (a stream without blank lines:
/// squares of the first row's width, or one rectangle) nothing is certain
/// until the input ends, and the rows wait for it, as a file's would. Each
/// piece is read by [`TextBoards`] as the whole input would be, with its
/// line numbers, so answers and errors are a file's.
pub(crate) struct PipedBoards<'a, 'r, P: Pieces = BitRows> {
    reader: &'a mut io::BufReader<&'r mut dyn Read>,
    /// How a piece of the text is read into boards.
    pieces: P,
    rows: Option<usize>,
    cols: Option<usize>,
    /// Bytes a board's text may take, and how an error names that limit
    /// (the command line: `--max-memory 1.0 GiB`).
    max_memory: (u64, String),
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
/// rows ([`BitRows`]) or K-state ones ([`StateRows`]).
pub(crate) trait Pieces {
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
pub(crate) struct BitRows;

impl Pieces for BitRows {
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
pub(crate) struct StateRows(pub(crate) u8);

impl Pieces for StateRows {
    type Board = StateGrid;

    fn start(&self, piece: &[u8], first_line: usize, blocks: bool, (rows, cols): Sides) -> Place {
        StateBoards::new(piece, "<stdin>", self.0, rows, cols).continuing(first_line, blocks).place()
    }

    fn next_board(&self, piece: &[u8], place: &mut Place, sides: Sides) -> Option<Result<StateGrid, Error>> {
        StateBoards::next_at(piece, "<stdin>", self.0, sides, place)
    }

    fn width(&self, row: &[u8]) -> usize {
        super::state_row_width(row, self.0)
    }
}

impl<'a, 'r> PipedBoards<'a, 'r, BitRows> {
    /// Two-state boards of `reader`, as [`with_pieces`](Self::with_pieces).
    pub(crate) fn new(
        reader: &'a mut io::BufReader<&'r mut dyn Read>,
        rows: Option<usize>,
        cols: Option<usize>,
        max_memory: (u64, String),
        would_wait: Rc<Cell<bool>>,
    ) -> Self {
        PipedBoards::with_pieces(reader, BitRows, rows, cols, max_memory, would_wait)
    }
}

impl<'a, 'r, P: Pieces> PipedBoards<'a, 'r, P> {
    /// Boards of `reader` read by `pieces`, each board's text within
    /// `max_memory`; `would_wait` is set when the next read would wait.
    pub(crate) fn with_pieces(
        reader: &'a mut io::BufReader<&'r mut dyn Read>,
        pieces: P,
        rows: Option<usize>,
        cols: Option<usize>,
        max_memory: (u64, String),
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
        for end in newlines(buffer) {
            // White space as `trim_ascii` counts it, as the general way does.
            let blank_maybe = buffer[taken].is_ascii_whitespace();
            if blank_maybe || (self.piece.len() + end + 1) as u64 > self.max_memory.0 {
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
        if let Some(end) = newline(buffer) {
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
                    if self.piece.len() as u64 > self.max_memory.0 {
                        self.done = true;
                        return Some(Err(Error::Limit(format!(
                            "<stdin>: the board ending at line {} is larger than {}",
                            self.lines_read, self.max_memory.1
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
                PipedBoards::new(&mut reader, None, None, (u64::MAX, String::new()), would_wait)
                    .map(|b| b.map_err(|e| e.to_string()))
                    .collect::<Vec<_>>()
            };
            let whole = boards(usize::MAX);
            for chunk in 1..=12 {
                assert_eq!(boards(chunk), whole, "{text:?} in reads of {chunk} bytes");
            }
        }
    }
}
