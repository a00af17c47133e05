//! `lightsout verify`: every board of a size against breadth-first search.

use rayon::iter::{IntoParallelIterator, ParallelIterator};

use crate::cli::{Failure, Kind, Streams, VerifyArgs, smaller_or_more_memory, solver_failure, terminal_bar};
use crate::present::Shown;
use crate::present::{shape_text, topology_name};
use crate::solve::DEFAULT_MAX_NULLITY;
use crate::{Error, Game, Solution, Solver, Target, bfs, grid_lines};

/// What an interrupted `verify` says it lost (both kinds).
pub(super) const VERIFY_ADVICE: &str = "verify keeps no checkpoint; run it again to start over";

pub(super) fn verify<G: Kind>(args: VerifyArgs, io: &mut Streams) -> Result<u8, Failure>
where
    G::Board: Shown<Solver = G>,
{
    args.puzzle.refuse_unused(None, None)?;
    G::verify_command(&args, io)
}

/// `verify` for two states: every board of the size against BFS.
pub(super) fn verify_two_states(args: &VerifyArgs, io: &mut Streams) -> Result<u8, Failure> {
    let (rows, cols) = args.size.shape(args.puzzle.graph.as_deref());
    let puzzle = args.puzzle.puzzle(rows, cols)?;
    if puzzle.cells() > bfs::MAX_CELLS {
        return Err(Error::Limit(format!(
            "verify searches every board, so it takes at most {} cells; a {} has {}",
            bfs::MAX_CELLS,
            shape_text(&puzzle),
            puzzle.cells()
        ))
        .into());
    }
    let method = args.method.into();
    let solver = Solver::new(&puzzle, method, DEFAULT_MAX_NULLITY)
        .map_err(|e| solver_failure(e, &puzzle, method, &smaller_or_more_memory))?;
    let states = 1u32 << puzzle.cells();
    let bar = terminal_bar(u64::from(states), "boards");
    let _interrupt = super::interrupt::end_on_interrupt(&bar, VERIFY_ADVICE);
    let (white, black) = bfs::uniform_states(rows, cols);
    // The two searches are independent: one a core.
    let (to_white, to_black) =
        rayon::join(|| bfs::distances(&puzzle, &[white]), || bfs::distances(&puzzle, &[black]));
    let presses =
        |s: &Option<Solution>| s.as_ref().map_or(bfs::UNREACHABLE, |s| s.presses.count_ones() as u8);
    let disagreements: Vec<u32> = (0..states)
        .into_par_iter()
        .map(|state| -> Result<Option<u32>, Error> {
            if state % 4096 == 0 {
                bar.inc(4096);
            }
            let board = bfs::decode(rows, cols, state);
            let answer = solver.solve(&board, Target::EITHER)?;
            let [w, b] = [&answer.outcomes[0], &answer.outcomes[1]].map(|o| presses(&o.solution));
            let agree = w == to_white[state as usize] && b == to_black[state as usize];
            Ok((!agree).then_some(state))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    bar.finish_and_clear();
    let out = &mut *io.stdout;
    let agreed = states as usize - disagreements.len();
    // The classic puzzle keeps its short name; other shapes say theirs.
    let shape = match (puzzle.is_classic(), puzzle.graph()) {
        (_, Some(g)) => format!("graph of {} vertices, rule {}", g.vertex_count(), puzzle.rule()),
        (true, _) => format!("{rows}x{cols}"),
        (false, _) => format!("{rows}x{cols} {}, rule {}", topology_name(puzzle.topology()), puzzle.rule()),
    };
    writeln!(
        out,
        "{shape}: {agreed} of {states} boards agree with breadth-first search \
         (fewest presses to all white and to all black; nullity {})",
        solver.nullity()
    )?;
    if let Some(&state) = disagreements.first() {
        let board = bfs::decode(rows, cols, state);
        writeln!(
            out,
            "first disagreement: board {} (bfs: white {}, black {})",
            grid_lines(&board, 'b', 'w').join("/"),
            to_white[state as usize],
            to_black[state as usize]
        )?;
        return Ok(1);
    }
    Ok(0)
}
