//! Where each vertex of a graph is drawn: the pictures (`--png`, `--svg`)
//! and the page (`lightsout serve`) both place vertices by [`Layout::of`].
//!
//! A built-in graph is recognised by its edges (not by a name, so a graph
//! read from graph6 or an edge list that *is* the Petersen graph, numbered
//! as [`Graph::named`] numbers it, is drawn as one) and drawn as people
//! draw it: the Petersen graph as a pentagon round a pentagram, the Lights
//! Out Cube as its net, a hypercube as a projected cube, cycles and
//! complete graphs on a circle, a path as a snake, a grid graph as a grid.
//! Any other graph gets a force-directed layout, started from a circle and
//! run for a fixed number of steps: the same graph is always drawn the
//! same way, with no randomness.

use std::f64::consts::PI;

use super::Graph;

/// What a graph was recognised as, which decides its layout and its name
/// in a picture's title.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphShape {
    /// `Graph::named("petersen")`.
    Petersen,
    /// `Graph::named("cube")`, the Lights Out Cube.
    Cube,
    /// `cycle:N`.
    Cycle(usize),
    /// `path:N`.
    Path(usize),
    /// `complete:N`.
    Complete(usize),
    /// `hypercube:D`.
    Hypercube(u32),
    /// The rows × cols grid (vertex `r·cols + c`, orthogonal neighbours),
    /// at least two rows and two columns.
    Grid(usize, usize),
    /// None of the above.
    Other,
}

impl GraphShape {
    /// The graph's name for a title: `Petersen graph`, `cycle C7`,
    /// `3x4 grid graph`, or `graph` for any other.
    ///
    /// # Example
    /// ```
    /// use lightsout::model::{Graph, Layout};
    ///
    /// assert_eq!(Layout::of(&Graph::named("petersen")?).shape().name(), "Petersen graph");
    /// assert_eq!(Layout::of(&Graph::named("hypercube:4")?).shape().name(), "hypercube Q4");
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn name(&self) -> String {
        match *self {
            GraphShape::Petersen => "Petersen graph".into(),
            GraphShape::Cube => "Lights Out Cube".into(),
            GraphShape::Cycle(n) => format!("cycle C{n}"),
            GraphShape::Path(n) => format!("path P{n}"),
            GraphShape::Complete(n) => format!("complete graph K{n}"),
            GraphShape::Hypercube(d) => format!("hypercube Q{d}"),
            GraphShape::Grid(rows, cols) => format!("{rows}x{cols} grid graph"),
            GraphShape::Other => "graph".into(),
        }
    }
}

/// A position for each vertex of a graph, `[x, y]` with y growing
/// downwards (as on a screen), both in `0.0..=1.0`: the longer side of the
/// drawing spans the whole unit, the shorter starts at 0.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    shape: GraphShape,
    positions: Vec<[f64; 2]>,
    /// The cube's net: the length (in the unit box) of an edge between two
    /// stickers that touch in the net. Longer edges join stickers across a
    /// fold and are not drawn.
    net_unit: Option<f64>,
}

/// Most vertices given a force-directed layout; beyond it, a circle. The
/// force layout weighs every pair at every step, so its work grows as n²;
/// a picture of thousands of vertices is a blur either way.
const FORCE_MAX_VERTICES: usize = 1000;

impl Layout {
    /// The layout of `graph`: a built-in's own (recognised by its edges),
    /// a grid graph's grid, or a force-directed one.
    ///
    /// # Complexity
    /// O(n + m) to recognise a built-in or a grid; the force layout takes
    /// O(n² + m) a step for at most `FORCE_MAX_VERTICES` vertices, with
    /// fewer steps as the graph grows: about 4·10⁷ pair and edge visits in
    /// all (400 steps up to about 400 vertices), and never under 30 steps.
    ///
    /// # Example
    /// ```
    /// use lightsout::model::{Graph, Layout, GraphShape};
    ///
    /// let petersen = Layout::of(&Graph::named("petersen")?);
    /// assert_eq!(petersen.shape(), GraphShape::Petersen);
    /// // Vertex 0 at the top of the outer pentagon.
    /// assert!((petersen.positions()[0][0] - 0.5).abs() < 1e-9 && petersen.positions()[0][1] == 0.0);
    /// let any = Graph::from_edges(4, [(0, 2), (2, 1), (1, 3)])?; // a path, numbered otherwise
    /// assert_eq!(Layout::of(&any).shape(), GraphShape::Other);
    /// assert_eq!(Layout::of(&any), Layout::of(&any));
    /// # Ok::<(), lightsout::Error>(())
    /// ```
    pub fn of(graph: &Graph) -> Layout {
        let shape = recognise(graph);
        let n = graph.vertex_count();
        let raw = match shape {
            GraphShape::Petersen => petersen(),
            GraphShape::Cube => cube_net(),
            GraphShape::Cycle(n) | GraphShape::Complete(n) => circle(n),
            GraphShape::Path(n) => snake(n),
            GraphShape::Hypercube(d) => hypercube(d),
            GraphShape::Grid(rows, cols) => {
                (0..rows * cols).map(|v| [(v % cols) as f64, (v / cols) as f64]).collect()
            }
            GraphShape::Other if n <= FORCE_MAX_VERTICES => force(graph),
            GraphShape::Other => circle(n),
        };
        let (positions, scale) = fit(raw);
        // The net is drawn in stickers: one sticker apart is one net unit.
        let net_unit = (shape == GraphShape::Cube).then_some(scale);
        Layout { shape, positions, net_unit }
    }

    /// What the graph was recognised as.
    pub fn shape(&self) -> GraphShape {
        self.shape
    }

    /// Each vertex's `[x, y]`, in `0.0..=1.0`.
    pub fn positions(&self) -> &[[f64; 2]] {
        &self.positions
    }

    /// Whether the layout is a net (the cube's), whose edges across a fold
    /// are left out of drawings: see [`Layout::draws_edge`].
    pub fn is_net(&self) -> bool {
        self.net_unit.is_some()
    }

    /// Whether a drawing shows the edge `u`–`v`: every edge, except in the
    /// cube's net the ones between stickers that touch only once the net
    /// is folded (they would cross the drawing).
    ///
    /// # Panics
    /// If `u` or `v` is not a vertex.
    pub fn draws_edge(&self, u: usize, v: usize) -> bool {
        match self.net_unit {
            None => true,
            Some(unit) => {
                let (a, b) = (self.positions[u], self.positions[v]);
                (a[0] - b[0]).hypot(a[1] - b[1]) <= 1.3 * unit
            }
        }
    }
}

/// Which built-in (or grid) `graph` is, comparing its edges with the
/// built-in's own once its counts fit.
fn recognise(graph: &Graph) -> GraphShape {
    let (n, m) = (graph.vertex_count(), graph.edge_count());
    let is = |name: String| Graph::named(&name).is_ok_and(|g| g == *graph);
    if n == 10 && m == 15 && is("petersen".into()) {
        return GraphShape::Petersen;
    }
    if n == 54 && m == 108 && is("cube".into()) {
        return GraphShape::Cube;
    }
    if n >= 1 && m == n - 1 && is(format!("path:{n}")) {
        return GraphShape::Path(n);
    }
    if n >= 3 && m == n && is(format!("cycle:{n}")) {
        return GraphShape::Cycle(n);
    }
    if n >= 4 && n.is_power_of_two() {
        let d = n.trailing_zeros();
        if m == d as usize * n / 2 && is(format!("hypercube:{d}")) {
            return GraphShape::Hypercube(d);
        }
    }
    if n >= 1 && m as u64 == n as u64 * (n as u64 - 1) / 2 && is(format!("complete:{n}")) {
        return GraphShape::Complete(n);
    }
    // A grid of rows × cols has rows(cols − 1) + cols(rows − 1) edges;
    // rows = 1 is a path, found above.
    for rows in (2..=n / 2).filter(|r| n % r == 0) {
        let cols = n / rows;
        if cols >= 2 && rows * (cols - 1) + cols * (rows - 1) == m && *graph == grid(rows, cols) {
            return GraphShape::Grid(rows, cols);
        }
    }
    GraphShape::Other
}

/// The rows × cols grid graph, vertex `r·cols + c`.
fn grid(rows: usize, cols: usize) -> Graph {
    let mut edges = Vec::with_capacity(2 * rows * cols);
    for v in 0..rows * cols {
        if v % cols + 1 < cols {
            edges.push((v as u32, v as u32 + 1));
        }
        if v + cols < rows * cols {
            edges.push((v as u32, (v + cols) as u32));
        }
    }
    Graph::build(rows * cols, edges)
}

/// Vertex 0 at the top, the others clockwise (y grows downwards).
fn circle(n: usize) -> Vec<[f64; 2]> {
    (0..n)
        .map(|v| {
            let angle = 2.0 * PI * v as f64 / n as f64 - PI / 2.0;
            [angle.cos(), angle.sin()]
        })
        .collect()
}

/// The outer cycle 0–4 on a pentagon, vertex 0 at the top; spoke `i`–`i+5`
/// to the inner pentagon at half its radius, whose edges make the star.
fn petersen() -> Vec<[f64; 2]> {
    (0..10)
        .map(|v| {
            let angle = 2.0 * PI * (v % 5) as f64 / 5.0 - PI / 2.0;
            let radius = if v < 5 { 1.0 } else { 0.5 };
            [radius * angle.cos(), radius * angle.sin()]
        })
        .collect()
}

/// The Lights Out Cube as its net, in stickers: U over L F R B over D,
/// each face's 3×3 stickers as [`Graph::named`] numbers them
/// (9·face + 3·row + column, seen from outside).
fn cube_net() -> Vec<[f64; 2]> {
    // Each face's top-left sticker in the net: U, L, F, R, B, D.
    const CORNER: [(usize, usize); 6] = [(3, 0), (0, 3), (3, 3), (6, 3), (9, 3), (3, 6)];
    (0..54)
        .map(|v| {
            let (x, y) = CORNER[v / 9];
            let i = v % 9;
            [(x + i % 3) as f64, (y + i / 3) as f64]
        })
        .collect()
}

/// A path as a snake: rows of about √n vertices, each row the way back of
/// the last, so each vertex sits beside the next.
fn snake(n: usize) -> Vec<[f64; 2]> {
    let cols = (n as f64).sqrt().ceil().max(1.0) as usize;
    (0..n)
        .map(|v| {
            let (r, c) = (v / cols, v % cols);
            let c = if r % 2 == 1 { cols - 1 - c } else { c };
            [c as f64, r as f64]
        })
        .collect()
}

/// The D-dimensional hypercube projected to the plane, each bit a step:
/// bits 0 and 1 a square, bit 2 the square's oblique copy (the cube as it
/// is drawn on paper), bit 3 a second cube beside the first. Higher bits
/// place copies of that 4-cube in a grid, alternately across and down,
/// each step twice the last, slightly slanted so that the edges between
/// copies do not run through other vertices.
fn hypercube(d: u32) -> Vec<[f64; 2]> {
    // Chosen by measuring the closest pair of vertices and the closest
    // vertex to an edge not its own (0.14 and 0.07 of the width for D = 4).
    const FIRST: [[f64; 2]; 4] = [[1.0, 0.0], [0.0, 1.0], [0.5, 0.35], [1.9, -0.45]];
    // The 4-cube spans 3.4 across and 1.8 down; copies leave a gap.
    let step = |b: u32| -> [f64; 2] {
        if b < 4 {
            return FIRST[b as usize];
        }
        let j = b - 4;
        let scale = f64::from(1u32 << (j / 2).min(30));
        if j.is_multiple_of(2) { [4.4 * scale, 0.3 * scale] } else { [0.3 * scale, 2.8 * scale] }
    };
    let steps: Vec<[f64; 2]> = (0..d).map(step).collect();
    (0..1usize << d)
        .map(|u| {
            let mut p = [0.0, 0.0];
            for (b, s) in steps.iter().enumerate() {
                if u >> b & 1 == 1 {
                    p[0] += s[0];
                    p[1] += s[1];
                }
            }
            p
        })
        .collect()
}

/// A force-directed layout (Fruchterman and Reingold's): every pair of
/// vertices pushes apart, every edge pulls its ends together, and a weak
/// pull to the centre keeps separate components in view. It starts from
/// the circle, each vertex nudged by a fixed amount of its own so that
/// symmetric graphs can unfold, and moves each vertex at most a
/// "temperature" a step, cooling to nothing: deterministic, same input,
/// same drawing.
fn force(graph: &Graph) -> Vec<[f64; 2]> {
    let n = graph.vertex_count();
    if n <= 1 {
        return vec![[0.0, 0.0]; n];
    }
    let mut pos: Vec<[f64; 2]> = circle(n)
        .into_iter()
        .enumerate()
        .map(|(v, [x, y])| {
            // A small nudge from the vertex's number (Knuth's multiplicative hash).
            let h = (v as u64).wrapping_mul(2_654_435_761) % 1000;
            let r = 1.0 + 0.2 * (h as f64 / 1000.0 - 0.5);
            [r * x, r * y]
        })
        .collect();
    // The ideal distance between neighbours for n vertices in a box of area 4.
    let k = (4.0 / n as f64).sqrt();
    let steps = (40_000_000 / (n * n / 2 + graph.edge_count())).clamp(30, 400);
    let mut shift = vec![[0.0f64; 2]; n];
    for step in 0..steps {
        let temperature = 0.2 * (1.0 - step as f64 / steps as f64) + 0.002;
        shift.iter_mut().for_each(|s| *s = [0.0, 0.0]);
        for u in 0..n {
            for v in u + 1..n {
                let (dx, dy) = (pos[u][0] - pos[v][0], pos[u][1] - pos[v][1]);
                let d2 = (dx * dx + dy * dy).max(1e-12);
                // Repulsion k²/d along the unit vector: k²·delta/d².
                let push = k * k / d2;
                shift[u][0] += dx * push;
                shift[u][1] += dy * push;
                shift[v][0] -= dx * push;
                shift[v][1] -= dy * push;
            }
        }
        for (u, v) in graph.edges() {
            let (dx, dy) = (pos[u][0] - pos[v][0], pos[u][1] - pos[v][1]);
            // Attraction d²/k along the unit vector: delta·d/k.
            let pull = (dx * dx + dy * dy).sqrt() / k;
            shift[u][0] -= dx * pull;
            shift[u][1] -= dy * pull;
            shift[v][0] += dx * pull;
            shift[v][1] += dy * pull;
        }
        for (p, s) in pos.iter_mut().zip(&shift) {
            let s = [s[0] - 0.1 * p[0] / k, s[1] - 0.1 * p[1] / k];
            let length = s[0].hypot(s[1]);
            if length > 0.0 {
                let moved = length.min(temperature) / length;
                p[0] += s[0] * moved;
                p[1] += s[1] * moved;
            }
        }
    }
    pos
}

/// `raw` moved and scaled into the unit box (the longer side spanning it,
/// both starting at 0; a single point at the centre), with the scale used.
fn fit(raw: Vec<[f64; 2]>) -> (Vec<[f64; 2]>, f64) {
    let low = |k: usize| raw.iter().map(|p| p[k]).fold(f64::INFINITY, f64::min);
    let high = |k: usize| raw.iter().map(|p| p[k]).fold(f64::NEG_INFINITY, f64::max);
    let (x0, y0) = (low(0), low(1));
    let span = (high(0) - x0).max(high(1) - y0);
    if raw.is_empty() || span <= 0.0 {
        return (raw.iter().map(|_| [0.5, 0.5]).collect(), 1.0);
    }
    let scale = 1.0 / span;
    (raw.iter().map(|p| [(p[0] - x0) * scale, (p[1] - y0) * scale]).collect(), scale)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The closest pair of positions.
    fn closest(layout: &Layout) -> f64 {
        let p = layout.positions();
        let mut best = f64::INFINITY;
        for u in 0..p.len() {
            for v in 0..u {
                best = best.min((p[u][0] - p[v][0]).hypot(p[u][1] - p[v][1]));
            }
        }
        best
    }

    fn check(graph: &Graph, shape: GraphShape) -> Layout {
        let layout = Layout::of(graph);
        assert_eq!(layout.shape(), shape);
        assert_eq!(layout.positions().len(), graph.vertex_count());
        for p in layout.positions() {
            assert!(p.iter().all(|c| c.is_finite() && (0.0..=1.0).contains(c)), "{shape:?}: {p:?}");
        }
        if graph.vertex_count() > 1 {
            assert!(closest(&layout) > 1e-3, "{shape:?}: two vertices (nearly) on one spot");
            let top = |k: usize| layout.positions().iter().map(|p| p[k]).fold(0.0, f64::max);
            assert!((top(0).max(top(1)) - 1.0).abs() < 1e-12, "{shape:?}: the longer side spans the box");
        }
        // Same graph, same drawing, to the bit.
        assert_eq!(Layout::of(graph), layout);
        layout
    }

    #[test]
    fn built_ins_are_recognised_and_laid_out() {
        let named = |name: &str| Graph::named(name).unwrap();
        check(&named("petersen"), GraphShape::Petersen);
        for n in [3, 4, 7, 100] {
            check(&named(&format!("cycle:{n}")), GraphShape::Cycle(n));
        }
        for n in [1, 2, 8, 50] {
            check(&named(&format!("path:{n}")), GraphShape::Path(n));
        }
        // K3 is also the cycle C3, and K2 the path P2: the first found names it.
        check(&named("complete:3"), GraphShape::Cycle(3));
        for n in [4, 6, 30] {
            check(&named(&format!("complete:{n}")), GraphShape::Complete(n));
        }
        // Q2 is a 4-cycle numbered otherwise (0-1-3-2): drawn as a square
        // either way. Up to 2^10 vertices all apart.
        for d in 2..=10 {
            check(&named(&format!("hypercube:{d}")), GraphShape::Hypercube(d));
        }
        let grid_graph = grid(3, 5);
        check(&grid_graph, GraphShape::Grid(3, 5));
        check(&grid(4, 4), GraphShape::Grid(4, 4));
    }

    #[test]
    fn the_cube_is_drawn_as_its_net() {
        let cube = Graph::named("cube").unwrap();
        let layout = check(&cube, GraphShape::Cube);
        assert!(layout.is_net());
        // Within a face every edge shows; F's top row meets U's bottom row
        // in the net; U's left column meets L's top row only once folded.
        assert!(layout.draws_edge(18, 19) && layout.draws_edge(18, 6));
        assert!(cube.has_edge(0, 9) && !layout.draws_edge(0, 9));
        // Each face's 12 inner edges, and the 5 folds the net keeps open
        // (U–F, L–F, F–R, R–B, F–D), 3 edges each.
        assert_eq!(cube.edges().filter(|&(u, v)| layout.draws_edge(u, v)).count(), 6 * 12 + 5 * 3);
        assert!(!Layout::of(&Graph::named("petersen").unwrap()).is_net());
    }

    #[test]
    fn other_graphs_get_a_force_layout() {
        // A path numbered out of order, a random graph, one with isolated
        // vertices and two components, and a single vertex.
        let shuffled = Graph::from_edges(5, [(0, 3), (3, 1), (1, 4), (4, 2)]).unwrap();
        check(&shuffled, GraphShape::Other);
        let random = Graph::random(40, 80, 7).unwrap();
        check(&random, GraphShape::Other);
        check(&Graph::from_edges(7, [(0, 1), (1, 2), (2, 0), (4, 5)]).unwrap(), GraphShape::Other);
        let single = check(&Graph::from_edges(1, []).unwrap(), GraphShape::Path(1));
        assert_eq!(single.positions(), &[[0.5, 0.5]]);
        // Neighbours end up nearer than the average pair: the layout shows
        // the edges, not noise.
        let layout = Layout::of(&random);
        let p = layout.positions();
        let length = |(u, v): (usize, usize)| (p[u][0] - p[v][0]).hypot(p[u][1] - p[v][1]);
        let edge_mean = random.edges().map(length).sum::<f64>() / random.edge_count() as f64;
        let pairs: Vec<_> = (0..40).flat_map(|v| (0..v).map(move |u| (u, v))).collect();
        let pair_mean = pairs.iter().map(|&e| length(e)).sum::<f64>() / pairs.len() as f64;
        assert!(edge_mean < 0.8 * pair_mean, "edges {edge_mean:.3}, pairs {pair_mean:.3}");
        // Past the force layout's size, a circle.
        let big = Graph::random(FORCE_MAX_VERTICES + 1, 10, 1).unwrap();
        let top = Layout::of(&big).positions()[0];
        assert!((top[0] - 0.5).abs() < 1e-12 && top[1] == 0.0, "{top:?}");
    }
}
