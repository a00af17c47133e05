//! The number type the tables add in ([`Acc`]), the transform that turns a
//! batch of blocks' tables into the weights of all their members, and the
//! pick of the lightest among them.

use crate::cpu::Isa;

/// The number type the tables add in: `u32` while no member can weigh
/// 2^32 or more, else `u64`. Arithmetic wraps: the tables hold
/// differences, and every value read back is a true weight.
pub(super) trait Acc: Copy + Send + Sync + Ord + Default + 'static {
    fn of(v: u64) -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn get(self) -> u64;
}

impl Acc for u32 {
    fn of(v: u64) -> Self {
        v as u32
    }
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    fn sub(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn get(self) -> u64 {
        u64::from(self)
    }
}

impl Acc for u64 {
    fn of(v: u64) -> Self {
        v
    }
    fn add(self, o: Self) -> Self {
        self.wrapping_add(o)
    }
    fn sub(self, o: Self) -> Self {
        self.wrapping_sub(o)
    }
    fn get(self) -> u64 {
        self
    }
}

/// One entry of the buffers for each of `L` blocks weighed together.
pub(super) type Row<A, const L: usize> = [A; L];

/// The lightest member among the transformed blocks: `weights[c][lane]` is
/// member `c` of the block whose first member has index `lane_block[lane]`,
/// for the first `filled` lanes; member `c` adds `inner_index[c]` to it
/// (`c` if `None`). (weight, index), the smallest index among the
/// lightest; with `nonzero`, weight 0 is skipped.
pub(super) fn lightest<A: Acc, const L: usize>(
    weights: &mut [Row<A, L>],
    filled: usize,
    lane_block: &[u64; L],
    inner_index: Option<&[u64]>,
    nonzero: bool,
) -> Option<(u64, u64)> {
    // Unfilled lanes hold stale sums: make them the heaviest. With
    // `nonzero`, w − 1 (wrapping) puts weight 0 last.
    let skip = A::of(u64::MAX);
    let shift = A::of(u64::from(nonzero));
    if filled < L {
        for row in weights.iter_mut() {
            for w in &mut row[filled..] {
                *w = skip.add(shift);
            }
        }
    }
    let least = weights.iter().map(|row| row.iter().map(|w| w.sub(shift)).min().unwrap_or(skip)).min()?;
    if least == skip {
        return None;
    }
    let index = weights
        .iter()
        .enumerate()
        .flat_map(|(c, row)| {
            row.iter()
                .zip(lane_block)
                .filter(|(w, _)| w.sub(shift) == least)
                .map(move |(_, &b)| b + inner_index.map_or(c as u64, |i| i[c]))
        })
        .min()?;
    Some((least.add(shift).get(), index))
}

/// Turns the tables `buf[σ·P + λ] = T_λ[σ·K/S]` (λ in mixed radix over the
/// inner orders, the first coordinate least significant; each row holds
/// `L` blocks) into the weights `buf[c] = Σ_λ T_λ[⟨c, λ⟩]` of the `P`
/// members `c` of each block.
///
/// One coordinate at a time, its key digit `a` is replaced by its
/// coefficient `c`: `new[σ][…c…] = Σ_a old[σ + c·a·S/r][…a…]`, where a
/// digit `a` stands for the entry `a·K/r` (`r` the coordinate's order) and
/// the shift is counted in units of K/S. The last coordinate needs σ = 0
/// only. Compiled for AVX-512 and AVX2 when the processor has them: the
/// rows of `L` lanes are what the vector instructions add.
///
/// # Complexity
/// O(S · P · Σ r) row additions.
pub(super) fn transform<A: Acc, const L: usize>(
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    transform_in(Isa::detect(), buf, tmp, inner, s, p)
}

/// [`transform`] in the instruction set `isa` (tests run every one the
/// machine has).
fn transform_in<A: Acc, const L: usize>(
    isa: Isa,
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    match isa {
        #[cfg(target_arch = "x86_64")]
        // SAFETY: the CPU was seen to support the features.
        Isa::Avx512 => unsafe { transform_avx512(buf, tmp, inner, s, p) },
        #[cfg(target_arch = "x86_64")]
        // SAFETY: as above.
        Isa::Avx2 => unsafe { transform_avx2(buf, tmp, inner, s, p) },
        Isa::Portable => transform_portable(buf, tmp, inner, s, p),
    }
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f")]
unsafe fn transform_avx512<A: Acc, const L: usize>(
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    transform_portable(buf, tmp, inner, s, p)
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
unsafe fn transform_avx2<A: Acc, const L: usize>(
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    transform_portable(buf, tmp, inner, s, p)
}

#[inline(always)]
fn transform_portable<A: Acc, const L: usize>(
    buf: &mut Vec<Row<A, L>>,
    tmp: &mut Vec<Row<A, L>>,
    inner: &[usize],
    s: usize,
    p: usize,
) {
    let mut run = 1;
    for (j, &r) in inner.iter().enumerate() {
        let sigmas = if j + 1 == inner.len() { 1 } else { s };
        let shift = s / r;
        let chunk = run * r;
        for so in 0..sigmas {
            let out = &mut tmp[so * p..(so + 1) * p];
            let plane_of = |a: usize, c: usize| {
                let sigma = (so + c * a * shift) % s;
                &buf[sigma * p..(sigma + 1) * p]
            };
            for c in 0..r {
                // Terms a = 0 and a = 1 together (every order is at least 2),
                // then the others.
                let (p0, p1) = (plane_of(0, c), plane_of(1, c));
                let chunks =
                    out.chunks_exact_mut(chunk).zip(p0.chunks_exact(chunk)).zip(p1.chunks_exact(chunk));
                for ((oc, c0), c1) in chunks {
                    // Flat runs of run·L entries: the compiler vectorises
                    // along them (over rows of L it would gather).
                    let o = oc[c * run..(c + 1) * run].as_flattened_mut();
                    let (y0, y1) = (c0[..run].as_flattened(), c1[run..2 * run].as_flattened());
                    for ((x, &y0), &y1) in o.iter_mut().zip(y0).zip(y1) {
                        *x = y0.add(y1);
                    }
                }
                for a in 2..r {
                    let pa = plane_of(a, c);
                    for (oc, ca) in out.chunks_exact_mut(chunk).zip(pa.chunks_exact(chunk)) {
                        let o = oc[c * run..(c + 1) * run].as_flattened_mut();
                        for (x, &y) in o.iter_mut().zip(ca[a * run..(a + 1) * run].as_flattened()) {
                            *x = x.add(y);
                        }
                    }
                }
            }
        }
        std::mem::swap(buf, tmp);
        run = chunk;
    }
}

#[cfg(test)]
mod tests {
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The definition: `out[c] = Σ_λ in[σ(c, λ)·P + λ]`, with the shift
    /// `σ(c, λ) = Σ_j c_j·λ_j·(S/r_j) mod S` (digits in mixed radix over
    /// `inner`, the first least significant).
    fn by_definition<A: Acc, const L: usize>(
        input: &[Row<A, L>],
        inner: &[usize],
        s: usize,
    ) -> Vec<Row<A, L>> {
        let p: usize = inner.iter().product();
        let digits = |mut x: usize| {
            inner
                .iter()
                .map(|&r| {
                    let d = x % r;
                    x /= r;
                    d
                })
                .collect::<Vec<_>>()
        };
        (0..p)
            .map(|c| {
                let cd = digits(c);
                let mut out = [A::default(); L];
                for lambda in 0..p {
                    let ld = digits(lambda);
                    let sigma =
                        inner.iter().zip(&cd).zip(&ld).map(|((&r, &c), &l)| c * l * (s / r)).sum::<usize>()
                            % s;
                    for (o, &x) in out.iter_mut().zip(&input[sigma * p + lambda]) {
                        *o = o.add(x);
                    }
                }
                out
            })
            .collect()
    }

    /// Every instruction set against the portable loop and the definition.
    fn check<A: Acc, const L: usize>(rng: &mut ChaCha8Rng, random: impl Fn(&mut ChaCha8Rng) -> A) {
        // (inner orders, S): flat runs of 1, 2, 3, … 17·L entries, so the
        // vector loops end on and off their lanes; S the lcm of the orders
        // (as the engine plans it) or K (as the symmetric search does).
        let plans: [(&[usize], usize); 10] = [
            (&[2], 2),
            (&[3], 3),
            (&[2, 2, 2, 2, 2, 2], 2),
            (&[3, 3, 3, 3], 3),
            (&[4, 2, 4], 4),
            (&[6, 3, 2], 6),
            (&[5, 5, 5], 5),
            (&[2, 3], 12),
            (&[17], 17),
            (&[3, 17], 51),
        ];
        for (inner, s) in plans {
            let p: usize = inner.iter().product();
            let input: Vec<Row<A, L>> = (0..s * p).map(|_| std::array::from_fn(|_| random(rng))).collect();
            let expected = by_definition(&input, inner, s);
            let mut portable = None;
            for isa in Isa::available() {
                let (mut buf, mut tmp) = (input.clone(), vec![[A::default(); L]; s * p]);
                transform_in(isa, &mut buf, &mut tmp, inner, s, p);
                assert!(buf[..p] == expected[..], "{isa:?} L={L} inner {inner:?} S={s}");
                // Bit for bit, the rows past P too (scratch the engine ignores).
                let portable = portable.get_or_insert_with(|| buf.clone());
                assert!(buf == *portable, "{isa:?} L={L} inner {inner:?} S={s}: not the portable buffer");
            }
        }
    }

    /// Found by review: only the kernel the CPU picks was tested (through
    /// the engine), so on an AVX-512 machine the AVX2 and portable copies
    /// never ran. Each lane count the engine uses, both widths, wrapping
    /// sums (random values over the whole range).
    #[test]
    fn every_isa_matches_the_definition() {
        let mut rng = ChaCha8Rng::seed_from_u64(21);
        check::<u32, 1>(&mut rng, |r| r.random());
        check::<u32, 4>(&mut rng, |r| r.random());
        check::<u32, 16>(&mut rng, |r| r.random());
        check::<u64, 1>(&mut rng, |r| r.random());
        check::<u64, 4>(&mut rng, |r| r.random());
        check::<u64, 16>(&mut rng, |r| r.random());
    }
}
