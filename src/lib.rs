//! Lights Out and the Flip Game (POJ 1753) solved by linear algebra over GF(2).
//!
//! A board is R×C two-sided pieces; pressing a cell flips it and its
//! orthogonal neighbours. Presses commute and cancel in pairs, so a solution
//! is a 0/1 vector `x` with `A·x = b + t` over GF(2), where `A` is the flip
//! matrix, `b` the board and `t` the target. We solve it by elimination (or
//! light chasing), then find the fewest presses by walking the null space.
//!
//! The layers, bottom to top: [`gf2`] (bit vectors, matrices, elimination),
//! the puzzle model ([`Puzzle`], [`Grid`], parsing), the solvers ([`Solver`],
//! [`Dense`], [`Chase`], [`minimize`], and the reference [`bfs`]), and the
//! command line ([`cli`]) on top, which the `lightsout` binary only calls, beside the
//! explorer's HTTP server ([`serve`]), which answers JSON as the command line does.
//! The words every front reads and writes (rule and target names, topologies, sizes)
//! are [`present`]'s, without the `cli` feature too: the Python binding shares them.
//!
//! # Solve the POJ 1753 sample
//! ```
//! use lightsout::{parse_boards, Game, Method, Puzzle, Solver, Target};
//!
//! let board = &parse_boards(b"bwwb\nbbwb\nbwwb\nbwww\n", "sample", None, None)?[0];
//! let solver = Solver::new(&Puzzle::new(4, 4)?, Method::Auto, 32)?;
//! let answer = solver.solve(board, Target::EITHER)?;
//! let (_, best) = answer.best().expect("the sample is solvable");
//! assert_eq!(best.presses.count_ones(), 4);
//! assert!(best.proven_minimal);
//! # Ok::<(), lightsout::Error>(())
//! ```
//!
//! # The nullity of a size
//! ```
//! use lightsout::{Game, Method, Puzzle, Solver};
//!
//! // 5x5 has two independent quiet patterns: a quarter of all boards are solvable.
//! let solver = Solver::new(&Puzzle::new(5, 5)?, Method::Auto, 32)?;
//! assert_eq!(solver.nullity(), 2);
//! for q in solver.quiet_patterns() {
//!     assert!(solver.puzzle().apply(&lightsout::Grid::zeros(5, 5), q).is_zero());
//! }
//! # Ok::<(), lightsout::Error>(())
//! ```

// No unwrap, expect or panic in library code reachable from input: bad input
// is an `Error`. (Indexing is not linted: the word loops index by bounds
// that the types establish, and a lint there would only add noise.)
#![cfg_attr(not(test), warn(clippy::unwrap_used, clippy::expect_used, clippy::panic))]

mod analysis;
#[cfg(feature = "cli")]
pub mod cli;
mod cpu;
mod error;
pub mod gf2;
mod model;
#[cfg(feature = "cli")]
pub mod picture;
pub mod present;
#[cfg(feature = "cli")]
pub mod serve;
mod solve;
pub mod zk;

pub use analysis::{Analysis, KernelEntry, analyze, kernel_table, nullity_table, plane_nullity};
pub use error::{Error, ShapeOf, Side};
pub use model::{
    Generate, GeneratedRows, Grid, MAX_SIDE, PbmKind, PbmWriter, Puzzle, RowStream, Rule, StateGrid,
    TextBoards, Topology, check_side, grid_lines, is_pbm, parse_boards, read_pbm, write_pbm,
};
pub use model::{
    Graph, MAX_EDGES, MAX_VERTICES, StateBoards, is_pgm, parse_state_boards, read_pgm, state_lines,
    state_row_width, write_pgm,
};
pub use solve::limits;
pub use solve::states::{StateChase, StateDense, StateSolver, StateTarget};
pub use solve::states::{bfs as state_bfs, minimum as state_minimum};
pub use solve::{
    Answer, Anytime, Best, Board, Budget, Chase, Coset, DEFAULT_MAX_NULLITY, Dense, FixedSpaceSearch,
    FoundBy, Game, Incumbent, KernelSize, Layout, Limits, MAX_EXHAUSTIVE_NULLITY, MAX_STREAMED_NULLITY, Mask,
    MergeError, Method, Outcome, Progress, SearchState, Shard, Slice, SliceKind, Sliced, Solution, Solver,
    Start, SymmetricSearch, Target, TargetOf, bfs, check_coverage, improve, merge, minimize,
    minimize_with_progress, search_blocks,
};
pub use solve::{
    BRANCH_FROM, Branching, Estimate, Fold, FoldTag, LEAF_BITS, MAX_TRANSFORM_NULLITY, cross_coset,
    cross_coset_for_problem, cross_order, estimate, search_branch,
};
