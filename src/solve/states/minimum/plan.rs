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
