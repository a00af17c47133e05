//! Boards typed at a terminal ([`TypedBoards`]), each handed out as soon
//! as it is complete, a bad row said at once and typed again (text on a
//! pipe is the library's [`PipedBoards`](crate::model::PipedBoards)).

use std::io::{self, Read, Write};

use crate::Error;
use crate::model::{BitRows, Pieces};
use crate::solve::Board;

/// Boards typed at a terminal, each handed out as soon as its last row is
/// in: after `--rows` rows, at a blank line, or when it is square (the rows
/// of a board without blank lines, as in a batch). Each board's lines are
/// parsed by [`TextBoards`](crate::model::TextBoards) as a batch would be, with the lines before it
/// left blank so that errors name the line the user typed.
///
/// A row is checked as soon as it is typed: a bad character, or a width
/// other than the board's first row's (or `--cols`), is said at once in
/// one line on `notes` (stderr), and the board typed so far is dropped so
/// that the person types it again from its first row. On a pipe
/// ([`PipedBoards`](crate::model::PipedBoards)) a bad board still ends the run: no one is there to
/// type it again.
pub(super) struct TypedBoards<'a, 'r, P: Pieces = BitRows> {
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
        TypedBoards::with_pieces(reader, BitRows, rows, cols, notes, name_error)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Grid;

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
