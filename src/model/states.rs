//! Boards of K states: one small number per cell.
//!
//! The two-state game keeps its bit-packed [`Grid`](super::Grid); a board
//! of K > 2 states (and a press set, where a cell may be pressed 0 to K−1
//! times) is a [`StateGrid`]. A board on a graph is a `StateGrid` of one
//! row, the vertices in order.

/// A `rows × cols` rectangle of states `0..K`, stored row by row.
///
/// The type does not know K: the puzzle and the solver that read it do,
/// and every parser checks each state against it.
///
/// # Example
/// ```
/// use lightsout::StateGrid;
///
/// let mut g = StateGrid::zeros(2, 3);
/// g.set(1, 2, 4);
/// assert_eq!((g.get(1, 2), g.total()), (4, 4));
/// assert_eq!(g.cells(), &[0, 0, 0, 0, 0, 4]);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateGrid {
    rows: usize,
    cols: usize,
    cells: Vec<u8>,
}

impl StateGrid {
    /// Every cell in state 0.
    pub fn zeros(rows: usize, cols: usize) -> Self {
        Self::filled(rows, cols, 0)
    }

    /// Every cell in state `state`.
    pub fn filled(rows: usize, cols: usize, state: u8) -> Self {
        StateGrid { rows, cols, cells: vec![state; rows * cols] }
    }

    /// A grid from its cells, row by row; `None` unless there are exactly
    /// `rows · cols` of them.
    pub fn from_cells(rows: usize, cols: usize, cells: Vec<u8>) -> Option<Self> {
        (cells.len() == rows * cols).then_some(StateGrid { rows, cols, cells })
    }

    /// Builds a grid from a function of (row, column).
    pub fn from_fn(rows: usize, cols: usize, mut f: impl FnMut(usize, usize) -> u8) -> Self {
        let cells = (0..rows * cols).map(|i| f(i / cols.max(1), i % cols.max(1))).collect();
        StateGrid { rows, cols, cells }
    }

    /// The two-state grid as states 0 and 1.
    pub fn from_bits(grid: &super::Grid) -> Self {
        Self::from_fn(grid.nrows(), grid.ncols(), |r, c| u8::from(grid.get(r, c)))
    }

    /// Number of rows.
    pub fn nrows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn ncols(&self) -> usize {
        self.cols
    }

    /// The state of cell (`r`, `c`).
    pub fn get(&self, r: usize, c: usize) -> u8 {
        self.cells[r * self.cols + c]
    }

    /// Sets cell (`r`, `c`) to `state`.
    pub fn set(&mut self, r: usize, c: usize, state: u8) {
        self.cells[r * self.cols + c] = state;
    }

    /// The cells, row by row.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The cells, row by row, to change.
    pub fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }

    /// Row `r`.
    pub fn row(&self, r: usize) -> &[u8] {
        &self.cells[r * self.cols..(r + 1) * self.cols]
    }

    /// The sum of the cells: for a press set, the number of presses (a cell
    /// pressed three times counts three).
    pub fn total(&self) -> u64 {
        self.cells.iter().map(|&s| u64::from(s)).sum()
    }

    /// Whether every cell is in state 0.
    pub fn is_zero(&self) -> bool {
        self.cells.iter().all(|&s| s == 0)
    }

    /// The largest state of any cell (0 for an empty grid).
    pub fn max_state(&self) -> u8 {
        self.cells.iter().copied().max().unwrap_or(0)
    }
}
