//! A matrix over Z_K factored once: each prime power by itself, joined by
//! the Chinese remainder theorem.

use super::Modulus;
use super::count::product_decimal;
use super::local::Local;
use super::matrix::ZkMatrix;

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
/// 16-bit vector lanes, and m·n bytes per prime power. Each solve or
/// obstruction: O(m·n). Each kernel generator: O(m·n).
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
    kernel: Vec<(Vec<u8>, u32)>,
}

impl ZkFactors {
    /// Factors `a`, its entries read mod `modulus`.
    pub fn new(a: &ZkMatrix, modulus: Modulus) -> ZkFactors {
        let k = u16::from(modulus.get());
        let parts: Vec<Part> = modulus
            .prime_powers()
            .into_iter()
            .map(|(p, e, q)| {
                let rest = (k / u16::from(q)) as u8;
                // ε = rest·(rest⁻¹ mod q): 1 mod q, 0 mod rest.
                let inv = super::inverse_mod(rest % q, q).unwrap_or(1);
                let lift = (u16::from(rest) * u16::from(inv) % k) as u8;
                Part { q, local: Local::new(a, p, e), lift }
            })
            .collect();
        let mut factors =
            ZkFactors { modulus, nrows: a.nrows(), ncols: a.ncols(), parts, kernel: Vec::new() };
        let kernels = factors.parts.iter().map(|p| p.local.kernel()).collect();
        factors.kernel = factors.join(kernels);
        factors
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
    /// choice of `0 ≤ c_i < order_i`.
    pub fn kernel(&self) -> &[(Vec<u8>, u32)] {
        &self.kernel
    }

    /// The number of kernel elements, `Π order_i`, exactly in decimal.
    pub fn kernel_size(&self) -> String {
        product_decimal(self.kernel.iter().map(|g| g.1))
    }

    /// `log2` of the number of kernel elements.
    pub fn kernel_size_log2(&self) -> f64 {
        self.kernel.iter().map(|g| f64::from(g.1).log2()).fold(0.0, |a, b| a + b)
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
