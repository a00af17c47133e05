//! Reference breadth-first search, used only to verify the algebra.
//!
//! Deliberately independent of the rest of the crate: a board of at most
//! [`MAX_CELLS`] cells is a `u32` (bit `r·cols + c`), a press is an XOR with
//! a mask built here from the rule's definition, and the search knows
//! nothing of matrices. Since every press is its own inverse, the distance
//! from a board to a target equals the distance from the target to the board,
//! so one search from the targets answers every board at once.

use crate::model::Grid;

/// Largest board (in cells) the search handles: 2^25 states.
pub const MAX_CELLS: usize = 25;

/// Distance of a state that no press sequence reaches.
pub const UNREACHABLE: u8 = u8::MAX;

/// The flip mask of every press on a plane `rows × cols` board with the
/// classic rule, indexed by `r·cols + c`.
pub fn press_masks(rows: usize, cols: usize) -> Vec<u32> {
    let mut masks = Vec::with_capacity(rows * cols);
    for r in 0..rows {
        for c in 0..cols {
            let mut m = 1u32 << (r * cols + c);
            if r > 0 {
                m |= 1 << ((r - 1) * cols + c);
            }
            if r + 1 < rows {
                m |= 1 << ((r + 1) * cols + c);
            }
            if c > 0 {
                m |= 1 << (r * cols + c - 1);
            }
            if c + 1 < cols {
                m |= 1 << (r * cols + c + 1);
            }
            masks.push(m);
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
pub fn distances(rows: usize, cols: usize, sources: &[u32]) -> Vec<u8> {
    let cells = rows * cols;
    assert!(cells <= MAX_CELLS, "BFS handles at most {MAX_CELLS} cells, got {cells}");
    let states = 1usize << cells;
    let masks = press_masks(rows, cols);
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

/// The state number of a board of at most [`MAX_CELLS`] cells.
///
/// # Panics
/// If the board is larger.
pub fn encode(board: &Grid) -> u32 {
    let cols = board.ncols();
    assert!(board.nrows() * cols <= MAX_CELLS, "board too large for BFS");
    (0..board.nrows())
        .flat_map(|r| (0..cols).map(move |c| (r, c)))
        .filter(|&(r, c)| board.get(r, c))
        .fold(0u32, |s, (r, c)| s | 1 << (r * cols + c))
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
        let d = distances(4, 4, &[white, black]);
        let mut counts = std::collections::BTreeMap::new();
        for &x in &d {
            *counts.entry(x).or_insert(0) += 1;
        }
        let expected =
            [(0, 2), (1, 32), (2, 228), (3, 880), (4, 1562), (5, 1136), (6, 256), (UNREACHABLE, 61440)];
        assert_eq!(counts.into_iter().collect::<Vec<_>>(), expected);
    }
}
