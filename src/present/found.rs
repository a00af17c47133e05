//! How a press set was found, in words: the notes on answers not proven
//! minimal that the fronts print.

use std::time::Duration;

use crate::FoundBy;
use crate::solve::{Start, SymmetricSearch};

/// The start of a search over symmetric solutions, named.
pub fn start_words(start: Start) -> &'static str {
    match start {
        Start::Particular => "the particular solution",
        Start::LocalSearch => "a local search",
        Start::Descent => "a descent over whole patterns",
    }
}

/// What a search over the symmetric solutions did ("an exhaustive search of
/// the 2^32 solutions the half turn fixes, then a local search over all
/// solutions").
pub fn symmetric_words(found: &SymmetricSearch) -> String {
    let mut words = match found.space {
        Some(space) => {
            let how = if space.exhaustive { "an exhaustive search of" } else { "a local search inside" };
            format!("{how} the 2^{} solutions the {} fixes", space.dimension, space.motion_names())
        }
        None => start_words(found.start).to_string(),
    };
    if found.polished {
        words += ", then a local search over all solutions";
    }
    words
}

/// What a lower bound beside an answer not proven minimal is: the
/// coset's bound (the cells that flip together keep the lighter side of
/// each group pressed, rounded up to the members' parity), cheap and weak.
pub const GROUP_BOUND: &str = ", a weak bound from the cells that flip together";

/// How a press set not proven minimal was found, with its lower bound
/// where the search says more than its nullity does ("found by … ; lower
/// bound 2113"); `None` for a plain local search.
pub fn found_by_words(found: &FoundBy, lower_bound: u64) -> Option<String> {
    match found {
        FoundBy::Search => None,
        FoundBy::Symmetric(s) => {
            Some(format!("found by {}; lower bound {lower_bound}{GROUP_BOUND}", symmetric_words(s)))
        }
        FoundBy::Stopped { members_searched, start, start_overran } => {
            let how = match start {
                Some(s) => format!(
                    "found by {} before an exhaustive search, which stopped after {members_searched} members",
                    symmetric_words(s)
                ),
                None => format!(
                    "found by an exhaustive search stopped after {members_searched} members and a local search"
                ),
            };
            Some(format!("{how}{}; lower bound {lower_bound}{GROUP_BOUND}", overran_words(*start_overran)))
        }
        FoundBy::NotSearched => {
            Some("not searched for fewer presses: the time ran out before this target's turn".into())
        }
    }
}

/// Said when a time limit was shorter than the search of the symmetric
/// solutions that a time-limited search begins with (which ran whole).
pub fn overran_words(overran: Option<Duration>) -> String {
    overran.map_or_else(String::new, |took| {
        format!(
            "; the time limit was shorter than the search of the symmetric solutions it began with ({:.1} s)",
            took.as_secs_f64()
        )
    })
}
