//! The puzzle model: boards, the press rule, and the flip matrix they define.
//!
//! A board is a [`Grid`] with one bit per cell, `1` for a piece with its black
//! side up. A press set is a `Grid` too, `1` where a cell is pressed. The
//! [`Puzzle`] says which cells a press flips (its [`Rule`] and [`Topology`],
//! or its [`Graph`]), and so defines the linear map `A` from press sets to
//! flips over GF(2).

mod generate;
mod graph;
mod pbm;
mod pgm;
mod rule;
mod states;
mod text;

pub use generate::{Generate, GeneratedRows, MAX_SOLVABLE_CELLS, RowStream, random_solvable};
pub use graph::{Graph, GraphShape, Layout, MAX_EDGES, MAX_VERTICES};
pub use pbm::{PbmKind, PbmWriter, is_pbm, read_pbm, write_pbm};
pub use pgm::{is_pgm, read_pgm, write_pgm};
pub use rule::{NAMED_RULES, NamedRule, Rule, Topology};
pub use states::StateGrid;
#[cfg(feature = "cli")]
pub(crate) use text::{BitRows, MAX_LINE, Pieces, PipedBoards, Sides, StateRows};
pub use text::{
    StateBoards, TextBoards, grid_lines, parse_boards, parse_state_boards, state_lines, state_row_width,
};

use std::sync::Arc;

use crate::error::{Error, Side};
use crate::gf2::{BitMatrix, words, zeros};

/// A rectangle of cells, one bit each, stored row by row.
pub type Grid = BitMatrix;

/// Largest number of cells on either side of a board.
///
/// Keeps every cell index and every size product well inside `usize`.
pub const MAX_SIDE: usize = 1 << 20;

/// Refuses a board side of 0 or more than [`MAX_SIDE`].
///
/// # Errors
/// [`Error::BadSide`] naming the side.
pub fn check_side(side: Side, value: usize) -> Result<(), Error> {
    if value == 0 || value > MAX_SIDE {
        return Err(Error::BadSide { side, value, max: MAX_SIDE });
    }
    Ok(())
}

/// A board shape with its press rule: everything but the colours.
///
/// On a grid, a press flips the cells at the rule's offsets (wrapped on a
/// torus). On a [`Graph`] ([`on_graph`](Self::on_graph)), the board is one
/// row of `n` cells, vertex `v` in column `v`, and a press flips the
/// vertex's neighbours, and the vertex itself under [`Rule::plus`]: so
/// everything built on [`press_lists`](Self::press_lists),
/// [`flipped_by`](Self::flipped_by) and [`apply`](Self::apply) serves graphs
/// unchanged. The graph is shared (an `Arc`), so cloning a puzzle is cheap.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Puzzle {
    rows: usize,
    cols: usize,
    topology: Topology,
    rule: Rule,
    graph: Option<Arc<Graph>>,
}

impl Puzzle {
    /// The classic puzzle on a plane `rows × cols` board.
    ///
    /// # Errors
    /// [`Error::BadSide`] when a side is 0 or larger than [`MAX_SIDE`].
    pub fn new(rows: usize, cols: usize) -> Result<Self, Error> {
        check_side(Side::Rows, rows)?;
        check_side(Side::Cols, cols)?;
        Ok(Puzzle { rows, cols, topology: Topology::Plane, rule: Rule::plus(), graph: None })
    }

    /// The puzzle on a graph: `rule` is [`Rule::plus`] (σ⁺: a press flips
    /// the vertex and its neighbours) or [`Rule::neighbours`] (σ: the
    /// neighbours only). A board is `1 × n`, vertex `v` in column `v`.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for any other rule (offsets on a grid mean
    /// nothing on a graph); [`Error::BadInput`] for a graph without
    /// vertices.
    ///
    /// # Example
    /// ```
    /// use lightsout::{Game, Graph, Grid, Method, Puzzle, Rule, Solver, Target};
    ///
    /// // On the Petersen graph, σ⁺: the all-black board to white.
    /// let puzzle = Puzzle::on_graph(Graph::named("petersen")?, Rule::plus())?;
    /// assert_eq!((puzzle.rows(), puzzle.cols()), (1, 10));
    /// let solver = Solver::new(&puzzle, Method::Dense, 32)?;
    /// let all_black = Grid::from_fn(1, 10, |_, _| true);
    /// let best = solver.solve_for(&all_black, &Target::White)?.expect("Sutner: always solvable");
    /// assert!(solver.puzzle().apply(&all_black, &best.presses).is_zero());
    /// assert_eq!(puzzle.flipped_by(0, 5), vec![(0, 0), (0, 5), (0, 7), (0, 8)]);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn on_graph(graph: impl Into<Arc<Graph>>, rule: Rule) -> Result<Self, Error> {
        let graph = graph.into();
        if rule != Rule::plus() && rule != Rule::neighbours() {
            return Err(Error::Unsupported(format!(
                "a puzzle on a graph presses a vertex and its neighbours (plus) or its neighbours only \
                 (neighbours), not the rule {rule}"
            )));
        }
        if graph.vertex_count() == 0 {
            return Err(Error::BadInput("a puzzle on a graph needs at least one vertex".into()));
        }
        let cols = graph.vertex_count();
        Ok(Puzzle { rows: 1, cols, topology: Topology::Plane, rule, graph: Some(graph) })
    }

    /// The graph of a puzzle made by [`on_graph`](Self::on_graph), `None` on a grid.
    ///
    /// # Example
    /// ```
    /// use lightsout::{Graph, Puzzle, Rule};
    ///
    /// let cube = Puzzle::on_graph(Graph::named("cube")?, Rule::neighbours())?;
    /// assert_eq!(cube.graph().map(Graph::edge_count), Some(108));
    /// assert!(Puzzle::new(3, 3)?.graph().is_none());
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn graph(&self) -> Option<&Graph> {
        self.graph.as_deref()
    }

    /// The same board with another topology. A graph has no edges to wrap:
    /// a puzzle on a graph stays as it is.
    pub fn with_topology(mut self, topology: Topology) -> Self {
        if self.graph.is_none() {
            self.topology = topology;
        }
        self
    }

    /// The same board with another press rule. On a graph, only whether the
    /// rule holds the centre `(0, 0)` counts (the pressed vertex flips too,
    /// as under [`Rule::plus`], or not, as under [`Rule::neighbours`]);
    /// [`on_graph`](Self::on_graph) refuses other rules.
    pub fn with_rule(mut self, rule: Rule) -> Self {
        self.rule = rule;
        self
    }

    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// Number of columns.
    pub fn cols(&self) -> usize {
        self.cols
    }

    /// Number of cells.
    pub fn cells(&self) -> usize {
        self.rows * self.cols
    }

    /// The topology.
    pub fn topology(&self) -> Topology {
        self.topology
    }

    /// The press rule.
    pub fn rule(&self) -> &Rule {
        &self.rule
    }

    /// Whether this is the classic rule on the plane, where light chasing
    /// works (never on a graph: its board of one row has no rows to chase).
    pub fn is_classic(&self) -> bool {
        self.graph.is_none() && self.topology == Topology::Plane && self.rule.is_plus()
    }

    /// Whether a press flips the pressed cell itself.
    fn presses_itself(&self) -> bool {
        self.rule.offsets().binary_search(&(0, 0)).is_ok()
    }

    /// The same puzzle with rows and columns exchanged. A graph has no
    /// rows and columns to exchange: a puzzle on a graph is returned as it
    /// is (its board stays one row of vertices).
    pub fn transposed(&self) -> Puzzle {
        if self.graph.is_some() {
            return self.clone();
        }
        let rule = Rule::from_offsets(self.rule.offsets().iter().map(|&(dr, dc)| (dc, dr)));
        Puzzle { rows: self.cols, cols: self.rows, topology: self.topology, rule, graph: None }
    }

    /// The cells a press of cell `j` (row-major) flips, as cell indices in
    /// increasing order: on a graph, from the adjacency list.
    fn flipped_indices(&self, j: usize) -> Vec<usize> {
        match &self.graph {
            Some(graph) => {
                let neighbours = graph.neighbours(j);
                let mut cells = Vec::with_capacity(neighbours.len() + 1);
                // The list is sorted: the vertex goes in its place.
                let below = neighbours.partition_point(|&v| (v as usize) < j);
                cells.extend(neighbours[..below].iter().map(|&v| v as usize));
                if self.presses_itself() {
                    cells.push(j);
                }
                cells.extend(neighbours[below..].iter().map(|&v| v as usize));
                cells
            }
            None => self
                .flipped_by(j / self.cols, j % self.cols)
                .iter()
                .map(|&(r, c)| r * self.cols + c)
                .collect(),
        }
    }

    /// The distinct cells flipped by pressing (`r`, `c`), in increasing order.
    ///
    /// On a torus narrower than the rule, two offsets can land on one cell;
    /// that cell is flipped once (a press flips a set of cells). On a graph
    /// `r` is 0, `c` the vertex, and the cells are `(0, v)` for each vertex
    /// flipped.
    pub fn flipped_by(&self, r: usize, c: usize) -> Vec<(usize, usize)> {
        if self.graph.is_some() {
            return self.flipped_indices(r * self.cols + c).into_iter().map(|v| (0, v)).collect();
        }
        let (rows, cols) = (self.rows as isize, self.cols as isize);
        let mut cells: Vec<(usize, usize)> = self
            .rule
            .offsets()
            .iter()
            .filter_map(|&(dr, dc)| {
                let (mut nr, mut nc) = (r as isize + dr, c as isize + dc);
                if self.topology == Topology::Torus {
                    nr = nr.rem_euclid(rows);
                    nc = nc.rem_euclid(cols);
                }
                ((0..rows).contains(&nr) && (0..cols).contains(&nc)).then_some((nr as usize, nc as usize))
            })
            .collect();
        cells.sort_unstable();
        cells.dedup();
        cells
    }

    /// For each press `r·cols + c`, the indices of the cells it flips: the
    /// columns of the flip matrix `A`, as sparse lists.
    pub fn press_lists(&self) -> Vec<Vec<usize>> {
        (0..self.cells()).map(|j| self.flipped_indices(j)).collect()
    }

    /// For each cell, the indices of the presses that flip it: the rows of
    /// the flip matrix `A`, as sparse lists.
    pub fn cell_lists(&self) -> Vec<Vec<usize>> {
        // A graph's edges go both ways: the flip matrix is symmetric.
        if self.graph.is_some() {
            return self.press_lists();
        }
        let mut rows = vec![Vec::new(); self.cells()];
        for (press, cells) in self.press_lists().into_iter().enumerate() {
            for cell in cells {
                rows[cell].push(press);
            }
        }
        rows
    }

    /// Whether pressing a flips b exactly when pressing b flips a (the flip
    /// matrix is symmetric), as for every rule symmetric under `(dr, dc) ->
    /// (-dr, -dc)`, and on every graph (its edges have no direction).
    pub fn is_symmetric(&self) -> bool {
        self.graph.is_some()
            || self
                .rule
                .offsets()
                .iter()
                .all(|&(dr, dc)| self.rule.offsets().binary_search(&(-dr, -dc)).is_ok())
    }

    /// The flip matrix `A`: column `r·cols + c` holds the cells flipped by
    /// pressing (`r`, `c`), so `A · x` is the flip pattern of press set `x`.
    pub fn flip_matrix(&self) -> BitMatrix {
        let n = self.cells();
        let mut a = BitMatrix::zeros(n, n);
        for j in 0..n {
            for i in self.flipped_indices(j) {
                a.set(i, j, true);
            }
        }
        a
    }

    /// The board reached from `board` by pressing every cell set in `presses`.
    ///
    /// # Panics
    /// If either grid does not have the puzzle's shape.
    pub fn apply(&self, board: &Grid, presses: &Grid) -> Grid {
        let shape = (self.rows, self.cols);
        assert_eq!((board.nrows(), board.ncols()), shape, "board shape mismatch");
        assert_eq!((presses.nrows(), presses.ncols()), shape, "press grid shape mismatch");
        let mut out = board.clone();
        if self.is_classic() {
            // Word-parallel: row i receives spread(P_i) + P_(i-1) + P_(i+1).
            let mut spread = zeros(self.cols);
            for r in 0..self.rows {
                words::spread_row(presses.words(r), spread.as_raw_mut_slice(), self.cols);
                let row = out.words_mut(r);
                words::xor(row, spread.as_raw_slice());
                if r > 0 {
                    words::xor(row, presses.words(r - 1));
                }
                if r + 1 < self.rows {
                    words::xor(row, presses.words(r + 1));
                }
            }
        } else if let Some(graph) = &self.graph {
            let itself = self.presses_itself();
            for v in presses.row(0).iter_ones() {
                if itself {
                    out.toggle(0, v);
                }
                for &w in graph.neighbours(v) {
                    out.toggle(0, w as usize);
                }
            }
        } else {
            for r in 0..self.rows {
                for c in presses.row(r).iter_ones() {
                    for (fr, fc) in self.flipped_by(r, c) {
                        out.toggle(fr, fc);
                    }
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poj_statement_example_press() {
        // From the POJ 1753 statement: pressing row 3, column 1 of
        // bwbw/wwww/bbwb/bwwb gives bwbw/bwww/wwwb/wwwb.
        let before = parse_boards(b"bwbw\nwwww\nbbwb\nbwwb\n", "t", None, None).unwrap();
        let after = parse_boards(b"bwbw\nbwww\nwwwb\nwwwb\n", "t", None, None).unwrap();
        let puzzle = Puzzle::new(4, 4).unwrap();
        let mut press = Grid::zeros(4, 4);
        press.set(2, 0, true);
        assert_eq!(puzzle.apply(&before[0], &press), after[0]);
    }

    #[test]
    fn word_parallel_apply_matches_flip_matrix() {
        for (r, c) in [(1, 1), (3, 5), (7, 64), (2, 65), (6, 130)] {
            let puzzle = Puzzle::new(r, c).unwrap();
            let a = puzzle.flip_matrix();
            let presses = Grid::from_fn(r, c, |i, j| (i * 31 + j * 17) % 3 == 0);
            let board = Grid::from_fn(r, c, |i, j| (i + j) % 2 == 0);
            let mut expected = board.to_vector();
            expected ^= a.mul_vec(&presses.to_vector());
            assert_eq!(puzzle.apply(&board, &presses).to_vector(), expected, "{r}x{c}");
        }
    }

    #[test]
    fn rule_masks() {
        // Regression: `plus()` once kept its offsets unsorted, so a mask
        // equal to it compared unequal and `is_symmetric`'s binary search
        // could miss; every rule is now built sorted.
        assert!(Rule::plus().offsets().is_sorted() && Puzzle::new(3, 3).unwrap().is_symmetric());
        assert_eq!(Rule::from_mask("010/111/010"), Ok(Rule::plus()));
        assert_eq!(Rule::from_mask("111,111,111"), Ok(Rule::king()));
        assert_eq!(Rule::neighbours().mask(), "010/101/010");
        assert_eq!(Rule::from_mask("1"), Ok(Rule::from_offsets([(0, 0)])));
        assert!(
            Rule::from_mask("01/11").is_err()
                && Rule::from_mask("000").is_err()
                && Rule::from_mask("0x0").is_err()
        );
        assert_eq!(Rule::king().to_string(), "king");
        assert_eq!(
            Rule::from_mask("00100/00000/10001/00000/00100").unwrap().to_string(),
            "00100/00000/10001/00000/00100"
        );
    }

    #[test]
    fn sizes_are_checked() {
        assert!(Puzzle::new(0, 4).is_err());
        assert!(Puzzle::new(4, MAX_SIDE + 1).is_err());
    }
}
