//! Boards as text: one line per row, one character per cell.

use super::Grid;
use crate::error::Error;
use crate::gf2::words;

/// One non-blank input line: its 1-based number and its cells (already
/// checked to be board characters).
struct Line<'a> {
    number: usize,
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

/// Parses one or more boards from text.
///
/// Each non-blank line is a row; spaces, tabs and a `\r` around a row are
/// ignored. Boards are split:
/// - with `rows` given, every `rows` consecutive rows form a board (blank
///   lines may separate boards too);
/// - otherwise, when the input has blank lines, each block between them is
///   one board;
/// - otherwise, the rows are grouped into square boards of the first row's
///   width, as in the POJ 1753 input; a single block shorter than it is wide
///   is one rectangular board.
///
/// # Errors
/// [`Error::BadInput`] naming `source`, the line and the column for a bad
/// character, a ragged row, a row of the wrong width, a board of the wrong
/// height, or an input with no board at all.
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
    let blocks = read_blocks(input, source)?;
    if blocks.is_empty() {
        return Err(Error::bad_input(format!("{source}: no board in input")));
    }
    let single_block = blocks.len() == 1;
    let mut boards = Vec::new();
    for block in &blocks {
        let width = block[0].cells.len();
        let expected_width = cols.unwrap_or(width);
        for line in block {
            if line.cells.len() != expected_width {
                let why = match cols {
                    Some(c) => format!("--cols is {c}"),
                    None => format!("line {} has {width}", block[0].number),
                };
                return Err(Error::bad_input(format!(
                    "{source}: line {} has {} cells but {why}",
                    line.number,
                    line.cells.len()
                )));
            }
        }
        let height = match rows {
            Some(r) => r,
            None if single_block && block.len() >= width => width,
            None => block.len(),
        };
        for chunk in block.chunks(height) {
            if chunk.len() != height {
                let why = match rows {
                    Some(r) => format!("--rows is {r}"),
                    None => format!(
                        "boards without blank lines between them are square, {width}x{width} here \
                         (use --rows for rectangles)"
                    ),
                };
                return Err(Error::bad_input(format!(
                    "{source}: the board starting at line {} has {} rows but {why}",
                    chunk[0].number,
                    chunk.len()
                )));
            }
            let mut board = Grid::zeros(height, width);
            for (r, line) in chunk.iter().enumerate() {
                let row = board.row_mut(r);
                for (c, &b) in line.cells.iter().enumerate() {
                    row[c / words::BITS] |= ((CELL[b as usize] == BLACK) as u64) << (c % words::BITS);
                }
            }
            boards.push(board);
        }
    }
    Ok(boards)
}

/// Splits the input into blocks of non-blank lines, checking every character.
fn read_blocks<'a>(input: &'a [u8], source: &str) -> Result<Vec<Vec<Line<'a>>>, Error> {
    let mut blocks: Vec<Vec<Line>> = Vec::new();
    let mut in_block = false;
    for (index, raw) in input.split(|&b| b == b'\n').enumerate() {
        let number = index + 1;
        let is_space = |b: &u8| matches!(b, b' ' | b'\t' | b'\r');
        let start = raw.iter().position(|b| !is_space(b));
        let Some(start) = start else {
            in_block = false;
            continue;
        };
        let end = raw.iter().rposition(|b| !is_space(b)).map_or(raw.len(), |e| e + 1);
        let cells = &raw[start..end];
        if let Some(offset) = cells.iter().position(|&b| CELL[b as usize] == INVALID) {
            return Err(Error::bad_input(format!(
                "{source}: invalid character {} at line {number}, column {} (expected b or w)",
                describe(cells[offset]),
                start + offset + 1
            )));
        }
        if !in_block {
            blocks.push(Vec::new());
            in_block = true;
        }
        if let Some(block) = blocks.last_mut() {
            block.push(Line { number, cells });
        }
    }
    Ok(blocks)
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
    }

    #[test]
    fn errors_name_line_and_column() {
        assert_eq!(
            shapes("bwbw\nbw%w\n", None),
            Err("in: invalid character '%' at line 2, column 3 (expected b or w)".into())
        );
        assert_eq!(shapes("bwb\nbw\nbbb\n", None), Err("in: line 2 has 2 cells but line 1 has 3".into()));
        assert_eq!(shapes("\n\n", None), Err("in: no board in input".into()));
        assert!(shapes("bwbw\nwwww\nbbbb\nwwww\nbbbb\n", None).unwrap_err().contains("line 5 has 1 rows"));
        assert!(shapes("bw\nwb\nww\n", Some(2)).unwrap_err().contains("--rows is 2"));
        assert!(shapes("b\u{e9}\n", None).unwrap_err().contains("byte 0xc3 at line 1, column 2"));
    }
}
