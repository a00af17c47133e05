//! `lightsout generate`: a board as text or PBM, row by row.

use std::io::{self, Write};

use crate::cli::{Failure, GenerateArgs, PbmArg, Streams};
use crate::model::{GeneratedRows, PbmWriter, RowStream};
use crate::{Error, Puzzle, state_lines, write_pgm};

pub(super) fn generate(args: GenerateArgs, io: &mut Streams) -> Result<u8, Failure> {
    args.random.refuse_unused(Some(args.kind), "random boards")?;
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
    if k > 2 {
        if args.random.density.is_some() {
            return Err(Error::BadInput(format!(
                "--density is the share of black cells of two states; a random board of {k} states is uniform"
            ))
            .into());
        }
        let board = args.random.recipe(args.kind).states(height, cols, k);
        let mut out = io::BufWriter::new(&mut *io.stdout);
        match args.pgm {
            Some(kind) => {
                write_pgm(&mut out, &board, k, matches!(kind, PbmArg::Raw))?;
            }
            None => {
                for line in state_lines(&board, k) {
                    writeln!(out, "{line}")?;
                }
            }
        }
        out.flush()?;
        return Ok(0);
    }
    let mut rows = GeneratedRows::new(args.random.recipe(args.kind), cols);
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
