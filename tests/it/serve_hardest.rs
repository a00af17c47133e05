//! `POST /api/hardest`: the object `lightsout hardest --format json`
//! prints, its refusals, and bounds answered within the server's time.

use std::time::Duration;

use axum::Router;
use axum::http::StatusCode;
use lightsout::serve::{Limits, router};
use serde_json::{Value, json};

use crate::toolbox::json_lines;

async fn post(app: &Router, body: &Value) -> (StatusCode, Value) {
    crate::serve::post(app, "/api/hardest", body).await
}

/// What `lightsout hardest ARGS` prints.
fn cli(args: &[&str]) -> Value {
    json_lines(&[&["hardest"], args].concat(), "").remove(0)
}

#[tokio::test]
async fn hardest_answers_as_the_cli_does() {
    let app = router(Limits::default());
    let cases = [
        (json!({"rows": 5, "cols": 5, "distribution": true}), vec!["-r", "5", "-c", "5", "--distribution"]),
        (json!({"rows": 4, "cols": 4, "target": "any"}), vec!["-r", "4", "-c", "4", "-t", "any"]),
        (json!({"rows": 4, "cols": 4, "target": 1}), vec!["-r", "4", "-c", "4", "-t", "black"]),
        (
            json!({"rows": 3, "cols": 5, "torus": true, "rule": "king"}),
            vec!["-r", "3", "-c", "5", "--torus", "--rule", "king"],
        ),
        (
            json!({"graph": "petersen", "states": 3, "target": "2"}),
            vec!["--graph", "petersen", "--states", "3", "-t", "2"],
        ),
        (
            json!({"rows": 3, "cols": 3, "states": 4, "target": "any", "distribution": true}),
            vec!["-r", "3", "-c", "3", "--states", "4", "-t", "any", "--distribution"],
        ),
    ];
    for (body, args) in cases {
        let (status, served) = post(&app, &body).await;
        assert_eq!(status, StatusCode::OK, "{body}: {served}");
        assert_eq!(served, cli(&[&args[..], &["-f", "json"]].concat()), "{body}");
    }
}

#[tokio::test]
async fn bad_requests_and_limits_are_refused_with_their_reason() {
    let app = router(Limits::default());
    let refused = [
        (
            json!({"rows": 4, "cols": 4, "target": "grey"}),
            StatusCode::BAD_REQUEST,
            "expected 0 or white, 1 or black, or any",
        ),
        (
            json!({"rows": 4, "cols": 4, "target": 2}),
            StatusCode::BAD_REQUEST,
            "state 2 is not a state of this puzzle",
        ),
        (json!({"rows": 4, "cols": 4, "target": [1]}), StatusCode::BAD_REQUEST, "a state number"),
        (json!({"rows": 4}), StatusCode::BAD_REQUEST, "rows and cols"),
        (
            json!({"rows": 9, "cols": 9, "distribution": true}),
            StatusCode::UNPROCESSABLE_ENTITY,
            "work budget",
        ),
    ];
    for (body, status, needle) in refused {
        let (got, answer) = post(&app, &body).await;
        assert_eq!(got, status, "{body}: {answer}");
        assert!(answer["error"].as_str().unwrap().contains(needle), "{body}: {answer}");
    }
}

#[tokio::test]
async fn an_unsettled_size_answers_its_bounds_within_the_time_limit() {
    // 16x16 takes seconds to bound; a 2 s server answers before its limit,
    // with the bounds reached and a board needing the lower one.
    let app = router(Limits { time: Duration::from_secs(2), ..Limits::default() });
    // Answered 200, so before the limit: past it the server answers 422.
    let (status, served) = post(&app, &json!({"rows": 16, "cols": 16})).await;
    assert_eq!(status, StatusCode::OK, "{served}");
    let most = &served["most_presses"];
    assert_eq!((most["stopped"].clone(), most["exact"].clone()), (json!(true), json!(false)), "{most}");
    assert!(most["lower"].as_u64().unwrap() <= most["upper"].as_u64().unwrap());
}
