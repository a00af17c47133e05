//! Boards and press grids as PBM images (Netpbm): plain `P1` and raw `P4`.
//!
//! A set bit (black piece, or a press) is a black pixel, `1`, as in PBM.
//! Raw P4 stores 8 cells a byte, so a 10,000×10,000 board is 12.5 MB, and
//! any image viewer shows it.

use std::io::{self, Write};

use super::Grid;
use crate::error::Error;
use bitvec::field::BitField;
use bitvec::order::Lsb0;
use bitvec::view::BitView;

/// Whether `input` starts like a PBM image (`P1` or `P4`).
pub fn is_pbm(input: &[u8]) -> bool {
    input.starts_with(b"P1") || input.starts_with(b"P4")
}

/// Reads every image of a PBM stream (several images may follow each other).
///
/// # Errors
/// [`Error::Parse`] naming `source` and the byte offset for a bad header,
/// a size of 0, a pixel other than `0`/`1` (P1), or a truncated image.
pub fn read_pbm(input: &[u8], source: &str) -> Result<Vec<Grid>, Error> {
    Reader { input, pos: 0, source }.images(Reader::image)
}

/// A number of a Netpbm header or a plain image: its value (`u64::MAX`
/// when it is longer) and its digits, which messages quote.
pub(super) struct Decimal<'a> {
    pub(super) value: u64,
    digits: &'a [u8],
}

impl std::fmt::Display for Decimal<'_> {
    /// The digits, or past [`QUOTED_DIGITS`] the first of them and how
    /// many there are (a message stays a line, whatever the input holds).
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Only ASCII digits.
        let text = std::str::from_utf8(self.digits).unwrap_or_default();
        match text.get(..QUOTED_DIGITS) {
            Some(head) if text.len() > QUOTED_DIGITS => write!(f, "{head}... ({} digits)", text.len()),
            _ => f.write_str(text),
        }
    }
}

/// The most digits of a number an error quotes: more than any u64 has.
const QUOTED_DIGITS: usize = 24;

/// A reader of a Netpbm stream (PBM here, PGM in `pgm.rs`): both skip the
/// same whitespace and comments, read the same numbers and magic numbers,
/// and read images one after another until only those are left.
pub(super) trait Netpbm<'a> {
    /// The whole input, and where the reader is in it.
    fn at(&mut self) -> (&'a [u8], &mut usize);

    fn skip_space_and_comments(&mut self) {
        let (input, pos) = self.at();
        while let Some(&b) = input.get(*pos) {
            if b == b'#' {
                while input.get(*pos).is_some_and(|&b| b != b'\n') {
                    *pos += 1;
                }
            } else if b.is_ascii_whitespace() {
                *pos += 1;
            } else {
                break;
            }
        }
    }

    /// The run of digits after whitespace and comments (empty when there
    /// is none), and where it starts.
    fn digits(&mut self) -> (&'a [u8], usize) {
        self.skip_space_and_comments();
        let (input, pos) = self.at();
        let start = *pos;
        while input.get(*pos).is_some_and(u8::is_ascii_digit) {
            *pos += 1;
        }
        (&input[start..*pos], start)
    }

    /// The decimal number after whitespace and comments, and where it
    /// starts; `None` when there is none.
    fn decimal(&mut self) -> (Option<Decimal<'a>>, usize) {
        let (digits, start) = self.digits();
        let decimal = (!digits.is_empty()).then(|| Decimal {
            // Saturating: a number too long for u64 is still too large, and
            // its message gives the digits as written.
            value: digits.iter().fold(0u64, |v, &d| v.saturating_mul(10).saturating_add(u64::from(d - b'0'))),
            digits,
        });
        (decimal, start)
    }

    /// Whether the image here is `raw` rather than `plain` (its two magic
    /// bytes, then passed); `None`, not moving, when it starts with neither.
    fn magic(&mut self, plain: &[u8; 2], raw: &[u8; 2]) -> Option<bool> {
        let (input, pos) = self.at();
        let is_raw = match input.get(*pos..*pos + 2)? {
            magic if magic == plain => false,
            magic if magic == raw => true,
            _ => return None,
        };
        *pos += 2;
        Some(is_raw)
    }

    /// Every image of the stream, each read by `image`: at least one, as
    /// many as follow each other.
    fn images<T>(mut self, image: impl Fn(&mut Self) -> Result<T, Error>) -> Result<Vec<T>, Error>
    where
        Self: Sized,
    {
        let mut images = Vec::new();
        loop {
            self.skip_space_and_comments();
            let (input, pos) = self.at();
            if *pos == input.len() && !images.is_empty() {
                return Ok(images);
            }
            images.push(image(&mut self)?);
        }
    }
}

struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    source: &'a str,
}

impl Reader<'_> {
    fn error(&self, what: &str) -> Error {
        Error::Parse { source: self.source.to_string(), message: format!("{what} at byte {}", self.pos + 1) }
    }

    fn number(&mut self, what: &str) -> Result<usize, Error> {
        let (decimal, start) = self.decimal();
        match decimal {
            Some(v) if v.value > 0 && v.value <= super::MAX_SIDE as u64 => Ok(v.value as usize),
            Some(v) => {
                self.pos = start;
                Err(self.error(&format!("PBM {what} {v} is outside 1..={}", super::MAX_SIDE)))
            }
            None => {
                self.pos = start;
                Err(self.error(&format!("expected the PBM {what}")))
            }
        }
    }

    fn image(&mut self) -> Result<Grid, Error> {
        let Some(raw) = self.magic(b"P1", b"P4") else {
            return Err(self.error("expected a PBM header P1 or P4"));
        };
        let cols = self.number("width")?;
        let rows = self.number("height")?;
        // Every pixel takes at least one byte of P1 or one bit of P4: check
        // that the input holds them before allocating the grid, so a header
        // claiming 10^12 pixels is an error, not an out-of-memory abort.
        let remaining = self.input.len().saturating_sub(self.pos + 1);
        let needed = if raw { cols.div_ceil(8) * rows } else { cols * rows };
        if needed > remaining {
            let kind = if raw { "P4" } else { "P1" };
            return Err(self.error(&format!(
                "{kind} image of {cols}x{rows} needs {needed} bytes of pixels, only {remaining} remain"
            )));
        }
        let mut grid = Grid::zeros(rows, cols);
        if raw {
            // Exactly one whitespace byte separates the header from the pixels.
            if !self.input.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
                return Err(self.error("expected one whitespace byte after the P4 header"));
            }
            self.pos += 1;
            let bytes_per_row = cols.div_ceil(8);
            let needed = bytes_per_row * rows;
            let Some(pixels) = self.input.get(self.pos..self.pos + needed) else {
                return Err(self.error(&format!(
                    "P4 image of {cols}x{rows} needs {needed} bytes of pixels, only {} remain",
                    self.input.len() - self.pos
                )));
            };
            for (r, line) in pixels.chunks(bytes_per_row).enumerate() {
                let row = grid.row_mut(r);
                for (k, bytes) in line.chunks(8).enumerate() {
                    // PBM puts the leftmost pixel in the high bit; we keep
                    // column c at bit c. Reversing the big-endian word
                    // reverses each byte in place; the pixels past the
                    // last column fall outside the row and are dropped.
                    let mut word = [0u8; 8];
                    word[..bytes.len()].copy_from_slice(bytes);
                    let cells = &mut row[64 * k..cols.min(64 * k + 64)];
                    cells.store_le(u64::from_be_bytes(word).reverse_bits());
                }
            }
            self.pos += needed;
        } else {
            for r in 0..rows {
                for c in 0..cols {
                    self.skip_space_and_comments();
                    match self.input.get(self.pos) {
                        Some(b'1') => grid.toggle(r, c),
                        Some(b'0') => {}
                        Some(_) => return Err(self.error("expected a P1 pixel 0 or 1")),
                        None => {
                            return Err(self.error(&format!(
                                "P1 image of {cols}x{rows} ends after {} pixels",
                                r * cols + c
                            )));
                        }
                    }
                    self.pos += 1;
                }
            }
        }
        Ok(grid)
    }
}

impl<'a> Netpbm<'a> for Reader<'a> {
    fn at(&mut self) -> (&'a [u8], &mut usize) {
        (self.input, &mut self.pos)
    }
}

/// PBM flavour to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PbmKind {
    /// `P1`: ASCII digits, 0 and 1.
    Plain,
    /// `P4`: 8 pixels a byte.
    Raw,
}

/// Writes a PBM image row by row, so a huge press grid never has to be held
/// whole in memory.
pub struct PbmWriter<W: Write> {
    out: W,
    kind: PbmKind,
    cols: usize,
    buffer: Vec<u8>,
}

impl<W: Write> PbmWriter<W> {
    /// Writes the header of a `rows × cols` image.
    pub fn new(mut out: W, kind: PbmKind, rows: usize, cols: usize) -> io::Result<Self> {
        let magic = if kind == PbmKind::Plain { "P1" } else { "P4" };
        writeln!(out, "{magic}\n{cols} {rows}")?;
        Ok(PbmWriter { out, kind, cols, buffer: Vec::new() })
    }

    /// Writes one row of cells (word-packed, bit c = column c).
    pub fn write_row(&mut self, row: &[u64]) -> io::Result<()> {
        self.buffer.clear();
        match self.kind {
            PbmKind::Raw => {
                for k in 0..self.cols.div_ceil(8) {
                    self.buffer.push(((row[k / 8] >> (8 * (k % 8))) as u8).reverse_bits());
                }
            }
            PbmKind::Plain => {
                // Lines of at most 70 characters, as the format asks.
                let cells = &row.view_bits::<Lsb0>()[..self.cols];
                for (c, cell) in cells.iter().by_vals().enumerate() {
                    self.buffer.push(if cell { b'1' } else { b'0' });
                    if c % 70 == 69 || c + 1 == self.cols {
                        self.buffer.push(b'\n');
                    }
                }
            }
        }
        self.out.write_all(&self.buffer)
    }

    /// Flushes and returns the writer.
    pub fn finish(mut self) -> io::Result<W> {
        self.out.flush()?;
        Ok(self.out)
    }
}

/// A whole grid as one PBM image.
pub fn write_pbm<W: Write>(out: W, kind: PbmKind, grid: &Grid) -> io::Result<W> {
    let mut writer = PbmWriter::new(out, kind, grid.nrows(), grid.ncols())?;
    for r in 0..grid.nrows() {
        writer.write_row(grid.words(r))?;
    }
    writer.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_both_kinds_across_byte_and_word_boundaries() {
        for (rows, cols) in [(1, 1), (3, 7), (2, 8), (5, 9), (4, 64), (3, 65), (2, 130)] {
            let grid = Grid::from_fn(rows, cols, |r, c| (r * 5 + c * 3) % 7 < 3);
            for kind in [PbmKind::Plain, PbmKind::Raw] {
                let bytes = write_pbm(Vec::new(), kind, &grid).unwrap();
                assert_eq!(read_pbm(&bytes, "t").unwrap(), vec![grid.clone()], "{rows}x{cols} {kind:?}");
            }
        }
    }

    /// Regression: the grid used to be allocated from the header alone, so
    /// `P4 1048576 1048576` followed by a few bytes asked for 128 GiB and
    /// aborted. The pixels must now be there before the grid is made.
    #[test]
    fn a_header_larger_than_its_pixels_is_an_error_not_an_allocation() {
        for header in [&b"P4 1048576 1048576\n0123456789"[..], b"P1 1048576 1048576\n0 1 0 1"] {
            let e = read_pbm(header, "h").unwrap_err().to_string();
            assert!(e.contains("needs") && e.contains("bytes of pixels"), "{e}");
        }
    }

    #[test]
    fn reads_comments_several_images_and_reports_errors() {
        let two = b"P1\n# a comment\n3 2\n1 0 1\n0 1 0\nP1 1 1 1\n";
        let grids = read_pbm(two, "t").unwrap();
        assert_eq!(grids.len(), 2);
        assert!(grids[0].get(0, 0) && !grids[0].get(0, 1) && grids[1].get(0, 0));
        assert_eq!(
            read_pbm(b"P4\n8 2\n\xff", "f").unwrap_err().to_string(),
            "f: P4 image of 8x2 needs 2 bytes of pixels, only 1 remain at byte 7"
        );
        assert!(read_pbm(b"P1\n2 1\n1 2\n", "f").unwrap_err().to_string().contains("expected a P1 pixel"));
        assert!(read_pbm(b"P1\n0 1\n", "f").unwrap_err().to_string().contains("width 0 is outside"));
        assert!(read_pbm(b"P1\nx\n", "f").unwrap_err().to_string().contains("expected the PBM width"));
        let huge = read_pbm(b"P1 99999999999999999999999 1\n1\n", "f").unwrap_err().to_string();
        assert_eq!(huge, "f: PBM width 99999999999999999999999 is outside 1..=1048576 at byte 4");
        // A number of a million digits is quoted by its head and length.
        let long = format!("P1 {} 1\n1\n", "9".repeat(1_000_000));
        let error = read_pbm(long.as_bytes(), "f").unwrap_err().to_string();
        let head = "9".repeat(24);
        assert_eq!(
            error,
            format!("f: PBM width {head}... (1000000 digits) is outside 1..=1048576 at byte 4")
        );
    }
}
