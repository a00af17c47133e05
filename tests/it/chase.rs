//! `POST /api/chase`, light chasing step by step, from a real server on
//! loopback: each step re-played here with the plus rule (every chase
//! step presses below the lights of the row above and leaves it dark; the
//! looked-up first row and the second chase clear the board), the verdict
//! against the CLI's, and the games it does not chase refused in one line.

use axum::http::StatusCode;
use lightsout::serve::Limits;
use serde_json::{Value, json};

use crate::toolbox::json_lines;

/// `POST /api/chase` to the server at `base`.
async fn post(base: &str, body: &Value) -> (StatusCode, Value) {
    crate::serve_limits::post(base, "/api/chase", body).await
}

/// A board of `b`/`w` (or `x`/`.`) rows as cells, `true` lit or pressed.
fn cells(rows: &[&str]) -> Vec<Vec<bool>> {
    rows.iter().map(|r| r.chars().map(|c| c == 'b' || c == 'x').collect()).collect()
}

fn strings(value: &Value) -> Vec<&str> {
    value.as_array().unwrap().iter().map(|v| v.as_str().unwrap()).collect()
}

/// Presses (`r`, `c`) with the plus rule on the plane.
fn press(board: &mut [Vec<bool>], r: usize, c: usize) {
    let (rows, cols) = (board.len(), board[0].len());
    for (dr, dc) in [(0, 0), (-1, 0), (1, 0), (0, -1), (0, 1)] {
        let (nr, nc) = (r as isize + dr, c as isize + dc);
        if (0..rows as isize).contains(&nr) && (0..cols as isize).contains(&nc) {
            let cell = &mut board[nr as usize][nc as usize];
            *cell = !*cell;
        }
    }
}

/// Plays one chase of the answer on `board`: step i presses row i + 1
/// where row i is lit, and leaves row i dark.
fn play_chase(board: &mut [Vec<bool>], steps: &[&str], what: &str) {
    assert_eq!(steps.len(), board.len() - 1, "{what}: one step per row below the first");
    for (i, step) in steps.iter().enumerate() {
        assert_eq!(
            cells(&[step])[0],
            board[i],
            "{what}: step {} presses below the lights of row {}",
            i + 1,
            i + 1
        );
        for (c, _) in step.match_indices('x') {
            press(board, i + 1, c);
        }
        assert!(board[i].iter().all(|&lit| !lit), "{what}: row {} still lit", i + 1);
    }
}

/// The answer for `board`, re-played: the first chase, the last row, the
/// first row, the second chase, the solution. Returns whether it cleared.
fn replay(board: &[&str], answer: &Value) -> bool {
    let what = format!("{board:?}");
    let mut lights = cells(board);
    play_chase(&mut lights, &strings(&answer["first_chase"]), &what);
    let last = answer["last_row"].as_str().unwrap();
    assert_eq!(cells(&[last])[0], *lights.last().unwrap(), "{what}: the last row");
    let Some(first) = answer["first_row"].as_str() else {
        assert!(
            answer["solution"].is_null() && strings(&answer["second_chase"]).is_empty(),
            "{what}: {answer}"
        );
        return false;
    };
    for (c, _) in first.match_indices('x') {
        press(&mut lights, 0, c);
    }
    play_chase(&mut lights, &strings(&answer["second_chase"]), &what);
    assert!(lights.iter().flatten().all(|&lit| !lit), "{what}: the second chase left lights");
    // The solution: each cell pressed an odd number of times, and it clears.
    let mut board = cells(board);
    for (r, row) in strings(&answer["solution"]).iter().enumerate() {
        for (c, _) in row.match_indices('x') {
            press(&mut board, r, c);
        }
    }
    assert!(board.iter().flatten().all(|&lit| !lit), "{what}: the solution left lights");
    let steps: usize = ["first_chase", "second_chase"]
        .iter()
        .flat_map(|k| strings(&answer[*k]))
        .chain([first])
        .map(|s| s.matches('x').count())
        .sum();
    assert_eq!(answer["presses"], steps, "{what}");
    true
}

/// Whether the CLI clears `board` to all white.
fn cli_clears(board: &[&str]) -> bool {
    let rows = board.len().to_string();
    let args = ["solve", "--format", "json", "--target", "white", "--rows", &rows];
    let answer = &json_lines(&args, &(board.join("\n") + "\n"))[0];
    answer["white"]["solvable"].as_bool().unwrap()
}

#[tokio::test]
async fn the_chase_of_a_board_clears_it_when_the_cli_can() {
    let base = crate::serve_limits::start(Limits::default()).await;
    let boards: &[&[&str]] = &[
        // The browser test's board, all black, a cross, a quiet pattern's
        // neighbour that cannot be cleared (5x5).
        &["wbbww", "wwwwb", "wbbwb", "wbwbb", "bwbbb"],
        &["bbbbb", "bbbbb", "bbbbb", "bbbbb", "bbbbb"],
        &["wwwww", "wwbww", "wbbbw", "wwbww", "wwwww"],
        &["bwwww", "wwwww", "wwwww", "wwwww", "wwwww"],
        // 4x4: every first row leaves the last row as it is.
        &["bwwb", "bbwb", "bwwb", "bwww"],
        &["bwww", "wwww", "wwww", "wwww"],
        // Other shapes: one row, one column, wide, tall.
        &["bwbbw"],
        &["b", "w", "b"],
        &["bwbwbwbw", "wwbbwwbb", "bbbwwwbw"],
        &["bw", "wb", "bb", "ww", "bw", "wb", "bb"],
    ];
    let mut cleared = 0;
    for board in boards {
        let (status, answer) = post(&base, &json!({"board": board})).await;
        assert_eq!(status, StatusCode::OK, "{board:?}: {answer}");
        assert_eq!(
            (answer["rows"].as_u64(), answer["cols"].as_u64()),
            (Some(board.len() as u64), Some(board[0].len() as u64))
        );
        let clears = replay(board, &answer);
        assert_eq!(clears, cli_clears(board), "{board:?}: {answer}");
        cleared += usize::from(clears);
    }
    assert!(cleared >= 5, "only {cleared} boards cleared");
    // The nullity is the size's, and the 5x5 lookup presses as few as it can.
    let (_, answer) = post(&base, &json!({"board": boards[0]})).await;
    assert_eq!((answer["nullity"].as_u64(), answer["last_row"].as_str()), (Some(2), Some("bwwwb")));
    assert_eq!(
        (answer["first_row"].as_str(), answer["fewest_first_row"].as_bool()),
        (Some("xx..."), Some(true))
    );
    let (_, answer) = post(&base, &json!({"board": boards[5]})).await;
    assert_eq!((answer["nullity"].as_u64(), answer["first_row"].as_str()), (Some(4), None));
}

#[tokio::test]
async fn games_that_cannot_be_chased_are_refused_in_one_line() {
    let base = crate::serve_limits::start(Limits::default()).await;
    let five = ["bbwbw", "wbbwb", "bwwbb", "wbwbw", "bbbww"];
    let cases = [
        (json!({"board": five, "rule": "king"}), StatusCode::BAD_REQUEST, "not the rule king"),
        (json!({"board": five, "torus": true}), StatusCode::BAD_REQUEST, "not a torus"),
        (json!({"board": [[1, 2, 0]], "states": 3}), StatusCode::BAD_REQUEST, "not 3 states"),
        (
            json!({"board": ["bwbwbwbwbw"], "graph": "petersen"}),
            StatusCode::BAD_REQUEST,
            "a graph has no rows",
        ),
        (json!({"board": ["bxw"]}), StatusCode::BAD_REQUEST, "'x'"),
        (json!({"board": ["b".repeat(257)]}), StatusCode::UNPROCESSABLE_ENTITY, "at most 256"),
        (json!({"board": five, "target": "white"}), StatusCode::BAD_REQUEST, "unknown field `target`"),
    ];
    for (request, status, says) in cases {
        let (got, answer) = post(&base, &request).await;
        let error = answer["error"].as_str().unwrap_or_default();
        assert_eq!(got, status, "{request}: {answer}");
        assert!(error.contains(says) && !error.contains('\n'), "{request}: {error}");
    }
    // The plus rule drawn as a mask is the classic game.
    let (status, answer) = post(&base, &json!({"board": five, "rule": "010/111/010"})).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
}
