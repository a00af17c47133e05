//! Random graphs: G(n, m), drawn from a seeded stream.

use std::collections::HashSet;

use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

use super::{Graph, MAX_EDGES, check_vertices};
use crate::error::Error;

impl Graph {
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
}
