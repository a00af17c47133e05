//! `hardest -r A..B -c C..D`, Most Clicks over ranges of sizes (issue 34
//! item 6): every entry is what `hardest` says of that size alone, in
//! text, CSV and JSON lines; bad ranges and flags for one size are refused
//! in one line; and `hardest --distribution --svg` draws the distribution,
//! a bar per count, read back here.

use std::process::{Command as Process, Stdio};
use std::time::Duration;

use serde_json::Value;

use crate::toolbox::{binary, folder, json, json_lines, run, run_in};

/// The table's JSON line of a size and `hardest`'s own answer for it
/// agree: bounds, how and where from, and the certified board.
fn same_answer(entry: &Value, alone: &Value, what: &str) {
    let most = &alone["most_presses"];
    for (table_key, key) in [
        ("lower", "lower"),
        ("upper", "upper"),
        ("proven", "exact"),
        ("how", "how"),
        ("lower_from", "lower_from"),
        ("upper_from", "upper_from"),
        ("board", "board"),
    ] {
        assert_eq!(entry[table_key], most[key], "{what}: {table_key}");
    }
    assert_eq!(entry["nullity"], alone["nullity"], "{what}: nullity");
}

/// Every size of the ranges, once each, equal to a run of `hardest` on it
/// alone (the plane to 6x6 to white, a torus's either colour, the king's
/// rule to black); and every board the table prints needs exactly its
/// Most Clicks when solved again.
#[test]
fn every_entry_is_what_hardest_says_of_its_size_alone() {
    let cases: [(&[&str], &[&str]); 3] = [
        (&["-r", "1..6", "-c", "1..6"], &[]),
        (&["-r", "2..4", "-c", "3..5"], &["--torus", "-t", "any"]),
        (&["-r", "3..5", "-c", "4"], &["--rule", "king", "-t", "black"]),
    ];
    for (ranges, rest) in cases {
        let lines = json_lines(&[&["hardest", "-f", "json"], ranges, rest].concat(), "");
        let (rows, cols) = (span(ranges[1]), span(ranges[3]));
        assert_eq!(lines.len(), rows.len() * cols.len(), "{ranges:?} {rest:?}: a line per size");
        let mut seen = Vec::new();
        for entry in &lines {
            let (r, c) = (entry["rows"].as_u64().unwrap(), entry["cols"].as_u64().unwrap());
            seen.push((r, c));
            let (r, c) = (r.to_string(), c.to_string());
            let alone = json_lines(&[&["hardest", "-f", "json", "-r", &r, "-c", &c], rest].concat(), "");
            same_answer(entry, &alone[0], &format!("{r}x{c} {rest:?}"));
            assert_eq!(entry["proven"], true, "{r}x{c} {rest:?}: small sizes settle");
        }
        seen.sort();
        let all: Vec<(u64, u64)> =
            rows.iter().flat_map(|&r| cols.iter().map(move |&c| (r as u64, c as u64))).collect();
        assert_eq!(seen, all, "{ranges:?}: every size once");
    }
    // The boards, solved again by the exhaustive solver.
    for entry in json_lines(&["hardest", "-r", "4..5", "-c", "4..6", "-f", "json"], "") {
        let board: String = entry["board"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r.as_str().unwrap().to_string() + "\n")
            .collect();
        let (r, c) = (entry["rows"].to_string(), entry["cols"].to_string());
        let (presses, err, code) = run(&["-r", &r, "-c", &c, "-t", "white"], &board);
        assert_eq!(code, 0, "{r}x{c}: {err}");
        assert_eq!(presses.trim(), entry["lower"].to_string(), "{r}x{c}: the board solved again");
    }
}

/// `1..6` as the sizes 1 to 6, `4` as the one size 4.
fn span(range: &str) -> Vec<usize> {
    let (a, b) = range.split_once("..").unwrap_or((range, range));
    (a.parse().unwrap()..=b.parse().unwrap()).collect()
}

/// The text grid: a title, the columns, a row per row of sizes, and a
/// line saying how many are proven; CSV: a header and a line per size,
/// the same numbers as JSON.
#[test]
fn text_csv_and_json_say_the_same() {
    let ranges = ["hardest", "-r", "3..5", "-c", "4..5"];
    let (text, err, code) = run(&ranges, "");
    assert_eq!((code, err.as_str()), (0, ""));
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines,
        [
            "Most Clicks (the most presses a solvable board needs) to white, 3..5 x 4..5 plane, rule plus",
            "  |  4  5",
            "3 | 12  8",
            "4 |  7 20",
            "5 | 20 15",
            "6 of 6 sizes proven (3 of nullity 0); work: 2.8e4 of the table's 1.4e11 weighings",
        ],
        "{text}"
    );
    let entries = json_lines(&[&ranges[..], &["-f", "json"]].concat(), "");
    let (csv, err, code) = run(&[&ranges[..], &["-f", "csv"]].concat(), "");
    assert_eq!((code, err.as_str()), (0, ""));
    let mut csv_lines = csv.lines();
    assert_eq!(
        csv_lines.next(),
        Some("rows,cols,nullity,lower,upper,proven,how,lower_from,upper_from,weighings")
    );
    let rows: Vec<Vec<&str>> = csv_lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), entries.len());
    for (row, entry) in rows.iter().zip(&entries) {
        let fields = ["rows", "cols", "nullity", "lower", "upper", "proven"];
        for (cell, key) in row.iter().zip(fields) {
            assert_eq!(*cell, entry[key].to_string(), "{key} of {entry}");
        }
        assert_eq!(row[6], entry["how"].as_str().unwrap());
        assert_eq!(row[9], entry["weighings"].to_string());
    }
}

/// A size left unsettled by a small budget is bounded, and its bounds
/// bracket the truth (9x9: 37); the table spends no more than its budget,
/// shared by the sizes cheapest first (8x9, nullity 1, first).
#[test]
fn a_small_budget_bounds_and_is_kept() {
    let lines = json_lines(&["hardest", "-r", "8..9", "-c", "9", "-f", "json", "--max-work", "1e7"], "");
    let nine = lines.iter().find(|e| e["rows"] == 9).unwrap();
    let (lower, upper) = (nine["lower"].as_u64().unwrap(), nine["upper"].as_u64().unwrap());
    assert!(lower <= 37 && 37 <= upper && lower < upper, "{nine}");
    assert_eq!(nine["proven"], false);
    let spent: u64 = lines.iter().map(|e| e["weighings"].as_u64().unwrap()).sum();
    assert!(spent <= 10_000_000, "{spent} weighings of 1e7");
    let (text, _, code) = run(&["hardest", "-r", "8..9", "-c", "9", "--max-work", "1e7"], "");
    assert_eq!(code, 0);
    assert!(text.contains(&format!("9 | {lower}..{upper}")), "{text}");
    assert!(text.contains("1 of 2 sizes proven (0 of nullity 0); A..B: bounds, not proven"), "{text}");
}

/// Bad ranges, and what only one size can do, refused in one line, exit 2
/// (a table past its sizes, exit 3).
#[test]
fn bad_ranges_and_one_size_flags_are_refused() {
    let refused: [(&[&str], &str); 9] = [
        (&["-r", "5..3", "-c", "4"], "a range runs from 1 or more up, got '5..3'"),
        (&["-r", "0..3", "-c", "4"], "a range runs from 1 or more up"),
        (&["-r", "1..x", "-c", "4"], "expected a size or a range like 1..100, got '1..x'"),
        (&["-r", "1..3", "-c", "4", "--states", "3"], "a table of Most Clicks is for two states"),
        (&["-r", "1..3", "-c", "4", "--distribution"], "--distribution counts one size's boards"),
        (&["-r", "1..3", "-c", "4", "-o", "x.pbm"], "--output writes one size's board"),
        (&["-r", "1..3", "-c", "4", "--svg", "x.svg"], "--png and --svg draw one size's distribution"),
        (&["-r", "3", "-c", "4", "-f", "csv"], "--format csv is for a table of sizes"),
        (&["-r", "3", "-c", "4", "--png", "x.png"], "--png and --svg draw the distribution as a histogram"),
    ];
    let dir = folder("most-clicks-refused");
    for (args, message) in refused {
        let (out, err, code) = run_in(&dir, &[&["hardest"], args].concat());
        assert_eq!((code, out.as_str()), (2, ""), "{args:?}: {err}");
        assert!(err.contains(message), "{args:?}: {err}");
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0, "no file written");
    // A table past the sizes it weighs is a limit, as `table`'s is: exit 3.
    let (out, err, code) = run_in(&dir, &["hardest", "-r", "1..300", "-c", "1..300"]);
    assert_eq!((code, out.as_str()), (3, ""), "{err}");
    assert!(err.contains("is 90000 sizes; a table of Most Clicks weighs at most 65536"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}

/// Ctrl-C stops the table cleanly: what was weighed is printed (9x9 with
/// the bounds reached), the rest said on stderr, exit 130.
#[test]
fn an_interrupted_table_prints_what_was_weighed() {
    let child = Process::new(binary())
        .args(["hardest", "-r", "8..9", "-c", "9", "-f", "json"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    let status = Process::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.starts_with("lightsout: interrupted: "), "{err}");
    assert!(err.contains(" of 2 sizes weighed"), "{err}");
    for entry in String::from_utf8(out.stdout).unwrap().lines().map(json) {
        let (lower, upper) = (entry["lower"].as_u64().unwrap(), entry["upper"].as_u64().unwrap());
        let truth = if entry["rows"] == 9 { 37 } else { 57 };
        assert!(lower <= truth && truth <= upper, "{entry}");
    }
}

/// The bars of a histogram SVG: (presses, boards, height, red) read back
/// from each bar's title and rectangle.
fn bars(svg: &str) -> Vec<(u64, String, f64, bool)> {
    svg.lines()
        .filter(|l| l.contains("<title>"))
        .map(|l| {
            let attr = |name: &str| {
                let from = l.find(&format!(" {name}=\"")).unwrap() + name.len() + 3;
                l[from..from + l[from..].find('"').unwrap()].to_string()
            };
            let title = &l[l.find("<title>").unwrap() + 7..l.find("</title>").unwrap()];
            let (presses, rest) = title.split_once(" presses: ").unwrap();
            let boards = rest.split(' ').next().unwrap().to_string();
            (presses.parse().unwrap(), boards, attr("height").parse().unwrap(), attr("fill") == "#dc2828")
        })
        .collect()
}

/// `--distribution --svg` draws a bar per number of presses, its title the
/// count the JSON gives, its height the count on the picture's scale (log
/// for 5x5, whose counts span 1 to 1.9 million; linear for the 2x3 torus),
/// Most Clicks' bar alone in red; the PNG is written too.
#[test]
fn the_histogram_has_a_bar_per_count_of_the_distribution() {
    let dir = folder("histogram");
    for (size, log) in [(&["-r", "5", "-c", "5"][..], true), (&["-r", "2", "-c", "3", "--torus"][..], false)]
    {
        let args = [&["hardest", "--distribution"], size].concat();
        let (out, err, code) =
            run_in(&dir, &[&args[..], &["-f", "json", "--svg", "h.svg", "--png", "h.png"]].concat());
        assert_eq!(code, 0, "{err}");
        let answer = json(&out);
        let counts: Vec<(u64, String)> = answer["distribution"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| (d["presses"].as_u64().unwrap(), d["boards"].as_str().unwrap().to_string()))
            .collect();
        let svg = std::fs::read_to_string(dir.join("h.svg")).unwrap();
        let drawn = bars(&svg);
        let read: Vec<(u64, String)> = drawn.iter().map(|(w, n, _, _)| (*w, n.clone())).collect();
        assert_eq!(read, counts, "{size:?}: a bar per count");
        let most = answer["most_presses"]["upper"].as_u64().unwrap();
        let red: Vec<u64> = drawn.iter().filter(|b| b.3).map(|b| b.0).collect();
        assert_eq!(red, [most], "{size:?}: Most Clicks' bar in red");
        assert_eq!(svg.contains("boards (log scale)"), log, "{size:?}");
        // Heights in proportion to the counts (or to their logarithms above
        // the foot of half a board), to the pixel.
        let value = |n: &str| {
            let n: f64 = n.parse().unwrap();
            if log { n.log10() - 0.5f64.log10() } else { n }
        };
        let (_, top, top_height, _) = drawn.iter().max_by(|a, b| a.2.total_cmp(&b.2)).unwrap();
        let per = top_height / value(top);
        for (w, n, height, _) in &drawn {
            assert!(
                (height - value(n) * per).abs() <= 1.0,
                "{size:?}: bar {w} of {n} boards is {height} high"
            );
        }
        assert!(std::fs::metadata(dir.join("h.png")).unwrap().len() > 0);
        let _ = std::fs::remove_file(dir.join("h.svg"));
    }
}

/// `cheap_distribution` (the page's *Hardest*): the distribution where the
/// library's estimate of its count is small, as `hardest --distribution`
/// prints it (5x5), and none where it is not (the 6x6 torus, 6.9e10
/// weighings), with the same most presses either way.
#[tokio::test]
async fn the_server_counts_a_cheap_distribution_only() {
    let app = lightsout::serve::router(lightsout::serve::Limits::default());
    let post = |body: Value| {
        let app = app.clone();
        async move {
            let (status, answer) = crate::serve::post(&app, "/api/hardest", &body).await;
            assert!(status.is_success(), "{answer}");
            answer
        }
    };
    let five = post(serde_json::json!({"rows": 5, "cols": 5, "cheap_distribution": true})).await;
    let cli = json_lines(&["hardest", "-r", "5", "-c", "5", "--distribution", "-f", "json"], "").remove(0);
    assert_eq!(five["distribution"], cli["distribution"]);
    assert_eq!(five["most_presses"], cli["most_presses"]);
    let torus =
        post(serde_json::json!({"rows": 6, "cols": 6, "torus": true, "cheap_distribution": true})).await;
    assert_eq!(torus.get("distribution"), None, "{torus}");
    assert_eq!(torus["most_presses"]["lower"], 14);
}

/// A histogram of thousands of bars would be a blur (70x70, nullity 0: a
/// bar for each of 0 to 4900 presses): refused in one line, exit 3, no
/// file written; a 40x40's 1601 bars are drawn a pixel each.
#[test]
fn a_histogram_past_its_bars_is_refused() {
    let dir = folder("histogram-bars");
    let (out, err, code) =
        run_in(&dir, &["hardest", "-r", "70", "-c", "70", "--distribution", "--svg", "x.svg"]);
    assert_eq!((code, out.as_str()), (3, ""), "{err}");
    assert!(err.contains("a histogram of 4901 bars (0 to 4900 presses) would be a blur"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(!dir.join("x.svg").exists());
    let (_, err, code) =
        run_in(&dir, &["hardest", "-r", "40", "-c", "40", "--distribution", "--svg", "x.svg"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(bars(&std::fs::read_to_string(dir.join("x.svg")).unwrap()).len(), 1601);
}
