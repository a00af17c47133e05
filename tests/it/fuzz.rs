//! Fuzzing on stable Rust: proptest drives arbitrary bytes through the board
//! parsers and arbitrary argument vectors with arbitrary input through the
//! whole command line, in-process (`lightsout::cli::run`).
//!
//! The CI run is short (the case counts below). The long run, documented in
//! docs/formats.md with the number of inputs tried, is
//!
//!     FUZZ_CASES=1000000 cargo test --release --test it fuzz::
//!
//! Every input that ever panicked stays below as a regression test, with
//! what was wrong.

use lightsout::model::TextBoards;
use lightsout::{Error, read_pbm};
use proptest::prelude::*;

/// Cases per property: `FUZZ_CASES` from the environment for a long run,
/// else the short default CI runs.
fn cases(default: u32) -> u32 {
    std::env::var("FUZZ_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

/// Board-like bytes: mostly board characters and line breaks, with the
/// occasional anything, so that both deep and shallow paths are reached.
fn board_bytes() -> impl Strategy<Value = Vec<u8>> {
    let byte = prop_oneof![
        8 => prop::sample::select(b"bwBW10#.".to_vec()),
        3 => Just(b'\n'),
        1 => prop::sample::select(b" \t\r".to_vec()),
        1 => any::<u8>(),
    ];
    let text = prop::collection::vec(byte, 0..300);
    let header =
        prop::sample::select(vec![&b""[..], b"P1\n", b"P4\n", b"P1 3 2\n", b"P4 9 2\n", b"P1\n# c\n4 4\n"]);
    (header, text).prop_map(|(h, t)| [h, &t[..]].concat())
}

/// Well-formed boards of random size and colours, one to three of them.
fn valid_boards() -> impl Strategy<Value = Vec<u8>> {
    (1usize..6, 1usize..6, 1usize..4).prop_flat_map(|(rows, cols, count)| {
        prop::collection::vec(prop::bool::ANY, rows * cols * count).prop_map(move |cells| {
            let mut text = Vec::new();
            for (i, chunk) in cells.chunks(cols).enumerate() {
                if i > 0 && i % rows == 0 {
                    text.push(b'\n');
                }
                text.extend(chunk.iter().map(|&b| if b { b'b' } else { b'w' }));
                text.push(b'\n');
            }
            text
        })
    })
}

fn size_option() -> impl Strategy<Value = Option<usize>> {
    prop_oneof![Just(None), (0usize..6).prop_map(Some), Just(Some(usize::MAX))]
}

/// Words an argument vector is made of: real flags, real values, and junk.
fn argument() -> impl Strategy<Value = String> {
    prop::sample::select(vec![
        "solve",
        "verify",
        "generate",
        "--rows",
        "--cols",
        "--target",
        "white",
        "black",
        "either",
        "grey",
        "--format",
        "poj",
        "text",
        "json",
        "--show",
        "--generate",
        "all-black",
        "all-white",
        "random",
        "--seed",
        "--density",
        "0.3",
        "1.5",
        "--max-nullity",
        "--shard",
        "1/2",
        "0/4",
        "--time-limit",
        "0.01",
        "merge",
        "--method",
        "dense",
        "chase",
        "auto",
        "--max-memory",
        "1K",
        "64M",
        "--output-pbm",
        "raw",
        "plain",
        "--pbm",
        "0",
        "1",
        "2",
        "3",
        "4",
        "17",
        "1048577",
        "99999999999999999999",
        "-3",
        "x",
        "-",
        "--",
        "--help",
        "",
    ])
    .prop_map(str::to_string)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(2000), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn parsers_answer_every_input_without_panicking(input in board_bytes(), rows in size_option(), cols in size_option()) {
        for result in TextBoards::new(&input, "fuzz", rows, cols) {
            match result {
                Ok(board) => {
                    prop_assert!(board.nrows() > 0 && board.ncols() > 0);
                    prop_assert!(rows.is_none_or(|r| r == board.nrows()));
                }
                Err(e) => {
                    prop_assert!(matches!(e, Error::Parse { .. } | Error::Mismatch { .. } | Error::BadSide { .. }), "{:?}", e);
                    prop_assert!(!e.to_string().contains('\n'));
                    // The library's words are neutral: the command line names its flags.
                    prop_assert!(!e.to_string().contains("--"), "{}", e);
                }
            }
        }
        if let Err(e) = read_pbm(&input, "fuzz") {
            prop_assert!(!e.to_string().contains('\n'));
        }
    }
}

/// Found by `parsers_answer_every_input_without_panicking`: `--rows` or
/// `--cols` of `usize::MAX` reached `Grid::zeros` and aborted the process
/// on a 2^61-byte allocation. `TextBoards` now refuses sizes outside
/// 1..=MAX_SIDE (and rows or boards larger than that) before allocating.
#[test]
fn regression_huge_size_options_are_refused_not_allocated() {
    for (rows, cols) in [(Some(usize::MAX), None), (None, Some(usize::MAX)), (Some(0), None)] {
        let result: Vec<_> = TextBoards::new(b"bw\nwb\n", "t", rows, cols).collect();
        assert_eq!(result.len(), 1);
        assert!(result[0].as_ref().unwrap_err().to_string().contains("outside 1..="), "{result:?}");
    }
}

/// Mostly well-formed solve arguments, so that most runs get past the
/// argument parser and into the solver.
fn solve_arguments() -> impl Strategy<Value = Vec<String>> {
    let pick = |options: &[&'static str]| prop::sample::select(options.to_vec()).prop_map(str::to_string);
    (
        prop::option::of(pick(&["1", "2", "3", "4", "5"])),
        prop::option::of(pick(&["1", "2", "3", "4", "5"])),
        pick(&["white", "black", "either"]),
        pick(&["poj", "text", "json"]),
        any::<bool>(),
        pick(&["auto", "dense", "chase"]),
        pick(&["0", "2", "32"]),
    )
        .prop_map(|(rows, cols, target, format, show, method, nullity)| {
            let mut args =
                vec!["--target".into(), target, "--format".into(), format, "--method".into(), method];
            args.extend(["--max-nullity".into(), nullity]);
            if let Some(r) = rows {
                args.extend(["--rows".into(), r]);
            }
            if let Some(c) = cols {
                args.extend(["--cols".into(), c]);
            }
            if show {
                args.push("--show".into());
            }
            args
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(300), failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn the_command_line_answers_every_input_without_panicking(
        args in prop_oneof![prop::collection::vec(argument(), 0..8), solve_arguments()],
        input in prop_oneof![board_bytes(), valid_boards()],
    ) {
        // --output, --png and --svg would write files and are left out of
        // the vocabulary; everything else may run.
        let argv: Vec<String> = std::iter::once("lightsout".to_string()).chain(args).collect();
        let (mut out, mut err) = (Vec::new(), Vec::new());
        let code = lightsout::cli::run(argv.clone(), &mut &input[..], &mut out, &mut err);
        let err = String::from_utf8_lossy(&err);
        prop_assert!([0, 1, 2, 3].contains(&code), "{argv:?}: exit {code}, {err}");
        if code >= 2 {
            let lines: Vec<&str> = err.lines().filter(|l| !l.contains("note:")).collect();
            prop_assert_eq!(lines.len(), 1, "{:?}: {}", argv, err);
            prop_assert!(lines[0].starts_with("lightsout: "));
        }
        let has = |word: &str| argv.iter().any(|a| a == word);
        if has("json") && has("--format") && !has("--help") && code == 0 {
            for line in String::from_utf8_lossy(&out).lines() {
                prop_assert!(serde_json::from_str::<serde_json::Value>(line).is_ok(), "{argv:?}: {line}");
            }
        }
    }
}
