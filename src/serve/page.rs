//! The page: one HTML file, one stylesheet and one JavaScript module,
//! embedded in the binary so that `cargo install` is all a user needs.

use axum::http::header;
use axum::response::{IntoResponse, Response};

/// Scripts and styles from this server only, no inline script, no frames:
/// the page needs nothing else.
const POLICY: &str = "default-src 'self'; img-src 'self' data:; frame-ancestors 'none'";

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

pub(super) async fn script() -> Response {
    asset("text/javascript; charset=utf-8", include_str!("page/app.js"))
}
