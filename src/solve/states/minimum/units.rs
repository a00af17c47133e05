//! The coset's cells pooled into units of one key and one particular value
//! ([`Units`]), with the lower bound that the units give.

use std::borrow::Cow;

use super::coset::{Coset, gcd};
use super::grouping::{IdMap, group_cells};

/// The cells as units: one per (key, particular value), with how many
/// cells it stands for.
pub(super) struct Units<'a> {
    /// The particular's value of each unit.
    pub(super) value: Vec<u8>,
    /// How many cells each unit stands for.
    pub(super) mult: Vec<u32>,
    /// Each generator's entry for each unit.
    pub(super) cols: Vec<Cow<'a, [u8]>>,
    /// The key group of each unit and the number of groups; `None` when
    /// no two units share a key.
    group: Option<(Vec<u32>, usize)>,
    /// The unit of each cell; `None` when unit `u` is cell `u`.
    pub(super) of_cell: Option<Vec<u32>>,
}

impl<'a> Units<'a> {
    /// The units of `coset`; with `group` false, one unit a cell (the
    /// search is as right, only slower where cells share keys, and the
    /// bound is the per-cell one).
    pub(super) fn new(coset: &'a Coset<'a>, group: bool) -> Self {
        let (k, n) = (coset.k, coset.x0.len());
        let cells = |group| Units {
            value: coset.x0.clone(),
            mult: vec![1; n],
            cols: coset.gens.iter().map(|g| Cow::Borrowed(&g[..])).collect(),
            group,
            of_cell: None,
        };
        if !group {
            return cells(None);
        }
        let (group_of, reps) = group_cells(coset);
        if reps.len() == n {
            // Every key is a single cell: the units are the cells.
            return cells(None);
        }
        let mut ids = IdMap::new(Some(reps.len() as u64 * u64::from(k)), n);
        let mut of_cell = Vec::with_capacity(n);
        let (mut value, mut mult, mut group, mut first) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
        for (c, (&g, &v)) in group_of.iter().zip(&coset.x0).enumerate() {
            let u = ids.id(u64::from(g) * u64::from(k) + u64::from(v));
            if u as usize == value.len() {
                value.push(v);
                mult.push(0);
                group.push(g);
                first.push(c as u32);
            }
            mult[u as usize] += 1;
            of_cell.push(u);
        }
        let cols =
            coset.gens.iter().map(|g| Cow::Owned(first.iter().map(|&c| g[c as usize]).collect())).collect();
        Units { value, mult, cols, group: Some((group, reps.len())), of_cell: Some(of_cell) }
    }

    pub(super) fn len(&self) -> usize {
        self.value.len()
    }

    /// The same units owning their columns (a sliced search keeps them
    /// beside the coset they were made from).
    pub(super) fn into_owned(self) -> Units<'static> {
        let cols = self.cols.into_iter().map(|c| Cow::Owned(c.into_owned())).collect();
        Units { value: self.value, mult: self.mult, cols, group: self.group, of_cell: self.of_cell }
    }

    /// The same units with the generators' columns in the order `of` names
    /// (as [`Coset::reordered`]), borrowing them.
    pub(super) fn reordered(&self, of: &[usize]) -> Units<'_> {
        Units {
            value: self.value.clone(),
            mult: self.mult.clone(),
            cols: of.iter().map(|&i| Cow::Borrowed(&self.cols[i][..])).collect(),
            group: self.group.clone(),
            of_cell: None,
        }
    }

    /// gcd(K, the entries of unit `u`'s key): its value moves in steps of it.
    fn step(&self, k: u8, u: usize) -> u8 {
        let mut g = k;
        for col in &self.cols {
            g = gcd(g, col[u]);
            if g == 1 {
                break;
            }
        }
        g
    }

    /// See [`lower_bound`](super::lower_bound).
    pub(super) fn lower_bound(&self, k: u8) -> u64 {
        let per_unit = |u: usize| match self.value[u] {
            0 => 0,
            v => u64::from(self.mult[u]) * u64::from(v % self.step(k, u)),
        };
        let Some((group, groups)) = &self.group else {
            return (0..self.len()).map(per_unit).sum();
        };
        let mut units_of = vec![0u32; *groups];
        for &g in group {
            units_of[g as usize] += 1;
        }
        let mut bound: u64 =
            (0..self.len()).filter(|&u| units_of[group[u] as usize] == 1).map(&per_unit).sum();
        // Keys shared by several units: the least weight over the key's
        // shifts, while the work stays within a few passes over the cells.
        let mut shared: Vec<(u32, u32)> = (0..self.len() as u32)
            .filter(|&u| units_of[group[u as usize] as usize] > 1)
            .map(|u| (group[u as usize], u))
            .collect();
        shared.sort_unstable();
        let mut work_left = 4 * self.len() as u64 + (1 << 16);
        for run in shared.chunk_by(|a, b| a.0 == b.0) {
            let step = usize::from(self.step(k, run[0].1 as usize));
            let cost = (usize::from(k) / step * run.len()) as u64;
            if cost <= work_left {
                work_left -= cost;
                bound += (0..usize::from(k))
                    .step_by(step)
                    .map(|s| {
                        run.iter()
                            .map(|&(_, u)| {
                                let v = (usize::from(self.value[u as usize]) + s) % usize::from(k);
                                u64::from(self.mult[u as usize]) * v as u64
                            })
                            .sum::<u64>()
                    })
                    .min()
                    .unwrap_or(0);
            } else {
                bound += run.iter().map(|&(_, u)| per_unit(u as usize)).sum::<u64>();
            }
        }
        bound
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::super::lower_bound;
    use super::super::tests::{borrowed, random_coset};
    use super::*;

    #[test]
    fn bound_is_at_least_the_per_cell_gcd_bound() {
        let mut rng = ChaCha8Rng::seed_from_u64(12);
        for k in [4u8, 6, 8, 9] {
            for _ in 0..30 {
                let (x0, gens) = random_coset(&mut rng, k, 20, 3);
                let per_cell: u64 = (0..20)
                    .map(|c| {
                        let g = gens.iter().fold(k, |a, (g, _)| gcd(a, g[c]));
                        u64::from(x0[c] % g)
                    })
                    .sum();
                assert!(lower_bound(k, &x0, &borrowed(&gens)) >= per_cell);
            }
        }
    }
}
