//! The local search, for cosets beyond the exhaustive budget.

use std::sync::atomic::{AtomicBool, Ordering};

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::units::Units;

/// Seeded restarts of the local search after its first descent.
const RESTARTS: u32 = 32;

/// Seed of the restarts, so that every run gives the same answer.
const SEED: u64 = 0x5eed_0f2a;

/// The local search beyond the budget: coordinate descent over the
/// generators' multiples, from the particular and then from seeded
/// restarts (the best member so far with one to three coefficients
/// redrawn), until `limit` unit-coefficient steps are spent ([`LOCAL_WORK`](super::LOCAL_WORK)
/// for a whole local search, less for a quick answer), [`RESTARTS`]
/// restarts have run, or a member meets `bound`. Returns the best member's value per
/// unit.
///
/// One descent pass tries, for each generator in turn, every multiple to
/// add and takes the one that lowers the weight most (the smallest on a
/// tie), until a whole pass changes nothing. Weighing every multiple of a
/// generator at once costs one pass over the units: a histogram of (unit
/// value, key digit) gives each multiple's change from suffix sums.
pub(super) fn descend(
    k: u8,
    units: &Units,
    orders: &[u32],
    bound: u64,
    limit: u64,
    stop: Option<&AtomicBool>,
) -> Vec<u8> {
    let y = units.value.clone();
    let mut walk = Walk { k: usize::from(k), units, orders, y, work: 0, limit, hist: Vec::new(), stop };
    let mut weight: u64 = walk.y.iter().zip(&units.mult).map(|(&v, &m)| u64::from(v) * u64::from(m)).sum();
    weight = walk.descend(weight);
    let (mut best, mut best_weight) = (walk.y.clone(), weight);
    let mut rng = ChaCha8Rng::seed_from_u64(SEED);
    let d = orders.len();
    for _ in 0..RESTARTS {
        if walk.work >= walk.limit || best_weight <= bound || walk.stopped() {
            break;
        }
        walk.y.clone_from(&best);
        let mut weight = best_weight;
        for _ in 0..1 + rng.random_range(0..d.min(3)) {
            let i = rng.random_range(0..d);
            let delta = rng.random_range(1..orders[i]);
            weight = walk.add(i, delta, weight);
        }
        weight = walk.descend(weight);
        if weight < best_weight {
            best.clone_from(&walk.y);
            best_weight = weight;
        }
    }
    best
}

/// A member of the coset during the local search: the value of each unit.
struct Walk<'a> {
    k: usize,
    units: &'a Units<'a>,
    orders: &'a [u32],
    y: Vec<u8>,
    /// Units looked at so far, over all coefficients.
    work: u64,
    /// The most `work` may reach.
    limit: u64,
    hist: Vec<u64>,
    /// Once set, the walk ends after its current pass.
    stop: Option<&'a AtomicBool>,
}

impl Walk<'_> {
    fn stopped(&self) -> bool {
        self.stop.is_some_and(|s| s.load(Ordering::Relaxed))
    }

    /// Descent passes from the current member until none improves or the
    /// work is spent; returns the new weight.
    fn descend(&mut self, mut weight: u64) -> u64 {
        loop {
            let mut improved = false;
            for i in 0..self.orders.len() {
                if self.work >= self.limit {
                    return weight;
                }
                if let Some(delta) = self.best_multiple(i) {
                    weight = self.add(i, delta, weight);
                    improved = true;
                }
            }
            if !improved || self.stopped() {
                return weight;
            }
        }
    }

    /// The multiple of generator `i` whose addition lowers the weight most,
    /// if any does.
    fn best_multiple(&mut self, i: usize) -> Option<u32> {
        let (k, r) = (self.k, self.orders[i] as usize);
        let unit = k / r;
        let col = &self.units.cols[i];
        // Four histograms filled in turn, summed after: consecutive units
        // rarely wait for each other's increments.
        let size = r * k;
        self.hist.clear();
        self.hist.resize(4 * size, 0);
        let bin: [u32; 256] = std::array::from_fn(|e| (e / unit * k) as u32);
        let bin_of = |e: u8, y: u8| bin[usize::from(e)] as usize + usize::from(y);
        let (hist, y) = (&mut self.hist, &self.y);
        if self.units.of_cell.is_none() {
            // One cell a unit: no multiplicities to read.
            let (cols4, ys4) = (col.chunks_exact(4), y.chunks_exact(4));
            let (col_rest, y_rest) = (cols4.remainder(), ys4.remainder());
            for (e, y) in cols4.zip(ys4) {
                for j in 0..4 {
                    hist[j * size + bin_of(e[j], y[j])] += 1;
                }
            }
            for (&e, &y) in col_rest.iter().zip(y_rest) {
                hist[bin_of(e, y)] += 1;
            }
        } else {
            for (j, ((&e, &y), &m)) in col.iter().zip(y).zip(&self.units.mult).enumerate() {
                hist[(j & 3) * size + bin_of(e, y)] += u64::from(m);
            }
        }
        for j in 0..size {
            hist[j] += hist[size + j] + hist[2 * size + j] + hist[3 * size + j];
        }
        self.work += col.len() as u64 + (r * k) as u64;
        // change[δ]: the weight change of adding δ·g_i.
        let mut change = vec![0i64; r];
        let mut suffix = vec![0u64; k + 1];
        for digit in 1..r {
            let row = &self.hist[digit * k..(digit + 1) * k];
            for y in (0..k).rev() {
                suffix[y] = suffix[y + 1] + row[y];
            }
            let units = suffix[0] as i64;
            if units == 0 {
                continue;
            }
            for (delta, ch) in change.iter_mut().enumerate().skip(1) {
                // Each unit gains t, less K for those at K − t or above.
                let t = delta * digit * unit % k;
                *ch += t as i64 * units - (k as i64) * suffix[k - t] as i64 * i64::from(t != 0);
            }
        }
        let (delta, &gain) = change.iter().enumerate().skip(1).min_by_key(|&(delta, &ch)| (ch, delta))?;
        (gain < 0).then_some(delta as u32)
    }

    /// Adds `delta`·g_i to the member; returns the new weight.
    fn add(&mut self, i: usize, delta: u32, weight: u64) -> u64 {
        let k = self.k;
        let add: [u8; 256] = std::array::from_fn(|e| (e * delta as usize % k) as u8);
        let mut weight = weight as i64;
        for ((y, &e), &m) in self.y.iter_mut().zip(self.units.cols[i].iter()).zip(&self.units.mult) {
            let old = usize::from(*y);
            let mut new = old + usize::from(add[usize::from(e)]);
            if new >= k {
                new -= k;
            }
            *y = new as u8;
            weight += (new as i64 - old as i64) * i64::from(m);
        }
        self.work += self.y.len() as u64;
        weight as u64
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{borrowed, members, random_coset};
    use super::super::{minimize, weight};
    use super::*;

    #[test]
    fn local_search_claims_only_true_minima() {
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        let mut proven = 0;
        for k in [2u8, 3, 4, 5, 6, 8, 9] {
            for round in 0..40 {
                let n = rng.random_range(1..25);
                let d = rng.random_range(1..5);
                let (x0, gens) = random_coset(&mut rng, k, n, d);
                let all = members(k, &x0, &gens);
                let true_min = all.iter().map(|m| weight(m)).min().unwrap();
                let got = minimize(k, &x0, &borrowed(&gens), 0);
                // A member, of the weight the enumeration gives it.
                let weighed = all.iter().find(|m| **m == got.presses).map(|m| weight(m));
                assert_eq!(weighed, Some(got.total), "K={k} round {round}: not a member of that weight");
                assert!(got.lower_bound <= true_min && true_min <= got.total, "K={k} round {round}");
                if got.proven_minimal {
                    assert_eq!(got.total, true_min, "K={k} round {round}: claimed proven");
                    proven += 1;
                }
            }
        }
        // The bound is met often enough to be worth having.
        assert!(proven > 20, "{proven}");
    }
}
