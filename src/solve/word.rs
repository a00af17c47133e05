//! Boards of at most 64 cells, each in one machine word: the classic 4×4
//! stream (POJ 1753's 65,536 boards) and every small graph, solved with a
//! few dozen word operations instead of grids.
//!
//! The system is eliminated once into reduced row echelon form, keeping
//! the row operations `T` (so `T·A` is `A` reduced): a board's right-hand
//! side `b` is reachable exactly when the rows of `T` past the rank have
//! an even overlap with `b`, and then pressing pivot column `p_i` when
//! row `T_i` has an odd overlap solves it. That press set is mapped onto
//! the one the solver's own method gives (elimination or light chasing,
//! both linear in `b`: the press set of each column of `A`, precomputed),
//! so a board gets the very press set, and the very lightest member on a
//! tie, that it gets on the general path: a test holds the two equal on
//! every board of every size up to 16 cells.

use crate::model::{Grid, Puzzle};
use crate::solve::{FoundBy, Solution};

/// A factored system of at most 64 cells as words: bit `j` is cell `j` in
/// row-major order.
#[derive(Clone, Debug)]
pub(crate) struct WordSystem {
    cols: usize,
    /// Row `i` of `T` and its pivot column, for the rows of rank.
    pivots: Vec<(u64, u32)>,
    /// The rows of `T` past the rank: a reachable right-hand side has an
    /// even overlap with each.
    obstructions: Vec<u64>,
    /// The solver's own press set for each column of `A` (the cells one
    /// press flips), by linearity its press set for any reachable side.
    particular: Vec<u64>,
    /// The cells each press flips (column `j` of `A`), for the re-check.
    flips: Vec<u64>,
    /// The solver's quiet patterns, in its order.
    quiet: Vec<u64>,
}

impl WordSystem {
    /// The system of `puzzle` as words, when it has at most 64 cells;
    /// `particular` is the solver's press set for a reachable right-hand
    /// side, `quiet` its basis of quiet patterns.
    pub(crate) fn new(
        puzzle: &Puzzle,
        quiet: &[Grid],
        particular: impl Fn(&Grid) -> Option<Grid>,
    ) -> Option<WordSystem> {
        let n = puzzle.cells();
        if n > 64 || n == 0 {
            return None;
        }
        let cols = puzzle.cols();
        let flips: Vec<u64> = (0..n)
            .map(|j| {
                let cells = puzzle.flipped_by(j / cols, j % cols);
                cells.iter().fold(0u64, |word, &(r, c)| word ^ (1 << (r * cols + c)))
            })
            .collect();
        // Rows of A (cell i is flipped by press j) beside T, reduced.
        let mut rows: Vec<(u64, u64)> = (0..n)
            .map(|i| {
                let a = (0..n).filter(|&j| flips[j] >> i & 1 == 1).fold(0u64, |w, j| w | 1 << j);
                (a, 1u64 << i)
            })
            .collect();
        let mut pivot_cols = Vec::new();
        for col in 0..n {
            let rank = pivot_cols.len();
            let Some(found) = (rank..n).find(|&r| rows[r].0 >> col & 1 == 1) else { continue };
            rows.swap(rank, found);
            let pivot = rows[rank];
            for (r, row) in rows.iter_mut().enumerate() {
                if r != rank && row.0 >> col & 1 == 1 {
                    *row = (row.0 ^ pivot.0, row.1 ^ pivot.1);
                }
            }
            pivot_cols.push(col as u32);
        }
        // Read once reduced: later pivots change the rows of earlier ones.
        let pivots = rows.iter().zip(pivot_cols).map(|(row, col)| (row.1, col)).collect::<Vec<_>>();
        let obstructions = rows[pivots.len()..].iter().map(|row| row.1).collect();
        let particular = flips
            .iter()
            .map(|&column| particular(&to_grid(column, puzzle.rows(), cols)).map(|g| to_word(&g)))
            .collect::<Option<Vec<u64>>>()?;
        let quiet = quiet.iter().map(to_word).collect();
        Some(WordSystem { cols, pivots, obstructions, particular, flips, quiet })
    }

    /// Every cell: the right-hand side that turns a white board black.
    pub(crate) fn all_cells(&self) -> u64 {
        low_bits(self.flips.len())
    }

    /// The number of quiet patterns.
    pub(crate) fn nullity(&self) -> usize {
        self.quiet.len()
    }

    /// The solver's press set for right-hand side `rhs`, or `None` when
    /// it is not reachable.
    pub(crate) fn particular(&self, rhs: u64) -> Option<u64> {
        if self.obstructions.iter().any(|&t| (t & rhs).count_ones() % 2 == 1) {
            return None;
        }
        let own = self.pivots.iter().filter(|(t, _)| (t & rhs).count_ones() % 2 == 1);
        Some(own.fold(0, |x, &(_, col)| x ^ self.particular[col as usize]))
    }

    /// The lightest member of `x`'s coset, the first of the Gray-code walk
    /// on a tie (as `minimal::gray_walk` picks it).
    pub(crate) fn lightest(&self, x: u64) -> u64 {
        let (mut current, mut best) = (x, x);
        for step in 1u64..(1u64 << self.quiet.len()) {
            current ^= self.quiet[step.trailing_zeros() as usize];
            if current.count_ones() < best.count_ones() {
                best = current;
            }
        }
        best
    }

    /// The board `presses` make of `board`: the re-check, press by press.
    pub(crate) fn apply(&self, board: u64, presses: u64) -> u64 {
        let mut reached = board;
        let mut left = presses;
        while left != 0 {
            reached ^= self.flips[left.trailing_zeros() as usize];
            left &= left - 1;
        }
        reached
    }

    /// A grid of this system's shape from a word.
    pub(crate) fn grid(&self, word: u64) -> Grid {
        let cells = self.flips.len();
        to_grid(word, cells / self.cols, self.cols)
    }

    /// The solution of the lightest press set `presses` (the whole coset
    /// was walked: proven).
    #[inline]
    pub(crate) fn solution(&self, presses: u64) -> Solution {
        let weight = u64::from(presses.count_ones());
        Solution {
            presses: self.grid(presses),
            proven_minimal: true,
            lower_bound: weight,
            found_by: FoundBy::Search,
        }
    }
}

/// The cells of `grid` (at most 64) as a word, row after row.
pub(crate) fn to_word(grid: &Grid) -> u64 {
    let cols = grid.ncols();
    (0..grid.nrows()).fold(0u64, |word, r| {
        let row = grid.words(r).first().copied().unwrap_or(0);
        word | (row & low_bits(cols)) << (r * cols)
    })
}

fn to_grid(word: u64, rows: usize, cols: usize) -> Grid {
    let mut grid = Grid::zeros(rows, cols);
    for r in 0..rows {
        if let Some(first) = grid.words_mut(r).first_mut() {
            *first = word >> (r * cols) & low_bits(cols);
        }
    }
    grid
}

fn low_bits(n: usize) -> u64 {
    if n >= 64 { u64::MAX } else { (1 << n) - 1 }
}

#[cfg(test)]
mod tests {
    use crate::model::{Graph, Rule, Topology};
    use crate::{Game, Grid, Method, Puzzle, Solver, Target};

    /// Every board of `puzzle` to white, to black and to a target board
    /// (the board turned over), in words and on the general path: the
    /// same answers, press set for press set.
    fn same_as_general(puzzle: &Puzzle, method: Method) {
        let solver = Solver::new(puzzle, method, 32).unwrap();
        assert!(solver.word.is_some(), "{}x{} is solved in words", puzzle.rows(), puzzle.cols());
        let mut general = Solver::new(puzzle, method, 32).unwrap();
        general.word = None;
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        for cells in 0u64..1 << puzzle.cells() {
            let board = Grid::from_fn(rows, cols, |r, c| cells >> (r * cols + c) & 1 == 1);
            let mut turned = board.clone();
            turned.not_in_place();
            for target in [Target::White, Target::Black, Target::Board(turned)] {
                let fast = solver.solve_for(&board, &target).unwrap();
                let slow = general.solve_for(&board, &target).unwrap();
                assert_eq!(fast, slow, "{rows}x{cols} board {cells:#x} to {}", target.name());
            }
        }
    }

    #[test]
    fn every_board_up_to_16_cells_as_the_general_path_answers_it() {
        for (rows, cols) in [(1, 16), (2, 8), (4, 4), (8, 2), (16, 1), (3, 5), (5, 3), (1, 1), (2, 3)] {
            let puzzle = Puzzle::new(rows, cols).unwrap();
            for method in [Method::Chase, Method::Dense] {
                same_as_general(&puzzle, method);
            }
        }
    }

    #[test]
    fn every_rule_and_topology_and_a_graph_as_the_general_path_answers_them() {
        for rule in
            [Rule::plus(), Rule::neighbours(), Rule::king(), Rule::from_offsets([(0, 0), (1, 1), (-1, 2)])]
        {
            for topology in [Topology::Plane, Topology::Torus] {
                for (rows, cols) in [(3, 4), (2, 5), (3, 3)] {
                    let puzzle =
                        Puzzle::new(rows, cols).unwrap().with_topology(topology).with_rule(rule.clone());
                    same_as_general(&puzzle, Method::Dense);
                }
            }
        }
        let petersen = Graph::named("petersen").unwrap();
        same_as_general(&Puzzle::on_graph(petersen, Rule::plus()).unwrap(), Method::Dense);
    }

    /// Past 64 cells, or past the Gray-code walk's nullities, the general
    /// path answers.
    #[test]
    fn only_small_boards_with_small_kernels_are_solved_in_words() {
        let solver = |r, c| Solver::new(&Puzzle::new(r, c).unwrap(), Method::Auto, 32).unwrap();
        assert!(solver(8, 8).word.is_some());
        assert!(solver(8, 9).word.is_none());
        // 5x5 has nullity 2, 4x4 4; a 1x64 row has 0 and a 64x1 column too.
        assert!(solver(1, 64).word.is_some() && solver(5, 5).word.is_some());
    }
}
