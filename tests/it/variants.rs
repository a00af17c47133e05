//! The generalized game as a user runs it: boards of K states (`--states`)
//! and Lights Out on graphs (`--graph`), through the binary: answers that
//! re-apply, files in and out, and every bad input refused in one line.

use crate::toolbox::{folder, lightsout, press_plus, run};

fn digits(rows: &serde_json::Value) -> Vec<Vec<u32>> {
    rows.as_array()
        .unwrap()
        .iter()
        .map(|r| match r {
            serde_json::Value::String(s) => s.bytes().map(|b| u32::from(b - b'0')).collect(),
            serde_json::Value::Array(v) => v.iter().map(|x| x.as_u64().unwrap() as u32).collect(),
            other => panic!("a row is {other}"),
        })
        .collect()
}

#[test]
fn k_state_answers_re_apply_from_outside() {
    for (k, size, seed) in [(3u32, 5usize, 1u64), (4, 4, 2), (6, 3, 3), (5, 6, 4), (12, 3, 5)] {
        let (board, _, code) = run(
            &[
                "generate",
                "random",
                "-r",
                &size.to_string(),
                "-c",
                &size.to_string(),
                "--seed",
                &seed.to_string(),
                "--states",
                &k.to_string(),
            ],
            "",
        );
        assert_eq!(code, 0);
        let (out, err, code) = run(&["--states", &k.to_string(), "--format", "json"], &board);
        assert_eq!((code, err.as_str()), (0, ""), "K={k}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["states"], k);
        let cells: Vec<Vec<u32>> = board
            .lines()
            .map(|l| {
                if k <= 10 {
                    l.bytes().map(|b| u32::from(b - b'0')).collect()
                } else {
                    l.split_whitespace().map(|x| x.parse().unwrap()).collect()
                }
            })
            .collect();
        let targets = v["targets"].as_array().unwrap();
        assert_eq!(targets.len(), k as usize, "any: every uniform state");
        for t in targets.iter().filter(|t| t["solvable"] == true) {
            let presses = digits(&t["solution"]);
            let total: u32 = presses.iter().flatten().sum();
            assert_eq!(u64::from(total), t["presses"].as_u64().unwrap());
            let state = t["target"].as_u64().unwrap() as u32;
            let reached = press_plus(&cells, &presses, k);
            assert!(reached.iter().flatten().all(|&s| s == state), "K={k} target {state}");
        }
        // The POJ line is the best's presses.
        let (poj, _, _) = run(&["--states", &k.to_string()], &board);
        match v["best"]["presses"].as_u64() {
            Some(n) => assert_eq!(poj, format!("{n}\n")),
            None => assert_eq!(poj, "Impossible\n"),
        }
    }
}

#[test]
fn known_numbers_of_the_generalized_game() {
    // 5x5 over GF(3) has nullity 3 (3^22 solvable boards, OEIS A079875).
    let (out, _, _) = run(&["analyze", "-r", "5", "-c", "5", "--states", "3", "--format", "json"], "");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["nullity"].as_u64(), v["rank"].as_u64(), v["kernel_size"].as_str()),
        (Some(3), Some(22), Some("27"))
    );
    // 4x4 plus over Z_4: 64 kernel elements (not 4^4), no rank: Z_4 is no field.
    let (out, _, _) = run(&["analyze", "-r", "4", "-c", "4", "--states", "4", "--format", "json"], "");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(
        (v["kernel_size"].as_str(), &v["nullity"], &v["rank"]),
        (Some("64"), &serde_json::Value::Null, &serde_json::Value::Null)
    );
    let orders: u64 =
        v["quiet_patterns"].as_array().unwrap().iter().map(|q| q["order"].as_u64().unwrap()).product();
    assert_eq!(orders, 64, "the generators' orders multiply to the kernel's size");
    // verify against breadth-first search, on a grid and on graphs.
    for args in [
        &["verify", "-r", "2", "-c", "3", "--states", "6"][..],
        &["verify", "--graph", "petersen"][..],
        &["verify", "--graph", "cycle:6", "--states", "3", "--rule", "neighbours"][..],
    ] {
        let (out, err, code) = run(args, "");
        assert_eq!((code, err.as_str()), (0, ""), "{args:?}: {out}");
        assert!(out.contains("boards agree with breadth-first search"), "{out}");
        let counts: Vec<&str> = out.split(": ").nth(1).unwrap().split(" of ").collect();
        assert_eq!(counts[0], counts[1].split(' ').next().unwrap(), "{out}");
    }
    // A table of log2 kernel sizes: 5x5 over Z_3 is 3 log2 3.
    let (out, _, _) = run(&["table", "-r", "5", "-c", "5", "--states", "3", "--format", "csv"], "");
    assert!(out.starts_with("rows,cols,states,kernel_size_log2,nullity\n5,5,3,4.75"), "{out}");
}

#[test]
fn graphs_from_files_and_names() {
    let dir = folder("graphs");
    // The Petersen graph as graph6 (networkx: IheA@GUAo) and as an edge list.
    std::fs::write(dir.join("p.g6"), ">>graph6<<IheA@GUAo\n").unwrap();
    let edges = "# the Petersen graph\n10\n0 1\n1 2\n2 3\n3 4\n4 0\n0 5\n1 6\n2 7\n3 8\n4 9\n5 7\n7 9\n9 6\n6 8\n8 5\n";
    std::fs::write(dir.join("p.txt"), edges).unwrap();
    let board = "bwbbwwbwbw\nwwwwwwwwww\n";
    let by_name = run(&["--graph", "petersen", "--format", "json"], board);
    for file in ["p.g6", "p.txt"] {
        let path = dir.join(file);
        assert_eq!(run(&["--graph", path.to_str().unwrap(), "--format", "json"], board), by_name, "{file}");
    }
    let v: serde_json::Value = serde_json::from_str(by_name.0.lines().next().unwrap()).unwrap();
    assert_eq!(
        (v["topology"].as_str(), v["graph"]["vertices"].as_u64(), v["graph"]["edges"].as_u64()),
        (Some("graph"), Some(10), Some(15))
    );
    // The Lights Out Cube: 54 stickers, every one of degree 4.
    let (out, _, _) = run(&["analyze", "--graph", "cube", "--format", "json"], "");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!((v["cols"].as_u64(), v["nullity"].as_u64()), (Some(54), Some(6)));
    // K states on a graph, and a generated board.
    let (out, err, code) = run(&["--graph", "cycle:5", "--states", "3", "--format", "text"], "01201\n");
    assert_eq!((code, err.as_str()), (0, ""));
    assert!(out.starts_with("board 1: graph of 5 vertices, 3 states"), "{out}");
    let (out, _, code) =
        run(&["generate", "random", "--graph", "petersen", "--states", "7", "--seed", "3"], "");
    assert_eq!((code, out.len()), (0, 11));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn pgm_in_and_out() {
    let dir = folder("pgm");
    let board = lightsout()
        .args(["generate", "random", "-r", "40", "-c", "30", "--states", "5", "--seed", "9", "--pgm", "raw"])
        .output()
        .unwrap();
    assert!(board.stdout.starts_with(b"P5\n30 40\n4\n"), "{:?}", &board.stdout[..12]);
    std::fs::write(dir.join("b.pgm"), &board.stdout).unwrap();
    let text = run(&["generate", "random", "-r", "40", "-c", "30", "--states", "5", "--seed", "9"], "").0;
    let (from_text, _, _) = run(&["--states", "5", "-r", "40"], &text);
    let pgm = dir.join("b.pgm");
    let out = dir.join("presses.pgm");
    let (from_pgm, err, code) =
        run(&["--states", "5", pgm.to_str().unwrap(), "--output", out.to_str().unwrap()], "");
    assert_eq!((from_pgm.as_str(), err.as_str(), code), (from_text.as_str(), "", 0));
    let presses = std::fs::read(&out).unwrap();
    assert!(presses.starts_with(b"P5\n30 40\n4\n"));
    let total: u64 = presses[b"P5\n30 40\n4\n".len()..].iter().map(|&b| u64::from(b)).sum();
    assert_eq!(format!("{total}\n"), from_pgm, "the PGM holds the press counts");
    // Found when measuring: a raw PGM's pixels were read as text lines, and
    // one longer than a text line may be was refused ("line 4 is longer
    // than 1052672 bytes"). A 1200x1000 P5 of three states solves.
    let big = lightsout()
        .args(["generate", "random", "-r", "1200", "-c", "1000", "--states", "3", "--pgm", "raw"])
        .output()
        .unwrap();
    std::fs::write(dir.join("big.pgm"), &big.stdout).unwrap();
    let big = dir.join("big.pgm");
    let (_, err, code) = run(&["--states", "3", big.to_str().unwrap()], "");
    assert_eq!((code, err.as_str()), (0, ""));
    // A PGM of another maxval is refused, naming it.
    std::fs::write(dir.join("bad.pgm"), b"P2\n2 1\n9\n1 2\n").unwrap();
    let bad = dir.join("bad.pgm");
    let (_, err, code) = run(&["--states", "5", bad.to_str().unwrap()], "");
    assert_eq!(code, 2);
    assert!(err.contains("9") && err.lines().count() == 1, "{err}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Bad input of the generalized game: one line, exit 2, nothing on stdout.
#[test]
fn bad_variant_input_gets_one_line_and_exit_2() {
    let dir = folder("bad");
    std::fs::write(dir.join("short.g6"), "I?\n").unwrap();
    std::fs::write(dir.join("char.g6"), b"I?h\x01ABCDE\n").unwrap();
    std::fs::write(dir.join("beyond.txt"), "3\n0 1\n1 5\n").unwrap();
    std::fs::write(dir.join("loop.txt"), "0 1\n1 1\n").unwrap();
    let path = |f: &str| dir.join(f).to_str().unwrap().to_string();
    let (short, chr, beyond, lp) = (path("short.g6"), path("char.g6"), path("beyond.txt"), path("loop.txt"));
    let cases: Vec<(Vec<&str>, &str, &str)> = vec![
        (vec!["--states", "3"], "012\n215\n", "state 5 at line 2, column 3 is not below 3"),
        (vec!["--states", "0", "-g", "all-black", "-r", "2", "-c", "2"], "", "0 is not in 2..=255"),
        (vec!["--states", "1", "-g", "all-black", "-r", "2", "-c", "2"], "", "1 is not in 2..=255"),
        (vec!["--states", "256", "-g", "all-black", "-r", "2", "-c", "2"], "", "256 is not in 2..=255"),
        (vec!["--graph", &short, "-g", "all-black"], "", "truncated"),
        (vec!["--graph", &chr, "-g", "all-black"], "", "outside the graph6 range 63..=126"),
        (vec!["--graph", &beyond, "-g", "all-black"], "", "names vertex 5 but line 1 gives 3 vertices"),
        (vec!["--graph", &lp, "-g", "all-black"], "", "is a self-loop"),
        (vec!["--graph", "petersen"], "bwb\n", "line 1 has 3 states but the graph has 10 vertices"),
        (
            vec!["--graph", "petersen", "--states", "3"],
            "0 1 2 0\n",
            "line 1 has 4 states but the graph has 10 vertices",
        ),
        (vec!["--graph", "petersen", "-r", "1", "-g", "all-black"], "", "drop --rows and --cols"),
        (vec!["--graph", "petersen", "--torus", "-g", "all-black"], "", "--torus is for grids"),
        (vec!["--graph", "petersen", "--rule", "king", "-g", "all-black"], "", "not a rule on a graph"),
        (
            vec!["--states", "3", "-t", "5", "-g", "all-black", "-r", "2", "-c", "2"],
            "",
            "--target 5 is not a state below --states 3",
        ),
        (
            vec!["--states", "3", "-t", "white", "-g", "all-black", "-r", "2", "-c", "2"],
            "",
            "two-state words",
        ),
        (vec!["--states", "3", "-g", "random", "--density", "0.3", "-r", "2", "-c", "2"], "", "--density"),
        (
            vec!["--states", "3", "--shard", "1/2"],
            "012\n120\n201\n\n111\n111\n111\n",
            "search one board; the input has more",
        ),
        (vec!["--graph", "nosuch", "-g", "all-black"], "", "no built-in graph 'nosuch'"),
        (vec!["-t", "2", "-g", "all-black", "-r", "2", "-c", "2"], "", "not a state of a two-state board"),
        (
            vec!["table", "-r", "1..3", "-c", "1..3", "--graph", "petersen"],
            "",
            "a table runs over ranges of grid sizes",
        ),
    ];
    for (args, stdin, needle) in cases {
        let (out, err, code) = run(&args, stdin);
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.starts_with("lightsout: ") && err.contains(needle), "{args:?}: {err:?} lacks {needle:?}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Two states stay exactly as they were: `any` is `either`, 0 and 1 are
/// white and black.
#[test]
fn two_state_words_are_unchanged() {
    let sample = "bwwb\nbbwb\nbwwb\nbwww\n";
    let either = run(&["--format", "json", "-t", "either"], sample);
    assert_eq!(run(&["--format", "json"], sample), either);
    assert_eq!(run(&["--format", "json", "-t", "any"], sample), either);
    assert_eq!(
        run(&["--format", "json", "-t", "0"], sample),
        run(&["--format", "json", "-t", "white"], sample)
    );
    assert_eq!(
        run(&["--format", "json", "-t", "1"], sample),
        run(&["--format", "json", "-t", "black"], sample)
    );
    assert_eq!(run(&[], sample).0, "4\n");
}

/// A long search on a graph records the graph: its shards merge into the
/// unsharded answer of the same graph, never of a 1xN grid.
#[test]
fn graph_shards_record_their_graph() {
    let dir = folder("graph-shards");
    let board = run(&["generate", "random", "--graph", "complete:12", "--seed", "5"], "").0;
    let whole = run(&["--graph", "complete:12", "--rule", "neighbours", "--format", "json"], &board);
    let mut files = Vec::new();
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let (out, err, code) =
            run(&["--graph", "complete:12", "--rule", "neighbours", "--shard", &shard], &board);
        assert_eq!((code, err.as_str()), (0, ""));
        assert!(out.contains("\"graph\":\"K"), "the record holds the graph6: {out}");
        let name = dir.join(format!("part-{k}.json"));
        std::fs::write(&name, out).unwrap();
        files.push(name.to_str().unwrap().to_string());
    }
    let mut merge = vec!["merge", "--format", "json"];
    merge.extend(files.iter().map(String::as_str));
    assert_eq!(run(&merge, ""), whole);
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Issue 25 item 10: a graph file past the fixed 256 MiB cap said "larger
/// than --max-memory 256.0 MiB", even with `--max-memory 4G`: the cap is
/// the graph reader's own, and the message now names it.
#[test]
fn a_graph_file_past_its_cap_names_the_real_limit() {
    use std::io::Write as _;
    let dir = folder("big-graph");
    let path = dir.join("big.txt");
    let mut file = std::io::BufWriter::new(std::fs::File::create(&path).unwrap());
    let line = "0 1\n".repeat(1 << 14);
    for _ in 0..(257 << 20) / line.len() {
        file.write_all(line.as_bytes()).unwrap();
    }
    drop(file);
    let graph = path.to_str().unwrap();
    let (_, err, code) = run(&["--graph", graph, "--max-memory", "4G", "-g", "all-black"], "");
    std::fs::remove_file(&path).unwrap();
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("is larger than 256.0 MiB, the most a graph file may hold"), "{err}");
    assert!(!err.contains("--max-memory"), "{err}");
}
