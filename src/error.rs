//! The crate's one error type.

use std::fmt;

/// What went wrong, with a short lowercase message that quotes the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The input or the arguments are malformed (exit code 2).
    BadInput(String),
    /// The work would exceed a stated limit (exit code 3).
    Limit(String),
    /// A press set failed its own re-check: a bug, never printed as an answer
    /// (exit code 70).
    Internal(String),
}

impl Error {
    /// The process exit code for this error.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::BadInput(_) => 2,
            Error::Limit(_) => 3,
            Error::Internal(_) => 70,
        }
    }

    pub(crate) fn bad_input(message: impl Into<String>) -> Self {
        Error::BadInput(message.into())
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::BadInput(m) | Error::Limit(m) => f.write_str(m),
            Error::Internal(m) => write!(f, "internal error: {m}"),
        }
    }
}

impl std::error::Error for Error {}
