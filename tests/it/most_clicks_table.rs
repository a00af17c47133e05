//! A handful of docs/study.md's table of Most Clicks (every n x n to 128 by
//! default, issue 34 item 5), pinned from the binary: the fast entries, each
//! proven, with a board that `lightsout` itself solves again in exactly
//! that many presses. (The table's second checks are CP-SAT and the family
//! formula: scripts/oracle/test_most_clicks_table.py, tests/it/families.rs.)

use crate::toolbox::{json, run};

/// `(n, Most Clicks)`: nullity 2, 4 and 6 of the families of 4x4, 5x5 and
/// 11x11, settled by the parity in milliseconds; and 127 (nullity 0: n²).
const PINNED: [(usize, u64); 8] =
    [(11, 65), (14, 123), (24, 375), (35, 721), (41, 1191), (83, 4145), (124, 10375), (127, 16129)];

#[test]
fn the_fast_entries_of_the_table_are_proven_and_their_boards_need_them() {
    for (n, most) in PINNED {
        let size = n.to_string();
        let (out, err, code) = run(&["hardest", "-r", &size, "-c", &size, "-f", "json"], "");
        assert_eq!(code, 0, "{n}x{n}: {err}");
        let found = &json(&out)["most_presses"];
        assert_eq!(found["exact"], true, "{n}x{n}: {found}");
        assert_eq!(found["lower"].as_u64(), Some(most), "{n}x{n}");
        let board: String = found["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string() + "\n")
            .collect();
        let (presses, err, code) = run(&["-r", &size, "-c", &size, "-t", "white"], &board);
        assert_eq!(code, 0, "{n}x{n}: {err}");
        assert_eq!(presses.trim(), most.to_string(), "{n}x{n}: the board solved again");
    }
}
