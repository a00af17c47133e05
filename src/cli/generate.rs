//! `lightsout generate`: a board as text or PBM, row by row.

use super::*;

pub(super) fn generate(args: GenerateArgs, io: &mut Streams) -> Result<u8, Failure> {
    unused_random_flags(Some(args.kind), args.seed, args.density, "random boards")?;
    Puzzle::new(args.rows, args.cols)?;
    let recipe = match args.kind {
        GenerateArg::AllBlack => Generate::AllBlack,
        GenerateArg::AllWhite => Generate::AllWhite,
        GenerateArg::Random => {
            Generate::Random { seed: args.seed.unwrap_or(0), density: args.density.unwrap_or(0.5) }
        }
    };
    let mut rows = GeneratedRows::new(recipe, args.cols);
    let mut row = vec![0u64; args.cols.div_ceil(64)];
    let out = io::BufWriter::new(&mut *io.stdout);
    match args.pbm {
        Some(kind) => {
            let mut pbm = PbmWriter::new(out, kind.into(), args.rows, args.cols)?;
            for _ in 0..args.rows {
                rows.next_row(&mut row);
                pbm.write_row(&row)?;
            }
            pbm.finish()?;
        }
        None => {
            let mut out = out;
            let mut line = Vec::with_capacity(args.cols + 1);
            for _ in 0..args.rows {
                rows.next_row(&mut row);
                line.clear();
                line.extend(
                    (0..args.cols).map(|c| if row[c / 64] >> (c % 64) & 1 == 1 { b'b' } else { b'w' }),
                );
                line.push(b'\n');
                out.write_all(&line)?;
            }
            out.flush()?;
        }
    }
    Ok(0)
}
