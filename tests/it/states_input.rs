//! K-state boards as they come in: streamed from a pipe (each answered once
//! it is complete), and the rule for rows of numbers above 10 states.

use crate::toolbox::{run, stream_two};

/// Found by review: K-state boards on a pipe were read to the end of input
/// before the first answer, so a program feeding boards one at a time and
/// waiting for each answer hung. They now stream as two-state boards do:
/// a board is answered once complete (a blank line after it, `--rows`
/// rows, or its line on a graph) and the answers flushed when the next read
/// would wait.
#[test]
fn regression_piped_k_state_boards_are_answered_as_they_arrive() {
    let cases: [(&[&str], &str, &str); 4] = [
        (&["--states", "3"], "120\n012\n201\n\n", "111\n111\n111\n"),
        (&["--states", "4", "--rows", "2"], "0123\n3210\n", "1111\n2222\n"),
        (&["--states", "3", "--graph", "petersen"], "0120120120\n", "2222222222\n"),
        (&["--states", "12", "--rows", "2"], "0 11 3\n4 5 10\n", "1 1 1\n1 1 1\n"),
    ];
    for (args, first, second) in cases {
        // The answers a file gets.
        let (whole, err, code) = run(args, &format!("{first}{second}"));
        assert_eq!(code, 0, "{args:?}: {err}");
        let answers: Vec<&str> = whole.lines().collect();
        assert_eq!(answers.len(), 2, "{args:?}: {whole}");
        let (line, rest) = stream_two(args, first, second);
        assert_eq!(line, answers[0], "{args:?}");
        assert_eq!(rest, answers[1], "{args:?}");
    }
    // Squares without blank lines are squares, as in a file.
    let (out, _, code) = run(&["--states", "3"], "120\n012\n201\n111\n111\n111\n");
    assert_eq!((out.lines().count(), code), (2, 0));
    // A bad board after a good one: the good one answered, then one line.
    let (out, err, code) = run(&["--states", "3"], "12\n01\n\n13\n00\n");
    assert_eq!((out.lines().count(), code), (1, 2), "{err}");
    assert!(err.contains("line 4") && err.lines().count() == 1, "{err}");
}

/// Found by review: above 10 states a row is numbers separated by white
/// space, and a row written as digits (`123`) was silently read as the one
/// number 123. Such a row (one run of several digits) is now refused in one
/// line, unless the board is one cell wide (`--cols 1`, a graph of one
/// vertex).
#[test]
fn regression_a_row_of_digits_above_ten_states_is_refused() {
    let (_, err, code) = run(&["--states", "200"], "123\n");
    assert_eq!(code, 2);
    assert!(err.contains("'123' is one number or 3 cells") && err.contains("'1 2 3'"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
    // Numbers apart are read as numbers; one digit alone is no ambiguity.
    assert_eq!(run(&["--states", "13"], "12 3\n4 5\n").2, 0);
    assert_eq!(run(&["--states", "13", "--rows", "2"], "7\n5\n").2, 0);
    // One cell wide: a number of several digits is one cell.
    let (out, err, code) = run(&["--states", "13", "--cols", "1", "--format", "json"], "12\n");
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("\"states\":13"), "{out}");
    // Up to 10 states digits are cells, and a number of two digits is too large.
    let (_, err, code) = run(&["--states", "10"], "12 3\n4 5\n");
    assert_eq!(code, 2);
    assert!(err.contains("state 12 at line 1, column 1 is not below 10"), "{err}");
}

/// Found by review: the ambiguous-row hint told a graph to give --cols 1,
/// which a graph refuses, and told a grid `--cols 1` alone, which reads
/// boards without blank lines as square (three 1x1 boards, not one 3x1).
#[test]
fn regression_the_ambiguous_row_hint_says_what_works() {
    let (_, err, code) = run(&["--states", "12", "--graph", "petersen"], "1234567891\n");
    assert_eq!(code, 2);
    assert!(err.contains("write a row's states apart") && !err.contains("--cols"), "{err}");
    let (_, err, code) = run(&["--states", "12"], "11\n");
    assert_eq!(code, 2);
    assert!(err.contains("or give --rows N --cols 1 for a board N cells tall and one wide"), "{err}");
    // What the hint says works: one 3x1 board.
    let (out, err, code) =
        run(&["--states", "12", "--rows", "3", "--cols", "1", "-f", "json"], "11\n3\n10\n");
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 1, "one board: {out}");
    assert!(out.contains("\"rows\":3") && out.contains("\"cols\":1"), "{out}");
}
