//! Lights Out on graphs: the parsers against networkx, the solver against
//! brute force and breadth-first search, and Sutner's theorem.

use lightsout::Game;
use lightsout::{Graph, Grid, Method, Puzzle, Rule, Solver, Target, bfs};
use proptest::prelude::*;

fn data(name: &str) -> String {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Every graph of networkx's atlas (all graphs on at most 7 vertices), as
/// our parser reads the graph6 lines networkx wrote.
fn atlas() -> Vec<Graph> {
    data("atlas.g6")
        .lines()
        .enumerate()
        .map(|(i, line)| Graph::parse(line.as_bytes(), &format!("atlas G{i}")).unwrap())
        .collect()
}

/// The graph6 lines networkx wrote decode to the edges networkx holds,
/// and our writer gives the very same lines back.
#[test]
fn the_atlas_reads_as_networkx_wrote_it() {
    let (lines, edges) = (data("atlas.g6"), data("atlas.edges"));
    let mut count = 0;
    for ((i, line), expected) in lines.lines().enumerate().zip(edges.lines()) {
        let g = Graph::parse(line.as_bytes(), "atlas").unwrap();
        let numbers: Vec<usize> = expected.split(' ').map(|t| t.parse().unwrap()).collect();
        let pairs: Vec<(usize, usize)> = numbers[1..].chunks(2).map(|p| (p[0], p[1])).collect();
        assert_eq!(g.vertex_count(), numbers[0], "G{i}");
        assert_eq!(g.edges().collect::<Vec<_>>(), pairs, "G{i}");
        assert_eq!(g.to_graph6(), line, "G{i}");
        count += 1;
    }
    assert_eq!(count, 1253);
}

/// Both forms of N(n) (one byte up to 62 vertices, four bytes from 63) on
/// random graphs networkx wrote, against its edge lists.
#[test]
fn larger_graphs_in_both_forms_of_the_vertex_count() {
    for n in [62, 63, 64, 100, 300] {
        let g6 = data(&format!("graph6/random-{n}.g6"));
        let edges = data(&format!("graph6/random-{n}.edges"));
        assert_eq!(g6.starts_with('~'), n > 62, "{n}");
        let from_g6 = Graph::parse(g6.as_bytes(), "g6").unwrap();
        let from_edges = Graph::parse(edges.as_bytes(), "edges").unwrap();
        assert_eq!(from_g6, from_edges, "{n}");
        assert_eq!(from_g6.vertex_count(), n);
        assert_eq!(from_g6.to_graph6(), g6.trim_end(), "{n}");
        assert_eq!(from_g6.to_edge_list(), edges, "{n}");
    }
}

/// The fewest presses from each board to white (`.0`) and to black
/// (`.1`), found by trying all 2^n press sets, with masks built from the
/// adjacency lists here rather than from the puzzle.
fn brute_force(graph: &Graph, plus: bool) -> Vec<(u32, u32)> {
    let n = graph.vertex_count();
    let masks: Vec<u32> =
        (0..n).map(|v| graph.neighbours(v).iter().fold(u32::from(plus) << v, |m, &w| m | 1 << w)).collect();
    let mut fewest = vec![u32::MAX; 1 << n];
    for presses in 0u32..1 << n {
        let flips = (0..n).filter(|&v| presses >> v & 1 == 1).fold(0, |f, v| f ^ masks[v]);
        let best = &mut fewest[flips as usize];
        *best = (*best).min(presses.count_ones());
    }
    let all = (1u32 << n) - 1;
    (0..1u32 << n).map(|b| (fewest[b as usize], fewest[(b ^ all) as usize])).collect()
}

/// The solver's press counts to white and to black, `u32::MAX` where a
/// colour cannot be reached.
fn solved(solver: &Solver, board: &Grid) -> (u32, u32) {
    let answer = solver.solve(board, Target::EITHER).unwrap();
    let count = |t: &Target| {
        let s = answer.get(t).unwrap().solution.as_ref();
        assert!(s.is_none_or(|s| s.proven_minimal));
        s.map_or(u32::MAX, |s| s.presses.count_ones() as u32)
    };
    (count(&Target::White), count(&Target::Black))
}

fn board(n: usize, state: u32) -> Grid {
    bfs::decode(1, n, state)
}

/// Regression-style: a graph is a board of one row, and nothing of the
/// grid may leak into it. On every board of small random graphs the
/// solver's minimum equals brute force over all 2^n press sets, for both
/// rules and both colours.
#[test]
fn the_solver_equals_brute_force_on_small_graphs() {
    let mut graphs = vec![Graph::named("petersen").unwrap(), Graph::named("hypercube:3").unwrap()];
    for (seed, n) in (0..36u64).zip((1..=11).cycle()) {
        let possible = n * (n - 1) / 2;
        graphs.push(Graph::random(n, (seed as usize * 7) % (possible + 1), seed).unwrap());
    }
    for graph in &graphs {
        let n = graph.vertex_count();
        for (rule, plus) in [(Rule::plus(), true), (Rule::neighbours(), false)] {
            let puzzle = Puzzle::on_graph(graph.clone(), rule).unwrap();
            let solver = Solver::new(&puzzle, Method::Auto, 32).unwrap();
            let expected = brute_force(graph, plus);
            for state in 0..1u32 << n {
                assert_eq!(
                    solved(&solver, &board(n, state)),
                    expected[state as usize],
                    "{graph:?} {state:#x}"
                );
            }
        }
    }
}

/// The fewest presses turning `board` white, found component by component
/// (each a handful of vertices, tried exhaustively): the minimum of a
/// disjoint union is the sum of its parts' minima.
fn by_components(components: &[Graph], board: &Grid) -> u32 {
    let mut offset = 0;
    let mut total = 0;
    for part in components {
        let n = part.vertex_count();
        let state = (0..n).fold(0u32, |s, v| s | u32::from(board.get(0, offset + v)) << v);
        total += brute_force(part, true)[state as usize].0;
        offset += n;
    }
    total
}

/// Regression: a 1 × n board has a mirror (and its turn by 180°, the
/// same map), and the symmetric search folded by it whenever it mapped the
/// press lists and the board onto themselves, the row's own identity motion
/// included. Reversing the vertex order is no symmetry of a graph in
/// general; graphs now fold by none. Checked on unions of triangles and
/// edges (nullity 2 and 1 each under σ⁺), large enough for the folding to
/// be tried (nullity 22 and up): one whose order reverses onto itself,
/// one path-like chain that does not.
#[test]
fn graphs_fold_by_no_symmetry() {
    let triangle = Graph::named("complete:3").unwrap();
    let edge = Graph::named("path:2").unwrap();
    let symmetric = vec![triangle.clone(); 12];
    let lopsided: Vec<Graph> =
        (0..16).map(|i| if i % 3 == 0 { triangle.clone() } else { edge.clone() }).collect();
    for components in [symmetric, lopsided] {
        let sizes: Vec<usize> = components.iter().map(Graph::vertex_count).collect();
        let mut edges = Vec::new();
        let mut offset = 0;
        for part in &components {
            edges.extend(part.edges().map(|(u, v)| (u + offset, v + offset)));
            offset += part.vertex_count();
        }
        let n = offset;
        let union = Graph::from_edges(n, edges).unwrap();
        let puzzle = Puzzle::on_graph(union, Rule::plus()).unwrap();
        let solver = Solver::new(&puzzle, Method::Dense, 32).unwrap();
        assert!(solver.nullity() >= 22, "{sizes:?}: nullity {}", solver.nullity());
        // Every press lights or darkens a whole component (all of a
        // triangle or an edge), so the solvable boards are unions of them.
        let component: Vec<usize> = sizes.iter().enumerate().flat_map(|(i, &s)| vec![i; s]).collect();
        let boards = [
            Grid::from_fn(1, n, |_, _| true),
            Grid::from_fn(1, n, |_, c| component[c].is_multiple_of(2) || component[c] % 5 == 3),
        ];
        for b in &boards {
            let (_, coset) = solver.coset(b, &Target::White).unwrap().unwrap();
            assert_eq!(coset.symmetries(), 0, "{sizes:?}");
            let best = solver.solve_for(b, &Target::White).unwrap().unwrap();
            assert!(best.proven_minimal);
            assert_eq!(best.presses.count_ones() as u32, by_components(&components, b), "{sizes:?}");
        }
    }
}

/// Every board of every graph of the atlas, both rules: the solver's
/// minimum to each colour is the breadth-first search's.
#[test]
fn every_atlas_graph_agrees_with_bfs() {
    let mut checked = 0;
    for graph in atlas().into_iter().filter(|g| g.vertex_count() > 0) {
        let n = graph.vertex_count();
        for rule in [Rule::plus(), Rule::neighbours()] {
            let puzzle = Puzzle::on_graph(graph.clone(), rule).unwrap();
            let (white, black) = bfs::uniform_states(1, n);
            let to_white = bfs::distances(&puzzle, &[white]);
            let to_black = bfs::distances(&puzzle, &[black]);
            let solver = Solver::new(&puzzle, Method::Dense, 32).unwrap();
            let wide = |d: u8| if d == bfs::UNREACHABLE { u32::MAX } else { u32::from(d) };
            for state in 0..1u32 << n {
                let s = state as usize;
                let expected = (wide(to_white[s]), wide(to_black[s]));
                assert_eq!(solved(&solver, &board(n, state)), expected, "{graph:?} {state:#x}");
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 2 * 1252);
}

/// Sutner: in the σ⁺ game every graph's all-on board can be turned off
/// (equivalently, the all-white board reaches all black).
fn sutner_holds(graph: &Graph) -> bool {
    let puzzle = Puzzle::on_graph(graph.clone(), Rule::plus()).unwrap();
    let solver = Solver::new(&puzzle, Method::Dense, 0).unwrap();
    let all_on = Grid::from_fn(1, graph.vertex_count(), |_, _| true);
    solver.particular_to(&all_on, &Target::White).unwrap().is_some()
}

#[test]
fn sutner_on_the_atlas_and_named_graphs() {
    for g in atlas().iter().filter(|g| g.vertex_count() > 0) {
        assert!(sutner_holds(g), "{g:?}");
    }
    for name in ["petersen", "cube", "cycle:99", "path:98", "complete:40", "hypercube:8"] {
        assert!(sutner_holds(&Graph::named(name).unwrap()), "{name}");
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// Sutner's theorem on random graphs of up to 200 vertices and any density.
    #[test]
    fn sutner_on_random_graphs(n in 1usize..200, density in 0.0f64..1.0, seed in any::<u64>()) {
        let m = ((n * (n - 1) / 2) as f64 * density * density) as usize;
        let graph = Graph::random(n, m, seed).unwrap();
        prop_assert!(sutner_holds(&graph));
    }
}

/// Facts about σ⁺ nullities that follow from the flip matrix's form: the
/// cycle's is circulant (1 + x + x^(n−1)), so its nullity is 2 exactly when
/// 3 divides n; the path is the 1 × n board; the complete graph's matrix is
/// all ones (rank 1); an R × C grid built as a graph is the classic board.
#[test]
fn known_nullities_and_the_grid_as_a_graph() {
    let nullity = |g: Graph, rule: Rule| {
        Solver::new(&Puzzle::on_graph(g, rule).unwrap(), Method::Dense, 0).unwrap().nullity()
    };
    for n in 3..40usize {
        let expected = if n.is_multiple_of(3) { 2 } else { 0 };
        assert_eq!(nullity(Graph::named(&format!("cycle:{n}")).unwrap(), Rule::plus()), expected, "C{n}");
        let path = Puzzle::on_graph(Graph::named(&format!("path:{n}")).unwrap(), Rule::plus()).unwrap();
        let strip = Puzzle::new(1, n).unwrap();
        assert_eq!(path.flip_matrix(), strip.flip_matrix(), "P{n}");
        assert_eq!(nullity(Graph::named(&format!("complete:{n}")).unwrap(), Rule::plus()), n - 1, "K{n}");
    }
    for (rows, cols) in [(1, 1), (2, 3), (4, 4), (5, 5), (3, 9), (9, 8)] {
        let id = |r: usize, c: usize| r * cols + c;
        let mut edges = Vec::new();
        for r in 0..rows {
            for c in 0..cols {
                if c + 1 < cols {
                    edges.push((id(r, c), id(r, c + 1)));
                }
                if r + 1 < rows {
                    edges.push((id(r, c), id(r + 1, c)));
                }
            }
        }
        let grid = Graph::from_edges(rows * cols, edges).unwrap();
        for (rule, other) in [(Rule::plus(), Rule::plus()), (Rule::neighbours(), Rule::neighbours())] {
            let on_graph = Puzzle::on_graph(grid.clone(), rule).unwrap();
            let classic = Puzzle::new(rows, cols).unwrap().with_rule(other);
            assert_eq!(on_graph.flip_matrix(), classic.flip_matrix(), "{rows}x{cols}");
            let a = Solver::new(&on_graph, Method::Dense, 0).unwrap().nullity();
            assert_eq!(a, Solver::new(&classic, Method::Dense, 0).unwrap().nullity(), "{rows}x{cols}");
        }
    }
}

/// What a graph puzzle refuses and what it is not.
#[test]
fn graph_puzzles_refuse_grid_rules_and_chasing() {
    let petersen = Graph::named("petersen").unwrap();
    let king = Puzzle::on_graph(petersen.clone(), Rule::king()).unwrap_err();
    assert!(matches!(king, lightsout::Error::Unsupported(_)), "{king}");
    assert!(king.to_string().contains("not the rule king"), "{king}");
    let empty = Puzzle::on_graph(Graph::from_edges(0, []).unwrap(), Rule::plus()).unwrap_err();
    assert_eq!(empty.to_string(), "a puzzle on a graph needs at least one vertex");
    let puzzle = Puzzle::on_graph(petersen, Rule::plus()).unwrap();
    assert!(!puzzle.is_classic() && puzzle.is_symmetric() && puzzle.graph().is_some());
    assert_eq!(puzzle.transposed(), puzzle);
    assert_eq!(puzzle.clone().with_topology(lightsout::Topology::Torus), puzzle);
    assert!(Solver::new(&puzzle, Method::Chase, 0).is_err());
    // Two puzzles on equal graphs are equal (and hash alike): the graph,
    // not the Arc, is compared.
    let again = Puzzle::on_graph(Graph::named("petersen").unwrap(), Rule::plus()).unwrap();
    assert_eq!(again, puzzle);
    assert_ne!(again, Puzzle::on_graph(Graph::named("petersen").unwrap(), Rule::neighbours()).unwrap());
    assert_ne!(Puzzle::new(1, 10).unwrap(), puzzle);
}

/// The speed check of the brief, run by hand (`cargo test --release --test
/// it graphs::speed_check -- --ignored --nocapture`): a random graph of 10,000 vertices
/// and 50,000 edges, σ⁺, factored by dense elimination, one solution.
#[test]
#[ignore]
fn speed_check_10000_vertices() {
    let start = std::time::Instant::now();
    let graph = Graph::random(10_000, 50_000, 1).unwrap();
    let puzzle = Puzzle::on_graph(graph, Rule::plus()).unwrap();
    println!("estimate {} MB", lightsout::solve::limits::solve_bytes(&puzzle, true) >> 20);
    let solver = Solver::new(&puzzle, Method::Dense, 0).unwrap();
    let factored = start.elapsed();
    let board = Grid::from_fn(1, 10_000, |_, c| c % 3 == 0);
    let presses = solver.particular_to(&board, &Target::White).unwrap();
    if let Some(p) = &presses {
        solver.check(&board, p, &Target::White).unwrap();
    }
    println!(
        "nullity {}, factored in {factored:?}, solved in {:?} (solvable: {})",
        solver.nullity(),
        start.elapsed() - factored,
        presses.is_some()
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// The readers take any bytes without panicking: an error or a value.
    /// Inputs are built from the bytes each format is made of, so that
    /// they get past the first check.
    #[test]
    fn readers_never_panic(
        bytes in proptest::collection::vec(
            prop_oneof![Just(b'\n'), Just(b' '), Just(b'#'), b'0'..=b'9', 60u8..=128, any::<u8>()],
            0..200,
        ),
        prefix in prop_oneof![Just(&b""[..]), Just(&b">>graph6<<"[..]), Just(&b"P2 "[..]), Just(&b"P5 3 2 4\n"[..]), Just(&b"~"[..])],
        k in 0u8..=255,
    ) {
        let input = [prefix, &bytes].concat();
        let _ = Graph::parse(&input, "fuzz");
        let _ = lightsout::read_pgm(&input, "fuzz", k);
        let _ = lightsout::model::StateBoards::new(&input, "fuzz", k, None, None).count();
        let _ = lightsout::model::StateBoards::on_graph(&input, "fuzz", k, 3).count();
    }

    /// Whatever is written reads back: graphs as graph6 and edge lists,
    /// K-state boards as text and as both kinds of PGM.
    #[test]
    fn writers_and_readers_round_trip(
        n in 0usize..90,
        density in 0.0f64..1.0,
        seed in any::<u64>(),
        k in 2u8..=255,
        rows in 1usize..6,
    ) {
        let graph = Graph::random(n, ((n * n.saturating_sub(1) / 2) as f64 * density) as usize, seed).unwrap();
        prop_assert_eq!(&Graph::parse(graph.to_graph6().as_bytes(), "g6").unwrap(), &graph);
        prop_assert_eq!(&Graph::parse(graph.to_edge_list().as_bytes(), "edges").unwrap(), &graph);
        let cols = n.max(1);
        let board = lightsout::Generate::Random { seed, density }.states(rows, cols, k);
        let text = lightsout::state_lines(&board, k).join("\n");
        // One column above 10 states needs --cols 1: a row `12` is otherwise
        // refused as one number or two cells.
        let one_wide = (cols == 1 && k > 10).then_some(1);
        let back = lightsout::parse_state_boards(text.as_bytes(), "t", k, Some(rows), one_wide).unwrap();
        prop_assert_eq!(&back, &vec![board.clone()]);
        for raw in [false, true] {
            let image = lightsout::write_pgm(Vec::new(), &board, k, raw).unwrap();
            prop_assert_eq!(&lightsout::read_pgm(&image, "pgm", k).unwrap(), &vec![board.clone()]);
        }
    }
}
