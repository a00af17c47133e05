//! The built-in graphs: the Petersen graph, the Lights Out Cube, cycles,
//! paths, complete graphs and hypercubes, by name.

use super::{Graph, MAX_EDGES, MAX_VERTICES};
use crate::error::Error;

impl Graph {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
