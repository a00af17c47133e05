//! The integration tests' one toolbox: the binary run as a user runs it,
//! fresh folders, records sealed again as anyone can, JSON, and the
//! published tables in `tests/data/`. Shared by the three test binaries
//! (`it`, `browser`, `docs`), so that no test file keeps a copy of its own.
#![allow(dead_code)] // each binary uses its own part of it

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};

use serde_json::Value;

/// The `lightsout` binary that cargo built for this test run.
pub fn binary() -> PathBuf {
    PathBuf::from(env!("CARGO_BIN_EXE_lightsout"))
}

/// A command of the binary under test, for arguments, a folder or stdin.
pub fn lightsout() -> assert_cmd::Command {
    assert_cmd::Command::new(binary())
}

/// What a run of the binary printed: (stdout, stderr, exit code; -1 when
/// a signal ended it).
pub type Ran = (String, String, i32);

/// Runs the binary with `args` and `stdin`.
pub fn run(args: &[&str], stdin: &str) -> Ran {
    ran(lightsout().args(args).write_stdin(stdin))
}

/// Runs the binary in `dir` with `args` and an empty stdin.
pub fn run_in(dir: &Path, args: &[&str]) -> Ran {
    ran(lightsout().current_dir(dir).args(args))
}

/// Runs `command` to its end: what it printed and its exit code.
pub fn ran(command: &mut assert_cmd::Command) -> Ran {
    let out = command.output().unwrap();
    (
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

/// A fresh, empty folder for one test's files. The count keeps two tests
/// of one binary that pick the same name apart (they run in parallel).
pub fn folder(name: &str) -> PathBuf {
    static MADE: AtomicUsize = AtomicUsize::new(0);
    let made = MADE.fetch_add(1, Ordering::Relaxed);
    let dir = std::env::temp_dir().join(format!("lightsout-{name}-{}-{made}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// `text` as JSON, or a panic that quotes it.
pub fn json(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("not JSON ({e}): {text}"))
}

/// The JSON file at `path`.
pub fn read_json(path: impl AsRef<Path>) -> Value {
    let path = path.as_ref();
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    json(&text)
}

/// What the binary prints for `args` and `stdin`, one JSON value a line;
/// the run must succeed.
pub fn json_lines(args: &[&str], stdin: &str) -> Vec<Value> {
    let (out, err, code) = run(args, stdin);
    assert_eq!(code, 0, "lightsout {args:?}: {err}");
    out.lines().map(json).collect()
}

/// Seals `record` again as anyone who knows the format can: the SHA-256
/// of its JSON with the checksum empty (in the record's own key order).
pub fn reseal(mut record: Value) -> String {
    use sha2::{Digest, Sha256};
    record["checksum"] = "".into();
    let digest = Sha256::digest(record.to_string().as_bytes());
    record["checksum"] = digest.iter().map(|b| format!("{b:02x}")).collect::<String>().into();
    record.to_string()
}

/// Reads a published table from `tests/data/` (copied from the project's
/// shared reference data): `#` comments, then `key value` lines.
pub fn table(name: &str) -> BTreeMap<i64, u64> {
    let path = format!("{}/tests/data/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    text.lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let mut it = l.split_whitespace();
            (it.next().unwrap().parse().unwrap(), it.next().unwrap().parse().unwrap())
        })
        .collect()
}

/// The board reached from `board` by pressing each cell `presses[r][c]`
/// times under the plus rule on the plane, mod `states`: the tests' own
/// arithmetic, apart from the library, so answers are checked from outside.
pub fn press_plus(board: &[Vec<u32>], presses: &[Vec<u32>], states: u32) -> Vec<Vec<u32>> {
    let (rows, cols) = (board.len(), board[0].len());
    let mut out = board.to_vec();
    for (r, row) in presses.iter().enumerate() {
        for (c, &n) in row.iter().enumerate() {
            for (dr, dc) in [(0i64, 0i64), (-1, 0), (1, 0), (0, -1), (0, 1)] {
                let (rr, cc) = (r as i64 + dr, c as i64 + dc);
                if (0..rows as i64).contains(&rr) && (0..cols as i64).contains(&cc) {
                    let cell = &mut out[rr as usize][cc as usize];
                    *cell = (*cell + n) % states;
                }
            }
        }
    }
    out
}

/// A solvable board of `states` states, `rows`x`cols`: about a third of
/// its cells pressed (a seeded xorshift), from all 0, by the plus rule.
pub fn solvable_board(rows: usize, cols: usize, states: u32, seed: u64) -> Vec<Vec<u32>> {
    let mut random = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
    let mut next = || {
        random ^= random << 13;
        random ^= random >> 7;
        random ^= random << 17;
        random
    };
    let mut presses = vec![vec![0; cols]; rows];
    for cell in presses.iter_mut().flatten() {
        *cell = if next() % 3 == 0 { (next() % u64::from(states)) as u32 } else { 0 };
    }
    press_plus(&vec![vec![0; cols]; rows], &presses, states)
}

/// `board` as the CLI reads it: a row of digits a line.
pub fn digit_rows(board: &[Vec<u32>]) -> String {
    board.iter().map(|row| row.iter().map(u32::to_string).collect::<String>() + "\n").collect()
}

/// Pipes `first` to `lightsout ARGS` and waits for its first line of
/// answer while the pipe is still open (on a reader thread with a 20 s
/// limit, so that a regression fails instead of hanging), then pipes
/// `second`, closes the pipe and reads the rest: the first line and the
/// rest, trimmed. Asserts the process succeeds.
pub fn stream_two(args: &[&str], first: &str, second: &str) -> (String, String) {
    use std::io::{BufRead, BufReader, Read, Write};
    use std::process::{Command, Stdio};
    let mut child =
        Command::new(binary()).args(args).stdin(Stdio::piped()).stdout(Stdio::piped()).spawn().unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = BufReader::new(child.stdout.take().unwrap());
    stdin.write_all(first.as_bytes()).unwrap();
    stdin.flush().unwrap();
    let (send, receive) = std::sync::mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut line = String::new();
        stdout.read_line(&mut line).unwrap();
        send.send(line).unwrap();
        stdout
    });
    let line = receive
        .recv_timeout(std::time::Duration::from_secs(20))
        .unwrap_or_else(|_| panic!("{args:?}: no answer before the input ended"));
    let mut stdout = reader.join().unwrap();
    stdin.write_all(second.as_bytes()).unwrap();
    drop(stdin);
    let mut rest = String::new();
    stdout.read_to_string(&mut rest).unwrap();
    assert!(child.wait().unwrap().success(), "{args:?}");
    (line.trim().to_string(), rest.trim().to_string())
}
