//! Issue 32 item 5: typing boards at a terminal. A typo (`bwbx`) was
//! reported only once the board's three other rows were typed, and it
//! ended the run. Now a bad row is said as soon as it is typed (one line
//! naming the line and the character) and the person types the board
//! again; on a pipe a bad board still stops the run (exit 2).
//!
//! The terminal is a real pseudo-terminal: a small python3 program (its
//! `pty` module) runs the binary on one, types a line, waits for what the
//! binary says, types the next. Without python3 the terminal tests say
//! NOT RUN, as the browser tests do without Chromium.

use std::io::Write;
use std::process::Command;

use crate::toolbox::{binary, folder, run};

/// Drives the binary on a pseudo-terminal: `steps` are `("type", line)`
/// (a line and Enter; `"^D"` is Ctrl-D) and `("wait", text)` (until the
/// binary has written `text`, or 20 s). Prints everything the terminal
/// showed, then `EXIT <code>`; a wait that timed out prints `TIMEOUT
/// <text>` and ends the run.
const DRIVER: &str = r#"
import json, os, pty, select, sys, time
binary, steps = sys.argv[1], json.loads(sys.argv[2])
args = json.loads(sys.argv[3]) if len(sys.argv) > 3 else []
pid, fd = pty.fork()
if pid == 0:
    os.execv(binary, [binary] + args)
shown = b""
def read_until(text, seconds):
    global shown
    end = time.time() + seconds
    while text.encode() not in shown.replace(b"\r", b""):
        if time.time() > end:
            return False
        ready, _, _ = select.select([fd], [], [], 0.05)
        if ready:
            try:
                data = os.read(fd, 4096)
            except OSError:
                return text.encode() in shown
            if not data:
                return text.encode() in shown
            shown += data
    return True
for kind, text in steps:
    if kind == "type":
        os.write(fd, b"\x04" if text == "^D" else (text + "\n").encode())
    elif not read_until(text, 20):
        sys.stdout.write(shown.decode(errors="replace").replace("\r", ""))
        print("TIMEOUT " + text)
        os.kill(pid, 9)
        sys.exit(0)
read_until("\x00", 2)
_, status = os.waitpid(pid, 0)
sys.stdout.write(shown.decode(errors="replace").replace("\r", ""))
print("EXIT %d" % os.waitstatus_to_exitcode(status))
"#;

/// What the terminal showed while `steps` were typed, or `None` (and a
/// NOT RUN line) without python3.
fn at_a_terminal(test: &str, steps: &[(&str, &str)]) -> Option<String> {
    at_a_terminal_with(test, &[], steps)
}

/// [`at_a_terminal`] with the binary given `args`.
fn at_a_terminal_with(test: &str, args: &[&str], steps: &[(&str, &str)]) -> Option<String> {
    let driver = folder("terminal").join("drive.py");
    std::fs::write(&driver, DRIVER).unwrap();
    let steps = serde_json::to_string(steps).unwrap();
    let args = serde_json::to_string(args).unwrap();
    let out = match Command::new("python3").arg(&driver).arg(binary()).arg(steps).arg(args).output() {
        Ok(out) if out.status.success() => out,
        other => {
            let _ =
                writeln!(std::io::stderr(), "NOT RUN: terminal test {test}: python3 did not run: {other:?}");
            return None;
        }
    };
    let shown = String::from_utf8(out.stdout).unwrap();
    assert!(!shown.contains("TIMEOUT"), "{test}: waited in vain\n{shown}");
    Some(shown)
}

/// What a pipe answers for `board`: the same binary, the same board, no
/// terminal (the answer the terminal's is checked against).
fn piped_answer(board: &str) -> String {
    piped_answer_with(&[], board)
}

/// [`piped_answer`] with the binary given `args`.
fn piped_answer_with(args: &[&str], board: &str) -> String {
    let (out, err, code) = run(args, board);
    assert_eq!(code, 0, "{err}");
    out.trim().to_string()
}

const TYPO: &str = "lightsout: <stdin>: invalid character 'x' at line 1, column 4 (expected b, B, 1 or # for black, \
                    w, W, 0 or . for white); type it again";

#[test]
fn a_typo_is_said_at_once_and_the_board_typed_again() {
    let board = ["bwbw", "wbbb", "bwwb", "wwbw"];
    let answer = piped_answer(&(board.join("\n") + "\n"));
    // The note comes after `bwbx` and before any other row is typed: the
    // driver waits for it, its line end included (stderr may write the
    // text and the line end apart, and the next row's echo must not fall
    // between them), before typing on.
    let typo_line = format!("{TYPO}\n");
    let mut steps = vec![("type", "bwbx"), ("wait", typo_line.as_str())];
    steps.extend(board.iter().map(|row| ("type", *row)));
    let answered = format!("\n{answer}\n");
    steps.extend([("wait", answered.as_str()), ("type", "^D")]);
    let Some(shown) = at_a_terminal("a_typo_is_said_at_once_and_the_board_typed_again", &steps) else {
        return;
    };
    assert!(shown.ends_with("EXIT 0\n"), "{shown}");
    // The typo is said once, before the board typed again, which is
    // answered as the pipe answers it.
    let note = shown.find(TYPO).unwrap();
    assert_eq!(shown.matches("invalid character").count(), 1, "{shown}");
    let answered = shown.rfind(&answered).unwrap();
    assert!(note < shown.find("\nbwbw\n").unwrap() && shown.find("\nbwbw\n").unwrap() < answered, "{shown}");
}

#[test]
fn a_row_of_another_width_is_said_at_once() {
    let board = ["bbw", "wbw", "bww"];
    let answer = piped_answer(&(board.join("\n") + "\n"));
    let note =
        "lightsout: <stdin>: line 3 has 2 cells but line 1 has 3; type this board again from its first row";
    let note_line = format!("{note}\n");
    let mut steps = vec![("type", "bbw"), ("type", "wbw"), ("type", "bw"), ("wait", note_line.as_str())];
    steps.extend(board.iter().map(|row| ("type", *row)));
    let answered = format!("\n{answer}\n");
    steps.extend([("wait", answered.as_str()), ("type", "^D")]);
    let Some(shown) = at_a_terminal("a_row_of_another_width_is_said_at_once", &steps) else { return };
    assert!(shown.ends_with("EXIT 0\n"), "{shown}");
    assert!(shown.find(note).unwrap() < shown.rfind(&answered).unwrap(), "{shown}");
}

#[test]
fn on_a_pipe_a_bad_board_still_stops_the_run() {
    // Today's behaviour, kept exactly: the error once the board is read,
    // exit 2, and nothing after it answered.
    let (out, err, code) = run(&[], "bwbx\nbwbw\nbwbw\nbwbw\nbbbb\nbbbb\nbbbb\nbbbb\n");
    assert_eq!((out.as_str(), code), ("", 2));
    assert_eq!(
        err,
        "lightsout: <stdin>: invalid character 'x' at line 1, column 4 (expected b, B, 1 or # for black, w, W, 0 \
         or . for white)\n"
    );
}

/// K-state boards typed at a terminal: a bad row is said at once and the
/// board typed again, as two-state boards are (it used to end the run).
#[test]
fn a_k_state_typo_is_said_at_once_and_the_board_typed_again() {
    let args = ["--states", "3"];
    let board = ["120", "012", "201"];
    let answer = piped_answer_with(&args, &(board.join("\n") + "\n"));
    let (_, typo, code) = run(&args, "12x\n012\n201\n");
    assert_eq!(code, 2, "a pipe still stops: {typo}");
    let typo_line = format!("{}; type it again\n", typo.trim_end());
    let mut steps = vec![("type", "12x"), ("wait", typo_line.as_str())];
    steps.extend(board.iter().map(|row| ("type", *row)));
    let answered = format!("\n{answer}\n");
    steps.extend([("wait", answered.as_str()), ("type", "^D")]);
    let test = "a_k_state_typo_is_said_at_once_and_the_board_typed_again";
    let Some(shown) = at_a_terminal_with(test, &args, &steps) else { return };
    assert!(shown.ends_with("EXIT 0\n"), "{shown}");
    assert_eq!(shown.matches("type it again").count(), 1, "{shown}");
    assert!(shown.find(&typo_line).unwrap() < shown.rfind(&answered).unwrap(), "{shown}");
}
