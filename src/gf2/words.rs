//! Word-at-a-time kernels shared by the matrix, solver and analysis code.
//!
//! Bits are stored least significant first: bit `i` lives in word `i / 64`
//! at position `i % 64`.

/// Bits in one storage word.
pub const BITS: usize = 64;

/// Number of words needed for `bits` bits.
pub const fn words_for(bits: usize) -> usize {
    bits.div_ceil(BITS)
}

/// `dst ^= src`, word by word, over the shorter of the two.
#[inline]
pub fn xor_into(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// Number of set bits.
#[inline]
pub fn count_ones(words: &[u64]) -> usize {
    words.iter().map(|w| w.count_ones() as usize).sum()
}

/// Parity of the bitwise AND: the GF(2) dot product of two vectors.
#[inline]
pub fn dot(a: &[u64], b: &[u64]) -> bool {
    let folded = a.iter().zip(b).fold(0u64, |acc, (x, y)| acc ^ (x & y));
    folded.count_ones() & 1 == 1
}

/// Mask of the valid bits in the last word of a `bits`-bit vector.
#[inline]
pub const fn tail_mask(bits: usize) -> u64 {
    match bits % BITS {
        0 => u64::MAX,
        r => (1u64 << r) - 1,
    }
}

/// Whether bit `i` is set.
#[inline]
pub fn get(words: &[u64], i: usize) -> bool {
    words[i / BITS] >> (i % BITS) & 1 == 1
}

/// Flips bit `i`.
#[inline]
pub fn toggle(words: &mut [u64], i: usize) {
    words[i / BITS] ^= 1 << (i % BITS);
}

/// Applies the tridiagonal "self and both sides" map to a row of `len` bits:
/// `out[i] = v[i-1] ^ v[i] ^ v[i+1]` (missing neighbours count as zero).
///
/// This is the horizontal part of a plus-shaped press, done with shifts and
/// carries across word boundaries instead of a loop over bits.
pub fn spread_row(v: &[u64], out: &mut [u64], len: usize) {
    let n = v.len();
    for i in 0..n {
        let left_carry = if i + 1 < n { v[i + 1] << 63 } else { 0 };
        let right_carry = if i > 0 { v[i - 1] >> 63 } else { 0 };
        out[i] = v[i] ^ (v[i] >> 1 | left_carry) ^ (v[i] << 1 | right_carry);
    }
    if let Some(last) = out.last_mut() {
        *last &= tail_mask(len);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn spread_row_matches_bitwise_definition_across_word_boundaries() {
        for len in [1, 2, 3, 63, 64, 65, 127, 128, 129] {
            let n = words_for(len);
            for seed in 0..20u64 {
                let mut v: Vec<u64> = (0..n)
                    .map(|k| (seed + 1).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(k as u32 * 7))
                    .collect();
                v[n - 1] &= tail_mask(len);
                let mut out = vec![0; n];
                spread_row(&v, &mut out, len);
                for i in 0..len {
                    let left = i > 0 && get(&v, i - 1);
                    let right = i + 1 < len && get(&v, i + 1);
                    assert_eq!(get(&out, i), left ^ get(&v, i) ^ right, "len {len} bit {i}");
                }
                assert_eq!(out[n - 1] & !tail_mask(len), 0);
            }
        }
    }
}
