//! K-state search records (version 2) and `merge` of them.
//!
//! A [`StateRecord`] holds the problem of a K-state long search (with
//! `states` and, on a graph, the graph6), its hash, and per target the
//! [`StateSearchState`] of its exhaustive search; `states_search.rs` writes
//! them (a shard's line, a checkpoint) and `merge` joins them, each slice
//! verified against the problem rebuilt from the record. Two-state records
//! (`record.rs`) stay version 1.

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::states_search::{goals, print_answer, reapply, target_word};
use super::*;
use crate::present::state_target_name;
use crate::state_minimum::{StateSearchState, merge_states};
use crate::zk::Modulus;
use crate::{Graph, Shard, StateAnswer, StateOutcome, StateSolution, check_coverage};

/// Version of K-state search records (two-state ones are version 1).
pub(super) const STATE_RECORD_VERSION: u32 = 2;

/// What a K-state search answers: everything that decides its answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StateProblem {
    /// K.
    pub(super) states: u8,
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) topology: String,
    /// The rule as a mask (`010/111/010`).
    pub(super) rule: String,
    /// The board: one list of states per row.
    pub(super) board: Vec<Vec<u8>>,
    /// `any`, a state number, or `board` (then `target_board` holds it).
    pub(super) target: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) target_board: Option<Vec<Vec<u8>>>,
    /// `auto`, `dense` or `chase`: the method picks the generators of the
    /// kernel, and so what a mask means.
    pub(super) method: String,
    /// The graph (graph6) of a puzzle on a graph; absent for a grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) graph: Option<String>,
}

impl StateProblem {
    pub(super) fn hash(&self) -> String {
        let text = serde_json::to_string(self).unwrap_or_default();
        hex(&Sha256::digest(format!("lightsout-search/{STATE_RECORD_VERSION}/{text}").as_bytes()))
    }

    pub(super) fn of(
        puzzle: &Puzzle,
        k: u8,
        board: &StateGrid,
        targets: &[StateTarget],
        method: Method,
    ) -> Self {
        let rows_of = |g: &StateGrid| (0..g.nrows()).map(|r| g.row(r).to_vec()).collect::<Vec<_>>();
        let (target, target_board) = match targets {
            [StateTarget::Uniform(s)] => (s.to_string(), None),
            [StateTarget::Board(goal)] => ("board".to_string(), Some(rows_of(goal))),
            _ => ("any".to_string(), None),
        };
        let method = match method {
            Method::Auto => "auto",
            Method::Dense => "dense",
            Method::Chase => "chase",
        };
        StateProblem {
            states: k,
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            topology: topology_name(puzzle.topology()).into(),
            rule: puzzle.rule().mask(),
            board: rows_of(board),
            target,
            target_board,
            method: method.into(),
            graph: puzzle.graph().map(Graph::to_graph6),
        }
    }

    /// The values the record holds, read back: puzzle, K, board, targets,
    /// method.
    pub(super) fn question(
        &self,
        source: &str,
    ) -> Result<(Puzzle, Modulus, StateGrid, Vec<StateTarget>, Method), Error> {
        let wrap = super::record::problem_error(source);
        let bad = |why: String| wrap(Error::BadInput(why));
        let states = Modulus::new(u32::from(self.states))
            .map_err(|_| bad(format!("has {} states; the number of states is 2 to 255", self.states)))?;
        let method = match self.method.as_str() {
            "auto" => Method::Auto,
            "dense" => Method::Dense,
            "chase" => Method::Chase,
            other => return Err(bad(format!("has an unknown method '{other}'"))),
        };
        let topology = parse_topology(&self.topology)
            .ok_or_else(|| bad(format!("has an unknown topology '{}'", self.topology)))?;
        let rule = Rule::from_mask(&self.rule).map_err(|e| bad(format!("has a bad rule: {e}")))?;
        let puzzle = match &self.graph {
            Some(graph6) => Graph::parse(graph6.as_bytes(), source)
                .and_then(|graph| Puzzle::on_graph(graph, rule))
                .map_err(&wrap)?,
            None => Puzzle::new(self.rows, self.cols).map_err(&wrap)?.with_topology(topology).with_rule(rule),
        };
        let grid = |rows: &[Vec<u8>]| {
            let cells: Vec<u8> = rows.iter().flatten().copied().collect();
            let shaped = rows.len() == puzzle.rows() && rows.iter().all(|r| r.len() == puzzle.cols());
            StateGrid::from_cells(puzzle.rows(), puzzle.cols(), cells)
                .filter(|g| shaped && g.max_state() < self.states)
                .ok_or_else(|| bad("has a board that does not fit the puzzle or its states".into()))
        };
        let board = grid(&self.board)?;
        let targets = match (self.target.as_str(), &self.target_board) {
            ("any", None) => StateTarget::any(states),
            ("board", Some(rows)) => vec![StateTarget::Board(grid(rows)?)],
            (s, None) => match s.parse::<u8>() {
                Ok(s) if s < self.states => vec![StateTarget::Uniform(s)],
                _ => return Err(bad(format!("has an unknown target '{s}'"))),
            },
            _ => return Err(bad("has a target board without target 'board'".into())),
        };
        Ok((puzzle, states, board, targets, method))
    }
}

/// One target's search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StateTargetSearch {
    /// The state number, or `board`.
    pub(super) target: String,
    /// Members of the kernel, in decimal.
    pub(super) kernel_size: String,
    pub(super) reachable: bool,
    /// The exhaustive search (absent when unreachable, or when the kernel
    /// is above --max-nullity).
    pub(super) state: Option<StateSearchState>,
}

/// What a sharded K-state run prints and its checkpoint holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct StateRecord {
    pub(super) lightsout: String,
    pub(super) version: u32,
    pub(super) hash: String,
    pub(super) problem: StateProblem,
    pub(super) shard: Shard,
    pub(super) searches: Vec<StateTargetSearch>,
    /// Milliseconds spent searching, over every run that resumed it.
    pub(super) milliseconds: u64,
    /// SHA-256 of the record with this field empty.
    pub(super) checksum: String,
}

impl Sealed for StateRecord {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

/// Whether `text` is a K-state search record (version 2), by its header.
pub(super) fn is_state_record(text: &str) -> bool {
    serde_json::from_str::<serde_json::Value>(text.trim()).is_ok_and(|v| {
        v["lightsout"] == "search" && v["version"].as_u64() == Some(u64::from(STATE_RECORD_VERSION))
    })
}

impl StateRecord {
    /// Reads `text` as a K-state search record, refusing another kind or
    /// version, a checksum that does not hold, a bad slice, or a hash that
    /// is not its problem's.
    pub(super) fn parse(text: &str, source: &str) -> Result<StateRecord, Error> {
        let bad = |why: String| Error::BadInput(format!("{source}: {why}"));
        let record: StateRecord =
            super::record::parse_sealed_version(text, source, "search", STATE_RECORD_VERSION)?;
        if !record.shard.is_valid() {
            return Err(bad("its slice is not a valid K/N".into()));
        }
        if record.problem.hash() != record.hash {
            return Err(bad("problem hash does not match its problem".into()));
        }
        Ok(record)
    }
}

/// `lightsout merge` of K-state records: every slice of one problem
/// exactly once, each verified against the problem rebuilt from the
/// record, joined into the proven minimum.
pub(super) fn merge(
    texts: &[(String, String)],
    format: Format,
    show: bool,
    recheck_share: Option<f64>,
    io: &mut Streams,
) -> Result<u8, Failure> {
    let mut records = Vec::new();
    for (source, text) in texts {
        records.push((source.clone(), StateRecord::parse(text, source)?));
    }
    let (first_source, first) = &records[0];
    let foreign: Vec<&str> =
        records.iter().filter(|(_, r)| r.hash != first.hash).map(|(s, _)| s.as_str()).collect();
    if !foreign.is_empty() {
        return Err(Error::BadInput(format!(
            "{} searched another problem than {first_source}",
            foreign.join(", ")
        ))
        .into());
    }
    let named: Vec<(String, Shard)> = records.iter().map(|(s, r)| (s.clone(), r.shard)).collect();
    let shards: Vec<Shard> = records.iter().map(|(_, r)| r.shard).collect();
    check_coverage(&shards).map_err(|e| Error::BadInput(super::merge::coverage_error(&e, &named)))?;
    if show && format == Format::Json {
        return Err(Error::BadInput(
            "--show prints grids beside text; JSON already holds the press grid".into(),
        )
        .into());
    }
    let (puzzle, states, board, targets, method) = first.problem.question(first_source)?;
    let solver = StateSolver::new(&puzzle, states, method, 63, u64::MAX)
        .map_err(|e| solver_failure(e, &puzzle, method, &smaller_or_more_memory))?;
    let goals = goals(&solver, &board, &targets)?;
    let kernel = solver.kernel_size();
    let mut outcomes = Vec::new();
    let mut rechecked = 0u64;
    for (index, goal) in goals.iter().enumerate() {
        let name = state_target_name(&goal.target);
        // Fields the rebuilt problem decides: an edited (and re-sealed)
        // record must not change them.
        for (source, record) in &records {
            let agrees = record.searches.len() == goals.len()
                && record.searches.get(index).is_some_and(|entry| {
                    entry.target == target_word(&goal.target)
                        && entry.kernel_size == kernel
                        && entry.reachable == goal.reachable.is_some()
                });
            if !agrees {
                return Err(Error::BadInput(format!(
                    "{source}: its target, kernel size or reachability of {name} disagrees with the problem"
                ))
                .into());
            }
        }
        let Some((_, coset)) = &goal.reachable else {
            outcomes.push(StateOutcome { target: goal.target.clone(), solution: None });
            continue;
        };
        let mut parts = Vec::new();
        for (source, record) in &records {
            let state = record.searches[index].state.as_ref().ok_or_else(|| {
                Error::BadInput(format!(
                    "{source}: holds no exhaustive search of {name} to merge (it ran with a --max-nullity \
                     below the kernel's size)"
                ))
            })?;
            if state.shard != record.shard {
                return Err(Error::BadInput(format!("{source}: its slice does not fit this search")).into());
            }
            parts.push(state);
        }
        let best = merge_states(coset, &parts)
            .map_err(|e| Error::BadInput(super::merge::coverage_error(&e, &named)))?;
        if let Some(share) = recheck_share {
            for ((source, _), state) in records.iter().zip(&parts) {
                let sample = super::merge::recheck_sample(state.units, share, source)?;
                state.recheck(coset, &sample).map_err(|why| {
                    Error::BadInput(format!("{source}: slice {} does not hold up: {why}", state.shard))
                })?;
                rechecked += sample.len() as u64;
            }
        }
        let mask = best.map_or(Mask::ZERO, |b| b.mask);
        let cells = coset.member(mask).ok_or_else(|| Error::Internal("a mask off the coset".into()))?;
        let presses = StateGrid::from_cells(board.nrows(), board.ncols(), cells)
            .ok_or_else(|| Error::Internal("a press set of the wrong size".into()))?;
        reapply(&solver, &board, &presses, &goal.target)?;
        let lower_bound = presses.total();
        let solution = StateSolution { presses, proven_minimal: true, lower_bound };
        outcomes.push(StateOutcome { target: goal.target.clone(), solution: Some(solution) });
    }
    if recheck_share.is_some() {
        super::merge::recheck_note(rechecked, "task", io);
    }
    print_answer(&board, &solver, &StateAnswer { outcomes }, format, show, io)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn grid_problems_read_back() {
        let puzzle = Puzzle::new(2, 3).unwrap();
        let board = StateGrid::from_fn(2, 3, |r, c| ((r + c) % 3) as u8);
        let targets = vec![StateTarget::Board(StateGrid::filled(2, 3, 1))];
        let problem = StateProblem::of(&puzzle, 3, &board, &targets, Method::Auto);
        let (p, k, b, t, m) = problem.question("x.json").unwrap();
        assert_eq!((p.rows(), p.cols(), k.get(), b, t, m), (2, 3, 3, board, targets, Method::Auto));
        let mut edited = problem.clone();
        edited.board[0][0] = 3;
        assert!(edited.question("x.json").is_err(), "a state of K is refused");
        assert_ne!(edited.hash(), problem.hash());
    }
}
