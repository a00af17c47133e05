//! A matrix over Z_K factored once: each prime power by itself, joined by
//! the Chinese remainder theorem.

use std::sync::OnceLock;

use super::Modulus;
use super::count::product_decimal;
use super::local::Local;
use super::matrix::ZkMatrix;

/// Entry passes of [`ZkFactors::cost`] a CPU-second does: the slowest
/// measured, 9.4 ns an entry (256x48 king rule on a torus over Z_7, at load
/// about 10 on 2 cores), rounded to 10 ns.
pub const ENTRY_PASSES_PER_SECOND: f64 = 1e8;

/// Entries of a matrix whose passes run in the cache: 2 MiB.
const CACHED_ENTRIES: f64 = (1u64 << 21) as f64;

/// One prime power q of K: the factors mod q and the idempotent `ε` of
/// Z_K that is 1 mod q and 0 mod K/q, which lifts a residue mod q to Z_K.
#[derive(Clone, Debug)]
struct Part {
    q: u8,
    local: Local,
    lift: u8,
}

/// A matrix `A` over Z_K factored once, to solve `A·x = b` for many `b`.
///
/// For each prime power q = p^e of K, `A` is eliminated over Z_q with
/// pivots of the smallest p-valuation (a Smith form, kept as its row
/// operations and pivot rows: see the module `local`); a solution mod K is
/// the solutions mod each q joined by the Chinese remainder theorem, which
/// lifts the whole coset of solutions. Over a prime K this is plain
/// Gaussian elimination.
///
/// The kernel `{x : A·x = 0}` is an abelian group, not always a free
/// module: [`kernel`](Self::kernel) gives generators `g_i` of orders `o_i`
/// such that every kernel element is `Σ c_i·g_i` for exactly one choice of
/// `0 ≤ c_i < o_i`. Rank and nullity mean something only over a field
/// ([`rank`](Self::rank) is `None` for a composite K); the number of kernel
/// elements always does ([`kernel_size`](Self::kernel_size)).
///
/// # Complexity
/// Factoring an m×n matrix: O(m·n·min(m, n)) per prime power of K, in
/// 16-bit vector lanes, and m·n bytes per prime power (see
/// [`cost`](Self::cost)). Each solve or obstruction: O(m·n). The kernel's
/// size comes with the factors; its generators are made when first asked
/// for, O(m·n) each.
///
/// # Example
/// ```
/// use lightsout::zk::{Modulus, ZkFactors, ZkMatrix};
///
/// // x + y = b₀, 2x + 2y = b₁ over Z_6: solvable exactly when b₁ = 2·b₀.
/// let k = Modulus::new(6)?;
/// let a = ZkMatrix::from_fn(2, 2, |i, _| [1, 2][i]);
/// let f = ZkFactors::new(&a, k);
/// let x = f.solve(&[4, 2]).expect("2·4 = 2 mod 6");
/// assert_eq!(a.mul_vec(&x, k), vec![4, 2]);
/// assert!(f.solve(&[4, 3]).is_none());
/// let y = f.obstruction(&[4, 3]).expect("unsolvable");
/// assert_eq!(a.vec_mul(&y, k), vec![0, 0]);
/// assert_ne!(k.add(k.mul(y[0], 4), k.mul(y[1], 3)), 0);
/// // The kernel is {(t, −t)}: six elements, one generator of order 6.
/// assert_eq!((f.kernel_size(), f.kernel().len(), f.kernel()[0].1), ("6".to_string(), 1, 6));
/// assert_eq!((f.rank(), f.nullity()), (None, None));
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct ZkFactors {
    modulus: Modulus,
    nrows: usize,
    ncols: usize,
    parts: Vec<Part>,
    /// The orders of the kernel's generators, as [`kernel`](Self::kernel)
    /// gives them.
    orders: Vec<u32>,
    /// The generators, made when first asked for: a table wants only their
    /// number and orders, and making them is most of the work when there
    /// are many.
    kernel: OnceLock<Vec<(Vec<u8>, u32)>>,
}

impl ZkFactors {
    /// Factors `a`, its entries read mod `modulus`.
    pub fn new(a: &ZkMatrix, modulus: Modulus) -> ZkFactors {
        // Never stopped, so always factored.
        ZkFactors::new_within(a, modulus, &|| false).unwrap_or_else(|| unreachable!("never stopped"))
    }

    /// [`new`](Self::new), stopped once `stop` says so: `None` then. It is
    /// asked before each block of at most 64 rows of the elimination
    /// (milliseconds apart), so a caller with a deadline or a cancel flag
    /// gets the core back soon after; asking costs a call per block.
    pub fn new_within(a: &ZkMatrix, modulus: Modulus, stop: &dyn Fn() -> bool) -> Option<ZkFactors> {
        let k = u16::from(modulus.get());
        let parts = modulus
            .prime_powers()
            .into_iter()
            .map(|(p, e, q)| {
                let rest = (k / u16::from(q)) as u8;
                // ε = rest·(rest⁻¹ mod q): 1 mod q, 0 mod rest.
                let inv = super::inverse_mod(rest % q, q).unwrap_or(1);
                let lift = (u16::from(rest) * u16::from(inv) % k) as u8;
                Some(Part { q, local: Local::new_within(a, p, e, stop)?, lift })
            })
            .collect::<Option<Vec<Part>>>()?;
        let orders = join_orders(parts.iter().map(|p| p.local.kernel_orders()).collect());
        Some(ZkFactors {
            modulus,
            nrows: a.nrows(),
            ncols: a.ncols(),
            parts,
            orders,
            kernel: OnceLock::new(),
        })
    }

    /// Estimated cost of factoring an `n × n` matrix over `modulus` whose
    /// nonzero entries lie within `band` of the diagonal, but for `border`
    /// columns at the right and rows at the bottom (a torus's wrapped
    /// rows), in entry passes: [`ENTRY_PASSES_PER_SECOND`] of them take a
    /// CPU-second.
    ///
    /// Two terms, per prime power of K. The passes over the matrix (copied
    /// in, each row loaded into lanes, scanned for its pivot and stored):
    /// n² entries, what most sizes of a grid rule cost, full rank or not; 0.3
    /// of that while the matrix fits in 2 MiB (the cache). The row
    /// operations: each pivot row, as far as it reaches, added to the rows
    /// below it that it touches, about n·(band + border)² lane steps, 64 to
    /// an entry pass (at most n³/3: a dense matrix, or a kernel whose
    /// column exchanges break the band).
    ///
    /// Measured (`lightsout table --states K -r R -c C --rule RULE
    /// [--torus]`, user CPU, load 6 to 10 on 2 cores; docs/performance.md):
    /// 1.8 to 9.4 ns an entry pass over 16 grid sizes and rules, 64x64 to
    /// 256x64, prime and composite K, full rank or a kernel of 380
    /// generators; a dense 3000-square matrix (a random graph of density
    /// 1/2) 0.57 s, about 1.8·10^10 lane steps a second. The kernel's
    /// generators are not counted (see [`kernel_orders`](Self::kernel_orders)).
    ///
    /// # Example
    /// ```
    /// use lightsout::zk::{Modulus, ZkFactors};
    ///
    /// let (seven, twelve) = (Modulus::new(7)?, Modulus::new(12)?);
    /// // 96x96, king rule on a torus: 9216 cells, a band of 97, 192 wrapped.
    /// let cost = ZkFactors::cost(9216, 97, 192, seven);
    /// assert!((9.0e7..1.1e8).contains(&cost)); // about a CPU-second
    /// // Two prime powers (4 and 3): twice the work.
    /// assert_eq!(ZkFactors::cost(9216, 97, 192, twelve), 2.0 * cost);
    /// // A dense 200-square system (light chasing's first row) stays in
    /// // the cache: 0.3 of the passes, and n³/3 lane steps.
    /// let dense = ZkFactors::cost(200, 200, 0, seven);
    /// assert!((dense - (0.3 * 40_000.0 + 8e6 / 3.0 / 64.0)).abs() < 1e-6);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn cost(n: usize, band: usize, border: usize, modulus: Modulus) -> f64 {
        let n = n as f64;
        let reach = band.saturating_add(border) as f64;
        let steps = (n * reach * reach).min(n * n * n / 3.0);
        let pass = if n * n <= CACHED_ENTRIES { 0.3 } else { 1.0 };
        modulus.prime_powers().len() as f64 * (pass * n * n + steps / 64.0)
    }

    /// Upper bound of the bytes that factoring an `nrows × ncols` matrix
    /// over `modulus` holds: the matrix once per prime power of K, and the
    /// rows being eliminated (at most 256 KiB).
    pub fn bytes(nrows: usize, ncols: usize, modulus: Modulus) -> u64 {
        let parts = modulus.prime_powers().len() as u64;
        let per_part =
            (nrows as u64).saturating_mul(ncols as u64).saturating_add(8 * nrows as u64 + 8 * ncols as u64);
        // The input matrix itself is the caller's; the one block of rows in
        // 16-bit lanes, and a copy of it, are the work space.
        parts.saturating_mul(per_part).saturating_add(1 << 19)
    }

    /// K.
    pub fn modulus(&self) -> Modulus {
        self.modulus
    }

    /// Rows of `A`.
    pub fn nrows(&self) -> usize {
        self.nrows
    }

    /// Columns of `A`.
    pub fn ncols(&self) -> usize {
        self.ncols
    }

    /// `b` reduced mod one prime power.
    fn reduced(b: &[u8], q: u8) -> Vec<u8> {
        b.iter().map(|&x| x % q).collect()
    }

    /// The residues `xs[i]` (mod each part's q) as one vector mod K.
    fn lift(&self, xs: &[(usize, &[u8])]) -> Vec<u8> {
        let k = u32::from(self.modulus.get());
        let len = xs.first().map_or(0, |x| x.1.len());
        (0..len)
            .map(|j| {
                let sum: u32 =
                    xs.iter().map(|&(part, x)| u32::from(self.parts[part].lift) * u32::from(x[j])).sum();
                (sum % k) as u8
            })
            .collect()
    }

    /// The generators of the kernel, made now if they were not, unless
    /// `stop` says so before one of them is made (a back substitution,
    /// O(m·n)): `None` then.
    pub fn kernel_within(&self, stop: &dyn Fn() -> bool) -> Option<&[(Vec<u8>, u32)]> {
        if let Some(kernel) = self.kernel.get() {
            return Some(kernel);
        }
        let per_part = self.parts.iter().map(|p| p.local.kernel_within(stop)).collect::<Option<Vec<_>>>()?;
        Some(self.kernel.get_or_init(|| self.join(per_part)))
    }

    /// Joins the generators of each part's group into generators of their
    /// direct sum: the i-th largest of every part together, as one cyclic
    /// group of the product of their orders (coprime, so this is again a
    /// direct sum, with fewer generators).
    fn join(&self, mut per_part: Vec<Vec<(Vec<u8>, u32)>>) -> Vec<(Vec<u8>, u32)> {
        for gens in &mut per_part {
            gens.sort_by_key(|g| std::cmp::Reverse(g.1));
        }
        let count = per_part.iter().map(Vec::len).max().unwrap_or(0);
        (0..count)
            .map(|i| {
                let present: Vec<(usize, &[u8])> = per_part
                    .iter()
                    .enumerate()
                    .filter_map(|(part, gens)| gens.get(i).map(|g| (part, g.0.as_slice())))
                    .collect();
                let order = per_part.iter().filter_map(|gens| gens.get(i)).map(|g| g.1).product();
                (self.lift(&present), order)
            })
            .collect()
    }

    /// A solution `x` of `A·x = b` mod K, if there is one (`b` has one
    /// entry per row, read mod K). Every solution is `x` plus a kernel
    /// element.
    ///
    /// # Panics
    /// If `b` does not have one entry per row.
    pub fn solve(&self, b: &[u8]) -> Option<Vec<u8>> {
        assert_eq!(b.len(), self.nrows, "a right-hand side of {} entries for {} rows", b.len(), self.nrows);
        let parts = self
            .parts
            .iter()
            .map(|p| p.local.solve(&Self::reduced(b, p.q)))
            .collect::<Option<Vec<Vec<u8>>>>()?;
        let xs: Vec<(usize, &[u8])> = parts.iter().enumerate().map(|(i, x)| (i, x.as_slice())).collect();
        Some(self.lift(&xs))
    }

    /// Generators of the kernel `{x : A·x = 0}` with their orders, as a
    /// direct sum: each kernel element is `Σ c_i·g_i` for exactly one
    /// choice of `0 ≤ c_i < order_i`. Made on the first call.
    pub fn kernel(&self) -> &[(Vec<u8>, u32)] {
        self.kernel_within(&|| false).unwrap_or_default()
    }

    /// The orders of the kernel's generators, as [`kernel`](Self::kernel)
    /// gives them, known without making them.
    pub fn kernel_orders(&self) -> &[u32] {
        &self.orders
    }

    /// The number of kernel elements, `Π order_i`, exactly in decimal.
    pub fn kernel_size(&self) -> String {
        product_decimal(self.orders.iter().copied())
    }

    /// `log2` of the number of kernel elements.
    pub fn kernel_size_log2(&self) -> f64 {
        self.orders.iter().map(|&o| f64::from(o).log2()).fold(0.0, |a, b| a + b)
    }

    /// The rank of `A`, for a prime K (`None` for a composite K, whose
    /// kernel need not be free).
    pub fn rank(&self) -> Option<usize> {
        match self.parts.as_slice() {
            [part] if self.modulus.is_prime() => Some(part.local.pivot_count()),
            _ => None,
        }
    }

    /// Columns minus the rank, for a prime K.
    pub fn nullity(&self) -> Option<usize> {
        self.rank().map(|r| self.ncols - r)
    }

    /// For each prime power q = p^e of K, the valuation v of each pivot of
    /// the Smith form mod q (its diagonal entry is p^v; 0 for a unit). Over
    /// a prime K, one 0 per unit of rank.
    pub fn invariants(&self) -> Vec<(u8, Vec<u32>)> {
        self.parts.iter().map(|p| (p.q, p.local.valuations().collect())).collect()
    }

    /// Generators of the left kernel `{y : yᵀ·A = 0}` with their orders, as
    /// a direct sum: `A·x = b` is solvable exactly when `y·b = 0` for each.
    /// Computed when asked, O(m·n) per generator.
    pub fn left_kernel(&self) -> Vec<(Vec<u8>, u32)> {
        self.join(self.parts.iter().map(|p| p.local.left_kernel()).collect())
    }

    /// A certificate that `A·x = b` has no solution: some `y` with
    /// `yᵀ·A = 0` and `y·b ≠ 0` mod K. `None` when it is solvable.
    ///
    /// # Panics
    /// If `b` does not have one entry per row.
    pub fn obstruction(&self, b: &[u8]) -> Option<Vec<u8>> {
        assert_eq!(b.len(), self.nrows, "a right-hand side of {} entries for {} rows", b.len(), self.nrows);
        self.parts.iter().enumerate().find_map(|(i, p)| {
            let y = p.local.obstruction(&Self::reduced(b, p.q))?;
            Some(self.lift(&[(i, &y)]))
        })
    }
}

/// The orders of [`ZkFactors::join`]'s generators from the orders of each
/// part's: the i-th largest of every part multiplied.
fn join_orders(mut per_part: Vec<Vec<u32>>) -> Vec<u32> {
    for orders in &mut per_part {
        orders.sort_by_key(|&o| std::cmp::Reverse(o));
    }
    let count = per_part.iter().map(Vec::len).max().unwrap_or(0);
    (0..count).map(|i| per_part.iter().filter_map(|orders| orders.get(i)).product()).collect()
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;

    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    use super::*;

    /// The kernel's size is known before its generators are made (a table
    /// wants only the size): the orders given up front are the generators'
    /// orders, for prime, prime-power and mixed K, on matrices of every
    /// rank.
    #[test]
    fn the_orders_known_up_front_are_the_generators_orders() {
        let mut rng = ChaCha8Rng::seed_from_u64(32);
        for k in [2u32, 3, 4, 6, 7, 8, 12, 36, 72, 200, 251] {
            let k = Modulus::new(k).unwrap();
            for (m, n, rank) in [(1, 1, 1), (9, 9, 4), (20, 13, 13), (13, 20, 7), (40, 40, 40), (40, 40, 1)] {
                let left = ZkMatrix::from_fn(m, rank, |_, _| rng.random_range(0..k.get()));
                let right = ZkMatrix::from_fn(rank, n, |_, _| rng.random_range(0..k.get()));
                let a = ZkMatrix::from_fn(m, n, |i, j| {
                    k.reduce((0..rank).map(|t| u64::from(left.get(i, t)) * u64::from(right.get(t, j))).sum())
                });
                let f = ZkFactors::new(&a, k);
                let orders = f.kernel_orders().to_vec();
                let size = f.kernel_size();
                let made: Vec<u32> = f.kernel().iter().map(|g| g.1).collect();
                assert_eq!(orders, made, "{m}x{n} of rank {rank} over Z_{k}");
                assert_eq!(size, product_decimal(made.iter().copied()));
                for (g, _) in f.kernel() {
                    assert!(a.mul_vec(g, k).iter().all(|&v| v == 0), "A·g ≠ 0 over Z_{k}");
                }
            }
        }
    }

    /// A stop asked for ends the elimination at its next check, and the
    /// making of the generators at the next generator; a stop never asked
    /// for changes nothing.
    #[test]
    fn a_stop_ends_the_factoring_and_the_generators() {
        let k = Modulus::new(12).unwrap();
        // 256x256, all ones but the diagonal: blocks of at most 64 rows, so
        // at least four checks before the end.
        let a = ZkMatrix::from_fn(256, 256, |i, j| u8::from(i != j));
        assert!(ZkFactors::new_within(&a, k, &|| true).is_none());
        let asked = Cell::new(0);
        let third = || {
            asked.set(asked.get() + 1);
            asked.get() > 2
        };
        assert!(ZkFactors::new_within(&a, k, &third).is_none());
        assert_eq!(asked.get(), 3, "stopped at the first check that said so");
        let whole = ZkFactors::new_within(&a, k, &|| false).unwrap();
        let plain = ZkFactors::new(&a, k);
        assert_eq!(whole.kernel_orders(), plain.kernel_orders());
        assert_eq!(whole.solve(&[1; 256]), plain.solve(&[1; 256]));

        let singular = ZkMatrix::from_fn(30, 30, |_, j| (j % 5) as u8);
        let f = ZkFactors::new(&singular, k);
        assert!(f.kernel_orders().len() > 1);
        assert!(f.kernel_within(&|| true).is_none(), "stopped before the first generator");
        let made = f.kernel_within(&|| false).unwrap().len();
        assert_eq!(made, f.kernel_orders().len());
        // Made once: asked again, even with a stop, they are there.
        assert_eq!(f.kernel_within(&|| true).map(<[_]>::len), Some(made));
    }
}
