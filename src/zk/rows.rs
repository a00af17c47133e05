//! The row kernels of elimination mod q, written so the compiler
//! vectorises them: contiguous rows, 16-bit lanes, no division.
//!
//! A row being eliminated is held in `u16` lanes and reduced lazily: adding
//! `m·v` with `m, v < q` grows an entry by at most (q−1)², so for q = 3 about
//! 16,000 row operations fit before the row must be reduced, and even for
//! q = 251 one does. Reduction is Barrett's: with `M = ⌊2^16 / q⌋`, the
//! quotient estimate `⌊x·M / 2^16⌋` is low by at most one for every 16-bit
//! `x`, so one conditional subtraction (a `min`) finishes it. The loops are
//! compiled three times, for AVX-512, AVX2 and the baseline, and the CPU
//! picks at run time ([`Isa::detect`](crate::cpu::Isa::detect)).

/// Reduction mod q of 16-bit values without division.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Barrett {
    q: u16,
    m: u32,
}

impl Barrett {
    pub(crate) fn new(q: u8) -> Barrett {
        Barrett { q: u16::from(q), m: (1u32 << 16) / u32::from(q) }
    }

    /// `x mod q`.
    #[inline(always)]
    pub(crate) fn reduce(self, x: u16) -> u16 {
        let t = ((u32::from(x) * self.m) >> 16) as u16;
        // t ≤ ⌊x/q⌋ ≤ t + 1, so r < 2q.
        let r = x - t * self.q;
        r.min(r.wrapping_sub(self.q))
    }

    /// Every entry of `row` mod q.
    #[inline(always)]
    pub(crate) fn reduce_row(self, row: &mut [u16]) {
        for x in row {
            *x = self.reduce(*x);
        }
    }
}

/// `dst += m·src`, wrapping (the caller keeps the entries below 2^16).
#[inline(always)]
pub(super) fn axpy(dst: &mut [u16], src: &[u8], m: u16) {
    for (d, &s) in dst.iter_mut().zip(src) {
        *d = d.wrapping_add(m.wrapping_mul(u16::from(s)));
    }
}

/// `Σ a_i·b_i` over the integers (no reduction).
pub(super) fn dot(a: &[u8], b: &[u8]) -> u64 {
    // 2^15 products of at most 255² fit in a u32 lane; blocks of them keep
    // the inner loop in 32-bit lanes, which the compiler vectorises.
    a.chunks(1 << 15)
        .zip(b.chunks(1 << 15))
        .map(|(a, b)| u64::from(a.iter().zip(b).map(|(&x, &y)| u32::from(x) * u32::from(y)).sum::<u32>()))
        .sum()
}

/// `acc += m·src` over the integers, for the transposed substitutions.
pub(super) fn axpy_wide(acc: &mut [u64], src: &[u8], m: u8) {
    for (a, &s) in acc.iter_mut().zip(src) {
        *a += u64::from(m) * u64::from(s);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn barrett_reduces_every_16_bit_value() {
        for q in 2..=255u8 {
            let b = Barrett::new(q);
            for x in 0..=u16::MAX {
                assert_eq!(b.reduce(x), x % u16::from(q), "{x} mod {q}");
            }
        }
    }

    #[test]
    fn dot_does_not_overflow_long_rows() {
        let a = vec![255u8; 200_000];
        assert_eq!(dot(&a, &a), 200_000 * 255 * 255);
    }
}
