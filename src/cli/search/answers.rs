//! The answer of a finished or stopped search, and the strong answers
//! past the exhaustive budget (the solutions the problem's symmetries fix).

use std::time::{Duration, Instant};

use std::borrow::Cow;

use crate::cli::search::{Long, Search};
use crate::cli::{Failure, Format, Streams};
use crate::present::{GROUP_BOUND, Report, Shown, answers, symmetric_words};
use crate::solve::{Budget, Coset, Mask, Slice, SliceKind, Start, improve};
use crate::{Answer, Board, FoundBy, Game, Grid, Outcome, Solution, Solver, Target};

/// A note on a target's answer: the target's name, and what is said.
type Note = (Cow<'static, str>, String);

/// A target's press set, whether it is proven minimal, its lower bound,
/// and the note on it.
type Answered<B> = (B, bool, u64, Option<Note>);

/// A solution, with the note on it when it is not proven minimal.
pub(super) type Noted<B> = (Solution<B>, Option<String>);

/// Turns a finished (or stopped) search into the answer `solve` prints.
pub(super) fn answer<G: Long>(
    search: &Search<G>,
    format: Format,
    show: bool,
    time_limit: Option<f64>,
    max_nullity: usize,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let mut answer = Answer::default();
    let mut notes = Vec::new();
    let goals = search.goals.iter().zip(&search.starts);
    for (entry, ((target, coset), start)) in search.record.searches.iter().zip(goals) {
        let Some((particular, coset)) = coset else {
            answer.outcomes.push(Outcome { target: target.clone(), solution: None });
            continue;
        };
        let name = search.solver.target_name(target);
        let state = entry.state.as_ref();
        let beyond = match (state, time_limit) {
            (None, Some(seconds)) => G::beyond_reach(search, target, particular, seconds)?,
            _ => None,
        };
        if let Some((solution, note)) = beyond {
            // Beyond exhaustive reach, seeded by the symmetric solutions: no
            // mask over this coset names the press set.
            notes.extend(note.map(|note| (name, note)));
            answer.outcomes.push(Outcome { target: target.clone(), solution: Some(solution) });
            continue;
        }
        let member = |mask| search.solver.long_member(&search.board, target, particular, coset, mask);
        let (presses, proven, bound, note) = match state {
            Some(state) if state.is_complete() && nothing_within(state).is_none() => {
                let presses = member(state.best.map_or(Mask::ZERO, |b| b.mask))?;
                let bound = state.best.map_or(presses.presses(), |b| b.weight);
                (presses, true, bound, None)
            }
            Some(state) if state.is_complete() => {
                // Every member weighs more than the incumbent: proven, but
                // no press set comes of it; a local search's is shown, and
                // is the minimum when it meets that bound.
                let above = nothing_within(state).unwrap_or(0);
                let local = search.solver.settle(&search.board, target, particular, coset, None, None)?;
                let proven = local.weight <= above + 1;
                let note = (!proven).then(|| {
                    let note = format!(
                        "{name}: every press set weighs more than {above} (proven by branch and bound); \
                         {} presses from a local search, not proven minimal; lower bound {}",
                        local.weight,
                        above + 1
                    );
                    (name.clone(), note)
                });
                (local.presses, proven, above + 1, note)
            }
            state => {
                let time = match (state, time_limit) {
                    // Beyond exhaustive reach the whole --time-limit goes to
                    // the local search; after a stopped exhaustive search,
                    // its usual fraction of a second.
                    (None, Some(t)) => Some(Duration::from_secs_f64(t)),
                    _ => None,
                };
                let searched = state.and_then(|s| s.best);
                let local = search.solver.settle(&search.board, target, particular, coset, searched, time)?;
                let how = search.solver.stopped_words(state, coset, max_nullity, local.descents);
                let limit = time_limit.map(Duration::from_secs_f64);
                let overran = limit.filter(|&t| search.starts_took > t).map(|_| search.starts_took);
                let proven = local.proven();
                or_start::<G>(
                    name.clone(),
                    (local.presses, proven, local.lower_bound, how),
                    start.as_ref(),
                    overran,
                )
            }
        };
        notes.extend(note);
        let solution = Some(solution(presses, proven, bound));
        answer.outcomes.push(Outcome { target: target.clone(), solution });
    }
    let report = Report { index: 1, board: &search.board, game: search.solver, answer: &answer };
    print_answer(&report, format, show, io)?;
    let tallies = search.solver.tallies(&answer);
    for (_, note) in notes.iter().filter(|(name, _)| answers(name.as_ref(), &tallies)) {
        let _ = writeln!(io.stderr, "lightsout: note: board 1, {note}");
    }
    Ok(0)
}

/// The weight a slice's branch-and-bound search found nothing within, if
/// it found nothing: every member weighs more.
fn nothing_within<K: SliceKind>(slice: &Slice<K>) -> Option<u64> {
    K::bound(&slice.plan).filter(|_| slice.best.is_none())
}

/// A stopped search's answer (`presses`, `proven` against `bound`, found
/// as `how` says), or `start`, the answer past the budget that the search
/// began from (which took `overran` when that was longer than the time
/// limit), where that is lighter; with the note on a press set not proven
/// minimal.
fn or_start<G: Long>(
    name: Cow<'static, str>,
    (presses, proven, bound, how): (G::Board, bool, u64, String),
    start: Option<&Solution<G::Board>>,
    overran: Option<Duration>,
) -> Answered<G::Board> {
    let (presses, bound, how) = match start {
        Some(start) if start.presses.presses() < presses.presses() => {
            let found_by = match &start.found_by {
                FoundBy::Symmetric(s) => symmetric_words(s),
                _ => "a local search".to_string(),
            };
            let how = format!("{how}; found before it by {found_by}");
            (start.presses.clone(), bound.max(start.lower_bound), how)
        }
        Some(start) => (presses, bound.max(start.lower_bound), how),
        None => (presses, bound, how),
    };
    let weight = presses.presses();
    // A press set that meets the lower bound needs no note: the answer
    // says "minimal".
    let proven = proven || weight <= bound;
    let note = (!proven).then(|| {
        let note = G::not_proven_note(&name, weight, &how, bound, overran);
        (name, note)
    });
    (presses, proven, bound, note)
}

/// The solution a long search (or a merge) of either kind answers: the one
/// place the CLI builds a [`Solution`]. A press set that meets its proven
/// lower bound is the minimum, and is called so.
pub(in crate::cli) fn solution<B: Board>(presses: B, proven_minimal: bool, lower_bound: u64) -> Solution<B> {
    let proven_minimal = proven_minimal || presses.presses() <= lower_bound;
    Solution { presses, proven_minimal, lower_bound, found_by: FoundBy::Search }
}

/// The weight of the lightest solution that the problem's symmetries fix,
/// as [`Solver::improve_symmetric`] finds it (a few seconds at most), for a
/// branch-and-bound search to look below; `None` without symmetry.
pub(super) fn symmetric_incumbent(
    solver: &Solver,
    board: &Grid,
    target: &Target,
    particular: &Grid,
) -> Option<u64> {
    // A press set that fails its re-check is no bound at all (one below
    // the minimum would let branch and bound prove too much): left out.
    let found = solver.improve_symmetric(board, target, particular.clone(), Start::Particular).ok()??;
    Some(found.presses.count_ones() as u64)
}

/// A board beyond exhaustive reach, given `seconds`: the symmetric
/// solutions searched for incumbents (see `solve/minimal/fixed.rs`), then
/// the rest of the time in a local search from the best of them. The press
/// set is re-checked; the note names how it was found, the board's real
/// nullity and a lower bound over every member. `None` when the problem
/// has no symmetry to use (or is too large for it).
pub(super) fn beyond_reach(
    search: &Search<Solver>,
    target: &Target,
    particular: &Grid,
    seconds: f64,
) -> Result<Option<Noted<Grid>>, Failure> {
    let started = Instant::now();
    let solver = search.solver;
    let nullity = solver.nullity();
    let quiet = solver.quiet_patterns();
    let Some(start) =
        solver.improve_symmetric(&search.board, target, particular.clone(), Start::Particular)?
    else {
        return Ok(None);
    };
    let left = Duration::from_secs_f64(seconds).saturating_sub(started.elapsed());
    // The local search starts at mask 0 of a coset built around the best.
    let coset = Coset::new(&start.presses, quiet);
    let budget = Budget { descents: u64::MAX, work: u64::MAX, time_limit: Some(left), ..Budget::default() };
    let local = improve(&coset, &budget);
    let polished = coset.member(&start.presses, quiet, local.best.mask);
    let presses = if polished.count_ones() < start.presses.count_ones() { polished } else { start.presses };
    solver.check(&search.board, &presses, target)?;
    let (weight, bound) = (presses.count_ones() as u64, start.lower_bound);
    let proven = weight <= bound;
    let note = (!proven).then(|| {
        format!(
            "{}: {weight} presses, not proven minimal; nullity {nullity} is above --max-nullity: {}, then {} \
             descents of a local search; lower bound {bound}{GROUP_BOUND}",
            target.name(),
            symmetric_words(&start.found_by),
            local.descents
        )
    });
    Ok(Some((solution(presses, proven, bound), note)))
}

/// Prints the one answer of a long search (or a merge) of either kind,
/// and flushes it.
pub(in crate::cli) fn print_answer<G: Shown>(
    report: &Report<'_, G>,
    format: Format,
    show: bool,
    io: &mut Streams,
) -> Result<(), Failure> {
    io.stdout.write_all(report.render(format.into(), show).as_bytes())?;
    io.stdout.flush()?;
    Ok(())
}
