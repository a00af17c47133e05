//! Two-state search records (version 1; version 3 where a branch-and-bound
//! slice names its fold), and the record around the searches of either
//! kind: [`Record`] over a [`RecordKind`].

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

use super::problem::{Shape, method_word, problem_error, read_puzzle};
use super::seal::{LongRecord, RECORD_VERSION, Sealed, check_same_problem, parse_record, problem_hash};
use crate::present::{colour_targets, topology_name};
use crate::solve::{Layout, SearchState, Shard, Slice, SliceKind, Sliced};
use crate::{Error, Graph, Grid, Method, Puzzle, Target, grid_lines, parse_boards};

/// Version of two-state records of branch-and-bound slices that name
/// their fold (`branch.fold`): slices made under another fold cover other
/// members, and an older lightsout, which cannot tell folds apart, refuses
/// them. Their problem hash stays the version 1 hash: the problem is the
/// same, and a record of another fold is then refused for its fold.
pub const BRANCH_RECORD_VERSION: u32 = 3;

/// What is searched: everything that decides the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Problem {
    pub rows: usize,
    pub cols: usize,
    pub topology: String,
    /// The rule as a mask (`010/111/010`).
    pub rule: String,
    /// The board, a `b`/`w` string per row.
    pub board: Vec<String>,
    /// `white`, `black`, `either`, or a target board's rows joined by `/`.
    pub target: String,
    /// `auto`, `dense` or `chase`: the method picks the basis of quiet
    /// patterns, and so what a mask means.
    pub method: String,
    /// The graph (graph6) of a puzzle on a graph; absent for a grid, so a
    /// grid's record, and its hash, are as they always were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub graph: Option<String>,
}

impl Problem {
    /// The record of `question`: its values written as text.
    pub fn of(question: &Question) -> Problem {
        let Question { puzzle, board, targets, method } = question;
        let target = match targets.as_slice() {
            [Target::Board(goal)] => grid_lines(goal, 'b', 'w').join("/"),
            [colour] => colour.name().into(),
            // Both colours: the only other question `solve` asks.
            _ => "either".into(),
        };
        Problem {
            rows: puzzle.rows(),
            cols: puzzle.cols(),
            topology: topology_name(puzzle.topology()).into(),
            rule: puzzle.rule().mask(),
            board: grid_lines(board, 'b', 'w'),
            target,
            method: method_word(*method).into(),
            graph: puzzle.graph().map(Graph::to_graph6),
        }
    }

    /// The values the record holds, read back (for `merge`); an error
    /// names `source`, the record's file.
    pub fn question(&self, source: &str) -> Result<Question, Error> {
        let bad = problem_error(source);
        let shape = Shape { rows: self.rows, cols: self.cols, topology: &self.topology, rule: &self.rule };
        let (puzzle, method) = read_puzzle(shape, &self.method, self.graph.as_deref(), source)?;
        let unfit = |_| bad(Error::BadInput("has a board that does not fit the puzzle".into()));
        let board = parse_grid(&self.board, self.rows, self.cols).map_err(unfit)?;
        let targets = match colour_targets(&self.target) {
            Some(colours) => colours.to_vec(),
            None => {
                let lines: Vec<String> = self.target.split('/').map(str::to_string).collect();
                vec![Target::Board(parse_grid(&lines, self.rows, self.cols).map_err(unfit)?)]
            }
        };
        Ok(Question { puzzle, board, targets, method })
    }
}

/// What a long search answers: everything that decides its answer.
pub struct Question {
    pub puzzle: Puzzle,
    pub board: Grid,
    pub targets: Vec<Target>,
    pub method: Method,
}

pub fn parse_grid(lines: &[String], rows: usize, cols: usize) -> Result<Grid, Error> {
    let text = lines.join("\n") + "\n";
    parse_boards(text.as_bytes(), "record", Some(rows), Some(cols))?
        .into_iter()
        .next()
        .ok_or_else(|| Error::BadInput("record has no board".into()))
}

/// One target's search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TargetSearch {
    pub target: String,
    pub nullity: usize,
    pub reachable: bool,
    /// The exhaustive search (absent when unreachable, or when the nullity
    /// is above --max-nullity).
    pub state: Option<SearchState>,
}

/// A kind of search record: two states (version 1) or K states (version
/// 2). The kind fixes the problem's fields, the entry per target, and the
/// words of the messages about them; the record around them is one.
pub trait RecordKind: Clone + Debug + PartialEq {
    /// Everything that decides the answer.
    type Problem: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// One target's search.
    type Entry: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Entry<Self::Slices>;
    /// How its exhaustive searches split.
    type Slices: SliceKind;
    /// The record version (of the problem hash, and of every record
    /// unless [`version_of`](Self::version_of) says otherwise).
    const VERSION: u32;
    /// What differs in a checkpoint of another problem.
    const PROBLEM_FIELDS: &'static str;
    /// What else may differ in a checkpoint of another slice.
    const SLICE_FIELDS: &'static str;
    /// The size of a target's search in an entry (`nullity`).
    const SIZE: &'static str;
    /// The size that a --max-nullity fell below (`the nullity`).
    const SIZE_BELOW: &'static str;

    /// SHA-256 of the problem and the record version.
    fn hash(problem: &Self::Problem) -> String {
        problem_hash("search", Self::VERSION, problem)
    }

    /// The version of a record of these searches.
    fn version_of(searches: &[Self::Entry]) -> u32 {
        let _ = searches;
        Self::VERSION
    }

    /// Every version a record of this kind may have.
    fn versions() -> Vec<u32> {
        vec![Self::VERSION]
    }
}

/// One target's search in a record.
pub trait Entry<K: SliceKind> {
    /// The exhaustive search, if there is one.
    fn state(&self) -> Option<&Slice<K>>;
    /// The exhaustive search, to replace.
    fn state_mut(&mut self) -> &mut Option<Slice<K>>;
    /// Whether both name the same target, size and reachability.
    fn same_goal(&self, other: &Self) -> bool;
}

/// Two-state search records (version 1).
#[derive(Clone, Debug, PartialEq)]
pub struct TwoStates;

impl RecordKind for TwoStates {
    type Problem = Problem;
    type Entry = TargetSearch;
    type Slices = Layout;
    const VERSION: u32 = RECORD_VERSION;
    const PROBLEM_FIELDS: &'static str = "board, rule, topology, target or method";
    const SLICE_FIELDS: &'static str = "--max-nullity, engine, --incumbent";
    const SIZE: &'static str = "nullity";
    const SIZE_BELOW: &'static str = "the nullity";

    /// Version 3 where a branch-and-bound slice names its fold; version 1
    /// otherwise (the transform's slices, and branch-and-bound slices
    /// recorded before folds were named), field for field as it was.
    fn version_of(searches: &[TargetSearch]) -> u32 {
        let names_fold = searches
            .iter()
            .filter_map(|s| s.state.as_ref()?.plan)
            .any(|plan| plan.fold != crate::solve::minimal::FoldTag::Unnamed);
        if names_fold { BRANCH_RECORD_VERSION } else { RECORD_VERSION }
    }

    fn versions() -> Vec<u32> {
        vec![RECORD_VERSION, BRANCH_RECORD_VERSION]
    }
}

impl Entry<Layout> for TargetSearch {
    fn state(&self) -> Option<&SearchState> {
        self.state.as_ref()
    }

    fn state_mut(&mut self) -> &mut Option<SearchState> {
        &mut self.state
    }

    fn same_goal(&self, other: &Self) -> bool {
        (&self.target, self.nullity, self.reachable) == (&other.target, other.nullity, other.reachable)
    }
}

/// What a sharded run prints and a checkpoint holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Record<K: RecordKind> {
    pub lightsout: String,
    pub version: u32,
    pub hash: String,
    pub problem: K::Problem,
    /// The slice this record covers (the same for every target).
    pub shard: Shard,
    pub searches: Vec<K::Entry>,
    /// Milliseconds spent searching, over every run that resumed this
    /// record (whole numbers: a float would not survive the checksum's
    /// round trip through JSON exactly).
    pub milliseconds: u64,
    /// SHA-256 of the record with this field empty: an edited or truncated
    /// record is refused.
    pub checksum: String,
}

impl<K: RecordKind> Sealed for Record<K> {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

impl<K: RecordKind> LongRecord for Record<K> {
    const KIND: &'static str = "search";
    const PROBLEM_FIELDS: &'static str = K::PROBLEM_FIELDS;

    fn versions() -> Vec<u32> {
        K::versions()
    }

    fn claimed_hash(&self) -> &str {
        &self.hash
    }

    fn hash_of_problem(&self) -> String {
        K::hash(&self.problem)
    }

    fn shards(&self) -> Vec<Shard> {
        let slices = self.searches.iter().filter_map(|t| t.state().map(|s| s.shard));
        std::iter::once(self.shard).chain(slices).collect()
    }

    /// The record's version is the one its slices call for.
    fn check(&self, source: &str) -> Result<(), Error> {
        let version = K::version_of(&self.searches);
        if self.version != version {
            return Err(Error::BadInput(format!(
                "{source}: a version {} record whose slices are of version {version}: the record was edited or damaged",
                self.version
            )));
        }
        Ok(())
    }
}

impl<K: RecordKind> Record<K> {
    /// A fresh record of `problem`'s slice `shard`.
    pub fn new(problem: K::Problem, shard: Shard, searches: Vec<K::Entry>) -> Record<K> {
        let hash = K::hash(&problem);
        Record {
            lightsout: "search".into(),
            version: K::version_of(&searches),
            hash,
            problem,
            shard,
            searches,
            milliseconds: 0,
            checksum: String::new(),
        }
    }

    /// Parses and checks a record read from `source`: its kind and
    /// version, its checksum, its slices and its hash ([`parse_record`]).
    pub fn parse(text: &str, source: &str) -> Result<Record<K>, Error> {
        parse_record(text, source)
    }

    /// Takes over the progress of `saved`, a checkpoint of this search,
    /// once it holds up against `cosets` (per target, when reachable).
    pub fn resume<C: Sliced<Kind = K::Slices>>(
        &mut self,
        mut saved: Record<K>,
        cosets: &[Option<&C>],
        source: &str,
    ) -> Result<(), Error> {
        let bad = |why: &str| Error::BadInput(format!("{source}: {why}"));
        check_same_problem(&saved, &self.hash, source)?;
        if saved.searches.len() != self.searches.len() {
            return Err(bad("checkpoint does not match this search"));
        }
        for (old, coset) in saved.searches.iter_mut().zip(cosets) {
            if let (Some(state), Some(coset)) = (old.state_mut(), coset) {
                coset.adopt(&mut state.plan).map_err(|why| {
                    bad(&format!("checkpoint: {why}; remove it to search this slice afresh"))
                })?;
            }
        }
        for ((old, new), coset) in saved.searches.iter().zip(&self.searches).zip(cosets) {
            let fits = match (old.state(), new.state(), coset) {
                (Some(o), Some(n), Some(c)) => {
                    if o.shard == n.shard && o.fits(*c) {
                        // An edited checkpoint resealed: its best must hold.
                        o.verify(*c).map_err(|why| bad(&format!("checkpoint does not hold up: {why}")))?;
                    }
                    o.shard == n.shard && o.plan == n.plan && o.fits(*c)
                }
                (None, None, _) => true,
                _ => false,
            };
            if !fits || !old.same_goal(new) {
                return Err(bad(&format!(
                    "checkpoint of another slice, {} or version of this search",
                    K::SLICE_FIELDS
                )));
            }
        }
        self.searches = saved.searches;
        self.milliseconds = saved.milliseconds;
        Ok(())
    }
}
