//! Beyond exhaustive reach: an anytime local search with a lower bound.
//!
//! Iterated local search over the masks: from a start, flip the basis
//! pattern (or pair of patterns) that lowers the weight most until none
//! does; then kick the best member found by a few random flips and descend
//! again. Each step weighs every flip at once through the cells' keys, so a
//! step costs O(groups · d), never a pass over the board per pattern.

use std::time::{Duration, Instant};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::coset::Coset;
use crate::solve::slices::{Best, Mask};

/// How much a local search may spend.
#[derive(Clone, Debug)]
pub struct Budget {
    /// Descents (each from a kicked copy of the best so far).
    pub descents: u64,
    /// Work, in group-and-pattern steps (one signed count updated): the
    /// search stops once past it (a descent finishes its current step).
    pub work: u64,
    /// Stop once this much time has passed, whatever `descents` says.
    pub time_limit: Option<Duration>,
    /// Seed of the kicks, so that a run can be repeated.
    pub seed: u64,
}

impl Default for Budget {
    fn default() -> Self {
        Budget { descents: 200, work: DEFAULT_WORK, time_limit: None, seed: 1 }
    }
}

/// Default work of a local search (all-black 61x61 takes 0.03 s with it here).
pub const DEFAULT_WORK: u64 = 200_000_000;

/// What a local search found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Anytime {
    /// The lightest member found.
    pub best: Best,
    /// No member is lighter than this.
    pub lower_bound: u64,
    /// Descents run.
    pub descents: u64,
}

impl Anytime {
    /// Whether the best member is proven minimal: it meets the bound.
    pub fn proven(&self) -> bool {
        self.best.weight <= self.lower_bound
    }
}

/// What a search stopped short (or never started: `searched` is `None`)
/// answers: the better of the best it found and a local search's within
/// `budget`, with the local search's bound: proven only when it meets it.
/// The one place this is settled, for the library and the command line.
pub fn settle_stopped(coset: &Coset, searched: Option<Best>, budget: &Budget) -> Anytime {
    let local = improve(coset, budget);
    let best = Best::better(searched, Some(local.best)).unwrap_or(local.best);
    Anytime { best, ..local }
}

/// The lightest member of `coset` that a local search finds within
/// `budget`, with a lower bound on every member's weight.
///
/// # Complexity
/// O(groups · d) per flip, O(groups · d²) per pair check.
pub fn improve(coset: &Coset, budget: &Budget) -> Anytime {
    let started = Instant::now();
    let lower_bound = coset.lower_bound();
    let d = coset.nullity();
    let mut rng = ChaCha8Rng::seed_from_u64(budget.seed);
    let mut walk = Walk::new(coset, 0);
    walk.descend(budget.work);
    let mut best = walk.best();
    let mut descents = 1;
    while descents < budget.descents
        && walk.work < budget.work
        && best.weight > lower_bound
        && d > 0
        && budget.time_limit.is_none_or(|limit| started.elapsed() < limit)
    {
        // Kick: a few random flips of the best member so far.
        let mut start = best.mask.bits();
        for _ in 0..1 + rng.random_range(0..d.min(6)) {
            start ^= 1u128 << rng.random_range(0..d);
        }
        walk = Walk::new(coset, start).spent(walk.work);
        walk.descend(budget.work);
        best = Best::better(Some(best), Some(walk.best())).unwrap_or(best);
        descents += 1;
    }
    Anytime { best, lower_bound, descents }
}

/// A member of the coset with, per group, its current signed contribution
/// to `W` (see [`Coset`]).
struct Walk<'a> {
    coset: &'a Coset,
    mask: u128,
    signed: Vec<i64>,
    /// Work done so far, in group-and-pattern steps.
    work: u64,
}

impl<'a> Walk<'a> {
    fn new(coset: &'a Coset, mask: u128) -> Self {
        let signed: Vec<i64> = coset
            .groups()
            .iter()
            .map(
                |&(key, count)| if (key & mask).count_ones() % 2 == 1 { -count as i64 } else { count as i64 },
            )
            .collect();
        let work = signed.len() as u64;
        Walk { coset, mask, signed, work }
    }

    /// The same walk, counting `work` already done before it.
    fn spent(mut self, work: u64) -> Self {
        self.work += work;
        self
    }

    fn best(&self) -> Best {
        let sum: i64 = self.signed.iter().sum();
        Best { weight: ((self.coset.cells() as i64 - sum) / 2) as u64, mask: Mask::from_bits(self.mask) }
    }

    /// How much `W` grows when pattern j is flipped, for every j.
    fn gains(&mut self) -> Vec<i64> {
        self.work += (self.signed.len() * self.coset.nullity()) as u64;
        let mut gains = vec![0i64; self.coset.nullity()];
        for (&(key, _), &s) in self.coset.groups().iter().zip(&self.signed) {
            let mut bits = key;
            while bits != 0 {
                gains[bits.trailing_zeros() as usize] -= 2 * s;
                bits &= bits - 1;
            }
        }
        gains
    }

    fn flip(&mut self, flips: u128) {
        self.mask ^= flips;
        for (&(key, _), s) in self.coset.groups().iter().zip(self.signed.iter_mut()) {
            if (key & flips).count_ones() % 2 == 1 {
                *s = -*s;
            }
        }
    }

    /// Steepest descent by single flips, then by pairs, until neither helps
    /// or the work passes `limit`.
    fn descend(&mut self, limit: u64) {
        while self.work < limit {
            let gains = self.gains();
            let steepest = gains.iter().enumerate().max_by_key(|&(j, &g)| (g, std::cmp::Reverse(j)));
            if let Some((j, _)) = steepest.filter(|&(_, &g)| g > 0) {
                self.flip(1u128 << j);
                continue;
            }
            match self.best_pair(&gains) {
                Some(pair) => self.flip(pair),
                None => return,
            }
        }
    }

    /// The pair of flips that grows `W` most, if any does: flipping j and k
    /// changes the groups holding exactly one of them.
    fn best_pair(&mut self, gains: &[i64]) -> Option<u128> {
        let d = self.coset.nullity();
        self.work += (self.signed.len() * d * d / 2) as u64;
        // shared[j][k]: Σ of the signed counts of groups holding both j and k.
        let mut shared = vec![0i64; d * d];
        for (&(key, _), &s) in self.coset.groups().iter().zip(&self.signed) {
            let mut a = key;
            while a != 0 {
                let j = a.trailing_zeros() as usize;
                a &= a - 1;
                let mut b = a;
                while b != 0 {
                    shared[j * d + b.trailing_zeros() as usize] += s;
                    b &= b - 1;
                }
            }
        }
        let mut best = (0i64, 0u128);
        for j in 0..d {
            for k in j + 1..d {
                // Groups with both bits keep their sign: add back what the
                // two single gains took from them.
                let gain = gains[j] + gains[k] + 4 * shared[j * d + k];
                if gain > best.0 {
                    best = (gain, 1u128 << j | 1u128 << k);
                }
            }
        }
        (best.0 > 0).then_some(best.1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Generate, Grid};

    #[test]
    fn local_search_is_never_below_the_bound_and_often_optimal() {
        let mut optimal = 0;
        for seed in 0..20u64 {
            let x = Generate::Random { seed, density: 0.5 }.board(6, 6);
            let basis: Vec<Grid> = (0..10u64)
                .map(|j| Generate::Random { seed: 500 + seed * 16 + j, density: 0.2 }.board(6, 6))
                .collect();
            let coset = Coset::new(&x, &basis);
            let exact = (0..1u64 << 10).map(|s| coset.weight(Mask::from_bits(s))).min().unwrap();
            let found = improve(&coset, &Budget::default());
            assert_eq!(coset.weight(found.best.mask), found.best.weight);
            assert!(found.lower_bound <= exact && exact <= found.best.weight);
            optimal += usize::from(found.best.weight == exact);
        }
        assert!(optimal >= 15, "local search found the minimum on only {optimal} of 20");
    }
}
