//! `lightsout verify`: every board of a size against breadth-first search
//! (the library's [`verify`](crate::analysis::verify), both kinds).

use crate::analysis::{Verification, board_count, verify as check_every_board};
use crate::cli::{Failure, Streams, VerifyArgs, smaller_or_more_memory, solver_failure, terminal_bar};
use crate::present::{kernel_size_text, shape_text, topology_name};
use crate::solve::bfs;
use crate::{Error, Puzzle, grid_lines};

/// What an interrupted `verify` says it lost (both kinds).
pub(super) const VERIFY_ADVICE: &str = "verify keeps no checkpoint; run it again to start over";

pub(super) fn verify(args: VerifyArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.puzzle.refuse_unused(None, None)?;
    let (rows, cols) = args.size.shape(args.puzzle.graph.as_deref());
    let puzzle = args.puzzle.puzzle(rows, cols)?;
    let states = args.puzzle.modulus();
    let (n, k) = (puzzle.cells(), states.get());
    let Some(boards) = board_count(n, states) else {
        return Err(Error::Limit(match k {
            2 => format!(
                "verify searches every board, so it takes at most {} cells; a {} has {n}",
                bfs::MAX_CELLS,
                shape_text(&puzzle)
            ),
            _ => format!("verify searches every board, at most 2^25 of them; {k}^{n} is more"),
        })
        .into());
    };
    let method = args.method.into();
    let bar = terminal_bar(boards, "boards");
    let _interrupt = super::interrupt::end_on_interrupt(&bar, VERIFY_ADVICE);
    let verified = check_every_board(&puzzle, states, method, &|boards| bar.inc(boards))
        .map_err(|e| solver_failure(e, &puzzle, method, &smaller_or_more_memory))?;
    bar.finish_and_clear();
    io.stdout.write_all(verification_text(&verified, &puzzle, k).as_bytes())?;
    Ok(if verified.first_disagreement.is_some() { 1 } else { 0 })
}

/// What `verify` prints: how many boards agree, and the first that does not.
fn verification_text(v: &Verification, puzzle: &Puzzle, k: u8) -> String {
    let (rows, cols) = (puzzle.rows(), puzzle.cols());
    let (agreed, boards) = (v.agreed, v.boards);
    // The classic puzzle keeps its short name; other shapes say theirs.
    let shape = match (puzzle.is_classic() && k == 2, puzzle.graph()) {
        (_, Some(g)) => format!("graph of {} vertices, rule {}", g.vertex_count(), puzzle.rule()),
        (true, _) => format!("{rows}x{cols}"),
        (false, _) => format!("{rows}x{cols} {}, rule {}", topology_name(puzzle.topology()), puzzle.rule()),
    };
    let mut text = match k {
        2 => format!(
            "{shape}: {agreed} of {boards} boards agree with breadth-first search (fewest presses to all white and \
             to all black; nullity {})\n",
            v.kernel.nullity.unwrap_or(0)
        ),
        _ => format!(
            "{shape}, {k} states: {agreed} of {boards} boards agree with breadth-first search (fewest presses to \
             every uniform state; kernel {})\n",
            kernel_size_text(&v.kernel)
        ),
    };
    if let Some((board, distances)) = &v.first_disagreement {
        text += &match k {
            2 => format!(
                "first disagreement: board {} (bfs: white {}, black {})\n",
                grid_lines(&crate::solve::Board::from_cell_values(rows, cols, board), 'b', 'w').join("/"),
                distances[0].min(u16::from(bfs::UNREACHABLE)),
                distances[1].min(u16::from(bfs::UNREACHABLE)),
            ),
            _ => format!(
                "first disagreement: board {}\n",
                board.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
            ),
        };
    }
    text
}
