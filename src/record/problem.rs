//! A record's problem read back: the method word, the topology, the rule
//! and the puzzle it names, with errors that name the record's file in
//! its own words (not flags the user never gave).

use crate::present::parse_topology;
use crate::{Error, Graph, Method, Puzzle, Rule};

/// A method as records spell it: spelled out, not a Debug name, so that
/// renaming a variant does not change every record's hash.
pub fn method_word(method: Method) -> &'static str {
    match method {
        Method::Auto => "auto",
        Method::Dense => "dense",
        Method::Chase => "chase",
    }
}

/// The grid a record's problem names (a graph's puzzle ignores it).
pub struct Shape<'a> {
    pub rows: usize,
    pub cols: usize,
    pub topology: &'a str,
    pub rule: &'a str,
}

/// The puzzle and method a record's problem names, read back: the method
/// word, then the topology, the rule, and the puzzle (on the graph6 when
/// there is one); an error names `source`, the record's file.
pub fn read_puzzle(
    shape: Shape,
    method: &str,
    graph: Option<&str>,
    source: &str,
) -> Result<(Puzzle, Method), Error> {
    let wrap = problem_error(source);
    let bad = |why: String| wrap(Error::BadInput(why));
    let method = match method {
        "auto" => Method::Auto,
        "dense" => Method::Dense,
        "chase" => Method::Chase,
        other => return Err(bad(format!("has an unknown method '{other}'"))),
    };
    let topology = parse_topology(shape.topology)
        .ok_or_else(|| bad(format!("has an unknown topology '{}'", shape.topology)))?;
    let rule = Rule::from_mask(shape.rule).map_err(|e| bad(format!("has a bad rule: {e}")))?;
    let puzzle = match graph {
        Some(graph6) => Graph::parse(graph6.as_bytes(), source)
            .and_then(|graph| Puzzle::on_graph(graph, rule))
            .map_err(&wrap)?,
        None => Puzzle::new(shape.rows, shape.cols).map_err(&wrap)?.with_topology(topology).with_rule(rule),
    };
    Ok((puzzle, method))
}

/// Turns an error about a record's problem into one line naming the file
/// (`x.json: its problem has 0 rows`), in the record's words rather than
/// flags the user never gave.
pub fn problem_error(source: &str) -> impl Fn(Error) -> Error + '_ {
    move |error| {
        let why = match error {
            Error::BadSide { side, value, max } => {
                format!("has {value} {}, outside 1..={max}", side.name())
            }
            Error::Parse { message, .. } => format!("has a bad graph: {message}"),
            Error::BadInput(why) => why,
            other if other.is_limit() => return other,
            other => format!("is refused: {other}"),
        };
        Error::BadInput(format!("{source}: its problem {why}"))
    }
}
