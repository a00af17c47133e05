//! The records a long search or a table slice writes down: the problem
//! (board, rule, topology, target, method; or the table's ranges), its
//! hash, the state reached, and a checksum of it all. A checkpoint is a
//! record written atomically; a shard prints one as a JSON line; `merge`
//! reads them back.

use std::fmt::Debug;
use std::io::Write;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::cli::describe;
use crate::present::{colour_targets, parse_topology, topology_name};
use crate::solve::{Layout, MergeError, SearchState, Shard, Slice, SliceKind, Sliced};
use crate::{Error, Graph, Grid, Method, Puzzle, Rule, Target, grid_lines, parse_boards};

/// Version of the record format; a record of another version is refused.
pub(super) const RECORD_VERSION: u32 = 1;

/// Version of two-state records of branch-and-bound slices that name
/// their fold (`branch.fold`): slices made under another fold cover other
/// members, and an older lightsout, which cannot tell folds apart, refuses
/// them. Their problem hash stays the version 1 hash: the problem is the
/// same, and a record of another fold is then refused for its fold.
pub(super) const BRANCH_RECORD_VERSION: u32 = 3;

/// What is searched: everything that decides the answer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct Problem {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) topology: String,
    /// The rule as a mask (`010/111/010`).
    pub(super) rule: String,
    /// The board, a `b`/`w` string per row.
    pub(super) board: Vec<String>,
    /// `white`, `black`, `either`, or a target board's rows joined by `/`.
    pub(super) target: String,
    /// `auto`, `dense` or `chase`: the method picks the basis of quiet
    /// patterns, and so what a mask means.
    pub(super) method: String,
    /// The graph (graph6) of a puzzle on a graph; absent for a grid, so a
    /// grid's record, and its hash, are as they always were.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) graph: Option<String>,
}

/// SHA-256 of a problem's JSON after `lightsout-{kind}/{version}/`: what
/// a record's `hash` holds (for searches of either kind and for tables).
pub(super) fn problem_hash(kind: &str, version: u32, problem: &impl Serialize) -> String {
    let text = serde_json::to_string(problem).unwrap_or_default();
    hex(&Sha256::digest(format!("lightsout-{kind}/{version}/{text}").as_bytes()))
}

impl Problem {
    /// The record of `question`: its values written as text.
    pub(super) fn of(question: &Question) -> Problem {
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
    pub(super) fn question(&self, source: &str) -> Result<Question, Error> {
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

/// A method as records spell it: spelled out, not a Debug name, so that
/// renaming a variant does not change every record's hash.
pub(super) fn method_word(method: Method) -> &'static str {
    match method {
        Method::Auto => "auto",
        Method::Dense => "dense",
        Method::Chase => "chase",
    }
}

/// The grid a record's problem names (a graph's puzzle ignores it).
pub(super) struct Shape<'a> {
    pub(super) rows: usize,
    pub(super) cols: usize,
    pub(super) topology: &'a str,
    pub(super) rule: &'a str,
}

/// The puzzle and method a record's problem names, read back: the method
/// word, then the topology, the rule, and the puzzle (on the graph6 when
/// there is one); an error names `source`, the record's file.
pub(super) fn read_puzzle(
    shape: Shape,
    method: &str,
    graph: Option<&str>,
    source: &str,
) -> Result<(Puzzle, Method), Error> {
    let wrap = problem_error(source);
    let bad = |why: String| wrap(Error::BadInput(why));
    let method = match method {
        "auto" => Method::Auto,
        "dense" => Method::Dense,
        "chase" => Method::Chase,
        other => return Err(bad(format!("has an unknown method '{other}'"))),
    };
    let topology = parse_topology(shape.topology)
        .ok_or_else(|| bad(format!("has an unknown topology '{}'", shape.topology)))?;
    let rule = Rule::from_mask(shape.rule).map_err(|e| bad(format!("has a bad rule: {e}")))?;
    let puzzle = match graph {
        Some(graph6) => Graph::parse(graph6.as_bytes(), source)
            .and_then(|graph| Puzzle::on_graph(graph, rule))
            .map_err(&wrap)?,
        None => Puzzle::new(shape.rows, shape.cols).map_err(&wrap)?.with_topology(topology).with_rule(rule),
    };
    Ok((puzzle, method))
}

/// Turns an error about a record's problem into one line naming the file
/// (`x.json: its problem has 0 rows`), in the record's words rather than
/// flags the user never gave.
pub(super) fn problem_error(source: &str) -> impl Fn(Error) -> Error + '_ {
    move |error| {
        let why = match error {
            Error::BadSide { side, value, max } => {
                format!("has {value} {}, outside 1..={max}", side.name())
            }
            Error::Parse { message, .. } => format!("has a bad graph: {message}"),
            Error::BadInput(why) => why,
            other if other.is_limit() => return other,
            other => format!("is refused: {}", describe(&other)),
        };
        Error::BadInput(format!("{source}: its problem {why}"))
    }
}

/// What a long search answers: everything that decides its answer.
pub(super) struct Question {
    pub(super) puzzle: Puzzle,
    pub(super) board: Grid,
    pub(super) targets: Vec<Target>,
    pub(super) method: Method,
}

pub(super) fn parse_grid(lines: &[String], rows: usize, cols: usize) -> Result<Grid, Error> {
    let text = lines.join("\n") + "\n";
    parse_boards(text.as_bytes(), "record", Some(rows), Some(cols))?
        .into_iter()
        .next()
        .ok_or_else(|| Error::BadInput("record has no board".into()))
}

pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One target's search.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TargetSearch {
    pub(super) target: String,
    pub(super) nullity: usize,
    pub(super) reachable: bool,
    /// The exhaustive search (absent when unreachable, or when the nullity
    /// is above --max-nullity).
    pub(super) state: Option<SearchState>,
}

/// A kind of search record: two states (version 1) or K states (version
/// 2). The kind fixes the problem's fields, the entry per target, and the
/// words of the messages about them; the record around them is one.
pub(super) trait RecordKind: Clone + Debug + PartialEq {
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
pub(super) trait Entry<K: SliceKind> {
    /// The exhaustive search, if there is one.
    fn state(&self) -> Option<&Slice<K>>;
    /// The exhaustive search, to replace.
    fn state_mut(&mut self) -> &mut Option<Slice<K>>;
    /// Whether both name the same target, size and reachability.
    fn same_goal(&self, other: &Self) -> bool;
}

/// Two-state search records (version 1).
#[derive(Clone, Debug, PartialEq)]
pub(super) struct TwoStates;

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
pub(super) struct Record<K: RecordKind> {
    pub(super) lightsout: String,
    pub(super) version: u32,
    pub(super) hash: String,
    pub(super) problem: K::Problem,
    /// The slice this record covers (the same for every target).
    pub(super) shard: Shard,
    pub(super) searches: Vec<K::Entry>,
    /// Milliseconds spent searching, over every run that resumed this
    /// record (whole numbers: a float would not survive the checksum's
    /// round trip through JSON exactly).
    pub(super) milliseconds: u64,
    /// SHA-256 of the record with this field empty: an edited or truncated
    /// record is refused.
    pub(super) checksum: String,
}

/// A record that carries a checksum of itself.
pub(super) trait Sealed: Serialize + Clone {
    fn checksum_mut(&mut self) -> &mut String;

    /// The record with its checksum: SHA-256 of its JSON with the checksum
    /// empty.
    fn sealed(mut self) -> Self {
        *self.checksum_mut() = String::new();
        let digest = hex(&Sha256::digest(serde_json::to_string(&self).unwrap_or_default().as_bytes()));
        *self.checksum_mut() = digest;
        self
    }

    fn to_line(&self) -> String {
        serde_json::to_string(&self.clone().sealed()).unwrap_or_default()
    }

    fn checksum_holds(&self) -> bool {
        let mut copy = self.clone();
        let claimed = std::mem::take(copy.checksum_mut());
        *copy.sealed().checksum_mut() == claimed
    }
}

impl<K: RecordKind> Sealed for Record<K> {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

/// Reads `text` as a record of kind `kind` (`search` or `table`), refusing
/// another kind, another version, or a checksum that does not hold.
pub(super) fn parse_sealed<T: Sealed + DeserializeOwned>(
    text: &str,
    source: &str,
    kind: &str,
) -> Result<T, Error> {
    parse_sealed_version(text, source, kind, &[RECORD_VERSION])
}

/// What a record of `kind` and `version` is, in words (`a K-state search
/// record (version 2)`).
fn record_words(kind: &str, version: u64) -> String {
    match (kind, version) {
        ("search", 1) => "a two-state search record (version 1)".into(),
        ("search", 2) => "a K-state search record (version 2)".into(),
        ("search", 3) => "a two-state branch-and-bound search record (version 3)".into(),
        ("table", 1) => "a table record (version 1)".into(),
        ("hardest", 1) => "a hardest-boards distribution record (version 1)".into(),
        (kind, version) => {
            format!("a '{kind}' record of version {version}, which this lightsout does not read")
        }
    }
}

/// [`parse_sealed`] of records of one of `versions` (K-state searches
/// are 2; the first names what is expected when none fits).
pub(super) fn parse_sealed_version<T: Sealed + DeserializeOwned>(
    text: &str,
    source: &str,
    kind: &str,
    versions: &[u32],
) -> Result<T, Error> {
    let version = versions.first().copied().unwrap_or(RECORD_VERSION);
    let bad = |why: String| Error::BadInput(format!("{source}: {why}"));
    let value: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| bad(format!("not a lightsout search record ({e})")))?;
    let Some(found) = value["lightsout"].as_str() else {
        return Err(bad("not a lightsout record (it has no \"lightsout\" kind)".into()));
    };
    let found_version = value["version"].as_u64().unwrap_or(0);
    if found != kind || !versions.iter().any(|&v| u64::from(v) == found_version) {
        let this = record_words(kind, u64::from(version));
        let this = this.split(" record").next().unwrap_or(&this);
        return Err(Error::BadInput(format!(
            "{source} is {}; this is {this}",
            record_words(found, found_version)
        )));
    }
    // A field of another kind (a K-state record's `states` marked version
    // 1): serde names the field; the list of expected ones is left off.
    let record: T = serde_json::from_value(value).map_err(|e| {
        let e = e.to_string();
        let first = e.split(", expected").next().unwrap_or(&e).to_string();
        bad(format!(
            "does not read as {} ({first}): the record was edited or damaged",
            record_words(kind, found_version)
        ))
    })?;
    if !record.checksum_holds() {
        return Err(bad("checksum does not match: the record was edited or damaged".into()));
    }
    Ok(record)
}

impl<K: RecordKind> Record<K> {
    /// A fresh record of `problem`'s slice `shard`.
    pub(super) fn new(problem: K::Problem, shard: Shard, searches: Vec<K::Entry>) -> Record<K> {
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
    /// version, its checksum, its slices and its hash.
    pub(super) fn parse(text: &str, source: &str) -> Result<Record<K>, Error> {
        let record: Record<K> = parse_sealed_version(text, source, "search", &K::versions())?;
        if record.version != K::version_of(&record.searches) {
            return Err(Error::BadInput(format!(
                "{source}: a version {} record whose slices are of version {}: the record was edited or damaged",
                record.version,
                K::version_of(&record.searches)
            )));
        }
        let shards = std::iter::once(record.shard)
            .chain(record.searches.iter().filter_map(|t| t.state().map(|s| s.shard)));
        if shards.clone().any(|shard| !shard.is_valid() || shard != record.shard) {
            return Err(Error::BadInput(format!("{source}: its slice is not a valid K/N")));
        }
        if K::hash(&record.problem) != record.hash {
            return Err(Error::BadInput(format!("{source}: problem hash does not match its problem")));
        }
        Ok(record)
    }

    /// Takes over the progress of `saved`, a checkpoint of this search,
    /// once it holds up against `cosets` (per target, when reachable).
    pub(super) fn resume<C: Sliced<Kind = K::Slices>>(
        &mut self,
        mut saved: Record<K>,
        cosets: &[Option<&C>],
        source: &str,
    ) -> Result<(), Error> {
        let bad = |why: &str| Error::BadInput(format!("{source}: {why}"));
        if saved.hash != self.hash {
            return Err(bad(&format!("checkpoint of another problem ({} differ)", K::PROBLEM_FIELDS)));
        }
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

/// What a table's slice covers: everything that decides its numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TableProblem {
    pub(super) rows: (usize, usize),
    pub(super) cols: (usize, usize),
    pub(super) topology: String,
    pub(super) rule: String,
}

impl TableProblem {
    pub(super) fn hash(&self) -> String {
        problem_hash("table", RECORD_VERSION, self)
    }
}

/// A slice of `lightsout table --shard K/N`: the nullity of some rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct TableRecord {
    pub(super) lightsout: String,
    pub(super) version: u32,
    pub(super) hash: String,
    pub(super) problem: TableProblem,
    pub(super) shard: Shard,
    /// Per row of the slice (every N-th row from row K of the range), the
    /// nullity of each column.
    pub(super) nullity: Vec<Vec<usize>>,
    pub(super) checksum: String,
}

impl Sealed for TableRecord {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

/// The JSON line a table's slice prints.
pub(super) fn table_record(problem: TableProblem, shard: Shard, nullity: Vec<Vec<usize>>) -> String {
    let hash = problem.hash();
    let record = TableRecord {
        lightsout: "table".into(),
        version: RECORD_VERSION,
        hash,
        problem,
        shard,
        nullity,
        checksum: String::new(),
    };
    record.to_line()
}

/// Writes `record` to `path` atomically: a new temporary file beside it,
/// synced, then renamed over `path`, so a crash never leaves half a
/// checkpoint.
///
/// The temporary file is created new (`create_new`: `O_CREAT | O_EXCL`,
/// which never follows a link) under a random name in the same folder. A
/// fixed name such as `kk.json.tmp` let anyone who can write to the folder
/// plant a link there, and the checkpoint was then written into the file it
/// pointed to. On any failure the temporary file is removed.
pub(super) fn save<T: Sealed>(record: &T, path: &std::path::Path) -> Result<(), Error> {
    let fail =
        |e: std::io::Error| Error::BadInput(format!("cannot write checkpoint {}: {e}", path.display()));
    let folder = match path.parent() {
        Some(folder) if !folder.as_os_str().is_empty() => folder,
        _ => std::path::Path::new("."),
    };
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    // A taken name (a link, a file, a crashed run's leftover) is never
    // opened: try a few fresh random names, then give up.
    let mut attempt = 0;
    let (temporary, mut file) = loop {
        let temporary = folder.join(format!(".{name}.{:016x}.tmp", rand::random::<u64>()));
        match std::fs::OpenOptions::new().write(true).create_new(true).open(&temporary) {
            Ok(file) => break (temporary, file),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists && attempt < 8 => attempt += 1,
            Err(e) => return Err(fail(e)),
        }
    };
    let written = writeln!(file, "{}", record.to_line())
        .and_then(|()| file.sync_all())
        .and_then(|()| std::fs::rename(&temporary, path));
    drop(file);
    if let Err(e) = written {
        let _ = std::fs::remove_file(&temporary);
        return Err(fail(e));
    }
    // The rename is durable once the folder's entry is: sync the folder
    // too where the platform allows opening one (it does on Unix).
    if let Ok(folder) = std::fs::File::open(folder) {
        let _ = folder.sync_all();
    }
    Ok(())
}

/// Refuses parts (source, problem hash, slice) of another problem than the
/// first (`differs` says how) or that are not every slice of one split
/// exactly once.
pub(super) fn check_one_split(parts: &[(&str, &str, Shard)], differs: &str) -> Result<(), Error> {
    let Some(&(first_source, first_hash, _)) = parts.first() else {
        return Err(Error::BadInput("no shards to merge".into()));
    };
    let foreign: Vec<&str> = parts.iter().filter(|p| p.1 != first_hash).map(|p| p.0).collect();
    if !foreign.is_empty() {
        return Err(Error::BadInput(format!("{} {differs} than {first_source}", foreign.join(", "))));
    }
    let named: Vec<(String, Shard)> =
        parts.iter().map(|&(source, _, shard)| (source.to_string(), shard)).collect();
    let shards: Vec<Shard> = parts.iter().map(|p| p.2).collect();
    crate::solve::check_coverage(&shards).map_err(|e| Error::BadInput(coverage_error(&e, &named)))
}

pub(super) fn coverage_error(e: &MergeError, shards: &[(String, Shard)]) -> String {
    // At most ten slices by number, then how many in all.
    let list = |v: &[u64]| {
        let shown: Vec<String> = v.iter().take(10).map(u64::to_string).collect();
        if v.len() > 10 {
            format!("{}, … ({} in all)", shown.join(", "), v.len())
        } else {
            shown.join(", ")
        }
    };
    match e {
        MergeError::Empty => "no shards to merge".into(),
        MergeError::MixedCounts(counts) => format!("shards of different splits: N = {}", list(counts)),
        MergeError::Duplicated(slices) => {
            let files: Vec<&str> = shards
                .iter()
                .filter(|(_, s)| slices.contains(&s.index))
                .map(|(f, _)| f.as_str())
                .take(10)
                .collect();
            format!("slices given more than once: {} ({})", list(slices), files.join(", "))
        }
        MergeError::Missing(slices) => {
            let count = shards.first().map_or(0, |(_, s)| s.count);
            format!("slices missing: {} of {count}", list(slices))
        }
        MergeError::Inconsistent(index, why) => {
            let file = shards.iter().find(|(_, s)| s.index == *index).map_or("?", |(f, _)| f.as_str());
            format!("{file}: slice {index} does not hold up: {why}")
        }
        MergeError::Incomplete(index) => {
            let file = shards.iter().find(|(_, s)| s.index == *index).map_or("?", |(f, _)| f.as_str());
            format!(
                "{file}: slice {index} was stopped before its end; run its command again (with the \
                 --checkpoint it saved, if any) to finish it"
            )
        }
    }
}

#[cfg(test)]
mod save_tests {
    use std::os::unix::fs::symlink;

    /// Issue 15: `--checkpoint kk.json` wrote to the fixed name
    /// `kk.json.tmp` with `File::create`, which follows a link: with
    /// `kk.json.tmp` a link to another file, the checkpoint overwrote that
    /// file. The temporary file is now created new under a random name, so
    /// the link and the file it points to are left alone.
    #[test]
    fn regression_the_checkpoint_never_writes_through_a_planted_link() {
        let dir = std::env::temp_dir().join(format!("lightsout-save-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let precious = dir.join("precious.txt");
        std::fs::write(&precious, "not a checkpoint\n").unwrap();
        symlink(&precious, dir.join("kk.json.tmp")).unwrap();
        let checkpoint = dir.join("kk.json");
        let args = ["lightsout", "-g", "all-black", "-r", "5", "-c", "5", "-t", "white", "--checkpoint"];
        let args = args.iter().map(|a| a.to_string()).chain([checkpoint.display().to_string()]);
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = crate::cli::run(args, &mut std::io::empty(), &mut out, &mut err);
        assert_eq!(code, 0, "{}", String::from_utf8_lossy(&err));
        assert_eq!(String::from_utf8_lossy(&out), "15\n");
        assert_eq!(std::fs::read_to_string(&precious).unwrap(), "not a checkpoint\n");
        assert!(std::fs::symlink_metadata(dir.join("kk.json.tmp")).unwrap().file_type().is_symlink());
        let saved = std::fs::read_to_string(&checkpoint).unwrap();
        assert!(saved.starts_with('{') && saved.contains("\"checksum\""), "{saved}");
        // Nothing left behind but the three files.
        assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 3);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
