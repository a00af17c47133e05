//! The K-state studies of a size rather than of boards: `analyze` (the
//! kernel), `table` (its size over ranges of sizes) and `verify` (every
//! board against breadth-first search).

use crate::Game;
use std::io::{self, Write};

use rayon::iter::{IntoParallelIterator, ParallelIterator};

use super::super::{
    AnalyzeArgs, Failure, Streams, StudyFormat, TableArgs, TableFormat, VerifyArgs, smaller_or_more_memory,
    solver_failure, terminal_bar,
};
use crate::present::{
    kernel_entry_json, kernel_text, members, presses, puzzle_topology, state_analysis_json,
};
use crate::solve::states::bfs as state_bfs;
use crate::{Error, Method, StateGrid, StateSolver, StateTarget, kernel_table, state_lines};

/// `lightsout analyze --states K`: the kernel (its size, and rank and
/// nullity for prime K), its generators with their orders, the lightest
/// quiet pattern.
pub(in crate::cli) fn analyze(args: &AnalyzeArgs, io: &mut Streams) -> Result<u8, Failure> {
    if args.picture.wanted() {
        return Err(Error::BadInput("--png and --svg draw two-state quiet patterns".into()).into());
    }
    let (rows, cols) = args.size.shape(args.puzzle.graph.as_deref());
    let puzzle = args.puzzle.puzzle(rows, cols)?;
    let states = args.puzzle.modulus();
    let k = states.get();
    let budget = args.max_nullity.map_or(crate::solve::limits::ANALYZE_MAX_MEMBERS_LOG2, |d| d as u32);
    let solver = StateSolver::new(&puzzle, states, Method::Auto, budget, args.memory.max_memory)
        .map_err(|e| solver_failure(e, &puzzle, Method::Auto, &smaller_or_more_memory))?;
    let lightest = solver.lightest_quiet_pattern();
    let text = match args.format {
        StudyFormat::Json => {
            state_analysis_json(&solver, lightest.as_ref().map(|(q, proven)| (q, *proven))) + "\n"
        }
        StudyFormat::Text => {
            let shape = match puzzle.graph() {
                Some(g) => format!("graph of {} vertices and {} edges", g.vertex_count(), g.edge_count()),
                None => format!("{rows}x{cols} {}", puzzle_topology(&puzzle)),
            };
            let mut t = format!("{shape}, rule {}, {k} states\n", puzzle.rule());
            match (solver.rank(), solver.nullity()) {
                (Some(r), Some(d)) => t += &format!("rank {r}, nullity {d} (Z_{k} is a field)\n"),
                _ => t += &format!("Z_{k} is no field: no rank or nullity, the kernel is a group\n"),
            }
            t += &format!(
                "quiet patterns: {} (2^{:.2})\n",
                members(&solver.kernel_size()),
                solver.kernel_size_log2()
            );
            let cells = puzzle.cells() as f64 * f64::from(k).log2();
            t += &format!(
                "solvable boards: 1 in {} (2^{:.2} of 2^{cells:.2})\n",
                solver.kernel_size(),
                cells - solver.kernel_size_log2()
            );
            match &lightest {
                Some((q, true)) => t += &format!("lightest quiet pattern: {}\n", presses(q.total())),
                Some((q, false)) => {
                    t += &format!(
                        "lightest quiet pattern: {} (not proven lightest: more than 2^{budget} members, past an \
                         exhaustive search; a local search found it; raise --max-nullity)\n",
                        presses(q.total())
                    )
                }
                None if solver.quiet_patterns().is_empty() => {
                    t += "every board is solvable, in exactly one way\n"
                }
                None => {
                    t += &format!(
                        "lightest quiet pattern: not searched (more than 2^{budget} members; raise --max-nullity)\n"
                    )
                }
            }
            let quiet = solver.quiet_patterns();
            let listed = crate::present::listed_patterns(quiet.len(), puzzle.cells());
            if !quiet.is_empty() {
                t += &format!(
                    "generators of the kernel ({}, each with its order; every quiet pattern is one sum of their \
                     multiples; numbers = presses):\n",
                    quiet.len()
                );
            }
            for (i, (q, order)) in quiet.iter().take(listed).enumerate() {
                t += &format!("  {}: order {order}, {}\n", i + 1, presses(q.total()));
                for line in state_lines(q, k) {
                    t += &format!("    {line}\n");
                }
            }
            if listed < quiet.len() {
                t += &format!(
                    "  … {}\n",
                    crate::present::omitted_patterns(quiet.len(), listed, puzzle.cells())
                );
            }
            t
        }
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(0)
}

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
