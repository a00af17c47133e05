//! Criterion benches of the bit kernels: bitvec's own operations against
//! the raw-word loops the crate keeps, one group per operation, over row
//! lengths from one word to a 16384-cell row (and 1000, which ends
//! mid-word). A word kernel stays in `gf2::words` only where it wins here.
//!
//! Run: `cargo bench --bench bits`. Figures: docs/performance.md.

use criterion::{BenchmarkId, Criterion, criterion_group, criterion_main};
use lightsout::gf2::{BitVector, words};
use std::hint::black_box;

const LENGTHS: [usize; 4] = [64, 1000, 4096, 16384];

/// A reproducible row of `len` bits, padding zero.
fn row(len: usize, seed: u64) -> BitVector {
    (0..len).map(|i| (i as u64 ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 63 == 1).collect()
}

/// `dst ^= src`: bitvec's operator against the word loop.
fn xor(c: &mut Criterion) {
    let mut group = c.benchmark_group("bits_xor");
    for len in LENGTHS {
        let (mut a, b) = (row(len, 1), row(len, 2));
        group.bench_function(BenchmarkId::new("bitvec", len), |bench| {
            bench.iter(|| *a.as_mut_bitslice() ^= black_box(b.as_bitslice()))
        });
        group.bench_function(BenchmarkId::new("words", len), |bench| {
            bench.iter(|| words::xor(a.as_raw_mut_slice(), black_box(b.as_raw_slice())))
        });
    }
    group.finish();
}

/// The GF(2) dot product: bitvec's AND into a scratch row and count,
/// against the folded word loop.
fn dot(c: &mut Criterion) {
    let mut group = c.benchmark_group("bits_dot");
    for len in LENGTHS {
        let (a, b) = (row(len, 3), row(len, 4));
        let mut scratch = a.clone();
        group.bench_function(BenchmarkId::new("bitvec", len), |bench| {
            bench.iter(|| {
                scratch.copy_from_bitslice(black_box(&a));
                scratch &= black_box(b.as_bitslice());
                scratch.count_ones() & 1 == 1
            })
        });
        group.bench_function(BenchmarkId::new("words", len), |bench| {
            bench.iter(|| words::dot(black_box(a.as_raw_slice()), black_box(b.as_raw_slice())))
        });
    }
    group.finish();
}

/// The horizontal part of a plus press, `out[i] = v[i-1] ^ v[i] ^ v[i+1]`:
/// bitvec's copy and two shifted XORs against the carry-word kernel.
fn spread(c: &mut Criterion) {
    let mut group = c.benchmark_group("bits_spread");
    for len in LENGTHS {
        let v = row(len, 5);
        let mut out = BitVector::repeat(false, len);
        group.bench_function(BenchmarkId::new("bitvec", len), |bench| {
            bench.iter(|| {
                let v = black_box(v.as_bitslice());
                out.copy_from_bitslice(v);
                out[1..] ^= &v[..len - 1];
                out[..len - 1] ^= &v[1..];
            })
        });
        group.bench_function(BenchmarkId::new("words", len), |bench| {
            bench.iter(|| words::spread_row(black_box(v.as_raw_slice()), out.as_raw_mut_slice(), len))
        });
    }
    group.finish();
}

/// Counting and listing the ones: bitvec's `count_ones` and `iter_ones`
/// against the word loops they replaced.
fn ones(c: &mut Criterion) {
    let mut group = c.benchmark_group("bits_ones");
    for len in LENGTHS {
        let v = row(len, 6);
        group.bench_function(BenchmarkId::new("count_ones/bitvec", len), |bench| {
            bench.iter(|| black_box(v.as_bitslice()).count_ones())
        });
        group.bench_function(BenchmarkId::new("count_ones/words", len), |bench| {
            bench.iter(|| black_box(v.as_raw_slice()).iter().map(|w| w.count_ones() as usize).sum::<usize>())
        });
        group.bench_function(BenchmarkId::new("iter_ones/bitvec", len), |bench| {
            bench.iter(|| black_box(v.as_bitslice()).iter_ones().sum::<usize>())
        });
        group.bench_function(BenchmarkId::new("iter_ones/words", len), |bench| {
            bench.iter(|| {
                let mut sum = 0;
                for (k, &w) in black_box(v.as_raw_slice()).iter().enumerate() {
                    let mut w = w;
                    while w != 0 {
                        sum += k * 64 + w.trailing_zeros() as usize;
                        w &= w - 1;
                    }
                }
                sum
            })
        });
    }
    group.finish();
}

/// Reading every bit one at a time, as `BitMatrix::get` does: bitvec's
/// indexing against a shift of the word.
fn get(c: &mut Criterion) {
    let mut group = c.benchmark_group("bits_get");
    let len = 4096;
    let v = row(len, 7);
    group.bench_function(BenchmarkId::new("bitvec", len), |bench| {
        bench.iter(|| {
            let v = black_box(v.as_bitslice());
            (0..len).filter(|&i| v[i]).count()
        })
    });
    group.bench_function(BenchmarkId::new("words", len), |bench| {
        bench.iter(|| {
            let w = black_box(v.as_raw_slice());
            (0..len).filter(|&i| w[i / 64] >> (i % 64) & 1 == 1).count()
        })
    });
    group.finish();
}

criterion_group!(benches, xor, dot, spread, ones, get);
criterion_main!(benches);
