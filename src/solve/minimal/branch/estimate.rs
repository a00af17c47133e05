//! Knuth's estimate of a branch-and-bound tree by random probes, with the
//! rates measured on the way.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::coset::Coset;
use super::{Branching, Key, Tree, coordinates};
use crate::solve::slices::Shard;

/// The expected work of a branch-and-bound search, by random probes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Group passes (merges) over the whole search.
    pub merges: f64,
    /// Leaves weighed by the transform.
    pub leaves: f64,
    /// Seconds on one core at the rates measured while probing.
    pub core_seconds: f64,
    /// The merge rate measured (group passes a second of this thread's
    /// CPU time where the system tells it, else of wall time).
    pub merge_rate: f64,
    /// Probes run.
    pub probes: u64,
}

/// Knuth's estimator of the search tree of `plan` over `coset`: `probes`
/// random paths from the root, each through a random child that the bound
/// (the incumbent, never improved) does not prune; a path that meets `k`
/// such children at a depth stands for `k` times its count below. The
/// rates are measured on the way (group passes per second, and a few
/// leaves weighed for their cost).
pub fn estimate(coset: &Coset, plan: &Branching, probes: u64, seed: u64) -> Estimate {
    if coset.nullity() <= 64 {
        estimate_keyed::<u64>(coset, plan, probes, seed)
    } else {
        estimate_keyed::<u128>(coset, plan, probes, seed)
    }
}

fn estimate_keyed<K: Key>(coset: &Coset, plan: &Branching, probes: u64, seed: u64) -> Estimate {
    let mut tree = Tree::<K>::new(coset, plan);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let (mut merges, mut leaves) = (0f64, 0f64);
    let mut leaf_time = (0f64, 0u64);
    let started = Instant::now();
    let cpu_started = thread_cpu_seconds();
    let leaf_depth = tree.d - plan.leaf_bits;
    for _ in 0..probes {
        let (mut t, mut side, mut scale, mut prefix) = (0usize, 0usize, 1f64, 0u128);
        let mut tied = tree.fold.as_ref().map_or(0, |f| f.all_tied());
        loop {
            if t == leaf_depth {
                leaves += scale;
                if plan.leaf_bits > 0 && leaf_time.1 < 16 {
                    let timer = Instant::now();
                    tree.leaf(t, side, 0);
                    leaf_time = (leaf_time.0 + timer.elapsed().as_secs_f64(), leaf_time.1 + 1);
                }
                break;
            }
            let before = tree.work;
            let open = tree.kept_children(t, side, prefix, tied);
            merges += scale * (tree.work - before) as f64;
            if open.is_empty() {
                break;
            }
            scale *= open.len() as f64;
            (side, tied) = open[rng.random_range(0..open.len())];
            prefix = prefix << 1 | side as u128;
            t += 1;
        }
    }
    // CPU time where the system tells it: a loaded machine's wall time
    // counts the other programs' turns too (7x off at load 10).
    let elapsed = match (cpu_started, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => started.elapsed().as_secs_f64(),
    };
    let seconds = elapsed - leaf_time.0;
    let probes = probes.max(1);
    let (merges, leaves) = (merges / probes as f64, leaves / probes as f64);
    let merge_rate = tree.work as f64 / seconds.max(1e-9);
    let leaf_cost = if leaf_time.1 > 0 { leaf_time.0 / leaf_time.1 as f64 } else { 0.0 };
    Estimate { merges, leaves, core_seconds: merges / merge_rate + leaves * leaf_cost, merge_rate, probes }
}

/// The expected work of the blocks of slice `shard` of a search of
/// `coset` by `plan`, in group passes, by runs of `step` of the slice's
/// blocks (indices into the slice; the last run may be shorter): what the
/// progress bar of a long search measures its share done by
/// ([`WorkCurve`](crate::solve::WorkCurve)). Deterministic for a seed.
///
/// Each block is reached as the search reaches it, walking its path from
/// the root (whose passes every block pays again, and which ends early for
/// a block that the bound or the fold cuts off above its depth); below
/// its node, about `probes / blocks` of Knuth's random probes (at least
/// one) estimate its subtree, as [`estimate`] does for the whole tree. A
/// run of more than [`WALKED_PER_RUN`] blocks is estimated from that many
/// of them, drawn at random.
pub(crate) fn slice_work(
    coset: &Coset,
    plan: &Branching,
    shard: Shard,
    step: u64,
    probes: u64,
    seed: u64,
) -> Vec<f64> {
    if coset.nullity() <= 64 {
        slice_work_keyed::<u64>(coset, plan, shard, step, probes, seed)
    } else {
        slice_work_keyed::<u128>(coset, plan, shard, step, probes, seed)
    }
}

/// Blocks of one run of a [`slice_work`] walked at most.
const WALKED_PER_RUN: u64 = 4;

fn slice_work_keyed<K: Key>(
    coset: &Coset,
    plan: &Branching,
    shard: Shard,
    step: u64,
    probes: u64,
    seed: u64,
) -> Vec<f64> {
    let step = step.max(1);
    let units = shard.len(1u64.checked_shl(plan.prefix_bits as u32).unwrap_or(u64::MAX));
    let mut tree = Tree::<K>::new(coset, plan);
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let walked = step.min(WALKED_PER_RUN);
    let runs = units.div_ceil(step);
    let each = (probes / units.min(runs.saturating_mul(walked)).max(1)).max(1);
    (0..runs)
        .map(|k| {
            let (start, len) = (k * step, step.min(units - k * step));
            let picks: Vec<u64> = match len <= walked {
                true => (start..start + len).collect(),
                false => (0..walked).map(|_| start + rng.random_range(0..len)).collect(),
            };
            let sum: f64 =
                picks.iter().map(|&i| block_work(&mut tree, plan, shard.block(i), each, &mut rng)).sum();
            sum * len as f64 / picks.len() as f64
        })
        .collect()
}

/// The group passes of one block as the search makes them: its path from
/// the root, then `each` probes below its node (their mean).
fn block_work<K: Key>(
    tree: &mut Tree<K>,
    plan: &Branching,
    block: u64,
    each: u64,
    rng: &mut ChaCha8Rng,
) -> f64 {
    let depth = plan.prefix_bits;
    let (mut side, mut prefix) = (0usize, 0u128);
    let mut tied = tree.fold.as_ref().map_or(0, |f| f.all_tied());
    let mut path = 0.0;
    for t in 0..depth {
        let before = tree.work;
        let open = tree.kept_children(t, side, prefix, tied);
        path += (tree.work - before) as f64;
        let s = (block >> (depth - 1 - t) & 1) as usize;
        let Some(&(_, kept)) = open.iter().find(|&&(child, _)| child == s) else { return path };
        prefix = prefix << 1 | s as u128;
        tied = kept;
        side = s;
    }
    let below: f64 = (0..each).map(|_| probe_below(tree, plan, (depth, side, prefix, tied), rng)).sum();
    path + below / each as f64
}

/// One of Knuth's probes from the node (depth, side, prefix, ties) down:
/// the group passes it stands for.
fn probe_below<K: Key>(
    tree: &mut Tree<K>,
    plan: &Branching,
    (mut t, mut side, mut prefix, mut tied): (usize, usize, u128, u32),
    rng: &mut ChaCha8Rng,
) -> f64 {
    let leaf_depth = tree.d - plan.leaf_bits;
    let (mut scale, mut work) = (1f64, 0f64);
    loop {
        if t >= leaf_depth {
            return work + scale * tree.lens[t][side] as f64;
        }
        let before = tree.work;
        let open = tree.kept_children(t, side, prefix, tied);
        work += scale * (tree.work - before) as f64;
        if open.is_empty() {
            return work;
        }
        scale *= open.len() as f64;
        (side, tied) = open[rng.random_range(0..open.len())];
        prefix = prefix << 1 | side as u128;
        t += 1;
    }
}

impl<K: Key> Tree<K> {
    /// Makes the children of the node (depth t, `side`, `prefix`, the
    /// fold's motions `tied`) and returns those that the bound (the
    /// incumbent, never improved), the fold and the parity checks keep,
    /// with their ties, as the search keeps them.
    fn kept_children(&mut self, t: usize, side: usize, prefix: u128, tied: u32) -> Vec<(usize, u32)> {
        let (raw0, raw1) = self.split_raw(t, side);
        let mut open = Vec::with_capacity(2);
        for (s, raw) in [(0, raw0), (1, raw1)] {
            if self.round_up(raw) > self.plan.bound {
                continue;
            }
            let child = prefix << 1 | s as u128;
            let kept = match &self.fold {
                Some(fold) if t < 64 => fold.check(t + 1, coordinates(child, t + 1), tied),
                _ => Some(tied),
            };
            if let Some(kept) = kept
                && !self.checks_prune(t + 1, s, child, raw)
            {
                open.push((s, kept));
            }
        }
        open
    }
}

/// This thread's CPU time in seconds (Linux: the scheduler's nanoseconds
/// in `/proc/thread-self/schedstat`), `None` where it is not told.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanoseconds * 1e-9)
}

#[cfg(test)]
mod tests {
    use std::sync::atomic::AtomicBool;

    use super::*;
    use crate::model::{Grid, Puzzle};
    use crate::solve::minimal::FoldTag;
    use crate::{Method, Solver, Target};

    /// The work a progress bar goes by (issue 22, item 4), on the folded
    /// 30×30 search (a real coset): each block of the whole search and of
    /// slice 2/3 is searched alone and its group passes counted. The
    /// estimate of every block (its path walked, one probe below) puts the
    /// work where the search does it: the share of the work done after
    /// each tenth of the blocks within 0.05 of the true share (the share
    /// of the blocks is more than 0.08 off at some tenth; every block walks its path
    /// again), the total within 10 %; runs of 16 blocks (4 of them
    /// walked) within 0.1; every run finite and not negative, the same
    /// for the same seed.
    #[test]
    fn a_slice_s_work_follows_the_work_of_its_blocks() {
        let n = 30;
        let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 63).unwrap();
        let (_, cross) = solver.cross_coset(&Grid::ones(n, n), &Target::White).unwrap().unwrap();
        // a(30) = 376: five above it, as a local search's incumbent may be.
        for shard in [Shard::WHOLE, Shard { index: 2, count: 3 }] {
            let plan =
                Branching { fold: FoldTag::Unnamed, ..Branching::new(cross.nullity(), shard.count, 381) };
            let units = shard.len(1 << plan.prefix_bits);
            let mut tree = Tree::<u64>::new(&cross, &plan);
            let never = AtomicBool::new(false);
            let truth: Vec<f64> = (0..units)
                .map(|i| {
                    let before = tree.work;
                    tree.restrict(shard, i..i + 1);
                    tree.run(&never);
                    (tree.work - before) as f64
                })
                .collect();
            let share =
                |work: &[f64], upto: usize| work[..upto].iter().sum::<f64>() / work.iter().sum::<f64>();
            for (step, within) in [(1u64, 0.05), (16, 0.1)] {
                let runs = slice_work(&cross, &plan, shard, step, 1000, 7);
                assert_eq!(runs, slice_work(&cross, &plan, shard, step, 1000, 7), "deterministic");
                assert_eq!(runs.len() as u64, units.div_ceil(step));
                assert!(runs.iter().all(|w| w.is_finite() && *w >= 0.0));
                let (real, probed) = (truth.iter().sum::<f64>(), runs.iter().sum::<f64>());
                assert!((probed / real - 1.0).abs() < 2.0 * within, "{shard}: {probed} passes, truly {real}");
                let mut uneven = 0.0f64;
                for tenth in 1..10 {
                    let upto = units as usize * tenth / 10;
                    let true_share = share(&truth, upto);
                    let probed_share = share(&runs, upto.div_ceil(step as usize));
                    let at = format!("{shard}, runs of {step}, after {upto} of {units} blocks");
                    assert!(
                        (true_share - probed_share).abs() < within,
                        "{at}: {true_share} of the work, estimated {probed_share}"
                    );
                    uneven = uneven.max((true_share - tenth as f64 / 10.0).abs());
                }
                assert!(uneven > 0.08, "{shard}: the blocks are too even to test anything ({uneven})");
            }
        }
    }
}
