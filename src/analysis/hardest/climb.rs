//! A hard board found by climbing, for any K, where the tally cannot go:
//! a press set held as how many cells of each class it presses how often,
//! moved one cell at a time to raise its coset's lightest member. What it
//! reaches is a lower bound (the board is certified after), not a proof.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::classes::Classes;
use super::work::Work;

/// Most kernel members the climb weighs at every step: each move is
/// weighed against all of them.
const MAX_CLIMB_MEMBERS: usize = 1 << 16;

/// The seed of the climb's start: fixed, so that an answer is the same
/// run after run.
const START_SEED: u64 = 1;

/// Most moves a climb makes.
const MAX_MOVES: usize = 1 << 14;

/// A press set's class counts and the weight of its coset's lightest
/// member on the classes (the untouched cells not counted).
pub(crate) struct Climbed {
    pub weight: u64,
    /// Per class, how many of its cells each residue has.
    pub counts: Vec<Vec<u32>>,
}

/// The lightest weight of a coset and how many members have it.
type Height = (u64, usize);

/// One cell of a class moved from one residue to another.
type Move = (usize, usize, usize);

/// The weights of every member against class counts.
struct Weights {
    /// `wrap[x] = x mod K` for `x < 2K`: a residue plus a member's value.
    wrap: Vec<u64>,
    classes: usize,
    /// `values[s · classes + k]`: what member `s` adds to class `k`.
    values: Vec<u8>,
    /// Member `s`'s weight on the classes.
    weight: Vec<u64>,
}

impl Weights {
    fn new(classes: &Classes, members: usize, counts: &[Vec<u32>]) -> Weights {
        let (states, count) = (usize::from(classes.states), classes.classes.len());
        let values = classes.member_values(members);
        let weight = (0..members)
            .map(|s| {
                (0..count)
                    .map(|k| {
                        let v = usize::from(values[s * count + k]);
                        let residues = counts[k].iter().enumerate();
                        residues.map(|(r, &n)| u64::from(n) * ((r + v) % states) as u64).sum::<u64>()
                    })
                    .sum()
            })
            .collect();
        let wrap = (0..2 * states).map(|x| (x % states) as u64).collect();
        Weights { wrap, classes: count, values, weight }
    }

    /// The lightest weight and how many members have it, were one cell of
    /// class `k` moved from residue `from` to `to`.
    fn after_move(&self, k: usize, from: usize, to: usize) -> Height {
        let mut best = (u64::MAX, 0);
        for (s, &w) in self.weight.iter().enumerate() {
            let v = usize::from(self.values[s * self.classes + k]);
            let w = w + self.wrap[to + v] - self.wrap[from + v];
            if w < best.0 {
                best = (w, 1);
            } else if w == best.0 {
                best.1 += 1;
            }
        }
        best
    }

    fn apply(&mut self, k: usize, from: usize, to: usize) {
        for (s, w) in self.weight.iter_mut().enumerate() {
            let v = usize::from(self.values[s * self.classes + k]);
            *w = *w + self.wrap[to + v] - self.wrap[from + v];
        }
    }

    fn lightest(&self) -> Height {
        let min = self.weight.iter().copied().min().unwrap_or(0);
        (min, self.weight.iter().filter(|&&w| w == min).count())
    }
}

/// Climbs from two starts (a tabu search each, [`climb_from`]), the
/// higher kept. `None` when the kernel has too many members to weigh.
pub(crate) fn climb(classes: &Classes, work: &mut Work) -> Option<Climbed> {
    let members = usize::try_from(classes.members()?).ok().filter(|&m| m <= MAX_CLIMB_MEMBERS)?;
    let k = usize::from(classes.states);
    // Two starts: each class spread evenly over the residues, and seeded
    // random residues (an even spread gives a class of fewer cells than K
    // its lowest residues). The higher climb is kept.
    let even: Vec<Vec<u32>> = classes
        .classes
        .iter()
        .map(|class| {
            let n = class.cells.len();
            (0..k).map(|r| ((n + k - 1 - r) / k) as u32).collect()
        })
        .collect();
    let mut rng = ChaCha8Rng::seed_from_u64(START_SEED);
    let random: Vec<Vec<u32>> = classes
        .classes
        .iter()
        .map(|class| {
            let mut counts = vec![0u32; k];
            for _ in &class.cells {
                counts[rng.random_range(0..k)] += 1;
            }
            counts
        })
        .collect();
    let mut half = work.share_of(2);
    let first = climb_from(classes, members, even, &mut half);
    work.absorb(&mut half);
    let second = climb_from(classes, members, random, work);
    Some(if second.weight > first.weight { second } else { first })
}

/// One tabu search from `counts`: every step makes the best move (one
/// cell of a class to another residue) of a class no recent move made
/// tabu, even downhill, so that it walks off the local tops a greedy climb
/// stops at (5x5 over Z_3: 24 presses, the most, where the greedy climb
/// stopped at 23). Higher is better; at the same height, fewer members
/// there. Stops after [`PATIENCE`] steps without a new best, after
/// [`MAX_MOVES`], or when `work` runs out.
fn climb_from(classes: &Classes, members: usize, mut counts: Vec<Vec<u32>>, work: &mut Work) -> Climbed {
    let k = usize::from(classes.states);
    let mut rng = ChaCha8Rng::seed_from_u64(START_SEED);
    let mut weights = Weights::new(classes, members, &counts);
    let mut best = (weights.lightest().0, counts.clone());
    // The step from which each class may move again.
    let mut free_at = vec![0usize; counts.len()];
    let mut since_best = 0;
    for step in 0..MAX_MOVES {
        if since_best >= PATIENCE {
            break;
        }
        let mut chosen: Option<(Height, Move)> = None;
        for class in 0..counts.len() {
            for from in (0..k).filter(|&r| counts[class][r] > 0) {
                for to in (0..k).filter(|&r| r != from) {
                    if !work.spend(members as u64) {
                        return Climbed { weight: best.0, counts: best.1 };
                    }
                    let after = weights.after_move(class, from, to);
                    // A tabu class moves only to a new best.
                    if free_at[class] > step && after.0 <= best.0 {
                        continue;
                    }
                    let better = |than: Height| after.0 > than.0 || (after.0 == than.0 && after.1 < than.1);
                    if chosen.is_none_or(|(c, _)| better(c)) {
                        chosen = Some((after, (class, from, to)));
                    }
                }
            }
        }
        let Some((after, (class, from, to))) = chosen else { break };
        counts[class][from] -= 1;
        counts[class][to] += 1;
        weights.apply(class, from, to);
        free_at[class] = step + TENURE + rng.random_range(0..=counts.len() / 8);
        if after.0 > best.0 {
            best = (after.0, counts.clone());
            since_best = 0;
        } else {
            since_best += 1;
        }
    }
    Climbed { weight: best.0, counts: best.1 }
}

/// Steps a class stays tabu after it moves, plus a seeded share of the
/// classes (so that longer cycles break too).
const TENURE: usize = 7;

/// Steps without a new best before a climb gives up.
const PATIENCE: usize = 2000;

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;
    use crate::analysis::hardest::QuietCode;

    /// The lightest member's weight of the coset of `presses`, by brute
    /// force over the kernel's members.
    fn lightest(code: &QuietCode, presses: &[u8]) -> u64 {
        let k = u32::from(code.states);
        let members: u32 = code.generators.iter().map(|g| g.1).product();
        (0..members)
            .map(|mut s| {
                let mut cells: Vec<u32> = presses.iter().map(|&p| u32::from(p)).collect();
                for (values, order) in &code.generators {
                    let times = s % order;
                    s /= order;
                    for (cell, &v) in cells.iter_mut().zip(values) {
                        *cell = (*cell + times * u32::from(v)) % k;
                    }
                }
                cells.iter().map(|&c| u64::from(c)).sum()
            })
            .min()
            .unwrap()
    }

    #[test]
    fn a_climb_claims_what_its_board_weighs_and_never_more_than_the_most() {
        let never = || false;
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for _ in 0..200 {
            let states = rng.random_range(3..=5u8);
            let cells = rng.random_range(2..=7usize);
            // A generator of order K (a random vector; its multiples are
            // the kernel), and for K = 4 sometimes one of order 2.
            let mut generators =
                vec![((0..cells).map(|_| rng.random_range(0..states)).collect::<Vec<u8>>(), 0)];
            generators[0].1 = u32::from(states);
            if states == 4 && rng.random::<bool>() {
                generators.push(((0..cells).map(|_| 2 * rng.random_range(0..2u8)).collect(), 2));
            }
            let code = QuietCode { states, cells, generators };
            let classes = Classes::new(&code);
            let mut work = Work::new(u64::MAX, &never);
            let Some(climbed) = climb(&classes, &mut work) else { continue };
            // The board its counts spread over the cells, the untouched
            // ones left out (as the claim leaves them).
            let mut presses = vec![0u8; cells];
            for (class, counts) in classes.classes.iter().zip(&climbed.counts) {
                let residues =
                    counts.iter().enumerate().flat_map(|(r, &n)| std::iter::repeat_n(r as u8, n as usize));
                for (&cell, r) in class.cells.iter().zip(residues) {
                    presses[cell] = r;
                }
            }
            assert_eq!(lightest(&code, &presses), climbed.weight);
            let most = (0..u32::from(states).pow(cells as u32))
                .map(|mut x| {
                    let p: Vec<u8> = (0..cells)
                        .map(|_| {
                            let d = (x % u32::from(states)) as u8;
                            x /= u32::from(states);
                            d
                        })
                        .collect();
                    let untouched: u64 = classes.untouched.iter().map(|&c| u64::from(p[c])).sum();
                    lightest(&code, &p) - untouched
                })
                .max()
                .unwrap();
            assert!(climbed.weight <= most, "{} > {most}", climbed.weight);
        }
    }
}
