//! The merge that fixes one coordinate: a node's groups (keys sorted, with
//! their signed counts, in two arrays) become both children's groups.
//!
//! Keys `k` and `k | 1` (`k` even) are adjacent when both are present; the
//! child that fixes the coordinate at 0 gets `(k >> 1, c_k + c_(k|1))`, the
//! one that fixes it at 1 `(k >> 1, c_k − c_(k|1))` (a key with its bit set
//! flips with the coordinate), and groups of count 0 are dropped. Both
//! children stay sorted. The bound needs `Σ|c|` per child, except that the
//! group of remaining key 0 (only ever the first) counts with its sign.
//!
//! This is about all the time branch and bound takes. The portable loop is
//! the reference; on x86_64 with AVX-512 (F, VL) eight groups are merged at
//! once: the partner test is one compare of the keys against the next
//! keys, and each child's kept groups are compressed into place
//! (`vpcompressq`/`vpcompressd` to a register, then a full store, which is
//! why every child buffer has [`SLACK`] spare entries).

use super::Key;
use crate::cpu::Isa;

/// Spare entries at the end of a child's buffers: a vector store may write
/// up to 8 entries past the last one kept.
pub(super) const SLACK: usize = 16;

/// What a merge leaves: how many groups each child keeps, and each
/// child's `Σ|c|` (the first group, of key 0, with its sign).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Merged {
    pub lens: [usize; 2],
    pub sums: [i64; 2],
}

/// The children's buffers: keys and counts, for coordinate 0 and for 1.
pub(super) struct Children<'a, K> {
    pub keys: [&'a mut [K]; 2],
    pub counts: [&'a mut [i32]; 2],
}

/// Which merge runs: picked once per search from what the CPU supports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Merger {
    #[cfg(target_arch = "x86_64")]
    Avx512,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    Portable,
}

impl Merger {
    /// The fastest merge this CPU runs ([`Isa::detect`], the one choice of
    /// the process), for a board of `cells` cells (the vector merges add
    /// counts in 32 bits: at most 2^31 − 1 cells).
    pub(super) fn detect(cells: usize) -> Merger {
        if cells > i32::MAX as usize {
            return Merger::Portable;
        }
        Merger::of(Isa::detect())
    }

    fn of(isa: Isa) -> Merger {
        match isa {
            #[cfg(target_arch = "x86_64")]
            Isa::Avx512 => Merger::Avx512,
            #[cfg(target_arch = "x86_64")]
            Isa::Avx2 => Merger::Avx2,
            Isa::Portable => Merger::Portable,
        }
    }

    /// Every merge this machine runs, the portable one first.
    #[cfg(test)]
    pub(super) fn available() -> Vec<Merger> {
        Isa::available().into_iter().map(Merger::of).collect()
    }

    /// Merges `keys`/`counts` (sorted by key) into `out`, whose buffers
    /// hold at least `keys.len() + SLACK` entries.
    #[inline]
    pub(super) fn merge<K: Key>(self, keys: &[K], counts: &[i32], out: Children<'_, K>) -> Merged {
        match self {
            #[cfg(target_arch = "x86_64")]
            Merger::Avx512 => match K::as_u64(keys, out) {
                // SAFETY: the CPU was seen to support AVX-512 F and VL, and
                // every buffer has SLACK spare entries.
                Ok((keys, out)) => unsafe { merge_avx512(keys, counts, out) },
                Err(out) => merge_portable(keys, counts, out),
            },
            #[cfg(target_arch = "x86_64")]
            // SAFETY: the CPU was seen to support AVX2.
            Merger::Avx2 => unsafe { merge_avx2(keys, counts, out) },
            Merger::Portable => merge_portable(keys, counts, out),
        }
    }
}

/// The counts of the children's groups made from group `i` (a group that
/// is not the partner of the one before it): `(c + b, ±c − b)` with `b`
/// the partner's count, or 0.
#[inline(always)]
fn merged_at<K: Key>(keys: &[K], counts: &[i32], i: usize) -> (i32, i32) {
    let (key, c) = (keys[i], counts[i]);
    if key & K::one() == K::zero() {
        match keys.get(i + 1) {
            Some(&next) if next == key | K::one() => (c + counts[i + 1], c - counts[i + 1]),
            _ => (c, c),
        }
    } else {
        (c, -c)
    }
}

/// The group of remaining key 0 counts with its sign: `Σ|c|` summed it as
/// `|c|`; this puts it right.
#[inline]
fn signed_first<K: Key>(keys: &[K], counts: &[i32], mut sums: [i64; 2]) -> [i64; 2] {
    if keys.first().is_some_and(|&k| k >> 1 == K::zero()) {
        let (c0, c1) = merged_at(keys, counts, 0);
        sums[0] += c0 as i64 - c0.unsigned_abs() as i64;
        sums[1] += c1 as i64 - c1.unsigned_abs() as i64;
    }
    sums
}

/// The reference merge, from group `from` (not a partner) on, with
/// `merged` what was merged before it.
#[inline(always)]
fn merge_tail<K: Key>(
    keys: &[K],
    counts: &[i32],
    out: Children<'_, K>,
    from: usize,
    merged: Merged,
) -> Merged {
    let Children { keys: [zero_keys, one_keys], counts: [zero_counts, one_counts] } = out;
    let Merged { lens: [mut n0, mut n1], sums: [mut sum0, mut sum1] } = merged;
    let mut i = from;
    while i < keys.len() {
        let (c0, c1) = merged_at(keys, counts, i);
        let rest = keys[i] >> 1;
        i += if keys[i] & K::one() == K::zero() && keys.get(i + 1) == Some(&(keys[i] | K::one())) {
            2
        } else {
            1
        };
        sum0 += c0.unsigned_abs() as i64;
        sum1 += c1.unsigned_abs() as i64;
        // Written always, kept when non-zero: no branch to mispredict.
        zero_keys[n0] = rest;
        zero_counts[n0] = c0;
        n0 += (c0 != 0) as usize;
        one_keys[n1] = rest;
        one_counts[n1] = c1;
        n1 += (c1 != 0) as usize;
    }
    Merged { lens: [n0, n1], sums: [sum0, sum1] }
}

/// The portable merge (the reference the vector ones are tested against).
pub(super) fn merge_portable<K: Key>(keys: &[K], counts: &[i32], out: Children<'_, K>) -> Merged {
    let merged = merge_tail(keys, counts, out, 0, Merged { lens: [0, 0], sums: [0, 0] });
    Merged { sums: signed_first(keys, counts, merged.sums), ..merged }
}

/// The portable merge compiled for AVX2 (the compiler's own vectors).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2,popcnt,bmi1,bmi2")]
unsafe fn merge_avx2<K: Key>(keys: &[K], counts: &[i32], out: Children<'_, K>) -> Merged {
    merge_portable(keys, counts, out)
}

/// Eight groups at a time with AVX-512: partners by one compare, children
/// by compression; the last few groups by the portable loop.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,popcnt")]
unsafe fn merge_avx512(keys: &[u64], counts: &[i32], out: Children<'_, u64>) -> Merged {
    use std::arch::x86_64::*;
    let n = keys.len();
    let Children { keys: [zero_keys, one_keys], counts: [zero_counts, one_counts] } = out;
    let (mut n0, mut n1) = (0usize, 0usize);
    let (mut acc0, mut acc1) = (_mm256_setzero_si256(), _mm256_setzero_si256());
    let one = _mm512_set1_epi64(1);
    // Whether the group at i is the partner of the one before (merged).
    let mut carry: u8 = 0;
    let mut i = 0;
    // Each step reads the 8 groups at i and the 8 after i + 1.
    while i + 9 <= n {
        // SAFETY: i + 9 <= n bounds every load; the stores write 8 entries
        // at n0 (n1) <= i + 8 - (kept so far ≤ i), inside len + SLACK.
        unsafe {
            let k = _mm512_loadu_si512(keys.as_ptr().add(i).cast());
            let next = _mm512_loadu_si512(keys.as_ptr().add(i + 1).cast());
            let c = _mm256_loadu_si256(counts.as_ptr().add(i).cast());
            let c_next = _mm256_loadu_si256(counts.as_ptr().add(i + 1).cast());
            // Lane j has a partner when key j+1 is key j with bit 0 set
            // (sorted keys: only an even key can have one).
            let partner = _mm512_cmpeq_epi64_mask(next, _mm512_xor_si512(k, one));
            let tail = partner << 1 | carry;
            carry = partner >> 7;
            let head = !tail;
            let odd = _mm512_test_epi64_mask(k, one);
            let b = _mm256_maskz_mov_epi32(partner, c_next);
            let signed = _mm256_mask_sub_epi32(c, odd, _mm256_setzero_si256(), c);
            let c0 = _mm256_add_epi32(c, b);
            let c1 = _mm256_sub_epi32(signed, b);
            let keep0 = head & _mm256_test_epi32_mask(c0, c0);
            let keep1 = head & _mm256_test_epi32_mask(c1, c1);
            let rest = _mm512_srli_epi64::<1>(k);
            _mm512_storeu_si512(
                zero_keys.as_mut_ptr().add(n0).cast(),
                _mm512_maskz_compress_epi64(keep0, rest),
            );
            _mm256_storeu_si256(
                zero_counts.as_mut_ptr().add(n0).cast(),
                _mm256_maskz_compress_epi32(keep0, c0),
            );
            _mm512_storeu_si512(
                one_keys.as_mut_ptr().add(n1).cast(),
                _mm512_maskz_compress_epi64(keep1, rest),
            );
            _mm256_storeu_si256(
                one_counts.as_mut_ptr().add(n1).cast(),
                _mm256_maskz_compress_epi32(keep1, c1),
            );
            n0 += keep0.count_ones() as usize;
            n1 += keep1.count_ones() as usize;
            acc0 = _mm256_add_epi32(acc0, _mm256_maskz_abs_epi32(keep0, c0));
            acc1 = _mm256_add_epi32(acc1, _mm256_maskz_abs_epi32(keep1, c1));
        }
        i += 8;
    }
    // SAFETY: 8 lanes of i32 either way.
    let lanes: [[i32; 8]; 2] = unsafe {
        [std::mem::transmute::<__m256i, [i32; 8]>(acc0), std::mem::transmute::<__m256i, [i32; 8]>(acc1)]
    };
    let [sum0, sum1] = lanes.map(|v| v.iter().map(|&x| x as i64).sum::<i64>());
    let merged = Merged { lens: [n0, n1], sums: [sum0, sum1] };
    let from = i + carry as usize;
    let out = Children { keys: [zero_keys, one_keys], counts: [zero_counts, one_counts] };
    let merged = merge_tail(keys, counts, out, from, merged);
    Merged { sums: signed_first(keys, counts, merged.sums), ..merged }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Sorted distinct keys with counts (some zero, some partners, some
    /// alone), `len` of them, keys below `2^bits`.
    fn groups(len: usize, bits: u32, seed: u64) -> (Vec<u64>, Vec<i32>) {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut keys: Vec<u64> = (0..len).map(|_| rng.random_range(0..1u64 << bits)).collect();
        keys.sort_unstable();
        keys.dedup();
        let counts = keys.iter().map(|_| rng.random_range(-3..=3)).collect();
        (keys, counts)
    }

    fn run(merger: Merger, keys: &[u64], counts: &[i32]) -> (Merged, [Vec<(u64, i32)>; 2]) {
        let size = keys.len() + SLACK;
        let (mut k0, mut k1) = (vec![7u64; size], vec![7u64; size]);
        let (mut c0, mut c1) = (vec![7i32; size], vec![7i32; size]);
        let merged =
            merger.merge(keys, counts, Children { keys: [&mut k0, &mut k1], counts: [&mut c0, &mut c1] });
        let zero = k0.iter().zip(&c0).take(merged.lens[0]).map(|(&k, &c)| (k, c)).collect();
        let one = k1.iter().zip(&c1).take(merged.lens[1]).map(|(&k, &c)| (k, c)).collect();
        (merged, [zero, one])
    }

    /// Every merge this machine runs gives the portable one's children and
    /// sums, on dense and sparse keys of every length around the vector
    /// width (a partner across two steps included), and with key 0 or 1
    /// first.
    #[test]
    fn every_merge_equals_the_portable_one() {
        let mut cases = Vec::new();
        for len in (0..40).chain([100, 257, 1000]) {
            for bits in [3, 6, 12, 40] {
                cases.push(groups(len, bits, (len as u64) << 8 | bits as u64));
            }
        }
        // Partners straddling the eighth lane, and a first group of key 1.
        cases.push(((0..20).collect(), (0..20).map(|c| c % 5 - 2).collect()));
        cases.push(((1..20).collect(), (1..20).map(|c| c % 3 - 1).collect()));
        for (keys, counts) in &cases {
            let reference = run(Merger::Portable, keys, counts);
            for merger in Merger::available() {
                assert_eq!(run(merger, keys, counts), reference, "{merger:?} on {keys:?}");
            }
        }
    }
}
