//! Graphs: the board of Lights Out on any graph, where pressing a vertex
//! toggles it and its neighbours (σ⁺) or its neighbours only (σ).
//!
//! A [`Graph`] is a simple undirected graph on vertices `0..n` with sorted
//! adjacency lists. It is read from the two formats graph people exchange
//! (nauty's graph6, and plain edge lists, told apart by [`Graph::parse`]),
//! built from edges, drawn at random, or taken from a few named built-ins
//! ([`Graph::named`]). A puzzle on it ([`Puzzle::on_graph`](super::Puzzle::on_graph))
//! is a board of one row, the vertices in order, so every solver of the
//! grid serves it unchanged.

mod builtin;
mod edge_list;
mod graph6;
mod layout;
mod random;

use crate::error::Error;
use edge_list::read_edge_list;
use graph6::{G6_MAX, G6_MIN, read_graph6};
pub use layout::{GraphShape, Layout};

/// Most vertices a graph may have: as many as a board has columns
/// ([`MAX_SIDE`](crate::model::MAX_SIDE)), since a board on a graph is one row.
pub const MAX_VERTICES: usize = super::MAX_SIDE;

/// Most edges a graph may have: 2^24, so that the adjacency lists (two
/// 4-byte entries an edge) stay within 128 MiB. The complete graph on
/// 5,793 vertices is about the largest that fits.
pub const MAX_EDGES: usize = 1 << 24;
/// A simple undirected graph on vertices `0..n`: no self-loops, no
/// repeated edges, each vertex's neighbours sorted.
///
/// Stored in compressed form: the neighbours of vertex `v` are
/// `adjacency[starts[v]..starts[v + 1]]`, so a graph costs 8 bytes a vertex
/// and 8 an edge.
///
/// # Example
/// ```
/// use lightsout::Graph;
///
/// // A triangle with a pendant vertex; the edge 1-0 repeats 0-1 and counts once.
/// let g = Graph::from_edges(4, [(0, 1), (1, 2), (2, 0), (2, 3), (1, 0)])?;
/// assert_eq!((g.vertex_count(), g.edge_count()), (4, 4));
/// assert_eq!(g.neighbours(2), &[0, 1, 3]);
/// assert_eq!(g.to_graph6(), "Cx");
/// assert_eq!(Graph::parse(b"Cx\n", "t")?, g);
/// # Ok::<(), lightsout::Error>(())
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Graph {
    starts: Vec<usize>,
    adjacency: Vec<u32>,
}

/// `n vertices (0 to n−1)`, for messages about a vertex out of range.
fn vertices(n: usize) -> String {
    match n {
        0 => "no vertices".to_string(),
        1 => "1 vertex (0)".to_string(),
        _ => format!("{n} vertices (0 to {})", n - 1),
    }
}

/// Why an edge cannot be in a graph of `n` vertices, if it cannot.
fn edge_problem(u: usize, v: usize, n: usize) -> Option<String> {
    if u == v {
        Some(format!("edge {u} {v} is a self-loop"))
    } else if u.max(v) >= n {
        Some(format!("edge {u} {v} names vertex {} but the graph has {}", u.max(v), vertices(n)))
    } else {
        None
    }
}
impl Graph {
    /// The graph on `n` vertices with `edges`; an edge given twice (either
    /// way round) counts once.
    ///
    /// # Errors
    /// [`Error::BadInput`] naming a self-loop or an edge to a vertex `n` or
    /// more; [`Error::Limit`] for more than [`MAX_VERTICES`] vertices or
    /// [`MAX_EDGES`] distinct edges.
    ///
    /// # Example
    /// ```
    /// use lightsout::Graph;
    ///
    /// assert_eq!(Graph::from_edges(3, [(0, 1), (1, 2)])?.degree(1), 2);
    /// assert_eq!(Graph::from_edges(3, [(1, 1)]).unwrap_err().to_string(), "edge 1 1 is a self-loop");
    /// assert!(Graph::from_edges(3, [(0, 3)]).unwrap_err().to_string().contains("names vertex 3"));
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn from_edges(n: usize, edges: impl IntoIterator<Item = (usize, usize)>) -> Result<Graph, Error> {
        check_vertices(n).map_err(Error::Limit)?;
        let mut list = Vec::new();
        for (u, v) in edges {
            if let Some(problem) = edge_problem(u, v, n) {
                return Err(Error::BadInput(problem));
            }
            list.push((u as u32, v as u32));
        }
        Graph::build(n, list).checked().map_err(Error::Limit)
    }

    /// Refuses a graph of more than [`MAX_EDGES`] edges (counted once
    /// repeated edges are dropped).
    fn checked(self) -> Result<Graph, String> {
        if self.edge_count() > MAX_EDGES {
            return Err(format!(
                "a graph of {} edges is more than the limit of {MAX_EDGES}",
                self.edge_count()
            ));
        }
        Ok(self)
    }

    /// Builds the adjacency lists from edges already checked to be in
    /// range and without self-loops; repeated edges are dropped here.
    fn build(n: usize, edges: Vec<(u32, u32)>) -> Graph {
        // Two passes over the edges (count, then place) rather than a sort
        // of all 2m directed pairs: each list is then sorted on its own,
        // which for sparse graphs is a sort of a handful of entries.
        let mut degree = vec![0usize; n + 1];
        for &(u, v) in &edges {
            degree[u as usize] += 1;
            degree[v as usize] += 1;
        }
        let mut starts = Vec::with_capacity(n + 1);
        let mut total = 0;
        for d in &degree[..n] {
            starts.push(total);
            total += d;
        }
        starts.push(total);
        let mut fill = starts.clone();
        let mut adjacency = vec![0u32; total];
        for &(u, v) in &edges {
            adjacency[fill[u as usize]] = v;
            fill[u as usize] += 1;
            adjacency[fill[v as usize]] = u;
            fill[v as usize] += 1;
        }
        drop(edges);
        // Sort and deduplicate each list, compacting the storage in place.
        let mut write = 0;
        for v in 0..n {
            let (start, end) = (starts[v], starts[v + 1]);
            adjacency[start..end].sort_unstable();
            starts[v] = write;
            let mut last = None;
            for i in start..end {
                let w = adjacency[i];
                if last != Some(w) {
                    adjacency[write] = w;
                    write += 1;
                    last = Some(w);
                }
            }
        }
        starts[n] = write;
        adjacency.truncate(write);
        adjacency.shrink_to_fit();
        Graph { starts, adjacency }
    }

    /// Number of vertices.
    ///
    /// # Example
    /// ```
    /// assert_eq!(lightsout::Graph::named("hypercube:3")?.vertex_count(), 8);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn vertex_count(&self) -> usize {
        self.starts.len() - 1
    }

    /// Number of edges.
    ///
    /// # Example
    /// ```
    /// assert_eq!(lightsout::Graph::named("hypercube:3")?.edge_count(), 12);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn edge_count(&self) -> usize {
        self.adjacency.len() / 2
    }

    /// The neighbours of `v`, in increasing order.
    ///
    /// # Panics
    /// If `v` is not a vertex.
    ///
    /// # Example
    /// ```
    /// assert_eq!(lightsout::Graph::named("cycle:6")?.neighbours(0), &[1, 5]);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn neighbours(&self, v: usize) -> &[u32] {
        &self.adjacency[self.starts[v]..self.starts[v + 1]]
    }

    /// Number of neighbours of `v`.
    ///
    /// # Panics
    /// If `v` is not a vertex.
    ///
    /// # Example
    /// ```
    /// assert_eq!(lightsout::Graph::named("complete:7")?.degree(3), 6);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn degree(&self, v: usize) -> usize {
        self.starts[v + 1] - self.starts[v]
    }

    /// Whether `u` and `v` are joined by an edge (false if either is not a vertex).
    ///
    /// # Example
    /// ```
    /// let p = lightsout::Graph::named("path:4")?;
    /// assert!(p.has_edge(2, 1) && !p.has_edge(0, 2) && !p.has_edge(3, 4));
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn has_edge(&self, u: usize, v: usize) -> bool {
        u < self.vertex_count()
            && v < self.vertex_count()
            && self.neighbours(u).binary_search(&(v as u32)).is_ok()
    }

    /// Every edge once, as `(u, v)` with `u < v`, in increasing order.
    ///
    /// # Example
    /// ```
    /// let c = lightsout::Graph::named("cycle:4")?;
    /// assert_eq!(c.edges().collect::<Vec<_>>(), vec![(0, 1), (0, 3), (1, 2), (2, 3)]);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn edges(&self) -> impl Iterator<Item = (usize, usize)> + '_ {
        (0..self.vertex_count()).flat_map(move |u| {
            self.neighbours(u).iter().map(move |&v| (u, v as usize)).filter(|&(u, v)| u < v)
        })
    }

    /// The largest `|u − v|` over the edges (0 without edges): how far from
    /// the diagonal the flip matrix reaches, which bounds the work of
    /// elimination as a grid's width does.
    ///
    /// # Example
    /// ```
    /// use lightsout::Graph;
    ///
    /// assert_eq!(Graph::named("path:100")?.bandwidth(), 1);
    /// assert_eq!(Graph::named("cycle:100")?.bandwidth(), 99);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn bandwidth(&self) -> usize {
        (0..self.vertex_count())
            .filter_map(|u| self.neighbours(u).last().map(|&v| (v as usize).saturating_sub(u)))
            .max()
            .unwrap_or(0)
    }

    /// Reads a graph from graph6 text or an edge list, told apart by the
    /// first byte that is not white space: graph6 starts with its header
    /// `>>graph6<<` or a byte of `?` to `~` (63 to 126), an edge list with
    /// a digit or a `#` comment.
    ///
    /// **graph6** (nauty's format) is one line: the vertex count N(n), one
    /// byte `n + 63` for n ≤ 62, `~` and three bytes for n ≤ 258,047, `~~`
    /// and six bytes beyond (6 bits a byte, most significant first, each
    /// plus 63); then the upper triangle of the adjacency matrix column by
    /// column (x(0,1), x(0,2), x(1,2), x(0,3), …), 6 bits a byte, padded
    /// with zeros. A file holds one graph.
    ///
    /// An **edge list** has one edge `u v` a line, vertices 0-based,
    /// separated by spaces or tabs; `#` starts a comment; blank lines are
    /// skipped. An optional first line of one number gives the vertex
    /// count (then isolated vertices can be named), otherwise the vertices
    /// are 0 to the largest named.
    ///
    /// # Errors
    /// [`Error::Parse`] naming `source`, the line and column: a byte outside
    /// 63..=126 in graph6, a truncated graph6 line or bytes after it, a
    /// token that is not a vertex, a line that is not an edge, a self-loop,
    /// a vertex not below the count given, sizes over [`MAX_VERTICES`] or
    /// [`MAX_EDGES`], or no graph at all.
    ///
    /// # Example
    /// ```
    /// use lightsout::Graph;
    ///
    /// let path = Graph::parse(b"# a path\n3\n0 1\n1 2\n", "p.txt")?;
    /// assert_eq!(path, Graph::named("path:3")?);
    /// assert_eq!(Graph::parse(b">>graph6<<Bg\n", "p.g6")?, path);
    /// let e = Graph::parse(b"0 1\n2 2\n", "bad.txt").unwrap_err();
    /// assert_eq!(e.to_string(), "bad.txt: edge 2 2 at line 2 is a self-loop");
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn parse(input: &[u8], source: &str) -> Result<Graph, Error> {
        let input = input.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(input);
        let parse_error = |message: String| Error::Parse { source: source.to_string(), message };
        match input.iter().find(|b| !b.is_ascii_whitespace()) {
            Some(b'>') => read_graph6(input).map_err(parse_error),
            Some(&b) if (G6_MIN..=G6_MAX).contains(&b) => read_graph6(input).map_err(parse_error),
            Some(b':') => {
                Err(parse_error("sparse6 is not read; write the graph as graph6 or an edge list".into()))
            }
            Some(b'&') => Err(parse_error("digraph6 is not read: a puzzle graph is undirected".into())),
            _ => read_edge_list(input).map_err(parse_error),
        }
    }
}

/// Refuses more than [`MAX_VERTICES`] vertices.
fn check_vertices(n: usize) -> Result<(), String> {
    if n > MAX_VERTICES {
        return Err(format!("a graph of {n} vertices is more than the limit of {MAX_VERTICES}"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `text` read as a file named `in`, an error as the message a person reads.
    pub(super) fn parse(text: &str) -> Result<Graph, String> {
        Graph::parse(text.as_bytes(), "in").map_err(|e| e.to_string())
    }

    #[test]
    fn from_edges_and_random() {
        let g = Graph::from_edges(5, [(3, 1), (1, 3), (0, 4), (4, 0), (2, 1)]).unwrap();
        assert_eq!(g.edges().collect::<Vec<_>>(), vec![(0, 4), (1, 2), (1, 3)]);
        assert_eq!(g.bandwidth(), 4);
        assert!(g.has_edge(4, 0) && !g.has_edge(0, 1) && !g.has_edge(0, 9));
        assert_eq!(
            Graph::from_edges(3, [(0, 1), (2, 5)]).unwrap_err().to_string(),
            "edge 2 5 names vertex 5 but the graph has 3 vertices (0 to 2)"
        );
        assert!(matches!(Graph::from_edges(MAX_VERTICES + 1, []), Err(Error::Limit(_))));
        for (n, m) in [(10, 0), (10, 20), (10, 45), (50, 1000), (1000, 3000)] {
            let g = Graph::random(n, m, 3).unwrap();
            assert_eq!((g.vertex_count(), g.edge_count()), (n, m));
        }
        assert_ne!(Graph::random(30, 40, 1).unwrap(), Graph::random(30, 40, 2).unwrap());
        assert!(matches!(Graph::random(4, 7, 0), Err(Error::BadInput(_))));
    }
}
