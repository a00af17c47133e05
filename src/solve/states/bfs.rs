//! Reference breadth-first search over K-state boards, used only to check
//! the algebra over Z_K.
//!
//! Deliberately independent of the linear algebra: a board of `cells`
//! cells in states `0..K` is one number, read in base K with cell 0 the
//! least significant digit, and a press is an addition of 1 (mod K) to each
//! cell in its list. Nothing here knows matrices, kernels or cosets, so
//! that when [`distances`] and the solver agree, both are right.
//!
//! Pressing a cell `K` times does nothing and presses commute, so the
//! fewest presses from a board `b` to a target `t` is the length of a
//! shortest path from `b` to `t` in the graph whose edges are single
//! presses. A search from `t` over the *inverse* moves (subtract a press)
//! reaches `b` after exactly that many steps, so one search answers every
//! board at once.

use crate::error::Error;

/// Most states the search holds: 2^25 boards (a `u16` distance and a `u32`
/// queue entry each, 192 MiB at the most).
pub const MAX_STATES: u64 = 1 << 25;

/// Distance of a board that no press sequence brings to the target.
pub const UNREACHABLE: u16 = u16::MAX;

/// The fewest presses from every board to `target`.
///
/// `press_lists[j]` are the cells press `j` adds 1 to (mod `k`); a cell
/// listed twice gets 2. Entry `s` of the result is the distance of the
/// board whose state number is `s` (see [`state_number`]), or
/// [`UNREACHABLE`].
///
/// # Errors
/// - [`Error::BadInput`] when `k < 2`, when `target` does not have `cells`
///   states below `k`, or when a press list names a cell past `cells`;
/// - [`Error::Limit`] when `k^cells` is more than [`MAX_STATES`].
///
/// # Complexity
/// O(K^n · (n + L)) time for n cells and L entries in all the press lists, K^n · 6 bytes
/// of memory (and a bit).
///
/// # Example
/// ```
/// use lightsout::Puzzle;
/// use lightsout::solve::states::bfs as state_bfs;
///
/// // 1x2 over Z_3: pressing either cell adds 1 to both.
/// let puzzle = Puzzle::new(1, 2)?;
/// let d = state_bfs::distances(2, &puzzle.press_lists(), 3, &[0, 0])?;
/// assert_eq!(d[state_bfs::state_number(&[2, 2], 3)], 1); // one press: 2+1 = 0
/// assert_eq!(d[state_bfs::state_number(&[1, 1], 3)], 2);
/// assert_eq!(d[state_bfs::state_number(&[1, 0], 3)], state_bfs::UNREACHABLE);
/// # Ok::<(), lightsout::Error>(())
/// ```
pub fn distances(cells: usize, press_lists: &[Vec<usize>], k: u8, target: &[u8]) -> Result<Vec<u16>, Error> {
    if k < 2 {
        return Err(Error::BadInput(format!("a board needs at least 2 states, got {k}")));
    }
    if target.len() != cells || target.iter().any(|&s| s >= k) {
        return Err(Error::BadInput(format!("the target must be {cells} states below {k}")));
    }
    if let Some(&cell) = press_lists.iter().flatten().find(|&&c| c >= cells) {
        return Err(Error::BadInput(format!("a press reaches cell {cell} of a board of {cells} cells")));
    }
    let states = (0..cells).try_fold(1u64, |n, _| n.checked_mul(u64::from(k)).filter(|&n| n <= MAX_STATES));
    let Some(states) = states else {
        return Err(Error::Limit(format!(
            "a search over {k}^{cells} boards is more than the {MAX_STATES} it holds"
        )));
    };
    let k32 = u32::from(k);
    // place[c] = K^c, the weight of cell c's digit.
    let place: Vec<u32> =
        (0..cells).scan(1u32, |p, _| Some(std::mem::replace(p, p.saturating_mul(k32)))).collect();
    // Each press as (cell, times it adds 1 mod K), its cells merged.
    let presses: Vec<Vec<(usize, u32)>> = press_lists
        .iter()
        .map(|list| {
            let mut times = vec![0u32; cells];
            for &c in list {
                times[c] += 1;
            }
            (0..cells).filter(|&c| !times[c].is_multiple_of(k32)).map(|c| (c, times[c] % k32)).collect()
        })
        .filter(|p: &Vec<(usize, u32)>| !p.is_empty())
        .collect();

    let mut distance = vec![UNREACHABLE; states as usize];
    // One bit a state, beside the distances: the check for a state seen
    // before stays in cache (1 MiB for 2^23 states) where the distances
    // would not.
    let mut seen = vec![0u64; (states as usize).div_ceil(64)];
    let mut queue: Vec<u32> = Vec::with_capacity(states as usize);
    let start = state_number(target, k) as u32;
    distance[start as usize] = 0;
    seen[start as usize / 64] |= 1 << (start % 64);
    queue.push(start);
    let mut digits = vec![0u32; cells];
    let mut head = 0;
    while let Some(&s) = queue.get(head) {
        head += 1;
        let next = distance[s as usize] + 1;
        if next == UNREACHABLE {
            return Err(Error::Limit(format!("a distance past {} presses", UNREACHABLE - 1)));
        }
        let mut rest = s;
        for d in digits.iter_mut() {
            *d = rest % k32;
            rest /= k32;
        }
        for press in &presses {
            // The inverse move: subtract the press, digit by digit, mod K.
            let mut t = s;
            for &(c, times) in press {
                let old = digits[c];
                let new = if old >= times { old - times } else { old + k32 - times };
                t = t - old * place[c] + new * place[c];
            }
            let (word, bit) = (t as usize / 64, t % 64);
            if seen[word] >> bit & 1 == 0 {
                seen[word] |= 1 << bit;
                distance[t as usize] = next;
                queue.push(t);
            }
        }
    }
    Ok(distance)
}

/// The state number of a board: its states read in base `k`, cell 0 the
/// least significant digit. States must be below `k`.
pub fn state_number(board: &[u8], k: u8) -> usize {
    board.iter().rev().fold(0usize, |n, &s| n * usize::from(k) + usize::from(s))
}

/// The board of `cells` cells whose state number is `number`.
pub fn board_of(number: usize, cells: usize, k: u8) -> Vec<u8> {
    let k = usize::from(k);
    (0..cells).scan(number, |rest, _| Some(std::mem::replace(rest, *rest / k) % k)).map(|d| d as u8).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::Puzzle;

    #[test]
    fn state_numbers_round_trip() {
        for n in [0, 1, 17, 242] {
            assert_eq!(state_number(&board_of(n, 5, 3), 3), n);
        }
        assert_eq!(board_of(5, 3, 2), vec![1, 0, 1]);
    }

    #[test]
    fn one_by_one() {
        // One cell, one press: from s, K − s presses (mod K) reach 0.
        let d = distances(1, &[vec![0]], 5, &[0]).unwrap();
        assert_eq!(d, vec![0, 4, 3, 2, 1]);
    }

    #[test]
    fn a_cell_listed_twice_gets_two() {
        // Press adds 2 to the one cell over Z_4: only even states reach 0.
        let d = distances(1, &[vec![0, 0]], 4, &[0]).unwrap();
        assert_eq!(d, vec![0, UNREACHABLE, 1, UNREACHABLE]);
    }

    #[test]
    fn bad_input_and_limits() {
        let lists = Puzzle::new(5, 5).unwrap().press_lists();
        assert!(matches!(distances(25, &lists, 3, &[0; 25]), Err(Error::Limit(_))));
        assert!(matches!(distances(25, &lists, 2, &[0; 24]), Err(Error::BadInput(_))));
        assert!(matches!(distances(25, &lists, 2, &[2; 25]), Err(Error::BadInput(_))));
        assert!(matches!(distances(2, &[vec![2]], 2, &[0, 0]), Err(Error::BadInput(_))));
        assert!(matches!(distances(1, &[vec![0]], 1, &[0]), Err(Error::BadInput(_))));
        // 5^11 is past 2^25 although 11 cells are few.
        assert!(matches!(distances(11, &[], 5, &[0; 11]), Err(Error::Limit(_))));
    }
}
