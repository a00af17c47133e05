//! The reading of lines into boards that both cell kinds share: lines,
//! blank-line and square splitting, and the errors that name a line and
//! column.

use crate::error::{Error, Side};
use crate::model::{MAX_SIDE, check_side};

/// One non-blank input line: its 1-based number, where its cells start
/// (0-based byte column) and the cells themselves, not yet checked.
#[derive(Clone, Copy)]
pub(super) struct Line<'a> {
    pub(super) number: usize,
    pub(super) column: usize,
    pub(super) cells: &'a [u8],
}

pub(super) fn describe(byte: u8) -> String {
    if byte.is_ascii_graphic() || byte == b' ' {
        format!("'{}'", byte as char)
    } else {
        format!("byte 0x{byte:02x}")
    }
}

/// Whether a (trimmed) line writes its cells apart, separated by spaces
/// or tabs, rather than one character a cell: the one grammar of every
/// kind of cell.
pub(super) fn written_apart(line: &Line) -> bool {
    line.cells.iter().any(|&b| b == b' ' || b == b'\t')
}

/// The cells of a line written apart, each with its byte offset in it.
pub(super) fn tokens<'a>(line: &Line<'a>) -> impl Iterator<Item = (usize, &'a [u8])> {
    let cells = line.cells;
    let mut offset = 0;
    std::iter::from_fn(move || {
        while offset < cells.len() && matches!(cells[offset], b' ' | b'\t') {
            offset += 1;
        }
        let start = offset;
        while offset < cells.len() && !matches!(cells[offset], b' ' | b'\t') {
            offset += 1;
        }
        (start < offset).then(|| (start, &cells[start..offset]))
    })
}

/// A way of writing cells on a line: the two-state characters, or K
/// states as digits or numbers. The splitting of lines into boards is the
/// same for all ([`Boards`]); only this differs.
pub(super) trait Cells {
    type Board;

    /// How many cells a (non-blank, trimmed) line holds.
    fn width(&self, line: &Line) -> usize;

    /// A board of `rows × cols` cells, all 0, to read rows into.
    fn board(&self, rows: usize, cols: usize) -> Self::Board;

    /// Reads `line`, known to hold as many cells as the board is wide, into
    /// row `r`; what is wrong with its first bad cell otherwise.
    fn read_row(&self, line: &Line, board: &mut Self::Board, r: usize) -> Result<(), BadRow>;

    /// The message for the first bad cell of `line`, if it has one: what a
    /// row of the wrong width is checked for first, so that a bad
    /// character is named rather than counted.
    fn first_bad(&self, line: &Line) -> Option<BadRow>;

    /// Reads `line` into row `r` if it holds `width` cells: `Ok(false)`
    /// when it holds another number (the caller says which error).
    fn read_sized(
        &self,
        line: &Line,
        board: &mut Self::Board,
        r: usize,
        width: usize,
    ) -> Result<bool, BadRow> {
        if self.width(line) != width {
            return Ok(false);
        }
        self.read_row(line, board, r).map(|()| true)
    }
}

/// What is wrong with a row's cells.
pub(super) enum BadRow {
    /// A message naming the line, column and what is wrong.
    Said(String),
    /// Over 10 states, a row that is one run of digits: see
    /// [`Error::AmbiguousRow`].
    Ambiguous { line: usize, text: String, states: u8, width_given: bool },
}

impl From<String> for BadRow {
    fn from(message: String) -> BadRow {
        BadRow::Said(message)
    }
}

impl BadRow {
    /// The error of reading `source`.
    fn error(self, source: String) -> Error {
        match self {
            BadRow::Said(message) => Error::Parse { source, message },
            BadRow::Ambiguous { line, text, states, width_given } => {
                Error::AmbiguousRow { source, line, text, states, width_given }
            }
        }
    }
}

/// The splitting of a text input into boards, shared by every format of
/// cells (see [`TextBoards`](super::TextBoards) for the rules).
pub(super) struct Boards<'a, C: Cells> {
    input: &'a [u8],
    source: &'a str,
    rows: Option<usize>,
    cols: Option<usize>,
    pub(super) cells: C,
    /// Byte offset and 1-based number of the next line.
    pos: usize,
    number: usize,
    /// Blank lines separate boards (found by a first scan).
    blocks: bool,
    /// Non-blank lines in the whole input.
    total_lines: usize,
    yielded: bool,
    pub(super) done: bool,
    chunk: Vec<Line<'a>>,
}

impl<'a, C: Cells> Boards<'a, C> {
    pub(super) fn new(
        input: &'a [u8],
        source: &'a str,
        rows: Option<usize>,
        cols: Option<usize>,
        cells: C,
    ) -> Self {
        // Editors on Windows may start a text file with a UTF-8 byte-order mark.
        let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
        let mut scan = Boards {
            input,
            source,
            rows,
            cols,
            cells,
            pos: 0,
            number: 1,
            blocks: false,
            total_lines: 0,
            yielded: false,
            done: false,
            chunk: Vec::new(),
        };
        // Whether blank lines separate rows, and how many rows there are:
        // a line is blank or not by its first byte that is not white space
        // (the first byte, nearly always), so no line is trimmed here.
        let (mut seen_line, mut gap, mut start) = (false, false, 0);
        for end in memchr::memchr_iter(b'\n', input).chain(std::iter::once(input.len())) {
            let blank = input[start..end].iter().all(|b| matches!(b, b' ' | b'\t' | b'\r'));
            start = end + 1;
            if blank {
                gap = seen_line;
            } else {
                scan.blocks |= gap;
                seen_line = true;
                scan.total_lines += 1;
            }
        }
        scan
    }

    /// The same reader for a piece of a longer input: its first line is
    /// line `first_line` of the whole (for messages), and with `blocks` the
    /// piece is read as the whole input was found to be, its rows between
    /// blank lines one board. A stream answered board by board reads
    /// itself this way, a piece at a time.
    pub(super) fn continuing(mut self, first_line: usize, blocks: bool) -> Self {
        self.number = first_line;
        self.blocks |= blocks;
        self
    }

    /// The next line: `Some(None)` for a blank one, `None` at the end.
    fn next_line(&mut self) -> Option<Option<Line<'a>>> {
        if self.pos > self.input.len() {
            return None;
        }
        let rest = &self.input[self.pos..];
        let end = memchr::memchr(b'\n', rest).unwrap_or(rest.len());
        let raw = &rest[..end];
        let number = self.number;
        self.pos += end + 1;
        self.number += 1;
        let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
        let Some(first) = raw.iter().position(|b| !is_space(b)) else {
            return Some(None);
        };
        let last = raw.iter().rposition(|b| !is_space(b)).unwrap_or(first);
        Some(Some(Line { number, column: first, cells: &raw[first..=last] }))
    }

    /// Ends the input with `error`.
    fn fail(&mut self, error: Error) -> Option<Result<C::Board, Error>> {
        self.done = true;
        Some(Err(error))
    }

    /// Ends the input with a parse error saying `message`.
    fn error(&mut self, message: String) -> Option<Result<C::Board, Error>> {
        let source = self.source.to_string();
        self.fail(Error::Parse { source, message })
    }

    /// Why `line` cannot be a row `width` cells wide of the board starting
    /// at `first_line`: a bad cell first, then a wrong width.
    fn row_error(&self, line: &Line, width: usize, first_line: usize) -> Option<Error> {
        let source = self.source.to_string();
        if let Some(bad) = self.cells.first_bad(line) {
            return Some(bad.error(source));
        }
        let found = self.cells.width(line);
        (found != width).then_some(Error::Mismatch {
            source,
            side: Side::Cols,
            line: line.number,
            first_line,
            found,
            expected: width,
            given: self.cols.is_some(),
        })
    }

    pub(super) fn next_board(&mut self) -> Option<Result<C::Board, Error>> {
        if self.done {
            return None;
        }
        for (side, given) in [(Side::Rows, self.rows), (Side::Cols, self.cols)] {
            if let Some(Err(e)) = given.map(|n| check_side(side, n)) {
                return self.fail(e);
            }
        }
        // The first row of the board.
        let first = loop {
            match self.next_line() {
                Some(Some(line)) => break line,
                Some(None) => continue,
                None if self.yielded => return None,
                None => return self.error("no board in input".into()),
            }
        };
        let width = self.cols.unwrap_or_else(|| self.cells.width(&first));
        if width > MAX_SIDE {
            return self.error(format!(
                "line {} has {width} cells, more than the limit of {MAX_SIDE}",
                first.number
            ));
        }
        let height = match self.rows {
            Some(r) => Some(r),
            None if self.blocks => None, // up to the next blank line
            None if self.total_lines < width => Some(self.total_lines),
            None => Some(width),
        };
        let mut chunk = std::mem::take(&mut self.chunk);
        chunk.clear();
        chunk.push(first);
        while height.is_none_or(|h| chunk.len() < h) {
            match self.next_line() {
                Some(Some(line)) => chunk.push(line),
                _ => break,
            }
            if chunk.len() > MAX_SIDE {
                return self.error(format!(
                    "the board starting at line {} has more than {MAX_SIDE} rows",
                    first.number
                ));
            }
        }
        if let Some(h) = height.filter(|&h| chunk.len() != h) {
            // Report a bad row of the short board before its height.
            if let Some(e) = chunk.iter().find_map(|line| self.row_error(line, width, first.number)) {
                return self.fail(e);
            }
            return self.fail(Error::Mismatch {
                source: self.source.to_string(),
                side: Side::Rows,
                line: first.number,
                first_line: first.number,
                found: chunk.len(),
                expected: h,
                given: self.rows.is_some(),
            });
        }
        let mut board = self.cells.board(chunk.len(), width);
        for (r, line) in chunk.iter().enumerate() {
            let read = match self.cells.read_sized(line, &mut board, r, width) {
                Ok(true) => None,
                Ok(false) => self.row_error(line, width, first.number),
                Err(bad) => Some(bad.error(self.source.to_string())),
            };
            if let Some(e) = read {
                return self.fail(e);
            }
        }
        self.chunk = chunk;
        self.yielded = true;
        Some(Ok(board))
    }
}
