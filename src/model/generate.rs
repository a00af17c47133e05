//! Boards made without input, so that large sizes need no file.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::Grid;
use crate::gf2::words;

/// A recipe for a board.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Generate {
    /// Every piece black side up.
    AllBlack,
    /// Every piece white side up.
    AllWhite,
    /// Each piece black with probability `density`, from a seeded ChaCha8
    /// stream, so a seed names the same board on every machine.
    Random {
        /// Seed of the random stream.
        seed: u64,
        /// Probability that a cell is black, in [0, 1].
        density: f64,
    },
}

impl Generate {
    /// The `rows × cols` board this recipe makes.
    pub fn board(&self, rows: usize, cols: usize) -> Grid {
        match *self {
            Generate::AllBlack => Grid::ones(rows, cols),
            Generate::AllWhite => Grid::zeros(rows, cols),
            Generate::Random { seed, density } => {
                let mut rng = ChaCha8Rng::seed_from_u64(seed);
                let mut grid = Grid::zeros(rows, cols);
                let tail = words::tail_mask(cols);
                for r in 0..rows {
                    let row = grid.row_mut(r);
                    if density == 0.5 {
                        // The common case: 64 fair bits per draw.
                        row.iter_mut().for_each(|w| *w = rng.next_u64());
                    } else {
                        for c in 0..cols {
                            if rng.random_bool(density) {
                                words::toggle(row, c);
                            }
                        }
                    }
                    if let Some(last) = row.last_mut() {
                        *last &= tail;
                    }
                }
                grid
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn random_boards_are_reproducible_and_respect_density() {
        let a = Generate::Random { seed: 7, density: 0.5 }.board(50, 70);
        assert_eq!(a, Generate::Random { seed: 7, density: 0.5 }.board(50, 70));
        assert_ne!(a, Generate::Random { seed: 8, density: 0.5 }.board(50, 70));
        let ones = a.count_ones() as f64 / 3500.0;
        assert!((0.4..0.6).contains(&ones), "{ones}");
        assert!(Generate::Random { seed: 1, density: 0.0 }.board(9, 9).is_zero());
        assert_eq!(Generate::Random { seed: 1, density: 1.0 }.board(9, 9).count_ones(), 81);
    }
}
