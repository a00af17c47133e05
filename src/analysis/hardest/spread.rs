//! Every press set at once, by how many cells of each class it presses how
//! often: the exact distribution of minimum presses, for any K.
//!
//! A press set presses `c_k[r]` cells of class `k` `r` times. Member `s`
//! adds `v_k(s)` to every cell of class `k`, which then weighs
//! `Σ_r c_k[r]·((r + v_k(s)) mod K)`; the press set's coset weighs the
//! least of these sums over the members. `Π_k multinomial(n_k; c_k)` press
//! sets share the counts `c`; the cells no quiet pattern touches add their
//! own presses whatever the member, a convolution at the end.

use num_bigint::BigUint;
use num_traits::{One, Zero};

use super::classes::Classes;
use super::work::Work;

/// The press sets of the touched classes by the weight of their lightest
/// member, and the first counts (in the search's order) reaching the
/// heaviest such weight.
pub(crate) struct Tally {
    /// `by_weight[w]`: press sets of the touched cells whose coset's lightest
    /// member weighs `w` there.
    pub by_weight: Vec<BigUint>,
    /// The heaviest lightest weight.
    pub heaviest: u64,
    /// Per class, how many of its cells each residue has, at the heaviest.
    pub counts: Vec<Vec<u32>>,
}

/// One way to spread a class's cells over the residues.
struct Spread {
    counts: Vec<u32>,
    /// `weight[v]`: the class's presses when a member adds `v`.
    weight: Vec<u32>,
    ways: BigUint,
}

/// Member weighings a full [`tally`] makes, as a float (it passes `u64`).
pub(crate) fn tally_cost(classes: &Classes) -> f64 {
    let members = classes.members().map_or(f64::INFINITY, |m| m as f64);
    let k = u64::from(classes.states);
    let mut nodes = 1.0;
    let mut total = 0.0;
    for n in classes.sizes() {
        nodes *= compositions(n, k);
        total += nodes;
    }
    total * members
}

/// The work after the tally: the untouched cells' weights and their
/// convolution with it, additions and products of numbers of up to
/// n_0 log2(K) bits, counted in 64-bit words (a 300x300 of nullity 0
/// would spend hours there).
pub(crate) fn untouched_cost(classes: &Classes) -> f64 {
    let (untouched, k) = (classes.untouched.len() as f64, f64::from(classes.states));
    let words = (untouched * k.log2() / 64.0).max(1.0);
    let spread = untouched * untouched * (k - 1.0) * k / 2.0 * words;
    let touched: f64 = classes.sizes().iter().map(|&n| n as f64 * (k - 1.0)).sum();
    let convolution = (touched + 1.0) * (untouched * (k - 1.0) + 1.0) * words * words;
    spread + convolution
}

/// `C(n + K − 1, K − 1)`: the ways to spread `n` cells over K residues.
fn compositions(n: u64, k: u64) -> f64 {
    (1..k).map(|i| (n + i) as f64 / i as f64).product()
}

/// Tallies every press set of the touched classes, or `None` when `work`
/// runs out first.
pub(crate) fn tally(classes: &Classes, work: &mut Work) -> Option<Tally> {
    let k = classes.states as usize;
    let members = classes.members()? as usize;
    let values = classes.member_values(members);
    let count = classes.classes.len();
    let spreads: Vec<Vec<Spread>> = classes.sizes().iter().map(|&n| spreads(n as u32, k)).collect();
    let most: u64 = classes.sizes().iter().map(|n| n * (k as u64 - 1)).sum();
    let mut search = Search {
        members,
        count,
        values: &values,
        spreads: &spreads,
        by_weight: vec![BigUint::zero(); most as usize + 1],
        heaviest: None,
        path: vec![0; count],
    };
    let mut partial = vec![0u32; members];
    if !search.descend(0, &mut partial, &BigUint::one(), work) {
        return None;
    }
    let (heaviest, path) = search.heaviest.unwrap_or((0, Vec::new()));
    let counts = path.iter().zip(&spreads).map(|(&i, class)| class[i].counts.clone()).collect();
    Some(Tally { by_weight: search.by_weight, heaviest, counts })
}

struct Search<'a> {
    members: usize,
    count: usize,
    values: &'a [u8],
    spreads: &'a [Vec<Spread>],
    by_weight: Vec<BigUint>,
    heaviest: Option<(u64, Vec<usize>)>,
    path: Vec<usize>,
}

impl Search<'_> {
    fn descend(&mut self, depth: usize, partial: &mut [u32], ways: &BigUint, work: &mut Work) -> bool {
        if depth == self.count {
            let lightest = partial.iter().copied().min().unwrap_or(0) as u64;
            self.by_weight[lightest as usize] += ways;
            if self.heaviest.as_ref().is_none_or(|(w, _)| lightest > *w) {
                self.heaviest = Some((lightest, self.path.clone()));
            }
            return true;
        }
        let mut next = vec![0u32; self.members];
        for (i, spread) in self.spreads[depth].iter().enumerate() {
            if !work.spend(self.members as u64) {
                return false;
            }
            for (s, (out, &before)) in next.iter_mut().zip(partial.iter()).enumerate() {
                *out = before + spread.weight[self.values[s * self.count + depth] as usize];
            }
            self.path[depth] = i;
            if !self.descend(depth + 1, &mut next, &(ways * &spread.ways), work) {
                return false;
            }
        }
        true
    }
}

/// Every way to spread `n` cells over `k` residues, with its weights and
/// its number of cell choices.
fn spreads(n: u32, k: usize) -> Vec<Spread> {
    let mut out = Vec::new();
    let mut counts = vec![0u32; k];
    fill(n, 0, &mut counts, &mut out);
    out
}

fn fill(left: u32, residue: usize, counts: &mut Vec<u32>, out: &mut Vec<Spread>) {
    let k = counts.len();
    if residue == k - 1 {
        counts[residue] = left;
        let weight =
            (0..k).map(|v| counts.iter().enumerate().map(|(r, &c)| c * ((r + v) % k) as u32).sum()).collect();
        out.push(Spread { counts: counts.clone(), weight, ways: multinomial(counts) });
        return;
    }
    for c in 0..=left {
        counts[residue] = c;
        fill(left - c, residue + 1, counts, out);
    }
}

/// `(Σ c)! / Π c!`.
fn multinomial(counts: &[u32]) -> BigUint {
    let mut ways = BigUint::one();
    let mut placed = 0u32;
    for &c in counts {
        for i in 1..=c {
            placed += 1;
            ways *= placed;
            ways /= i;
        }
    }
    ways
}

/// `untouched[j]`: the ways `n` cells, each pressed `0..K` times, press `j`
/// times in all: the coefficients of `(1 + z + … + z^(K−1))^n`.
pub(crate) fn untouched_weights(n: usize, k: usize) -> Vec<BigUint> {
    let mut poly = vec![BigUint::one()];
    for _ in 0..n {
        let mut next = vec![BigUint::zero(); poly.len() + k - 1];
        for (j, c) in poly.iter().enumerate() {
            for slot in &mut next[j..j + k] {
                *slot += c;
            }
        }
        poly = next;
    }
    poly
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn multinomials_and_untouched_weights() {
        assert_eq!(multinomial(&[2, 1, 1]), BigUint::from(12u32));
        assert_eq!(multinomial(&[0, 5]), BigUint::one());
        let w = untouched_weights(3, 3);
        let w: Vec<u32> = w.iter().map(|c| c.try_into().unwrap()).collect();
        assert_eq!(w, [1, 3, 6, 7, 6, 3, 1]);
        assert_eq!(spreads(3, 2).len(), 4);
        assert_eq!(spreads(4, 3).len(), 15);
    }
}
