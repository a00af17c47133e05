//! Boards as text: one line per row, one character per cell (or, for K
//! states, one digit or one number per cell).

use super::Grid;
use crate::error::Error;

mod reader;
mod states;
#[cfg(feature = "cli")]
mod stream;

#[cfg(feature = "cli")]
pub(crate) use reader::Place;
#[cfg(feature = "cli")]
pub(crate) use stream::{BitRows, MAX_LINE, Pieces, PipedBoards, StateRows};

use reader::{BadRow, Boards, Cells, Line, describe, tokens, written_apart};

pub use states::{StateBoards, parse_state_boards, state_lines, state_row_width};

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

/// The two-state characters of [`TextBoards`].
struct Bits;

impl Bits {
    fn bad_at(line: &Line, offset: usize) -> String {
        format!(
            "invalid character {} at line {}, column {} (expected b, B, 1 or # for black, w, W, 0 or . for white)",
            describe(line.cells[offset]),
            line.number,
            line.column + offset + 1
        )
    }
}

impl Bits {
    /// A bad cell of a row written apart: a character of its own, or a
    /// run of several where one was expected.
    fn bad_token(line: &Line, offset: usize, token: &[u8]) -> String {
        if token.len() == 1 {
            return Bits::bad_at(line, offset);
        }
        format!(
            "invalid cell '{}' at line {}, column {} (a row written apart has one character a cell: b, B, 1 \
             or # for black, w, W, 0 or . for white)",
            String::from_utf8_lossy(token),
            line.number,
            line.column + offset + 1
        )
    }
}

impl Cells for Bits {
    type Board = Grid;

    fn width(&self, line: &Line) -> usize {
        if written_apart(line) { tokens(line).count() } else { line.cells.len() }
    }

    fn board(&self, rows: usize, cols: usize) -> Grid {
        Grid::zeros(rows, cols)
    }

    /// The cells are ORed into the row's words (zero on entry): bitvec's
    /// `set` per cell made a batch of all 65,536 4×4 boards 20 % slower.
    fn read_row(&self, line: &Line, board: &mut Grid, r: usize) -> Result<(), BadRow> {
        if written_apart(line) {
            // Cells apart (`1 0 1`, `b w b`): one character each.
            for (c, (offset, token)) in tokens(line).enumerate() {
                match (token, CELL[token[0] as usize]) {
                    ([_], v) if v != INVALID => board.set(r, c, v >> 1 == 1),
                    _ => return Err(Bits::bad_token(line, offset, token).into()),
                }
            }
            return Ok(());
        }
        let row = board.words_mut(r);
        let mut invalid = false;
        for (c, &b) in line.cells.iter().enumerate() {
            let v = CELL[b as usize];
            invalid |= v == INVALID;
            row[c / 64] |= ((v >> 1) as u64) << (c % 64);
        }
        match invalid {
            false => Ok(()),
            true => Err(self.first_bad(line).unwrap_or_else(|| String::new().into())),
        }
    }

    /// One pass over a row of one character a cell, the common case; a
    /// row with any other byte (a space between cells, a bad character)
    /// is read again the general way.
    fn read_sized(&self, line: &Line, board: &mut Grid, r: usize, width: usize) -> Result<bool, BadRow> {
        if line.cells.len() == width && self.read_plain(line.cells, board, r) {
            return Ok(true);
        }
        if line.cells.len() == width && width > 64 {
            let row = board.words_mut(r);
            let mut invalid = false;
            for (word, cells) in row.iter_mut().zip(line.cells.chunks(64)) {
                for (c, &b) in cells.iter().enumerate() {
                    let v = CELL[b as usize];
                    invalid |= v == INVALID;
                    *word |= ((v >> 1) as u64) << c;
                }
            }
            if !invalid {
                return Ok(true);
            }
            row.fill(0);
        }
        if self.width(line) != width {
            return Ok(false);
        }
        self.read_row(line, board, r).map(|()| true)
    }

    /// A row of one word, gathered in a register (most boards).
    const READS_PLAIN: bool = true;

    fn read_plain(&self, row: &[u8], board: &mut Grid, r: usize) -> bool {
        if row.len() > 64 {
            return false;
        }
        let (mut word, mut invalid) = (0u64, false);
        for (c, &b) in row.iter().enumerate() {
            let v = CELL[b as usize];
            invalid |= v == INVALID;
            word |= ((v >> 1) as u64) << c;
        }
        if let (false, Some(first)) = (invalid, board.words_mut(r).first_mut()) {
            *first = word;
            return true;
        }
        false
    }

    fn first_bad(&self, line: &Line) -> Option<BadRow> {
        if written_apart(line) {
            let bad = |t: &[u8]| t.len() != 1 || CELL[t[0] as usize] == INVALID;
            let (offset, token) = tokens(line).find(|(_, t)| bad(t))?;
            return Some(Bits::bad_token(line, offset, token).into());
        }
        let offset = line.cells.iter().position(|&b| CELL[b as usize] == INVALID)?;
        Some(Bits::bad_at(line, offset).into())
    }
}

/// The boards of a text input, parsed one at a time.
///
/// Each non-blank line is a row, one character a cell (`bwwb`) or its
/// cells written apart, one character each (`b w w b`, `1 0 0 1`: the
/// grammar of K-state rows); spaces, tabs and a `\r` around a row are
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
pub struct TextBoards<'a>(Boards<'a, Bits>);

impl<'a> TextBoards<'a> {
    /// Prepares to read `input`; `source` names it in messages.
    pub fn new(input: &'a [u8], source: &'a str, rows: Option<usize>, cols: Option<usize>) -> Self {
        TextBoards(Boards::new(input, source, rows, cols, Bits))
    }

    /// The same reader for a piece of a longer input: its first line is
    /// line `first_line` of the whole (for messages), and with `blocks` the
    /// piece is read as the whole input was found to be, its rows between
    /// blank lines one board. A stream answered board by board reads
    /// itself this way, a piece at a time.
    pub fn continuing(self, first_line: usize, blocks: bool) -> Self {
        TextBoards(self.0.continuing(first_line, blocks))
    }

    /// Where this reading stands, to go on with it later by
    /// [`next_at`](Self::next_at) (a stream's reader keeps a piece's text,
    /// not its boards).
    #[cfg(feature = "cli")]
    pub(crate) fn place(&self) -> Place {
        self.0.place()
    }

    /// The next board of the reading of `input` that stood at `place`
    /// (made with the same `source` and sides), moving `place` past it.
    #[cfg(feature = "cli")]
    pub(crate) fn next_at(
        input: &[u8],
        source: &str,
        sides: Sides,
        place: &mut Place,
    ) -> Option<Result<Grid, Error>> {
        Boards::next_at(input, source, sides, Bits, place)
    }
}

/// `rows` and `cols`, when given.
#[cfg(feature = "cli")]
pub(crate) type Sides = (Option<usize>, Option<usize>);

impl Iterator for TextBoards<'_> {
    type Item = Result<Grid, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        self.0.next_board()
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
    use proptest::prelude::*;

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
        assert!(shapes("bwbw\nwwww\nbbbb\nwwww\nbbbb\n", None).unwrap_err().contains("line 5 has 1 row "));
        assert!(shapes("bw\nwb\nww\n", Some(2)).unwrap_err().contains("2 rows were given"));
        assert!(shapes("b\u{e9}\n", None).unwrap_err().contains("byte 0xc3 at line 1, column 2"));
    }

    /// Regression: an input with no row read as boards of no rows, without
    /// end, where columns were given or its first line was white space (a
    /// terminal's Ctrl-D with `--cols 4` ran out of memory).
    #[test]
    fn regression_no_rows_is_no_board() {
        for (input, cols) in [("", Some(4)), ("\n\n", Some(4)), (" \n", None), ("\t\r\n", None)] {
            let read = parse_boards(input.as_bytes(), "in", None, cols).map_err(|e| e.to_string());
            assert_eq!(read, Err("in: no board in input".into()), "{input:?} {cols:?}");
        }
    }

    proptest! {
        /// Plain rows are read straight from the bytes, any other the
        /// general way: the same text with every row written apart (never
        /// plain) reads as the same boards, or fails alike. Rows get a `\r`,
        /// spaces around them, a bad character, or one cell too few.
        #[test]
        fn plain_rows_read_as_the_general_way(
            boards in prop::collection::vec(
                (1usize..6, 1usize..6).prop_flat_map(|(r, c)| {
                    prop::collection::vec((prop::collection::vec(any::<bool>(), c), 0u8..12), r)
                }),
                1..5,
            ),
            blank_lines in any::<bool>(),
        ) {
            let (mut plain, mut apart) = (String::new(), String::new());
            for board in &boards {
                for (cells, decoration) in board {
                    let mut row: Vec<char> = cells.iter().map(|&b| if b { 'b' } else { 'w' }).collect();
                    match decoration {
                        0 => row[0] = '%',
                        1 => { row.pop(); }
                        _ => {}
                    }
                    let line: String = row.iter().collect();
                    let spaced = row.iter().map(char::to_string).collect::<Vec<_>>().join(" ");
                    let (before, after) = match decoration {
                        2 => ("", "\r"),
                        3 => ("  ", " "),
                        _ => ("", ""),
                    };
                    plain += &format!("{before}{line}{after}\n");
                    apart += &format!("{before}{spaced}{after}\n");
                }
                if blank_lines {
                    plain.push('\n');
                    apart.push('\n');
                }
            }
            let plain_boards = parse_boards(plain.as_bytes(), "in", None, None);
            let apart_boards = parse_boards(apart.as_bytes(), "in", None, None);
            match (plain_boards, apart_boards) {
                (Ok(p), Ok(a)) => prop_assert_eq!(p, a),
                (Err(_), Err(_)) => {}
                (p, a) => prop_assert!(false, "{plain:?}: {p:?} but written apart {a:?}"),
            }
        }
    }
}
