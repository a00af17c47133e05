//! Knuth's estimate of a branch-and-bound tree by random probes, with the
//! rates measured on the way.

use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::coset::Coset;
use super::{Branching, Key, Tree, coordinates};

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
            merges += scale * tree.lens[t][side] as f64;
            let (lb0, lb1) = tree.split(t, side);
            // The children the bound and the fold keep, with their ties.
            let unfolded = |s: usize| {
                let child = prefix << 1 | s as u128;
                match &tree.fold {
                    Some(fold) if t < 64 => fold.check(t + 1, coordinates(child, t + 1), tied),
                    _ => Some(tied),
                }
            };
            let open: Vec<(usize, u32)> = [(0, lb0), (1, lb1)]
                .into_iter()
                .filter(|&(_, lb)| lb <= tree.plan.bound)
                .filter_map(|(s, _)| unfolded(s).map(|kept| (s, kept)))
                .collect();
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

/// This thread's CPU time in seconds (Linux: the scheduler's nanoseconds
/// in `/proc/thread-self/schedstat`), `None` where it is not told.
fn thread_cpu_seconds() -> Option<f64> {
    let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let nanoseconds: f64 = text.split_whitespace().next()?.parse().ok()?;
    Some(nanoseconds * 1e-9)
}
