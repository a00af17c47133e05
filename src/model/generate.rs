//! Boards made without input, so that large sizes need no file.

use rand::{Rng, RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Grid, Puzzle, StateGrid};
use bitvec::order::Lsb0;
use bitvec::view::BitView;

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
        let mut grid = Grid::zeros(rows, cols);
        let mut rng = self.rng();
        for r in 0..rows {
            self.fill_row(&mut rng, grid.words_mut(r), cols);
        }
        grid
    }

    /// The `rows × cols` board of `k` states this recipe makes: all white
    /// is every cell 0, all black every cell 1, and random draws each
    /// state uniformly from `0..k` out of the seeded ChaCha8 stream, row by
    /// row (the same seed, the same board). For `k = 2` the board is
    /// [`board`](Self::board)'s, so a seed names one board whichever
    /// solver reads it, and the density counts; for more states it does
    /// not (the states are uniform).
    ///
    /// # Example
    /// ```
    /// use lightsout::{Generate, StateGrid};
    ///
    /// let random = Generate::Random { seed: 3, density: 0.5 };
    /// let board = random.states(4, 5, 7);
    /// assert!(board.max_state() < 7);
    /// assert_eq!(board, random.states(4, 5, 7));
    /// assert_eq!(Generate::AllBlack.states(2, 2, 7), StateGrid::filled(2, 2, 1));
    /// assert_eq!(random.states(4, 5, 2), StateGrid::from_bits(&random.board(4, 5)));
    /// ```
    pub fn states(&self, rows: usize, cols: usize, k: u8) -> StateGrid {
        match *self {
            Generate::AllWhite => StateGrid::zeros(rows, cols),
            Generate::AllBlack => StateGrid::filled(rows, cols, 1),
            Generate::Random { .. } if k <= 2 => StateGrid::from_bits(&self.board(rows, cols)),
            Generate::Random { .. } => {
                let mut rng = self.rng();
                StateGrid::from_fn(rows, cols, |_, _| rng.random_range(0..k))
            }
        }
    }

    /// Whether every cell has the same colour (then the board is its own
    /// transpose).
    pub fn is_uniform(&self) -> bool {
        !matches!(self, Generate::Random { .. })
    }

    fn rng(&self) -> ChaCha8Rng {
        match *self {
            Generate::Random { seed, .. } => ChaCha8Rng::seed_from_u64(seed),
            _ => ChaCha8Rng::seed_from_u64(0),
        }
    }

    /// The next row of cells: rows are drawn from one stream in order, so a
    /// board is the same whether made whole or row by row.
    fn fill_row(&self, rng: &mut ChaCha8Rng, row: &mut [u64], cols: usize) {
        match *self {
            Generate::AllBlack => row.fill(u64::MAX),
            Generate::AllWhite => row.fill(0),
            // The common case: 64 fair bits per draw.
            Generate::Random { density: 0.5, .. } => row.iter_mut().for_each(|w| *w = rng.next_u64()),
            Generate::Random { density, .. } => {
                let bits = row.view_bits_mut::<Lsb0>();
                for c in 0..cols {
                    bits.set(c, rng.random_bool(density));
                }
            }
        }
        row.view_bits_mut::<Lsb0>()[cols..].fill(false);
    }
}

/// Most cells of a [`random_solvable`] board: it is made whole, in memory
/// (a byte a cell), where the other recipes stream their rows.
pub const MAX_SOLVABLE_CELLS: usize = 1 << 26;

/// A random board of `k` states (2 to 255) that `puzzle` solves to every
/// cell in state `target` (below `k`): a press set drawn uniformly (each
/// cell pressed `0..k` times, from the seeded ChaCha8 stream) taken away
/// from the target. Every board solvable to the target is then as likely,
/// since each is reached by as many press sets (the kernel's size). For
/// two states, 0 is white and 1 black.
///
/// # Example
/// ```
/// use lightsout::model::random_solvable;
/// use lightsout::zk::Modulus;
/// use lightsout::{Game, Method, Puzzle, StateSolver, StateTarget};
///
/// // 5x5 over Z_4: one random board in 16 is solvable; this one is.
/// let puzzle = Puzzle::new(5, 5)?;
/// let board = random_solvable(&puzzle, 4, 0, 7);
/// assert!(board.max_state() < 4);
/// let solver = StateSolver::new(&puzzle, Modulus::new(4)?, Method::Auto, 20, 1 << 30)?;
/// assert!(solver.solve_for(&board, &StateTarget::Uniform(0))?.is_some());
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn random_solvable(puzzle: &Puzzle, k: u8, target: u8, seed: u64) -> StateGrid {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let k = k.max(2);
    let mut board = StateGrid::filled(puzzle.rows(), puzzle.cols(), target % k);
    let cells = board.cells_mut();
    for press in 0..puzzle.cells() {
        let times = rng.random_range(0..k);
        if times == 0 {
            continue;
        }
        // Taken away, so that pressing them again reaches the target.
        let back = u16::from(k - times);
        for cell in puzzle.flipped_indices(press) {
            cells[cell] = ((u16::from(cells[cell]) + back) % u16::from(k)) as u8;
        }
    }
    board
}

/// A board delivered one row at a time, from the top, as often as needed:
/// what [`Chase::solve_streamed`](crate::solve::Chase::solve_streamed) reads, so
/// that a board never has to be held whole.
pub trait RowStream {
    /// Number of columns (the words of each row hold this many cells).
    fn cols(&self) -> usize;
    /// Goes back to the first row.
    fn restart(&mut self);
    /// Writes the next row into `out` (padding bits zero).
    fn next_row(&mut self, out: &mut [u64]);
}

/// The rows of a [`Generate`] recipe, made as they are read.
pub struct GeneratedRows {
    recipe: Generate,
    cols: usize,
    rng: ChaCha8Rng,
}

impl GeneratedRows {
    /// The rows of `recipe` for boards `cols` wide.
    pub fn new(recipe: Generate, cols: usize) -> Self {
        GeneratedRows { recipe, cols, rng: recipe.rng() }
    }
}

impl RowStream for GeneratedRows {
    fn cols(&self) -> usize {
        self.cols
    }

    fn restart(&mut self) {
        self.rng = self.recipe.rng();
    }

    fn next_row(&mut self, out: &mut [u64]) {
        self.recipe.fill_row(&mut self.rng, out, self.cols);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streamed_rows_equal_the_whole_board() {
        for recipe in [
            Generate::AllBlack,
            Generate::Random { seed: 5, density: 0.5 },
            Generate::Random { seed: 5, density: 0.3 },
        ] {
            let board = recipe.board(7, 70);
            let mut rows = GeneratedRows::new(recipe, 70);
            let mut row = vec![0u64; 2];
            for _ in 0..2 {
                rows.restart();
                for r in 0..7 {
                    rows.next_row(&mut row);
                    assert_eq!(row, board.words(r));
                }
            }
        }
    }

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

    #[test]
    fn random_states_are_reproducible_and_uniform() {
        let recipe = Generate::Random { seed: 11, density: 0.5 };
        let a = recipe.states(60, 70, 5);
        assert_eq!(a, recipe.states(60, 70, 5));
        assert_ne!(a, Generate::Random { seed: 12, density: 0.5 }.states(60, 70, 5));
        // Each of the 5 states about 4200 / 5 = 840 times.
        let mut counts = [0usize; 5];
        a.cells().iter().for_each(|&s| counts[s as usize] += 1);
        assert!(counts.iter().all(|&c| (700..980).contains(&c)), "{counts:?}");
        assert_eq!(Generate::Random { seed: 1, density: 0.0 }.states(3, 3, 2), StateGrid::zeros(3, 3));
        assert!(Generate::AllWhite.states(3, 4, 9).is_zero());
    }
}
