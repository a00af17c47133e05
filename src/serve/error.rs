//! The API's one error type, mapped to status codes here and nowhere else,
//! and the JSON body extractor that turns every way a body can be wrong
//! into one.

use axum::Json;
use axum::body::Bytes;
use axum::extract::{FromRequest, Request};
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};
use serde::de::DeserializeOwned;
use serde_json::json;

use super::work::App;
use crate::Error;
use crate::cli::format_bytes;

/// Why a request got no answer. The body is `{"error": message}`, with
/// `"limit": name` when a stated limit refused it.
#[derive(Debug)]
pub(super) enum ApiError {
    /// Malformed JSON, a wrong shape, an unknown field, a bad board (400).
    BadRequest(String),
    /// The body is not declared as JSON (415).
    NotJson,
    /// Addressed to a name that is not this machine's (403).
    Forbidden(String),
    /// No such route (404).
    NotFound(String),
    /// A route that takes another method (405).
    WrongMethod(String),
    /// A stated limit refused the request; `limit` names it (413 for the
    /// body, 422 for the work asked for).
    Limit { limit: &'static str, message: String },
    /// Every job slot stayed busy for the whole time limit (503).
    Busy(String),
    /// A bug: a failed re-check or a panic in the work (500).
    Internal(String),
}

impl ApiError {
    pub(super) fn limit(limit: &'static str, message: impl Into<String>) -> Self {
        ApiError::Limit { limit, message: message.into() }
    }

    pub(super) fn bad(message: impl Into<String>) -> Self {
        ApiError::BadRequest(message.into())
    }

    /// The status code of each kind of error: the one place they are chosen.
    fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::NotJson => StatusCode::UNSUPPORTED_MEDIA_TYPE,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::WrongMethod(_) => StatusCode::METHOD_NOT_ALLOWED,
            ApiError::Limit { limit: "body_bytes", .. } => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::Limit { .. } => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }
}

impl From<Error> for ApiError {
    /// A memory estimate over the server's limit names it; other limits are
    /// the work a table may take; all else is the request's bad input.
    fn from(e: Error) -> Self {
        match e {
            Error::Memory { work, needed, limit } => ApiError::limit(
                "memory",
                format!(
                    "{work} needs about {}, over the server's memory limit {}; ask for a smaller size",
                    format_bytes(needed),
                    format_bytes(limit)
                ),
            ),
            Error::Limit(m) => ApiError::limit("work", m),
            Error::Internal(m) => ApiError::Internal(m),
            other => ApiError::BadRequest(other.to_string()),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let status = self.status();
        let body = match self {
            ApiError::Limit { limit, message } => json!({"error": message, "limit": limit}),
            ApiError::NotJson => {
                json!({"error": "send the request body as JSON (Content-Type: application/json)"})
            }
            ApiError::BadRequest(m)
            | ApiError::Forbidden(m)
            | ApiError::NotFound(m)
            | ApiError::WrongMethod(m)
            | ApiError::Busy(m) => {
                json!({"error": m})
            }
            ApiError::Internal(m) => json!({"error": format!("internal error: {m}")}),
        };
        (status, Json(body)).into_response()
    }
}

/// A JSON request body, read up to [`super::Limits::body_bytes`] and parsed into
/// `T` (whose fields are `deny_unknown_fields`), with every failure an
/// [`ApiError`] that says what was wrong and where.
pub(super) struct ApiJson<T>(pub(super) T);

impl<T: DeserializeOwned> FromRequest<App> for ApiJson<T> {
    type Rejection = ApiError;

    async fn from_request(request: Request, app: &App) -> Result<Self, ApiError> {
        let limits = &app.limits;
        // Requiring the JSON type also makes a browser ask before sending
        // a request from another site (a CORS preflight this server never
        // approves).
        let is_json =
            request.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|v| {
                v.split(';').next().is_some_and(|t| t.trim().eq_ignore_ascii_case("application/json"))
            });
        if !is_json {
            return Err(ApiError::NotJson);
        }
        let too_large = || {
            ApiError::limit(
                "body_bytes",
                format!("the request body is larger than {} bytes", limits.body_bytes),
            )
        };
        let declared =
            request.headers().get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()?.parse().ok());
        if declared.is_some_and(|n: usize| n > limits.body_bytes) {
            return Err(too_large());
        }
        let bytes: Bytes =
            axum::body::to_bytes(request.into_body(), limits.body_bytes).await.map_err(|_| too_large())?;
        serde_json::from_slice(&bytes).map(ApiJson).map_err(|e| ApiError::bad(format!("request body: {e}")))
    }
}
