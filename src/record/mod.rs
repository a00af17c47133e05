//! The records long work writes down, so that it can be resumed,
//! sharded and merged: the problem (everything that decides the answer),
//! its hash, the state reached, and a checksum of it all. A checkpoint is a
//! record written atomically; a shard prints one as a JSON line; `merge`
//! reads them back and checks each against the problem rebuilt from it.
//!
//! Four kinds, one seal ([`Sealed`]): two-state searches (versions 1 and
//! 3, [`search`]), K-state searches (version 2, [`states`]), table slices
//! ([`table`]) and hardest-boards distribution slices ([`hardest`]).
//! Behind the `records` feature (serde_json, sha2), which the command
//! line turns on: the server and Python could shard with the same records
//! by turning it on (Python builds without it today).

pub mod hardest;
mod problem;
mod seal;
pub mod search;
pub mod states;
pub mod table;

pub use hardest::{HardestProblem, HardestRecord};
pub use problem::{Shape, method_word, problem_error, read_puzzle};
pub use seal::{
    LongRecord, RECORD_VERSION, Sealed, check_one_split, check_same_problem, coverage_error,
    parse_checkpoint, parse_record, parse_sealed, parse_sealed_version, save,
};
pub use search::{Problem, Question, Record, RecordKind, TargetSearch, Words};
pub use states::StateProblem;
pub use table::{TableProblem, TableRecord, table_record};
