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

use std::collections::HashSet;
use std::fmt::Write as _;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::error::Error;

/// Most vertices a graph may have: as many as a board has columns
/// ([`MAX_SIDE`](crate::MAX_SIDE)), since a board on a graph is one row.
pub const MAX_VERTICES: usize = super::MAX_SIDE;

/// Most edges a graph may have: 2^24, so that the adjacency lists (two
/// 4-byte entries an edge) stay within 128 MiB. The complete graph on
/// 5,793 vertices is about the largest that fits.
pub const MAX_EDGES: usize = 1 << 24;

/// The smallest byte of graph6 text (`?`, the 6-bit group 0).
const G6_MIN: u8 = 63;
/// The largest byte of graph6 text (`~`, which also marks the longer forms of N(n)).
const G6_MAX: u8 = 126;
/// The optional header of a graph6 file.
const G6_HEADER: &[u8] = b">>graph6<<";

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

    /// A graph drawn uniformly among those with `n` vertices and `m` edges
    /// (the Erdős–Rényi G(n, m)), from the seeded ChaCha8 stream: the same
    /// seed gives the same graph on every machine.
    ///
    /// # Errors
    /// [`Error::BadInput`] when `m` is more than the `n(n−1)/2` possible
    /// edges; [`Error::Limit`] as [`from_edges`](Self::from_edges).
    ///
    /// # Complexity
    /// O(m) expected draws while `m` is at most half the possible edges;
    /// above that the missing edges are drawn instead, O(n²).
    ///
    /// # Example
    /// ```
    /// use lightsout::Graph;
    ///
    /// let g = Graph::random(100, 250, 7)?;
    /// assert_eq!((g.vertex_count(), g.edge_count()), (100, 250));
    /// assert_eq!(g, Graph::random(100, 250, 7)?);
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn random(n: usize, m: usize, seed: u64) -> Result<Graph, Error> {
        check_vertices(n).map_err(Error::Limit)?;
        let possible = n as u64 * n.saturating_sub(1) as u64 / 2;
        if m as u64 > possible {
            return Err(Error::BadInput(format!(
                "a graph of {n} vertices has at most {possible} edges, not {m}"
            )));
        }
        if m > MAX_EDGES {
            return Err(Error::Limit(format!("a graph of {m} edges is more than the limit of {MAX_EDGES}")));
        }
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        // Draw the smaller of the edge set and its complement, by rejection.
        let complement = 2 * m as u64 > possible;
        let draws = if complement { possible - m as u64 } else { m as u64 };
        let mut chosen: HashSet<(u32, u32)> = HashSet::with_capacity(draws as usize);
        while (chosen.len() as u64) < draws {
            let (u, v) = (rng.random_range(0..n as u32), rng.random_range(0..n as u32));
            if u != v {
                chosen.insert((u.min(v), u.max(v)));
            }
        }
        let mut edges: Vec<(u32, u32)> = if complement {
            (1..n as u32).flat_map(|v| (0..v).map(move |u| (u, v))).filter(|e| !chosen.contains(e)).collect()
        } else {
            chosen.into_iter().collect()
        };
        // The set's order depends on its hasher's random keys: sort, so the
        // graph depends on the seed alone.
        edges.sort_unstable();
        Ok(Graph::build(n, edges))
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

    /// The graph as one line of graph6, without a header or line end:
    /// what [`parse`](Self::parse) reads back.
    ///
    /// # Complexity
    /// O(n²/6) bytes of output, O(n² / 6 + m) time.
    ///
    /// # Example
    /// ```
    /// use lightsout::Graph;
    ///
    /// assert_eq!(Graph::named("complete:4")?.to_graph6(), "C~");
    /// assert_eq!(Graph::from_edges(0, [])?.to_graph6(), "?");
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn to_graph6(&self) -> String {
        let n = self.vertex_count();
        let mut out: Vec<u8> = graph6_size(n);
        let bits = n as u64 * n.saturating_sub(1) as u64 / 2;
        let start = out.len();
        out.resize(start + bits.div_ceil(6) as usize, 0);
        for (u, v) in self.edges() {
            // Column v of the upper triangle starts at bit v(v−1)/2.
            let bit = v as u64 * (v as u64 - 1) / 2 + u as u64;
            out[start + (bit / 6) as usize] |= 32 >> (bit % 6);
        }
        for b in &mut out[start..] {
            *b += G6_MIN;
        }
        // Every byte is in 63..=126, which is ASCII.
        out.into_iter().map(char::from).collect()
    }

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

    /// A built-in graph by name:
    ///
    /// | name | vertices | adjacency |
    /// | --- | --- | --- |
    /// | `petersen` | 10 | outer cycle 0–1–2–3–4–0, spokes `i`–`i+5`, inner pentagram `5+i`–`5+(i+2) mod 5` |
    /// | `cycle:N` (N ≥ 3) | N | `i`–`i+1 mod N` |
    /// | `path:N` (N ≥ 1) | N | `i`–`i+1` for `i < N−1` |
    /// | `complete:N` (N ≥ 1) | N | every pair |
    /// | `hypercube:D` (0 ≤ D ≤ 20) | 2^D | `u`–`v` when they differ in one bit |
    /// | `cube` | 54 | the Lights Out Cube, below |
    ///
    /// `cube` is the Rubik's-cube-shaped puzzle: six 3×3 faces, each
    /// sticker joined to its orthogonal neighbours on its face and, on an
    /// edge of the face, to the sticker across the cube's edge on the next
    /// face, so every vertex has degree 4. The faces are laid out as the
    /// net
    ///
    /// ```text
    ///       U
    ///     L F R B
    ///       D
    /// ```
    ///
    /// and numbered U = 0, L = 1, F = 2, R = 3, B = 4, D = 5; sticker (row,
    /// column) of face f, as the face is seen from outside the cube in the
    /// net (row 0 at the top), is vertex `9f + 3·row + column`. So F's top
    /// row (18, 19, 20) touches U's bottom row (6, 7, 8), F's right column
    /// (20, 23, 26) touches R's left column (27, 30, 33), and B's right
    /// column touches L's left column, as folding the net shows.
    ///
    /// # Errors
    /// [`Error::BadInput`] for an unknown name or a size out of its range
    /// (at most [`MAX_VERTICES`] vertices and [`MAX_EDGES`] edges).
    ///
    /// # Example
    /// ```
    /// use lightsout::Graph;
    ///
    /// let p = Graph::named("petersen")?;
    /// assert_eq!((p.vertex_count(), p.edge_count()), (10, 15));
    /// let cube = Graph::named("cube")?;
    /// assert!((0..54).all(|v| cube.degree(v) == 4));
    /// assert!(cube.has_edge(18, 6) && cube.has_edge(20, 27));
    /// assert!(Graph::named("cycle:2").is_err());
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn named(name: &str) -> Result<Graph, Error> {
        let (kind, size) = match name.split_once(':') {
            Some((kind, size)) => (kind, Some(size)),
            None => (name, None),
        };
        let parse_size = |least: usize, most: usize, what: &str| -> Result<usize, Error> {
            let bad = || {
                Error::BadInput(format!(
                    "the graph {kind}:{what} needs {what} from {least} to {most}, got '{name}'"
                ))
            };
            let value: usize = size.ok_or_else(bad)?.parse().map_err(|_| bad())?;
            if (least..=most).contains(&value) { Ok(value) } else { Err(bad()) }
        };
        let graph = match (kind, size) {
            ("petersen", None) => {
                let outer = (0..5).map(|i| (i, (i + 1) % 5));
                let spokes = (0..5).map(|i| (i, i + 5));
                let inner = (0..5).map(|i| (5 + i, 5 + (i + 2) % 5));
                Graph::from_edges(10, outer.chain(spokes).chain(inner))
            }
            ("cube", None) => Ok(cube()),
            ("cycle", _) => {
                let n = parse_size(3, MAX_VERTICES, "N")?;
                Graph::from_edges(n, (0..n).map(|i| (i, (i + 1) % n)))
            }
            ("path", _) => {
                let n = parse_size(1, MAX_VERTICES, "N")?;
                Graph::from_edges(n, (1..n).map(|i| (i - 1, i)))
            }
            ("complete", _) => {
                // N(N−1)/2 ≤ MAX_EDGES.
                let most = (1..).take_while(|&n: &usize| n * (n - 1) / 2 <= MAX_EDGES).last().unwrap_or(1);
                let n = parse_size(1, most, "N")?;
                Graph::from_edges(n, (1..n).flat_map(|v| (0..v).map(move |u| (u, v))))
            }
            ("hypercube", _) => {
                let d = parse_size(0, MAX_VERTICES.trailing_zeros() as usize, "D")?;
                let n = 1usize << d;
                Graph::from_edges(
                    n,
                    (0..n).flat_map(|u| (0..d).map(move |b| (u, u ^ (1 << b)))).filter(|&(u, v)| u < v),
                )
            }
            _ => Err(Error::BadInput(format!(
                "unknown graph '{name}' (known: petersen, cube, cycle:N, path:N, complete:N, hypercube:D)"
            ))),
        }?;
        Ok(graph)
    }
}

/// Refuses more than [`MAX_VERTICES`] vertices.
fn check_vertices(n: usize) -> Result<(), String> {
    if n > MAX_VERTICES {
        return Err(format!("a graph of {n} vertices is more than the limit of {MAX_VERTICES}"));
    }
    Ok(())
}

/// The Lights Out Cube (see [`Graph::named`]), built from the geometry:
/// each sticker's centre in space, scaled so that the cube is [−3, 3]³ and
/// the stickers of a face sit at −2, 0 and 2. Two stickers of one face are
/// neighbours at squared distance 4; across an edge of the cube the two
/// stickers that touch are at squared distance 2; no other pair is that
/// close, so the adjacency needs no table of which face meets which.
fn cube() -> Graph {
    // (outward normal, direction of increasing row, of increasing column),
    // each face seen from outside, in the net U, L F R B, D: x to the
    // right of F, y away from F (towards B), z up.
    type V = [i32; 3];
    let faces: [(V, V, V); 6] = [
        ([0, 0, 1], [0, -1, 0], [1, 0, 0]),   // U: row 0 at the back, row 2 meets F
        ([-1, 0, 0], [0, 0, -1], [0, -1, 0]), // L: column 2 meets F
        ([0, -1, 0], [0, 0, -1], [1, 0, 0]),  // F
        ([1, 0, 0], [0, 0, -1], [0, 1, 0]),   // R: column 0 meets F
        ([0, 1, 0], [0, 0, -1], [-1, 0, 0]),  // B: column 0 meets R
        ([0, 0, -1], [0, 1, 0], [1, 0, 0]),   // D: row 0 meets F
    ];
    let centres: Vec<V> = faces
        .iter()
        .flat_map(|&(normal, down, right)| {
            (0..9).map(move |i| {
                let (r, c) = (i / 3 - 1, i % 3 - 1);
                [0, 1, 2].map(|k| 3 * normal[k] + 2 * r * down[k] + 2 * c * right[k])
            })
        })
        .collect();
    let distance = |a: V, b: V| (0..3).map(|k| (a[k] - b[k]).pow(2)).sum::<i32>();
    let edges = (0..54)
        .flat_map(|v| (0..v).map(move |u| (u, v)))
        .filter(|&(u, v)| matches!(distance(centres[u], centres[v]), 2 | 4))
        .map(|(u, v)| (u as u32, v as u32))
        .collect();
    Graph::build(54, edges)
}

/// N(n): the vertex count in graph6's one-, four- or eight-byte form.
fn graph6_size(n: usize) -> Vec<u8> {
    let groups =
        |value: u64, count: u32| (0..count).rev().map(move |k| (value >> (6 * k) & 63) as u8 + G6_MIN);
    match n {
        0..=62 => vec![n as u8 + G6_MIN],
        63..=258_047 => std::iter::once(G6_MAX).chain(groups(n as u64, 3)).collect(),
        _ => [G6_MAX, G6_MAX].into_iter().chain(groups(n as u64, 6)).collect(),
    }
}

/// Describes byte `b` for a message: the character when it is printable.
fn describe(b: u8) -> String {
    if b.is_ascii_graphic() { format!("'{}' (byte {b})", b as char) } else { format!("byte {b}") }
}

/// Reads the one graph of a graph6 file (leading white space skipped).
fn read_graph6(input: &[u8]) -> Result<Graph, String> {
    // The line holding the graph, its number (1-based) and where it starts.
    let start = input.iter().position(|b| !b.is_ascii_whitespace()).unwrap_or(input.len());
    let line_number = 1 + input[..start].iter().filter(|&&b| b == b'\n').count();
    let line_start = input[..start].iter().rposition(|&b| b == b'\n').map_or(0, |p| p + 1);
    let end = memchr::memchr(b'\n', &input[start..]).map_or(input.len(), |p| start + p);
    let mut line = &input[start..end];
    while let Some((&last, rest)) = line.split_last() {
        if !matches!(last, b'\r' | b' ' | b'\t') {
            break;
        }
        line = rest;
    }
    // One graph per file: nothing but white space may follow its line.
    if let Some(extra) = input[end..].iter().position(|b| !b.is_ascii_whitespace()) {
        let at = end + extra;
        let line = 1 + input[..at].iter().filter(|&&b| b == b'\n').count();
        return Err(format!("a graph6 file holds one graph, but line {line} has more"));
    }
    let column = |pos: usize| start - line_start + pos + 1;
    let mut pos = 0;
    if line.starts_with(b">") {
        if !line.starts_with(G6_HEADER) {
            return Err(format!(
                "line {line_number} starts with '>' but not with the graph6 header >>graph6<<"
            ));
        }
        pos = G6_HEADER.len();
    }
    // A byte of graph6 text as its 6-bit value, or the error naming it.
    let value = |pos: usize, what: &str| -> Result<u64, String> {
        match line.get(pos) {
            Some(&b) if (G6_MIN..=G6_MAX).contains(&b) => Ok(u64::from(b - G6_MIN)),
            Some(&b) => Err(format!(
                "{} at line {line_number}, column {} is outside the graph6 range 63..=126",
                describe(b),
                column(pos)
            )),
            None => Err(format!("the graph6 line {line_number} ends in {what}")),
        }
    };
    let n = match value(pos, "the vertex count")? {
        63 => {
            let long = line.get(pos + 1) == Some(&G6_MAX);
            let (skip, count) = if long { (2, 6) } else { (1, 3) };
            let mut n = 0u64;
            for k in 0..count {
                n = n << 6 | value(pos + skip + k, "the vertex count")?;
            }
            pos += skip + count;
            n
        }
        small => {
            pos += 1;
            small
        }
    };
    if n > MAX_VERTICES as u64 {
        return Err(format!("a graph of {n} vertices is more than the limit of {MAX_VERTICES}"));
    }
    let n = n as usize;
    let bits = n as u64 * n.saturating_sub(1) as u64 / 2;
    let needed = bits.div_ceil(6);
    let have = (line.len() - pos) as u64;
    // Every byte is checked before the length, so that a stray byte (a
    // space, say) is named rather than counted.
    for p in pos..line.len() {
        value(p, "")?;
    }
    if have < needed {
        return Err(format!(
            "the graph6 line {line_number} is truncated: {n} vertices need {needed} bytes of edges, it has {have}"
        ));
    }
    if have > needed {
        return Err(format!(
            "the graph6 line {line_number} has extra bytes from column {}: {n} vertices need {needed} bytes of edges, it has {have}",
            column(pos + needed as usize)
        ));
    }
    // Walk the upper triangle column by column; the padding bits of the
    // last byte are ignored.
    let mut edges = Vec::new();
    let data = &line[pos..];
    let mut bit = 0u64;
    for v in 1..n as u32 {
        for u in 0..v {
            if (data[(bit / 6) as usize] - G6_MIN) & (32 >> (bit % 6)) != 0 {
                if edges.len() == MAX_EDGES {
                    return Err(format!("the graph has more than the limit of {MAX_EDGES} edges"));
                }
                edges.push((u, v));
            }
            bit += 1;
        }
    }
    Ok(Graph::build(n, edges))
}

/// Reads an edge list (see [`Graph::parse`]).
fn read_edge_list(input: &[u8]) -> Result<Graph, String> {
    let mut count: Option<(usize, usize)> = None; // (vertices, line given)
    let mut seen_line = false;
    let mut largest: Option<usize> = None;
    let mut edges = Vec::new();
    for (index, raw) in input.split(|&b| b == b'\n').enumerate() {
        let line = index + 1;
        let data = &raw[..memchr::memchr(b'#', raw).unwrap_or(raw.len())];
        // Tokens with their 1-based columns.
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
        if tokens.is_empty() {
            continue;
        }
        let number = |(token, column): (&[u8], usize)| -> Result<usize, String> {
            let text = String::from_utf8_lossy(token);
            if !token.iter().all(u8::is_ascii_digit) {
                return Err(format!(
                    "invalid vertex '{text}' at line {line}, column {column} (expected a number)"
                ));
            }
            match text.parse::<usize>() {
                Ok(v) if v < MAX_VERTICES => Ok(v),
                _ => Err(format!(
                    "vertex {text} at line {line}, column {column} is more than the limit of {}",
                    MAX_VERTICES - 1
                )),
            }
        };
        match tokens.len() {
            1 if !seen_line => {
                let (token, column) = tokens[0];
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
                count = Some((n, line));
            }
            2 => {
                let (u, v) = (number(tokens[0])?, number(tokens[1])?);
                if u == v {
                    return Err(format!("edge {u} {v} at line {line} is a self-loop"));
                }
                if let Some((n, given)) = count.filter(|&(n, _)| u.max(v) >= n) {
                    return Err(format!(
                        "edge {u} {v} at line {line} names vertex {} but line {given} gives {}",
                        u.max(v),
                        vertices(n)
                    ));
                }
                if edges.len() == 2 * MAX_EDGES {
                    // Repeated edges count once, but the list is held first.
                    return Err(format!("more than {} edges by line {line}", 2 * MAX_EDGES));
                }
                largest = largest.max(Some(u.max(v)));
                edges.push((u as u32, v as u32));
            }
            found => {
                return Err(format!(
                    "line {line} has {found} numbers but an edge is two vertices 'u v'{}",
                    if found == 1 { " (a vertex count may only be the first line)" } else { "" }
                ));
            }
        }
        seen_line = true;
    }
    if !seen_line {
        return Err("no graph in input".into());
    }
    let n = count.map_or(largest.map_or(0, |v| v + 1), |(n, _)| n);
    Graph::build(n, edges).checked()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(text: &str) -> Result<Graph, String> {
        Graph::parse(text.as_bytes(), "in").map_err(|e| e.to_string())
    }

    #[test]
    fn sizes_in_all_three_forms_of_n() {
        assert_eq!(graph6_size(0), b"?");
        assert_eq!(graph6_size(62), b"}");
        assert_eq!(graph6_size(63), b"~??~");
        // nauty's own example: 12345 = 000011 000000 111001.
        assert_eq!(graph6_size(12345), b"~B?x");
        assert_eq!(graph6_size(258_047), b"~}~~");
        assert_eq!(graph6_size(258_048), b"~~???~??");
        assert_eq!(graph6_size(MAX_VERTICES), b"~~??C???");
        // The long forms are read back through the truncation message,
        // which states the count read (the edges would be gigabytes).
        for n in [63usize, 12345, 258_047, 258_048, MAX_VERTICES] {
            let mut line = graph6_size(n);
            line.push(b'?');
            let e = parse(std::str::from_utf8(&line).unwrap()).unwrap_err();
            assert!(e.contains(&format!("is truncated: {n} vertices need")), "{n}: {e}");
        }
        // The eight-byte form may hold a small count too.
        assert!(parse("~~?????~").unwrap_err().contains("truncated: 63 vertices"));
        assert!(parse("~~?@????").unwrap_err().contains("more than the limit of 1048576"));
    }

    #[test]
    fn graph6_round_trips_and_errors() {
        for name in ["petersen", "cube", "path:1", "cycle:63", "complete:64", "hypercube:7", "path:300"] {
            let g = Graph::named(name).unwrap();
            assert_eq!(parse(&g.to_graph6()), Ok(g.clone()), "{name}");
            assert_eq!(parse(&format!(">>graph6<<{}\r\n\n", g.to_graph6())), Ok(g.clone()), "{name}");
            assert_eq!(parse(&g.to_edge_list()), Ok(g.clone()), "{name}");
        }
        assert_eq!(parse("Bw\nBw\n"), Err("in: a graph6 file holds one graph, but line 2 has more".into()));
        assert_eq!(
            parse("Cr !\n"),
            Err("in: byte 32 at line 1, column 3 is outside the graph6 range 63..=126".into())
        );
        assert_eq!(
            parse(">>graph6<<D\x7fA\n"),
            Err("in: byte 127 at line 1, column 12 is outside the graph6 range 63..=126".into())
        );
        assert_eq!(
            parse("D?"),
            Err("in: the graph6 line 1 is truncated: 5 vertices need 2 bytes of edges, it has 1".into())
        );
        assert_eq!(
            parse("\n\nCrr"),
            Err("in: the graph6 line 3 has extra bytes from column 3: 4 vertices need 1 bytes of edges, it has 2"
                .into())
        );
        assert!(parse(">graph6<<Cr").unwrap_err().contains("header"));
        assert!(parse("~?").unwrap_err().contains("ends in the vertex count"));
        assert!(parse(":Fa@x^\n").unwrap_err().contains("sparse6"));
    }

    #[test]
    fn edge_lists() {
        let g = parse("# comment\n\n4  # four vertices\n0 1\n1\t2 # tab\r\n2 1\n").unwrap();
        assert_eq!((g.vertex_count(), g.edge_count()), (4, 2));
        assert_eq!(g.degree(3), 0);
        assert_eq!(parse("0 1\n5 2\n").map(|g| g.vertex_count()), Ok(6));
        assert_eq!(parse("7\n").map(|g| g.edge_count()), Ok(0));
        assert_eq!(parse("0 1\n2\n"), Err("in: line 2 has 1 numbers but an edge is two vertices 'u v' (a vertex count may only be the first line)".into()));
        assert_eq!(
            parse("0 1 2\n"),
            Err("in: line 1 has 3 numbers but an edge is two vertices 'u v'".into())
        );
        assert_eq!(
            parse("3\n0 3\n"),
            Err("in: edge 0 3 at line 2 names vertex 3 but line 1 gives 3 vertices (0 to 2)".into())
        );
        assert_eq!(
            parse("0 x1\n"),
            Err("in: invalid vertex 'x1' at line 1, column 3 (expected a number)".into())
        );
        assert_eq!(
            parse("-1\n"),
            Err("in: invalid vertex count '-1' at line 1, column 1 (expected a number)".into())
        );
        assert_eq!(
            parse("0 1048576\n"),
            Err("in: vertex 1048576 at line 1, column 3 is more than the limit of 1048575".into())
        );
        assert_eq!(
            parse("2000000\n"),
            Err("in: a graph of 2000000 vertices is more than the limit of 1048576 (line 1)".into())
        );
        assert_eq!(parse("# nothing\n\n"), Err("in: no graph in input".into()));
        assert_eq!(parse(""), Err("in: no graph in input".into()));
    }

    #[test]
    fn named_graphs() {
        let cube = Graph::named("cube").unwrap();
        assert_eq!((cube.vertex_count(), cube.edge_count()), (54, 108));
        // Within a face, the 3x3 grid's orthogonal neighbours.
        for f in 0..6 {
            for i in 0..9usize {
                for j in 0..9usize {
                    let (a, b) = (9 * f + i, 9 * f + j);
                    let grid = (i / 3).abs_diff(j / 3) + (i % 3).abs_diff(j % 3) == 1;
                    assert_eq!(cube.has_edge(a, b), grid, "face {f}: {i} {j}");
                }
            }
        }
        // Across the edges of F, and B's right column with L's left one.
        for k in 0..3 {
            assert!(cube.has_edge(18 + k, 6 + k), "F top / U bottom {k}");
            assert!(cube.has_edge(20 + 3 * k, 27 + 3 * k), "F right / R left {k}");
            assert!(cube.has_edge(18 + 3 * k, 11 + 3 * k), "F left / L right {k}");
            assert!(cube.has_edge(24 + k, 45 + k), "F bottom / D top {k}");
            assert!(cube.has_edge(38 + 3 * k, 9 + 3 * k), "B right / L left {k}");
        }
        let q = Graph::named("hypercube:4").unwrap();
        assert_eq!((q.vertex_count(), q.edge_count(), q.degree(5)), (16, 32, 4));
        assert_eq!(Graph::named("hypercube:0").map(|g| g.vertex_count()), Ok(1));
        assert_eq!(Graph::named("cycle:5").unwrap().neighbours(0), &[1, 4]);
        assert_eq!(Graph::named("complete:5").unwrap().edge_count(), 10);
        assert_eq!(Graph::named("petersen").unwrap().neighbours(5), &[0, 7, 8]);
        for bad in ["cycle:2", "path:0", "path", "complete:x", "hypercube:21", "wheel:5", "petersen:3"] {
            assert!(matches!(Graph::named(bad), Err(Error::BadInput(_))), "{bad}");
        }
        assert_eq!(
            Graph::named("path:0").unwrap_err().to_string(),
            "the graph path:N needs N from 1 to 1048576, got 'path:0'"
        );
        assert!(Graph::named("complete:5794").is_err() && Graph::named("complete:5793").is_ok());
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
