//! What a game says of itself in words, for both kinds: its kernel, why a
//! board cannot reach a target, and why an answer is not proven minimal (in
//! the command line's words: `--max-nullity`, `--max-memory`); and the notes
//! and `check` text made of them.

use std::io::Write;

use super::{Shown, found_by_words, kernel_text, members, presses, shape_text};
use crate::solve::{MAX_EXHAUSTIVE_NULLITY, TargetOf};
use crate::{Answer, Solution, Solver, StateSolver};

/// What a game says of itself in words (the half of the command line's
/// answer that is the game's, not the board's). A worded game is
/// [`Shown`] too: every `G: Worded` shows its boards and answers.
pub trait Worded: Shown {
    /// The kernel as `check`'s first line gives it: `nullity 4`, or the
    /// states and the kernel's size.
    fn kernel_words(&self) -> String;

    /// Why a board with an obstruction cannot reach its target.
    fn unsolvable_words(&self) -> String;

    /// Why `solution`, not proven minimal, was not proven, in the command
    /// line's words (`--max-nullity`, `--max-memory`).
    /// `reachable`: the targets of the board that can be reached.
    fn not_proven_why(
        &self,
        solution: &Solution<Self::Board>,
        max_nullity: usize,
        reachable: usize,
    ) -> String;

    /// Why targets of a board were not searched in full although their
    /// cosets fit `--max-nullity` (the work limit of K states), with what
    /// it would take: `reachable` targets, each of the kernel's size.
    /// `None` when no work limit is set (every target within the budget is
    /// then searched in full).
    fn work_limit_why(&self, _reachable: usize) -> Option<String> {
        None
    }
}

impl Worded for Solver {
    fn kernel_words(&self) -> String {
        format!("nullity {}", self.nullity())
    }

    fn unsolvable_words(&self) -> String {
        "the cells to flip meet this pattern in an odd number of cells, and every press meets it in an even \
         number (x = pattern)"
            .into()
    }

    fn not_proven_why(&self, solution: &Solution<Self::Board>, max_nullity: usize, _: usize) -> String {
        let nullity = self.nullity();
        let how = found_by_words(&solution.found_by, solution.lower_bound);
        if !self.holds_quiet_patterns() {
            format!(
                "its {nullity} quiet patterns do not fit --max-memory, so the press set was not minimised"
            )
        } else if nullity > max_nullity {
            let how = how.as_deref().unwrap_or("a local search found it");
            format!("nullity {nullity} is above --max-nullity {max_nullity}; {how}")
        } else if let Some(how) = how {
            // An exhaustive search cut short (a stop or a time limit).
            how
        } else {
            format!("nullity {nullity} is above the exhaustive search's limit of {MAX_EXHAUSTIVE_NULLITY}")
        }
    }
}

impl Worded for StateSolver {
    fn kernel_words(&self) -> String {
        format!("{} states, kernel {}", self.states().get(), kernel_text(self))
    }

    fn unsolvable_words(&self) -> String {
        format!(
            "every press meets this pattern in a sum of 0 mod {}, the change the board needs does not (numbers: \
             the pattern's weights)",
            self.states().get()
        )
    }

    fn not_proven_why(
        &self,
        solution: &Solution<Self::Board>,
        max_nullity: usize,
        reachable: usize,
    ) -> String {
        // A kernel within the budget is searched in full unless the work
        // limit of a default run cut it short, or the board is at another
        // target already (then only cheap searches run).
        let why = match self.kernel_size_log2() <= max_nullity as f64 {
            true => self.work_limit_why(reachable).filter(|_| reachable > 1).unwrap_or_else(|| {
                "the board is at another target already (0 presses), so this one was searched only as far as \
                     is cheap"
                    .to_string()
            }),
            false => beyond_budget(self, max_nullity),
        };
        format!("{why}; a local search found it; at least {}", solution.lower_bound)
    }

    fn work_limit_why(&self, reachable: usize) -> Option<String> {
        let limit = self.work_limit()?;
        let each = self.kernel_size_log2();
        let all = each + (reachable.max(1) as f64).log2();
        // The K-state engine weighs 1-3·10^8 members a second on two
        // cores (docs/performance.md); the estimate takes the low end.
        let seconds = all.exp2() / 1e8;
        let targets =
            format!("the {reachable} reachable targets' 2^{each:.1} members each, 2^{all:.1} in all");
        Some(format!(
            "an exhaustive search of {targets} (about {seconds:.1} s at 10^8 members a second) is past the \
             2^{limit} members a board gets over all its targets without --max-nullity; --max-nullity {} \
             searches every target in full",
            each.ceil() as u64
        ))
    }
}

/// Why a kernel is not searched exhaustively: its size against what
/// `--max-nullity budget` allows (one wording for every note and error).
pub fn beyond_budget(solver: &StateSolver, budget: usize) -> String {
    format!(
        "the kernel has {} (2^{:.1}), more than the 2^{budget} that --max-nullity {budget} allows",
        members(&solver.kernel_size()),
        solver.kernel_size_log2()
    )
}

/// Notes on `stderr` each count of `report` not proven minimal: of the
/// target asked for, or with several, of the answer given (a note on
/// another target would be about a question nobody asked).
pub fn note_not_proven<G: Worded>(
    stderr: &mut dyn Write,
    index: usize,
    solver: &G,
    answer: &Answer<G::Board>,
    max_nullity: usize,
) {
    // The common case, every answer proven: nothing to say or count.
    if answer.outcomes.iter().all(|o| o.solution.as_ref().is_none_or(|s| s.proven_minimal)) {
        return;
    }
    let best = answer.best().map(|(t, _)| t);
    let reachable = answer.outcomes.iter().filter(|o| o.solution.is_some()).count();
    note_not_fewest_over_targets(stderr, index, solver, answer);
    for outcome in &answer.outcomes {
        let asked = answer.outcomes.len() == 1 || best == Some(&outcome.target);
        let Some(s) = outcome.solution.as_ref().filter(|s| asked && !s.proven_minimal) else { continue };
        let _ = writeln!(
            stderr,
            "lightsout: note: board {index}, {}: {}, not proven minimal ({})",
            solver.target_name(&outcome.target),
            presses(crate::Board::presses(&s.presses)),
            solver.not_proven_why(s, max_nullity, reachable),
        );
    }
}

/// A note when the best answer of several targets is proven for its own
/// target but other targets, cut short by the work limit, have bounds below
/// it: the fewest over all targets is then not proven.
fn note_not_fewest_over_targets<G: Worded>(
    stderr: &mut dyn Write,
    index: usize,
    solver: &G,
    answer: &Answer<G::Board>,
) {
    let Some((target, best)) = answer.best().filter(|(_, s)| s.proven_minimal) else { return };
    let weight = crate::Board::presses(&best.presses);
    let solved = || answer.outcomes.iter().filter_map(|o| o.solution.as_ref());
    let open: Vec<u64> =
        solved().filter(|s| !s.proven_minimal && s.lower_bound < weight).map(|s| s.lower_bound).collect();
    let (Some(&lowest), Some(why)) = (open.iter().min(), solver.work_limit_why(solved().count())) else {
        return;
    };
    let _ = writeln!(
        stderr,
        "lightsout: note: board {index}, {}: {}, the fewest there, not proven the fewest of all targets ({} \
         other targets were not searched in full, bounds from {lowest}: {why})",
        solver.target_name(target),
        presses(weight),
        open.len(),
    );
}

/// `check`'s text for one board: per target, solvable, or the pattern
/// that proves it is not.
pub fn check_text<G: Worded>(
    index: usize,
    solver: &G,
    verdicts: &[(TargetOf<G>, Option<G::Board>)],
) -> String {
    let mut text = format!("board {index}: {}, {}\n", shape_text(solver.puzzle()), solver.kernel_words());
    for (target, obstruction) in verdicts {
        let name = solver.target_name(target);
        let Some(y) = obstruction else {
            text += &format!("  {name}: solvable\n");
            continue;
        };
        text += &format!("  {name}: not solvable: {}\n", solver.unsolvable_words());
        for line in solver.press_lines(y) {
            text += &format!("    {line}\n");
        }
    }
    text
}
