//! The presentation layer: what the fronts say and read, so that a new
//! target word, rule name or JSON field is one edit. Names and their
//! parsers ([`parse_rule`], [`colour_targets`], …) are public and need no
//! dependency: the command line, the server and the Python binding share
//! them. The answer to a board in POJ, text and JSON (`report`), the
//! study of a size and the hardest boards in text and JSON (`study`,
//! `hardest`) need the `json` feature (serde_json alone: no clap, axum or
//! tokio), which the command line turns on.
//! Below every front: it imports none.

#[cfg(feature = "json")]
mod fields;
#[cfg(feature = "json")]
mod found;
#[cfg(feature = "json")]
mod hardest;
mod names;
#[cfg(feature = "json")]
mod report;
#[cfg(feature = "json")]
mod states;
#[cfg(feature = "json")]
mod study;
#[cfg(feature = "json")]
mod worded;

#[cfg(feature = "json")]
pub use found::*;
#[cfg(feature = "json")]
pub use hardest::*;
pub use names::*;
#[cfg(feature = "json")]
pub use report::*;
#[cfg(feature = "json")]
pub use states::*;
#[cfg(feature = "json")]
pub use study::*;
#[cfg(feature = "json")]
pub use worded::*;
