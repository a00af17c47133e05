//! The page: one HTML file, one stylesheet and its JavaScript modules,
//! embedded in the binary so that `cargo install` is all a user needs.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// Scripts and styles from this server only, no inline script, no frames:
/// the page needs nothing else.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

/// The page's JavaScript modules, each served at its path: `app.js` (the
/// one the page loads) wires the page and imports the others, `state.js`
/// at the bottom. A module added to `page/` is a line here.
pub(super) const SCRIPTS: &[(&str, &str)] = &[
    ("/app.js", include_str!("page/app.js")),
    ("/state.js", include_str!("page/state.js")),
    ("/url.js", include_str!("page/url.js")),
    ("/puzzle.js", include_str!("page/puzzle.js")),
    ("/draw.js", include_str!("page/draw.js")),
    ("/client.js", include_str!("page/client.js")),
    ("/play.js", include_str!("page/play.js")),
    ("/solution.js", include_str!("page/solution.js")),
    ("/chase.js", include_str!("page/chase.js")),
    ("/quiet.js", include_str!("page/quiet.js")),
    ("/heat.js", include_str!("page/heat.js")),
    ("/settings.js", include_str!("page/settings.js")),
    ("/graph.js", include_str!("page/graph.js")),
];

fn asset(content_type: &'static str, body: &'static str) -> Response {
    (
        [
            (header::CONTENT_TYPE, content_type),
            (header::CONTENT_SECURITY_POLICY, POLICY),
            (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
            (header::CACHE_CONTROL, "no-cache"),
        ],
        body,
    )
        .into_response()
}

pub(super) async fn index() -> Response {
    asset("text/html; charset=utf-8", include_str!("page/index.html"))
}

pub(super) async fn stylesheet() -> Response {
    asset("text/css; charset=utf-8", include_str!("page/app.css"))
}

/// One of [`SCRIPTS`], with the same headers as the page.
pub(super) fn script(body: &'static str) -> Response {
    asset("text/javascript; charset=utf-8", body)
}
