//! The study commands: `analyze` (a size's null space), `check` (which
//! targets a board can reach, and why not), `table` (nullity over ranges).

use std::io::{self, Write};

use crate::analysis::Analysis;
use crate::cli::{
    AnalyzeArgs, BoardInput, CheckArgs, Failure, Kind, LimitHint, SMALLER_OR_MORE_MEMORY, Streams,
    StudyFormat, TableArgs, TableFormat, check_text, smaller_or_more_memory, terminal_bar,
};
use crate::present::{
    Shown, analysis_json, listed_patterns, omitted_patterns, power_of_two, presses, table_entry_json,
    topology_name,
};
use crate::record::{TableProblem, table_record};
use crate::solve::limits;
use crate::{Error, Method, analyze as analyse, grid_lines, nullity_table, picture};

/// Largest nullity `analyze` suggests searching in full: 2^42 members take
/// minutes on two cores (65×65, folded by its symmetries: 79 s).
const SUGGESTED_MAX_NULLITY: usize = 42;

pub(super) fn analyze<G: Kind>(args: AnalyzeArgs, io: &mut Streams) -> Result<u8, Failure>
where
    G::Board: Shown<Solver = G>,
{
    args.puzzle.refuse_unused(None, None)?;
    G::analyze_command(&args, io)
}

/// `analyze` for two states: the nullity, the quiet patterns, the
/// lightest of them and the solvable share.
pub(super) fn analyze_two_states(args: &AnalyzeArgs, io: &mut Streams) -> Result<u8, Failure> {
    let (rows, cols) = args.size.shape(args.puzzle.graph.as_deref());
    let puzzle = args.puzzle.puzzle(rows, cols)?;
    // The analysis eliminates in memory: no streamed way round, so the
    // solver's own hint (streaming a generated board) would mislead.
    let max_memory = args.memory.max_memory;
    let work = format!("analysing a {rows}x{cols} board");
    let hint = || SMALLER_OR_MORE_MEMORY.to_string();
    limits::check(limits::solve_bytes(&puzzle, !puzzle.is_classic()), max_memory, &work).limit_hint(hint)?;
    let max_nullity = args.max_nullity.unwrap_or(limits::ANALYZE_MAX_NULLITY);
    let a = analyse(&puzzle, max_nullity, max_memory).limit_hint(hint)?;
    let title = format!(
        "{rows}x{cols} {}, rule {}: {} quiet patterns",
        topology_name(puzzle.topology()),
        puzzle.rule(),
        a.nullity
    );
    if args.picture.wanted() {
        args.picture.check_size(a.quiet.len().max(1) * puzzle.cells(), "size")?;
        let scene = match puzzle.graph() {
            // A graph's patterns are drawn on the graph, titled by what it is.
            Some(graph) => {
                picture::check_graph(graph, a.quiet.len())?;
                let layout = crate::model::Layout::of(graph);
                let patterns = if a.nullity == 1 {
                    "1 quiet pattern".into()
                } else {
                    format!("{} quiet patterns", a.nullity)
                };
                let title =
                    format!("{}, rule {}: {patterns}", picture::graph_title(graph, &layout), puzzle.rule());
                picture::graph_patterns(graph, &layout, &a.quiet, &title)
            }
            None => picture::patterns(&a.quiet, &title),
        };
        args.picture.write(&scene)?;
    }
    let text = match args.format {
        StudyFormat::Text => analysis_text(&a),
        StudyFormat::Json => analysis_json(&a) + "\n",
    };
    io.stdout.write_all(text.as_bytes())?;
    io.stdout.flush()?;
    Ok(0)
}

/// Largest power of two whose digits the text output spells out (20
/// digits); beyond it `2^k` says all (2^2240 has 675 digits). JSON keeps
/// the digits.
const SPELLED_OUT_POWER: usize = 64;

/// `2^k` for reading: `8`, `2^12 = 4096`, or `2^2240` alone.
fn count(k: usize) -> String {
    match power_of_two(k) {
        Some(n) if k <= 3 => n,
        Some(n) if k <= SPELLED_OUT_POWER => format!("2^{k} = {n}"),
        _ => format!("2^{k}"),
    }
}

fn factors_text(factors: &[(crate::gf2::Poly, usize)]) -> String {
    if factors.is_empty() {
        return "1".into();
    }
    factors
        .iter()
        .map(|(p, m)| if *m == 1 { format!("({p})") } else { format!("({p})^{m}") })
        .collect::<Vec<_>>()
        .join(" ")
}

fn analysis_text(a: &Analysis) -> String {
    let p = &a.puzzle;
    let cells = p.cells();
    let mut t = match p.graph() {
        Some(g) => format!(
            "graph of {} vertices and {} edges, rule {}\n",
            g.vertex_count(),
            g.edge_count(),
            p.rule()
        ),
        None => format!("{}x{} {}, rule {}\n", p.rows(), p.cols(), topology_name(p.topology()), p.rule()),
    };
    t += &format!("rank {}, nullity {}\n", a.rank(), a.nullity);
    t += &format!("solvable boards: {} of {} (1 in {})\n", count(a.rank()), count(cells), count(a.nullity));
    t += &format!("solutions per solvable board: {}\n", count(a.nullity));
    t += if a.targets_interchangeable {
        "all white and all black: every board that can reach one can reach the other\n"
    } else {
        "all white and all black: not interchangeable (the all-black board cannot be cleared)\n"
    };
    if let Some((g, factors)) = &a.gcd {
        // The factorisation is shown when it says more than `g` itself.
        let factored = match factors.as_slice() {
            [] => String::new(),
            [(_, 1)] => " (irreducible)".into(),
            // x^k says it already.
            [(p, _)] if p.weight() == 1 => String::new(),
            _ => format!(" = {}", factors_text(factors)),
        };
        t += &format!("gcd(f_R(x), f_C(x+1)) = {g}{factored}\n");
    }
    match &a.lightest_quiet {
        None if a.nullity == 0 => t += "quiet patterns: none (every board is solvable, in exactly one way)\n",
        None => {
            t += &format!(
                "quiet patterns: {} of {} cells each, too many to hold within --max-memory: none listed, the \
                 lightest not searched (raise --max-memory to list them)\n",
                a.nullity, cells
            )
        }
        Some((q, proven)) => {
            let how = if *proven {
                String::new()
            } else if a.nullity > crate::solve::MAX_EXHAUSTIVE_NULLITY {
                format!(
                    " (not proven lightest: nullity {} is above {}, past an exhaustive search)",
                    a.nullity,
                    crate::solve::MAX_EXHAUSTIVE_NULLITY
                )
            } else if a.nullity <= SUGGESTED_MAX_NULLITY {
                format!(
                    " (not proven lightest: nullity {0} is above --max-nullity; --max-nullity {0} searches all 2^{0})",
                    a.nullity
                )
            } else {
                format!(" (not proven lightest: nullity {} is above --max-nullity)", a.nullity)
            };
            t += &format!("lightest quiet pattern: {}{how}\n", presses(q.count_ones() as u64));
            t += &format!("quiet patterns (a basis of {}; x = press):\n", a.nullity);
            let drawn = listed_patterns(a.quiet.len(), cells);
            for (i, q) in a.quiet.iter().take(drawn).enumerate() {
                t += &format!("  {}: {}\n", i + 1, presses(q.count_ones() as u64));
                if p.graph().is_some() {
                    let vertices: Vec<String> = q.row(0).iter_ones().map(|v| v.to_string()).collect();
                    t += &format!("    vertices {}\n", vertices.join(" "));
                    continue;
                }
                for line in grid_lines(q, 'x', '.') {
                    t += &format!("    {line}\n");
                }
            }
            if a.quiet.len() > drawn {
                let listed = if drawn == 0 { "none drawn" } else { "and more" };
                t += &format!("  … {listed}: {}\n", omitted_patterns(a.quiet.len(), drawn, cells));
            }
        }
    }
    t
}

/// `check`: per board and target, solvable, or the obstruction that
/// proves it is not (no minimisation is needed).
pub(super) fn check<G: Kind>(mut args: CheckArgs, io: &mut Streams) -> Result<u8, Failure>
where
    G::Board: Shown<Solver = G>,
{
    args.puzzle.refuse_unused(args.source.rows, args.source.cols)?;
    args.source.take_graph_shape(&args.puzzle);
    args.source.refuse_unused()?;
    let max_memory = args.memory.max_memory;
    let targets = G::targets(&args.target, &args.source, &args.puzzle, max_memory)?;
    let hint = &smaller_or_more_memory;
    let input = BoardInput { source: &args.source, puzzle: &args.puzzle, dense: false, max_memory, hint };
    let mut solvers = G::solvers(&args.puzzle, Method::Auto, 0, max_memory, hint);
    let Streams { stdin, stdin_is_terminal, stdout, stderr } = io;
    let mut out = io::BufWriter::new(&mut **stdout);
    G::each_board(input, &mut **stdin, *stdin_is_terminal, &mut **stderr, &mut |index, board, flush, _| {
        let solver = solvers.for_board(&board)?;
        let verdicts = targets
            .iter()
            .map(|t| Ok((t.clone(), solver.obstruction(&board, t)?)))
            .collect::<Result<Vec<_>, Error>>()?;
        let text = match args.format {
            StudyFormat::Text => check_text(index, solver, &verdicts),
            StudyFormat::Json => G::Board::check_json(index, solver, &verdicts) + "\n",
        };
        out.write_all(text.as_bytes())?;
        if flush {
            out.flush()?;
        }
        Ok(())
    })?;
    out.flush()?;
    Ok(0)
}

/// What an interrupted `table` says it lost, and how to keep it (both
/// kinds).
pub(super) const TABLE_ADVICE: &str =
    "--shard K/N cuts a table into slices that run one at a time (merge joins them)";

pub(super) fn table<G: Kind>(args: TableArgs, io: &mut Streams) -> Result<u8, Failure>
where
    G::Board: Shown<Solver = G>,
{
    if args.puzzle.graph.is_some() {
        return Err(
            Error::BadInput("--graph has one size; a table runs over ranges of grid sizes".into()).into()
        );
    }
    G::table_command(&args, io)
}

/// `table` for two states: the nullity of every size in the ranges.
pub(super) fn table_two_states(args: &TableArgs, io: &mut Streams) -> Result<u8, Failure> {
    let template = args.puzzle.puzzle(1, 1)?;
    let max_memory = args.memory.max_memory;
    let narrow = || "narrow the ranges of --rows and --cols".to_string();
    let ((r0, r1), (c0, c1)) = (args.rows, args.cols);
    if let Some(shard) = args.shard {
        if args.picture.wanted() {
            return Err(Error::BadInput(
                "--png and --svg do not go with --shard: draw the merged table".into(),
            )
            .into());
        }
        if args.format == Some(TableFormat::Csv) {
            return Err(Error::BadInput(
                "--shard prints its slice as one JSON line; --format csv goes with `lightsout merge`".into(),
            )
            .into());
        }
        // Every N-th row: late rows cost more, so interleaved slices share
        // the work evenly.
        let mut nullity = Vec::new();
        for i in 0..shard.len((r1 - r0 + 1) as u64) {
            let row = r0 + shard.block(i) as usize;
            nullity
                .extend(nullity_table(row..=row, c0..=c1, &template, max_memory, &|| {}).limit_hint(narrow)?);
        }
        let problem = TableProblem {
            rows: args.rows,
            cols: args.cols,
            topology: topology_name(template.topology()).into(),
            rule: template.rule().mask(),
        };
        writeln!(io.stdout, "{}", table_record(problem, shard, nullity))?;
        return Ok(0);
    }
    if args.picture.wanted() {
        args.picture.check_size((r1 - r0 + 1).saturating_mul(c1 - c0 + 1), "range")?;
    }
    let bar = terminal_bar((r1 - r0 + 1) as u64, "rows");
    let _interrupt = super::interrupt::end_on_interrupt(&bar, TABLE_ADVICE);
    let table = nullity_table(r0..=r1, c0..=c1, &template, max_memory, &|| bar.inc(1)).limit_hint(narrow)?;
    bar.finish_and_clear();
    let title = format!(
        "nullity of {r0}..{r1} x {c0}..{c1}, {}, rule {}",
        topology_name(template.topology()),
        template.rule()
    );
    if args.picture.wanted() {
        args.picture.write(&picture::heat_map(&table, r0, c0, &title))?;
    }
    // A picture asked for alone is the answer: the table is not printed
    // too (a million sizes of text nobody asked for).
    match (args.format, args.picture.wanted()) {
        (None, true) => {}
        (format, _) => {
            write_table(&table, (r0, r1), (c0, c1), format.unwrap_or(TableFormat::Text), io.stdout)?
        }
    }
    Ok(0)
}

/// Prints a nullity table whose first row and column are `r0` and `c0`.
pub(super) fn write_table(
    table: &[Vec<usize>],
    (r0, r1): (usize, usize),
    (c0, c1): (usize, usize),
    format: TableFormat,
    stdout: &mut dyn Write,
) -> io::Result<()> {
    let mut out = io::BufWriter::new(stdout);
    match format {
        TableFormat::Text => {
            let width =
                table.iter().flatten().max().map_or(1, |m| m.to_string().len()).max(c1.to_string().len());
            let label = r1.to_string().len();
            write!(out, "{:>label$} |", "")?;
            for c in c0..=c1 {
                write!(out, " {c:>width$}")?;
            }
            writeln!(out)?;
            for (i, row) in table.iter().enumerate() {
                write!(out, "{:>label$} |", r0 + i)?;
                for n in row {
                    write!(out, " {n:>width$}")?;
                }
                writeln!(out)?;
            }
        }
        TableFormat::Csv => {
            writeln!(out, "rows,cols,nullity")?;
            for (i, row) in table.iter().enumerate() {
                for (j, n) in row.iter().enumerate() {
                    writeln!(out, "{},{},{n}", r0 + i, c0 + j)?;
                }
            }
        }
        TableFormat::Json => {
            for (i, row) in table.iter().enumerate() {
                for (j, n) in row.iter().enumerate() {
                    writeln!(out, "{}", table_entry_json(r0 + i, c0 + j, *n))?;
                }
            }
        }
    }
    out.flush()
}
