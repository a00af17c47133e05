//! Two states: whether a level of the signed counts is reached, by a branch
//! and bound in integers whose refutation is the proof.
//!
//! The question is [`Spectrum::decide`](super::spectrum::Spectrum::decide)'s:
//! some signed counts `e` (class `k` of `n_k` cells: `e_k ≡ n_k` mod 2,
//! `|e_k| ≤ n_k`) with `F(s) = Σ_k χ_s(k)·e_k ≥ L` for every member `s`.
//! It is Most Clicks' leader program, `max Σ a_k` with every quiet pattern
//! `q` meeting at most half of itself, in the members' coordinates: the
//! lightest member of the hardest coset is the one at `min F`.
//!
//! What makes it fast enough for 9x9 (nullity 8, 55 classes: the level
//! above 37 presses refuted in about 1.5·10^10 weighings, where the
//! plain search of `decide` had not finished after 4·10^10):
//! - **A flag of sub-spans as cuts.** The keys are read in a basis of class
//!   keys chosen so that `U_1 ⊂ U_2 ⊂ … ⊂ U_d`, `U_i` the span of the first
//!   `i`, hold as many classes as they can; the classes are searched `U_1`
//!   first, then `U_2`'s new ones, and so on. Averaging `F` over the members
//!   that agree on `U_i` cancels every class outside `U_i` (the sub-span
//!   ceilings of `spectrum.rs`), so every `G_i(b) = Σ_{k ∈ U_i} χ_b(k)·e_k`
//!   must reach `L` too. Those rows close as soon as `U_i`'s classes are set,
//!   long before the last class of the whole space is.
//! - **Intervals, propagated.** Each class not yet set keeps an interval of
//!   its parity; a row's slack (its most, with every open class at its best
//!   end, above `L`) bounds every open class in it, and a class whose
//!   interval narrows lowers every row's most in turn, to a fixpoint. A row
//!   whose most is below `L`, or an empty interval, refutes the node.
//! - **The box `|e_k| ≤ −L`**: `Σ_s F(s) = 0` and `F ≥ L` make `F − L` a
//!   non-negative vector of total `−L·2^d`, and `e_k` is its transform over
//!   `2^d`, so no class needs more than `−L` (`decide`'s box is `−2L − 1`).
//! - **Signs fixed** on the first class of each `U_i`: its key is outside
//!   `U_{i−1}`, so a character of the kernel flips it and keeps every class
//!   before it (and every minimum).
//!
//! All arithmetic is in `i64` on integers: a refuted level is refuted.

use super::level::{Level, Span};
use super::work::Work;

/// Most kernel dimension the search takes: its rows over every `U_i` hold
/// `2^(d+1)` integers (32 MiB at 21).
pub(crate) const MAX_LEADER_BITS: usize = 21;

/// One class in the search's order.
#[derive(Clone, Debug)]
struct Slot {
    /// Where it is in the caller's classes.
    class: usize,
    /// Its key in the flag's basis.
    key: u64,
    /// Cells.
    size: i64,
    /// The first `U_i` it lies in is `U_{top + 1}`.
    top: usize,
    /// Whether its sign may be fixed (the first of its `U_i`).
    free_sign: bool,
    /// `χ_b(key)` as ±1 for the members `b < 64`: a row of `2^u` members
    /// is walked 64 at a time, each block this or its negation.
    signs: [i64; BLOCK],
}

/// Members per block of a row (the key's low 6 bits).
const BLOCK: usize = 64;

/// The classes of a two-state kernel of dimension `bits`, in the flag's
/// order, ready for [`Leader::decide`].
pub(crate) struct Leader {
    bits: usize,
    slots: Vec<Slot>,
}

impl Leader {
    /// The flag for classes of these (distinct, nonzero) keys and sizes.
    pub fn new(bits: usize, keys: &[u64], sizes: &[u64]) -> Leader {
        debug_assert!(bits <= MAX_LEADER_BITS && keys.len() == sizes.len());
        let span = flag(keys, bits);
        let mut slots: Vec<Slot> = keys
            .iter()
            .zip(sizes)
            .enumerate()
            .map(|(class, (&key, &size))| {
                // Every key is in the flag's span: `flag` adds keys until
                // none is outside it.
                let key = span.coords(key).unwrap_or_default();
                let top = (u64::BITS - 1).saturating_sub(key.leading_zeros()) as usize;
                let signs = std::array::from_fn(|b| if even(key, b) { 1 } else { -1 });
                Slot { class, key, size: size as i64, top, free_sign: false, signs }
            })
            .collect();
        // Each U_i's classes together; the smallest first (fewest choices,
        // and on 9x9 and 16x16 half the nodes of the largest first).
        slots.sort_by_key(|slot| (slot.top, slot.size, slot.class));
        for i in 0..slots.len() {
            slots[i].free_sign = i == 0 || slots[i].top != slots[i - 1].top;
        }
        Leader { bits: span.basis.len(), slots }
    }

    /// Whether some signed counts keep every `F(s)` at `level` or above:
    /// the counts (in the caller's class order) when they do, `Refuted`
    /// when the search proves none does, `Unknown` when `work` runs out;
    /// with the share of the search tree done (each node's share split
    /// evenly among its values), from which a caller may guess the rest.
    pub fn decide(&self, level: i64, work: &mut Work) -> (Level, f64) {
        let classes = self.slots.len();
        if classes == 0 {
            return (if level <= 0 { Level::Reached(Vec::new()) } else { Level::Refuted }, 1.0);
        }
        let reach = -level;
        let mut search = Search {
            slots: &self.slots,
            bits: self.bits,
            level,
            centre: (0..=self.bits).map(|i| vec![0i64; 1 << i]).collect(),
            half: vec![0; self.bits + 1],
            low: vec![0; classes],
            high: vec![0; classes],
            work,
            done: 0.0,
            percent: 0,
        };
        for (i, slot) in self.slots.iter().enumerate() {
            let top = reach.min(slot.size);
            // The largest value of the class's parity within the box.
            let top = top - (top - slot.size).rem_euclid(2);
            if top < 0 {
                return (Level::Refuted, 1.0);
            }
            let low = if slot.free_sign { slot.size % 2 } else { -top };
            if !search.set(i, low, top) {
                return (Level::Unknown, 0.0);
            }
        }
        let mut changed = Vec::new();
        let found = match search.propagate(0, &mut changed) {
            Some(true) => search.descend(0, 1.0),
            Some(false) => Some(false),
            None => None,
        };
        let level = match found {
            Some(true) => {
                let mut e = vec![0i64; classes];
                for (i, slot) in self.slots.iter().enumerate() {
                    e[slot.class] = search.low[i];
                }
                Level::Reached(e)
            }
            Some(false) => Level::Refuted,
            None => Level::Unknown,
        };
        let done = if matches!(level, Level::Unknown) { search.done } else { 1.0 };
        (level, done)
    }
}

/// A basis of class keys, chosen greedily so that the span of the first
/// `i` holds as many classes as it can, for every `i` in turn.
fn flag(keys: &[u64], bits: usize) -> Span {
    let mut span = Span::default();
    while span.basis.len() < bits {
        let mut best: Option<(usize, u64)> = None;
        for &key in keys.iter().filter(|&&key| span.coords(key).is_none()) {
            let mut grown = span.clone();
            grown.add(key);
            let held = keys.iter().filter(|&&k| grown.coords(k).is_some()).count();
            if best.is_none_or(|(most, _)| held > most) {
                best = Some((held, key));
            }
        }
        // Keys spanning less than the kernel: the rest is never reached.
        let Some((_, key)) = best else { break };
        span.add(key);
    }
    span
}

/// `χ_b(key)`: whether member `b` leaves a class of this key's sign as it is.
fn even(key: u64, b: usize) -> bool {
    (key & b as u64).count_ones().is_multiple_of(2)
}

/// One run of [`Leader::decide`]: every class's interval, and each
/// `U_i`'s rows as the transform of the intervals' centres plus the sum of
/// their half-widths (a row's most).
struct Search<'a, 'w> {
    slots: &'a [Slot],
    bits: usize,
    level: i64,
    /// `centre[i][b]`: `Σ_{k ∈ U_i} χ_b(k)·(low_k + high_k)/2`.
    centre: Vec<Vec<i64>>,
    /// `half[i]`: `Σ_{k ∈ U_i} (high_k − low_k)/2`.
    half: Vec<i64>,
    low: Vec<i64>,
    high: Vec<i64>,
    work: &'a mut Work<'w>,
    /// The share of the search tree refuted so far.
    done: f64,
    /// The whole percents of it: each new one is progress for the work's
    /// patience (the search's own measure, where no bound moves until the
    /// level is decided).
    percent: u32,
}

/// An interval as it was before propagation narrowed it: class, low, high.
type Narrowed = (usize, i64, i64);

impl Search<'_, '_> {
    /// Sets class `i`'s interval to `low..=high`, the rows following
    /// (false once the work runs out).
    fn set(&mut self, i: usize, low: i64, high: i64) -> bool {
        let shift = (low + high - self.low[i] - self.high[i]) / 2;
        let widen = (high - low - self.high[i] + self.low[i]) / 2;
        let slot = &self.slots[i];
        for u in slot.top + 1..=self.bits {
            self.half[u] += widen;
            if shift != 0 {
                let rows = &mut self.centre[u];
                if !self.work.spend(rows.len() as u64) {
                    return false;
                }
                for (block, rows) in rows.chunks_mut(BLOCK).enumerate() {
                    let shift = if even(slot.key >> 6, block) { shift } else { -shift };
                    for (row, &sign) in rows.iter_mut().zip(&slot.signs) {
                        *row += sign * shift;
                    }
                }
            }
        }
        (self.low[i], self.high[i]) = (low, high);
        true
    }

    /// Narrows the intervals of the classes from `open` on to a fixpoint,
    /// noting each one's old interval in `changed`: `Some(false)` when a
    /// row cannot reach the level or an interval empties, `None` when the
    /// work runs out.
    fn propagate(&mut self, open: usize, changed: &mut Vec<Narrowed>) -> Option<bool> {
        loop {
            let mut moved = false;
            for u in 1..=self.bits {
                let spare = self.half[u] - self.level;
                let lowest = self.centre[u].iter().copied().min().unwrap_or(0);
                if lowest + spare < 0 {
                    return Some(false);
                }
                // A row narrows a class only if its slack is below the
                // class's width.
                let widest = (open..self.slots.len())
                    .filter(|&i| self.slots[i].top < u)
                    .map(|i| self.high[i] - self.low[i])
                    .max()
                    .unwrap_or(0);
                if lowest + spare >= widest {
                    continue;
                }
                for i in open..self.slots.len() {
                    if self.slots[i].top >= u || self.high[i] == self.low[i] {
                        continue;
                    }
                    if !self.work.spend(1 << u) {
                        return None;
                    }
                    let slot = &self.slots[i];
                    let (mut kept, mut flipped) = (i64::MAX, i64::MAX);
                    for (block, rows) in self.centre[u].chunks(BLOCK).enumerate() {
                        let negated = !even(slot.key >> 6, block);
                        for (&row, &sign) in rows.iter().zip(&slot.signs) {
                            // Branch-free, so that the block vectorises.
                            let keeps = (sign > 0) != negated;
                            kept = kept.min(if keeps { row } else { i64::MAX });
                            flipped = flipped.min(if keeps { i64::MAX } else { row });
                        }
                    }
                    // A row counts the class at its high end where it keeps
                    // it, at its low end negated where it flips it.
                    let (low, high) = (self.low[i], self.high[i]);
                    let mut new_low = low.max(high - kept - spare);
                    let mut new_high = high.min(low + flipped + spare);
                    new_low += (new_low - low).rem_euclid(2);
                    new_high -= (high - new_high).rem_euclid(2);
                    if new_low > new_high {
                        return Some(false);
                    }
                    if (new_low, new_high) != (low, high) {
                        changed.push((i, low, high));
                        if !self.set(i, new_low, new_high) {
                            return None;
                        }
                        moved = true;
                    }
                }
            }
            if !moved {
                return Some(true);
            }
        }
    }

    /// Counts a refuted node of this share of the tree, telling the work of
    /// each new whole percent refuted (9x9's level above 37: at most
    /// 2.5·10^9 weighings between two, of 1.5·10^10 in all).
    fn refuted(&mut self, share: f64) {
        self.done += share;
        let percent = (self.done * 100.0) as u32;
        if percent > self.percent {
            self.percent = percent;
            self.work.progressed();
        }
    }

    /// Tries each value of class `i`'s interval, propagating: `Some(true)`
    /// with every interval a single value when the level is reached
    /// (`share`: the node's share of the whole tree).
    fn descend(&mut self, i: usize, share: f64) -> Option<bool> {
        if i == self.slots.len() {
            return Some(true);
        }
        let (low, high) = (self.low[i], self.high[i]);
        let share = share / ((high - low) / 2 + 1) as f64;
        let mut value = low;
        while value <= high {
            if !self.set(i, value, value) {
                return None;
            }
            let mut changed = Vec::new();
            let reached = match self.propagate(i + 1, &mut changed)? {
                true => self.descend(i + 1, share)?,
                false => {
                    self.refuted(share);
                    false
                }
            };
            if reached {
                return Some(true);
            }
            for &(j, old_low, old_high) in changed.iter().rev() {
                if !self.set(j, old_low, old_high) {
                    return None;
                }
            }
            value += 2;
        }
        self.set(i, low, high).then_some(false)
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::super::spectrum::Spectrum;
    use super::*;

    /// The highest level some signed counts reach, by `decide` level by level.
    fn highest(decide: impl Fn(i64) -> Level, ceiling: i64) -> (i64, Vec<i64>) {
        let mut level = ceiling;
        loop {
            match decide(level) {
                Level::Reached(e) => return (level, e),
                Level::Refuted => level -= 2,
                Level::Unknown => unreachable!("no budget was set"),
            }
        }
    }

    #[test]
    fn agrees_with_the_plain_search_on_random_codes() {
        let never = || false;
        let mut rng = ChaCha8Rng::seed_from_u64(34);
        for round in 0..400 {
            let bits = rng.random_range(1..=6usize);
            let mut keys: Vec<u64> = (1..1u64 << bits).filter(|_| rng.random_range(0..3) == 0).collect();
            keys.truncate(12);
            let sizes: Vec<u64> = keys.iter().map(|_| rng.random_range(1..=5)).collect();
            let spectrum = Spectrum::new(bits, keys.clone(), sizes.clone());
            let leader = Leader::new(bits, &keys, &sizes);
            let ceiling = spectrum.parity_ceiling();
            let truth = highest(|l| spectrum.decide(l, &mut Work::new(u64::MAX, &never)), ceiling).0;
            let (level, e) = highest(|l| leader.decide(l, &mut Work::new(u64::MAX, &never)).0, ceiling);
            assert_eq!(level, truth, "round {round}: {keys:?} {sizes:?}");
            // The counts found are counts of the classes, reaching the level.
            for (&v, &n) in e.iter().zip(&sizes) {
                assert!(v.unsigned_abs() <= n && (v - n as i64) % 2 == 0, "{e:?} {sizes:?}");
            }
            assert!(*spectrum.transform(&e).iter().min().unwrap_or(&0) >= level, "{e:?}");
        }
    }

    /// Every grid up to 12x12 (plane and torus; plus, neighbours and king
    /// rules) whose kernel has 1 to 6 dimensions and whose tally takes at
    /// most 10^9 weighings: the leader program's
    /// level, from the parity ceiling down, gives the Most Clicks the tally
    /// counts (every board), and its counts reach that level.
    #[test]
    fn agrees_with_the_tally_on_every_small_grid() {
        use crate::model::{Puzzle, Rule, Topology};
        use crate::{Method, Solver};

        let never = || false;
        let mut settled = 0;
        for rule in [Rule::plus(), Rule::neighbours(), Rule::king()] {
            for topology in [Topology::Plane, Topology::Torus] {
                for rows in 1..=12 {
                    for cols in rows..=12 {
                        let puzzle =
                            Puzzle::new(rows, cols).unwrap().with_rule(rule.clone()).with_topology(topology);
                        let solver = Solver::new(&puzzle, Method::Auto, 64).unwrap();
                        if !(1..=6).contains(&solver.nullity()) {
                            continue;
                        }
                        let prepared = super::super::prepare(&solver, super::super::Goal::State(0)).unwrap();
                        let classes = &prepared.classes;
                        let what = format!("{rows}x{cols} {topology:?} {rule}");
                        // The tally's walk is the reference: where it is quick.
                        if super::super::spread::tally_cost(classes) > 1e9 {
                            continue;
                        }
                        let tally =
                            super::super::spread::tally(classes, &mut Work::new(u64::MAX, &never)).unwrap();
                        let most = tally.heaviest + classes.untouched.len() as u64;
                        let (keys, sizes) = (classes.bit_keys(), classes.sizes());
                        let leader = Leader::new(classes.orders.len(), &keys, &sizes);
                        let ceiling = super::super::spectrum::parity_ceiling(&sizes);
                        let (level, e) =
                            highest(|l| leader.decide(l, &mut Work::new(u64::MAX, &never)).0, ceiling);
                        let cells = (classes.cells() + classes.untouched.len()) as i64;
                        assert_eq!((cells + level) as u64 / 2, most, "{what}");
                        let spectrum = Spectrum::new(classes.orders.len(), keys, sizes);
                        assert!(*spectrum.transform(&e).iter().min().unwrap() >= level, "{what}");
                        settled += 1;
                    }
                }
            }
        }
        assert!(settled > 40, "only {settled} grids of nullity 1 to 6");
    }

    #[test]
    fn runs_out_of_work_as_unknown() {
        let never = || false;
        // 4x4's 12 classes: level −2 (7 presses) takes more than 10 weighings.
        let keys = [1, 2, 3, 4, 5, 7, 8, 10, 11, 12, 13, 14];
        let sizes = [2, 1, 1, 1, 1, 2, 2, 1, 1, 1, 1, 2];
        let leader = Leader::new(4, &keys, &sizes);
        assert!(matches!(leader.decide(-2, &mut Work::new(10, &never)), (Level::Unknown, _)));
        assert!(matches!(leader.decide(-2, &mut Work::new(u64::MAX, &never)), (Level::Reached(_), _)));
        assert!(matches!(leader.decide(0, &mut Work::new(u64::MAX, &never)), (Level::Refuted, 1.0)));
    }
}
