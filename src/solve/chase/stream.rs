//! Boards too large to hold, solved as they stream past: a pass to find
//! the first row, one to weigh the solution coset, one to chase the
//! lightest and hand its rows out. Memory is a few rows, O(C).

use super::{Chase, Stream, cofactor_first_rows};
use crate::error::Error;
use crate::gf2::{BitVector, words, zeros};
use crate::model::{Grid, RowStream};
use crate::solve::Target;

/// Largest nullity a streamed solve enumerates (a table of 2^d counters).
pub const MAX_STREAMED_NULLITY: usize = 24;

/// Word operations a streamed solve spends weighing its coset (about a
/// minute): 2^d members times R·C/64 words.
const STREAMED_WORK: u64 = 1 << 36;

impl Chase {
    /// Solves a board that arrives row by row, holding only a few rows at a
    /// time: the way to boards too large to keep in memory. Returns the
    /// fewest presses to reach `target` (`None` if it cannot be reached) and
    /// whether that is proven minimal; every press row is handed to `sink`
    /// in order, and re-applied to the board as it passes.
    ///
    /// Passes over the board: one to find the first row, one to weigh the
    /// 2^d members of the solution coset (only when the nullity `d` is
    /// positive and at most `max_nullity`, and the weighing, 2^d·R·C/64 word
    /// operations, stays within about a minute), one to chase the lightest,
    /// check it and hand it out.
    ///
    /// # Errors
    /// [`Error::Unsupported`] if the puzzle has fewer rows than columns (streamed
    /// boards are not transposed) or `max_nullity` is above
    /// [`MAX_STREAMED_NULLITY`]; [`Error::Internal`] if the re-check fails;
    /// any error of `sink`.
    ///
    /// # Complexity
    /// O((2 + 2^d) · R·C / 64) word operations, O(d · C / 64) words of memory
    /// beside the 2^d counters.
    pub fn solve_streamed(
        &self,
        board: &mut dyn RowStream,
        target: &Target,
        max_nullity: usize,
        sink: &mut dyn FnMut(&[u64]) -> Result<(), Error>,
    ) -> Result<Option<(u64, bool)>, Error> {
        if self.transposed {
            return Err(Error::Unsupported(
                "a streamed board must have at least as many rows as columns".into(),
            ));
        }
        if max_nullity > MAX_STREAMED_NULLITY {
            return Err(Error::Unsupported(format!(
                "a streamed board can enumerate a nullity of at most {MAX_STREAMED_NULLITY}"
            )));
        }
        let target_row = match target {
            Target::White => zeros(self.cols),
            Target::Black => Grid::ones(1, self.cols).row(0).to_bitvec(),
            Target::Board(_) => {
                return Err(Error::Unsupported(
                    "a streamed board is solved to a colour, not to a given board".into(),
                ));
            }
        };
        let Some(mut first) = self.streamed_first_row(board, &target_row) else {
            return Ok(None);
        };
        // Weighing costs 2^d row walks per row; past the budget the
        // particular solution is reported, not proven minimal.
        let nullity = self.nullity();
        let work = (1u64 << nullity.min(63)).saturating_mul((self.rows * self.cols / 64) as u64);
        let proven = nullity <= max_nullity && work <= STREAMED_WORK;
        if nullity > 0 && proven {
            self.lighten_streamed(board, &target_row, &mut first);
        }
        let presses = self.chase_streamed(board, &target_row, first, sink)?;
        // No presses at all cannot be beaten, whatever the nullity.
        Ok(Some((presses, proven || presses == 0)))
    }

    /// Pass 1 of a streamed solve: the first row that clears the board to
    /// `target_row`, from the residual of an empty first row (`None` if the
    /// target cannot be reached).
    fn streamed_first_row(&self, board: &mut dyn RowStream, target_row: &BitVector) -> Option<BitVector> {
        let mut chase = Stream::new(zeros(self.cols));
        let mut row = zeros(self.cols);
        board.restart();
        for _ in 0..self.rows {
            board.next_row(row.as_raw_mut_slice());
            words::xor(row.as_raw_mut_slice(), target_row.as_raw_slice());
            chase.step(row.as_raw_slice(), self.cols);
        }
        self.first_row(&chase.current)
    }

    /// Pass 2: weighs every member of the coset, a row at a time (2^d
    /// counters), and moves `first` to the lightest member's first row.
    fn lighten_streamed(&self, board: &mut dyn RowStream, target_row: &BitVector, first: &mut BitVector) {
        let nullity = self.nullity();
        let cofactor = self.modulus.div_rem(&self.gcd).0;
        let mut quiet: Vec<Stream> =
            (0..nullity).map(|i| Stream::new(self.poly_to_vector(&cofactor.shifted(i)))).collect();
        let mut chase = Stream::new(first.clone());
        let mut totals = vec![0u64; 1 << nullity];
        let (mut combination, mut row, empty) = (zeros(self.cols), zeros(self.cols), zeros(self.cols));
        board.restart();
        for _ in 0..self.rows {
            // Weigh the press rows the chases hold now, then advance them.
            combination.copy_from_bitslice(&chase.current);
            let combination = combination.as_raw_mut_slice();
            totals[0] += words::count_ones(combination) as u64;
            for step in 1usize..1 << nullity {
                let quiet_row = &quiet[step.trailing_zeros() as usize].current;
                words::xor(combination, quiet_row.as_raw_slice());
                totals[step ^ (step >> 1)] += words::count_ones(combination) as u64;
            }
            board.next_row(row.as_raw_mut_slice());
            words::xor(row.as_raw_mut_slice(), target_row.as_raw_slice());
            chase.step(row.as_raw_slice(), self.cols);
            for q in &mut quiet {
                q.step(empty.as_raw_slice(), self.cols);
            }
        }
        let best = (0..totals.len()).min_by_key(|&s| totals[s]).unwrap_or(0);
        for (i, q) in cofactor_first_rows(self, &cofactor).iter().enumerate() {
            if best >> i & 1 == 1 {
                words::xor(first.as_raw_mut_slice(), q.as_raw_slice());
            }
        }
    }

    /// Pass 3: chases `first`, re-applies every press row to the board as
    /// it goes (row i is final once row i+1 is known), hands the rows to
    /// `sink`, and returns how many presses there were.
    fn chase_streamed(
        &self,
        board: &mut dyn RowStream,
        target_row: &BitVector,
        first: BitVector,
        sink: &mut dyn FnMut(&[u64]) -> Result<(), Error>,
    ) -> Result<u64, Error> {
        let mut presses = 0u64;
        let mut chase = Stream::new(first);
        let (mut board_row, mut next_board_row) = (zeros(self.cols), zeros(self.cols));
        let (mut rhs, mut reached, empty) = (zeros(self.cols), zeros(self.cols), zeros(self.cols));
        board.restart();
        board.next_row(board_row.as_raw_mut_slice());
        for i in 0..self.rows {
            presses += chase.current.count_ones() as u64;
            sink(chase.current.as_raw_slice())?;
            rhs.copy_from_bitslice(&board_row);
            words::xor(rhs.as_raw_mut_slice(), target_row.as_raw_slice());
            chase.step(rhs.as_raw_slice(), self.cols);
            // After the step the chase holds row i's presses as `above`, the
            // row before as `lights` (its spare buffer) and row i+1's as
            // `current`: re-apply all three to board row i.
            let below = if i + 1 < self.rows { &chase.current } else { &empty };
            let out = reached.as_raw_mut_slice();
            words::spread_row(chase.above.as_raw_slice(), out, self.cols);
            words::xor(out, chase.lights.as_raw_slice());
            words::xor(out, below.as_raw_slice());
            words::xor(out, board_row.as_raw_slice());
            if reached != *target_row {
                return Err(Error::Internal(format!("streamed press row {i} failed its re-check")));
            }
            if i + 1 < self.rows {
                board.next_row(next_board_row.as_raw_mut_slice());
                std::mem::swap(&mut board_row, &mut next_board_row);
            }
        }
        Ok(presses)
    }
}
