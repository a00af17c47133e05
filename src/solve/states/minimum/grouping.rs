//! Grouping the cells by key (the column of generator entries): which
//! cells move together in every member of the coset.

use super::coset::Coset;

/// Whether grouping the cells by key may pay for a local search: always on
/// boards of up to 2^16 cells; on larger ones, when at least a quarter of
/// 4096 cells spread over the board share their key with another of them.
/// (Grouping costs a pass over every key; when keys are all different it
/// buys nothing.)
pub(super) fn worth_grouping(coset: &Coset) -> bool {
    let n = coset.x0.len();
    if n <= 1 << 16 {
        return true;
    }
    let sample = 4096;
    let mut keys: Vec<Vec<u8>> =
        (0..sample).map(|i| i * (n / sample)).map(|c| coset.gens.iter().map(|g| g[c]).collect()).collect();
    keys.sort_unstable();
    keys.dedup();
    keys.len() <= sample * 3 / 4
}

/// The key group of each cell, and the first cell of each group, groups
/// numbered in the order their first cells come.
///
/// When `Π order_i` fits a `u64` the key is packed exactly (mixed radix
/// over the orders); otherwise it is hashed, the groups are checked cell by
/// cell against their first cell, and on a collision (never seen; the hash
/// is 64 bits) the cells are grouped by sorting their keys.
pub(super) fn group_cells(coset: &Coset) -> (Vec<u32>, Vec<u32>) {
    let n = coset.x0.len();
    let exact = coset.members().is_some();
    let mut keys = vec![0u64; n];
    let mut stride = 1u64;
    for (g, &r) in coset.gens.iter().zip(&coset.orders) {
        if exact {
            let unit = coset.k / r as u8;
            let digit: [u64; 256] = std::array::from_fn(|e| (e / usize::from(unit)) as u64 * stride);
            for (key, &e) in keys.iter_mut().zip(g.iter()) {
                *key += digit[usize::from(e)];
            }
            stride = stride.wrapping_mul(u64::from(r));
        } else {
            for (key, &e) in keys.iter_mut().zip(g.iter()) {
                *key = (*key ^ u64::from(e)).wrapping_mul(0x0100_0000_01b3).rotate_left(17);
            }
        }
    }
    let mut ids = IdMap::new(coset.members(), n);
    let mut reps = Vec::new();
    let group_of: Vec<u32> = keys
        .iter()
        .enumerate()
        .map(|(c, &key)| {
            let id = ids.id(key);
            if id as usize == reps.len() {
                reps.push(c as u32);
            }
            id
        })
        .collect();
    if exact || reps.len() == n {
        return (group_of, reps);
    }
    let collision = coset
        .gens
        .iter()
        .any(|g| group_of.iter().zip(g.iter()).any(|(&id, &e)| g[reps[id as usize] as usize] != e));
    if !collision {
        return (group_of, reps);
    }
    // Exact grouping: sort the cells by key.
    let mut cells: Vec<u32> = (0..n as u32).collect();
    let key_order = |a: &u32, b: &u32| {
        coset
            .gens
            .iter()
            .map(|g| g[*a as usize].cmp(&g[*b as usize]))
            .find(|o| o.is_ne())
            .unwrap_or(std::cmp::Ordering::Equal)
    };
    cells.sort_by(|a, b| key_order(a, b).then(a.cmp(b)));
    let mut group_of = vec![0u32; n];
    let mut reps: Vec<u32> = Vec::new();
    for (i, &c) in cells.iter().enumerate() {
        if i == 0 || key_order(&cells[i - 1], &c).is_ne() {
            reps.push(c);
        }
        group_of[c as usize] = reps.len() as u32 - 1;
    }
    (group_of, reps)
}

/// Ids for `u64` keys, handed out in the order keys are first seen: a
/// plain array when the keys are known to be small, else an
/// open-addressing table (cheaper than `HashMap` for the millions of cells
/// of a large board).
pub(super) struct IdMap {
    /// Direct: `ids[key]`. Hashed: `keys[slot]`, `ids[slot]`.
    direct: bool,
    keys: Vec<u64>,
    ids: Vec<u32>,
    len: usize,
}

impl IdMap {
    const EMPTY: u32 = u32::MAX;

    /// A map for up to `n` keys, each below `limit` if that is known.
    pub(super) fn new(limit: Option<u64>, n: usize) -> Self {
        match limit {
            Some(limit) if limit <= (2 * n as u64).max(1 << 16) => {
                IdMap { direct: true, keys: Vec::new(), ids: vec![Self::EMPTY; limit as usize], len: 0 }
            }
            _ => IdMap { direct: false, keys: vec![0; 64], ids: vec![Self::EMPTY; 64], len: 0 },
        }
    }

    fn slot(&self, key: u64) -> usize {
        if self.direct {
            return key as usize;
        }
        // splitmix64's finaliser: packed keys are far from random.
        let mut h = key ^ key >> 30;
        h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
        h ^= h >> 27;
        h = h.wrapping_mul(0x94d0_49bb_1331_11eb);
        h ^= h >> 31;
        let mask = self.keys.len() - 1;
        let mut i = h as usize & mask;
        while self.ids[i] != Self::EMPTY && self.keys[i] != key {
            i = (i + 1) & mask;
        }
        i
    }

    /// The id of `key`, a new one (the number of keys so far) if unseen.
    pub(super) fn id(&mut self, key: u64) -> u32 {
        let i = self.slot(key);
        if self.ids[i] != Self::EMPTY {
            return self.ids[i];
        }
        let id = self.len as u32;
        self.ids[i] = id;
        self.len += 1;
        if self.direct {
            return id;
        }
        self.keys[i] = key;
        if 2 * self.len > self.keys.len() {
            let (keys, ids) = (std::mem::take(&mut self.keys), std::mem::take(&mut self.ids));
            self.keys = vec![0; 2 * keys.len()];
            self.ids = vec![Self::EMPTY; 2 * keys.len()];
            for (key, id) in keys.into_iter().zip(ids) {
                if id != Self::EMPTY {
                    let j = self.slot(key);
                    self.keys[j] = key;
                    self.ids[j] = id;
                }
            }
        }
        id
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::{borrowed, members};
    use super::super::{minimize, weight};
    use super::*;

    #[test]
    fn hashed_keys_group_as_exact_ones() {
        // 70 generators of order 2 over Z_4: Π orders is past u64, so
        // keys are hashed; only 4 distinct keys among the cells.
        let k = 4u8;
        let n = 40;
        let gens: Vec<(Vec<u8>, u32)> = (0..70)
            .map(|j| ((0..n).map(|c| if (c % 4 + j) % 3 == 0 { 2 } else { 0 }).collect(), 2))
            .collect();
        let x0: Vec<u8> = (0..n).map(|c| (c * 7 % 4) as u8).collect();
        let coset = Coset::new(k, &x0, &borrowed(&gens));
        let (group_of, reps) = group_cells(&coset);
        assert_eq!(reps.len(), 3);
        for c in 0..n {
            let r = reps[group_of[c] as usize] as usize;
            assert!(gens.iter().all(|(g, _)| g[c] == g[r]));
        }
        // Past 2^63 members, so not exhaustive; but the generators are
        // only 3 distinct ones of order 2, so the coset has 8 members, and
        // brute force knows its minimum. (This asserted `!proven_minimal ||
        // total == lower_bound`, which holds by construction.)
        let got = minimize(k, &x0, &borrowed(&gens), 63);
        let mut distinct = gens.clone();
        distinct.sort();
        distinct.dedup();
        assert_eq!(distinct.len(), 3);
        let all = members(k, &x0, &distinct);
        let true_min = all.iter().map(|m| weight(m)).min().unwrap();
        let weighed = all.iter().find(|m| **m == got.presses).map(|m| weight(m));
        assert_eq!(weighed, Some(got.total), "not a member of that weight");
        assert!(got.lower_bound <= true_min && true_min <= got.total, "{got:?}, least {true_min}");
        assert!(!got.proven_minimal || got.total == true_min, "{got:?}, least {true_min}");
        assert_eq!(got.total, true_min, "{got:?}");
    }

    #[test]
    fn id_map_hands_out_ids_in_order() {
        for limit in [None, Some(1000 * 0x1_0000_0001)] {
            let mut ids = IdMap::new(limit, 10);
            for round in 0..2 {
                for key in 0..1000u64 {
                    assert_eq!(ids.id(key * 0x1_0000_0001), key as u32, "round {round}");
                }
            }
        }
        let mut direct = IdMap::new(Some(5000), 10);
        assert!(direct.direct);
        assert_eq!([4999, 7, 4999, 0].map(|key| direct.id(key)), [0, 1, 0, 2]);
    }
}
