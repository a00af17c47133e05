//! Boards of K states as text: digits, or numbers apart.

use super::reader::{BadRow, Boards, Cells, Line, describe, tokens};
use super::{Bits, CELL, INVALID};
#[cfg(feature = "cli")]
use super::{Sides, reader::Place};
use crate::error::Error;
use crate::model::StateGrid;

/// K states a cell: a row of digits `0`–`9` (K ≤ 10; for K = 2 the
/// two-state characters too), or of numbers separated by spaces or tabs
/// (any K; the only form for K > 10).
struct States {
    k: u8,
    /// Boards are one cell wide (`--cols 1`, a graph of one vertex): then
    /// a row of one number of several digits is no ambiguity.
    one_wide: bool,
    /// The width is given (`--cols`, a graph's vertices): then the only
    /// way out of an ambiguous row is to write its states apart.
    width_given: bool,
}

impl States {
    /// Whether the line is numbers separated by white space rather than
    /// one digit a cell.
    fn numbers(&self, line: &Line) -> bool {
        self.k > 10 || super::reader::written_apart(line)
    }

    /// The state written at `offset` of `line` (a digit, a two-state
    /// character, or a number), or the message saying what is wrong.
    fn state(&self, line: &Line, offset: usize, token: &[u8], number: bool) -> Result<u8, BadRow> {
        let (at, column) = (line.number, line.column + offset + 1);
        let too_large =
            |text: &str| format!("state {text} at line {at}, column {column} is not below {}", self.k);
        // Two states apart are the two-state characters too (`b w b`).
        if number && self.k == 2 && token.len() == 1 {
            return match CELL[token[0] as usize] {
                INVALID => Err(Bits::bad_at(line, offset).into()),
                v => Ok(v >> 1),
            };
        }
        if number {
            let text = String::from_utf8_lossy(token);
            if !token.iter().all(u8::is_ascii_digit) {
                return Err(format!(
                    "invalid state '{text}' at line {at}, column {column} (expected a number 0 to {})",
                    self.k - 1
                )
                .into());
            }
            // Above 10 states a row is numbers apart; a row that is one run
            // of digits (`123`) could be three cells or one number: refused.
            if self.k > 10 && !self.one_wide && token.len() > 1 && token.len() == line.cells.len() {
                let (text, states, width_given) = (text.into_owned(), self.k, self.width_given);
                return Err(BadRow::Ambiguous { line: at, text, states, width_given });
            }
            return match text.parse::<u64>() {
                Ok(v) if v < u64::from(self.k) => Ok(v as u8),
                _ => Err(too_large(&text).into()),
            };
        }
        let b = token[0];
        if self.k == 2 {
            return match CELL[b as usize] {
                INVALID => Err(Bits::bad_at(line, offset).into()),
                v => Ok(v >> 1),
            };
        }
        match b {
            b'0'..=b'9' if b - b'0' < self.k => Ok(b - b'0'),
            b'0'..=b'9' => Err(too_large(&(b as char).to_string()).into()),
            _ => Err(format!(
                "invalid character {} at line {at}, column {column} (expected a digit 0 to {})",
                describe(b),
                self.k - 1
            )
            .into()),
        }
    }

    /// Every state of the line, in order, stopping at the first bad one.
    fn states<'a>(&'a self, line: &'a Line<'a>) -> impl Iterator<Item = Result<u8, BadRow>> + 'a {
        let numbers = self.numbers(line);
        let mut digits = line.cells.iter().enumerate().map(|(offset, b)| (offset, std::slice::from_ref(b)));
        let mut tokens = tokens(line);
        std::iter::from_fn(move || if numbers { tokens.next() } else { digits.next() })
            .map(move |(offset, token)| self.state(line, offset, token, numbers))
    }
}

impl Cells for States {
    type Board = StateGrid;

    fn width(&self, line: &Line) -> usize {
        if self.numbers(line) { tokens(line).count() } else { line.cells.len() }
    }

    fn board(&self, rows: usize, cols: usize) -> StateGrid {
        StateGrid::zeros(rows, cols)
    }

    fn read_row(&self, line: &Line, board: &mut StateGrid, r: usize) -> Result<(), BadRow> {
        let cols = board.ncols();
        let row = &mut board.cells_mut()[r * cols..(r + 1) * cols];
        for (cell, state) in row.iter_mut().zip(self.states(line)) {
            *cell = state?;
        }
        Ok(())
    }

    fn first_bad(&self, line: &Line) -> Option<BadRow> {
        self.states(line).find_map(Result::err)
    }
}

/// Parses every K-state board of a text input; see [`StateBoards`] for the
/// format.
///
/// # Errors
/// The first error [`StateBoards`] meets.
///
/// # Example
/// ```
/// use lightsout::parse_state_boards;
///
/// // Digits for K ≤ 10, numbers for any K (and only numbers above 10).
/// let boards = parse_state_boards(b"012\n210\n\n1 0 2\n", "in", 3, None, None)?;
/// assert_eq!(boards[0].cells(), &[0, 1, 2, 2, 1, 0]);
/// assert_eq!(boards[1].cells(), &[1, 0, 2]);
/// let boards = parse_state_boards(b"11 0\n3 4\n", "in", 12, None, None)?;
/// assert_eq!(boards[0].cells(), &[11, 0, 3, 4]);
/// let e = parse_state_boards(b"012\n215\n", "in", 3, None, None).unwrap_err();
/// assert_eq!(e.to_string(), "in: state 5 at line 2, column 3 is not below 3");
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn parse_state_boards(
    input: &[u8],
    source: &str,
    k: u8,
    rows: Option<usize>,
    cols: Option<usize>,
) -> Result<Vec<StateGrid>, Error> {
    StateBoards::new(input, source, k, rows, cols).collect()
}

/// The boards of K states (2 ≤ K ≤ 255) of a text input, parsed one at a
/// time, as [`StateGrid`]s.
///
/// A row is either one digit `0`–`9` a cell (K ≤ 10; for K = 2 also every
/// character [`TextBoards`](super::TextBoards) reads: `b`, `B`, `1`, `#` are 1 and `w`, `W`,
/// `0`, `.` are 0), or numbers separated by spaces or tabs (any K): a row
/// with white space between its cells is numbers, and for K > 10 every row
/// is (`12` is one cell of state 12). Boards are split into rows and
/// boards as [`TextBoards`](super::TextBoards) splits them. On a graph a board is one line of
/// n states ([`on_graph`](Self::on_graph)), so several lines are several
/// boards.
///
/// Yields [`Error::Parse`] naming the source, line and column for a bad
/// character or number and for a state K or more ("state 5 at line 2,
/// column 3 is not below 3"), [`Error::Mismatch`] as `TextBoards` does, and
/// [`Error::BadInput`] for a K below 2; after an error it yields nothing
/// more.
///
/// # Example
/// ```
/// use lightsout::model::StateBoards;
///
/// // Three boards of a 4-vertex graph, K = 5: one line each.
/// let boards: Vec<_> = StateBoards::on_graph(b"0123\n\n4 4 0 1\n0000\n", "g", 5, 4).collect::<Result<_, _>>()?;
/// assert_eq!(boards.len(), 3);
/// assert_eq!((boards[1].nrows(), boards[1].ncols(), boards[1].get(0, 1)), (1, 4, 4));
/// # Ok::<(), lightsout::Error>(())
/// ```
pub struct StateBoards<'a>(Boards<'a, States>);

impl<'a> StateBoards<'a> {
    /// Prepares to read `input` with states `0..k`; `source` names it in
    /// messages; `rows` and `cols`, when given, are every board's.
    ///
    /// # Example
    /// ```
    /// use lightsout::model::StateBoards;
    ///
    /// let mut boards = StateBoards::new(b"01\n23\n30\n12\n", "in", 4, Some(2), None);
    /// assert_eq!(boards.next().transpose()?.map(|b| b.total()), Some(6));
    /// assert_eq!(boards.next().transpose()?.map(|b| b.total()), Some(6));
    /// assert!(boards.next().is_none());
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn new(input: &'a [u8], source: &'a str, k: u8, rows: Option<usize>, cols: Option<usize>) -> Self {
        StateBoards(Boards::new(
            input,
            source,
            rows,
            cols,
            States { k, one_wide: cols == Some(1), width_given: cols.is_some() },
        ))
    }

    /// Prepares to read boards of a graph of `vertices` vertices: one line
    /// of that many states each.
    pub fn on_graph(input: &'a [u8], source: &'a str, k: u8, vertices: usize) -> Self {
        Self::new(input, source, k, Some(1), Some(vertices))
    }

    /// The same reader for a piece of a longer input (see
    /// [`TextBoards::continuing`](super::TextBoards::continuing)): its first line is line `first_line` of
    /// the whole, and with `blocks` its rows between blank lines are one
    /// board.
    pub fn continuing(self, first_line: usize, blocks: bool) -> Self {
        StateBoards(self.0.continuing(first_line, blocks))
    }

    /// The next board with states `0..k` (see
    /// [`TextBoards::next_at`](super::TextBoards::next_at)).
    #[cfg(feature = "cli")]
    pub(crate) fn next_at(
        input: &[u8],
        source: &str,
        k: u8,
        sides: Sides,
        place: &mut Place,
    ) -> Option<Result<StateGrid, Error>> {
        if k < 2 {
            return Some(Err(few_states(k)));
        }
        let cells = States { k, one_wide: sides.1 == Some(1), width_given: sides.1.is_some() };
        Boards::next_at(input, source, sides, cells, place)
    }

    /// Where this reading stands (see [`TextBoards::place`](super::TextBoards::place)).
    #[cfg(feature = "cli")]
    pub(crate) fn place(&self) -> Place {
        self.0.place()
    }
}

/// The error of a K below 2.
fn few_states(k: u8) -> Error {
    Error::BadInput(format!("the number of states is 2 to 255, got {k}"))
}

/// Cells in a row of K-state text (trimmed): its numbers when it has white
/// space or K is above 10, else its digits.
///
/// # Example
/// ```
/// use lightsout::model::state_row_width;
///
/// assert_eq!((state_row_width(b"0120", 3), state_row_width(b"0 12 0", 13)), (4, 3));
/// ```
pub fn state_row_width(row: &[u8], k: u8) -> usize {
    let line = Line { number: 0, column: 0, cells: row };
    States { k, one_wide: false, width_given: false }.width(&line)
}

impl Iterator for StateBoards<'_> {
    type Item = Result<StateGrid, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        let k = self.0.cells.k;
        if k < 2 && !self.0.done {
            self.0.done = true;
            return Some(Err(few_states(k)));
        }
        self.0.next_board()
    }
}

/// K-state boards as text: one digit a cell for K ≤ 10, numbers separated
/// by single spaces above; what [`StateBoards`] reads back.
///
/// # Example
/// ```
/// use lightsout::{StateGrid, state_lines};
///
/// let g = StateGrid::from_cells(2, 2, vec![0, 3, 11, 2]).unwrap();
/// assert_eq!(state_lines(&g, 12), vec!["0 3", "11 2"]);
/// assert_eq!(state_lines(&StateGrid::filled(1, 3, 4), 5), vec!["444"]);
/// ```
pub fn state_lines(grid: &StateGrid, k: u8) -> Vec<String> {
    // A state of 10 or more has no digit: then numbers, whatever `k` says.
    let digits = k <= 10 && grid.max_state() < 10;
    (0..grid.nrows())
        .map(|r| {
            let row = grid.row(r).iter();
            match digits {
                true => row.map(|&s| char::from(b'0' + s)).collect(),
                false => row.map(u8::to_string).collect::<Vec<_>>().join(" "),
            }
        })
        .collect()
}
#[cfg(test)]
mod tests {
    use super::super::parse_boards;
    use super::*;

    fn states(input: &str, k: u8, rows: Option<usize>, cols: Option<usize>) -> Result<Vec<Vec<u8>>, String> {
        parse_state_boards(input.as_bytes(), "in", k, rows, cols)
            .map(|bs| bs.iter().map(|b| b.cells().to_vec()).collect())
            .map_err(|e| e.to_string())
    }

    #[test]
    fn state_boards_split_as_two_state_boards_do() {
        let shapes = |input: &str, k: u8, rows: Option<usize>| {
            parse_state_boards(input.as_bytes(), "in", k, rows, None)
                .map(|bs| bs.iter().map(|b| (b.nrows(), b.ncols())).collect::<Vec<_>>())
                .map_err(|e| e.to_string())
        };
        // Squares of the first row's width, blocks between blank lines, a given height.
        assert_eq!(shapes("0120\n1111\n2222\n0000\n1111\n2222\n0000\n1111\n", 3, None), Ok(vec![(4, 4); 2]));
        assert_eq!(shapes("012\n210\n\n1\n", 3, None), Ok(vec![(2, 3), (1, 1)]));
        assert_eq!(shapes("\r\n  12 0 \r\n3 4\r\n", 13, None), Ok(vec![(2, 2)]));
        assert_eq!(shapes("01\n10\n11\n00\n", 2, Some(1)), Ok(vec![(1, 2); 4]));
        // Numbers: the width is the count of numbers, not of bytes.
        assert_eq!(shapes("10 200 3\n0 0 0\n1 1 1\n", 201, None), Ok(vec![(3, 3)]));
        // On a graph, one line a board, blank lines or not.
        let g: Vec<_> = StateBoards::on_graph(b"0120\n\n2 2 2 2\n1111\n", "g", 3, 4).collect();
        assert_eq!(g.len(), 3);
        assert!(g.iter().all(|b| b.as_ref().is_ok_and(|b| (b.nrows(), b.ncols()) == (1, 4))));
    }

    #[test]
    fn two_states_read_every_two_state_character() {
        let text = "bB1#\nwW0.\n\n10\n01\n";
        let bits = parse_boards(text.as_bytes(), "in", None, None).unwrap();
        let k2 = parse_state_boards(text.as_bytes(), "in", 2, None, None).unwrap();
        assert_eq!(k2, bits.iter().map(StateGrid::from_bits).collect::<Vec<_>>());
        // One grammar for every K: two states apart are the two-state
        // characters too (before, `b w 1` was refused with --states 2 and
        // `1 1 1` without it).
        let apart = parse_state_boards(b"b w 1\n", "in", 2, None, None).unwrap();
        let bits = parse_boards(b"b w 1\n", "in", None, None).unwrap();
        assert_eq!(apart, bits.iter().map(StateGrid::from_bits).collect::<Vec<_>>());
        assert_eq!(bits, parse_boards(b"bw1\n", "in", None, None).unwrap());
        assert_eq!(
            parse_boards(b"1 0 1\n0\t1 1\n1 1 0\n", "in", None, None).unwrap(),
            parse_boards(b"101\n011\n110\n", "in", None, None).unwrap()
        );
        assert_eq!(
            parse_boards(b"1 bw 1\n", "in", None, None).unwrap_err().to_string(),
            "in: invalid cell 'bw' at line 1, column 3 (a row written apart has one character a cell: b, B, 1 or \
             # for black, w, W, 0 or . for white)"
        );
        assert_eq!(
            parse_boards(b"1 x 1\n", "in", None, None).unwrap_err().to_string(),
            "in: invalid character 'x' at line 1, column 3 (expected b, B, 1 or # for black, w, W, 0 or . for white)"
        );
        assert_eq!(
            states("bx\nww\n", 2, None, None),
            Err("in: invalid character 'x' at line 1, column 2 (expected b, B, 1 or # for black, w, W, 0 or . for white)".into())
        );
        // For K > 2 the letters are not states.
        assert!(states("b0\n00\n", 3, None, None).unwrap_err().contains("invalid character 'b'"));
    }

    #[test]
    fn state_errors_name_line_and_column() {
        // (input, states, rows given, columns given, the error)
        let errors = [
            ("012\n215\n", 3, None, None, "in: state 5 at line 2, column 3 is not below 3"),
            ("0 1\n2  300\n", 12, None, None, "in: state 300 at line 2, column 4 is not below 12"),
            ("12\n", 11, None, Some(1), "in: state 12 at line 1, column 1 is not below 11"),
            (
                "0 -1\n",
                5,
                None,
                None,
                "in: invalid state '-1' at line 1, column 3 (expected a number 0 to 4)",
            ),
            (
                "  0 1 99999999999999999999999\n",
                200,
                None,
                None,
                "in: state 99999999999999999999999 at line 1, column 7 is not below 200",
            ),
            (
                "0%2\n",
                4,
                None,
                None,
                "in: invalid character '%' at line 1, column 2 (expected a digit 0 to 3)",
            ),
            // A bad state is named before a wrong width, as for two states.
            ("012\n29\n", 4, None, None, "in: state 9 at line 2, column 2 is not below 4"),
            ("012\n21\n000\n", 4, None, None, "in: line 2 has 2 cells but line 1 has 3"),
            ("1 2 3\n1 2\n3 3 3\n", 4, None, None, "in: line 2 has 2 cells but line 1 has 3"),
            ("0120\n", 3, Some(1), Some(3), "in: line 1 has 4 cells but 3 columns were given"),
            ("\n", 3, None, None, "in: no board in input"),
            ("01\n", 1, None, None, "the number of states is 2 to 255, got 1"),
        ];
        for (input, k, rows, cols, error) in errors {
            assert_eq!(states(input, k, rows, cols), Err(error.to_owned()), "{input:?} with {k} states");
        }
        assert_eq!(states("12\n", 10, None, None), Ok(vec![vec![1, 2]]));
        // Above 10 states a run of digits is refused as ambiguous, unless
        // the board is one cell wide.
        assert!(states("12\n", 11, None, None).unwrap_err().contains("'12' is one number or 2 cells"));
        assert!(states("0 1\n23\n", 30, None, None).unwrap_err().contains("line 2: '23' is one number"));
        assert_eq!(states("10\n7\n", 11, None, Some(1)), Ok(vec![vec![10], vec![7]]));
        assert!(
            states("012\n012\n012\n012\n", 3, None, None).unwrap_err().contains("boards without blank lines")
        );
    }

    #[test]
    fn state_lines_round_trip() {
        for (rows, cols, k) in [(1, 1, 2), (3, 5, 3), (4, 4, 10), (2, 7, 11), (5, 3, 255)] {
            let grid = StateGrid::from_fn(rows, cols, |r, c| ((r * 7 + c * 5 + 1) % k as usize) as u8);
            let text = state_lines(&grid, k).join("\n");
            let back = parse_state_boards(text.as_bytes(), "t", k, Some(rows), None).unwrap();
            assert_eq!(back, vec![grid], "{rows}x{cols} k {k}");
        }
    }

    /// An ambiguous row is said in the library's words, with no flag of
    /// any front (the command line words it with its own).
    #[test]
    fn an_ambiguous_row_names_no_flag() {
        let e = parse_state_boards(b"123\n", "in", 13, None, None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "in: line 1: '123' is one number or 3 cells: with 13 states write a row's states apart \
             (like '1 2 3'), or make the boards one cell wide"
        );
        let e = parse_state_boards(b"123\n", "in", 13, None, Some(3)).unwrap_err();
        assert!(matches!(e, Error::AmbiguousRow { width_given: true, .. }), "{e:?}");
        assert!(!e.to_string().contains("--") && !e.to_string().contains("wide"), "{e}");
    }
}
