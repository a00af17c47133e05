//! Lights Out and the Flip Game (POJ 1753) solved by linear algebra over GF(2).
//!
//! A board is R×C two-sided pieces; pressing a cell flips it and its
//! orthogonal neighbours. Presses commute and cancel in pairs, so a solution
//! is a 0/1 vector `x` with `A·x = b + t` over GF(2), where `A` is the flip
//! matrix, `b` the board and `t` the target. We solve it by elimination (or
//! light chasing), then find the fewest presses by walking the null space.
//!
//! The layers, bottom to top, are the modules: [`gf2`] (bit vectors, matrices,
//! elimination) and [`zk`] (Z_K for K states); the puzzle [`model`] ([`Puzzle`],
//! [`Grid`], [`StateGrid`], [`Graph`], parsing); the solvers in [`solve`]
//! ([`Solver`] over GF(2) and [`StateSolver`] over Z_K, both one [`Game`], and the
//! reference [`bfs`]); the study of a size in [`analysis`] beside them; and the
//! words every front reads and writes in [`present`] (rule and target names,
//! reports, JSON), without the `cli` feature too: the Python binding shares them.
//! On top, the command line ([`cli`]), which the `lightsout` binary only calls, and
//! the explorer's HTTP server ([`serve`]), which answers JSON as the command line
//! does. The crate root names the surface a caller needs; the engines' internals
//! (cosets, slices, branch and bound, limits) keep their module paths.
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

pub mod analysis;
#[cfg(feature = "cli")]
pub mod cli;
mod cpu;
pub mod error;
pub mod gf2;
pub mod model;
#[cfg(feature = "picture")]
pub mod picture;
pub mod present;
#[cfg(feature = "records")]
pub mod record;
#[cfg(feature = "cli")]
pub mod serve;
pub mod solve;
pub mod zk;

// The public surface: a puzzle, its boards, the two solvers behind one game,
// their answers and the study of a size. Everything else (the engines'
// internals, records, limits) is named by its module.
pub use analysis::{Analysis, analyze, kernel_table, nullity_table};
pub use error::Error;
pub use model::{
    Generate, Graph, Grid, Puzzle, Rule, StateGrid, Topology, grid_lines, parse_boards, parse_state_boards,
    read_pbm, read_pgm, state_lines, write_pbm, write_pgm,
};
pub use solve::states::{StateSolver, StateTarget};
pub use solve::{
    Answer, Board, FoundBy, Game, KernelSize, Limits, Method, Outcome, Solution, Solver, Target, bfs,
};
