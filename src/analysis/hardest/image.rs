//! Games whose solvable boards are few: every one of them weighed.
//!
//! The boards solvable to a uniform target `t` are `t − y` for `y` in the
//! image of the press matrix `A` (over Z_K), and such a board's fewest
//! presses is the distance of `y` from 0 in the image's Cayley graph whose
//! steps are the distinct columns of `A`: a walk of `L` steps adds up to a
//! press set of at most `L` presses (a column taken K times cancels), and a
//! press set of `w` presses is a walk of `w` steps. A breadth-first walk of
//! the image therefore gives every board's minimum at once, exactly, where
//! the image is small (a complete graph of 3000 vertices has two solvable
//! boards, where its kernel has 2^2999 members and no other method ends).

use std::collections::{HashMap, VecDeque};

use super::work::Work;
use crate::model::Puzzle;

/// Most boards in an image that is walked.
pub(crate) const MAX_IMAGE_BOARDS: u64 = 1 << 20;

/// Most values the walk holds (boards × the cells it reads a board by, a
/// byte each, twice: the boards and their index).
const MAX_IMAGE_VALUES: u64 = 1 << 26;

/// Every board of a small image weighed: how many need each number of
/// presses, and a press set of a hardest one.
pub(crate) struct Image {
    /// Boards (solvable to the goal) by their fewest presses, from 0.
    pub by_weight: Vec<u64>,
    /// A press set reaching the goal from a hardest board, in fewest
    /// presses: the board is `target − A·presses`.
    pub presses: Vec<u8>,
    /// The fewest presses of a hardest board.
    pub heaviest: u64,
}

/// The work of walking an image of `boards` boards read by `cells` cells
/// with `steps` distinct columns: each board adds each column to itself.
pub(crate) fn image_cost(boards: u64, steps: usize, cells: usize) -> f64 {
    boards as f64 * steps as f64 * cells as f64
}

/// Cells that tell the boards of the image apart, for K prime (two states
/// included): the pivots of the columns in echelon form, one a dimension
/// of the image (a complete graph of 3000 vertices: one cell, not 3000).
/// Every cell for K composite, where that elimination does not hold.
fn telling_cells(columns: &[&[u8]], cells: usize, states: u8) -> Vec<usize> {
    if !(2..states).all(|d| !states.is_multiple_of(d)) {
        return (0..cells).collect();
    }
    let p = u32::from(states);
    // a^(p−2) mod p: the inverse in the field.
    let inverse = |a: u8| (0..p - 2).fold(1u32, |x, _| x * u32::from(a) % p) as u8;
    let mut basis: Vec<(usize, Vec<u8>)> = Vec::new();
    for column in columns {
        let mut v = column.to_vec();
        for (pivot, row) in &basis {
            let factor = u32::from(v[*pivot]);
            if factor != 0 {
                for (x, &r) in v.iter_mut().zip(row) {
                    *x = ((u32::from(*x) + (p - factor) * u32::from(r)) % p) as u8;
                }
            }
        }
        if let Some(pivot) = v.iter().position(|&x| x != 0) {
            let scale = u32::from(inverse(v[pivot]));
            for x in &mut v {
                *x = (u32::from(*x) * scale % p) as u8;
            }
            basis.push((pivot, v));
        }
    }
    basis.into_iter().map(|(pivot, _)| pivot).collect()
}

/// Walks the image of `puzzle`'s press matrix over Z_`states`, of `boards`
/// boards: `None` when it holds more than [`MAX_IMAGE_BOARDS`] (or more
/// cell values than the walk keeps) or the work runs out first. With
/// `any`, a board's minimum is its least over every uniform target (the
/// boards of the targets reachable from one another counted once).
pub(crate) fn weigh_image(
    puzzle: &Puzzle,
    states: u8,
    boards: u64,
    any: bool,
    work: &mut Work,
) -> Option<Image> {
    if boards > MAX_IMAGE_BOARDS {
        return None;
    }
    let add = |a: u8, b: u8| if states == 2 { a ^ b } else { (a + b) % states };
    let lists = puzzle.press_lists();
    let column_of = |flipped: &[usize]| {
        let mut column = vec![0u8; puzzle.cells()];
        for &cell in flipped {
            column[cell] = add(column[cell], 1);
        }
        column
    };
    // The distinct nonzero columns, each with the first press that is it.
    let mut firsts: HashMap<Vec<u8>, usize> = HashMap::new();
    for (press, flipped) in lists.iter().enumerate() {
        let column = column_of(flipped);
        if column.iter().any(|&v| v != 0) {
            firsts.entry(column).or_insert(press);
        }
    }
    let mut columns: Vec<(&Vec<u8>, usize)> = firsts.iter().map(|(column, &press)| (column, press)).collect();
    columns.sort_by_key(|&(_, press)| press);
    // The walk reads a board by the cells that tell the image's boards
    // apart; distinct columns stay distinct there (they are boards of it).
    let telling =
        telling_cells(&columns.iter().map(|(c, _)| c.as_slice()).collect::<Vec<_>>(), puzzle.cells(), states);
    let cells = telling.len();
    let read = |board: &[u8]| telling.iter().map(|&cell| board[cell]).collect::<Vec<u8>>();
    let steps: Vec<(Vec<u8>, usize)> = columns.iter().map(|&(column, press)| (read(column), press)).collect();
    if boards.saturating_mul(cells as u64) > MAX_IMAGE_VALUES
        || image_cost(boards, steps.len(), cells) > work.left() as f64
    {
        return None;
    }
    // Breadth first from 0: each board's distance, and the step and board
    // it was reached from.
    let mut index: HashMap<Vec<u8>, u32> = HashMap::new();
    let mut reached: Vec<(u32, u32, u32)> = Vec::new();
    let mut queue = VecDeque::new();
    index.insert(vec![0u8; cells], 0);
    reached.push((0, 0, u32::MAX));
    queue.push_back(vec![0u8; cells]);
    while let Some(board) = queue.pop_front() {
        let at = index[&board];
        let distance = reached[at as usize].0;
        for (step, (column, _)) in steps.iter().enumerate() {
            if !work.spend(cells as u64) {
                return None;
            }
            let next: Vec<u8> = board.iter().zip(column).map(|(&a, &b)| add(a, b)).collect();
            if !index.contains_key(&next) {
                if reached.len() as u64 >= boards {
                    // More boards than the kernel's size allows: not a
                    // walk to trust.
                    return None;
                }
                index.insert(next.clone(), reached.len() as u32);
                reached.push((distance + 1, step as u32, at));
                queue.push_back(next);
            }
        }
    }
    if reached.len() as u64 != boards {
        return None;
    }
    // A walked board's press set, from its path back to 0.
    let presses_of = |mut at: u32| {
        let mut presses = vec![0u8; puzzle.cells()];
        while at != 0 {
            let (_, step, from) = reached[at as usize];
            let press = steps[step as usize].1;
            presses[press] = add(presses[press], 1);
            at = from;
        }
        presses
    };
    // For any target: the uniform boards in the image (the targets one
    // another's boards reach), and each board's least distance over them.
    // A uniform board read at the telling cells is in the image only if the
    // press set walked there reaches it on every cell.
    let in_image = |u: u8| {
        let Some(&at) = index.get(&vec![u; cells]) else { return false };
        let mut board = vec![0u8; puzzle.cells()];
        for (press, &times) in presses_of(at).iter().enumerate() {
            for _ in 0..times {
                for &cell in &lists[press] {
                    board[cell] = add(board[cell], 1);
                }
            }
        }
        board.iter().all(|&v| v == u)
    };
    let shifts: Vec<Vec<u8>> = match any {
        false => vec![vec![0u8; cells]],
        true => (0..states).filter(|&u| in_image(u)).map(|u| vec![u; cells]).collect(),
    };
    let mut boards_of: Vec<(&Vec<u8>, u32)> = index.iter().map(|(board, &at)| (board, at)).collect();
    boards_of.sort_by_key(|&(_, at)| at);
    let mut by_weight = Vec::new();
    let mut heaviest: Option<(u64, u32)> = None;
    for &(board, at) in &boards_of {
        let least = shifts
            .iter()
            .map(|u| {
                let shifted: Vec<u8> = board.iter().zip(u).map(|(&a, &b)| add(a, b)).collect();
                u64::from(reached[index[&shifted] as usize].0)
            })
            .min()
            .unwrap_or(0);
        if by_weight.len() as u64 <= least {
            by_weight.resize(least as usize + 1, 0);
        }
        by_weight[least as usize] += 1;
        if heaviest.is_none_or(|(w, _)| least > w) {
            heaviest = Some((least, at));
        }
    }
    // For any target, the K uniform targets fall into K / |shifts| sets
    // that reach one another, each with its own copy of the boards.
    let copies = if any { u64::from(states) / shifts.len() as u64 } else { 1 };
    for count in &mut by_weight {
        *count *= copies;
    }
    let (weight, at) = heaviest?;
    Some(Image { by_weight, presses: presses_of(at), heaviest: weight })
}
