//! The API's one error type, mapped to status codes here and nowhere else.

use axum::Json;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde_json::json;

use crate::Error;
use crate::present::format_bytes;

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
            e @ Error::DistributionPastBudget { .. } => ApiError::limit("work", e.to_string()),
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
