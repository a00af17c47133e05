//! Knuth's estimate of a branch-and-bound tree by random probes, with the
//! rates measured on the way.

use std::sync::atomic::AtomicBool;
use std::time::Instant;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::super::coset::Coset;
use super::super::coset::Layout;
use super::{Branching, Key, MERGES_A_TRIPLE, Tree, coordinates};
use crate::solve::slices::Best;
use crate::solve::slices::Shard;
use crate::solve::slices::SliceKind;

/// The expected work of one slice of a branch-and-bound search, by random
/// probes, and what it costs at the rates measured on the way.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Estimate {
    /// Group merges (passes over one group) in the slice.
    pub merges: f64,
    /// Triples the parity checks look at in the slice.
    pub triples: f64,
    /// Leaves weighed by the transform.
    pub leaves: f64,
    /// Seconds on one core at the rates measured while probing.
    pub core_seconds: f64,
    /// The merge rate measured (group merges a second of this thread's
    /// CPU time where the system tells it, else of wall time).
    pub merge_rate: f64,
    /// What a triple of the parity checks costs in merges, measured
    /// (0 when no check ran).
    pub merges_a_triple: f64,
    /// Probes run.
    pub probes: u64,
    /// Whether the figures are a whole search of the slice, not probes:
    /// one that improves on its incumbent and ends within the pilot's
    /// budget.
    pub exact: bool,
}

impl Estimate {
    /// Merges and triples in one unit: merges, a triple counted as
    /// [`merges_a_triple`](Self::merges_a_triple) merges.
    pub fn merge_equivalents(&self) -> f64 {
        self.merges + self.triples * self.merges_a_triple
    }
}

/// Knuth's estimator of the work of slice `shard` of the search of `coset`
/// by `plan`: `probes` random paths from the root, each through a random
/// child that the bound does not prune; a path that meets `k` such
/// children at a depth stands for `k` times its count below (the whole
/// tree's figures, shared evenly by the slices).
///
/// The incumbent is the plan's, never improved, while no probe reaches a
/// member within it: a proof such as a(79)'s, where the search never
/// improves on it either. When one does (and `leaf_bits` is 0), the search
/// improves on its incumbent batch by batch and prunes far more than the
/// probes (a 2×80 king board was estimated at 1.7·10^11 merges and
/// searched in 0.1 s). Then the slice's blocks are searched for real as
/// the search goes, in its batches (`search_batches`), within a budget
/// of the probes' work and at least `TRIAL_BUDGET`: counted exactly if
/// that ends the slice; else the blocks searched count as they were, the
/// rest of the first batch at their mean, and the later batches by the
/// probes again, bounded by the lightest member found (by that trial and by
/// short dives into the blocks, `dive`), as the search's later batches
/// are once it has found it.
///
/// The rates are measured on the way: this thread's CPU time over the
/// merges and the parity checks' triples, the checks' share timed apart,
/// and a few leaves weighed for their cost. Where the checks run and no
/// trial searched the slice, a merge and a triple are priced by a short
/// search of 64 of the slice's blocks instead (`calibrate`, tens of
/// milliseconds): probes check their nodes between the merges of paths
/// from the root, cold, and priced a triple of a(79) at 1.5 merges where
/// a slice pays under 0.5 (the forecast was 2.1x the slice's CPU; 1.0x
/// priced by the search).
pub fn estimate(coset: &Coset, plan: &Branching, shard: Shard, probes: u64, seed: u64) -> Estimate {
    if coset.nullity() <= 64 {
        estimate_keyed::<u64>(coset, plan, shard, probes, seed)
    } else {
        estimate_keyed::<u128>(coset, plan, shard, probes, seed)
    }
}

/// Work by kind: what the estimate counts and prices apart.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
struct Tally {
    /// In [`Tree::work`]'s unit (what a progress bar goes by).
    work: f64,
    merges: f64,
    triples: f64,
    leaves: f64,
}

impl std::ops::Add for Tally {
    type Output = Tally;
    fn add(self, o: Tally) -> Tally {
        Tally {
            work: self.work + o.work,
            merges: self.merges + o.merges,
            triples: self.triples + o.triples,
            leaves: self.leaves + o.leaves,
        }
    }
}

impl std::ops::Sub for Tally {
    type Output = Tally;
    fn sub(self, o: Tally) -> Tally {
        self + o * -1.0
    }
}

impl std::ops::Mul<f64> for Tally {
    type Output = Tally;
    fn mul(self, k: f64) -> Tally {
        Tally {
            work: self.work * k,
            merges: self.merges * k,
            triples: self.triples * k,
            leaves: self.leaves * k,
        }
    }
}

/// A node of a probe: depth, side, mask prefix, the fold's ties.
type Node = (usize, usize, u128, u32);

/// Work a trial search of a slice may do, at least, in [`Tree::work`]
/// units (a few tenths of a second): a slice searched within it is counted
/// exactly.
const TRIAL_BUDGET: u64 = 1 << 27;

fn estimate_keyed<K: Key>(coset: &Coset, plan: &Branching, shard: Shard, probes: u64, seed: u64) -> Estimate {
    let mut tree = Tree::<K>::new(coset, plan);
    tree.timed = true;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut leaf_time = (0f64, 0u64);
    let started = Instant::now();
    let cpu_started = thread_cpu_seconds();
    let probes = probes.max(1);
    let root = (0, 0, 0, tree.fold.as_ref().map_or(0, |f| f.all_tied()));
    let knuth = |tree: &mut Tree<K>, rng: &mut ChaCha8Rng, leaf_time: &mut (f64, u64)| {
        let sum =
            (0..probes).fold(Tally::default(), |sum, _| sum + probe_below(tree, plan, root, rng, leaf_time));
        sum * (1.0 / probes as f64 / shard.count as f64)
    };
    let mut found = knuth(&mut tree, &mut rng, &mut leaf_time);
    let mut exact = false;
    let mut trial = None;
    if found.leaves > 0.0 && plan.leaf_bits == 0 {
        // Members within the incumbent: the search improves on it, batch
        // by batch, and prunes far more than these probes did.
        let mut run = Tree::<K>::new(coset, plan);
        run.timed = true;
        let units = shard.len(1 << plan.prefix_bits);
        let batch = Layout::BATCH_PER_THREAD * rayon::current_num_threads().max(1) as u64;
        let budget = tree.work.max(TRIAL_BUDGET);
        let ran = search_batches(&mut run, shard, 0..units, batch, budget);
        if ran.blocks == units {
            (found, exact) = (ran.work, true);
        } else if let Some(best) = Best::better(ran.best, dive(&mut run, shard, units)) {
            // The blocks searched as they were; the rest of the first
            // batch at their mean; the later batches from the best found
            // (the probes again, pruning with it).
            let rest_of_batch = batch.min(units).saturating_sub(ran.blocks);
            let mean = ran.work * (1.0 / ran.blocks.max(1) as f64);
            tree.plan.bound = tree.plan.bound.min(best.weight);
            let later = knuth(&mut tree, &mut rng, &mut leaf_time);
            let later_share = units.saturating_sub(ran.blocks.max(batch)) as f64 / units as f64;
            found = ran.work + mean * rest_of_batch as f64 + later * later_share;
        }
        trial = Some(run);
    }
    // CPU time where the system tells it: a loaded machine's wall time
    // counts the other programs' turns too (7x off at load 10).
    let wall = started.elapsed().as_secs_f64();
    let cpu = match (cpu_started, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    };
    // Everything the trees did, and the checks' share of the time (timed
    // in wall seconds, a share of the CPU time by the same fraction).
    let ran = tree.tally() + trial.as_ref().map_or(Tally::default(), |p| p.tally());
    let check_wall = tree.check_seconds + trial.as_ref().map_or(0.0, |p| p.check_seconds);
    let searching = (cpu - leaf_time.0 * cpu / wall.max(1e-9)).max(1e-9);
    let checking = (searching * check_wall / wall.max(1e-9)).min(searching);
    let merge_seconds = (searching - checking) / ran.merges.max(1.0);
    let triple_seconds = if ran.triples > 0.0 { checking / ran.triples } else { 0.0 };
    // Where the checks run and no trial searched the slice, the prices
    // come from a short search of its blocks instead: the probes check
    // nodes one at a time between the merges of a path from the root, so
    // their triples cost what a cold cache costs (a(79): 1.5 merges a
    // triple in the probes, under 0.5 in a slice).
    let (merge_seconds, triple_seconds) = match trial.is_none() && ran.triples > 0.0 {
        true => calibrate::<K>(coset, plan, shard).unwrap_or((merge_seconds, triple_seconds)),
        false => (merge_seconds, triple_seconds),
    };
    let leaf_cost = if leaf_time.1 > 0 { leaf_time.0 / leaf_time.1 as f64 } else { 0.0 };
    Estimate {
        merges: found.merges,
        triples: found.triples,
        leaves: found.leaves,
        core_seconds: found.merges * merge_seconds
            + found.triples * triple_seconds
            + found.leaves * leaf_cost,
        merge_rate: 1.0 / merge_seconds,
        merges_a_triple: triple_seconds / merge_seconds,
        probes,
        exact,
    }
}

/// Work a calibration search may do, in [`Tree::work`] units: some tens
/// of milliseconds.
const CALIBRATION_BUDGET: u64 = 1 << 26;

/// The seconds of CPU a group merge and a parity-check triple take in a
/// search of slice `shard`, its blocks searched as the search does (64 of
/// them spread over the slice, within [`CALIBRATION_BUDGET`]); `None`
/// where that searched too little to tell (under 2^22 units).
fn calibrate<K: Key>(coset: &Coset, plan: &Branching, shard: Shard) -> Option<(f64, f64)> {
    static NEVER: AtomicBool = AtomicBool::new(false);
    let mut run = Tree::<K>::new(coset, plan);
    run.timed = true;
    run.budget = CALIBRATION_BUDGET;
    let units = shard.len(1u64.checked_shl(plan.prefix_bits as u32).unwrap_or(u64::MAX));
    let started = Instant::now();
    let cpu_started = thread_cpu_seconds();
    for i in (0..units).step_by(units.div_ceil(64).max(1) as usize) {
        run.restrict(shard, i..i + 1);
        if run.run(&NEVER).is_none() {
            break;
        }
    }
    let wall = started.elapsed().as_secs_f64();
    let cpu = match (cpu_started, thread_cpu_seconds()) {
        (Some(a), Some(b)) if b > a => b - a,
        _ => wall,
    };
    let ran = run.tally();
    if run.work < 1 << 22 || ran.triples == 0.0 || ran.merges == 0.0 {
        return None;
    }
    let checking = (cpu * run.check_seconds / wall.max(1e-9)).min(cpu);
    Some(((cpu - checking).max(1e-12) / ran.merges, checking / ran.triples))
}

/// Work a dive into one block may do, in [`Tree::work`] units: a depth-first
/// search cut short, which reaches a light member of the block and little more.
const DIVE_BUDGET: u64 = 1 << 12;

/// Dives into at most this many blocks of a slice, spread evenly.
const DIVES: u64 = 4096;

/// The lightest member that dives into the blocks of slice `shard` (of
/// `units`) find: near the least of the slice, what the later batches of
/// a search that improves on its incumbent are bounded by.
fn dive<K: Key>(tree: &mut Tree<K>, shard: Shard, units: u64) -> Option<Best> {
    let step = units.div_ceil(DIVES).max(1);
    let mut least = None;
    for i in (0..units).step_by(step as usize) {
        least = Best::better(least, search_batches(tree, shard, i..i + 1, 1, DIVE_BUDGET).best);
    }
    least
}

/// How far a [`search_batches`] got.
struct Trial {
    /// Blocks searched to their end, and their work.
    blocks: u64,
    work: Tally,
    /// The best member among them.
    best: Option<Best>,
}

/// The first blocks of slice `shard` (of `units`) searched as a long
/// search does: in batches of `batch` blocks, each block from the bound of
/// the batch (the plan's incumbent, or the best weight of the batches
/// before), until every block is searched or the work passes `budget`.
fn search_batches<K: Key>(
    tree: &mut Tree<K>,
    shard: Shard,
    indices: std::ops::Range<u64>,
    batch: u64,
    budget: u64,
) -> Trial {
    static NEVER: AtomicBool = AtomicBool::new(false);
    let incumbent = tree.plan.bound;
    let start = tree.tally();
    tree.budget = tree.work.saturating_add(budget);
    let mut trial = Trial { blocks: 0, work: Tally::default(), best: None };
    let mut in_batch = None;
    for i in indices {
        if trial.blocks.is_multiple_of(batch) {
            trial.best = Best::better(trial.best, in_batch);
            tree.plan.bound = trial.best.map_or(incumbent, |b| b.weight.min(incumbent));
        }
        tree.restrict(shard, i..i + 1);
        let Some(found) = tree.run(&NEVER) else { break };
        in_batch = Best::better(in_batch, found);
        trial.blocks += 1;
        trial.work = tree.tally() - start;
    }
    // A block cut short may have found members too: they are as real.
    trial.best = Best::better(Best::better(trial.best, in_batch), tree.best);
    tree.plan.bound = incumbent;
    tree.budget = u64::MAX;
    trial
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
    let mut untimed = (0.0, u64::MAX);
    let below: f64 =
        (0..each).map(|_| probe_below(tree, plan, (depth, side, prefix, tied), rng, &mut untimed).work).sum();
    path + below / each as f64
}

/// One of Knuth's probes from the node (depth, side, prefix, ties) down:
/// the work it stands for. The first leaves it weighs (16 in all, in
/// `leaf_time`: seconds and count) are timed for their cost.
fn probe_below<K: Key>(
    tree: &mut Tree<K>,
    plan: &Branching,
    (mut t, mut side, mut prefix, mut tied): Node,
    rng: &mut ChaCha8Rng,
    leaf_time: &mut (f64, u64),
) -> Tally {
    let leaf_depth = tree.d - plan.leaf_bits;
    let (mut scale, mut work) = (1f64, Tally::default());
    loop {
        if t >= leaf_depth {
            if plan.leaf_bits > 0 && leaf_time.1 < 16 {
                let timer = Instant::now();
                tree.leaf(t, side, 0);
                *leaf_time = (leaf_time.0 + timer.elapsed().as_secs_f64(), leaf_time.1 + 1);
            }
            let leaf = Tally { work: tree.lens[t][side] as f64, leaves: 1.0, ..Tally::default() };
            return work + leaf * scale;
        }
        let before = tree.tally();
        let open = tree.kept_children(t, side, prefix, tied);
        work = work + (tree.tally() - before) * scale;
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
    /// incumbent, or the best where one is set), the fold and the parity
    /// checks keep, with their ties, as the search keeps them.
    fn kept_children(&mut self, t: usize, side: usize, prefix: u128, tied: u32) -> Vec<(usize, u32)> {
        let (raw0, raw1) = self.split_raw(t, side);
        let mut open = Vec::with_capacity(2);
        for (s, raw) in [(0, raw0), (1, raw1)] {
            let child = prefix << 1 | s as u128;
            if self.beaten(t + 1, child, self.round_up(raw)) {
                continue;
            }
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

impl<K> Tree<K> {
    /// All the work this tree did, by kind.
    fn tally(&self) -> Tally {
        let checks = self.scattered + self.triples * MERGES_A_TRIPLE;
        Tally {
            work: self.work as f64,
            merges: (self.work - checks) as f64,
            triples: self.triples as f64,
            leaves: 0.0,
        }
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

    /// The forecast against the search it forecasts, in merges (no clock):
    /// every block of the whole search of 47×47 (folded, from the local
    /// search's 991) and of a random 5×40 king board (nullity 40, from a
    /// loose incumbent that the search improves on) searched as a long
    /// search does, in batches of 64 blocks ([`search_batches`] without a
    /// budget); the estimate within 2× of the merges they make.
    #[test]
    fn the_forecast_is_within_twice_the_merges_of_the_search() {
        use crate::model::{Generate, Rule};
        let n = 47;
        let solver = Solver::new(&Puzzle::new(n, n).unwrap(), Method::Auto, 63).unwrap();
        let (_, square) = solver.cross_coset(&Grid::ones(n, n), &Target::White).unwrap().unwrap();
        let king = Puzzle::new(5, 40).unwrap().with_rule(Rule::king());
        let solver = Solver::new(&king, Method::Auto, 63).unwrap();
        let presses = Generate::Random { seed: 3, density: 0.5 }.board(5, 40);
        let board = king.apply(&Grid::zeros(5, 40), &presses);
        let (_, thin) = solver.cross_coset(&board, &Target::White).unwrap().unwrap();
        for (coset, incumbent, what) in [(&square, 991, "47x47"), (&thin, 120, "5x40 king")] {
            let plan =
                Branching { fold: FoldTag::of(coset), ..Branching::new(coset.nullity(), 1, incumbent) };
            let mut tree = Tree::<u64>::new(coset, &plan);
            let units = 1 << plan.prefix_bits;
            let search = search_batches(&mut tree, Shard::WHOLE, 0..units, 64, u64::MAX);
            assert_eq!(search.blocks, units);
            let forecast = estimate(coset, &plan, Shard::WHOLE, 4000, 1);
            let ratio = forecast.merges / search.work.merges;
            eprintln!(
                "{what}: forecast {:.3e} merges, searched {:.3e} ({ratio:.2})",
                forecast.merges, search.work.merges
            );
            assert!((0.5..2.0).contains(&ratio), "{what}: forecast {forecast:?}, searched {:?}", search.work);
        }
    }
}
