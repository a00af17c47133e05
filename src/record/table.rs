//! Table slices (`lightsout table --shard K/N`): the nullity of some rows
//! of a range of sizes.

use serde::{Deserialize, Serialize};

use super::seal::{RECORD_VERSION, Sealed, problem_hash};
use crate::solve::Shard;

/// What a table's slice covers: everything that decides its numbers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableProblem {
    pub rows: (usize, usize),
    pub cols: (usize, usize),
    pub topology: String,
    pub rule: String,
}

impl TableProblem {
    pub fn hash(&self) -> String {
        problem_hash("table", RECORD_VERSION, self)
    }
}

/// A slice of `lightsout table --shard K/N`: the nullity of some rows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TableRecord {
    pub lightsout: String,
    pub version: u32,
    pub hash: String,
    pub problem: TableProblem,
    pub shard: Shard,
    /// Per row of the slice (every N-th row from row K of the range), the
    /// nullity of each column.
    pub nullity: Vec<Vec<usize>>,
    pub checksum: String,
}

impl Sealed for TableRecord {
    fn checksum_mut(&mut self) -> &mut String {
        &mut self.checksum
    }
}

/// The JSON line a table's slice prints.
pub fn table_record(problem: TableProblem, shard: Shard, nullity: Vec<Vec<usize>>) -> String {
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
