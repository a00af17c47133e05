//! K-state boards and press counts as PGM images (Netpbm's greymap): plain
//! `P2` and raw `P5`, the K-state counterpart of the PBM images of `pbm.rs`.
//!
//! A pixel's value is the cell's state and the image's maxval is K − 1, so
//! an image viewer shows state 0 black and the highest state white, and a
//! file says which K it was written for. Since K ≤ 255, a raw pixel is one
//! byte.

use std::io::{self, Write};

use super::StateGrid;
use super::pbm::Netpbm;
use crate::error::Error;

/// Whether `input` starts like a PGM image (`P2` or `P5`).
///
/// # Example
/// ```
/// assert!(lightsout::model::is_pgm(b"P5\n3 3\n4\n") && !lightsout::model::is_pgm(b"P4\n3 3\n"));
/// ```
pub fn is_pgm(input: &[u8]) -> bool {
    input.starts_with(b"P2") || input.starts_with(b"P5")
}

/// Reads every image of a PGM stream (several images may follow each
/// other) as boards of `k` states: the maxval must be `k − 1`, and each
/// value is a state.
///
/// # Errors
/// [`Error::Parse`] naming `source` and where (line and column in the
/// header and in a `P2` image, the byte in a `P5` one): a bad header, a
/// size outside `1..=MAX_SIDE`, another maxval than `k − 1` (named), a
/// value `k` or more, a truncated image. [`Error::BadInput`] for a `k`
/// below 2.
///
/// # Example
/// ```
/// use lightsout::read_pgm;
///
/// let boards = read_pgm(b"P2\n3 2\n2\n0 1 2\n2 1 0\n", "in.pgm", 3)?;
/// assert_eq!(boards[0].cells(), &[0, 1, 2, 2, 1, 0]);
/// let e = read_pgm(b"P2 3 2 255\n", "in.pgm", 3).unwrap_err();
/// assert_eq!(e.to_string(), "in.pgm: PGM maxval 255 at line 1, column 8 is not 2 (one less than the 3 states)");
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn read_pgm(input: &[u8], source: &str, k: u8) -> Result<Vec<StateGrid>, Error> {
    if k < 2 {
        return Err(Error::BadInput(format!("the number of states is 2 to 255, got {k}")));
    }
    Reader { input, pos: 0, source, k }.images(Reader::image)
}

struct Reader<'a> {
    input: &'a [u8],
    pos: usize,
    source: &'a str,
    k: u8,
}

impl Reader<'_> {
    /// Where byte `pos` is, as a person finds it in a text editor.
    fn line_and_column(&self, pos: usize) -> String {
        let before = &self.input[..pos.min(self.input.len())];
        let line = 1 + before.iter().filter(|&&b| b == b'\n').count();
        let column = pos - before.iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1) + 1;
        format!("line {line}, column {column}")
    }

    /// A parse error saying `what` at byte `pos`, placed by line and column.
    fn error_at(&self, what: &str, pos: usize) -> Error {
        let message = format!("{what} at {}", self.line_and_column(pos));
        Error::Parse { source: self.source.to_string(), message }
    }

    fn side(&mut self, what: &str) -> Result<usize, Error> {
        match self.decimal() {
            (Some(v), _) if v.value > 0 && v.value <= super::MAX_SIDE as u64 => Ok(v.value as usize),
            (Some(v), at) => {
                Err(self.error_at(&format!("PGM {what} {v} is outside 1..={}", super::MAX_SIDE), at))
            }
            (None, at) => Err(self.error_at(&format!("expected the PGM {what}"), at)),
        }
    }

    fn image(&mut self) -> Result<StateGrid, Error> {
        let Some(raw) = self.magic(b"P2", b"P5") else {
            return Err(self.error_at("expected a PGM header P2 or P5", self.pos));
        };
        let cols = self.side("width")?;
        let rows = self.side("height")?;
        let states = u64::from(self.k);
        match self.decimal() {
            (Some(maxval), _) if maxval.value == states - 1 => {}
            (Some(maxval), at) => {
                let why = format!("is not {} (one less than the {states} states)", states - 1);
                return Err(self
                    .error_at(&format!("PGM maxval {maxval}"), at)
                    .map_message(|m| format!("{m} {why}")));
            }
            (None, at) => return Err(self.error_at("expected the PGM maxval", at)),
        }
        // Every pixel takes at least one byte: check that the input holds
        // them before allocating, so a header claiming 10^12 pixels is an
        // error, not an out-of-memory abort.
        let remaining = self.input.len().saturating_sub(self.pos + 1);
        let needed = rows * cols;
        let kind = if raw { "P5" } else { "P2" };
        if needed > remaining {
            return Err(self.error_at(
                &format!(
                    "{kind} image of {cols}x{rows} needs {needed} pixels, only {remaining} bytes remain"
                ),
                self.pos,
            ));
        }
        let mut grid = StateGrid::zeros(rows, cols);
        if raw {
            // Exactly one whitespace byte separates the header from the pixels.
            if !self.input.get(self.pos).is_some_and(u8::is_ascii_whitespace) {
                return Err(self.error_at("expected one whitespace byte after the P5 header", self.pos));
            }
            self.pos += 1;
            let pixels = &self.input[self.pos..self.pos + needed];
            if let Some(i) = pixels.iter().position(|&v| v >= self.k) {
                let message = format!(
                    "state {} at byte {} (row {}, column {}) is not below {}",
                    pixels[i],
                    self.pos + i + 1,
                    i / cols + 1,
                    i % cols + 1,
                    self.k
                );
                return Err(Error::Parse { source: self.source.to_string(), message });
            }
            grid.cells_mut().copy_from_slice(pixels);
            self.pos += needed;
        } else {
            for i in 0..needed {
                match self.decimal() {
                    (Some(v), _) if v.value < states => grid.cells_mut()[i] = v.value as u8,
                    (Some(v), at) => {
                        return Err(self
                            .error_at(&format!("state {v}"), at)
                            .map_message(|m| format!("{m} is not below {states}")));
                    }
                    (None, at) if at == self.input.len() => {
                        return Err(
                            self.error_at(&format!("P2 image of {cols}x{rows} ends after {i} pixels"), at)
                        );
                    }
                    (None, at) => return Err(self.error_at("expected a P2 pixel value", at)),
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

/// Adds to the message of a parse error.
trait MapMessage {
    fn map_message(self, f: impl FnOnce(String) -> String) -> Self;
}

impl MapMessage for Error {
    fn map_message(self, f: impl FnOnce(String) -> String) -> Self {
        match self {
            Error::Parse { source, message } => Error::Parse { source, message: f(message) },
            other => other,
        }
    }
}

/// Writes `grid` as one PGM image of maxval `k − 1`: raw `P5` (one byte a
/// pixel) when `raw`, else plain `P2` (numbers, lines of at most 70
/// characters, as the format asks).
///
/// # Errors
/// The writer's errors, and [`io::ErrorKind::InvalidInput`] for a `k`
/// below 2 or a state `k` or more (an image no reader would take).
///
/// # Example
/// ```
/// use lightsout::{StateGrid, read_pgm, write_pgm};
///
/// let g = StateGrid::from_cells(2, 3, vec![0, 1, 2, 3, 4, 0]).unwrap();
/// let plain = write_pgm(Vec::new(), &g, 5, false)?;
/// assert_eq!(plain, b"P2\n3 2\n4\n0 1 2\n3 4 0\n");
/// let raw = write_pgm(Vec::new(), &g, 5, true)?;
/// assert_eq!(read_pgm(&raw, "raw", 5).unwrap(), vec![g]);
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn write_pgm<W: Write>(mut out: W, grid: &StateGrid, k: u8, raw: bool) -> io::Result<W> {
    let invalid = |message: String| io::Error::new(io::ErrorKind::InvalidInput, message);
    if k < 2 {
        return Err(invalid(format!("the number of states is 2 to 255, got {k}")));
    }
    if let Some(&s) = grid.cells().iter().find(|&&s| s >= k) {
        return Err(invalid(format!("state {s} is not below {k}")));
    }
    let (rows, cols) = (grid.nrows(), grid.ncols());
    let magic = if raw { "P5" } else { "P2" };
    writeln!(out, "{magic}\n{cols} {rows}\n{}", k - 1)?;
    if raw {
        out.write_all(grid.cells())?;
    } else {
        let mut line = String::with_capacity(72);
        for r in 0..rows {
            for &s in grid.row(r) {
                let value = s.to_string();
                if !line.is_empty() && line.len() + 1 + value.len() > 70 {
                    line.push('\n');
                    out.write_all(line.as_bytes())?;
                    line.clear();
                }
                if !line.is_empty() {
                    line.push(' ');
                }
                line.push_str(&value);
            }
            line.push('\n');
            out.write_all(line.as_bytes())?;
            line.clear();
        }
    }
    out.flush()?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_both_kinds() {
        for (rows, cols, k) in [(1, 1, 2), (3, 7, 3), (2, 40, 10), (5, 9, 200), (4, 64, 255), (1, 300, 7)] {
            let grid = StateGrid::from_fn(rows, cols, |r, c| ((r * 31 + c * 17) % k as usize) as u8);
            for raw in [false, true] {
                let bytes = write_pgm(Vec::new(), &grid, k, raw).unwrap();
                assert_eq!(
                    read_pgm(&bytes, "t", k).unwrap(),
                    vec![grid.clone()],
                    "{rows}x{cols} k {k} raw {raw}"
                );
                if !raw {
                    assert!(bytes.split(|&b| b == b'\n').all(|l| l.len() <= 70));
                }
            }
        }
    }

    #[test]
    fn several_images_comments_and_errors() {
        let two = b"P2\n# a comment\n2 1\n3\n0 3\nP5 1 1 3\n\x02";
        let grids = read_pgm(two, "t", 4).unwrap();
        assert_eq!((grids[0].cells(), grids[1].cells()), (&[0u8, 3][..], &[2u8][..]));
        let e = |input: &[u8], k: u8| read_pgm(input, "f", k).unwrap_err().to_string();
        assert_eq!(e(b"P2\n2 1\n3\n0 4\n", 4), "f: state 4 at line 4, column 3 is not below 4");
        assert_eq!(e(b"P5 2 1 3\n\x01\x09", 4), "f: state 9 at byte 11 (row 1, column 2) is not below 4");
        assert_eq!(
            e(b"P2 2 1\n3\n", 5),
            "f: PGM maxval 3 at line 2, column 1 is not 4 (one less than the 5 states)"
        );
        assert_eq!(e(b"P2 2 2 1\n0 1 1\n", 2), "f: P2 image of 2x2 ends after 3 pixels at line 3, column 1");
        assert_eq!(e(b"P2 2 1 1\n0 x\n", 2), "f: expected a P2 pixel value at line 2, column 3");
        assert_eq!(e(b"P2 0 1 1\n", 2), "f: PGM width 0 is outside 1..=1048576 at line 1, column 4");
        assert_eq!(e(b"P3 1 1 1\n", 2), "f: expected a PGM header P2 or P5 at line 1, column 1");
        assert_eq!(
            e(b"P5 2 1 1x\x00\x00", 2),
            "f: expected one whitespace byte after the P5 header at line 1, column 9"
        );
        assert!(
            e(b"P5 1048576 1048576 1\n0123", 2).contains("needs 1099511627776 pixels, only 4 bytes remain")
        );
        assert!(e(b"P2 1 1\n", 2).contains("expected the PGM maxval"));
        // Numbers past 2^64 are quoted as written, not as the largest u64.
        let huge = "99999999999999999999999";
        assert_eq!(
            e(format!("P2 {huge} 1 1\n").as_bytes(), 2),
            format!("f: PGM width {huge} is outside 1..=1048576 at line 1, column 4")
        );
        assert!(e(format!("P2 1 1 {huge}\n").as_bytes(), 2).contains(&format!("PGM maxval {huge} at")));
        assert!(e(format!("P2 1 1 1\n{huge}\n").as_bytes(), 2).contains(&format!("state {huge} at")));
        assert!(matches!(read_pgm(b"P2 1 1 0\n0", "f", 1), Err(Error::BadInput(_))));
        assert_eq!(
            write_pgm(Vec::new(), &StateGrid::filled(1, 2, 3), 3, true).unwrap_err().kind(),
            io::ErrorKind::InvalidInput
        );
        assert!(is_pgm(b"P5") && is_pgm(b"P2\n") && !is_pgm(b"P4"));
    }
}
