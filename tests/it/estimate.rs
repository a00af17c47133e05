//! `--estimate` of branch and bound as a user reads it (issue 35, item 3):
//! the figures of a search that improves on its incumbent.

use crate::toolbox::run;

/// The figure before "merge-equivalents" and the rate before "merges a
/// CPU-second" of an estimate's line: the CPU seconds it forecasts.
fn forecast_seconds(line: &str) -> f64 {
    let number = |before: &str| -> f64 {
        let head = line.split(before).next().unwrap_or_else(|| panic!("no '{before}' in {line}"));
        head.split_whitespace().last().unwrap().parse().unwrap_or_else(|_| panic!("{line}"))
    };
    number(" merge-equivalents") / number(" merges a CPU-second")
}

/// Thin boards of large nullity whose search ends in a fraction of a
/// second: a 2x80 king board (nullity 81) and a 5x50 one (nullity 54),
/// random solvable. Their local search's incumbent is met by billions of
/// press sets (a press in row 1 of 2 rows flips what the press below it
/// flips), so probes that never improve on it forecast a tree of 10^11
/// merges: 14 minutes of CPU for 0.1 s (the cause). The estimate now
/// searches such a slice for real, as the search goes, when the probes
/// reach members within the incumbent, and counts it exactly when that
/// ends within its budget (the fix): under a minute, said to be counted.
/// An order of magnitude, not a timing: the figure printed, not a clock.
#[test]
fn a_thin_board_that_searches_at_once_is_forecast_under_a_minute() {
    for (rows, cols, nullity, least) in [("2", "80", 81, 35), ("5", "50", 54, 74)] {
        let size = ["-r", rows, "-c", cols, "--rule", "king"];
        let (board, _, code) =
            run(&[&["generate", "random-solvable", "--seed", "1"], &size[..]].concat(), "");
        assert_eq!(code, 0);
        let search = [&size[..], &["-t", "white", "--max-nullity", "128", "--engine", "branch"]].concat();
        let (out, err, code) = run(&[&search[..], &["--shard", "1/1", "--estimate"]].concat(), &board);
        assert_eq!((code, err.as_str()), (0, ""), "{rows}x{cols}");
        let line = out.lines().find(|l| l.starts_with("white: branch and bound over")).unwrap();
        assert!(line.contains(&format!("over 2^{nullity} members")), "{line}");
        assert!(line.contains("counted by searching the slice"), "{line}");
        let seconds = forecast_seconds(line);
        assert!(seconds < 60.0, "{rows}x{cols}: forecast {seconds} s: {line}");
        // And the search it forecasts does end, with the least press set.
        let (out, err, code) = run(&[&search[..], &["--format", "text"]].concat(), &board);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&format!("white: {least} presses (minimal)")), "{out}");
    }
}

/// Where no probe reaches a member within the incumbent (a(79) below 2629:
/// a proof that none exists), the estimate is Knuth's, and the parity
/// checks' triples are priced as measured here, apart from the merges.
#[test]
fn a_proof_is_estimated_by_probes_with_the_checks_priced_apart() {
    let a79 = ["-g", "all-black", "-r", "79", "-c", "79", "-t", "white", "--max-nullity", "64"];
    let slice = ["--incumbent", "2629", "--shard", "263297/1048576", "--estimate"];
    let (out, err, code) = run(&[&a79[..], &slice[..]].concat(), "");
    assert_eq!((code, err.as_str()), (0, ""));
    let line = out.lines().find(|l| l.starts_with("white: branch and bound over")).unwrap();
    assert!(line.contains(" parity-check triples at ") && line.contains(" merges each)"), "{line}");
    assert!(line.contains("(estimated from 4000 random probes)"), "{line}");
    // A slice takes seconds: the forecast is within a hundredfold of that.
    let seconds = forecast_seconds(line);
    assert!((0.1..100.0).contains(&seconds), "{seconds} s: {line}");
}
