//! The exhaustive engine: the Gray walk over the outer coefficients that
//! keeps each block's tables up to date, `L` blocks weighed at a time.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use rayon::prelude::*;

use super::coset::Coset;
use super::plan::{Only, Order, inner_plan, shifts, sliced_top};
use super::transform::{Acc, Row, lightest, transform};
use super::units::Units;
use super::{Tuning, fold};

/// The exhaustive engine (see the module documentation), weighing `L`
/// blocks at a time, one a lane.
///
/// For each low key `λ` the table `T_λ[s] = Σ_(units of λ) m·((a + s) mod K)`
/// is kept as differences over the `S` shifts the inner coefficients can
/// make (`s = σ·K/S`): slot 0 holds `Σ m·a`, slot `σ ≥ 1` adds `(K/S)·M_λ`
/// (the `s·M_λ` part, `M_λ = Σ m`) less `K·m` for each unit that wraps
/// past K from shift σ on, and `T_λ[σ·K/S]` is the sum of slots 0 ..= σ.
/// A unit whose value `a` moves changes slot 0 and at most two others;
/// slot `S` collects the wraps no sampled shift reaches.
pub(super) struct Engine<'a, A: Acc, const L: usize> {
    k: usize,
    units: &'a Units<'a>,
    /// Orders of the inner coefficients, then of the outer ones.
    inner: Vec<usize>,
    outer: Vec<usize>,
    /// Members per block (Π inner orders) and sampled shifts per table.
    p: usize,
    s: usize,
    /// How many of the outer coefficients (from the top) split the work.
    top: usize,
    /// Per outer coefficient: how much one step of it adds to the index of
    /// a block's first member, in the caller's order of the coefficients.
    base_step: Vec<u64>,
    /// The caller's index of each member of a block past its first, where
    /// the coefficients were reordered (`None`: member `c` is `c`).
    inner_index: Option<Vec<u64>>,
    /// For `j` in `0..=K`: the slot where a wrap at shift `j` starts.
    slot_of: Vec<usize>,
    /// Per unit: its low key's table, `m` and `K·m`.
    lam: Vec<u32>,
    m: Vec<A>,
    km: Vec<A>,
    /// Per outer coefficient: the units it moves, with their entries.
    moves: Vec<Vec<(u32, u8)>>,
    /// The tables' part that never changes: `(K/S)·M_λ` in slots 1..S.
    fixed: Vec<A>,
    /// Symmetries: only the smallest block of each orbit is weighed.
    fold: Option<&'a fold::Folding>,
}

impl<'a, A: Acc, const L: usize> Engine<'a, A, L> {
    pub(super) fn new(
        coset: &Coset,
        units: &'a Units<'a>,
        tuning: Tuning,
        sliced: Option<u64>,
        fold: Option<&'a fold::Folding>,
        order: Option<&Order>,
    ) -> Self {
        let k = usize::from(coset.k);
        let orders: Vec<usize> = coset.orders.iter().map(|&r| r as usize).collect();
        let (t, p, s) = match (fold, order) {
            // The inner block is the invariant subspace, whatever its size.
            (Some(f), _) => (f.invariant, k.pow(f.invariant as u32), k),
            (None, Some(order)) => {
                (order.inner, orders[..order.inner].iter().product(), shifts(&orders[..order.inner]))
            }
            (None, None) => inner_plan(&orders, tuning.max_inner / L),
        };
        let (inner, outer) = (orders[..t].to_vec(), orders[t..].to_vec());
        let (base_step, inner_index) = match order {
            Some(order) => order.steps(p),
            None => (
                outer.iter().scan(p as u64, |st, &r| Some(std::mem::replace(st, *st * r as u64))).collect(),
                None,
            ),
        };
        // The top coefficients split the blocks into tasks: enough for the
        // threads to share, each with blocks to fill its lanes if it can;
        // for a sliced search, the fixed split of `Tasks`.
        let threads = rayon::current_num_threads().max(1) as u64;
        let blocks: u64 = outer.iter().map(|&r| r as u64).product();
        let mut top = 0;
        let mut tasks = 1u64;
        while sliced.is_none() && top < outer.len() && tasks < 16 * threads {
            let more = tasks * outer[outer.len() - 1 - top] as u64;
            // Reordered, the top coefficient can be large (Z_255: 255
            // tasks of one block each, a transform of 16 lanes for one):
            // rather fewer tasks than threads than so many with empty lanes.
            let too_many = order.is_some() && more > 16 * threads;
            if more * L as u64 > blocks && (tasks >= threads || too_many) {
                break;
            }
            (tasks, top) = (more, top + 1);
        }
        if let Some(cap) = sliced {
            top = sliced_top(p as u64, &outer, cap);
        }
        let slot_of = (0..=k).map(|j| (j * s).div_ceil(k)).collect();
        let mut lam = vec![0u32; units.len()];
        let mut stride = 1u32;
        for (col, &r) in units.cols.iter().zip(&inner) {
            let unit = (k / r) as u8;
            for (l, &e) in lam.iter_mut().zip(col.iter()) {
                *l += u32::from(e / unit) * stride;
            }
            stride *= r as u32;
        }
        let moves = units.cols[t..]
            .iter()
            .map(|col| {
                (0..units.len() as u32)
                    .filter(|&u| col[u as usize] != 0)
                    .map(|u| (u, col[u as usize]))
                    .collect()
            })
            .collect();
        let m: Vec<A> = units.mult.iter().map(|&m| A::of(u64::from(m))).collect();
        let km = units.mult.iter().map(|&m| A::of(u64::from(m) * k as u64)).collect();
        let mut fixed = vec![A::default(); p * (s + 1)];
        let step = A::of((k / s) as u64);
        for (&l, &mu) in lam.iter().zip(&m) {
            let row = &mut fixed[l as usize * (s + 1)..][..s + 1];
            for slot in &mut row[1..s] {
                *slot = slot.add(mu_times(mu, step));
            }
        }
        Engine {
            k,
            units,
            inner,
            outer,
            p,
            s,
            top,
            base_step,
            inner_index,
            slot_of,
            lam,
            m,
            km,
            moves,
            fixed,
            fold,
        }
    }

    /// Every block; see `search` in `exhaustive.rs`.
    pub(super) fn run(
        &self,
        nonzero: bool,
        bound: u64,
        progress: &(dyn Fn(u64, u64) + Sync),
        only: Option<Only>,
        stop: Option<&AtomicBool>,
    ) -> Option<(u64, u64)> {
        let split = self.outer.len() - self.top;
        let tasks: u64 = self.outer[split..].iter().map(|&r| r as u64).product();
        let per_task = self.p as u64 * self.outer[..split].iter().map(|&r| r as u64).product::<u64>();
        let total = per_task * tasks;
        let met = AtomicU64::new(only.as_ref().map_or(u64::MAX, |o| o.met));
        let done = AtomicU64::new(0);
        let task = |t: u64| {
            let best = self.task(t, nonzero, bound, &met, stop);
            progress(done.fetch_add(per_task, Ordering::Relaxed) + per_task, total);
            best
        };
        if let Some(Only { shard, range, .. }) = only {
            return range
                .into_par_iter()
                .map(|i| shard.block(i))
                .filter(|&t| t < tasks)
                .filter_map(task)
                .min();
        }
        if tasks == 1 {
            return task(0);
        }
        (0..tasks).into_par_iter().filter_map(task).min()
    }

    /// One task: the blocks whose top coefficients spell `task`, walked in
    /// Gray-code order over the middle ones, `L` blocks weighed at once
    /// (block `i` of a batch in lane `i` of the buffers).
    // Kept whole for now: the engine's hot loop, whose state (lanes,
    // running weights, Gray position) every step shares; a split is to be
    // measured first (criterion `states_minimum`), not assumed free.
    fn task(
        &self,
        task: u64,
        nonzero: bool,
        bound: u64,
        met: &AtomicU64,
        stop: Option<&AtomicBool>,
    ) -> Option<(u64, u64)> {
        let stopped = || stop.is_some_and(|s| s.load(Ordering::Relaxed));
        if stopped() {
            return None;
        }
        let (k, s, p) = (self.k, self.s, self.p);
        let split = self.outer.len() - self.top;
        // The index of the block's first member: Σ_outer c_i · base_step_i.
        let strides = &self.base_step;
        let mut a = self.units.value.clone();
        let mut block = 0u64;
        let mut rest = task;
        // Every outer coefficient of the block, for the symmetries' test.
        let mut outer_digits = vec![0usize; self.outer.len()];
        let top = self.outer.iter().zip(strides).zip(&self.moves).skip(split);
        for (i, ((&r, &stride), moves)) in top.enumerate() {
            let c = (rest % r as u64) as usize;
            rest /= r as u64;
            outer_digits[split + i] = c;
            block += c as u64 * stride;
            for &(u, e) in moves {
                let v = &mut a[u as usize];
                *v = ((usize::from(*v) + c * usize::from(e)) % k) as u8;
            }
        }
        if block > met.load(Ordering::Relaxed) {
            return None;
        }
        let mut d = self.fixed.clone();
        for (u, &v) in a.iter().enumerate() {
            let row = self.lam[u] as usize * (s + 1);
            d[row] = d[row].add(mu_times(self.m[u], A::of(u64::from(v))));
            d[row + self.slot_of[k - usize::from(v)]] =
                d[row + self.slot_of[k - usize::from(v)]].sub(self.km[u]);
        }
        let mut buf = vec![[A::default(); L]; s * p];
        let mut tmp = buf.clone();
        let mut lane_block = [0u64; L];
        let mut filled = 0;
        let mut digit = vec![0usize; split];
        let mut up = vec![true; split];
        let mut best: Option<(u64, u64)> = None;
        loop {
            let weighed = self.fold.is_none_or(|f| {
                outer_digits[..split].copy_from_slice(&digit);
                f.is_canonical(&outer_digits)
            });
            if weighed && block <= met.load(Ordering::Relaxed) {
                self.capture(&d, &mut buf, filled);
                lane_block[filled] = block;
                filled += 1;
            }
            // The next block in the reflected Gray code: the lowest middle
            // coefficient that can move on in its direction moves by one;
            // those below it, at their ends, turn round.
            let next = (0..split).find(|&j| {
                let can = if up[j] { digit[j] + 1 < self.outer[j] } else { digit[j] > 0 };
                if !can {
                    up[j] = !up[j];
                }
                can
            });
            if filled == L || (next.is_none() && filled > 0) {
                transform(&mut buf, &mut tmp, &self.inner, s, p);
                let found =
                    lightest(&mut buf[..p], filled, &lane_block, self.inner_index.as_deref(), nonzero);
                if let Some(found) = found {
                    if best.is_none_or(|b| found < b) {
                        best = Some(found);
                    }
                    if found.0 <= bound {
                        met.fetch_min(found.1, Ordering::Relaxed);
                    }
                }
                filled = 0;
                if stopped() {
                    break;
                }
            }
            let Some(j) = next else {
                break;
            };
            let e_of = |e: u8| if up[j] { usize::from(e) } else { k - usize::from(e) };
            if up[j] {
                digit[j] += 1;
                block += strides[j];
            } else {
                digit[j] -= 1;
                block -= strides[j];
            }
            for &(u, e) in &self.moves[j] {
                let u = u as usize;
                let old = usize::from(a[u]);
                let mut new = old + e_of(e);
                let mut change = A::of(e_of(e) as u64);
                if new >= k {
                    new -= k;
                    change = change.sub(A::of(k as u64));
                }
                a[u] = new as u8;
                let row = self.lam[u] as usize * (s + 1);
                d[row] = d[row].add(mu_times(self.m[u], change));
                d[row + self.slot_of[k - old]] = d[row + self.slot_of[k - old]].add(self.km[u]);
                d[row + self.slot_of[k - new]] = d[row + self.slot_of[k - new]].sub(self.km[u]);
            }
        }
        best
    }

    /// The block's tables `T_λ[σ·K/S]` into `lane` of `buf` (row σ·P + λ),
    /// from their differences `d`.
    fn capture(&self, d: &[A], buf: &mut [Row<A, L>], lane: usize) {
        let (s, p) = (self.s, self.p);
        for (l, row) in d.chunks_exact(s + 1).enumerate() {
            let mut sum = A::default();
            for (sigma, &x) in row[..s].iter().enumerate() {
                sum = sum.add(x);
                buf[sigma * p + l][lane] = sum;
            }
        }
    }
}

fn mu_times<A: Acc>(m: A, v: A) -> A {
    A::of(m.get().wrapping_mul(v.get()))
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand_chacha::ChaCha8Rng;

    use super::super::plan::Order;
    use super::super::tests::{assert_lightest_nonzero_is_brute, borrowed, brute, random_coset};
    use super::super::{lower_bound, minimize, minimize_tuned, minimize_with_stop};
    use super::*;
    use crate::zk::{Modulus, ZkFactors, ZkMatrix};

    #[test]
    fn blocks_tasks_and_gray_walk_equal_brute_force() {
        // Enough members for several blocks, tasks and a Gray walk over the
        // middle coefficients, and small tables so that the walk is long.
        let mut rng = ChaCha8Rng::seed_from_u64(9);
        for (k, n, d) in [(3u8, 40, 11), (4, 30, 8), (6, 25, 7), (2, 50, 17), (9, 12, 5), (8, 20, 7)] {
            let (x0, gens) = random_coset(&mut rng, k, n, d);
            let expected = brute(k, &x0, &gens, false).unwrap();
            let got = minimize(k, &x0, &borrowed(&gens), 40);
            assert_eq!(got.presses, expected, "K={k} n={n} d={d}");
            let sizes = [(1, 1, false), (20, 3, true), (200, 1, false), (200, 16, true), (5000, 7, false)];
            for (max_inner, lanes, wide) in sizes {
                let tuning = Tuning { max_inner, lanes, wide };
                let small = minimize_tuned(k, &x0, &borrowed(&gens), 40, &|_, _| {}, Some(tuning));
                assert_eq!(small, got, "K={k} n={n} d={d} {tuning:?}");
            }
            assert_lightest_nonzero_is_brute(k, n, &gens, &format!("K={k}"));
        }
    }

    #[test]
    fn reordered_coefficients_keep_the_answer_and_its_ties() {
        // Large orders first, as Z_2^k and Z_255 kernels come: the plain
        // search walks the small ones inner (or none, past its cost), the
        // tuned one keeps the caller's order; same member, ties included
        // (small entries and few cells make many members weigh the same).
        let mut rng = ChaCha8Rng::seed_from_u64(31);
        for (k, n, d) in [(8u8, 6, 4), (12, 5, 4), (128, 4, 3), (255, 3, 2), (36, 6, 3), (4, 3, 6)] {
            for _ in 0..6 {
                let (x0, mut gens) = random_coset(&mut rng, k, n, d);
                gens.sort_by_key(|(_, r)| std::cmp::Reverse(*r));
                let plain = minimize(k, &x0, &borrowed(&gens), 40);
                assert_eq!(Some(plain.presses.clone()), brute(k, &x0, &gens, false), "K={k} {gens:?}");
                let sorted: Vec<u32> = gens.iter().map(|(_, r)| *r).collect();
                let tuning = Tuning::auto(n, &sorted);
                let tuned = minimize_tuned(k, &x0, &borrowed(&gens), 40, &|_, _| {}, Some(tuning));
                assert_eq!(plain, tuned, "K={k}");
                assert_lightest_nonzero_is_brute(k, n, &gens, &format!("K={k}"));
            }
        }
    }

    #[test]
    fn the_plan_puts_small_orders_inner_and_drops_a_dear_block() {
        // 9x9 over Z_128: the four orders 2 and two 8s make the block
        // (S = 8), not one 128 (S = 128, 128^2 additions a member).
        let order = Order::plan(&[128, 128, 8, 8, 2, 2, 2, 2], 81, 16, 4096);
        assert_eq!(order.orders, [2, 2, 2, 2, 8, 8, 128, 128]);
        assert_eq!(order.of(), [4, 5, 6, 7, 2, 3, 0, 1]);
        assert_eq!(order.inner, 5);
        // Z_251 with few units: moving them costs less than any block.
        assert_eq!(Order::plan(&[251, 251], 20, 16, 4096).inner, 0);
        // Z_3, as before: the widest block that fits.
        assert_eq!(Order::plan(&[3; 12], 100, 16, 4096).inner, inner_plan(&[3; 12], 4096).0);
        // The caller's indices: coefficient i has stride Π_(j<i) order_j.
        let order = Order::plan(&[4, 2], 10, 1, 4096);
        assert_eq!((order.of(), order.inner), (&[1, 0][..], 2));
        let (outer, inner) = order.steps(8);
        assert!(outer.is_empty());
        // Position 0 is the caller's coefficient 1 (stride 4), position 1
        // its coefficient 0 (stride 1): member c = c_pos0 + 2·c_pos1.
        assert_eq!(inner, Some(vec![0, 4, 1, 5, 2, 6, 3, 7]));
    }

    #[test]
    fn a_stop_ends_a_task_between_its_batches() {
        // 3^24 members, hours of work: the search runs in tasks of about
        // 10^10 members each, so it returns only if a task stops mid-way.
        let mut rng = ChaCha8Rng::seed_from_u64(13);
        let (x0, gens) = random_coset(&mut rng, 3, 100, 24);
        let stop = AtomicBool::new(false);
        let got = std::thread::scope(|scope| {
            scope.spawn(|| {
                std::thread::sleep(std::time::Duration::from_millis(50));
                stop.store(true, Ordering::Relaxed);
            });
            minimize_with_stop(3, &x0, &borrowed(&gens), 40, &stop)
        });
        assert!(!got.proven_minimal && got.lower_bound < got.total, "{got:?}");
        // Too many members to enumerate: a member because presses − x0 is
        // a combination of the generators (solved over Z_3), not because
        // `total == weight(presses)` (the search sets it so).
        let z3 = Modulus::new(3).unwrap();
        let columns = ZkMatrix::from_fn(100, 24, |cell, j| gens[j].0[cell]);
        let offset: Vec<u8> = got.presses.iter().zip(&x0).map(|(&p, &x)| z3.sub(p, x)).collect();
        assert!(ZkFactors::new(&columns, z3).solve(&offset).is_some(), "not a member");
        assert!(got.lower_bound >= lower_bound(3, &x0, &borrowed(&gens)));
    }
}
