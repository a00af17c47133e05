//! The work of a search before it runs: `--estimate`, and the note
//! before a long branch-and-bound run.

use std::time::Instant;

use crate::Solver;
use crate::cli::search::Search;
use crate::cli::{Failure, Streams};
use crate::present::human;
use crate::solve::minimal::{Branching, Estimate, MAX_TRANSFORM_NULLITY};
use crate::solve::slices::MAX_SHARDS;
use crate::solve::{Coset, SearchState};

/// Rates, and the work of one slice of a search at them, by `probes`
/// random probes: for `--estimate` and the note before a long run.
fn branch_estimate(state: &SearchState, coset: &Coset, probes: u64) -> Option<Estimate> {
    let plan = state.plan?;
    Some(crate::solve::minimal::estimate(coset, &plan, state.shard, probes, 1))
}

/// Random probes of the tree behind `--estimate` (about a second on 79x79).
const ESTIMATE_PROBES: u64 = 4000;

/// Random probes behind the note before a long run: it only decides
/// whether to say the run is long, and a slice of a(79) (4 CPU-s) spent
/// 0.9 s of them on 4000.
const NOTE_PROBES: u64 = 500;

/// Estimated seconds above which a branch-and-bound run says so first.
const NOTE_ABOVE_SECONDS: f64 = 10.0;

/// Before a long branch-and-bound run: its estimated work on stderr.
pub(super) fn note_long_branch(search: &Search<Solver>, io: &mut Streams) {
    for (entry, (_, coset)) in search.record.searches.iter().zip(&search.goals) {
        let (Some(state), Some((_, coset))) = (&entry.state, coset) else { continue };
        if state.is_complete() {
            continue;
        }
        if let Some(e) = branch_estimate(state, coset, NOTE_PROBES) {
            let cores = rayon::current_num_threads() as f64;
            if e.core_seconds / cores > NOTE_ABOVE_SECONDS {
                let _ =
                    writeln!(io.stderr, "lightsout: note: {}: {}", entry.target, describe(state, coset, &e));
            }
        }
    }
}

/// One line on an estimate: the merges (the figure that does not depend on
/// the machine), the rate and the load it was measured at, and what that
/// makes in CPU time a slice and in wall time for the whole search.
fn describe(state: &SearchState, coset: &Coset, e: &Estimate) -> String {
    let cores = rayon::current_num_threads();
    let plan =
        state.plan.unwrap_or(Branching { leaf_bits: 0, prefix_bits: 0, bound: 0, fold: Default::default() });
    let slices = state.shard.count as f64;
    let whole = e.core_seconds * slices;
    let load = std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|l| l.split_whitespace().next().map(|x| format!("load {x}, ")))
        .unwrap_or_default();
    let slice =
        if state.shard.count > 1 { format!(" per slice (of {})", state.shard.count) } else { String::new() };
    // Checks and merges in one unit, a triple at the price measured here.
    let checks = if e.triples > 0.0 {
        format!(
            "{:.2e} group merges and {:.2e} parity-check triples at {:.2} merges each",
            e.merges, e.triples, e.merges_a_triple
        )
    } else {
        "group merges".to_string()
    };
    let how = if e.exact {
        "counted by searching the slice: it improves on its incumbent and ended within the probes' budget"
            .to_string()
    } else {
        format!("estimated from {} random probes", e.probes)
    };
    format!(
        "branch and bound over 2^{} members, slice {} (looking for {} presses or fewer, {} leaf bits, \
         {} symmetries folded{}): about {:.2e} merge-equivalents ({checks}){slice} and {:.2e} transform \
         leaves ({how}); at {:.2e} merges a CPU-second (measured here, {load}{cores} threads; a loaded \
         machine measures less) that is {} of CPU{slice}, and for the whole search {:.2e} core-hours: \
         {} on 64 cores, {} on 1000, {} on the {cores} threads here",
        coset.nullity(),
        state.shard,
        plan.bound,
        plan.leaf_bits,
        coset.fold().map_or(0, |f| f.symmetries()),
        coset.fold().map_or(String::new(), fold_reached),
        e.merge_equivalents(),
        e.leaves,
        e.merge_rate,
        human(e.core_seconds),
        whole / 3600.0,
        human(whole / 64.0),
        human(whole / 1000.0),
        human(whole / cores as f64),
    )
}

/// The slice count that cuts `whole` core-seconds into slices of about
/// `time` seconds of one core, in words.
fn slices_for(whole: f64, time: f64) -> String {
    let wanted = (whole / time).ceil().max(1.0);
    let count = wanted.min(MAX_SHARDS as f64) as u64;
    let each = human(whole / count as f64);
    let at = "at the rate measured here";
    if wanted > MAX_SHARDS as f64 {
        format!(
            "slices of {} would take {wanted:.2e} of them, more than the {MAX_SHARDS} a search is cut into: \
             --shard K/{count} makes slices of {each} of one core each ({at})",
            human(time)
        )
    } else {
        format!(
            "for slices of about {} of one core: --shard K/{count} ({} of {each} each, {at})",
            human(time),
            crate::error::plural(count as usize, "slice")
        )
    }
}

/// How far the fold gets, by depth: ", 1.3x at depth 2, …, 4.6x at 34,
/// 6.7x at 36, 8.0x from 41" (the Burnside factor where it first grows by
/// a quarter, and where it first comes within 1 % of its largest).
fn fold_reached(fold: &crate::solve::minimal::Fold) -> String {
    let factors: Vec<(usize, f64)> = fold.depths().into_iter().map(|t| (t, fold.fold_at(t))).collect();
    let top = factors.iter().map(|&(_, f)| f).fold(1.0, f64::max);
    let mut out = String::new();
    let mut shown = 1.0;
    for (t, f) in factors {
        let last = f >= top * 0.99;
        if f >= shown * 1.25 || last {
            let from = match (out.is_empty(), last) {
                (true, true) => " from depth",
                (true, false) => " at depth",
                (false, true) => " from",
                (false, false) => " at",
            };
            out += &format!(", {f:.1}x{from} {t}");
            shown = f;
        }
        if last {
            break;
        }
    }
    out
}

/// `--estimate`: the work of each target's exact search, by branch and
/// bound (estimated by probes) and by the transform (2^d members at the
/// rate of one block weighed here), without searching; with `slice_time`
/// (seconds of one core), the slice count that makes slices that long.
pub(super) fn print_estimates(
    search: &Search<Solver>,
    slice_time: Option<f64>,
    io: &mut Streams,
) -> Result<(), Failure> {
    let cores = rayon::current_num_threads() as f64;
    for (entry, (target, coset)) in search.record.searches.iter().zip(&search.goals) {
        let name = target.name();
        let (Some(state), Some((_, coset))) = (&entry.state, coset) else {
            writeln!(io.stdout, "{name}: nothing to search (unreachable, or nullity above --max-nullity)")?;
            continue;
        };
        // Core-seconds of the whole search by the engine that runs it.
        let mut runs = None;
        if let Some(e) = branch_estimate(state, coset, ESTIMATE_PROBES) {
            writeln!(io.stdout, "{name}: {}", describe(state, coset, &e))?;
            runs = Some(e.core_seconds * state.shard.count as f64);
        }
        // The transform over the solver's coset (folded where it folds).
        let d = coset.nullity();
        if d <= MAX_TRANSFORM_NULLITY {
            let plain = match search.solver.coset(&search.board, target)? {
                Some((_, c)) => c,
                None => continue,
            };
            let layout = plain.layout();
            // Blocks enough for a quarter of a second: fewer (32 once)
            // gave 0.1 to 0.3 ms a block from one run to the next.
            let mut sample = (16 * rayon::current_num_threads() as u64).min(layout.blocks());
            let block = loop {
                let timer = Instant::now();
                let _ = crate::solve::search_blocks(&plain, 0..sample, false);
                let seconds = timer.elapsed().as_secs_f64();
                if seconds >= 0.25 || sample == layout.blocks() {
                    break seconds * cores / sample as f64;
                }
                sample = (sample * 4).min(layout.blocks());
            };
            let blocks =
                (layout.blocks() as f64) / (layout.symmetries as f64 + 1.0) / state.shard.count as f64;
            let seconds = blocks * block;
            let whole = seconds * state.shard.count as f64;
            if state.plan.is_none() {
                runs = Some(whole);
            }
            writeln!(
                io.stdout,
                "{name}: transform over 2^{d} members, slice {} ({} symmetries folded): {:.2e} blocks of \
                 2^{} at {:.2} ms each (timed in wall seconds here, a loaded machine times more), {} of \
                 CPU a slice, and for the whole search {:.2e} core-hours: {} on 64 cores, {} on 1000",
                state.shard,
                layout.symmetries,
                blocks,
                layout.table_bits + layout.lane_bits,
                block * 1e3,
                human(seconds),
                whole / 3600.0,
                human(whole / 64.0),
                human(whole / 1000.0),
            )?;
        }
        let engine = if state.plan.is_some() { "branch and bound" } else { "the transform" };
        writeln!(io.stdout, "{name}: this search runs by {engine}")?;
        if let (Some(time), Some(whole)) = (slice_time, runs) {
            writeln!(io.stdout, "{name}: {}", slices_for(whole, time))?;
        }
    }
    Ok(())
}
