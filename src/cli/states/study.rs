//! The K-state studies of a size rather than of boards: `analyze` (the
//! kernel), `table` (its size over ranges of sizes) and `verify` (every
//! board against breadth-first search).

use crate::Game;
use std::io::{self, Write};

use rayon::iter::{IntoParallelIterator, ParallelIterator};

use super::super::{
    Failure, Streams, TableArgs, TableFormat, VerifyArgs, smaller_or_more_memory, solver_failure,
    terminal_bar,
};
use crate::present::{kernel_entry_json, kernel_text, puzzle_topology};
use crate::solve::states::bfs as state_bfs;
use crate::{Error, Method, StateGrid, StateSolver, StateTarget, kernel_table};

/// `lightsout table --states K`: log2 of the kernel's size over ranges of
/// sizes (for prime K, the nullity times log2 K).
pub(in crate::cli) fn table(args: &TableArgs, io: &mut Streams) -> Result<u8, Failure> {
    if args.shard.is_some() || args.picture.wanted() {
        return Err(Error::BadInput(
            "--shard, --png and --svg tabulate two states; a table of K states is printed whole".into(),
        )
        .into());
    }
    let states = args.puzzle.modulus();
    let ((r0, r1), (c0, c1)) = (args.rows, args.cols);
    let sizes = (r1 - r0 + 1).saturating_mul(c1 - c0 + 1);
    if sizes > 1 << 20 {
        return Err(Failure::hinted(
            Error::Limit(format!("a table of {sizes} sizes of {} states is more than 2^20", states.get())),
            "narrow the ranges of --rows and --cols",
        ));
    }
    let template = args.puzzle.puzzle(1, 1)?;
    let cols: Vec<usize> = (c0..=c1).collect();
    let bar = terminal_bar((r1 - r0 + 1) as u64, "rows");
    let _interrupt = super::super::interrupt::end_on_interrupt(&bar, super::super::study::TABLE_ADVICE);
    let mut table = Vec::new();
    for row in kernel_table(r0..=r1, &cols, &template, states, args.memory.max_memory) {
        table.push(row.map_err(|e| solver_failure(e, &template, Method::Auto, &smaller_or_more_memory))?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let k = states.get();
    let mut out = io::BufWriter::new(&mut *io.stdout);
    match args.format.unwrap_or(TableFormat::Text) {
        TableFormat::Text => {
            writeln!(out, "log2 of the kernel size, {k} states (rows down, columns across)")?;
            write!(out, "{:>6}", "")?;
            for c in c0..=c1 {
                write!(out, " {c:>6}")?;
            }
            writeln!(out)?;
            for (i, row) in table.iter().enumerate() {
                write!(out, "{:>6}", r0 + i)?;
                for entry in row {
                    write!(out, " {:>6}", format!("{:.2}", entry.kernel_size_log2))?;
                }
                writeln!(out)?;
            }
        }
        TableFormat::Csv => {
            writeln!(out, "rows,cols,states,kernel_size_log2,nullity")?;
            for (i, row) in table.iter().enumerate() {
                for (j, entry) in row.iter().enumerate() {
                    let d = entry.nullity.map_or(String::new(), |d| d.to_string());
                    writeln!(out, "{},{},{k},{},{d}", r0 + i, c0 + j, entry.kernel_size_log2)?;
                }
            }
        }
        TableFormat::Json => {
            for (i, row) in table.iter().enumerate() {
                for (j, entry) in row.iter().enumerate() {
                    writeln!(out, "{}", kernel_entry_json(r0 + i, c0 + j, k, entry))?;
                }
            }
        }
    }
    out.flush()?;
    Ok(0)
}

/// `lightsout verify --states K`: every board (K^cells of them, at most
/// 2^25) solved for every uniform target and checked against breadth-first
/// search.
pub(in crate::cli) fn verify(args: &VerifyArgs, io: &mut Streams) -> Result<u8, Failure> {
    let (rows, cols) = args.size.shape(args.puzzle.graph.as_deref());
    let puzzle = args.puzzle.puzzle(rows, cols)?;
    let states = args.puzzle.modulus();
    let k = states.get();
    let n = puzzle.cells();
    let boards =
        (0..n).try_fold(1u64, |acc, _| acc.checked_mul(u64::from(k)).filter(|&b| b <= state_bfs::MAX_STATES));
    let Some(boards) = boards else {
        return Err(Error::Limit(format!(
            "verify searches every board, at most 2^25 of them; {k}^{n} is more"
        ))
        .into());
    };
    let method = args.method.into();
    let solver = StateSolver::new(&puzzle, states, method, 63, u64::MAX)
        .map_err(|e| solver_failure(e, &puzzle, method, &smaller_or_more_memory))?;
    let lists = puzzle.press_lists();
    let targets = StateTarget::any(states);
    let bar = terminal_bar(boards, "boards");
    let _interrupt = super::super::interrupt::end_on_interrupt(&bar, super::super::verify::VERIFY_ADVICE);
    let distances = (0..k)
        .into_par_iter()
        .map(|s| state_bfs::distances(n, &lists, k, &vec![s; n]))
        .collect::<Result<Vec<_>, Error>>()?;
    let disagreements: Vec<usize> = (0..boards as usize)
        .into_par_iter()
        .map(|b| -> Result<Option<usize>, Error> {
            if b % 4096 == 0 {
                bar.inc(4096);
            }
            let board = StateGrid::from_cells(rows, cols, state_bfs::board_of(b, n, k))
                .ok_or_else(|| Error::Internal("a board of the wrong size".into()))?;
            let answer = solver.solve(&board, &targets)?;
            let agree = answer.outcomes.iter().zip(&distances).all(|(o, d)| {
                o.solution.as_ref().map_or(state_bfs::UNREACHABLE, |s| s.presses.total() as u16) == d[b]
            });
            Ok((!agree).then_some(b))
        })
        .collect::<Result<Vec<_>, _>>()?
        .into_iter()
        .flatten()
        .collect();
    bar.finish_and_clear();
    let shape = match puzzle.graph() {
        Some(g) => format!("graph of {} vertices, rule {}", g.vertex_count(), puzzle.rule()),
        None => format!("{rows}x{cols} {}, rule {}", puzzle_topology(&puzzle), puzzle.rule()),
    };
    let agreed = boards as usize - disagreements.len();
    writeln!(
        io.stdout,
        "{shape}, {k} states: {agreed} of {boards} boards agree with breadth-first search (fewest presses to every \
         uniform state; kernel {})",
        kernel_text(&solver)
    )?;
    if let Some(&b) = disagreements.first() {
        let board = state_bfs::board_of(b, n, k);
        writeln!(
            io.stdout,
            "first disagreement: board {}",
            board.iter().map(u8::to_string).collect::<Vec<_>>().join(" ")
        )?;
        return Ok(1);
    }
    Ok(0)
}
