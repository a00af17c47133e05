//! Boards as text: one line per row, one character per cell.

use super::{Grid, MAX_SIDE};
use crate::error::{Error, Side};
use crate::gf2::zeros;

/// One non-blank input line: its 1-based number, where its cells start
/// (0-based byte column) and the cells themselves, not yet checked.
#[derive(Clone, Copy)]
struct Line<'a> {
    number: usize,
    column: usize,
    cells: &'a [u8],
}

const INVALID: u8 = 0;
const WHITE: u8 = 1;
const BLACK: u8 = 2;

/// What each byte stands for: `b`, `B`, `1`, `#` are black; `w`, `W`, `0`,
/// `.` are white; anything else is invalid. A table, because parsing large
/// batches is a measurable share of a run.
static CELL: [u8; 256] = {
    let mut table = [INVALID; 256];
    let (mut i, black, white) = (0, *b"bB1#", *b"wW0.");
    while i < 4 {
        table[black[i] as usize] = BLACK;
        table[white[i] as usize] = WHITE;
        i += 1;
    }
    table
};

fn describe(byte: u8) -> String {
    if byte.is_ascii_graphic() || byte == b' ' {
        format!("'{}'", byte as char)
    } else {
        format!("byte 0x{byte:02x}")
    }
}

/// Parses every board of a text input; see [`TextBoards`] for the format.
///
/// # Errors
/// The first error [`TextBoards`] meets.
///
/// # Example
/// ```
/// let boards = lightsout::parse_boards(b"bwwb\nbbwb\nbwwb\nbwww\n", "sample", None, None).unwrap();
/// assert_eq!((boards[0].nrows(), boards[0].ncols()), (4, 4));
/// assert!(boards[0].get(0, 0)); // 'b' is black
/// ```
pub fn parse_boards(
    input: &[u8],
    source: &str,
    rows: Option<usize>,
    cols: Option<usize>,
) -> Result<Vec<Grid>, Error> {
    TextBoards::new(input, source, rows, cols).collect()
}

/// The boards of a text input, parsed one at a time.
///
/// Each non-blank line is a row; spaces, tabs and a `\r` around a row are
/// ignored. Boards are split:
/// - with `rows` given, every `rows` consecutive rows form a board (blank
///   lines may separate boards too);
/// - otherwise, when the input has blank lines between rows, each block
///   between them is one board;
/// - otherwise, the rows are grouped into square boards of the first row's
///   width, as in the POJ 1753 input; an input with fewer rows than that
///   width is one rectangular board.
///
/// Yields [`Error::Parse`] naming the source, the line and the column for a
/// bad character or an input with no board at all, and [`Error::Mismatch`]
/// for a ragged row, a row of the wrong width or a board of the wrong
/// height; after an error it yields nothing more.
pub struct TextBoards<'a> {
    input: &'a [u8],
    source: &'a str,
    rows: Option<usize>,
    cols: Option<usize>,
    /// Byte offset and 1-based number of the next line.
    pos: usize,
    number: usize,
    /// Blank lines separate boards (found by a first scan).
    blocks: bool,
    /// Non-blank lines in the whole input.
    total_lines: usize,
    yielded: bool,
    done: bool,
    chunk: Vec<Line<'a>>,
}

impl<'a> TextBoards<'a> {
    /// Prepares to read `input`; `source` names it in messages.
    pub fn new(input: &'a [u8], source: &'a str, rows: Option<usize>, cols: Option<usize>) -> Self {
        // Editors on Windows may start a text file with a UTF-8 byte-order mark.
        let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
        let mut scan = TextBoards {
            input,
            source,
            rows,
            cols,
            pos: 0,
            number: 1,
            blocks: false,
            total_lines: 0,
            yielded: false,
            done: false,
            chunk: Vec::new(),
        };
        let (mut seen_line, mut gap) = (false, false);
        while let Some(line) = scan.next_line() {
            match line {
                None => gap = seen_line,
                Some(_) => {
                    scan.blocks |= gap;
                    seen_line = true;
                    scan.total_lines += 1;
                }
            }
        }
        TextBoards { pos: 0, number: 1, ..scan }
    }

    /// The same reader for a piece of a longer input: its first line is
    /// line `first_line` of the whole (for messages), and with `blocks` the
    /// piece is read as the whole input was found to be, its rows between
    /// blank lines one board. A stream answered board by board reads
    /// itself this way, a piece at a time.
    pub fn continuing(mut self, first_line: usize, blocks: bool) -> Self {
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
    fn fail(&mut self, error: Error) -> Option<Result<Grid, Error>> {
        self.done = true;
        Some(Err(error))
    }

    /// Ends the input with a parse error saying `message`.
    fn error(&mut self, message: String) -> Option<Result<Grid, Error>> {
        let source = self.source.to_string();
        self.fail(Error::Parse { source, message })
    }

    /// Checks one row's characters and width and sets its black cells.
    ///
    /// The cells are ORed into the row's words (zero on entry): bitvec's
    /// `set` per cell made a batch of all 65,536 4×4 boards 20 % slower.
    fn read_row(&self, line: &Line, width: usize, first_line: usize, row: &mut [u64]) -> Result<(), Error> {
        let mut invalid = false;
        if line.cells.len() == width {
            for (c, &b) in line.cells.iter().enumerate() {
                let v = CELL[b as usize];
                invalid |= v == INVALID;
                row[c / 64] |= ((v >> 1) as u64) << (c % 64);
            }
        }
        if invalid || line.cells.len() != width {
            let source = self.source.to_string();
            if let Some(offset) = line.cells.iter().position(|&b| CELL[b as usize] == INVALID) {
                let message = format!(
                    "invalid character {} at line {}, column {} (expected b, B, 1 or # for black, w, W, 0 or . for white)",
                    describe(line.cells[offset]),
                    line.number,
                    line.column + offset + 1
                );
                return Err(Error::Parse { source, message });
            }
            return Err(Error::Mismatch {
                source,
                side: Side::Cols,
                line: line.number,
                first_line,
                found: line.cells.len(),
                expected: width,
                given: self.cols.is_some(),
            });
        }
        Ok(())
    }
}

impl Iterator for TextBoards<'_> {
    type Item = Result<Grid, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        for (side, given) in [(Side::Rows, self.rows), (Side::Cols, self.cols)] {
            if let Some(Err(e)) = given.map(|n| super::check_side(side, n)) {
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
        let width = self.cols.unwrap_or(first.cells.len());
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
            let mut scratch = zeros(width);
            for line in &chunk {
                scratch.fill(false);
                if let Err(e) = self.read_row(line, width, first.number, scratch.as_raw_mut_slice()) {
                    return self.fail(e);
                }
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
        let mut board = Grid::zeros(chunk.len(), width);
        for (r, line) in chunk.iter().enumerate() {
            if let Err(e) = self.read_row(line, width, first.number, board.words_mut(r)) {
                return self.fail(e);
            }
        }
        self.chunk = chunk;
        self.yielded = true;
        Some(Ok(board))
    }
}

/// A grid as lines of text: `one` for set cells, `zero` for clear ones.
pub fn grid_lines(grid: &Grid, one: char, zero: char) -> Vec<String> {
    (0..grid.nrows())
        .map(|r| (0..grid.ncols()).map(|c| if grid.get(r, c) { one } else { zero }).collect())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn shapes(input: &str, rows: Option<usize>) -> Result<Vec<(usize, usize)>, String> {
        parse_boards(input.as_bytes(), "in", rows, None)
            .map(|bs| bs.iter().map(|b| (b.nrows(), b.ncols())).collect())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn splitting_rules() {
        assert_eq!(shapes("bwbw\nwwww\nbbbb\nwwww\nbbbb\nbbbb\nbbbb\nbbbb\n", None), Ok(vec![(4, 4); 2]));
        assert_eq!(shapes("bwbww\nwwwww\nbbbbb\n", None), Ok(vec![(3, 5)]));
        assert_eq!(shapes("bw\nwb\nww\n\nb\n", None), Ok(vec![(3, 2), (1, 1)]));
        assert_eq!(shapes("\r\n  bw \r\nwb\r\n\r\n", None), Ok(vec![(2, 2)]));
        assert_eq!(shapes("bw\nwb\nww\nbb\n", Some(1)), Ok(vec![(1, 2); 4]));
        assert_eq!(shapes("10\n#.", None), Ok(vec![(2, 2)]));
        assert_eq!(shapes("\u{feff}bw\r\nwb\r\n", None), Ok(vec![(2, 2)]));
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            shapes("bwbw\nbw%w\n", None),
            Err("in: invalid character '%' at line 2, column 3 (expected b, B, 1 or # for black, w, W, 0 or . for white)".into())
        );
        assert_eq!(shapes("bwb\nbw\nbbb\n", None), Err("in: line 2 has 2 cells but line 1 has 3".into()));
        // The first error in the input wins.
        assert!(shapes("bw%\nbw\nbbb\n", None).unwrap_err().contains("'%' at line 1, column 3"));
        assert_eq!(shapes("\n\n", None), Err("in: no board in input".into()));
        assert!(shapes("bwbw\nwwww\nbbbb\nwwww\nbbbb\n", None).unwrap_err().contains("line 5 has 1 rows"));
        assert!(shapes("bw\nwb\nww\n", Some(2)).unwrap_err().contains("2 rows were given"));
        assert!(shapes("b\u{e9}\n", None).unwrap_err().contains("byte 0xc3 at line 1, column 2"));
    }
}
