//! Two states: the hardest boards through the classes' signed counts.
//!
//! A press set presses `a_k` of the `n_k` cells of class `k`; write
//! `e_k = 2a_k − n_k`. Member `s` of the kernel flips class `k` when
//! `⟨k, s⟩ = 1`, so the press set plus `s` weighs
//! `a_0 + Σ_k (n_k + χ_s(k)·e_k)/2`, `χ_s(k) = (−1)^⟨k,s⟩`. The lightest
//! member weighs `a_0 + (N − n_0 + min_s F(s))/2` with `F(s) = Σ_k χ_s(k)·e_k`
//! (the Walsh transform of `e`), and the hardest board presses all of
//! class 0: most presses `= (N + n_0 + F*)/2`, `F* = max_e min_s F(s)`.
//!
//! `Σ_s F(s) = 0`, and every `F(s)` has the parity of `|O|`, the number of
//! odd classes: `F* ≤ 0`, `≤ −1` when `|O|` is odd, and `≤ −2` when it is
//! even and not zero (`F ≡ 0` only for `e = 0`). Past that, a level `L` is
//! reached by some `e` or by none ([`Spectrum::decide`]); a search that
//! reaches `L` needs no `|e_k|` above `−2L − 1` (from `F ≥ L` and
//! `Σ F = 0`, `Σ_s |F(s)| < 2^(d+1)·(−L)`, and `e` is `F`'s inverse transform),
//! so the search is finite.

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::leader::Leader;
use super::level::{Level, Span};
use super::work::Work;

/// The classes of a two-state kernel of dimension `bits`: each class's key
/// (its bit `i` says whether quiet pattern `i` flips it) and its cells.
pub(crate) struct Spectrum {
    bits: usize,
    keys: Vec<u64>,
    sizes: Vec<u64>,
}

/// Most kernel dimension whose `2^d` members are weighed here (a
/// transform of 2^24 `i64` is 128 MiB).
pub(crate) const MAX_SPECTRUM_BITS: usize = 24;

impl Spectrum {
    pub fn new(bits: usize, keys: Vec<u64>, sizes: Vec<u64>) -> Spectrum {
        debug_assert!(bits <= MAX_SPECTRUM_BITS && keys.len() == sizes.len());
        Spectrum { bits, keys, sizes }
    }

    /// The highest level the parity allows: see [`parity_ceiling`].
    pub fn parity_ceiling(&self) -> i64 {
        parity_ceiling(&self.sizes)
    }

    /// `F(s)` for every member `s`.
    pub fn transform(&self, e: &[i64]) -> Vec<i64> {
        let mut f = vec![0i64; 1 << self.bits];
        for (&key, &value) in self.keys.iter().zip(e) {
            f[key as usize] += value;
        }
        let mut half = 1;
        while half < f.len() {
            for block in f.chunks_mut(2 * half) {
                let (low, high) = block.split_at_mut(half);
                for (a, b) in low.iter_mut().zip(high) {
                    (*a, *b) = (*a + *b, *a - *b);
                }
            }
            half *= 2;
        }
        f
    }

    /// Adds `delta·χ_s(key)` to every `f(s)`; returns the new minimum and
    /// how many members reach it.
    fn shift(f: &mut [i64], key: u64, delta: i64) -> (i64, usize) {
        let (mut min, mut count) = (i64::MAX, 0);
        for (s, value) in f.iter_mut().enumerate() {
            *value += if (key & s as u64).count_ones().is_multiple_of(2) { delta } else { -delta };
            match (*value).cmp(&min) {
                std::cmp::Ordering::Less => (min, count) = (*value, 1),
                std::cmp::Ordering::Equal => count += 1,
                std::cmp::Ordering::Greater => {}
            }
        }
        (min, count)
    }

    fn min_count(f: &[i64]) -> (i64, usize) {
        let min = f.iter().copied().min().unwrap_or(0);
        (min, f.iter().filter(|&&v| v == min).count())
    }

    /// A tabu search for signed counts whose lowest `F` is as high as it
    /// can make it: the best it found, and its level. Every step takes the
    /// best move (one class by ±2) that no recent move made tabu, even
    /// downhill, so it walks off the local tops where a greedy climb stops
    /// (19x19: level −40 where the climb stopped at −50, 161 presses for
    /// 156). Moves are weighed by the level they leave and then by how
    /// few members are at it, on the members within 4 of the lowest only:
    /// a move shifts every `F(s)` by 2, so no other member can become the
    /// lowest, and a step costs two passes over the members, not one per
    /// move. Stops at `ceiling`, after [`TABU_PATIENCE`] steps without a
    /// new best, or when `work` runs out. Deterministic for a given budget.
    pub fn climb(&self, ceiling: i64, work: &mut Work) -> (i64, Vec<i64>) {
        let members = 1u64 << self.bits;
        let classes = self.keys.len();
        let mut rng = ChaCha8Rng::seed_from_u64(0x1753);
        let mut e: Vec<i64> = self.sizes.iter().map(|&n| (n % 2) as i64).collect();
        let mut f = self.transform(&e);
        let (mut min, _) = Self::min_count(&f);
        let mut best = (min, e.clone());
        // The step from which each class may move again.
        let mut free_at = vec![0usize; classes];
        // The members at the lowest level, 2 above it and 4 above it.
        let mut near: [Vec<u32>; 3] = Default::default();
        let (mut step, mut since_best) = (0usize, 0usize);
        while best.0 < ceiling && classes > 0 && since_best < TABU_PATIENCE && work.spend(2 * members) {
            for level in &mut near {
                level.clear();
            }
            for (s, &v) in f.iter().enumerate() {
                // Every F(s) has one parity.
                if let Some(level) = near.get_mut(((v - min) / 2) as usize) {
                    level.push(s as u32);
                }
            }
            let weighed = near.iter().map(Vec::len).sum::<usize>() as u64;
            let mut chosen: Option<((i64, std::cmp::Reverse<usize>), usize, i64)> = None;
            for k in 0..classes {
                for delta in [2i64, -2] {
                    if (e[k] + delta).unsigned_abs() > self.sizes[k] {
                        continue;
                    }
                    if !work.spend(weighed) {
                        return best;
                    }
                    // How many of the near members land at min − 2, min, …, min + 6.
                    let mut at = [0usize; 5];
                    for (i, level) in near.iter().enumerate() {
                        for &s in level {
                            let even = (self.keys[k] & u64::from(s)).count_ones().is_multiple_of(2);
                            at[i + 2 * usize::from(even == (delta > 0))] += 1;
                        }
                    }
                    let lowest = at.iter().position(|&n| n > 0).unwrap_or(0);
                    let level = min - 2 + 2 * lowest as i64;
                    // A tabu move only where it finds a new best.
                    if free_at[k] > step && level <= best.0 {
                        continue;
                    }
                    let score = (level, std::cmp::Reverse(at[lowest]));
                    if chosen.is_none_or(|(c, _, _)| score > c) {
                        chosen = Some((score, k, delta));
                    }
                }
            }
            let Some((_, k, delta)) = chosen else { break };
            e[k] += delta;
            (min, _) = Self::shift(&mut f, self.keys[k], delta);
            free_at[k] = step + TABU_TENURE + rng.random_range(0..=classes / 8);
            step += 1;
            if min > best.0 {
                best = (min, e.clone());
                since_best = 0;
            } else {
                since_best += 1;
            }
        }
        best
    }

    /// Whether some signed counts keep every `F(s)` at `level` or above,
    /// by a search over the finite box the level allows (see the module's
    /// doc), signs fixed on classes of independent keys (a character of
    /// the kernel flips them and keeps every minimum).
    pub fn decide(&self, level: i64, work: &mut Work) -> Level {
        let reach = (-2 * level - 1).max(0);
        let mut order = independent_first(&self.keys, self.bits);
        // Choices per class: values of its parity, within the box and the
        // class, nearest 0 first; only non-negative ones for a class whose
        // key is independent of those before it.
        let mut choices: Vec<Vec<i64>> = Vec::with_capacity(order.len());
        for &(k, free_sign) in &order {
            let n = self.sizes[k] as i64;
            let top = reach.min(n);
            let mut values: Vec<i64> =
                (-top..=top).filter(|v| (v - n).rem_euclid(2) == 0 && (!free_sign || *v >= 0)).collect();
            values.sort_by_key(|v| (v.abs(), *v < 0));
            if values.is_empty() {
                return Level::Refuted;
            }
            choices.push(values);
        }
        // The most the classes from i on can still add to any F(s).
        let mut reachable = vec![0i64; order.len() + 1];
        for i in (0..order.len()).rev() {
            reachable[i] = reachable[i + 1] + choices[i].iter().map(|v| v.abs()).max().unwrap_or(0);
        }
        let mut f = vec![0i64; 1 << self.bits];
        let mut e = vec![0i64; self.keys.len()];
        let found = self.descend(0, level, &mut order, &choices, &reachable, &mut f, &mut e, work);
        match found {
            true => Level::Reached(e),
            false if work.going() => Level::Refuted,
            false => Level::Unknown,
        }
    }

    #[allow(clippy::too_many_arguments)]
    fn descend(
        &self,
        depth: usize,
        level: i64,
        order: &mut [(usize, bool)],
        choices: &[Vec<i64>],
        reachable: &[i64],
        f: &mut [i64],
        e: &mut [i64],
        work: &mut Work,
    ) -> bool {
        if depth == order.len() {
            return true;
        }
        let members = f.len() as u64;
        let k = order[depth].0;
        for &value in &choices[depth] {
            if !work.spend(members) {
                return false;
            }
            let (min, _) = Self::shift(f, self.keys[k], value);
            if min + reachable[depth + 1] >= level {
                e[k] = value;
                if self.descend(depth + 1, level, order, choices, reachable, f, e, work) {
                    return true;
                }
            }
            Self::shift(f, self.keys[k], -value);
            if !work.going() {
                return false;
            }
        }
        e[k] = 0;
        false
    }
}

/// Steps a class stays tabu after it moves, plus a seeded share of the
/// classes (so that cycles longer than the tenure break too). Tenures of 3
/// to 15 and shares of 1/4 to 1/16 reached the same levels on 16x16 to
/// 23x23.
const TABU_TENURE: usize = 7;

/// Steps without a new best before the tabu search gives up (16,000 found
/// nothing more than 4,000 on 16x16 to 23x23).
const TABU_PATIENCE: usize = 4000;

/// Most dimension of the sub-spans [`Spectrum::span_ceiling`] solves.
pub(crate) const SPAN_BITS: usize = 8;

/// Classes tried as the next key of a growing sub-span (the smallest),
/// and odd classes a span is grown from.
const SPAN_CANDIDATES: usize = 48;
const SPAN_STARTS: usize = 16;

impl Spectrum {
    /// A ceiling at most `ceiling` on the level any signed counts reach,
    /// from sub-spans of the keys of at most `span_bits` dimensions
    /// (stopping once it meets `reached`).
    ///
    /// For a subspace `W` of the keys, average `F` over the members `s`
    /// with given values `b = (⟨w_i, s⟩)` on a basis of `W`: the classes
    /// whose key is outside `W` cancel, and what is left is the same
    /// problem on the classes inside `W`, `G(b) = Σ_{k∈W} χ_b(k)·e_k`. So
    /// `min F ≤ min G` for every `e`, and the level `F*` is at most the
    /// sub-problem's, which [`Spectrum::decide`] settles exactly when
    /// `W` is small. (Independent odd keys whose span holds no other
    /// present key give `−j` for `j` keys.) Spans are grown greedily from
    /// each small odd class, adding the key that lowers the sub-problem's
    /// level most; `F*` then takes the parity of all the odd classes.
    pub fn span_ceiling(&self, mut ceiling: i64, reached: i64, span_bits: usize, work: &mut Work) -> i64 {
        let parity = ceiling.rem_euclid(2);
        let mut by_size: Vec<usize> = (0..self.keys.len()).collect();
        by_size.sort_by_key(|&k| (self.sizes[k], k));
        let starts: Vec<usize> = by_size.iter().copied().filter(|&k| self.sizes[k] % 2 == 1).collect();
        for &start in starts.iter().take(SPAN_STARTS) {
            if ceiling <= reached || !work.going() {
                break;
            }
            let mut span = Span::default();
            span.add(self.keys[start]);
            let mut level = self.sub_level(&span, ceiling, work);
            // The whole space is the whole problem: the caller's exact
            // method, not a ceiling.
            while span.basis.len() < span_bits.min(self.bits.saturating_sub(1)) && work.going() {
                let mut best: Option<(i64, u64)> = None;
                for &k in
                    by_size.iter().filter(|&&k| span.coords(self.keys[k]).is_none()).take(SPAN_CANDIDATES)
                {
                    let mut grown = span.clone();
                    grown.add(self.keys[k]);
                    let Some(sub) = self.sub_level(&grown, ceiling, work) else { continue };
                    if best.is_none_or(|(b, _)| sub < b) {
                        best = Some((sub, self.keys[k]));
                    }
                }
                let Some((sub, key)) = best else { break };
                span.add(key);
                level = Some(sub);
                if sub < ceiling {
                    break;
                }
            }
            if let Some(sub) = level.filter(|&sub| sub < ceiling) {
                // The largest level of the whole parity at most `sub`.
                ceiling = sub - (sub - parity).rem_euclid(2);
            }
        }
        ceiling.max(reached)
    }

    /// The level of the classes inside `span` alone: exactly when it is
    /// `ceiling` or more, else a bound below `ceiling` (`None` when the work
    /// runs out).
    fn sub_level(&self, span: &Span, ceiling: i64, work: &mut Work) -> Option<i64> {
        // Reading the classes into the span's coordinates is work too.
        if !work.spend(self.keys.len() as u64 * span.basis.len() as u64) {
            return None;
        }
        let (keys, sizes): (Vec<u64>, Vec<u64>) =
            self.keys.iter().zip(&self.sizes).filter_map(|(&k, &n)| span.coords(k).map(|c| (c, n))).unzip();
        // The leader program's branch and bound decides a sub-problem's
        // levels far sooner than the plain search (both are exact).
        let mut level = parity_ceiling(&sizes);
        let sub = Leader::new(span.basis.len(), &keys, &sizes);
        while level >= ceiling {
            match sub.decide(level, work).0 {
                Level::Reached(_) => return Some(level),
                Level::Refuted => level -= 2,
                Level::Unknown => return None,
            }
        }
        Some(level)
    }
}

/// The highest level the parity of classes of `sizes` cells allows: 0,
/// −1 or −2.
pub(crate) fn parity_ceiling(sizes: &[u64]) -> i64 {
    match sizes.iter().filter(|&&n| n % 2 == 1).count() {
        0 => 0,
        odd if odd % 2 == 1 => -1,
        _ => -2,
    }
}

/// The classes in search order, each with whether its sign may be fixed:
/// first a greedy set of linearly independent keys (largest classes
/// first), then the rest, largest first.
fn independent_first(keys: &[u64], bits: usize) -> Vec<(usize, bool)> {
    let mut by_size: Vec<usize> = (0..keys.len()).collect();
    by_size.sort_by_key(|&k| (keys[k].count_ones(), k));
    let mut basis = vec![0u64; bits];
    let (mut first, mut rest) = (Vec::new(), Vec::new());
    for k in by_size {
        let mut v = keys[k];
        for (bit, &row) in basis.iter().enumerate().rev() {
            if v >> bit & 1 == 1 && row != 0 {
                v ^= row;
            }
        }
        match (0..bits).rev().find(|&bit| v >> bit & 1 == 1) {
            Some(bit) => {
                basis[bit] = v;
                first.push((k, true));
            }
            None => rest.push((k, false)),
        }
    }
    first.extend(rest);
    first
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_max_min(spectrum: &Spectrum) -> i64 {
        // Every e with |e_k| ≤ n_k of the right parity.
        let mut best = i64::MIN;
        let mut e: Vec<i64> = spectrum.sizes.iter().map(|&n| -(n as i64)).collect();
        loop {
            let f = spectrum.transform(&e);
            best = best.max(*f.iter().min().unwrap());
            let mut i = 0;
            loop {
                if i == e.len() {
                    return best;
                }
                if e[i] + 2 <= spectrum.sizes[i] as i64 {
                    e[i] += 2;
                    break;
                }
                e[i] = -(spectrum.sizes[i] as i64);
                i += 1;
            }
        }
    }

    #[test]
    fn decide_and_climb_agree_with_brute_force() {
        let never = || false;
        let mut rng = ChaCha8Rng::seed_from_u64(7);
        let (mut sharper, mut exact, mut reached) = (0, 0, 0);
        for _ in 0..300 {
            let bits = rng.random_range(1..=5usize);
            let mut keys: Vec<u64> = (1..1u64 << bits).filter(|_| rng.random::<bool>()).collect();
            keys.truncate(if bits == 5 { 9 } else { 6 });
            let sizes: Vec<u64> =
                keys.iter().map(|_| rng.random_range(1..=if bits == 5 { 2 } else { 4 })).collect();
            let spectrum = Spectrum::new(bits, keys, sizes);
            let truth = brute_max_min(&spectrum);
            assert!(truth <= spectrum.parity_ceiling());
            let mut work = Work::new(u64::MAX, &never);
            let (climbed, e) = spectrum.climb(spectrum.parity_ceiling(), &mut work);
            assert!(climbed <= truth);
            assert_eq!(*spectrum.transform(&e).iter().min().unwrap(), climbed);
            reached += usize::from(climbed == truth);
            let mut level = spectrum.parity_ceiling();
            let found = loop {
                match spectrum.decide(level, &mut Work::new(u64::MAX, &never)) {
                    Level::Reached(e) => break (level, e),
                    Level::Refuted => level -= 2,
                    Level::Unknown => unreachable!(),
                }
            };
            assert_eq!(found.0, truth, "{:?} {:?}", spectrum.keys, spectrum.sizes);
            // Sub-spans smaller than the whole space too: never below the truth.
            for span_bits in [1, 2, 3, SPAN_BITS] {
                let spanned =
                    spectrum.span_ceiling(spectrum.parity_ceiling(), i64::MIN, span_bits, &mut work);
                let what = format!(
                    "{span_bits} bits: {spanned} below {truth}: {:?} {:?}",
                    spectrum.keys, spectrum.sizes
                );
                assert!(truth <= spanned, "{what}");
                if span_bits < bits {
                    sharper += usize::from(spanned < spectrum.parity_ceiling());
                    exact += usize::from(spanned == truth);
                }
            }
            assert!(*spectrum.transform(&found.1).iter().min().unwrap() >= truth);
        }
        // The sub-spans do sharpen the parity bound, and often settle it.
        assert!(sharper > 20, "sharper {sharper}, exact {exact}");
        // On codes this small the tabu search finds the true level every time.
        assert_eq!(reached, 300, "the climb reached the level of {reached} codes of 300");
        eprintln!("sub-spans: sharper {sharper}, exact {exact}; the climb reached {reached} of 300");
    }
}
