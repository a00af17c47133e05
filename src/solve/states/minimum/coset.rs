//! The coset as the searches see it, normalised ([`Coset`]); its cells
//! pooled into units are in `units.rs`.

use std::borrow::Cow;
use std::sync::OnceLock;

/// gcd(a, b) for bytes, from a table built once per process.
pub(super) fn gcd(a: u8, b: u8) -> u8 {
    static TABLE: OnceLock<Vec<u8>> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        fn euclid(mut a: u32, mut b: u32) -> u32 {
            while b != 0 {
                (a, b) = (b, a % b);
            }
            a
        }
        (0..1u32 << 16).map(|i| euclid(i >> 8, i & 255) as u8).collect()
    });
    table[usize::from(a) << 8 | usize::from(b)]
}

/// The coset, normalised: entries reduced mod K, zero generators dropped,
/// each generator with its additive order.
pub(super) struct Coset<'a> {
    pub(super) k: u8,
    pub(super) x0: Vec<u8>,
    pub(super) gens: Vec<Cow<'a, [u8]>>,
    pub(super) orders: Vec<u32>,
}

impl<'a> Coset<'a> {
    pub(super) fn new(k: u8, particular: &[u8], generators: &[(&'a [u8], u32)]) -> Self {
        let n = particular.len();
        let x0 = particular.iter().map(|&v| v % k).collect();
        let (mut gens, mut orders) = (Vec::new(), Vec::new());
        for &(g, _) in generators {
            let g: Cow<'a, [u8]> = if g.len() == n && g.iter().all(|&e| e < k) {
                Cow::Borrowed(g)
            } else {
                Cow::Owned((0..n).map(|c| g.get(c).map_or(0, |&e| e % k)).collect())
            };
            // gcd(K, entries): the order of g is K / gcd.
            let mut common = k;
            for &e in g.iter() {
                common = gcd(common, e);
                if common == 1 {
                    break;
                }
            }
            if common != k {
                orders.push(u32::from(k / common));
                gens.push(g);
            }
        }
        Coset { k, x0, gens, orders }
    }

    /// The same coset with its generators in the order `of` names (the
    /// generator at each position), borrowing them.
    pub(super) fn reordered(&self, of: &[usize]) -> Coset<'_> {
        Coset {
            k: self.k,
            x0: self.x0.clone(),
            gens: of.iter().map(|&i| Cow::Borrowed(&self.gens[i][..])).collect(),
            orders: of.iter().map(|&i| self.orders[i]).collect(),
        }
    }

    /// Π order_i, if it fits a `u64`.
    pub(super) fn members(&self) -> Option<u64> {
        self.orders.iter().try_fold(1u64, |m, &r| m.checked_mul(u64::from(r)))
    }

    /// The coefficients of the member with mixed-radix `index` (`c_1` least
    /// significant).
    pub(super) fn coefficients(&self, mut index: u64) -> Vec<u32> {
        self.orders
            .iter()
            .map(|&r| {
                let c = index % u64::from(r);
                index /= u64::from(r);
                c as u32
            })
            .collect()
    }

    /// `x0 + Σ c_i·g_i` (mod K).
    pub(super) fn member(&self, coefficients: &[u32]) -> Vec<u8> {
        let k = usize::from(self.k);
        let mut x = self.x0.clone();
        for (g, &c) in self.gens.iter().zip(coefficients) {
            if c != 0 {
                let add: [u8; 256] = std::array::from_fn(|e| (e * c as usize % k) as u8);
                for (xc, &e) in x.iter_mut().zip(g.iter()) {
                    let v = usize::from(*xc) + usize::from(add[usize::from(e)]);
                    *xc = if v >= k { v - k } else { v } as u8;
                }
            }
        }
        x
    }
}
