//! `lightsout serve` against its time limit, over real sockets: work past
//! the limit gives its job slot back by the deadline, so the next request
//! is answered (issue 22 item 1, issue 25 item 2), and the request shapes
//! of issue 25 item 9.

use std::time::Duration;

use axum::body::Bytes;
use axum::http::{Request, StatusCode, header};
use http_body_util::{BodyExt, Full};
use lightsout::serve::{Limits, serve};
use serde_json::{Value, json};

type Client =
    hyper_util::client::legacy::Client<hyper_util::client::legacy::connect::HttpConnector, Full<Bytes>>;

/// A server with `limits` on a free port of this machine, and its URL.
/// A server on a free port of 127.0.0.1 with `limits`, for the rest of
/// the test: its URL.
pub(crate) async fn start(limits: Limits) -> String {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let address = listener.local_addr().unwrap();
    tokio::spawn(serve(listener, limits, std::future::pending()));
    format!("http://{address}")
}

fn client() -> Client {
    hyper_util::client::legacy::Client::builder(hyper_util::rt::TokioExecutor::new()).build_http()
}

/// POSTs `body` to `url` + `path`: the status and the answer as JSON.
pub(crate) async fn post(url: &str, path: &str, body: &Value) -> (StatusCode, Value) {
    let request = Request::post(format!("{url}{path}"))
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_string())))
        .unwrap();
    let response = client().request(request).await.unwrap();
    let status = response.status();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, serde_json::from_slice(&bytes).unwrap_or_else(|e| panic!("{path}: not JSON ({e})")))
}

/// A board of `k` states that can be cleared: random presses (seeded)
/// from all 0 with the plus rule, as the page's *Random solvable* makes.
fn solvable_board(rows: usize, cols: usize, k: u64, seed: u64) -> Vec<Vec<u64>> {
    let mut state = seed;
    let mut next = || {
        state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (state >> 33) % k
    };
    let mut board = vec![vec![0; cols]; rows];
    for r in 0..rows {
        for c in 0..cols {
            let n = next();
            for (dr, dc) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (rr, cc) = (r as isize + dr, c as isize + dc);
                if (0..rows as isize).contains(&rr) && (0..cols as isize).contains(&cc) {
                    let cell = &mut board[rr as usize][cc as usize];
                    *cell = (*cell + n) % k;
                }
            }
        }
    }
    board
}

const SAMPLE: [&str; 4] = ["bwwb", "bbwb", "bwwb", "bwww"];

/// Regression (issue 22 item 1): a K-state solve over every target ran
/// its searches to their end, minutes past the time limit, holding its job
/// slot: after two of them the server answered every request 503 (busy).
/// Now each search stops a little before the deadline and answers the
/// lightest found, so the slots are free when the answers come.
#[tokio::test]
async fn regression_solves_past_the_time_limit_give_their_slots_back() {
    // The limit leaves room for what no stop check cuts short (the
    // factoring of 128x128 over Z_232, about a second idle, several at a
    // load of 10 on two cores, where 3 s was answered 422 now and then).
    let time = Duration::from_secs(6);
    let url = start(Limits { jobs: 2, time, ..Limits::default() }).await;
    // 128x128 over Z_232 to any state: 116 reachable targets, each a local
    // search of about 0.12 s on an idle core, 14 s in all.
    let long = |seed| {
        let url = url.clone();
        let body = json!({"board": solvable_board(128, 128, 232, seed), "states": 232, "target": "any"});
        tokio::spawn(async move { post(&url, "/api/solve", &body).await })
    };
    // No bound in seconds (it would fail on a loaded machine): the status
    // says the order. The server answers 422 at the deadline to work still
    // running, and 503 to a request that found no free slot by its own.
    let (first, second) = (long(1), long(2));
    for (status, body) in [first.await.unwrap(), second.await.unwrap()] {
        // Answered within the limit, with what the searches found in time.
        assert_eq!(status, StatusCode::OK, "{body}");
        assert!(body["best"]["presses"].as_u64().is_some(), "{body}");
    }
    // A slot of the long lane came free within the request's own limit
    // (a small two-state solve has a lane of its own).
    let (status, body) = post(&url, "/api/analyze", &json!({"rows": 4, "cols": 4})).await;
    assert_eq!((status, body["nullity"].as_u64()), (StatusCode::OK, Some(4)), "{body}");
}

/// Regression (issue 22 item 1): the K-state analysis searched a light
/// quiet pattern from each of its 144 generators (256x256 over Z_232),
/// minutes with no stop check. Now it stops by the deadline and the slot
/// serves the next request.
#[tokio::test]
async fn regression_an_analysis_past_the_time_limit_gives_its_slot_back() {
    let time = Duration::from_secs(3);
    let url = start(Limits { jobs: 1, time, ..Limits::default() }).await;
    let (status, body) = post(&url, "/api/analyze", &json!({"rows": 256, "cols": 256, "states": 232})).await;
    assert!(status == StatusCode::OK || status == StatusCode::UNPROCESSABLE_ENTITY, "{status}: {body}");
    // Answered, not refused as busy: the slot came free within its limit
    // (asked in the long lane: a small two-state solve has its own).
    let (status, body) = post(&url, "/api/analyze", &json!({"rows": 4, "cols": 4})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// The page's request of issue 22 item 1: *Random solvable* on 256x256
/// with 232 states, *Solve* to any state. It ran 3 to 5 minutes and was
/// answered 422 at 15 s; now it is answered within the server's limit
/// with the lightest press sets found in time.
#[tokio::test]
async fn the_pages_any_state_solve_of_256x256_over_z232_answers_within_the_limit() {
    let url = start(Limits::default()).await;
    let body = json!({"board": solvable_board(256, 256, 232, 7), "target": "any", "rule": "plus",
        "torus": false, "states": 232});
    // Answered 200, so within the limit: past it the server answers 422.
    let (status, answer) = post(&url, "/api/solve", &body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let best = answer["best"]["target"].as_u64().unwrap();
    let entry = answer["targets"].as_array().unwrap().iter().find(|t| t["target"] == best).unwrap();
    assert_eq!(entry["solvable"], true);
    assert_eq!(entry["presses"], answer["best"]["presses"]);
}

/// Issue 25 item 2: a 9x9 board already all 0 over Z_128 answers 0
/// presses, proven; the analysis of its size is answered.
#[tokio::test]
async fn a_board_already_at_its_target_answers_no_presses() {
    let url = start(Limits::default()).await;
    let zeros = vec![vec![0; 9]; 9];
    let (status, body) = post(&url, "/api/solve", &json!({"board": zeros, "states": 128, "target": 0})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(
        (body["best"]["presses"].as_u64(), &body["targets"][0]["proven_minimal"]),
        (Some(0), &json!(true))
    );
    let (status, body) = post(&url, "/api/analyze", &json!({"rows": 9, "cols": 9, "states": 128})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body["kernel_size"], "16777216");
}

/// Regression (issue 25 item 9): a one-vertex graph's board of 200 states
/// was refused with a hint naming `--rows N --cols 1` (it was read before
/// the graph gave its width); a row of 100 three-digit states was refused
/// as 399 wide (bytes, not cells); a built-in graph was built before it was
/// sized (`complete:5793`, 16.8 million edges, took the server to 290 MB).
#[tokio::test]
async fn regression_graph_boards_rows_of_numbers_and_named_graphs_are_sized_as_the_cli_reads_them() {
    let url = start(Limits::default()).await;
    let (status, body) =
        post(&url, "/api/solve", &json!({"board": "100", "graph": "path:1", "states": 200})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    // One press of the vertex adds 1: 100 more reach 200 = 0.
    assert_eq!(body["targets"][0]["presses"], 100, "{body}");
    let (status, body) = post(&url, "/api/solve", &json!({"board": ["100", "5"], "states": 200})).await;
    assert_eq!((status, &body["cols"]), (StatusCode::OK, &json!(1)), "{body}");

    let row = vec!["100"; 100].join(" ");
    let (status, body) = post(&url, "/api/solve", &json!({"board": [row], "states": 200})).await;
    assert_eq!((status, &body["cols"]), (StatusCode::OK, &json!(100)), "{body}");
    let wide = vec!["1"; 257].join(" ");
    let (status, body) = post(&url, "/api/solve", &json!({"board": [wide], "states": 200})).await;
    assert_eq!((status, &body["limit"]), (StatusCode::UNPROCESSABLE_ENTITY, &json!("side")), "{body}");
    assert!(body["error"].as_str().unwrap().contains("is 257;"), "{body}");

    for (graph, limit, says) in [
        ("complete:5793", "graph_edges", "complete:5793 has 16776528 edges"),
        ("hypercube:17", "side", "vertex count is 131072"),
        ("cycle:70000", "side", "vertex count is 70000"),
    ] {
        let (status, body) = post(&url, "/api/analyze", &json!({"graph": graph})).await;
        assert_eq!((status, &body["limit"]), (StatusCode::UNPROCESSABLE_ENTITY, &json!(limit)), "{body}");
        assert!(body["error"].as_str().unwrap().contains(says), "{body}");
    }
    let (status, body) = post(&url, "/api/analyze", &json!({"graph": "complete:1000"})).await;
    assert_eq!((status, &body["graph"]["edges"]), (StatusCode::OK, &json!(499500)), "{body}");
}

/// Issue 32 item 2: two long solves held both job slots and every 4x4
/// solve meanwhile waited for one (12.5–13.5 s behind `/api/hardest`, a
/// 503 behind 220x256 K-state solves). Small two-state boards have a lane
/// of their own: the 4x4 is answered while both long solves still run.
/// Checked by the order of events, not by a time: with one lane, the 4x4
/// would wait for a slot until a long solve ended (or its own limit, a
/// 503).
#[tokio::test]
async fn a_small_solve_is_answered_while_long_work_holds_every_slot() {
    let limits = Limits { jobs: 2, time: Duration::from_secs(60), max_nullity: 40, ..Limits::default() };
    let url = start(limits).await;
    // 61x61 searched exhaustively to its nullity 40: 2^40 press sets, a
    // minute on two idle cores (a K-state solve of 128x128 over Z_232, the
    // first such request, now factors in a second).
    let long = |seed| {
        let url = url.clone();
        let body = json!({"board": solvable_board(61, 61, 2, seed), "target": "white", "max_nullity": 40});
        tokio::spawn(async move { post(&url, "/api/solve", &body).await })
    };
    let (first, second) = (long(1), long(2));
    // Both requests have sent their bodies and started (at most 2 s here
    // even under load); then every slot of the long lane is held.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let (status, body) = post(&url, "/api/solve", &json!({"board": SAMPLE})).await;
    assert_eq!((status, body["best"]["presses"].as_u64()), (StatusCode::OK, Some(4)), "{body}");
    assert!(!first.is_finished() && !second.is_finished(), "the 4x4 was answered after a long solve ended");
    // The long requests go; their work stops with them (abandoned).
    first.abort();
    second.abort();
}

/// Issue 32 item 2: a K-state table (61 bytes of request) was answered 422
/// at its limit while two server threads ran on at full CPU for about
/// 3.5 min, each size an elimination over Z_7 of seconds; its estimate
/// (two-state word operations) passed the table budget. It is now priced
/// by what its eliminations cost, in CPU-seconds, and refused up front in
/// one line with that estimate when it cannot finish within the time
/// limit: no job slot is taken, so the next request is answered at once.
#[tokio::test]
async fn a_k_state_table_that_cannot_finish_in_time_is_refused_up_front() {
    let url = start(Limits { jobs: 1, time: Duration::from_secs(15), ..Limits::default() }).await;
    let table = json!({"rows": 256, "cols": "1..64", "rule": "king", "torus": true, "states": 7});
    let (status, body) = post(&url, "/api/table", &table).await;
    assert_eq!((status, &body["limit"]), (StatusCode::UNPROCESSABLE_ENTITY, &json!("table_work")), "{body}");
    let error = body["error"].as_str().unwrap();
    assert!(
        error.starts_with("a table of 64 sizes up to 256x64 over Z_7 with this rule needs about "),
        "{error}"
    );
    assert!(error.ends_with("CPU-s of elimination by the estimate (each size's press matrix passed over), more than the server's time limit of 15 s; narrow the ranges"), "{error}");
    assert!(!error.contains('\n'), "one line: {error}");
    // What fits is answered: every size up to 12x12 (estimated a few
    // milliseconds), the kernel's size of each.
    let small = json!({"rows": "1..12", "cols": "1..12", "rule": "king", "torus": true, "states": 7});
    let (status, body) = post(&url, "/api/table", &small).await;
    assert_eq!(status, StatusCode::OK, "{body}");
    assert_eq!(body.as_array().map(Vec::len), Some(144), "{body}");
    let (status, body) = post(&url, "/api/analyze", &json!({"rows": 5, "cols": 5})).await;
    assert_eq!(status, StatusCode::OK, "{body}");
}

/// Issue 32 item 2: one K-state size's factoring could not be stopped, so
/// the work outlived its request's 422 by seconds (96x96 with the king
/// rule on a torus over Z_7: an elimination of 9,216 unknowns and 380
/// quiet patterns, 5.4 CPU-s). The elimination now asks its stop every
/// few milliseconds, a little before the deadline, and the job ends then:
/// its slot is free when the 422 comes. With one slot, the next request
/// is answered at once (200), where the running work made it wait for a
/// slot past its own limit (503). An order of events, not a time.
#[tokio::test]
async fn a_k_state_factoring_past_its_limit_stops_before_its_answer() {
    let time = Duration::from_secs(1);
    let url = start(Limits { jobs: 1, time, ..Limits::default() }).await;
    let zeros = vec!["0".repeat(96); 96];
    let solve = json!({"board": zeros, "states": 7, "rule": "king", "torus": true, "target": 0});
    let (status, body) = post(&url, "/api/solve", &solve).await;
    assert_eq!((status, &body["limit"]), (StatusCode::UNPROCESSABLE_ENTITY, &json!("time")), "{body}");
    let (status, body) = post(&url, "/api/analyze", &json!({"rows": 5, "cols": 5})).await;
    assert_eq!(status, StatusCode::OK, "the factoring still held the one slot: {body}");
}
