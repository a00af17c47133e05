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

/// Where the first newline of `bytes` is. Rows are mostly short (the
/// classic 4×4 stream's have 4 cells), where a call into `memchr` costs
/// more than the bytes it skips; long rows still get its vector search.
pub(crate) fn newline(bytes: &[u8]) -> Option<usize> {
    const SHORT: usize = 16;
    match bytes.iter().take(SHORT).position(|&b| b == b'\n') {
        Some(at) => Some(at),
        None if bytes.len() <= SHORT => None,
        None => memchr::memchr(b'\n', &bytes[SHORT..]).map(|at| at + SHORT),
    }
}

/// The offsets of the newlines in `bytes`, in order, found eight bytes at
/// a time. `memchr_iter` makes a call per newline, which costs more than
/// a short row's parsing: the classic stream has a newline every 5 bytes.
pub(crate) fn newlines(bytes: &[u8]) -> Newlines<'_> {
    Newlines { bytes, next: 0, found: 0 }
}

/// The iterator of [`newlines`].
pub(crate) struct Newlines<'a> {
    bytes: &'a [u8],
    /// The offset of the next eight bytes to look at.
    next: usize,
    /// The high bit of each newline byte of the eight before `next`.
    found: u64,
}

impl Iterator for Newlines<'_> {
    type Item = usize;

    fn next(&mut self) -> Option<usize> {
        const LOW7: u64 = 0x7F7F_7F7F_7F7F_7F7F;
        loop {
            if self.found != 0 {
                let at = self.next - 8 + (self.found.trailing_zeros() / 8) as usize;
                self.found &= self.found - 1;
                return Some(at);
            }
            let eight = self.bytes.get(self.next..self.next + 8).and_then(|b| <[u8; 8]>::try_from(b).ok());
            let Some(eight) = eight else {
                // The last few bytes, one at a time.
                let at = self.next + self.bytes.get(self.next..)?.iter().position(|&b| b == b'\n')?;
                self.next = at + 1;
                return Some(at);
            };
            // A byte is a newline where `x` is zero: exact per byte (no
            // borrow runs from one byte into the next).
            let x = u64::from_le_bytes(eight) ^ 0x0A0A_0A0A_0A0A_0A0A;
            self.found = !(((x & LOW7).wrapping_add(LOW7)) | x | LOW7);
            self.next += 8;
        }
    }
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

    /// Whether [`read_plain`](Self::read_plain) reads rows at all (the
    /// K-state cells do not: a board is not made for nothing).
    const READS_PLAIN: bool = false;

    /// Reads `row`, raw bytes that should be exactly one cell a byte with
    /// nothing around them, into row `r`: `false` (the row untouched) when
    /// it is anything else, and the general way reads it then.
    fn read_plain(&self, _row: &[u8], _board: &mut Self::Board, _r: usize) -> bool {
        false
    }

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

/// Where a reading of boards stands, to go on with it later over the same
/// input: a pipe's reader keeps the text of a piece and hands its boards
/// out one at a time, never holding them all (see
/// [`TextBoards::place`](super::TextBoards::place)).
#[cfg(feature = "cli")]
#[derive(Clone, Copy, Debug)]
pub(crate) struct Place {
    pos: usize,
    number: usize,
    blocks: bool,
    total_lines: usize,
    yielded: bool,
    done: bool,
}

#[cfg(feature = "cli")]
impl Place {
    /// Whether the input holds nothing more than white space from here:
    /// no board, nor an error, is left to read.
    pub(crate) fn at_end(&self, input: &[u8]) -> bool {
        let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
        self.done || input.get(self.pos..).is_none_or(|rest| rest.trim_ascii().is_empty()) && self.yielded
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
        for end in newlines(input).chain(std::iter::once(input.len())) {
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

    /// Where this reading stands.
    #[cfg(feature = "cli")]
    pub(super) fn place(&self) -> Place {
        let (pos, number, blocks, total_lines) = (self.pos, self.number, self.blocks, self.total_lines);
        Place { pos, number, blocks, total_lines, yielded: self.yielded, done: self.done }
    }

    /// The reading of `input` that stood at `place` (taken from a reader
    /// of the same input, with the same `rows`, `cols` and cells), without
    /// the first scan.
    #[cfg(feature = "cli")]
    pub(super) fn at(
        input: &'a [u8],
        source: &'a str,
        rows: Option<usize>,
        cols: Option<usize>,
        cells: C,
        place: Place,
    ) -> Self {
        let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
        let Place { pos, number, blocks, total_lines, yielded, done } = place;
        let chunk = Vec::new();
        Boards { input, source, rows, cols, cells, pos, number, blocks, total_lines, yielded, done, chunk }
    }

    /// The next board of the reading of `input` that stood at `place`
    /// (made with the same `source`, sides and `cells`), moving `place`
    /// past it.
    #[cfg(feature = "cli")]
    pub(super) fn next_at(
        input: &'a [u8],
        source: &'a str,
        (rows, cols): (Option<usize>, Option<usize>),
        cells: C,
        place: &mut Place,
    ) -> Option<Result<C::Board, Error>> {
        let mut boards = Boards::at(input, source, rows, cols, cells, *place);
        let board = boards.next_board();
        *place = boards.place();
        board
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
        let end = newline(rest).unwrap_or(rest.len());
        let raw = &rest[..end];
        let number = self.number;
        self.pos += end + 1;
        self.number += 1;
        let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
        // Rows are nearly always written with nothing around them.
        if let (Some(a), Some(z)) = (raw.first(), raw.last())
            && !is_space(a)
            && !is_space(z)
        {
            return Some(Some(Line { number, column: 0, cells: raw }));
        }
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

    /// How many rows the board starting here has, when its first row has
    /// `width` cells; `None` when a blank line ends it.
    fn height(&self, width: usize) -> Option<usize> {
        match self.rows {
            Some(r) => Some(r),
            None if self.blocks => None, // up to the next blank line
            None if self.total_lines < width => Some(self.total_lines),
            None => Some(width),
        }
    }

    /// The next board, when every row of it is plain: `width` cells of one
    /// byte with nothing around them, each ended by a newline (the last
    /// may end the input). Read straight from the bytes, the common case
    /// (the classic 4×4 stream); `None`, with nothing consumed, sends the
    /// board the general way, which also says what is wrong.
    fn plain_board(&mut self) -> Option<C::Board> {
        if !C::READS_PLAIN {
            return None;
        }
        let rest = self.input.get(self.pos..)?;
        let width = self.cols.unwrap_or_else(|| newline(rest).unwrap_or(rest.len()));
        let height = self.height(width)?;
        // Nothing is made before the rows are known to be there.
        let bytes = height.checked_mul(width + 1)?;
        if height == 0 || width == 0 || width > MAX_SIDE || bytes > rest.len() + 1 {
            return None;
        }
        let mut board = self.cells.board(height, width);
        for (r, row) in rest.chunks(width + 1).take(height).enumerate() {
            let plain = matches!(row.get(width), None | Some(b'\n'));
            if !plain || !self.cells.read_plain(&row[..width], &mut board, r) {
                return None;
            }
        }
        self.pos += bytes;
        self.number += height;
        self.yielded = true;
        Some(board)
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
        if let Some(board) = self.plain_board() {
            return Some(Ok(board));
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
        let height = self.height(width);
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

#[cfg(test)]
mod tests {
    use super::newlines;

    /// Every byte position and run of newlines, against `memchr`.
    #[test]
    fn newlines_are_memchrs() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        for len in 0..200 {
            for density in [2u64, 5, 17] {
                let bytes: Vec<u8> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        if seed.is_multiple_of(density) {
                            b'\n'
                        } else {
                            [b'b', 0x8A, 0x0B, 0x09, b'w'][(seed % 5) as usize]
                        }
                    })
                    .collect();
                let ours: Vec<usize> = newlines(&bytes).collect();
                let theirs: Vec<usize> = memchr::memchr_iter(b'\n', &bytes).collect();
                assert_eq!(ours, theirs, "{bytes:?}");
            }
        }
    }
}
