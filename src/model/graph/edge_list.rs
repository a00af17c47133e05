//! Edge lists: one edge `u v` a line, with an optional first line giving
//! the vertex count.

use std::fmt::Write as _;

use super::{Graph, MAX_EDGES, MAX_VERTICES, check_vertices, vertices};

impl Graph {
    /// The graph as an edge list: a first line with the vertex count, then
    /// one edge `u v` a line (`u < v`, in increasing order), each line
    /// ended by `\n`: what [`parse`](Self::parse) reads back.
    ///
    /// # Example
    /// ```
    /// use lightsout::Graph;
    ///
    /// assert_eq!(Graph::named("path:3")?.to_edge_list(), "3\n0 1\n1 2\n");
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn to_edge_list(&self) -> String {
        let mut out = format!("{}\n", self.vertex_count());
        for (u, v) in self.edges() {
            // Writing to a String cannot fail.
            let _ = writeln!(out, "{u} {v}");
        }
        out
    }
}

/// Reads an edge list (see [`Graph::parse`]).
pub(super) fn read_edge_list(input: &[u8]) -> Result<Graph, String> {
    let mut list = EdgeList::default();
    for (index, raw) in input.split(|&b| b == b'\n').enumerate() {
        let line = index + 1;
        let data = &raw[..memchr::memchr(b'#', raw).unwrap_or(raw.len())];
        let tokens = tokens(data);
        match tokens.len() {
            0 => continue,
            1 if !list.seen_line => list.count = Some((vertex_count(tokens[0], line)?, line)),
            2 => list.add(vertex(tokens[0], line)?, vertex(tokens[1], line)?, line)?,
            found => {
                return Err(format!(
                    "line {line} has {found} {} but an edge is two vertices 'u v'{}",
                    if found == 1 { "number" } else { "numbers" },
                    if found == 1 { " (a vertex count may only be the first line)" } else { "" }
                ));
            }
        }
        list.seen_line = true;
    }
    list.graph()
}

/// An edge list as read so far.
#[derive(Default)]
struct EdgeList {
    /// The vertex count and the line that gives it.
    count: Option<(usize, usize)>,
    /// Whether a line other than blanks and comments was read.
    seen_line: bool,
    largest: Option<usize>,
    edges: Vec<(u32, u32)>,
}

impl EdgeList {
    /// Adds edge `u v` of `line`, checked against the vertex count given.
    fn add(&mut self, u: usize, v: usize, line: usize) -> Result<(), String> {
        if u == v {
            return Err(format!("edge {u} {v} at line {line} is a self-loop"));
        }
        if let Some((n, given)) = self.count.filter(|&(n, _)| u.max(v) >= n) {
            return Err(format!(
                "edge {u} {v} at line {line} names vertex {} but line {given} gives {}",
                u.max(v),
                vertices(n)
            ));
        }
        if self.edges.len() == 2 * MAX_EDGES {
            // Repeated edges count once, but the list is held first.
            return Err(format!("more than {} edges by line {line}", 2 * MAX_EDGES));
        }
        self.largest = self.largest.max(Some(u.max(v)));
        self.edges.push((u as u32, v as u32));
        Ok(())
    }

    /// The graph: on the vertices given, else up to the largest named.
    fn graph(self) -> Result<Graph, String> {
        if !self.seen_line {
            return Err("no graph in input".into());
        }
        let n = self.count.map_or(self.largest.map_or(0, |v| v + 1), |(n, _)| n);
        Graph::build(n, self.edges).checked()
    }
}

/// The tokens of a line (comment cut off), with their 1-based columns.
fn tokens(data: &[u8]) -> Vec<(&[u8], usize)> {
    let mut tokens = Vec::with_capacity(2);
    let mut i = 0;
    while i < data.len() {
        if matches!(data[i], b' ' | b'\t' | b'\r') {
            i += 1;
            continue;
        }
        let from = i;
        while i < data.len() && !matches!(data[i], b' ' | b'\t' | b'\r') {
            i += 1;
        }
        tokens.push((&data[from..i], from + 1));
    }
    tokens
}

/// A vertex token at `line` as its number, below [`MAX_VERTICES`].
fn vertex((token, column): (&[u8], usize), line: usize) -> Result<usize, String> {
    let text = String::from_utf8_lossy(token);
    if !token.iter().all(u8::is_ascii_digit) {
        return Err(format!("invalid vertex '{text}' at line {line}, column {column} (expected a number)"));
    }
    match text.parse::<usize>() {
        Ok(v) if v < MAX_VERTICES => Ok(v),
        _ => Err(format!(
            "vertex {text} at line {line}, column {column} is more than the limit of {}",
            MAX_VERTICES - 1
        )),
    }
}

/// The vertex count a first line gives, checked against the limit.
fn vertex_count((token, column): (&[u8], usize), line: usize) -> Result<usize, String> {
    let text = String::from_utf8_lossy(token);
    let n = match text.parse::<usize>() {
        Ok(n) if token.iter().all(u8::is_ascii_digit) => n,
        _ => {
            return Err(format!(
                "invalid vertex count '{text}' at line {line}, column {column} (expected a number)"
            ));
        }
    };
    check_vertices(n).map_err(|e| format!("{e} (line {line})"))?;
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::super::tests::parse;

    #[test]
    fn edge_lists() {
        let g = parse("# comment\n\n4  # four vertices\n0 1\n1\t2 # tab\r\n2 1\n").unwrap();
        assert_eq!((g.vertex_count(), g.edge_count()), (4, 2));
        assert_eq!(g.degree(3), 0);
        assert_eq!(parse("0 1\n5 2\n").map(|g| g.vertex_count()), Ok(6));
        assert_eq!(parse("7\n").map(|g| g.edge_count()), Ok(0));
        let errors = [
            // Regression: this said "1 numbers".
            (
                "0 1\n2\n",
                "in: line 2 has 1 number but an edge is two vertices 'u v' (a vertex count may only be the first line)",
            ),
            ("0 1 2\n", "in: line 1 has 3 numbers but an edge is two vertices 'u v'"),
            ("3\n0 3\n", "in: edge 0 3 at line 2 names vertex 3 but line 1 gives 3 vertices (0 to 2)"),
            ("0 x1\n", "in: invalid vertex 'x1' at line 1, column 3 (expected a number)"),
            ("-1\n", "in: invalid vertex count '-1' at line 1, column 1 (expected a number)"),
            ("0 1048576\n", "in: vertex 1048576 at line 1, column 3 is more than the limit of 1048575"),
            ("2000000\n", "in: a graph of 2000000 vertices is more than the limit of 1048576 (line 1)"),
            ("# nothing\n\n", "in: no graph in input"),
            ("", "in: no graph in input"),
        ];
        for (text, error) in errors {
            assert_eq!(parse(text), Err(error.to_owned()), "{text:?}");
        }
    }
}
