//! `lightsout hardest`: the most presses a solvable board of a size needs,
//! a board that needs them, and the boards by their fewest presses, for
//! both kinds of game (the library's `analysis::hardest`).

use std::io::{BufWriter, Write};
use std::time::Duration;

use super::long::interrupt_flag;
use super::solve::create;
use super::{Failure, HardestArgs, Kind, Streams, StudyFormat, smaller_or_more_memory};
use crate::analysis::{HardestOptions, hardest as weigh};
use crate::present::{Shown, hardest_json, hardest_text};
use crate::solve::{DEFAULT_MAX_NULLITY, Limits};
use crate::{Answer, Error, Method};

pub(super) fn hardest<G: Kind>(args: HardestArgs, io: &mut Streams) -> Result<u8, Failure>
where
    G::Board: Shown<Solver = G, Answer = Answer<G::Board>>,
{
    args.puzzle.refuse_unused(None, None)?;
    let (rows, cols) = args.size.shape(args.puzzle.graph.as_deref());
    let max_memory = args.memory.max_memory;
    let mut solvers =
        G::solvers(&args.puzzle, Method::Auto, DEFAULT_MAX_NULLITY, max_memory, &smaller_or_more_memory);
    let game = solvers.for_shape(rows, cols)?;
    let options = HardestOptions { distribution: args.distribution, ..HardestOptions::default() };
    let interrupted = interrupt_flag();
    let limits = Limits { stop: Some(interrupted), time_limit: args.time_limit.map(Duration::from_secs_f64) };
    let found = weigh(game, args.target, &options, &limits).map_err(|e| distribution_hint(e, &args))?;
    if let Some(path) = &args.output {
        let Some(board) = &found.board else {
            return Err(Error::Limit(format!(
                "no board was certified, so --output {} was not written",
                path.display()
            ))
            .into());
        };
        let mut file = BufWriter::new(create(path)?);
        G::write_board(&mut file, board, game)
            .and_then(|()| file.flush())
            .map_err(|e| Error::BadInput(format!("cannot write {}: {e}", path.display())))?;
    }
    let text = match args.format {
        StudyFormat::Text => hardest_text(game, args.target, &found),
        StudyFormat::Json => hardest_json(game, args.target, &found).to_string() + "\n",
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    if interrupted.load(std::sync::atomic::Ordering::Relaxed) {
        let _ = writeln!(io.stderr, "lightsout: interrupted: the bounds above are the ones reached");
        return Ok(130);
    }
    Ok(0)
}

/// A distribution past the work budget: what to do instead.
fn distribution_hint(error: Error, args: &HardestArgs) -> Failure {
    match error {
        Error::Limit(ref why) if args.distribution && why.starts_with("the distribution") => {
            Failure::hinted(error, "without --distribution the most presses is still answered")
        }
        e => e.into(),
    }
}
