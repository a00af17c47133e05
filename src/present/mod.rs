//! The presentation layer: what the command line and the server both say
//! and read, so that a new target word, rule name or JSON field is one
//! edit. Names and parsers ([`names`]), the answer to a board in POJ, text
//! and JSON ([`report`]), and the study commands' JSON ([`study`]). Below
//! both fronts: it imports neither.

mod found;
mod names;
mod report;
mod states;
mod study;

pub(crate) use found::*;
pub(crate) use names::*;
pub(crate) use report::*;
pub(crate) use states::*;
pub(crate) use study::*;
