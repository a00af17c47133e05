//! Issue 32 item 4: a graph's pictures (`analyze --graph G --png/--svg`,
//! `solve --graph G --png/--svg`) draw the graph, its vertices and edges
//! where the library's layout puts them, titled as a graph; before, they
//! were strips of one row titled "1x10 plane, rule plus". Each picture is
//! read back as a user's program would (the SVG's circles, in vertex
//! order, and lines; the PNG's size) and what it shows is re-checked
//! against the graph: a drawn quiet pattern is quiet, drawn presses clear
//! the drawn board.

use crate::toolbox::{folder, json, run};
use lightsout::Graph;

/// The circles of an SVG picture, in order: (fill colour, radius).
fn circles(svg: &str) -> Vec<(String, f64)> {
    let attribute = |line: &str, name: &str| -> String {
        let start = line.find(&format!(" {name}=\"")).unwrap_or_else(|| panic!("no {name} in {line}"))
            + name.len()
            + 3;
        line[start..].split('"').next().unwrap().to_string()
    };
    svg.lines()
        .filter(|l| l.starts_with("<circle"))
        .map(|l| (attribute(l, "fill"), attribute(l, "r").parse().unwrap()))
        .collect()
}

const DARK: &str = "#141414";
const LIGHT: &str = "#f5f5f0";
const PRESS: &str = "#dc2828";

/// The vertices drawn dark in each drawing of the graph (vertex discs
/// only: a press dot is smaller and red), `n` vertices a drawing.
fn dark_vertices(svg: &str, n: usize) -> Vec<Vec<usize>> {
    let discs: Vec<_> = circles(svg).into_iter().filter(|(fill, _)| fill != PRESS).collect();
    assert_eq!(discs.len() % n, 0, "{} vertex discs for {n} vertices", discs.len());
    discs
        .chunks(n)
        .map(|drawing| {
            assert!(drawing.iter().all(|(fill, _)| fill == DARK || fill == LIGHT), "{drawing:?}");
            (0..n).filter(|&v| drawing[v].0 == DARK).collect()
        })
        .collect()
}

/// `(width, height)` of a PNG file.
fn png_size(path: &std::path::Path) -> (u32, u32) {
    let decoder = png::Decoder::new(std::io::BufReader::new(std::fs::File::open(path).unwrap()));
    let reader = decoder.read_info().unwrap();
    (reader.info().width, reader.info().height)
}

/// `(width, height)` an SVG picture declares.
fn svg_size(svg: &str) -> (u32, u32) {
    let number = |name: &str| -> u32 {
        let start = svg.find(&format!("{name}=\"")).unwrap() + name.len() + 2;
        svg[start..].split('"').next().unwrap().parse().unwrap()
    };
    (number("width"), number("height"))
}

/// The vertices `presses` change on `graph` under the rule plus (each
/// press its vertex and its neighbours), as a set of flipped vertices.
fn flipped(graph: &Graph, presses: &[usize]) -> Vec<usize> {
    let mut state = vec![false; graph.vertex_count()];
    for &p in presses {
        state[p] ^= true;
        for &u in graph.neighbours(p) {
            state[u as usize] ^= true;
        }
    }
    (0..state.len()).filter(|&v| state[v]).collect()
}

#[test]
fn petersen_quiet_patterns_are_drawn_as_the_petersen_graph() {
    let dir = folder("graph-pictures");
    let (png, svg) = (dir.join("petersen.png"), dir.join("petersen.svg"));
    let (out, err, code) = run(
        &["analyze", "--graph", "petersen", "--png", png.to_str().unwrap(), "--svg", svg.to_str().unwrap()],
        "",
    );
    assert_eq!(code, 0, "{err}");
    assert!(out.starts_with("graph of 10 vertices and 15 edges, rule plus"), "{out}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(
        text.contains(">Petersen graph, 10 vertices, 15 edges, rule plus: 5 quiet patterns</text>"),
        "{text}"
    );
    // Five drawings of the graph: 10 discs and 15 edges each.
    assert_eq!((circles(&text).len(), text.matches("<line").count()), (50, 75));
    // Each drawing is quiet: pressing its dark vertices changes nothing.
    let petersen = Graph::named("petersen").unwrap();
    let drawn = dark_vertices(&text, 10);
    for pattern in &drawn {
        assert!(!pattern.is_empty() && flipped(&petersen, pattern).is_empty(), "{pattern:?}");
    }
    // The same five patterns the JSON lists, in its order.
    let analysis = json(&run(&["analyze", "--graph", "petersen", "--format", "json"], "").0);
    let listed: Vec<Vec<usize>> = serde_json::from_value(analysis["quiet_patterns"].clone()).unwrap();
    assert_eq!(drawn, listed);
    // The PNG is the same scene, and not the strips of a 1x10 board.
    assert_eq!(png_size(&png), svg_size(&text));
    let strips = dir.join("strips.png");
    run(&["analyze", "--rows", "1", "--cols", "10", "--png", strips.to_str().unwrap()], "");
    assert_ne!(png_size(&png), png_size(&strips));
}

#[test]
fn a_solved_graph_board_shows_its_board_and_presses_on_the_graph() {
    let dir = folder("graph-pictures");
    let svg = dir.join("solved.svg");
    // Vertex 0 pressed on white, drawn as a board of one row.
    let q4 = Graph::named("hypercube:4").unwrap();
    let board: String = (0..16).map(|v| if flipped(&q4, &[0]).contains(&v) { 'b' } else { 'w' }).collect();
    let (out, err, code) = run(&["solve", "--graph", "hypercube:4", "--svg", svg.to_str().unwrap()], &board);
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    let presses: usize = out.trim().parse().unwrap_or_else(|_| panic!("{out}"));
    let count = if presses == 1 { "1 press".to_string() } else { format!("{presses} presses") };
    let title = format!(">hypercube Q4, 16 vertices, 32 edges, {count} to white</text>");
    assert!(text.contains(&title), "{text}");
    assert_eq!(text.matches("<line").count(), 32);
    // The board as drawn is the board typed.
    let dark = dark_vertices(&text, 16).remove(0);
    assert_eq!(dark, flipped(&q4, &[0]));
    // A red dot sits on each pressed vertex, after its disc; pressing
    // them clears what is drawn dark.
    let all = circles(&text);
    let pressed: Vec<usize> = {
        let mut vertex = 0;
        let mut pressed = Vec::new();
        for (fill, _) in &all {
            if fill == PRESS {
                pressed.push(vertex - 1);
            } else {
                vertex += 1;
            }
        }
        pressed
    };
    assert_eq!(pressed.len(), presses);
    assert_eq!(flipped(&q4, &pressed), dark);
}

#[test]
fn a_graph_read_from_a_file_is_named_by_what_it_is() {
    let dir = folder("graph-pictures");
    // The Petersen graph written out as an edge list is still drawn (and
    // titled) as the Petersen graph: recognised by its edges.
    let petersen = Graph::named("petersen").unwrap();
    let edges: String = petersen.edges().map(|(u, v)| format!("{u} {v}\n")).collect();
    std::fs::write(dir.join("petersen.txt"), &edges).unwrap();
    // Another graph: a triangle with a tail, numbered as no built-in.
    std::fs::write(dir.join("tail.txt"), "0 1\n1 2\n2 0\n2 3\n3 4\n").unwrap();
    for (file, board, title) in [
        ("petersen.txt", "bbbbbbbbbb", ">Petersen graph, 10 vertices, 15 edges, "),
        ("tail.txt", "bbbbb", ">graph, 5 vertices, 5 edges, "),
    ] {
        let (graph, svg) = (dir.join(file), dir.join(file).with_extension("svg"));
        let (_, err, code) =
            run(&["solve", "--graph", graph.to_str().unwrap(), "--svg", svg.to_str().unwrap()], board);
        assert_eq!(code, 0, "{file}: {err}");
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.contains(title), "{file}: {text}");
    }
}

#[test]
fn the_cube_is_drawn_as_its_net_and_says_so() {
    let dir = folder("graph-pictures");
    let svg = dir.join("cube.svg");
    let (_, err, code) = run(&["analyze", "--graph", "cube", "--svg", svg.to_str().unwrap()], "");
    assert_eq!(code, 0, "{err}");
    let text = std::fs::read_to_string(&svg).unwrap();
    assert!(text.contains(">Lights Out Cube, 54 vertices, 108 edges, rule plus: 6 quiet patterns</text>"));
    assert!(text.contains("drawn as its net: edges between stickers that meet across a fold are not drawn"));
    // Six drawings; each shows the 72 edges inside faces and the 15 of
    // the five folds the net keeps.
    assert_eq!((circles(&text).len(), text.matches("<line").count()), (6 * 54, 6 * 87));
    let cube = Graph::named("cube").unwrap();
    for pattern in dark_vertices(&text, 54) {
        assert!(flipped(&cube, &pattern).is_empty(), "{pattern:?}");
    }
}

#[test]
fn a_graph_too_large_to_draw_is_one_line() {
    let dir = folder("graph-pictures");
    let png = dir.join("big.png");
    let (out, err, code) = run(&["analyze", "--graph", "cycle:5000", "--png", png.to_str().unwrap()], "");
    assert_eq!(code, 3, "{out}{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("a graph of 5000 vertices would be a blur (a picture draws at most 4096)"), "{err}");
    assert!(!png.exists());
    // complete:256 has 255 quiet patterns of 32,640 edges each.
    let (_, err, code) = run(&["analyze", "--graph", "complete:256", "--png", png.to_str().unwrap()], "");
    assert_eq!(
        (code, err.as_str()),
        (
            3,
            "lightsout: a picture of 8323200 edges in 255 drawings would be a blur (a picture draws at most 262144)\n"
        )
    );
    assert!(!png.exists());
}

/// The page draws a graph where the server's analysis says (its `layout`),
/// the library's layout that the pictures use: the page keeps no layout
/// code of its own.
#[tokio::test]
async fn the_server_gives_the_page_the_librarys_layout() {
    use axum::body::Body;
    use axum::http::{Request, StatusCode, header};
    use lightsout::model::Layout;
    use tower::ServiceExt;

    let app = lightsout::serve::router(lightsout::serve::Limits::default());
    let analyze = |body: serde_json::Value| {
        let app = app.clone();
        async move {
            let request = Request::post("/api/analyze")
                .header(header::CONTENT_TYPE, "application/json")
                .body(Body::from(body.to_string()))
                .unwrap();
            let response = app.oneshot(request).await.unwrap();
            assert_eq!(response.status(), StatusCode::OK);
            let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
            serde_json::from_slice::<serde_json::Value>(&bytes).unwrap()
        }
    };
    // The page sends graph6 (the Petersen graph's is IheA@GUAo), a link may
    // name a built-in; either way the library's layout, to 4 decimals.
    let petersen = Graph::named("petersen").unwrap();
    for (graph, states) in [(petersen.to_graph6(), 2), ("petersen".to_string(), 3)] {
        let answer = analyze(serde_json::json!({"graph": graph, "states": states})).await;
        let layout = &answer["layout"];
        assert_eq!(
            (&layout["shape"], &layout["net"]),
            (&serde_json::json!("Petersen graph"), &serde_json::json!(false))
        );
        let sent: Vec<[f64; 2]> = serde_json::from_value(layout["positions"].clone()).unwrap();
        let library = Layout::of(&petersen);
        assert_eq!(sent.len(), 10);
        for (a, b) in sent.iter().zip(library.positions()) {
            assert!((a[0] - b[0]).abs() <= 5e-5 && (a[1] - b[1]).abs() <= 5e-5, "{a:?} against {b:?}");
        }
    }
    let cube = analyze(serde_json::json!({"graph": "cube"})).await;
    assert_eq!(cube["layout"]["net"], serde_json::json!(true));
    assert_eq!(cube["layout"]["positions"].as_array().unwrap().len(), 54);
    // A grid has no layout to send.
    let grid = analyze(serde_json::json!({"rows": 3, "cols": 3})).await;
    assert!(grid.get("layout").is_none(), "{grid}");
}
