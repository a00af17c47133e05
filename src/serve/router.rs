//! The routes: the page and its assets (a stylesheet and the script modules), the API calls, and a
//! JSON 404 for everything else.

use axum::Router;
use axum::extract::Request;
use axum::http::{Method, Uri, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::get;

use super::error::ApiError;
use super::work::App;
use super::{Limits, board, chase, hardest, page, study};

/// The explorer's routes, with `limits` applied to every API request.
///
/// | route | answers |
/// | --- | --- |
/// | `GET /` | the page (`/app.css`, `/app.js` and the modules it imports beside it; `/rules.js`, the model's named rules, made from its list) |
/// | `POST /api/solve` | as `lightsout solve --format json` |
/// | `POST /api/check` | as `lightsout check --format json` |
/// | `POST /api/analyze` | as `lightsout analyze --format json` |
/// | `POST /api/table` | the lines of `lightsout table --format json`, in an array |
/// | `POST /api/hardest` | as `lightsout hardest --format json` |
/// | `POST /api/chase` | light chasing step by step (the classic game only) |
///
/// With [`Limits::local_names_only`], requests naming another host than
/// `localhost`, `127.0.0.1` or `[::1]` are refused (403).
pub fn router(limits: Limits) -> Router {
    let local_names_only = limits.local_names_only;
    let mut routes = Router::new().route("/", get(page::index)).route("/app.css", get(page::stylesheet));
    for &(path, body) in page::SCRIPTS {
        routes = routes.route(path, get(move || async move { page::script(body) }));
    }
    let routes = routes.route("/rules.js", get(|| async { page::script(page::rules_module()) }));
    let routes = routes
        .route("/api/solve", board::solve())
        .route("/api/check", board::check())
        .route("/api/analyze", study::analyze())
        .route("/api/table", study::table())
        .route("/api/hardest", hardest::hardest())
        .route("/api/chase", chase::chase())
        .fallback(not_found)
        .method_not_allowed_fallback(wrong_method)
        .with_state(App::new(limits));
    if local_names_only { routes.layer(middleware::from_fn(addressed_to_this_machine)) } else { routes }
}

/// Refuses a request whose `Host` is not a name of this machine: a page
/// on another site that rebinds its own name to 127.0.0.1 (DNS
/// rebinding) must not get to read the answers. A request without `Host`
/// (HTTP/1.0) names no other site and passes.
async fn addressed_to_this_machine(request: Request, next: Next) -> Response {
    let host = request.headers().get(header::HOST).map(|h| h.to_str().unwrap_or("?").to_owned());
    if let Some(host) = host {
        // The name without its port; an IPv6 literal keeps its brackets.
        let name = match host.rsplit_once(':') {
            Some((name, port)) if port.chars().all(|c| c.is_ascii_digit()) && !name.is_empty() => name,
            _ => host.as_str(),
        };
        if !["localhost", "127.0.0.1", "[::1]"].contains(&name.to_ascii_lowercase().as_str()) {
            return ApiError::Forbidden(format!(
                "this server answers requests for localhost only, not for '{host}' (start it with --bind to serve \
                 other names)"
            ))
            .into_response();
        }
    }
    next.run(request).await
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
