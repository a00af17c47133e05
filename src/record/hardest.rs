//! The record of one slice of `lightsout hardest --distribution --shard
//! K/N`, which `merge` joins into what the unsharded
//! command prints.
//!
//! A record holds the problem (states, size, topology, rule, target, the
//! graph), its hash, the slice, how many prefixes the walk was cut into,
//! the slice's cosets by the weight of their lightest member on the
//! classes the quiet patterns touch (decimal strings: they pass 2^64), its
//! first heaviest coset (where, and how many cells of each class it
//! presses how often), the time spent, and a checksum of it all. `merge`
//! plans the walk again from the problem and checks every slice against it
//! (`analysis::hardest_merged`).

use serde::{Deserialize, Serialize};

use super::problem::{Shape, read_puzzle};
use super::seal::{LongRecord, Sealed, parse_record, problem_hash};
use num_bigint::BigUint;
use num_traits::Zero;

use crate::analysis::{CosetTally, DistributionSlice, Goal, SliceHeaviest, WalkPrefixes, Weighed};
use crate::present::puzzle_topology;
use crate::solve::Shard;
use crate::{Error, Graph, Puzzle};

/// Version of hardest-boards records.
pub const HARDEST_RECORD_VERSION: u32 = 1;

/// What a slice counts: everything that decides the distribution and the
/// board printed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HardestProblem {
    /// K.
    pub states: u8,
    pub rows: usize,
    pub cols: usize,
    /// `plane`, `torus` or `graph`.
    pub topology: String,
    /// The rule as a mask (`010/111/010`).
    pub rule: String,
    /// A state number, or `any`.
    pub target: String,
    /// The graph (graph6) of a puzzle on a graph; absent for a grid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<String>,
}

/// The cosets of one weight.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CosetCount {
    pub weight: u64,
    /// In decimal.
    pub count: String,
}

/// A slice's first heaviest coset.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HeaviestCoset {
    pub weight: u64,
    pub prefix: u64,
    /// Per class of cells, how many it presses 0, 1, …, K − 1 times.
    pub counts: Vec<Vec<u32>>,
}

/// What `hardest --distribution --shard K/N` prints.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct HardestRecord {
    pub lightsout: String,
    pub version: u32,
    pub hash: String,
    pub problem: HardestProblem,
    pub shard: Shard,
    /// The prefixes of the walk cut into this many slices.
    pub prefixes: u64,
    /// How many of the slice's prefixes are walked (all, once finished; a
    /// checkpoint on the way holds fewer).
    pub done: u64,
    /// Cosets by weight, ascending, none zero.
    pub cosets: Vec<CosetCount>,
    /// None when the slice holds no prefix.
    pub heaviest: Option<HeaviestCoset>,
    /// Milliseconds the slice took.
    pub milliseconds: u64,
    pub checksum: String,
}

impl Sealed for HardestRecord {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

impl LongRecord for HardestRecord {
    const KIND: &'static str = "hardest";
    const PROBLEM_FIELDS: &'static str = "states, size, topology, rule, target or graph";

    fn versions() -> Vec<u32> {
        vec![HARDEST_RECORD_VERSION]
    }

    fn claimed_hash(&self) -> &str {
        &self.hash
    }

    fn hash_of_problem(&self) -> String {
        self.problem.hash()
    }

    fn shards(&self) -> Vec<Shard> {
        vec![self.shard]
    }
}

impl HardestProblem {
    pub fn of<G: Weighed>(game: &G, goal: Goal) -> HardestProblem {
        let puzzle = game.puzzle();
        HardestProblem {
            states: game.cell_states(),
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            topology: puzzle_topology(puzzle).into(),
            rule: puzzle.rule().mask(),
            target: match goal {
                Goal::State(t) => t.to_string(),
                Goal::Any => "any".into(),
            },
            graph: puzzle.graph().map(Graph::to_graph6),
        }
    }

    pub fn hash(&self) -> String {
        problem_hash("hardest", HARDEST_RECORD_VERSION, self)
    }

    /// The puzzle, its number of states and the goal this problem names,
    /// read back (an error names `source`, the record's file).
    pub fn question(&self, source: &str) -> Result<(Puzzle, u8, Goal), Error> {
        let bad = |why: String| Error::BadInput(format!("{source}: its problem {why}"));
        if self.states < 2 {
            return Err(bad(format!("has {} states; the number of states is 2 to 255", self.states)));
        }
        let topology = if self.topology == "graph" { "plane" } else { &self.topology };
        let shape = Shape { rows: self.rows, cols: self.cols, topology, rule: &self.rule };
        let (puzzle, _) = read_puzzle(shape, "auto", self.graph.as_deref(), source)?;
        if (self.topology == "graph") != self.graph.is_some() {
            return Err(bad("names a graph topology without its graph, or a graph without it".into()));
        }
        let goal = crate::present::parse_goal(&self.target, self.states)
            .map_err(|e| bad(format!("has the target '{}': {e}", self.target)))?;
        Ok((puzzle, self.states, goal))
    }
}

impl HardestRecord {
    /// The record of `slice` of `game`'s distribution to `goal`.
    pub fn new<G: Weighed>(game: &G, goal: Goal, slice: &DistributionSlice, milliseconds: u64) -> Self {
        let problem = HardestProblem::of(game, goal);
        HardestRecord {
            lightsout: "hardest".into(),
            version: HARDEST_RECORD_VERSION,
            hash: problem.hash(),
            problem,
            shard: slice.shard,
            prefixes: slice.layout.prefixes,
            done: slice.done,
            cosets: slice
                .best
                .cosets
                .iter()
                .map(|(w, n)| CosetCount { weight: *w, count: n.to_string() })
                .collect(),
            heaviest: slice.best.heaviest.as_ref().map(|h| HeaviestCoset {
                weight: h.weight,
                prefix: h.prefix,
                counts: h.counts.clone(),
            }),
            milliseconds,
            checksum: String::new(),
        }
    }

    /// Reads and checks a record from `source`: its kind and version, its
    /// checksum, its slice and its hash.
    pub fn parse(text: &str, source: &str) -> Result<HardestRecord, Error> {
        parse_record(text, source)
    }

    /// Refuses `self`, a checkpoint of this problem read from `source`,
    /// unless it is of slice `shard`.
    ///
    /// # Errors
    /// One line naming `source` and both slices.
    pub fn check_slice(&self, shard: Shard, source: &str) -> Result<(), Error> {
        if self.shard != shard {
            return Err(Error::BadInput(format!(
                "{source}: checkpoint of slice {}, not {shard}",
                self.shard
            )));
        }
        Ok(())
    }

    /// The slice as the library joins it, its counts read from their
    /// decimals; `Err` says, in a few words, why they do not read (the
    /// library checks the rest against the walk planned again).
    pub fn slice(&self) -> Result<DistributionSlice, String> {
        let mut cosets = Vec::with_capacity(self.cosets.len());
        for CosetCount { weight, count } in &self.cosets {
            let Some(count) = BigUint::parse_bytes(count.as_bytes(), 10).filter(|n| !n.is_zero()) else {
                return Err("a count of cosets is not a positive decimal number".into());
            };
            if cosets.last().is_some_and(|&(before, _)| before >= *weight) {
                return Err("its weights are not ascending within the puzzle's cells".into());
            }
            cosets.push((*weight, count));
        }
        let heaviest = self.heaviest.as_ref().map(|h| SliceHeaviest {
            weight: h.weight,
            prefix: h.prefix,
            counts: h.counts.clone(),
        });
        let layout = WalkPrefixes { prefixes: self.prefixes };
        let mut slice = DistributionSlice::fresh(layout, self.shard, ());
        (slice.done, slice.best) = (self.done, CosetTally { cosets, heaviest });
        Ok(slice)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{HardestOptions, hardest_slice};
    use crate::{Method, Puzzle, Rule, Solver, StateSolver, Topology};

    const COUNT: HardestOptions = HardestOptions { distribution: true, work: u64::MAX, progress: None };

    /// A record written and read back is the same record and the same
    /// slice, its counts past 2^64 digit for digit (17x17: 2^287 cosets).
    #[test]
    fn records_read_back_exactly() {
        let solver = Solver::new(&Puzzle::new(17, 17).unwrap(), Method::Auto, 32).unwrap();
        let shard = Shard { index: 2, count: 3 };
        let slice =
            hardest_slice(&solver, Goal::State(0), &COUNT, &Default::default(), shard, None, &mut |_| {
                std::ops::ControlFlow::Continue(())
            })
            .unwrap();
        assert!(slice.best.cosets.iter().any(|(_, n)| n.bits() > 64), "{:?}", slice.best.cosets);
        let record = HardestRecord::new(&solver, Goal::State(0), &slice, 5);
        let line = record.to_line();
        let back = HardestRecord::parse(&line, "x.json").unwrap();
        assert_eq!(back, record.clone().sealed());
        assert_eq!(back.slice(), Ok(slice));
        assert_eq!(back.to_line(), line);
    }

    /// The problem names the puzzle and goal `hardest` was given: a torus
    /// with a mask rule, and a graph over Z_3 to any state.
    #[test]
    fn problems_read_back_as_the_flags_they_came_from() {
        let rule = Rule::from_mask("111/101/111").unwrap();
        let torus = Puzzle::new(3, 4).unwrap().with_topology(Topology::Torus).with_rule(rule);
        let solver = Solver::new(&torus, Method::Auto, 32).unwrap();
        let problem = HardestProblem::of(&solver, Goal::State(1));
        let (puzzle, states, goal) = problem.question("x.json").unwrap();
        assert_eq!((goal, states), (Goal::State(1), 2));
        assert_eq!((puzzle.topology(), puzzle.rule(), puzzle.rows()), (Topology::Torus, torus.rule(), 3));
        let graph = Puzzle::on_graph(Graph::named("petersen").unwrap(), Rule::plus()).unwrap();
        let states = StateSolver::new(&graph, crate::zk::Modulus::new(3).unwrap(), Method::Auto, 30, 1 << 30);
        let problem = HardestProblem::of(&states.unwrap(), Goal::Any);
        assert_eq!((problem.topology.as_str(), problem.target.as_str()), ("graph", "any"));
        let (puzzle, states, goal) = problem.question("x.json").unwrap();
        assert_eq!((goal, states), (Goal::Any, 3));
        assert_eq!(puzzle.graph().map(Graph::to_graph6), graph.graph().map(Graph::to_graph6));
        // A graph topology without its graph is refused, naming the file.
        let mut bare = problem.clone();
        bare.graph = None;
        let err = bare.question("x.json").map(drop).unwrap_err().to_string();
        assert!(err.starts_with("x.json: its problem"), "{err}");
    }
}
