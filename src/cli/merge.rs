//! `lightsout merge`: the records of `--shard K/N` runs combined into the
//! proven minimum (or the whole table), claimed only when every slice of
//! one problem is there exactly once.

use crate::cli::{
    Failure, Format, MergeArgs, MergeFormat, Streams, TableFormat, read_record, smaller_or_more_memory,
    solver_failure,
};
use crate::present::{Report, state_target_name};
use crate::solve::{
    Best, GameSpec, LongSearch, MAX_EXHAUSTIVE_NULLITY, Made, Mask, Shard, Slice, SliceKind, Sliced, merge,
};
use crate::{Answer, Error, Outcome, StateGrid, StateSolver};

use crate::record::states::is_state_record;
use crate::record::{
    Problem, Question, Record, RecordKind, StateProblem, TableRecord, TargetSearch, check_one_split,
    coverage_error, parse_sealed,
};

use super::search::{Engine, Search, cosets, print_answer, two_state_game};

/// Combines shards into the proven minimum (or the whole table), or says
/// which are missing.
pub(super) fn merge_command(args: MergeArgs, io: &mut Streams) -> Result<u8, Failure> {
    let mut texts: Vec<(String, String)> = Vec::new();
    for (path, in_folder) in record_files(&args.files)? {
        let source = path.display().to_string();
        let text = read_record(&path)?;
        if text.trim().is_empty() {
            return Err(Error::BadInput(format!(
                "{source} is empty: was its slice interrupted? its checkpoint can resume it"
            ))
            .into());
        }
        // In a folder, a finished slice's checkpoint beside its part is the
        // same record byte for byte: it counts once. (Files named one by
        // one are the user's list: a repeat there is refused as such.)
        if in_folder && texts.iter().any(|(_, seen)| seen.trim() == text.trim()) {
            continue;
        }
        texts.push((source, text));
    }
    // The kind of the first record that names one, whole or cut short (a
    // record cut short is then refused in the words of its kind).
    let kind = texts.iter().find_map(|(_, text)| record_kind(text));
    if kind.as_deref() == Some("hardest") {
        return super::hardest::merge_hardest(&texts, &args, io);
    }
    if kind.as_deref() == Some("table") {
        if args.show {
            return Err(Error::BadInput("--show is for searches; a table has no press grid".into()).into());
        }
        return merge_tables(&texts, args.format, io);
    }
    let format = match args.format {
        None | Some(MergeFormat::Poj) => Format::Poj,
        Some(MergeFormat::Text) => Format::Text,
        Some(MergeFormat::Json) => Format::Json,
        Some(MergeFormat::Csv) => {
            return Err(Error::BadInput(
                "--format csv is for tables; a search merges to poj, text or json".into(),
            )
            .into());
        }
    };
    let how = How { format, show: args.show, recheck: args.recheck };
    if texts.iter().any(|(_, text)| is_state_record(text)) {
        let records = read_records::<StateProblem>(&texts, &how)?;
        return merge_states(&records, &how, io);
    }
    let records = read_records::<Problem>(&texts, &how)?;
    merge_two_states(&records, &how, io)
}

/// The kind a record names (`search`, `table`, `hardest`): read as JSON,
/// or, from a record cut short, from the field every record begins with.
fn record_kind(text: &str) -> Option<String> {
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text.trim()) {
        return value["lightsout"].as_str().map(str::to_string);
    }
    let (_, rest) = text.trim_start().strip_prefix('{')?.split_once("\"lightsout\":\"")?;
    let kind = rest.split('"').next()?;
    ["search", "table", "hardest"].contains(&kind).then(|| kind.to_string())
}

/// How a merge answers: its format, --show, and the share of each slice
/// to search again.
struct How {
    format: Format,
    show: bool,
    recheck: Option<f64>,
}

/// The records of `texts`, each checked, all of one problem and every
/// slice of one split exactly once (whatever the targets hold, even when
/// none is reachable and there is nothing to weigh).
fn read_records<K: RecordKind>(
    texts: &[(String, String)],
    how: &How,
) -> Result<Vec<(String, Record<K>)>, Error> {
    let mut records = Vec::new();
    for (source, text) in texts {
        records.push((source.clone(), Record::<K>::parse(text, source)?));
    }
    if let Some(why) = records.iter().find_map(|(source, record)| unfinished(source, record)) {
        return Err(Error::BadInput(why));
    }
    let parts: Vec<(&str, &str, Shard)> =
        records.iter().map(|(s, r)| (s.as_str(), r.hash.as_str(), r.shard)).collect();
    check_one_split(&parts, "searched another problem")?;
    if how.show && how.format == Format::Json {
        return Err(Error::BadInput(
            "--show prints grids beside text; JSON already holds the press grid".into(),
        ));
    }
    Ok(records)
}

/// Why `record` (read from `source`) cannot be merged yet, if its slice is
/// unfinished: a checkpoint saved on the way, or a shard stopped by its
/// time limit. Named before the split is checked, since it is the file to
/// act on (in a folder, the checkpoint of a slice still running).
fn unfinished<K: RecordKind>(source: &str, record: &Record<K>) -> Option<String> {
    let states = || record.searches.iter().filter_map(|s| s.state.as_ref());
    let (done, units): (u64, u64) = (states().map(|s| s.done).sum(), states().map(|s| s.units).sum());
    (done < units).then(|| {
        // Rounded down: a slice one block short is not "100.0 %".
        let percent = (1000.0 * done as f64 / units as f64).floor() / 10.0;
        format!(
            "{source}: slice {} is unfinished ({percent:.1} % of its {}s searched), stopped before its \
             end; resume it: run its command again with the --checkpoint that saved it",
            record.shard,
            K::Slices::UNIT
        )
    })
}

/// What a merge makes of one target of the rebuilt problem: `Some(best)`
/// of its slices' members, or `None` when it is unreachable.
type Merged = Option<Option<Best>>;

/// Per target of the problem rebuilt from the records (`expected` its
/// entries, `cosets` its cosets, `names` its names): every record agrees
/// with it, and the slices of each reachable target merge (searched again
/// in part with --recheck); `outcome` turns each into an answer's outcome
/// as it comes. Returns the outcomes and the units searched again.
fn merge_targets<K: RecordKind, C: Sliced<Kind = K::Slices>, O>(
    records: &[(String, Record<K>)],
    expected: &[TargetSearch<K>],
    cosets: &[Option<&C>],
    names: &[String],
    recheck: Option<f64>,
    outcome: &mut dyn FnMut(usize, Merged) -> Result<O, Failure>,
) -> Result<(Vec<O>, u64), Failure> {
    let named: Vec<(String, Shard)> = records.iter().map(|(s, r)| (s.clone(), r.shard)).collect();
    let mut outcomes = Vec::new();
    let mut rechecked = 0u64;
    for (index, (want, name)) in expected.iter().zip(names).enumerate() {
        // Fields the rebuilt problem decides: an edited (and re-sealed)
        // record must not change them.
        for (source, record) in records {
            let agrees = record.searches.len() == expected.len()
                && record.searches.get(index).is_some_and(|entry| entry.same_goal(want));
            if !agrees {
                return Err(Error::BadInput(format!(
                    "{source}: its target, {} or reachability of {name} disagrees with the problem",
                    K::WORDS.size()
                ))
                .into());
            }
        }
        let Some(coset) = cosets[index] else {
            outcomes.push(outcome(index, None)?);
            continue;
        };
        let mut parts = Vec::new();
        for (source, record) in records {
            let state = record.searches[index].state.as_ref().ok_or_else(|| {
                Error::BadInput(format!(
                    "{source}: holds no exhaustive search of {name} to merge (it ran with a --max-nullity \
                     below its {})",
                    K::WORDS.size()
                ))
            })?;
            if state.shard != record.shard {
                return Err(Error::BadInput(format!("{source}: its slice does not fit this search")).into());
            }
            let mut state = state.clone();
            coset
                .adopt(&mut state.plan)
                .map_err(|why| Error::BadInput(format!("{source}: {why}; search this slice again")))?;
            parts.push(state);
        }
        let parts: Vec<&Slice<K::Slices>> = parts.iter().collect();
        let best = merge(coset, &parts).map_err(|e| Error::BadInput(coverage_error(&e, &named)))?;
        if let Some(share) = recheck {
            for ((source, _), state) in records.iter().zip(&parts) {
                let sample = recheck_sample(state.units, share, source)?;
                state.recheck(coset, &sample).map_err(|why| {
                    Error::BadInput(format!("{source}: slice {} does not hold up: {why}", state.shard))
                })?;
                rechecked += sample.len() as u64;
            }
        }
        outcomes.push(outcome(index, Some(best))?);
    }
    Ok((outcomes, rechecked))
}

/// Merges two-state records: the problem rebuilt with the engine the
/// shards ran (its cosets read masks in its basis; the plan's incumbent
/// comes from the records, so none is searched here).
fn merge_two_states(
    records: &[(String, Record<Problem>)],
    how: &How,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let (first_source, first) = &records[0];
    let branch = first.searches.iter().find_map(|s| s.state.as_ref()).and_then(|s| s.plan);
    let engine = super::search::Engine {
        branch: Some(branch.is_some()),
        incumbent: Some(branch.map_or(0, |plan| plan.bound + 1)),
        leaf_bits: branch.map(|plan| plan.leaf_bits),
        from_past_budget: false,
    };
    let Question { puzzle, board, targets, method } = first.problem.question(first_source)?;
    let limits = (MAX_EXHAUSTIVE_NULLITY, u64::MAX);
    let game = two_state_game(&puzzle, method, limits, &smaller_or_more_memory, false, engine)?;
    let search = Search::new(&game, board, targets, method, MAX_EXHAUSTIVE_NULLITY, Shard::WHOLE, engine)?;
    let names: Vec<String> = search.goals.iter().map(|(t, _)| t.name().to_string()).collect();
    let cosets = cosets(&search.goals);
    let stderr = &mut *io.stderr;
    let mut outcome = |index: usize, merged: Merged| -> Result<Outcome, Failure> {
        let (target, reachable) = &search.goals[index];
        let (Some(best), Some((particular, coset))) = (merged, reachable) else {
            return Ok(Outcome { target: target.clone(), solution: None });
        };
        let plan = records[0].1.searches[index].state.as_ref().and_then(|s| s.plan);
        let (mask, proven, bound) = match (best, plan) {
            (Some(best), _) => (best.mask, true, best.weight),
            (None, None) => (Mask::ZERO, true, 0),
            (None, Some(plan)) => {
                let local = above_the_bound(coset, plan.bound, first_source)?;
                if local.weight > plan.bound + 1 {
                    let _ = writeln!(
                        stderr,
                        "lightsout: note: board 1, {}: every press set weighs more than {} (as every \
                         slice's record claims: branch and bound found none within that bound; not \
                         searched again here unless --recheck); {} presses from a local search, not \
                         proven minimal; lower bound {}",
                        target.name(),
                        plan.bound,
                        local.weight,
                        plan.bound + 1
                    );
                }
                (local.mask, false, plan.bound + 1)
            }
        };
        let presses = search.solver.long_member(&search.board, target, particular, coset, mask)?;
        let solution = super::search::solution(presses, proven, bound);
        Ok(Outcome { target: target.clone(), solution: Some(solution) })
    };
    let (outcomes, rechecked) =
        merge_targets(records, &search.record.searches, &cosets, &names, how.recheck, &mut outcome)?;
    if how.recheck.is_some() {
        recheck_note(rechecked, "block", io);
    }
    let answer = Answer { outcomes };
    let report = Report { index: 1, board: &search.board, game: search.solver, answer: &answer };
    print_answer(&report, how.format, how.show, io)?;
    Ok(0)
}

/// The lightest member a local search finds in `coset`, where every slice
/// claims that none weighs `bound` or less (the records, first `source`,
/// found nothing within their branch-and-bound bound): a member that light
/// refutes the claim, which an edited bound (sealed again) would make.
fn above_the_bound(coset: &crate::solve::Coset, bound: u64, source: &str) -> Result<Best, Error> {
    let local = crate::solve::improve(coset, &crate::solve::Budget::default()).best;
    if local.weight <= bound {
        return Err(Error::BadInput(format!(
            "{source} and the other records claim that no press set weighs {bound} or less, but a local \
             search finds one of {}: their branch-and-bound bound was edited or is wrong; search again",
            local.weight
        )));
    }
    Ok(local)
}

/// Merges K-state records: every slice verified against the problem
/// rebuilt from the first record, joined into the proven minimum.
fn merge_states(
    records: &[(String, Record<StateProblem>)],
    how: &How,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let (first_source, first) = &records[0];
    let (puzzle, states, board, targets, method) = first.problem.question(first_source)?;
    // Any kernel a slice walks (2^63 members), no memory limit: the records
    // were searched within one already.
    let spec = GameSpec::new(puzzle.clone(), states).with_method(method).asking_max_nullity(63);
    let solver =
        StateSolver::make(&spec).map_err(|e| solver_failure(e, &puzzle, method, &smaller_or_more_memory))?;
    // Budget 0: the entries a record of this problem holds, no search.
    let search = Search::new(&solver, board, targets, method, 0, Shard::WHOLE, Engine::default())?;
    let names: Vec<String> = search.goals.iter().map(|(t, _)| state_target_name(t)).collect();
    let mut outcome = |index: usize, merged: Merged| -> Result<Outcome<StateGrid>, Failure> {
        let (target, reachable) = &search.goals[index];
        let (Some(best), Some((particular, coset))) = (merged, reachable) else {
            return Ok(Outcome { target: target.clone(), solution: None });
        };
        let mask = best.map_or(Mask::ZERO, |b| b.mask);
        let presses = solver.long_member(&search.board, target, particular, coset, mask)?;
        let total = presses.total();
        let solution = super::search::solution(presses, true, total);
        Ok(Outcome { target: target.clone(), solution: Some(solution) })
    };
    let (outcomes, rechecked) = merge_targets(
        records,
        &search.record.searches,
        &cosets(&search.goals),
        &names,
        how.recheck,
        &mut outcome,
    )?;
    if how.recheck.is_some() {
        recheck_note(rechecked, "task", io);
    }
    let answer = Answer { outcomes };
    print_answer(
        &Report { index: 1, board: &search.board, game: &solver, answer: &answer },
        how.format,
        how.show,
        io,
    )?;
    Ok(0)
}

/// Says on stderr how much `--recheck` searched again (`unit`: what a
/// slice is made of, blocks or tasks).
pub(super) fn recheck_note(rechecked: u64, unit: &str, io: &mut Streams) {
    let plural = if rechecked == 1 { "" } else { "s" };
    let _ = writeln!(
        io.stderr,
        "lightsout: note: searched {rechecked} {unit}{plural} again, none lighter than its slice claims"
    );
}

/// Most blocks a recheck searches again in one slice: a slice of 2^20
/// blocks of 2^18 members is already hours of work.
const MAX_RECHECK_BLOCKS: u64 = 1 << 20;

/// `share` of a slice's `blocks`, at least one, picked at random (from
/// the operating system's randomness, so that no machine can know ahead
/// which of its blocks will be searched again).
pub(super) fn recheck_sample(blocks: u64, share: f64, source: &str) -> Result<Vec<u64>, Error> {
    let amount = ((blocks as f64 * share).ceil() as u64).clamp(blocks.min(1), blocks);
    if amount > MAX_RECHECK_BLOCKS {
        return Err(Error::BadInput(format!(
            "{source}: --recheck {share} would search {amount} blocks of its slice again; at most \
             {MAX_RECHECK_BLOCKS} (choose a smaller share)"
        )));
    }
    let mut rng = rand::rng();
    let picked = rand::seq::index::sample(&mut rng, blocks as usize, amount as usize);
    let mut sample: Vec<u64> = picked.into_iter().map(|i| i as u64).collect();
    sample.sort_unstable();
    Ok(sample)
}

/// The record files named, a folder standing for every `*.json` file in
/// it (in name order; each with whether it came from a folder): a job of
/// 2^20 slices passes more names than a shell's argument list holds.
fn record_files(paths: &[std::path::PathBuf]) -> Result<Vec<(std::path::PathBuf, bool)>, Error> {
    let mut files = Vec::new();
    for path in paths {
        if !path.is_dir() {
            files.push((path.clone(), false));
            continue;
        }
        let source = path.display();
        let entries =
            std::fs::read_dir(path).map_err(|e| Error::BadInput(format!("cannot read {source}: {e}")))?;
        let mut found = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| Error::BadInput(format!("cannot read {source}: {e}")))?;
            let name = entry.path();
            if name.extension().is_some_and(|x| x == "json") && !name.is_dir() {
                found.push(name);
            }
        }
        if found.is_empty() {
            return Err(Error::BadInput(format!("{source} holds no .json records")));
        }
        found.sort();
        files.extend(found.into_iter().map(|name| (name, true)));
    }
    Ok(files)
}

/// Joins the slices of one table, each exactly once, and prints it.
fn merge_tables(
    texts: &[(String, String)],
    format: Option<MergeFormat>,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let format = match format {
        None | Some(MergeFormat::Text) => TableFormat::Text,
        Some(MergeFormat::Csv) => TableFormat::Csv,
        Some(MergeFormat::Json) => TableFormat::Json,
        Some(MergeFormat::Poj) => {
            return Err(Error::BadInput(
                "--format poj is for searches; a table merges to text, csv or json".into(),
            )
            .into());
        }
    };
    let mut records: Vec<(String, TableRecord)> = Vec::new();
    for (source, text) in texts {
        let record: TableRecord = parse_sealed(text, source, "table")?;
        if !record.shard.is_valid() {
            return Err(Error::BadInput(format!("{source}: its slice is not a valid K/N")).into());
        }
        if record.problem.hash() != record.hash {
            return Err(Error::BadInput(format!("{source}: problem hash does not match its problem")).into());
        }
        records.push((source.clone(), record));
    }
    let parts: Vec<(&str, &str, Shard)> =
        records.iter().map(|(s, r)| (s.as_str(), r.hash.as_str(), r.shard)).collect();
    check_one_split(&parts, "tabulated other sizes or rules")?;
    let first = &records[0].1;
    let ((r0, r1), (c0, c1)) = (first.problem.rows, first.problem.cols);
    let total = (r1 - r0 + 1) as u64;
    let mut table = vec![Vec::new(); total as usize];
    for (source, record) in &records {
        let fits = record.nullity.len() as u64 == record.shard.len(total)
            && record.nullity.iter().all(|row| row.len() == c1 - c0 + 1);
        if !fits {
            return Err(Error::BadInput(format!("{source}: its rows do not fit its slice")).into());
        }
        for (i, row) in record.nullity.iter().enumerate() {
            table[record.shard.block(i as u64) as usize] = row.clone();
        }
    }
    super::study::write_table(&table, (r0, r1), (c0, c1), format, io.stdout)?;
    Ok(0)
}
