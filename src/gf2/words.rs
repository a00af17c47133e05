//! The raw-word kernels that stay: each measured faster than the bitvec
//! operation it replaces (`cargo bench --bench bits`, figures in
//! docs/performance.md). Everything else about bits goes through bitvec,
//! except word loops measured faster in place (each says so where it is)
//! and rows that cross a boundary as words: a streamed board's rows
//! (`RowStream`, `PbmWriter`) and the text reader's cells.
//!
//! Bits are stored least significant first, as in [`BitVector`](super::BitVector):
//! bit `i` lives in word `i / 64` at position `i % 64`. Callers pass the raw
//! words of whole rows whose padding bits are zero: `BitMatrix::words`
//! keeps them so. bitvec does not: `BitVector::repeat(true, n)`, `!v` and
//! `truncate` can leave bits set past the length, so a `BitVector` is fed
//! to these kernels only when built from zeros.

/// `dst ^= src`, word by word, over the shorter of the two.
///
/// Bitvec's `^=` loads and stores each word through its bit-addressed
/// domain: 776 ns against 12 ns here for 4096 bits (`bits_xor`).
#[inline]
pub fn xor(dst: &mut [u64], src: &[u64]) {
    for (d, s) in dst.iter_mut().zip(src) {
        *d ^= *s;
    }
}

/// Number of set bits.
///
/// Bitvec's `count_ones` splits the slice into its domain first, which
/// costs 5.3 ns against 1.9 ns here on one word and 15 against 11 ns on
/// 1000 bits (they tie from 4096 bits on, `bits_ones`); the minimisers
/// count small rows and grids millions of times.
#[inline]
pub fn count_ones(words: &[u64]) -> usize {
    words.iter().map(|w| w.count_ones() as usize).sum()
}

/// Parity of the bitwise AND: the GF(2) dot product of two vectors.
///
/// Bitvec has no AND-and-count without a scratch row; that route costs
/// 1.5 µs against 12 ns here for 4096 bits (`bits_dot`).
#[inline]
pub fn dot(a: &[u64], b: &[u64]) -> bool {
    let folded = a.iter().zip(b).fold(0u64, |acc, (x, y)| acc ^ (x & y));
    folded.count_ones() & 1 == 1
}

/// Applies the tridiagonal "self and both sides" map to a row of `len` bits:
/// `out[i] = v[i-1] ^ v[i] ^ v[i+1]` (missing neighbours count as zero).
///
/// This is the horizontal part of a plus-shaped press, done with shifts and
/// carries across word boundaries; bitvec's copy and two XORs at an offset
/// of one bit cost 3.0 µs against 82 ns for 4096 bits (`bits_spread`).
pub fn spread_row(v: &[u64], out: &mut [u64], len: usize) {
    let n = v.len();
    for i in 0..n {
        let left_carry = if i + 1 < n { v[i + 1] << 63 } else { 0 };
        let right_carry = if i > 0 { v[i - 1] >> 63 } else { 0 };
        out[i] = v[i] ^ (v[i] >> 1 | left_carry) ^ (v[i] << 1 | right_carry);
    }
    if let Some(last) = out.last_mut()
        && !len.is_multiple_of(64)
    {
        *last &= (1u64 << (len % 64)) - 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gf2::BitVector;

    #[test]
    fn kernels_match_bitwise_definitions_across_word_boundaries() {
        for len in [1, 2, 3, 63, 64, 65, 127, 128, 129] {
            for seed in 0..20u64 {
                let bits = |salt: u64| -> BitVector {
                    (0..len)
                        .map(|i| (i as u64 ^ seed ^ salt).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1)
                        .collect()
                };
                let (v, w) = (bits(0), bits(0x55));
                let mut out = BitVector::repeat(true, len);
                spread_row(v.as_raw_slice(), out.as_raw_mut_slice(), len);
                for i in 0..len {
                    let left = i > 0 && v[i - 1];
                    let right = i + 1 < len && v[i + 1];
                    assert_eq!(out[i], left ^ v[i] ^ right, "len {len} bit {i}");
                }
                assert_eq!(count_ones(out.as_raw_slice()), out.count_ones());
                let expected = v.iter_ones().filter(|&i| w[i]).count() % 2 == 1;
                assert_eq!(dot(v.as_raw_slice(), w.as_raw_slice()), expected);
                let mut x = v.clone();
                xor(x.as_raw_mut_slice(), w.as_raw_slice());
                assert_eq!(x, v.clone() ^ &w);
            }
        }
    }
}
