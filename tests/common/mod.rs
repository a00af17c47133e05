//! Helpers shared by the integration tests.
#![allow(dead_code)]

use std::collections::BTreeMap;

/// Reads a published table from `tests/data/` (copied from the project's
/// shared reference data): `#` comments, then `key value` lines.
pub fn table(name: &str) -> BTreeMap<i64, u64> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            (it.next().unwrap().parse().unwrap(), it.next().unwrap().parse().unwrap())
        })
        .collect()
}
