//! Light chasing as a person does it, step by step (the method Jaap's
//! Lights Out pages teach): chase the lights down, look the last row up,
//! press the first row, chase again.
//!
//! On the classic puzzle (the plus rule on the plane, two states) pressing
//! the cell below a lit cell turns that light out and touches nothing above
//! it. So pressing, row after row, below every lit cell of the row above
//! leaves lights on the last row only. Which last rows can be cleared, and
//! how, is a question about the first row alone: pressing first-row cells
//! `p` on a dark board and chasing leaves the last-row lights `K·p`, for a
//! C×C matrix `K` over GF(2) that depends only on the size. A board whose
//! chase leaves the last row `L` is cleared by pressing a `p` with
//! `K·p = L` and chasing again (presses add up over GF(2), so the second
//! chase ends on `L + K·p = 0`); when no such `p` exists, no presses at all
//! clear the board. The kernel of `K` has the puzzle's nullity as its
//! dimension (a first row in it chases to a quiet pattern), so every
//! solvable last row has 2^nullity first rows: [`LightChase`] picks the one
//! with the fewest presses.
//!
//! [`Chase`](crate::solve::Chase) solves the same equation by polynomials,
//! fast and for any size; this module keeps every step a person makes, for
//! the page to show.

use crate::error::Error;
use crate::gf2::{BitVector, Echelon, words, zeros};
use crate::model::{Grid, Puzzle};

/// Largest nullity up to which the lookup weighs every first row that
/// clears a last row, to pick the one with the fewest presses (2^16 first
/// rows, each an XOR and a count of at most 4 words at the server's 256
/// columns). Above it, the lookup answers the first row elimination gives.
pub const LIGHTEST_FIRST_ROW_NULLITY: usize = 16;

/// The lookup of light chasing for one size: which first-row presses clear
/// each last row, factored once for every board of that size.
///
/// # Complexity
/// Setup: C chases of a first-row press, O(R·C²/64), and the elimination
/// of the C×C matrix `K`, O(C³/64). Each [`walk`](Self::walk): two chases
/// a press at a time (each step is listed), O(R·C), and a lookup, O(C²)
/// plus 2^nullity · C/64 to find the fewest presses (up to
/// [`LIGHTEST_FIRST_ROW_NULLITY`]); [`can_clear`](Self::can_clear): one
/// chase a row of words at a time, O(R·C/64), and the lookup's O(C²).
///
/// # Example
/// ```
/// use lightsout::{Grid, Puzzle};
/// use lightsout::analysis::LightChase;
///
/// // The classic 5x5: a cross in the middle.
/// let puzzle = Puzzle::new(5, 5)?;
/// let chase = LightChase::new(&puzzle)?;
/// assert_eq!((chase.nullity(), chase.first_rows_per_last_row()), (2, 4));
/// let board = Grid::from_fn(5, 5, |r, c| (r == 2 && (1..4).contains(&c)) || (c == 2 && (1..4).contains(&r)));
/// let walk = chase.walk(&board)?;
/// // The first chase leaves lights on the last row only, and the lookup
/// // names the first-row presses that clear them.
/// assert!(walk.first_row.is_some());
/// assert!(puzzle.apply(&board, &walk.presses().unwrap()).is_zero());
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct LightChase {
    rows: usize,
    cols: usize,
    /// `K` factored: first-row presses to the last row's lights after the
    /// chase of a dark board.
    lookup: Echelon,
    /// A basis of the kernel of `K`: first rows that chase to nothing left.
    kernel: Vec<BitVector>,
}

/// One board chased by hand, step by step. Rows and columns count from 0;
/// a step's presses are the columns pressed in one row.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ChaseWalk {
    /// The first chase: `first_chase[i]` is the columns pressed in row
    /// `i + 1`, below the lights row `i` showed then (empty when it had
    /// none). R − 1 steps.
    pub first_chase: Vec<Vec<usize>>,
    /// The columns lit on the last row after the first chase.
    pub last_row: Vec<usize>,
    /// The first-row columns the lookup gives for that last row (empty when
    /// it is already dark), or `None` when no first row clears it: then no
    /// presses at all clear the board.
    pub first_row: Option<Vec<usize>>,
    /// The second chase, after the first-row presses: as `first_chase`
    /// (empty when `first_row` is `None`).
    pub second_chase: Vec<Vec<usize>>,
    /// The size chased.
    rows: usize,
    cols: usize,
}

impl ChaseWalk {
    /// Every press of the walk, in order: (row, column) of the first chase,
    /// the first row, the second chase.
    pub fn steps(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        chased(&self.first_chase)
            .chain(self.first_row.iter().flatten().map(|&c| (0, c)))
            .chain(chased(&self.second_chase))
    }

    /// How many presses the walk makes (a cell pressed twice counted twice).
    pub fn press_count(&self) -> usize {
        self.steps().count()
    }

    /// The presses that clear the board (each cell pressed an odd number
    /// of times by the walk), or `None` when it cannot be cleared.
    pub fn presses(&self) -> Option<Grid> {
        self.first_row.as_ref()?;
        let mut presses = Grid::zeros(self.rows, self.cols);
        for (r, c) in self.steps() {
            presses.toggle(r, c);
        }
        Some(presses)
    }
}

impl LightChase {
    /// Sets up the lookup of `puzzle`'s size.
    ///
    /// # Errors
    /// [`Error::Unsupported`] when the puzzle is not the classic rule on
    /// the plane (another rule, a torus or a graph): pressing below a light
    /// would then touch the rows above, or there are no rows to chase.
    pub fn new(puzzle: &Puzzle) -> Result<Self, Error> {
        if !puzzle.is_classic() {
            return Err(Error::Unsupported(
                "light chasing needs the plus rule on the plane (not another rule, a torus or a graph)"
                    .into(),
            ));
        }
        let (rows, cols) = (puzzle.rows(), puzzle.cols());
        // Column j of K is the last row a press of first-row cell j leaves
        // after the chase; the echelon form wants K by rows.
        let mut k_rows = vec![Vec::new(); cols];
        for j in 0..cols {
            let mut first = zeros(cols);
            first.set(j, true);
            for i in last_row_after_chase(rows, cols, None, first).iter_ones() {
                k_rows[i].push(j);
            }
        }
        let lookup = Echelon::from_rows(cols, &k_rows);
        let kernel = lookup.null_space();
        Ok(LightChase { rows, cols, lookup, kernel })
    }

    /// The dimension of the kernel of `K`: the puzzle's nullity.
    pub fn nullity(&self) -> usize {
        self.kernel.len()
    }

    /// How many first rows clear each last row that can be cleared:
    /// 2^nullity (saturating).
    pub fn first_rows_per_last_row(&self) -> u64 {
        1u64.checked_shl(self.nullity() as u32).unwrap_or(u64::MAX)
    }

    /// The first-row presses (columns) that clear the last row `lit`
    /// (columns) after a chase, the fewest there are (up to
    /// [`LIGHTEST_FIRST_ROW_NULLITY`]; ties go to the first found), or
    /// `None` when no first row does.
    ///
    /// # Panics
    /// If a column is `cols` or more.
    pub fn lookup(&self, lit: &[usize]) -> Option<Vec<usize>> {
        let mut last = zeros(self.cols);
        for &c in lit {
            last.set(c, true);
        }
        let first = self.lookup.solve(&last)?;
        Some(self.lightest(first).iter_ones().collect())
    }

    /// The member of `first + span(kernel)` with the fewest ones, walked in
    /// Gray-code order (one XOR a member).
    fn lightest(&self, first: BitVector) -> BitVector {
        if self.kernel.len() > LIGHTEST_FIRST_ROW_NULLITY {
            return first;
        }
        let mut current = first;
        let mut best = current.clone();
        for step in 1u64..1 << self.kernel.len() {
            words::xor(
                current.as_raw_mut_slice(),
                self.kernel[step.trailing_zeros() as usize].as_raw_slice(),
            );
            if current.count_ones() < best.count_ones() {
                best.clone_from(&current);
            }
        }
        best
    }

    /// Whether chasing clears `board`: its last row after one chase is one
    /// the lookup has a first row for. The walk's verdict, without its
    /// steps: three rows of memory.
    ///
    /// # Panics
    /// If the board is not of the lookup's size.
    pub fn can_clear(&self, board: &Grid) -> bool {
        assert_eq!((board.nrows(), board.ncols()), (self.rows, self.cols), "board shape mismatch");
        let last = last_row_after_chase(self.rows, self.cols, Some(board), zeros(self.cols));
        self.lookup.solve(&last).is_some()
    }

    /// Chases `board` by hand: down once, the lookup, the first row, down
    /// again. The walk is re-checked: when it claims to clear the board,
    /// its presses do.
    ///
    /// # Errors
    /// [`Error::Shape`] when the board is not of the lookup's size;
    /// [`Error::Internal`] if the walk fails its re-check (a bug).
    pub fn walk(&self, board: &Grid) -> Result<ChaseWalk, Error> {
        let found = (board.nrows(), board.ncols());
        if found != (self.rows, self.cols) {
            return Err(Error::Shape {
                of: crate::error::ShapeOf::Board,
                found,
                expected: (self.rows, self.cols),
            });
        }
        let mut lights = board.clone();
        let first_chase = chase_down(&mut lights);
        let last_row: Vec<usize> = lights.row(self.rows - 1).iter_ones().collect();
        let Some(first_row) = self.lookup(&last_row) else {
            return Ok(ChaseWalk {
                first_chase,
                last_row,
                first_row: None,
                second_chase: Vec::new(),
                rows: self.rows,
                cols: self.cols,
            });
        };
        press(&mut lights, 0, &first_row);
        let second_chase = chase_down(&mut lights);
        if !lights.is_zero() {
            return Err(Error::Internal(format!(
                "light chasing a {}x{} board: the looked-up first row left lights after the second chase",
                self.rows, self.cols
            )));
        }
        let walk = ChaseWalk {
            first_chase,
            last_row,
            first_row: Some(first_row),
            second_chase,
            rows: self.rows,
            cols: self.cols,
        };
        Ok(walk)
    }
}

/// Chases `puzzle`'s `board` by hand ([`LightChase::walk`] of a lookup
/// set up for this one board).
///
/// # Errors
/// As [`LightChase::new`] and [`LightChase::walk`].
pub fn chase_lights(puzzle: &Puzzle, board: &Grid) -> Result<ChaseWalk, Error> {
    LightChase::new(puzzle)?.walk(board)
}

/// The lights the last row of `board` (or of a dark board) shows after
/// pressing `first` on the first row and chasing, computed a row of words
/// at a time with three rows of memory: row i + 1 presses what row i
/// shows, its own lights flipped by the presses on it, beside it and above.
fn last_row_after_chase(rows: usize, cols: usize, board: Option<&Grid>, first: BitVector) -> BitVector {
    let (mut above, mut current, mut next) = (zeros(cols), first, zeros(cols));
    for r in 0..rows {
        let lights = next.as_raw_mut_slice();
        words::spread_row(current.as_raw_slice(), lights, cols);
        words::xor(lights, above.as_raw_slice());
        if let Some(board) = board {
            words::xor(lights, board.words(r));
        }
        std::mem::swap(&mut above, &mut current);
        std::mem::swap(&mut current, &mut next);
    }
    // After the last row, `current` is what it shows, not a press row.
    current
}

/// The presses of a chase's steps, as (row, column): step `i` presses
/// row `i + 1`.
fn chased(steps: &[Vec<usize>]) -> impl Iterator<Item = (usize, usize)> + '_ {
    steps.iter().enumerate().flat_map(|(i, cols)| cols.iter().map(move |&c| (i + 1, c)))
}

/// Presses `cols` of row `r` of `board` with the plus rule on the plane.
fn press(board: &mut Grid, r: usize, cols: &[usize]) {
    let (rows, width) = (board.nrows(), board.ncols());
    for &c in cols {
        board.toggle(r, c);
        if c > 0 {
            board.toggle(r, c - 1);
        }
        if c + 1 < width {
            board.toggle(r, c + 1);
        }
        if r > 0 {
            board.toggle(r - 1, c);
        }
        if r + 1 < rows {
            board.toggle(r + 1, c);
        }
    }
}

/// Presses below every lit cell of each row but the last, top to bottom,
/// on `board`; returns the columns pressed in each row from the second.
fn chase_down(board: &mut Grid) -> Vec<Vec<usize>> {
    (1..board.nrows())
        .map(|r| {
            let lit: Vec<usize> = board.row(r - 1).iter_ones().collect();
            press(board, r, &lit);
            lit
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solve::Dense;

    /// Board `bits` of a size of at most 64 cells, row-major from bit 0.
    fn board_of(rows: usize, cols: usize, bits: u64) -> Grid {
        Grid::from_fn(rows, cols, |r, c| bits >> (r * cols + c) & 1 == 1)
    }

    /// The walk of every 4x4 board: its verdict is the solver's, its
    /// presses clear the board, and each step pressed below the lights of
    /// the row above.
    #[test]
    fn the_walk_of_every_4x4_board_clears_it_when_the_solver_can() {
        let puzzle = Puzzle::new(4, 4).unwrap();
        let chase = LightChase::new(&puzzle).unwrap();
        let solver = Dense::new(&puzzle);
        assert_eq!(chase.nullity(), solver.nullity());
        let mut cleared = 0;
        for bits in 0..1u64 << 16 {
            let board = board_of(4, 4, bits);
            let walk = chase.walk(&board).unwrap();
            let solvable = solver.particular(&board).is_some();
            assert_eq!(walk.presses().is_some(), solvable, "board {bits:#x}");
            assert_eq!(chase.can_clear(&board), solvable, "board {bits:#x}");
            if let Some(presses) = walk.presses() {
                assert!(puzzle.apply(&board, &presses).is_zero(), "board {bits:#x}");
                cleared += 1;
            }
            // The first chase by hand: after each step the row above is dark.
            let mut lights = board.clone();
            for (i, step) in walk.first_chase.iter().enumerate() {
                assert_eq!(lights.row(i).iter_ones().collect::<Vec<_>>(), *step, "board {bits:#x}");
                press(&mut lights, i + 1, step);
            }
            assert_eq!(lights.row(3).iter_ones().collect::<Vec<_>>(), walk.last_row);
        }
        // 4x4 has nullity 4: one board in 16 can be cleared.
        assert_eq!(cleared, 1 << 12);
    }

    /// Every 5x5 board: chasing clears it exactly when the solver can. The
    /// solver's verdict for each of the 2^25 boards is its obstruction
    /// test (the flip matrix is symmetric: a board can be cleared when it
    /// meets every quiet pattern of the solver evenly), and elimination's
    /// own answer on every 2^10th, with the walk and its presses.
    #[test]
    fn chasing_clears_every_5x5_board_the_solver_can_and_only_those() {
        let puzzle = Puzzle::new(5, 5).unwrap();
        let chase = LightChase::new(&puzzle).unwrap();
        let solver = Dense::new(&puzzle);
        let mask = |g: &Grid| (0..5).fold(0u64, |m, r| m | g.words(r)[0] << (5 * r));
        let quiet: Vec<u64> = solver.quiet_patterns().iter().map(mask).collect();
        assert_eq!(quiet.len(), 2);
        let mut board = Grid::zeros(5, 5);
        let mut cleared = 0u64;
        for bits in 0..1u64 << 25 {
            for r in 0..5 {
                board.words_mut(r)[0] = bits >> (5 * r) & 0b11111;
            }
            let solvable = quiet.iter().all(|q| (bits & q).count_ones() % 2 == 0);
            assert_eq!(chase.can_clear(&board), solvable, "board {bits:#x}");
            cleared += u64::from(solvable);
            if bits % 1024 == 7 {
                assert_eq!(solver.particular(&board).is_some(), solvable, "board {bits:#x}");
                let presses = chase.walk(&board).unwrap().presses();
                assert_eq!(presses.is_some(), solvable, "board {bits:#x}");
                assert!(presses.is_none_or(|p| puzzle.apply(&board, &p).is_zero()), "board {bits:#x}");
            }
        }
        assert_eq!(cleared, 1 << 23);
    }

    #[test]
    fn the_5x5_lookup_is_as_light_as_jaaps_table() {
        // Each last row a 5x5 chase can leave, with first-row presses that
        // clear it as Jaap's pages list them: the lookup's choice clears it
        // too, with as few presses.
        let puzzle = Puzzle::new(5, 5).unwrap();
        let chase = LightChase::new(&puzzle).unwrap();
        let solvable = (0..32u32).filter(|&m| chase.lookup(&ones(m)).is_some()).count();
        assert_eq!(solvable, 8, "rank 3: 8 last rows");
        let columns = |row: &str| row.match_indices('x').map(|(i, _)| i).collect::<Vec<_>>();
        for (last, first) in [
            ("x...x", "xx..."),
            (".x.x.", "x..x."),
            ("xxx..", ".x..."),
            ("..xxx", "...x."),
            ("x.xx.", "....x"),
            (".xx.x", "x...."),
            ("xx.xx", "..x.."),
        ] {
            let board = Grid::from_fn(5, 5, |r, c| r == 4 && last.as_bytes()[c] == b'x');
            let found = chase.lookup(&columns(last)).unwrap();
            for row in [columns(first), found.clone()] {
                let mut lights = board.clone();
                press(&mut lights, 0, &row);
                chase_down(&mut lights);
                assert!(lights.is_zero(), "{last}: the first row {row:?} leaves lights");
            }
            assert_eq!(found.len(), columns(first).len(), "{last}: {found:?}");
        }
    }

    fn ones(mask: u32) -> Vec<usize> {
        (0..32).filter(|&i| mask >> i & 1 == 1).collect()
    }

    #[test]
    fn the_kernel_is_the_nullity_and_other_rules_are_refused() {
        for (rows, cols) in [(1, 1), (1, 5), (3, 3), (4, 5), (5, 4), (9, 9), (17, 17), (19, 7), (70, 65)] {
            let puzzle = Puzzle::new(rows, cols).unwrap();
            let chase = LightChase::new(&puzzle).unwrap();
            assert_eq!(chase.nullity(), Dense::new(&puzzle).nullity(), "{rows}x{cols}");
            // A board made by presses is cleared by its walk.
            let presses = Grid::from_fn(rows, cols, |r, c| (r * 7 + c * 3) % 5 == 1);
            let board = puzzle.apply(&Grid::zeros(rows, cols), &presses);
            let walk = chase.walk(&board).unwrap();
            assert!(puzzle.apply(&board, &walk.presses().unwrap()).is_zero(), "{rows}x{cols}");
        }
        let torus = Puzzle::new(5, 5).unwrap().with_topology(crate::Topology::Torus);
        assert!(matches!(LightChase::new(&torus), Err(Error::Unsupported(_))));
        let king = Puzzle::new(5, 5).unwrap().with_rule(crate::Rule::king());
        assert!(matches!(LightChase::new(&king), Err(Error::Unsupported(_))));
        let chase = LightChase::new(&Puzzle::new(5, 5).unwrap()).unwrap();
        assert!(matches!(chase.walk(&Grid::zeros(4, 5)), Err(Error::Shape { .. })));
    }
}
