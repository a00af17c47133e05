//! The presentation layer: what the fronts say and read, so that a new
//! target word, rule name or JSON field is one edit. Names and their
//! parsers ([`parse_rule`], [`colour_targets`], …) are public and need no
//! dependency: the command line, the server and the Python binding share
//! them. The answer to a board in POJ, text and JSON (`report`) and the
//! study commands' JSON (`study`) need the `cli` feature (serde_json).
//! Below every front: it imports none.

#[cfg(feature = "cli")]
mod found;
#[cfg(feature = "cli")]
mod hardest;
mod names;
#[cfg(feature = "cli")]
mod report;
#[cfg(feature = "cli")]
mod states;
#[cfg(feature = "cli")]
mod study;

#[cfg(feature = "cli")]
pub(crate) use found::*;
#[cfg(feature = "cli")]
pub(crate) use hardest::*;
pub use names::*;
#[cfg(feature = "cli")]
pub(crate) use report::*;
#[cfg(feature = "cli")]
pub(crate) use states::*;
#[cfg(feature = "cli")]
pub(crate) use study::*;
