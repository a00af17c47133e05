//! How the exhaustive search's members are cut into work: the inner block
//! ([`inner_plan`]), the tasks of a sliced search ([`sliced_top`]) and which
//! of them one call weighs ([`Only`]). The front (`exhaustive.rs`) and the
//! engine both read it.

use super::coset::gcd;
use crate::solve::Shard;

/// Which tasks of a sliced search one call weighs: the slice's tasks
/// `range` (see [`TaskLayout`](super::slices::TaskLayout)), and the index
/// of a member already found that meets the bound (`u64::MAX` if none),
/// past which nothing is weighed.
#[derive(Clone)]
pub(super) struct Only {
    /// Most members of a task (see [`sliced_top`]).
    pub(super) cap: u64,
    pub(super) shard: Shard,
    pub(super) range: std::ops::Range<u64>,
    pub(super) met: u64,
}

/// How many of the low coefficients (`t`) make the inner block, and its
/// members `P` and sampled shifts `S`: as many as keep `S·P` within
/// `entries`, and at least one.
pub(super) fn inner_plan(orders: &[usize], entries: usize) -> (usize, usize, usize) {
    let (mut t, mut p, mut s) = (0, 1usize, 1usize);
    while t < orders.len() {
        let r = orders[t];
        let s2 = s / usize::from(gcd(s as u8, r as u8)) * r;
        if s2 * p * r > entries && t > 0 {
            break;
        }
        (t, p, s) = (t + 1, p * r, s2);
    }
    (t, p, s)
}

/// How many top coefficients split a sliced search into tasks: fixed by the
/// coset (never by the threads), so that a slice, a checkpoint and a record
/// mean the same on every machine. As many as keep a task within
/// `cap` members ([`SLICED_TASK_MEMBERS`](super::SLICED_TASK_MEMBERS) but in tests).
pub(super) fn sliced_top(p: u64, outer: &[usize], cap: u64) -> usize {
    let mut per_task = p.saturating_mul(outer.iter().map(|&r| r as u64).product());
    let mut top = 0;
    while top < outer.len() && per_task > cap {
        per_task /= outer[outer.len() - 1 - top] as u64;
        top += 1;
    }
    top
}

/// The shifts `S` an inner block over `orders` samples: their lcm (1 for
/// no inner coefficient).
pub(super) fn shifts(orders: &[usize]) -> usize {
    orders.iter().fold(1, |s, &r| s / usize::from(gcd(s as u8, r as u8)) * r)
}

/// The coefficients of a plain search (no slices, no symmetries) in the
/// order the engine walks them, and how many make its inner block.
///
/// The inner block costs about `S·Σr` additions a member (`r` its orders,
/// `S` their lcm), which over Z_128 or Z_255 is thousands: the smallest
/// orders go inner, and past the point where the block costs more than
/// moving the units one member at a time, there is none. The answer does
/// not depend on the order: indices stay the caller's (see [`Order::steps`]),
/// so ties go where they went.
pub(super) struct Order {
    /// The caller's coefficient at each position, smallest orders first.
    of: Vec<usize>,
    /// Their orders, in that order.
    pub(super) orders: Vec<usize>,
    /// How many of the first make the inner block.
    pub(super) inner: usize,
}

impl Order {
    /// The order for coefficients of `orders` (the caller's), `units` units
    /// to move, `lanes` blocks weighed at once, an inner block of at most
    /// `entries` table entries.
    pub(super) fn plan(orders: &[u32], units: usize, lanes: usize, entries: usize) -> Order {
        let mut of: Vec<usize> = (0..orders.len()).collect();
        of.sort_by_key(|&i| orders[i]);
        let sorted: Vec<usize> = of.iter().map(|&i| orders[i] as usize).collect();
        let (fits, _, _) = inner_plan(&sorted, entries);
        // Additions per member: the transform, the capture of the tables,
        // the pick of the lightest, and the walk's step (the units it moves
        // and a fixed part) shared by the block's members.
        let cost = |t: usize| {
            let (s, p) = (shifts(&sorted[..t]) as f64, sorted[..t].iter().product::<usize>() as f64);
            let sum: usize = sorted[..t].iter().sum();
            s * sum as f64 / lanes as f64 + s + 1.0 + (units as f64 + 64.0) / p
        };
        let cheapest = (0..=fits).min_by(|&a, &b| cost(a).total_cmp(&cost(b))).unwrap_or(fits);
        // The widest block that fits, as the sliced search plans it, unless
        // another costs less than half as much.
        let inner = if 2.0 * cost(cheapest) < cost(fits) { cheapest } else { fits };
        Order { of, orders: sorted, inner }
    }

    /// Per outer coefficient, what one step of it adds to a member's index
    /// (`x0 + Σ c_i·g_i` has index `Σ c_i·Π_(j<i) order_j` in the caller's
    /// order); and the index of each of the `p` members of the inner block,
    /// unless that is the member's own number.
    pub(super) fn steps(&self, p: usize) -> (Vec<u64>, Option<Vec<u64>>) {
        let mut stride = vec![0u64; self.of.len()];
        let mut caller = vec![0usize; self.of.len()];
        for (position, &i) in self.of.iter().enumerate() {
            caller[i] = position;
        }
        let mut next = 1u64;
        for &position in &caller {
            stride[position] = next;
            next = next.saturating_mul(self.orders[position] as u64);
        }
        let outer = stride[self.inner..].to_vec();
        if self.of.iter().enumerate().all(|(position, &i)| position == i) {
            return (outer, None);
        }
        let mut index = vec![0u64; p];
        let mut run = 1;
        for (&r, &step) in self.orders[..self.inner].iter().zip(&stride) {
            for digit in 1..r {
                for c in 0..run {
                    index[digit * run + c] = index[c] + digit as u64 * step;
                }
            }
            run *= r;
        }
        (outer, Some(index))
    }

    /// The caller's coefficient at each position.
    pub(super) fn of(&self) -> &[usize] {
        &self.of
    }
}
