//! The corpus of outputs: a few hundred commands whose stdout (and, for
//! errors, stderr), exit code and written files are pinned byte for byte.
//!
//! It guards refactors that must change no answer: the cases are listed in
//! `tests/data/corpus/cases.txt` (its header describes the syntax), and each
//! has `tests/data/corpus/expected/NAME.txt`, written by the binary itself:
//!
//!     LIGHTSOUT_BLESS=1 cargo test --release --test it corpus::   # rewrite every expected file
//!     cargo test --release --test it corpus::                      # compare
//!     LIGHTSOUT_CORPUS=merge,k3- cargo test --release --test it corpus::   # only names containing these
//!
//! Bless only when an output changes on purpose, and read the diff of the
//! expected files before committing it.
//!
//! Every case runs in a fresh directory under the system's temporary one,
//! holding links `examples` and `tests` to the repository's, so paths read as
//! they do from the repository root and written files land in the case's
//! directory. Search records (shards, checkpoints) carry the milliseconds
//! they ran; their checksum is checked as written, then the time is set to 0
//! and the record sealed again the way the binary seals it, so the pinned
//! record is a valid one and its hash and checksum are compared too.

use sha2::{Digest, Sha256};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use crate::toolbox::{binary, folder};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Text outputs past this size are pinned by their SHA-256 only.
const TEXT_LIMIT: usize = 256 * 1024;
/// Binary outputs up to this size are pinned as hex, larger ones by SHA-256.
const HEX_LIMIT: usize = 4096;

#[derive(Clone, Copy, PartialEq, Eq)]
enum Stderr {
    /// Pinned when the exit code is not 0 (an error's one line).
    OnError,
    /// Pinned always (`!stderr`: notes such as "not proven minimal").
    Always,
    /// Never pinned (`!nostderr`).
    Never,
}

enum Stdin {
    None,
    File(String),
    Text(Vec<u8>),
}

struct Case {
    name: String,
    line: usize,
    args: Vec<String>,
    stdin: Stdin,
    /// Files copied into the case's directory before the run (by base name).
    copies: Vec<String>,
    /// Files the run writes in its directory, pinned after it.
    outputs: Vec<String>,
    stderr: Stderr,
}

/// Splits a line into words: white space separates them, `'…'` and `"…"`
/// quote, a backslash outside quotes escapes the next character. Each word
/// comes with whether its first character was unquoted (only such a word
/// can be one of the special forms `<`, `<<`, `+`, `>`, `!`).
fn words(line: &str) -> Result<Vec<(bool, String)>, String> {
    let mut out = Vec::new();
    let mut chars = line.chars().peekable();
    loop {
        while chars.peek().is_some_and(|c| c.is_whitespace()) {
            chars.next();
        }
        let Some(&first) = chars.peek() else { break };
        let bare = !matches!(first, '\'' | '"' | '\\');
        let mut word = String::new();
        while let Some(c) = chars.next() {
            match c {
                c if c.is_whitespace() => break,
                '\'' | '"' => loop {
                    match chars.next() {
                        Some(q) if q == c => break,
                        Some(other) => word.push(other),
                        None => return Err(format!("unclosed {c}")),
                    }
                },
                '\\' => word.push(chars.next().ok_or("a backslash at the end of the line")?),
                c => word.push(c),
            }
        }
        out.push((bare, word));
    }
    Ok(out)
}

/// printf's escapes in inline standard input: `\n`, `\r`, `\t`, `\\`, `\xHH`.
fn unescape(text: &str) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    let mut bytes = text.bytes();
    while let Some(b) = bytes.next() {
        if b != b'\\' {
            out.push(b);
            continue;
        }
        match bytes.next() {
            Some(b'n') => out.push(b'\n'),
            Some(b'r') => out.push(b'\r'),
            Some(b't') => out.push(b'\t'),
            Some(b'\\') => out.push(b'\\'),
            Some(b'x') => {
                let hex: Vec<u8> = bytes.by_ref().take(2).collect();
                let hex = std::str::from_utf8(&hex).map_err(|e| e.to_string())?;
                out.push(u8::from_str_radix(hex, 16).map_err(|e| format!("\\x{hex}: {e}"))?);
            }
            other => return Err(format!("unknown escape \\{}", other.map_or('?', char::from))),
        }
    }
    Ok(out)
}

fn parse_cases(text: &str) -> Result<Vec<Case>, String> {
    let mut cases: Vec<Case> = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let line_no = index + 1;
        let at = |why: String| format!("cases.txt line {line_no}: {why}");
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        let mut words = words(line).map_err(at)?.into_iter();
        let Some((_, name)) = words.next() else { continue };
        if !name.chars().all(|c| c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.')) {
            return Err(at(format!("the name '{name}' is not [A-Za-z0-9._-]")));
        }
        if cases.iter().any(|c| c.name == name) {
            return Err(at(format!("the name '{name}' is used twice")));
        }
        let mut case = Case {
            name,
            line: line_no,
            args: Vec::new(),
            stdin: Stdin::None,
            copies: Vec::new(),
            outputs: Vec::new(),
            stderr: Stderr::OnError,
        };
        for (bare, word) in words {
            if !bare {
                case.args.push(word);
            } else if let Some(text) = word.strip_prefix("<<") {
                case.stdin = Stdin::Text(unescape(text).map_err(at)?);
            } else if let Some(path) = word.strip_prefix('<') {
                case.stdin = Stdin::File(path.to_string());
            } else if let Some(path) = word.strip_prefix('+') {
                case.copies.push(path.to_string());
            } else if let Some(path) = word.strip_prefix('>') {
                case.outputs.push(path.to_string());
            } else if word == "!stderr" {
                case.stderr = Stderr::Always;
            } else if word == "!nostderr" {
                case.stderr = Stderr::Never;
            } else if word.starts_with('!') {
                return Err(at(format!("unknown option {word}")));
            } else {
                case.args.push(word);
            }
        }
        cases.push(case);
    }
    Ok(cases)
}

/// A word as a shell would need it written.
fn shell_word(word: &str) -> String {
    let plain =
        !word.is_empty() && word.chars().all(|c| c.is_ascii_alphanumeric() || "-_./:=,@%+".contains(c));
    if plain { word.to_string() } else { format!("'{}'", word.replace('\'', r"'\''")) }
}

/// The command as one shell line, run from the repository root.
fn command_line(case: &Case) -> String {
    let mut line = String::from("lightsout");
    for arg in &case.args {
        line.push(' ');
        line.push_str(&shell_word(arg));
    }
    match &case.stdin {
        Stdin::None => line,
        Stdin::File(path) => format!("{line} < {}", shell_word(path)),
        Stdin::Text(bytes) => {
            let mut text = String::new();
            for &b in bytes {
                match b {
                    b'\n' => text.push_str("\\n"),
                    b'\r' => text.push_str("\\r"),
                    b'\t' => text.push_str("\\t"),
                    b'\\' => text.push_str("\\\\"),
                    b'\'' => text.push_str("'\\''"),
                    b'%' => text.push_str("%%"),
                    0x20..=0x7e => text.push(char::from(b)),
                    _ => text.push_str(&format!("\\x{b:02x}")),
                }
            }
            format!("printf '{text}' | {line}")
        }
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// One section of an expected file: text as it is, binary as hex, anything
/// large by its SHA-256.
fn section(title: &str, bytes: &[u8]) -> String {
    if bytes.is_empty() {
        return format!("--- {title}: empty\n");
    }
    let text = std::str::from_utf8(bytes)
        .ok()
        .filter(|t| !t.chars().any(|c| c.is_control() && c != '\n' && c != '\t'));
    match text {
        Some(text) if text.len() <= TEXT_LIMIT => {
            let end = if text.ends_with('\n') { "" } else { "\n\\ no newline at end\n" };
            format!("--- {title}\n{text}{end}")
        }
        _ if bytes.len() <= HEX_LIMIT => {
            let lines: Vec<String> = bytes.chunks(32).map(hex).collect();
            format!("--- {title}: {} bytes, hex\n{}\n", bytes.len(), lines.join("\n"))
        }
        _ => format!("--- {title}: {} bytes, sha256 {}\n", bytes.len(), hex(&Sha256::digest(bytes))),
    }
}

/// A search record's line with its time set to 0 and sealed again: the
/// checksum is SHA-256 of the record's JSON with the checksum empty (as
/// `src/record/seal.rs` seals it). A checksum that does not hold as written is
/// kept, marked, so the case fails.
fn normalize_record(line: &str) -> Option<String> {
    if !line.starts_with("{\"lightsout\":") {
        return None;
    }
    let mut value: serde_json::Value = serde_json::from_str(line).ok()?;
    let seal = |value: &mut serde_json::Value| {
        value["checksum"] = serde_json::Value::String(String::new());
        let digest = hex(&Sha256::digest(value.to_string().as_bytes()));
        value["checksum"] = serde_json::Value::String(digest);
    };
    let claimed = value.get("checksum")?.as_str()?.to_string();
    let mut copy = value.clone();
    seal(&mut copy);
    if copy["checksum"] != claimed.as_str() {
        return Some(format!("{line}\n!! the checksum above does not hold as written"));
    }
    if value.get("milliseconds").is_some() {
        value["milliseconds"] = serde_json::Value::from(0);
    }
    seal(&mut value);
    Some(value.to_string())
}

fn normalize(bytes: Vec<u8>) -> Vec<u8> {
    let Ok(text) = String::from_utf8(bytes.clone()) else { return bytes };
    if !text.contains("{\"lightsout\":") {
        return bytes;
    }
    let mut out = String::new();
    for piece in text.split_inclusive('\n') {
        let (line, end) = piece.strip_suffix('\n').map_or((piece, ""), |l| (l, "\n"));
        out.push_str(&normalize_record(line).unwrap_or_else(|| line.to_string()));
        out.push_str(end);
    }
    out.into_bytes()
}

/// What a case produced, rendered, and how long it ran.
type Run = Result<(String, Duration), String>;

/// Runs one case in a directory of its own and renders what it produced.
fn run_case(case: &Case) -> Run {
    let dir = folder(&format!("corpus-{}", case.name));
    let result = run_case_in(case, &dir);
    let _ = std::fs::remove_dir_all(&dir);
    result
}

fn run_case_in(case: &Case, dir: &Path) -> Run {
    let root = Path::new(ROOT);
    for link in ["examples", "tests"] {
        std::os::unix::fs::symlink(root.join(link), dir.join(link))
            .map_err(|e| format!("link {link}: {e}"))?;
    }
    for copy in &case.copies {
        let from = root.join(copy);
        let name = Path::new(copy).file_name().ok_or(format!("+{copy}: no file name"))?;
        std::fs::copy(&from, dir.join(name)).map_err(|e| format!("+{copy}: {e}"))?;
    }
    let mut command = Command::new(binary());
    command.args(&case.args).current_dir(dir).stdout(Stdio::piped()).stderr(Stdio::piped());
    command.stdin(match &case.stdin {
        Stdin::None => Stdio::null(),
        Stdin::File(path) => {
            Stdio::from(std::fs::File::open(root.join(path)).map_err(|e| format!("<{path}: {e}"))?)
        }
        Stdin::Text(_) => Stdio::piped(),
    });
    let start = Instant::now();
    let mut child = command.spawn().map_err(|e| format!("spawn: {e}"))?;
    if let Stdin::Text(bytes) = &case.stdin {
        let mut pipe = child.stdin.take().ok_or("no stdin pipe")?;
        // The binary may refuse before reading: a closed pipe is its answer.
        let _ = pipe.write_all(bytes);
    }
    let output = child.wait_with_output().map_err(|e| format!("wait: {e}"))?;
    let took = start.elapsed();
    let code = output.status.code().map_or_else(|| format!("signal ({})", output.status), |c| c.to_string());
    let mut text = format!("$ {}\nexit {code}\n", command_line(case));
    text.push_str(&section("stdout", &normalize(output.stdout)));
    let failed = !output.status.success();
    if case.stderr == Stderr::Always || (case.stderr == Stderr::OnError && failed) {
        text.push_str(&section("stderr", &output.stderr));
    }
    for name in &case.outputs {
        match std::fs::read(dir.join(name)) {
            Ok(bytes) => text.push_str(&section(&format!("file {name}"), &normalize(bytes))),
            Err(_) => text.push_str(&format!("--- file {name}: not written\n")),
        }
    }
    Ok((text, took))
}

/// The first line where `expected` and `actual` differ, with a little
/// context, as a diff would show it.
fn first_difference(expected: &str, actual: &str) -> String {
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let at = (0..e.len().max(a.len())).find(|&i| e.get(i) != a.get(i)).unwrap_or(0);
    let clip = |s: &str| {
        if s.chars().count() > 300 {
            format!("{}…", s.chars().take(300).collect::<String>())
        } else {
            s.to_string()
        }
    };
    let mut out = format!("@@ line {} @@\n", at + 1);
    for line in &e[at.saturating_sub(2)..at] {
        out.push_str(&format!(" {}\n", clip(line)));
    }
    for line in e.iter().skip(at).take(3) {
        out.push_str(&format!("-{}\n", clip(line)));
    }
    for line in a.iter().skip(at).take(3) {
        out.push_str(&format!("+{}\n", clip(line)));
    }
    if e.len() != a.len() {
        out.push_str(&format!("(expected {} lines, got {})\n", e.len(), a.len()));
    }
    out
}

fn expected_dir() -> PathBuf {
    Path::new(ROOT).join("tests/data/corpus/expected")
}

#[test]
fn corpus_of_outputs_is_unchanged() {
    let cases_path = Path::new(ROOT).join("tests/data/corpus/cases.txt");
    let text =
        std::fs::read_to_string(&cases_path).unwrap_or_else(|e| panic!("{}: {e}", cases_path.display()));
    let cases = parse_cases(&text).unwrap_or_else(|e| panic!("{e}"));
    let bless = std::env::var_os("LIGHTSOUT_BLESS").is_some_and(|v| !v.is_empty() && v != "0");
    let filter: Option<Vec<String>> = std::env::var("LIGHTSOUT_CORPUS")
        .ok()
        .filter(|f| !f.is_empty())
        .map(|f| f.split(',').map(str::to_string).collect());
    let chosen: Vec<&Case> = cases
        .iter()
        .filter(|c| filter.as_ref().is_none_or(|f| f.iter().any(|part| c.name.contains(part.as_str()))))
        .collect();
    assert!(!chosen.is_empty(), "LIGHTSOUT_CORPUS={filter:?} names no case");
    let expected_dir = expected_dir();
    if bless {
        std::fs::create_dir_all(&expected_dir).unwrap();
    }

    // Two workers: the machine the tests run on has two cores.
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Run)>> = Mutex::new(Vec::new());
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                loop {
                    let index = next.fetch_add(1, Ordering::Relaxed);
                    let Some(case) = chosen.get(index) else { break };
                    let result = run_case(case);
                    results.lock().unwrap().push((index, result));
                }
            });
        }
    });
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(index, _)| *index);

    let mut failures = Vec::new();
    let mut times = Vec::new();
    for (index, result) in results {
        let case = chosen[index];
        let path = expected_dir.join(format!("{}.txt", case.name));
        let (actual, took) = match result {
            Ok(done) => done,
            Err(why) => {
                failures.push(format!("{} (cases.txt line {}): could not run: {why}", case.name, case.line));
                continue;
            }
        };
        times.push((took, case.name.as_str()));
        if bless {
            std::fs::write(&path, &actual).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            continue;
        }
        match std::fs::read_to_string(&path) {
            Ok(expected) if expected == actual => {}
            Ok(expected) => failures.push(format!(
                "{} (cases.txt line {}) changed:\n  {}\n{}",
                case.name,
                case.line,
                command_line(case),
                first_difference(&expected, &actual)
            )),
            Err(_) => failures.push(format!("{}: no expected file {} (bless it)", case.name, path.display())),
        }
    }

    // Expected files of cases no longer listed.
    if filter.is_none() {
        for entry in std::fs::read_dir(&expected_dir).unwrap() {
            let path = entry.unwrap().path();
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string();
            if !cases.iter().any(|c| c.name == stem) {
                if bless {
                    std::fs::remove_file(&path).unwrap();
                } else {
                    failures.push(format!("{}: no case of this name in cases.txt", path.display()));
                }
            }
        }
    }

    times.sort();
    let total: Duration = times.iter().map(|(t, _)| *t).sum();
    let slowest: Vec<String> =
        times.iter().rev().take(5).map(|(t, name)| format!("{name} {:.2} s", t.as_secs_f64())).collect();
    eprintln!(
        "corpus: {} cases, {:.1} s of runs; slowest: {}",
        times.len(),
        total.as_secs_f64(),
        slowest.join(", ")
    );
    // A change that touches everything would bury the first diffs: the
    // first 20 in full, then the names.
    let shown: Vec<&str> = failures.iter().take(20).map(String::as_str).collect();
    let more: Vec<&str> = failures.iter().skip(20).map(|f| f.split(' ').next().unwrap_or_default()).collect();
    let more =
        if more.is_empty() { String::new() } else { format!("\nand {}: {}", more.len(), more.join(" ")) };
    assert!(
        failures.is_empty(),
        "{} of {} cases differ from tests/data/corpus/expected:\n\n{}{more}\n\n\
         Re-run one: LIGHTSOUT_CORPUS=NAME cargo test --release --test it corpus::\n\
         If the change is meant, bless and review: LIGHTSOUT_BLESS=1 cargo test --release --test it corpus::; git diff tests/data/corpus",
        failures.len(),
        chosen.len(),
        shown.join("\n")
    );
}
