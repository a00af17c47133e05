//! The table of sizes settled offline (`analysis::hardest::SETTLED`): every
//! entry's board solved again, the server answering a shipped size exact
//! within its limit; and why bounds were left apart (`"stop"`) in the JSON.

use std::time::Duration;

use axum::http::StatusCode;
use lightsout::analysis::hardest::SETTLED;
use lightsout::analysis::{Bound, Goal, HardestOptions, How, hardest, hardest_settled};
use lightsout::serve::Limits;
use lightsout::{Board, Game, Method, Puzzle, Solver, Target};
use serde_json::{Value, json};

use crate::toolbox::{json_lines, run};

fn solver(rows: usize, cols: usize) -> Solver {
    Solver::new(&Puzzle::new(rows, cols).unwrap(), Method::Auto, 64).unwrap()
}

fn target(state: u8) -> Target {
    if state == 0 { Target::White } else { Target::Black }
}

/// Every entry: its board needs exactly the entry's presses, proven by the
/// exhaustive engine, both through `hardest_settled` and solved here.
#[test]
fn every_entry_is_certified_by_the_exhaustive_engine() {
    assert!(!SETTLED.is_empty());
    for entry in SETTLED {
        let what = format!("{}x{} to {}", entry.rows, entry.cols, entry.target);
        let game = solver(entry.rows, entry.cols);
        let h = hardest_settled(&game, Goal::State(entry.target)).unwrap().expect(&what);
        assert_eq!(
            (h.lower, h.upper, h.how),
            (Some(entry.most_presses), entry.most_presses, How::Table),
            "{what}"
        );
        assert_eq!((h.lower_from, h.upper_from), (Some(Bound::Table), Bound::Table), "{what}");
        assert!(h.exact() && h.stop().is_none() && h.distribution.is_none(), "{what}");
        // Solved apart from the table's own check: the entry's cells, row by row.
        let board = h.board.expect("a board");
        assert_eq!(board.cell_values(), entry.cells(), "{what}");
        let solution = game.solve_for(&board, &target(entry.target)).unwrap().expect("solvable");
        assert!(solution.proven_minimal, "{what}");
        assert_eq!(solution.presses.presses(), entry.most_presses, "{what}");
        game.check(&board, &solution.presses, &target(entry.target)).unwrap();
    }
}

/// The table holds what `hardest` proves by default, board and all: the
/// proof the shipped answer stands on, run again (about 20 CPU-s an entry).
#[test]
#[ignore = "about 20 CPU-s an entry: cargo test --release --test it settled:: -- --ignored"]
fn every_entry_is_what_hardest_proves_by_default() {
    for entry in SETTLED {
        let what = format!("{}x{} to {}", entry.rows, entry.cols, entry.target);
        let game = solver(entry.rows, entry.cols);
        let goal = Goal::State(entry.target);
        let proven = hardest(&game, goal, &HardestOptions::default(), &Default::default()).unwrap();
        assert_eq!(
            (proven.lower, proven.upper, proven.how),
            (Some(entry.most_presses), entry.most_presses, How::Search),
            "{what}"
        );
        assert_eq!(proven.board.expect("a board").cell_values(), entry.cells(), "{what}");
    }
}

/// `POST /api/hardest` to a server on a free port of this machine, over
/// a real socket: the status and the answer.
async fn post(limits: Limits, body: &Value) -> (StatusCode, Value) {
    let url = crate::serve_limits::start(limits).await;
    crate::serve_limits::post(&url, "/api/hardest", body).await
}

/// 9x9 (its proof about 20 CPU-s) is 37, exact, from a server (over
/// 127.0.0.1) whose limit is one second: answered 200 (past the limit it answers 422), from the
/// table, with the board `hardest -f json` proves by default (pinned in
/// the table: the same cells), and the same everywhere else but `how`.
#[tokio::test]
async fn the_server_answers_a_shipped_size_exact_within_its_limit() {
    let limits = Limits { time: Duration::from_secs(1), ..Limits::default() };
    for entry in SETTLED {
        let body = json!({"rows": entry.rows, "cols": entry.cols, "target": entry.target});
        let (status, served) = post(limits.clone(), &body).await;
        assert_eq!(status, StatusCode::OK, "{body}: {served}");
        let most = &served["most_presses"];
        assert_eq!(most["lower"], json!(entry.most_presses), "{most}");
        assert_eq!(most["upper"], json!(entry.most_presses), "{most}");
        assert_eq!((&most["exact"], &most["how"]), (&json!(true), &json!("shipped table")), "{most}");
        assert_eq!((&most["stopped"], &most["stop"]), (&json!(false), &Value::Null), "{most}");
        let provenance = most["provenance"].as_str().unwrap();
        assert!(provenance.contains("offline by the leader program") && provenance.contains("docs/study.md"));
        let lit: Vec<Vec<u8>> = most["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|row| row.as_str().unwrap().bytes().map(|c| u8::from(c == b'b')).collect())
            .collect();
        assert_eq!(lit.concat(), entry.cells(), "{body}");
    }
    // Asked for the distribution, the table does not answer: refused as before.
    let (status, served) = post(limits.clone(), &json!({"rows": 9, "cols": 9, "distribution": true})).await;
    assert_eq!(status, StatusCode::UNPROCESSABLE_ENTITY, "{served}");
    // A size the table does not hold is searched, as before.
    let (status, served) = post(limits, &json!({"rows": 4, "cols": 4})).await;
    assert_eq!((status, &served["most_presses"]["how"]), (StatusCode::OK, &json!("search")), "{served}");
}

/// The CLI proves, the table is the server's: `hardest -r 9 -c 9` with a
/// budget too small for the proof gives bounds (it does not read the table).
#[test]
fn the_cli_does_not_answer_from_the_table() {
    let [answer] = &json_lines(&["hardest", "-r", "9", "-c", "9", "--max-work", "1e8", "-f", "json"], "")[..]
    else {
        panic!("one answer")
    };
    let most = &answer["most_presses"];
    assert_ne!(most["how"], json!("shipped table"), "{most}");
    assert_eq!(most["exact"], json!(false), "{most}");
}

/// Why bounds were left apart, in the JSON as the text says it: a stall
/// (16x16 on a small budget: its patience, 1/32 of it, runs out), the
/// budget (61x61, nullity 40: no exact method applies), the time limit;
/// and `null` when exact.
#[test]
fn the_json_says_why_the_bounds_were_left_apart() {
    let cases: [(&[&str], Value, &str); 4] = [
        (&["-r", "16", "-c", "16", "--max-work", "1e9"], json!("stalled"), "without progress"),
        (&["-r", "61", "-c", "61"], json!("budget"), "do not finish within the work budget"),
        (
            &["-r", "16", "-c", "16", "--time-limit", "0.2"],
            json!("interrupted"),
            "stopped before the bounds met",
        ),
        (&["-r", "5", "-c", "5"], Value::Null, "proven"),
    ];
    for (args, stop, words) in cases {
        let [answer] = &json_lines(&[&["hardest"], args, &["-f", "json"]].concat(), "")[..] else {
            panic!("one answer")
        };
        let most = &answer["most_presses"];
        assert_eq!(most["stop"], stop, "{args:?}: {most}");
        assert_eq!(most["stopped"], json!(stop == json!("interrupted")), "{args:?}: {most}");
        let (text, _, code) = run(&[&["hardest"], args].concat(), "");
        assert_eq!(code, 0, "{args:?}");
        assert!(text.lines().nth(1).unwrap().contains(words), "{args:?}: {text}");
    }
}
