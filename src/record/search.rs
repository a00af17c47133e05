//! Two-state search records (version 1; version 3 where a branch-and-bound
//! slice names its fold), and the record around the searches of either
//! kind: [`Record`] over a [`RecordKind`].

use std::fmt::Debug;

use serde::de::DeserializeOwned;
use std::marker::PhantomData;

use serde::de::{self, MapAccess, Visitor};
use serde::ser::SerializeStruct;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

use super::problem::{Shape, method_word, problem_error, read_puzzle};
use super::seal::{LongRecord, RECORD_VERSION, Sealed, parse_record, problem_hash};
use crate::present::{colour_targets, topology_name};
use crate::solve::{Layout, Shard, Slice, SliceKind, Sliced};
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

/// A kind of search record: two states (versions 1 and 3) or K states
/// (version 2), named by its problem (each kind has one). The kind fixes
/// the problem's fields, the size of a target's search, how its slices
/// split, and the words of the messages about them; the record around
/// them, and each target's entry ([`TargetSearch`]), are one.
pub trait RecordKind: Clone + Debug + PartialEq + Serialize + DeserializeOwned {
    /// The size of a target's search: the nullity, or a K-state kernel's
    /// members in decimal.
    type Size: Clone + Debug + PartialEq + Serialize + DeserializeOwned;
    /// How its exhaustive searches split.
    type Slices: SliceKind;
    /// The record version (of the problem hash, and of every record
    /// unless [`version_of`](Self::version_of) says otherwise).
    const VERSION: u32;
    /// The words of its messages, and its entries' size field.
    const WORDS: Words;

    /// SHA-256 of the problem and the record version.
    fn hash(&self) -> String {
        problem_hash("search", Self::VERSION, self)
    }

    /// The version of a record of these searches.
    fn version_of(searches: &[TargetSearch<Self>]) -> u32 {
        let _ = searches;
        Self::VERSION
    }

    /// Every version a record of this kind may have.
    fn versions() -> Vec<u32> {
        vec![Self::VERSION]
    }
}

/// What the messages about a kind of search record call its parts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Words {
    /// What differs in a checkpoint of another problem.
    pub problem_fields: &'static str,
    /// What else may differ in a checkpoint of another slice.
    pub slice_fields: &'static str,
    /// The size of a target's search as its entry's field names it
    /// (`nullity`, `kernel_size`); messages write it with spaces.
    pub size_field: &'static str,
}

impl Words {
    /// The words `problem_fields`, `slice_fields` and `size_field`.
    pub const fn new(
        problem_fields: &'static str,
        slice_fields: &'static str,
        size_field: &'static str,
    ) -> Self {
        Words { problem_fields, slice_fields, size_field }
    }

    /// The size of a target's search in words (`kernel size`).
    pub fn size(&self) -> String {
        self.size_field.replace('_', " ")
    }
}

impl RecordKind for Problem {
    type Size = usize;
    type Slices = Layout;
    const VERSION: u32 = RECORD_VERSION;
    const WORDS: Words = TWO_STATE_WORDS;

    /// Version 3 where a branch-and-bound slice names its fold; version 1
    /// otherwise (the transform's slices, and branch-and-bound slices
    /// recorded before folds were named), field for field as it was.
    fn version_of(searches: &[TargetSearch<Problem>]) -> u32 {
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

/// The words of two-state search records.
const TWO_STATE_WORDS: Words = Words::new(
    "board, rule, topology, target or method",
    "--max-nullity, engine, --incumbent, --time-limit",
    "nullity",
);

/// One target's search in a record of kind `K`. Written field for field
/// as each kind always wrote it: `target`, the size under the kind's
/// name (`nullity`, `kernel_size`), `reachable`, `state`; read back the
/// same way, refusing a field of another kind.
#[derive(Clone, Debug, PartialEq)]
pub struct TargetSearch<K: RecordKind> {
    /// The target's name (a colour, a state number, `board`, or a target
    /// board's rows).
    pub target: String,
    /// The size of its search (see [`RecordKind::Size`]).
    pub size: K::Size,
    pub reachable: bool,
    /// The exhaustive search (absent when unreachable, or when the size
    /// is above --max-nullity).
    pub state: Option<Slice<K::Slices>>,
}

impl<K: RecordKind> TargetSearch<K> {
    /// Whether both name the same target, size and reachability.
    pub fn same_goal(&self, other: &Self) -> bool {
        (&self.target, &self.size, self.reachable) == (&other.target, &other.size, other.reachable)
    }
}

impl<K: RecordKind> Serialize for TargetSearch<K> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut entry = serializer.serialize_struct("TargetSearch", 4)?;
        entry.serialize_field("target", &self.target)?;
        entry.serialize_field(K::WORDS.size_field, &self.size)?;
        entry.serialize_field("reachable", &self.reachable)?;
        entry.serialize_field("state", &self.state)?;
        entry.end()
    }
}

impl<'de, K: RecordKind> Deserialize<'de> for TargetSearch<K> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_map(EntryFields(PhantomData))
    }
}

/// Reads a [`TargetSearch`] as a derived, `deny_unknown_fields` struct
/// would from an object: every field once, `state` absent as `null`
/// (an entry written as an array, which a derived struct would also read,
/// is refused: no lightsout ever wrote one).
struct EntryFields<K>(PhantomData<K>);

impl<K: RecordKind> EntryFields<K> {
    const NAMES: &'static [&'static str] = &["target", K::WORDS.size_field, "reachable", "state"];
}

impl<'de, K: RecordKind> Visitor<'de> for EntryFields<K> {
    type Value = TargetSearch<K>;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(f, "a target's search (target, {}, reachable, state)", K::WORDS.size_field)
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        fn once<T, E: de::Error>(slot: &mut Option<T>, name: &'static str, value: T) -> Result<(), E> {
            match slot.replace(value) {
                Some(_) => Err(E::duplicate_field(name)),
                None => Ok(()),
            }
        }
        let size_field = K::WORDS.size_field;
        let (mut target, mut size, mut reachable, mut state) = (None, None, None, None);
        while let Some(key) = map.next_key::<String>()? {
            match key.as_str() {
                "target" => once(&mut target, "target", map.next_value()?)?,
                "reachable" => once(&mut reachable, "reachable", map.next_value()?)?,
                "state" => once(&mut state, "state", map.next_value()?)?,
                name if name == size_field => once(&mut size, size_field, map.next_value()?)?,
                other => return Err(de::Error::unknown_field(other, Self::NAMES)),
            }
        }
        Ok(TargetSearch {
            target: target.ok_or_else(|| de::Error::missing_field("target"))?,
            size: size.ok_or_else(|| de::Error::missing_field(size_field))?,
            reachable: reachable.ok_or_else(|| de::Error::missing_field("reachable"))?,
            state: state.flatten(),
        })
    }
}

/// What a sharded run prints and a checkpoint holds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, bound = "")]
pub struct Record<K: RecordKind> {
    pub lightsout: String,
    pub version: u32,
    pub hash: String,
    pub problem: K,
    /// The slice this record covers (the same for every target).
    pub shard: Shard,
    pub searches: Vec<TargetSearch<K>>,
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
    const PROBLEM_FIELDS: &'static str = K::WORDS.problem_fields;

    fn versions() -> Vec<u32> {
        K::versions()
    }

    fn claimed_hash(&self) -> &str {
        &self.hash
    }

    fn hash_of_problem(&self) -> String {
        self.problem.hash()
    }

    fn shards(&self) -> Vec<Shard> {
        let slices = self.searches.iter().filter_map(|t| t.state.as_ref().map(|s| s.shard));
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
    pub fn new(problem: K, shard: Shard, searches: Vec<TargetSearch<K>>) -> Record<K> {
        let hash = problem.hash();
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

    /// Takes over the progress of `saved`, a checkpoint of this problem
    /// (as [`parse_checkpoint`](super::parse_checkpoint) reads one), once
    /// it holds up against `cosets` (per target, when reachable): the same
    /// targets, slice and plan, each slice fitting its coset and its best
    /// member holding up.
    pub fn resume<C: Sliced<Kind = K::Slices>>(
        &mut self,
        mut saved: Record<K>,
        cosets: &[Option<&C>],
        source: &str,
    ) -> Result<(), Error> {
        let bad = |why: &str| Error::BadInput(format!("{source}: {why}"));
        if saved.searches.len() != self.searches.len() {
            return Err(bad("checkpoint does not match this search"));
        }
        for (old, coset) in saved.searches.iter_mut().zip(cosets) {
            if let (Some(state), Some(coset)) = (&mut old.state, coset) {
                coset.adopt(&mut state.plan).map_err(|why| {
                    bad(&format!("checkpoint: {why}; remove it to search this slice afresh"))
                })?;
            }
        }
        for ((old, new), coset) in saved.searches.iter().zip(&self.searches).zip(cosets) {
            let fits = match (&old.state, &new.state, coset) {
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
                    K::WORDS.slice_fields
                )));
            }
        }
        self.searches = saved.searches;
        self.milliseconds = saved.milliseconds;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::StateProblem;

    /// One entry type writes each kind's entries field for field as the
    /// two structs it replaced did (`nullity` a number, `kernel_size` a
    /// decimal string), reads them back, and refuses what a derived
    /// `deny_unknown_fields` struct refused: the other kind's size field,
    /// a field twice, a size missing. An absent `state` reads as `null`.
    #[test]
    fn entries_keep_each_kinds_fields() {
        let two = TargetSearch::<Problem> { target: "white".into(), size: 20, reachable: true, state: None };
        let text = serde_json::to_string(&two).unwrap();
        assert_eq!(text, r#"{"target":"white","nullity":20,"reachable":true,"state":null}"#);
        assert_eq!(serde_json::from_str::<TargetSearch<Problem>>(&text).unwrap(), two);
        let k = TargetSearch::<StateProblem> {
            target: "0".into(),
            size: "81".into(),
            reachable: false,
            state: None,
        };
        let text = serde_json::to_string(&k).unwrap();
        assert_eq!(text, r#"{"target":"0","kernel_size":"81","reachable":false,"state":null}"#);
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(serde_json::from_value::<TargetSearch<StateProblem>>(value).unwrap(), k);
        let absent = r#"{"target":"0","kernel_size":"81","reachable":false}"#;
        assert_eq!(serde_json::from_str::<TargetSearch<StateProblem>>(absent).unwrap(), k);
        let refused =
            |text: &str| serde_json::from_str::<TargetSearch<Problem>>(text).unwrap_err().to_string();
        assert!(refused(&text).starts_with("unknown field `kernel_size`"), "{}", refused(&text));
        let twice = r#"{"target":"white","target":"black","nullity":20,"reachable":true,"state":null}"#;
        assert!(refused(twice).starts_with("duplicate field `target`"), "{}", refused(twice));
        let no_size = r#"{"target":"white","reachable":true,"state":null}"#;
        assert!(refused(no_size).starts_with("missing field `nullity`"), "{}", refused(no_size));
    }
}
