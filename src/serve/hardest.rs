//! `POST /api/hardest`: the hardest boards of a size, as `lightsout
//! hardest --format json` prints them.

use std::time::Duration;

use axum::routing::MethodRouter;
use serde::Deserialize;
use serde_json::Value;

use super::error::ApiError;
use super::game::{OnGame, Served, for_states};
use super::request;
use super::study::sized_puzzle;
use super::work::{App, Job};
use crate::Puzzle;
use crate::analysis::{Goal, HardestOptions, hardest as weigh, hardest_cost, hardest_settled};
use crate::present::{hardest_json, parse_goal};
use crate::solve::{GameSpec, Limits};
use crate::zk::Modulus;

/// A size (or graph) and what its boards are weighed to.
#[derive(Deserialize, Debug)]
#[serde(deny_unknown_fields)]
pub(super) struct HardestRequest {
    #[serde(default)]
    rows: Option<usize>,
    #[serde(default)]
    cols: Option<usize>,
    #[serde(default)]
    states: Option<u32>,
    #[serde(default)]
    graph: Option<String>,
    #[serde(default)]
    rule: Option<String>,
    #[serde(default)]
    torus: bool,
    /// `"white"`, `"black"`, `"any"`, or a state (a number, or in quotes);
    /// default 0.
    #[serde(default)]
    target: Option<Value>,
    /// Also count the boards of every fewest-presses value.
    #[serde(default)]
    distribution: bool,
    /// Count them where the library's estimate of the count is at most
    /// [`CHEAP_DISTRIBUTION`] weighings, else answer without them (the
    /// page's *Hardest*, which draws them beside the board).
    #[serde(default)]
    cheap_distribution: bool,
    /// Seconds to spend at most (the server's own time limit caps it).
    #[serde(default)]
    time_limit: Option<f64>,
}

/// `POST /api/hardest`: the object `lightsout hardest --format json` prints.
pub(super) fn hardest() -> MethodRouter<App> {
    request::answering("a smaller size or fewer states", most_presses)
}

fn most_presses(req: HardestRequest, job: &Job) -> Result<String, ApiError> {
    let limits = &*job.limits;
    let puzzle =
        sized_puzzle(req.rows, req.cols, req.graph.as_deref(), req.rule.as_deref(), req.torus, limits)?;
    let states = request::states(req.states)?;
    let goal = match &req.target {
        None => Ok(Goal::State(0)),
        Some(Value::Number(n)) => parse_goal(&n.to_string(), states.get()),
        Some(Value::String(word)) => parse_goal(word, states.get()),
        Some(other) => Err(format!("expected a state number or any, got {other}")),
    }
    .map_err(|e| ApiError::bad(format!("target: {e}")))?;
    let time_limit = match req.time_limit {
        None => None,
        Some(t) if t.is_finite() && t > 0.0 => {
            Some(Duration::from_secs_f64(t.min(limits.time.as_secs_f64())))
        }
        Some(t) => {
            return Err(ApiError::bad(format!("time_limit: expected a number of seconds above 0, got {t}")));
        }
    };
    struct Weigh<'a> {
        puzzle: Puzzle,
        states: Modulus,
        goal: Goal,
        distribution: bool,
        cheap_distribution: bool,
        time_limit: Option<Duration>,
        job: &'a Job,
    }
    impl OnGame for Weigh<'_> {
        fn on<G: Served>(self) -> Result<String, ApiError> {
            let limits = &*self.job.limits;
            let spec = GameSpec::new(self.puzzle.clone(), self.states).with_max_memory(limits.max_memory);
            let game = G::make(&spec.asking_max_nullity(limits.max_nullity))?;
            // A size settled offline answers from the shipped table, its
            // board solved again: its proof takes longer than the server's
            // time limit. The table counts no distribution.
            let settled = if self.distribution { None } else { hardest_settled(&game, self.goal)? };
            if let Some(found) = settled {
                return Ok(hardest_json(&game, self.goal, &found).to_string());
            }
            let counted = HardestOptions { distribution: true, ..HardestOptions::default() };
            let distribution = self.distribution
                || (self.cheap_distribution
                    && hardest_cost(&game, self.goal, &counted)? <= CHEAP_DISTRIBUTION);
            let options = HardestOptions { distribution, ..HardestOptions::default() };
            let found = self.job.with_search_limits(|limits| {
                // The request's own time, where it is the shorter.
                let time_limit = match (limits.time_limit, self.time_limit) {
                    (Some(job), Some(asked)) => Some(job.min(asked)),
                    (job, asked) => job.or(asked),
                };
                weigh(&game, self.goal, &options, &Limits { time_limit, ..*limits })
            })?;
            Ok(hardest_json(&game, self.goal, &found).to_string())
        }
    }
    let (distribution, cheap_distribution) = (req.distribution, req.cheap_distribution);
    for_states(states, Weigh { puzzle, states, goal, distribution, cheap_distribution, time_limit, job })
}

/// Most weighings of a distribution counted for `cheap_distribution`:
/// about 0.1 s at the count's fixed rate (`WEIGHINGS_PER_SECOND`, 1e10 a
/// second), well inside the server's time limit on a loaded machine. 4x4,
/// 5x5 and 4x4 over Z_3 qualify (each answered in 0.02-0.04 s); 9x9's
/// count (6.7e20) and the 6x6 torus's (6.9e10) do not.
pub(super) const CHEAP_DISTRIBUTION: f64 = 1e9;
