//! Branch and bound's fold by the board's symmetries ([`Fold`]): how the
//! turns and mirrors move prefixes of the coordinates, so that only the
//! smallest prefix of each orbit is searched. The cross basis
//! (`branch/cross.rs`) makes one; a [`Coset`](super::Coset) carries it.

use crate::model::Grid;

/// How the symmetries move prefixes of the coordinates, so that only the
/// smallest prefix of each orbit is searched.
///
/// A motion `g` that keeps the problem maps a member `y` to the member
/// `y ∘ g⁻¹` of the same weight, whose coordinate `i` is
/// `y(g⁻¹ p_i) ⊕ x(p_i)`: an affine function of the cell `g⁻¹ p_i`'s
/// coordinates. So `g` acts on prefixes of depth `D` (the first `D`
/// coordinates) wherever the cells `g⁻¹ p_i`, `i < D`, depend on those
/// coordinates only. That holds on every cell set that `g` maps onto
/// itself and whose pivots come first (the cross; on odd squares each
/// distance shell below it, since the cross order sorts a level's cells
/// by distance from the centre and the turns and mirrors keep distances),
/// and on others too; the fold takes every depth where it holds, so it
/// needs no invariant set named, and works as well on even squares and
/// rectangles.
///
/// A prefix is searched only if, at each such depth and for each motion
/// acting there, it is no larger than its image (coordinate 0 the most
/// significant). The least member (in mask order) of an orbit passes every
/// check, so the least (weight, mask) member is never lost. The checks are
/// incremental: a motion whose image is already larger stays larger at
/// every depth below (the image's top coordinates are the image of the top
/// coordinates) and is not looked at again on that path, so once the fold
/// is realised (few prefixes are their own image) the checks cost next to
/// nothing.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fold {
    motions: Vec<PrefixMap>,
    /// `steps[t]`: the motions acting at depth `t`, each with the image
    /// coordinates (bit i) first compared there.
    steps: Vec<Vec<(usize, u64)>>,
}

/// One motion on prefixes: image coordinate `i` of a prefix `v` (bit j
/// for coordinate j) is `parity(rows[i] & v) ⊕ bit i of offsets`, at the
/// depths in `acts` (bit t for depth t).
#[derive(Clone, Debug, PartialEq, Eq)]
struct PrefixMap {
    rows: Vec<u64>,
    offsets: u64,
    acts: u128,
}

/// Which fold rule a record's branch-and-bound slices were searched under
/// (see [`Fold::id`]): 1 folded at whole line levels, 2 at every depth a
/// motion acts on.
pub const FOLD_SCHEME: u64 = 2;

impl Fold {
    /// The motion state at the root: every motion still ties.
    pub(super) fn all_tied(&self) -> u32 {
        ((1u64 << self.motions.len()) - 1) as u32
    }

    /// The check at depth `depth` of a prefix `v` (coordinate j at bit j)
    /// whose motions `tied` have matched it so far: `None` when a motion
    /// maps it below itself (the prefix is not searched), else the motions
    /// that still tie.
    #[inline]
    pub(super) fn check(&self, depth: usize, v: u64, mut tied: u32) -> Option<u32> {
        if tied == 0 {
            return Some(0);
        }
        for &(g, compare) in self.steps.get(depth).into_iter().flatten() {
            if tied >> g & 1 == 0 {
                continue;
            }
            let map = &self.motions[g];
            let mut bits = compare;
            while bits != 0 {
                let i = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                let image = ((map.rows[i] & v).count_ones() as u64 ^ map.offsets >> i) & 1;
                let own = v >> i & 1;
                if image != own {
                    if image < own {
                        return None;
                    }
                    tied &= !(1 << g);
                    break;
                }
            }
        }
        Some(tied)
    }

    /// Symmetries folded (besides the identity), at some depth or other.
    pub fn symmetries(&self) -> usize {
        self.motions.len()
    }

    /// At most 1/`fold_at(depth)` of the prefixes of that depth are
    /// searched: 2^depth over the number of orbits of the motions acting
    /// there (Burnside: the orbits are the mean number of prefixes each
    /// motion and the identity fixes). 1 where none acts.
    pub fn fold_at(&self, depth: usize) -> f64 {
        let acting: Vec<&PrefixMap> =
            self.motions.iter().filter(|m| depth < 128 && m.acts >> depth & 1 == 1).collect();
        if acting.is_empty() || depth == 0 {
            return 1.0;
        }
        let fixed: f64 = acting.iter().map(|m| m.fixed_share(depth)).sum::<f64>() + 1.0;
        (acting.len() + 1) as f64 / fixed
    }

    /// The depths some motion acts at.
    pub fn depths(&self) -> Vec<usize> {
        (1..self.steps.len()).filter(|&t| self.motions.iter().any(|m| m.acts >> t & 1 == 1)).collect()
    }

    /// A fingerprint of the fold: the rule (`FOLD_SCHEME`) and every
    /// motion's map and depths. Slices of one problem folded alike carry
    /// the same id; a record that names it keeps slices of different
    /// folds (another version, another rule) from being merged.
    pub fn id(&self) -> u64 {
        // FNV-1a over the words: stable across builds and platforms.
        let mut hash = 0xcbf2_9ce4_8422_2325u64;
        let mut eat = |word: u64| {
            for byte in word.to_le_bytes() {
                hash = (hash ^ byte as u64).wrapping_mul(0x0100_0000_01b3);
            }
        };
        eat(FOLD_SCHEME);
        for map in &self.motions {
            eat(map.rows.len() as u64);
            map.rows.iter().for_each(|&r| eat(r));
            eat(map.offsets);
            eat(map.acts as u64);
            eat((map.acts >> 64) as u64);
        }
        hash
    }
}

impl PrefixMap {
    /// The share of the prefixes of `depth` that the map fixes: solutions
    /// of `(R + I) v = offsets` over GF(2), 2^−rank or 0.
    fn fixed_share(&self, depth: usize) -> f64 {
        let mask = if depth >= 64 { u64::MAX } else { (1u64 << depth) - 1 };
        // Equation i: ⟨rows[i] ⊕ e_i, v⟩ = offset bit i (augmented at bit 64).
        let mut equations: Vec<u128> = (0..depth)
            .map(|i| ((self.rows[i] ^ 1 << i) & mask) as u128 | ((self.offsets >> i & 1) as u128) << 64)
            .collect();
        let mut rank = 0;
        for col in 0..depth {
            let Some(p) = (rank..depth).find(|&k| equations[k] >> col & 1 == 1) else { continue };
            equations.swap(rank, p);
            let pivot = equations[rank];
            for (k, e) in equations.iter_mut().enumerate() {
                if k != rank && *e >> col & 1 == 1 {
                    *e ^= pivot;
                }
            }
            rank += 1;
        }
        // An equation 0 = 1 left: no fixed prefix.
        if equations[rank..].iter().any(|&e| e >> 64 & 1 == 1) {
            return 0.0;
        }
        0.5f64.powi(rank as i32)
    }
}

/// The fold by the cell maps `motions` (see [`Fold`]), or `None` when no
/// motion acts on any prefix. `pivots[j]` is coordinate j's cell; `coords`
/// each cell's key over the coordinates (bit j for coordinate j), by cell
/// index `r·cols + c`.
pub(super) fn fold_of(
    x: &Grid,
    pivots: &[(usize, usize)],
    coords: &[u128],
    motions: &[Vec<usize>],
) -> Option<Fold> {
    let cols = x.ncols();
    // Prefixes are u64: depths up to 64.
    let deepest = pivots.len().min(64);
    let value = |i: usize| x.get(i / cols, i % cols) as u64;
    let mut maps = Vec::new();
    for g in motions {
        let mut inverse = vec![0usize; g.len()];
        for (i, &j) in g.iter().enumerate() {
            inverse[j] = i;
        }
        let (mut rows, mut offsets, mut acts) = (Vec::with_capacity(deepest), 0u64, 0u128);
        // Coordinates the image reads so far (one past the highest).
        let mut reach = 0usize;
        for (i, &(r, c)) in pivots.iter().take(deepest).enumerate() {
            let from = inverse[r * cols + c];
            let row = coords[from];
            reach = reach.max(128 - row.leading_zeros() as usize);
            rows.push(row as u64);
            offsets |= (value(from) ^ value(r * cols + c)) << i;
            if reach <= i + 1 {
                acts |= 1 << (i + 1);
            }
        }
        maps.push(PrefixMap { rows, offsets, acts });
    }
    // Per depth, the coordinates each acting motion compares first there
    // (those since the last depth it acted at, less the ones it keeps).
    let mut steps = vec![Vec::new(); deepest + 1];
    let mut kept = Vec::new();
    for map in maps {
        let moved: u64 = (0..deepest)
            .filter(|&i| map.rows[i] != 1 << i || map.offsets >> i & 1 == 1)
            .fold(0, |m, i| m | 1 << i);
        if moved == 0 || map.acts == 0 {
            continue;
        }
        let g = kept.len();
        let mut last = 0usize;
        for (t, step) in steps.iter_mut().enumerate().skip(1) {
            if map.acts >> t & 1 == 0 {
                continue;
            }
            let span = if t >= 64 { u64::MAX } else { (1u64 << t) - 1 };
            let compare = moved & span & !((1u64 << last) - 1);
            if compare != 0 {
                step.push((g, compare));
            }
            last = t;
        }
        kept.push(map);
    }
    (!kept.is_empty()).then_some(Fold { motions: kept, steps })
}
