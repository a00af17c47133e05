//! Reference breadth-first search, used only to verify the algebra.
//!
//! Deliberately independent of the rest of the crate: a board of at most
//! [`MAX_CELLS`] cells is a `u32` (bit `r·cols + c`), a press is an XOR with
//! a mask built here from the rule's offsets and the topology (any rule, the
//! plane or the torus), and the search knows nothing of matrices. Since
//! every press is its own inverse, the distance from a board to a target
//! equals the distance from the target to the board, so one search from the
//! targets answers every board at once.

use crate::model::{Grid, Puzzle, Topology};

/// Largest board (in cells) the search handles: 2^25 states.
pub const MAX_CELLS: usize = 25;

/// Distance of a state that no press sequence reaches.
pub const UNREACHABLE: u8 = u8::MAX;

/// The flip mask of every press of `puzzle`, indexed by `r·cols + c`, from
/// the definition of its rule and topology: each offset of the rule from
/// the pressed cell, wrapped around on a torus and dropped past the edge of
/// a plane. A cell that two offsets reach (a torus narrower than the rule)
/// is flipped once, as a press flips a set of cells. On a graph, vertex `v`
/// is bit `v` and the masks are the puzzle's press lists.
///
/// # Panics
/// If the board has more than [`MAX_CELLS`] cells.
pub fn press_masks(puzzle: &Puzzle) -> Vec<u32> {
    let (rows, cols) = (puzzle.rows() as isize, puzzle.cols() as isize);
    assert!(puzzle.cells() <= MAX_CELLS, "BFS handles at most {MAX_CELLS} cells, got {}", puzzle.cells());
    // A graph has no offsets to follow: its presses are its press lists,
    // vertex v at bit v.
    if puzzle.graph().is_some() {
        return puzzle.press_lists().iter().map(|cells| cells.iter().fold(0, |m, &v| m | 1 << v)).collect();
    }
    let torus = puzzle.topology() == Topology::Torus;
    let mut masks = Vec::with_capacity(puzzle.cells());
    for r in 0..rows {
        for c in 0..cols {
            let mut mask = 0u32;
            for &(dr, dc) in puzzle.rule().offsets() {
                let (mut nr, mut nc) = (r + dr, c + dc);
                if torus {
                    (nr, nc) = (nr.rem_euclid(rows), nc.rem_euclid(cols));
                }
                if (0..rows).contains(&nr) && (0..cols).contains(&nc) {
                    mask |= 1 << (nr * cols + nc);
                }
            }
            masks.push(mask);
        }
    }
    masks
}

/// The fewest presses from any of `sources` to every state, by BFS with a
/// bitset of visited states. Entry `s` is the distance of state `s`, or
/// [`UNREACHABLE`].
///
/// # Panics
/// If the board has more than [`MAX_CELLS`] cells.
///
/// # Complexity
/// O(2^(R·C) · R·C) time, 2^(R·C) · 5 bytes of memory.
///
/// # Example
/// ```
/// use lightsout::{Puzzle, Rule, Topology, bfs};
///
/// // 2x2, classic rule: all black needs all four presses to become white.
/// let (white, black) = bfs::uniform_states(2, 2);
/// assert_eq!(bfs::distances(&Puzzle::new(2, 2)?, &[white])[black as usize], 4);
/// // With the king rule one press flips the whole board.
/// let king = Puzzle::new(2, 2)?.with_rule(Rule::king()).with_topology(Topology::Torus);
/// assert_eq!(bfs::distances(&king, &[white])[black as usize], 1);
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn distances(puzzle: &Puzzle, sources: &[u32]) -> Vec<u8> {
    let masks = press_masks(puzzle);
    let states = 1usize << puzzle.cells();
    let mut visited = vec![0u64; states.div_ceil(64)];
    let mut distance = vec![UNREACHABLE; states];
    let mut queue: Vec<u32> = Vec::new();
    for &s in sources {
        if visited[s as usize / 64] >> (s % 64) & 1 == 0 {
            visited[s as usize / 64] |= 1 << (s % 64);
            distance[s as usize] = 0;
            queue.push(s);
        }
    }
    let mut head = 0;
    while head < queue.len() {
        let s = queue[head];
        head += 1;
        let next_distance = distance[s as usize] + 1;
        for &m in &masks {
            let t = s ^ m;
            let (word, bit) = (t as usize / 64, t % 64);
            if visited[word] >> bit & 1 == 0 {
                visited[word] |= 1 << bit;
                distance[t as usize] = next_distance;
                queue.push(t);
            }
        }
    }
    distance
}

/// The board of a state number.
pub fn decode(rows: usize, cols: usize, state: u32) -> Grid {
    Grid::from_fn(rows, cols, |r, c| state >> (r * cols + c) & 1 == 1)
}

/// The all-white and all-black states.
pub fn uniform_states(rows: usize, cols: usize) -> (u32, u32) {
    let cells = rows * cols;
    let black = if cells == 32 { u32::MAX } else { (1u32 << cells) - 1 };
    (0, black)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn poj_distribution_from_bfs_alone() {
        // ../shared/data/flipgame_4x4_distribution.txt, checked here without
        // any algebra: the BFS must stand on its own.
        let (white, black) = uniform_states(4, 4);
        let d = distances(&Puzzle::new(4, 4).unwrap(), &[white, black]);
        let mut counts = std::collections::BTreeMap::new();
        for &x in &d {
            *counts.entry(x).or_insert(0) += 1;
        }
        let expected =
            [(0, 2), (1, 32), (2, 228), (3, 880), (4, 1562), (5, 1136), (6, 256), (UNREACHABLE, 61440)];
        assert_eq!(counts.into_iter().collect::<Vec<_>>(), expected);
    }
}
