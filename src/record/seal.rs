//! The seal every record carries (a checksum of itself), reading a record
//! back by its kind and version, writing a checkpoint atomically, and
//! checking that parts are every slice of one split exactly once.

use std::io::Write;

use serde::Serialize;
use serde::de::DeserializeOwned;
use sha2::{Digest, Sha256};

use crate::Error;
use crate::solve::{MergeError, Shard};

/// Version of the record format of two-state searches and tables; a
/// record of another version is refused.
pub const RECORD_VERSION: u32 = 1;

/// SHA-256 of a problem's JSON after `lightsout-{kind}/{version}/`: what
/// a record's `hash` holds (for searches of either kind and for tables).
pub fn problem_hash(kind: &str, version: u32, problem: &impl Serialize) -> String {
    let text = serde_json::to_string(problem).unwrap_or_default();
    hex(&Sha256::digest(format!("lightsout-{kind}/{version}/{text}").as_bytes()))
}

pub fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// A record that carries a checksum of itself.
pub trait Sealed: Serialize + Clone {
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

/// Reads `text` as a record of kind `kind` (`search` or `table`), refusing
/// another kind, another version, or a checksum that does not hold.
pub fn parse_sealed<T: Sealed + DeserializeOwned>(text: &str, source: &str, kind: &str) -> Result<T, Error> {
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
pub fn parse_sealed_version<T: Sealed + DeserializeOwned>(
    text: &str,
    source: &str,
    kind: &str,
    versions: &[u32],
) -> Result<T, Error> {
    let version = versions.first().copied().unwrap_or(RECORD_VERSION);
    let bad = |why: String| Error::BadInput(format!("{source}: {why}"));
    let value: serde_json::Value =
        serde_json::from_str(text.trim()).map_err(|e| bad(format!("not a lightsout {kind} record ({e})")))?;
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

/// A record of long work, a search's or a distribution slice's: sealed,
/// of one kind, its problem hashed, one slice. What reading one back and
/// taking one over as a checkpoint check alike ([`parse_record`],
/// [`check_same_problem`]).
pub trait LongRecord: Sealed + DeserializeOwned {
    /// The record's kind (`search`, `hardest`).
    const KIND: &'static str;
    /// What differs in a checkpoint of another problem, in words.
    const PROBLEM_FIELDS: &'static str;

    /// Every version of this kind that this lightsout reads (the first
    /// named when none fits).
    fn versions() -> Vec<u32>;
    /// The hash the record claims for its problem.
    fn claimed_hash(&self) -> &str;
    /// The hash of its problem, computed again.
    fn hash_of_problem(&self) -> String;
    /// Every slice it names: the record's first, then its parts' (each
    /// target's search).
    fn shards(&self) -> Vec<Shard>;
    /// What else a record of this kind must hold once its seal does (a
    /// search record's version against its slices'). Nothing by default.
    ///
    /// # Errors
    /// What does not hold, naming `source`.
    fn check(&self, source: &str) -> Result<(), Error> {
        let _ = source;
        Ok(())
    }
}

/// Reads a record of long work from `source` and checks it: its kind and
/// version, its checksum, what its kind checks, its slices (each a valid
/// K/N, the record's), and its problem's hash.
///
/// # Errors
/// One line naming `source` and what does not hold.
pub fn parse_record<T: LongRecord>(text: &str, source: &str) -> Result<T, Error> {
    let record: T = parse_sealed_version(text, source, T::KIND, &T::versions())?;
    record.check(source)?;
    let shards = record.shards();
    if shards.iter().any(|shard| !shard.is_valid() || Some(shard) != shards.first()) {
        return Err(Error::BadInput(format!("{source}: its slice is not a valid K/N")));
    }
    if record.hash_of_problem() != record.claimed_hash() {
        return Err(Error::BadInput(format!("{source}: problem hash does not match its problem")));
    }
    Ok(record)
}

/// Refuses `saved`, a checkpoint read from `source`, when it is of
/// another problem than the one hashed `hash`.
///
/// # Errors
/// One line naming `source` and the fields that may differ.
pub fn check_same_problem<T: LongRecord>(saved: &T, hash: &str, source: &str) -> Result<(), Error> {
    if saved.claimed_hash() != hash {
        return Err(Error::BadInput(format!(
            "{source}: checkpoint of another problem ({} differ)",
            T::PROBLEM_FIELDS
        )));
    }
    Ok(())
}

/// Reads `text`, a checkpoint file read from `source`, to resume work on
/// the problem hashed `hash`: `None` when the file is empty (made for the
/// run before its first save, by a shell or a script), else the record as
/// [`parse_record`] reads and checks it, refused when it is of another
/// problem ([`check_same_problem`]). The one reading of a checkpoint for
/// every long run; what a kind checks besides (its slice, its searches)
/// is the kind's.
///
/// # Errors
/// One line naming `source` and what does not hold.
pub fn parse_checkpoint<T: LongRecord>(text: &str, source: &str, hash: &str) -> Result<Option<T>, Error> {
    if text.trim().is_empty() {
        return Ok(None);
    }
    let saved = parse_record(text, source)?;
    check_same_problem(&saved, hash, source)?;
    Ok(Some(saved))
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
pub fn save<T: Sealed>(record: &T, path: &std::path::Path) -> Result<(), Error> {
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
pub fn check_one_split(parts: &[(&str, &str, Shard)], differs: &str) -> Result<(), Error> {
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

pub fn coverage_error(e: &MergeError, shards: &[(String, Shard)]) -> String {
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
