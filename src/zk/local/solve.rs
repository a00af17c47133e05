//! Using the factors of [`Local`]: solving `A·x = b`, the kernel and the
//! left kernel as direct sums, and the certificate that a system has no
//! solution.

use super::Local;
use crate::zk::rows;

impl Local {
    /// Row `r` as stored.
    fn stored(&self, r: u32) -> &[u8] {
        &self.data[r as usize * self.ncols..][..self.ncols]
    }

    /// Replays the row operations on `b` (reduced mod q, one entry per
    /// row): `c = P·b`, as one value per pivot and the residual of each
    /// zero row.
    fn forward(&self, b: &[u8]) -> (Vec<u8>, Vec<u8>) {
        let q = u64::from(self.q);
        let mut c = Vec::with_capacity(self.pivots.len());
        for (k, pivot) in self.pivots.iter().enumerate() {
            let start = self.starts[pivot.row as usize] as usize;
            let done = rows::dot(&self.stored(pivot.row)[start..k], &c[start..]) % q;
            let value = (u64::from(b[pivot.row as usize]) + q - done) % q;
            c.push((value * u64::from(pivot.inv) % q) as u8);
        }
        let r = self.pivots.len();
        let residuals = self
            .zero_rows
            .iter()
            .map(|&i| {
                let start = (self.starts[i as usize] as usize).min(r);
                let done = rows::dot(&self.stored(i)[start..r], &c[start..]) % q;
                ((u64::from(b[i as usize]) + q - done) % q) as u8
            })
            .collect();
        (c, residuals)
    }

    /// Solves `V·x' = t` from the bottom, with the free positions set as
    /// given, and returns `x = Π·x'` by original column.
    fn back(&self, t: &[u8], free: &[(usize, u8)]) -> Vec<u8> {
        let q = u64::from(self.q);
        let mut xp = vec![0u8; self.ncols];
        for &(j, v) in free {
            xp[j] = v;
        }
        for k in (0..self.pivots.len()).rev() {
            let pivot = self.pivots[k];
            let end = pivot.end as usize;
            let done = rows::dot(&self.stored(pivot.row)[k + 1..end], &xp[k + 1..end]) % q;
            xp[k] = ((u64::from(t[k]) + q - done) % q) as u8;
        }
        let mut x = vec![0u8; self.ncols];
        for (j, &v) in xp.iter().enumerate() {
            x[self.col_at[j] as usize] = v;
        }
        x
    }

    /// `y = Pᵀ·w` (w by row), so that `yᵀ·A = wᵀ·D·(Π·V⁻¹)⁻¹`: the
    /// certificate for row `i` of the Smith form, in the original rows.
    fn transpose_apply(&self, w: &[u8]) -> Vec<u8> {
        let q = u64::from(self.q);
        let r = self.pivots.len();
        // Σ of what later steps subtract from each pivot's value.
        let mut taken = vec![0u64; r];
        let mut y = vec![0u8; self.nrows];
        for &i in &self.zero_rows {
            let z = w[i as usize] % self.q;
            y[i as usize] = z;
            if z != 0 {
                let start = (self.starts[i as usize] as usize).min(r);
                rows::axpy_wide(&mut taken[start..], &self.stored(i)[start..r], z);
            }
        }
        for k in (0..r).rev() {
            let pivot = self.pivots[k];
            let value = (u64::from(w[pivot.row as usize]) + q - taken[k] % q) % q;
            let z = (value * u64::from(pivot.inv) % q) as u8;
            y[pivot.row as usize] = z;
            if z != 0 {
                let start = self.starts[pivot.row as usize] as usize;
                rows::axpy_wide(&mut taken[start..k], &self.stored(pivot.row)[start..k], z);
            }
        }
        y
    }

    /// A solution of `A·x = b` mod q (b reduced, one entry per row), if any.
    pub(in crate::zk) fn solve(&self, b: &[u8]) -> Option<Vec<u8>> {
        let (c, residuals) = self.forward(b);
        if residuals.iter().any(|&x| x != 0) {
            return None;
        }
        // D·t = c: c_k must be a multiple of p^v_k.
        let t = c
            .iter()
            .zip(&self.pivots)
            .map(|(&c, p)| {
                let d = self.power(u32::from(p.val));
                (u16::from(c).is_multiple_of(d)).then_some((u16::from(c) / d) as u8)
            })
            .collect::<Option<Vec<u8>>>()?;
        Some(self.back(&t, &[]))
    }

    /// The orders of the kernel's generators, in the order
    /// [`kernel_within`](Self::kernel_within) gives them: known from the
    /// pivots alone, so the kernel's size costs nothing past elimination
    /// (its generators cost a back substitution each, O(m·n): on 96x96
    /// king-rule torus over Z_7, 380 of them were 88 % of the time).
    pub(in crate::zk) fn kernel_orders(&self) -> Vec<u32> {
        let free = std::iter::repeat_n(u32::from(self.q), self.ncols - self.pivots.len());
        let inner = self.pivots.iter().filter(|p| p.val > 0).map(|p| u32::from(self.power(u32::from(p.val))));
        free.chain(inner).collect()
    }

    /// Generators of `{x : A·x = 0}` as a direct sum, with their orders:
    /// `Π·V⁻¹` applied to the generators of the kernel of `D` (a free
    /// position, order q; p^(e−v) at a pivot of valuation v > 0, order p^v).
    /// `None` once `stop` says so (asked before each generator).
    pub(in crate::zk) fn kernel_within(&self, stop: &dyn Fn() -> bool) -> Option<Vec<(Vec<u8>, u32)>> {
        let r = self.pivots.len();
        let mut out: Vec<(Vec<u8>, u32)> = Vec::new();
        for j in r..self.ncols {
            if stop() {
                return None;
            }
            out.push((self.back(&vec![0; r], &[(j, 1)]), u32::from(self.q)));
        }
        for (k, pivot) in self.pivots.iter().enumerate().filter(|(_, p)| p.val > 0) {
            if stop() {
                return None;
            }
            let mut t = vec![0u8; r];
            t[k] = self.power(self.e - u32::from(pivot.val)) as u8;
            out.push((self.back(&t, &[]), u32::from(self.power(u32::from(pivot.val)))));
        }
        Some(out)
    }

    /// [`kernel_within`](Self::kernel_within), never stopped.
    #[cfg(test)]
    pub(in crate::zk) fn kernel(&self) -> Vec<(Vec<u8>, u32)> {
        self.kernel_within(&|| false).unwrap_or_default()
    }

    /// Generators of `{y : yᵀ·A = 0}` as a direct sum, with their orders.
    pub(in crate::zk) fn left_kernel(&self) -> Vec<(Vec<u8>, u32)> {
        let unit = |i: u32, value: u8| {
            let mut w = vec![0u8; self.nrows];
            w[i as usize] = value;
            self.transpose_apply(&w)
        };
        let mut out: Vec<(Vec<u8>, u32)> =
            self.zero_rows.iter().map(|&i| (unit(i, 1), u32::from(self.q))).collect();
        for pivot in self.pivots.iter().filter(|p| p.val > 0) {
            let value = self.power(self.e - u32::from(pivot.val)) as u8;
            out.push((unit(pivot.row, value), u32::from(self.power(u32::from(pivot.val)))));
        }
        out
    }

    /// Some `y` with `yᵀ·A = 0` and `y·b ≠ 0` mod q, if `A·x = b` has no
    /// solution.
    pub(in crate::zk) fn obstruction(&self, b: &[u8]) -> Option<Vec<u8>> {
        let (c, residuals) = self.forward(b);
        let mut w = vec![0u8; self.nrows];
        if let Some(z) = residuals.iter().position(|&x| x != 0) {
            w[self.zero_rows[z] as usize] = 1;
        } else {
            let (pivot, _) = self
                .pivots
                .iter()
                .zip(&c)
                .find(|&(p, &c)| !u16::from(c).is_multiple_of(self.power(u32::from(p.val))))?;
            w[pivot.row as usize] = self.power(self.e - u32::from(pivot.val)) as u8;
        }
        Some(self.transpose_apply(&w))
    }
}
