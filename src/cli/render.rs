//! What only the command line prints: notes on answers not proven
//! minimal, and pictures written. The answers themselves are
//! `crate::present`'s, shared with the server.

use std::io::{self, Write};

use crate::Error;
use crate::cli::{Failure, PictureArgs};
use crate::picture::Scene;

/// Most cells a picture draws (each is a shape until it is written).
const MAX_PICTURE_CELLS: usize = 1 << 22;

impl PictureArgs {
    /// Refuses pictures of more than [`MAX_PICTURE_CELLS`] cells: they would
    /// take gigabytes to draw and show nothing a smaller `what` does not.
    pub(super) fn check_size(&self, cells: usize, what: &str) -> Result<(), Failure> {
        if cells > MAX_PICTURE_CELLS {
            let error = Error::Limit(format!(
                "a picture of {cells} cells is too large to draw (at most {MAX_PICTURE_CELLS})"
            ));
            return Err(Failure::hinted(error, format!("draw a smaller {what}")));
        }
        Ok(())
    }

    /// Writes `scene` to the PNG and SVG files asked for.
    pub(super) fn write(&self, scene: &Scene) -> Result<(), Error> {
        let fail = |path: &std::path::Path, e: io::Error| {
            Error::BadInput(format!("cannot write {}: {e}", path.display()))
        };
        if let Some(path) = &self.png {
            let file = std::fs::File::create(path).map_err(|e| fail(path, e))?;
            scene.write_png(io::BufWriter::new(file)).map_err(|e| fail(path, e))?;
        }
        if let Some(path) = &self.svg {
            let file = std::fs::File::create(path).map_err(|e| fail(path, e))?;
            let mut out = io::BufWriter::new(file);
            scene.write_svg(&mut out).and_then(|_| out.flush()).map_err(|e| fail(path, e))?;
        }
        Ok(())
    }
}
