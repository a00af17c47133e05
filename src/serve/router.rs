//! The routes: the page and its three assets, the four API calls, and a
//! JSON 404 for everything else.

use axum::Router;
use axum::http::{Method, Uri};
use axum::routing::{get, post};

use super::error::ApiError;
use super::work::App;
use super::{Limits, board, page, study};

/// The explorer's routes, with `limits` applied to every API request.
///
/// | route | answers |
/// | --- | --- |
/// | `GET /` | the page (`/app.css`, `/app.js` beside it) |
/// | `POST /api/solve` | as `lightsout solve --format json` |
/// | `POST /api/check` | as `lightsout check --format json` |
/// | `POST /api/analyze` | as `lightsout analyze --format json` |
/// | `POST /api/table` | the lines of `lightsout table --format json`, in an array |
pub fn router(limits: Limits) -> Router {
    Router::new()
        .route("/", get(page::index))
        .route("/app.css", get(page::stylesheet))
        .route("/app.js", get(page::script))
        .route("/api/solve", post(board::solve))
        .route("/api/check", post(board::check))
        .route("/api/analyze", post(study::analyze))
        .route("/api/table", post(study::table))
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .with_state(App::new(limits))
}

async fn not_found(uri: Uri) -> ApiError {
    ApiError::NotFound(format!("no such page or API call: {}", uri.path()))
}

async fn wrong_method(method: Method, uri: Uri) -> ApiError {
    ApiError::WrongMethod(format!(
        "{} does not take {method}: the API is POST with a JSON body, the page is GET",
        uri.path()
    ))
}
