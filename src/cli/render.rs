//! What only the command line prints: notes on answers not proven
//! minimal, and pictures written. The answers themselves are
//! `crate::present`'s, shared with the server.

use super::*;

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

impl Report<'_> {
    /// Notes on stderr a press count not proven minimal: of the target
    /// asked for, or with `either`, of the answer given (a note on the other
    /// colour would be about a question nobody asked).
    pub(crate) fn warn_if_not_proven(&self, stderr: &mut dyn Write, max_nullity: usize) {
        let tallies = self.tallies();
        for outcome in self.answer.outcomes.iter().filter(|o| answers(o.target.name(), &tallies)) {
            let name = outcome.target.name();
            if let Some(s) = outcome.solution.as_ref().filter(|s| !s.proven_minimal) {
                let nullity = self.solver.nullity();
                let why = if !self.solver.holds_quiet_patterns() {
                    format!(
                        "its {nullity} quiet patterns do not fit --max-memory, so the press set was not minimised"
                    )
                } else if nullity > max_nullity {
                    let how = found_by_words(&s.found_by, s.lower_bound);
                    let how = how.as_deref().unwrap_or("a local search found it");
                    format!("nullity {nullity} is above --max-nullity {max_nullity}; {how}")
                } else if let Some(how) = found_by_words(&s.found_by, s.lower_bound) {
                    // An exhaustive search cut short (a stop or a time limit).
                    how
                } else {
                    format!(
                        "nullity {nullity} is above the exhaustive search's limit of {MAX_EXHAUSTIVE_NULLITY}"
                    )
                };
                let _ = writeln!(
                    stderr,
                    "lightsout: note: board {}, {name}: {}, not proven minimal ({why})",
                    self.index,
                    presses(s.presses.count_ones() as u64),
                );
            }
        }
    }
}
