//! `lightsout generate`: a board as text or PBM, row by row.

use std::io::{self, Write};

use crate::cli::{Failure, GenerateArg, GenerateArgs, PgmArg, PuzzleArgs, Streams, TargetArg};
use crate::model::{GeneratedRows, MAX_SOLVABLE_CELLS, PbmWriter, RowStream, random_solvable};
use crate::{Error, Grid, Puzzle, Rule, StateGrid, Target, state_lines, write_pgm};

pub(super) fn generate(args: GenerateArgs, io: &mut Streams) -> Result<u8, Failure> {
    // A random-solvable board is drawn from --seed too (and refuses --density).
    let drawn = args.kind.recipe_kind().or(Some(GenerateArg::Random));
    args.random.refuse_unused(drawn, "random boards")?;
    let (height, cols) = args.size.shape(args.shape.graph.as_deref());
    Puzzle::new(height, cols)?;
    let k = args.shape.states;
    if k > 2 && args.pbm.is_some() {
        return Err(
            Error::BadInput(format!("--pbm writes two states; a board of {k} states is --pgm")).into()
        );
    }
    if k == 2 && args.pgm.is_some() {
        return Err(Error::BadInput("--pgm writes more than two states; two states are --pbm".into()).into());
    }
    let Some(kind) = args.kind.recipe_kind() else {
        let board = solvable_board(&args, height, cols)?;
        return write_board(&board, &args, io);
    };
    refuse_puzzle_flags(&args)?;
    if k > 2 {
        if args.random.density.is_some() {
            return Err(Error::BadInput(format!(
                "--density is the share of black cells of two states; a random board of {k} states is uniform"
            ))
            .into());
        }
        let board = args.random.recipe(kind).states(height, cols, k);
        return write_board(&board, &args, io);
    }
    let mut rows = GeneratedRows::new(args.random.recipe(kind), cols);
    let mut row = vec![0u64; cols.div_ceil(64)];
    let out = io::BufWriter::new(&mut *io.stdout);
    match args.pbm {
        Some(kind) => {
            let mut pbm = PbmWriter::new(out, kind.into(), height, cols)?;
            for _ in 0..height {
                rows.next_row(&mut row);
                pbm.write_row(&row)?;
            }
            pbm.finish()?;
        }
        None => {
            let mut out = out;
            let mut line = Vec::with_capacity(cols + 1);
            for _ in 0..height {
                rows.next_row(&mut row);
                line.clear();
                line.extend((0..cols).map(|c| if row[c / 64] >> (c % 64) & 1 == 1 { b'b' } else { b'w' }));
                line.push(b'\n');
                out.write_all(&line)?;
            }
            out.flush()?;
        }
    }
    Ok(0)
}

/// `--target`, `--rule` and `--torus` shape random-solvable boards only:
/// for another kind they would be ignored without a word.
fn refuse_puzzle_flags(args: &GenerateArgs) -> Result<(), Error> {
    let given =
        [("--target", args.target.is_some()), ("--rule", args.rule.is_some()), ("--torus", args.torus)];
    match given.iter().find(|(_, given)| *given) {
        Some((flag, _)) => Err(Error::BadInput(format!(
            "{flag} applies to random-solvable boards only (the board a puzzle solves to a target)"
        ))),
        None => Ok(()),
    }
}

/// The random-solvable board of `args`: a uniform random press set taken
/// away from the target state, on the puzzle the flags name.
fn solvable_board(args: &GenerateArgs, height: usize, cols: usize) -> Result<StateGrid, Error> {
    let k = args.shape.states;
    if args.random.density.is_some() {
        return Err(Error::BadInput(
            "--density shapes random boards; a random-solvable board is a uniform random press set \
             taken away from --target"
                .into(),
        ));
    }
    let target = match &args.target {
        None => 0,
        Some(TargetArg::Colours(..)) if k > 2 => {
            return Err(Error::BadInput(format!(
                "--target white, black and either are two-state words; with --states {k} give a state 0 to {}",
                k - 1
            )));
        }
        Some(TargetArg::Colours(_, [Target::White])) => 0,
        Some(TargetArg::Colours(_, [Target::Black])) => 1,
        Some(TargetArg::State(s)) if *s < u32::from(k) => *s as u8,
        Some(TargetArg::State(s)) => {
            return Err(Error::BadInput(format!("--target {s} is not a state of {k} (0 to {})", k - 1)));
        }
        Some(_) => {
            return Err(Error::BadInput(
                "--target of a random-solvable board is one state: white, black or a state number".into(),
            ));
        }
    };
    if height.saturating_mul(cols) > MAX_SOLVABLE_CELLS {
        return Err(Error::BadInput(format!(
            "a random-solvable board is made whole in memory: at most {MAX_SOLVABLE_CELLS} cells \
             (8192x8192); {height}x{cols} has {}",
            height as u128 * cols as u128
        )));
    }
    let puzzle = PuzzleArgs {
        torus: args.torus,
        rule: args.rule.clone().unwrap_or_else(Rule::plus),
        states: k,
        graph: args.shape.graph.clone(),
    };
    puzzle.refuse_unused(None, None)?;
    let puzzle = puzzle.puzzle(height, cols)?;
    Ok(random_solvable(&puzzle, k, target, args.random.seed.unwrap_or(0)))
}

/// Writes `board` as text (`b`/`w` rows for two states, digits or
/// numbers for more) or as the image asked for.
fn write_board(board: &StateGrid, args: &GenerateArgs, io: &mut Streams) -> Result<u8, Failure> {
    let k = args.shape.states;
    let mut out = io::BufWriter::new(&mut *io.stdout);
    if k == 2 {
        let (rows, cols) = (board.nrows(), board.ncols());
        let mut grid = Grid::zeros(rows, cols);
        for r in 0..rows {
            for (c, &state) in board.row(r).iter().enumerate() {
                grid.set(r, c, state == 1);
            }
        }
        match args.pbm {
            Some(kind) => {
                let mut pbm = PbmWriter::new(out, kind.into(), rows, cols)?;
                for r in 0..rows {
                    pbm.write_row(grid.words(r))?;
                }
                pbm.finish()?;
            }
            None => {
                for line in crate::grid_lines(&grid, 'b', 'w') {
                    writeln!(out, "{line}")?;
                }
                out.flush()?;
            }
        }
        return Ok(0);
    }
    match args.pgm {
        Some(kind) => {
            write_pgm(&mut out, board, k, matches!(kind, PgmArg::Raw))?;
        }
        None => {
            for line in state_lines(board, k) {
                writeln!(out, "{line}")?;
            }
        }
    }
    out.flush()?;
    Ok(0)
}
