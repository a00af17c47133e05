//! The docs' examples, run: every command pasted with its output in
//! `README.md` or `docs/*.md` is run with the built binary and its output
//! compared, so the docs cannot drift from what the program prints.
//!
//! The convention, in a fenced block (```` ``` ````, any info string):
//!
//! ```text
//! $ lightsout analyze --rows 4 --cols 4     <- a command (a line ending in \ goes on)
//! 4x4 plane, rule plus                      <- what it prints, stdout and stderr as they interleave
//! …
//! exit 2                                    <- only when the exit code is not 0
//! ```
//!
//! Commands run with `sh -c` (pipes, `<` and `>` work) in order, one block in
//! a fresh directory holding links `examples` and `tests` to the
//! repository's and empty `docs/img` and `target` folders, so paths read as
//! from the repository root and written files stay out of the work tree.
//! `lightsout` is the binary under test. A command whose `localhost:PORT`
//! is a server's (`curl`) is sent to a `lightsout serve --port 0` this test
//! starts. A picture a block writes under `docs/img/` must be byte for byte
//! the one in the repository. A block that is long, random or
//! machine-dependent (timings, shards on a cluster, estimates) is marked
//! just before its fence:
//!
//! ```text
//! <!-- docs-test: skip (why) -->
//! ```
//!
//!     cargo test --release --test docs -- --nocapture      # counts what ran and what was skipped
//!     LIGHTSOUT_DOCS=serve,study cargo test --release --test docs   # only files whose path has these
//!     LIGHTSOUT_BLESS=1 cargo test --release --test docs   # paste the actual outputs into the docs
//!
//! Bless only after reading each difference: the output is the truth unless
//! the output is wrong; then the program needs fixing, not the doc.

use std::io::Read;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

mod toolbox;
use toolbox::{binary, folder};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const SKIP: &str = "<!-- docs-test: skip";
/// A command that runs longer than this has hung (the longest runs about 2 s).
const TIMEOUT: Duration = Duration::from_secs(60);

/// One `$ command` and the output pasted under it.
#[derive(Debug)]
struct Example {
    /// 1-based line of the `$` in its file.
    line: usize,
    command: String,
    /// 0-based lines of the file the output occupies (trailing blank lines excluded).
    output_lines: std::ops::Range<usize>,
    expected: String,
    exit: i32,
}

/// A fenced block holding at least one example.
#[derive(Debug)]
struct Block {
    file: String,
    /// 1-based line of the opening fence.
    line: usize,
    indent: String,
    skip: Option<String>,
    examples: Vec<Example>,
}

/// Splits a markdown file into its blocks of examples. A `$ ` line outside
/// any fenced block is an error: it would silently go untested.
fn parse(file: &str, text: &str) -> Result<Vec<Block>, String> {
    let lines: Vec<&str> = text.lines().collect();
    let mut blocks = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        if !trimmed.starts_with("```") {
            if trimmed.starts_with("$ ") {
                return Err(format!(
                    "{file}:{}: a `$ ` command outside a fenced block (put it in one, so it is tested)",
                    i + 1
                ));
            }
            i += 1;
            continue;
        }
        let indent = lines[i][..lines[i].len() - trimmed.len()].to_string();
        let open = i;
        let end = (open + 1..lines.len())
            .find(|&j| lines[j].trim_start().starts_with("```"))
            .ok_or(format!("{file}:{}: a fence that is never closed", open + 1))?;
        let skip = lines[..open]
            .iter()
            .rev()
            .find(|l| !l.trim().is_empty())
            .map(|l| l.trim())
            .filter(|l| l.starts_with(SKIP))
            .map(|l| l[SKIP.len()..].trim_end_matches("-->").trim().to_string());
        let body = |j: usize| lines[j].strip_prefix(indent.as_str()).unwrap_or(lines[j].trim_start());
        let mut examples = Vec::new();
        let mut j = open + 1;
        while j < end {
            let Some(first) = body(j).strip_prefix("$ ") else {
                j += 1;
                continue;
            };
            let line = j + 1;
            let mut command = first.to_string();
            while command.ends_with('\\') && j + 1 < end {
                j += 1;
                command.push('\n');
                command.push_str(body(j));
            }
            j += 1;
            let start = j;
            while j < end && !body(j).starts_with("$ ") {
                j += 1;
            }
            let mut stop = j;
            while stop > start && body(stop - 1).trim().is_empty() {
                stop -= 1;
            }
            let mut output: Vec<&str> = (start..stop).map(body).collect();
            let mut exit = 0;
            if let Some(code) =
                output.last().and_then(|l| l.strip_prefix("exit ")).and_then(|c| c.parse().ok())
            {
                exit = code;
                output.pop();
            }
            examples.push(Example {
                line,
                command,
                output_lines: start..stop,
                expected: output.join("\n"),
                exit,
            });
        }
        if !examples.is_empty() {
            blocks.push(Block { file: file.to_string(), line: open + 1, indent, skip, examples });
        } else if skip.is_some() {
            return Err(format!("{file}:{}: a skip marker before a block with no `$ ` command", open + 1));
        }
        i = end + 1;
    }
    Ok(blocks)
}

/// README.md and docs/*.md, in a fixed order.
fn markdown_files() -> Vec<String> {
    let mut files = vec!["README.md".to_string()];
    let mut docs: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("docs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(".md"))
        .map(|name| format!("docs/{name}"))
        .collect();
    docs.sort();
    files.extend(docs);
    files
}

/// What a command printed (stdout and stderr together) and its exit code.
struct Ran {
    output: String,
    exit: i32,
}

/// Waits for a child, killing its process group past `TIMEOUT`.
fn wait(mut child: Child) -> Result<i32, String> {
    let start = Instant::now();
    loop {
        if let Some(status) = child.try_wait().map_err(|e| format!("wait: {e}"))? {
            return Ok(status.code().unwrap_or(-1));
        }
        if start.elapsed() > TIMEOUT {
            let _ = Command::new("kill").args(["-KILL", "--", &format!("-{}", child.id())]).status();
            let _ = child.wait();
            return Err(format!("still running after {} s, killed", TIMEOUT.as_secs()));
        }
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs one command line in `dir` with `lightsout` on the PATH.
fn run(command: &str, dir: &Path, bin: &Path) -> Result<Ran, String> {
    use std::os::unix::process::CommandExt;
    let path = format!("{}:{}", bin.display(), std::env::var("PATH").unwrap_or_default());
    // One file for both streams keeps their order as the binary wrote them.
    let out_path = dir.join(".docs-test-output");
    let out = std::fs::File::create(&out_path).map_err(|e| format!("{}: {e}", out_path.display()))?;
    let child = Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(out.try_clone().map_err(|e| e.to_string())?)
        .stderr(out)
        .process_group(0)
        .spawn()
        .map_err(|e| format!("spawn sh: {e}"))?;
    let exit = wait(child)?;
    let mut output = String::new();
    std::fs::File::open(&out_path)
        .and_then(|mut f| f.read_to_string(&mut output))
        .map_err(|e| format!("{}: {e}", out_path.display()))?;
    std::fs::remove_file(&out_path).map_err(|e| e.to_string())?;
    Ok(Ran { output: output.trim_end_matches('\n').to_string(), exit })
}

/// A `lightsout serve --port 0` for the blocks that talk to a server.
struct Server {
    child: Child,
    port: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(binary())
            .args(["serve", "--port", "0"])
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start lightsout serve");
        let mut stdout = child.stdout.take().unwrap();
        // It says "lightsout: serving the explorer on http://127.0.0.1:PORT/ (Ctrl-C stops)" on stdout.
        let mut said = Vec::new();
        let mut byte = [0u8];
        while !said.ends_with(b"\n") && stdout.read(&mut byte).unwrap_or(0) == 1 {
            said.push(byte[0]);
        }
        let said = String::from_utf8_lossy(&said).into_owned();
        let port = said
            .split("127.0.0.1:")
            .nth(1)
            .and_then(|rest| rest.split('/').next())
            .unwrap_or_else(|| panic!("lightsout serve said {said:?}"))
            .to_string();
        Server { child, port }
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// `localhost:8080` (any port) in a command, pointed at the test's server.
fn to_server(command: &str, port: &str) -> String {
    let mut out = String::new();
    let mut rest = command;
    while let Some(at) = rest.find("localhost:") {
        let (head, tail) = rest.split_at(at + "localhost:".len());
        out.push_str(head);
        let digits = tail.len() - tail.trim_start_matches(|c: char| c.is_ascii_digit()).len();
        out.push_str(if digits > 0 { port } else { "" });
        rest = &tail[digits..];
    }
    out.push_str(rest);
    out
}

/// A line diff (longest common subsequence) of expected and actual output:
/// the changed lines with two of context, at most `DIFF_LINES` of them.
fn diff(expected: &str, actual: &str) -> String {
    const DIFF_LINES: usize = 60;
    let e: Vec<&str> = expected.lines().collect();
    let a: Vec<&str> = actual.lines().collect();
    let mut lcs = vec![vec![0usize; a.len() + 1]; e.len() + 1];
    for i in (0..e.len()).rev() {
        for j in (0..a.len()).rev() {
            lcs[i][j] = if e[i] == a[j] { lcs[i + 1][j + 1] + 1 } else { lcs[i + 1][j].max(lcs[i][j + 1]) };
        }
    }
    // Each line of the diff: ' ', '-' (the doc's) or '+' (the binary's).
    let (mut i, mut j, mut lines) = (0, 0, Vec::new());
    while i < e.len() || j < a.len() {
        if i < e.len() && j < a.len() && e[i] == a[j] {
            lines.push((' ', e[i]));
            i += 1;
            j += 1;
        } else if i < e.len() && (j == a.len() || lcs[i + 1][j] >= lcs[i][j + 1]) {
            lines.push(('-', e[i]));
            i += 1;
        } else {
            lines.push(('+', a[j]));
            j += 1;
        }
    }
    let near_change =
        |k: usize| lines[k.saturating_sub(2)..(k + 3).min(lines.len())].iter().any(|(mark, _)| *mark != ' ');
    let clip = |s: &str| {
        if s.chars().count() > 400 {
            format!("{}…", s.chars().take(400).collect::<String>())
        } else {
            s.to_string()
        }
    };
    let mut out = String::new();
    let (mut shown, mut gap) = (0, false);
    for (k, (mark, line)) in lines.iter().enumerate() {
        if !near_change(k) {
            gap = true;
            continue;
        }
        if gap && shown > 0 {
            out.push_str("  ...\n");
        }
        gap = false;
        if shown == DIFF_LINES {
            let more = lines[k..].iter().filter(|(mark, _)| *mark != ' ').count();
            out.push_str(&format!("  ... and {more} more changed lines\n"));
            break;
        }
        out.push_str(&format!("  {mark}  {}\n", clip(line)));
        shown += 1;
    }
    out
}

/// What running a block found.
struct Outcome {
    /// Per example, its output and exit code, or why it could not run.
    runs: Vec<Result<Ran, String>>,
    /// Pictures the block wrote under `docs/img/` that differ from the
    /// repository's (`docs/img/NAME` and the bytes written).
    pictures: Vec<(String, Vec<u8>)>,
}

fn run_block(block: &Block, index: usize, bin: &Path, server: &Mutex<Option<Server>>) -> Outcome {
    let dir = folder(&format!("docs-{index}"));
    let setup = || -> std::io::Result<()> {
        std::fs::create_dir_all(dir.join("docs/img"))?;
        std::fs::create_dir_all(dir.join("target"))?;
        for link in ["examples", "tests"] {
            std::os::unix::fs::symlink(Path::new(ROOT).join(link), dir.join(link))?;
        }
        Ok(())
    };
    if let Err(e) = setup() {
        return Outcome { runs: vec![Err(format!("{}: {e}", dir.display()))], pictures: Vec::new() };
    }
    let runs = block
        .examples
        .iter()
        .map(|example| {
            let mut command = example.command.clone();
            if command.contains("localhost:") {
                let mut server = server.lock().unwrap();
                let port = &server.get_or_insert_with(Server::start).port;
                command = to_server(&command, port);
            }
            run(&command, &dir, bin)
        })
        .collect();
    // The pictures the docs show are made by the commands beside them: what
    // a command wrote must be what the doc shows.
    let mut pictures = Vec::new();
    for entry in std::fs::read_dir(dir.join("docs/img")).into_iter().flatten().flatten() {
        let name = format!("docs/img/{}", entry.file_name().to_string_lossy());
        let written = std::fs::read(entry.path()).unwrap_or_default();
        if std::fs::read(Path::new(ROOT).join(&name)).ok().as_ref() != Some(&written) {
            pictures.push((name, written));
        }
    }
    let _ = std::fs::remove_dir_all(&dir);
    Outcome { runs, pictures }
}

/// Pastes the actual outputs over the expected ones, bottom up so that line numbers hold.
fn bless(file: &str, blocks: &[(&Block, &Outcome)]) {
    let path = Path::new(ROOT).join(file);
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut edits: Vec<(std::ops::Range<usize>, Vec<String>)> = Vec::new();
    for (block, outcome) in blocks {
        for (name, bytes) in &outcome.pictures {
            std::fs::write(Path::new(ROOT).join(name), bytes).unwrap();
        }
        for (example, ran) in block.examples.iter().zip(&outcome.runs) {
            let Ok(ran) = ran else { continue };
            let mut new: Vec<String> = if ran.output.is_empty() {
                Vec::new()
            } else {
                ran.output.lines().map(|l| format!("{}{l}", block.indent).trim_end().to_string()).collect()
            };
            if ran.exit != 0 {
                new.push(format!("{}exit {}", block.indent, ran.exit));
            }
            edits.push((example.output_lines.clone(), new));
        }
    }
    edits.sort_by_key(|(range, _)| std::cmp::Reverse(range.start));
    for (range, new) in edits {
        lines.splice(range, new);
    }
    let end = if text.ends_with('\n') { "\n" } else { "" };
    std::fs::write(&path, lines.join("\n") + end).unwrap();
}

#[test]
fn docs_examples_print_what_the_docs_say() {
    let filter: Option<Vec<String>> = std::env::var("LIGHTSOUT_DOCS")
        .ok()
        .filter(|f| !f.is_empty())
        .map(|f| f.split(',').map(str::to_string).collect());
    let bless_docs = std::env::var_os("LIGHTSOUT_BLESS").is_some_and(|v| !v.is_empty() && v != "0");
    let files: Vec<String> = markdown_files()
        .into_iter()
        .filter(|f| filter.as_ref().is_none_or(|parts| parts.iter().any(|p| f.contains(p.as_str()))))
        .collect();
    assert!(!files.is_empty(), "LIGHTSOUT_DOCS={filter:?} names no file");
    let mut blocks = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(Path::new(ROOT).join(file)).unwrap();
        blocks.extend(parse(file, &text).unwrap_or_else(|e| panic!("{e}")));
    }

    // `lightsout` on the PATH of every command: a folder holding only it.
    let bin = folder("docs-bin");
    std::os::unix::fs::symlink(binary(), bin.join("lightsout")).unwrap();

    // The server's examples are curl commands: without curl they are skipped, and say so.
    let has_curl =
        Command::new("sh").args(["-c", "command -v curl"]).output().is_ok_and(|o| o.status.success());
    if !has_curl {
        for block in blocks.iter_mut().filter(|b| b.examples.iter().any(|e| e.command.starts_with("curl "))) {
            block.skip.get_or_insert_with(|| "(curl is not installed)".to_string());
        }
    }
    let to_run: Vec<usize> = (0..blocks.len()).filter(|&b| blocks[b].skip.is_none()).collect();
    let server = Mutex::new(None);
    // Two workers: the machine the tests run on has two cores.
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<(usize, Outcome)>> = Mutex::new(Vec::new());
    let start = Instant::now();
    std::thread::scope(|scope| {
        for _ in 0..2 {
            scope.spawn(|| {
                while let Some(&b) = to_run.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let outcome = run_block(&blocks[b], b, &bin, &server);
                    results.lock().unwrap().push((b, outcome));
                }
            });
        }
    });
    drop(server);
    let _ = std::fs::remove_dir_all(&bin);
    let mut results = results.into_inner().unwrap();
    results.sort_by_key(|(b, _)| *b);

    let mut failures = Vec::new();
    let mut commands = 0;
    for (b, outcome) in &results {
        let block = &blocks[*b];
        for (name, _) in &outcome.pictures {
            failures.push(format!(
                "{}:{}: the block writes {name} other than the one in the repository",
                block.file, block.line
            ));
        }
        for (example, ran) in block.examples.iter().zip(&outcome.runs) {
            commands += 1;
            let place = format!("{}:{}", block.file, example.line);
            match ran {
                Err(why) => failures.push(format!("{place}: could not run: {why}\n  $ {}", example.command)),
                Ok(ran) if ran.output != example.expected || ran.exit != example.exit => {
                    let code = if ran.exit != example.exit {
                        format!(" (exit {} where the doc says {})", ran.exit, example.exit)
                    } else {
                        String::new()
                    };
                    failures.push(format!(
                        "{place}: the output differs{code} (- the doc, + the binary):\n  $ {}\n{}",
                        example.command,
                        diff(&example.expected, &ran.output)
                    ));
                }
                Ok(_) => {}
            }
        }
    }
    let skipped: Vec<&Block> = blocks.iter().filter(|b| b.skip.is_some()).collect();
    println!(
        "docs: {commands} commands in {} blocks ran in {:.1} s; {} blocks ({} commands) skipped:",
        results.len(),
        start.elapsed().as_secs_f64(),
        skipped.len(),
        skipped.iter().map(|b| b.examples.len()).sum::<usize>()
    );
    for block in &skipped {
        println!("  {}:{} {}", block.file, block.line, block.skip.as_deref().unwrap_or_default());
    }

    if bless_docs {
        for file in &files {
            let mine: Vec<(&Block, &Outcome)> = results
                .iter()
                .filter(|(b, _)| &blocks[*b].file == file)
                .map(|(b, o)| (&blocks[*b], o))
                .collect();
            bless(file, &mine);
        }
        println!("docs: blessed; review with git diff README.md docs/");
        return;
    }
    assert!(
        failures.is_empty(),
        "{} of {commands} commands in the docs print something else than the docs say:\n\n{}\n\
         Re-run one file: LIGHTSOUT_DOCS=FILE cargo test --release --test docs\n\
         If the new output is right, paste it and review: LIGHTSOUT_BLESS=1 cargo test --release --test docs; git diff README.md docs/",
        failures.len(),
        failures.join("\n")
    );
}

// The reader of the convention, on small pages: a regression here would
// silently test less.

#[test]
fn parse_reads_commands_outputs_exit_codes_and_skip_markers() {
    let page = "\
text
```text
$ lightsout a \\
  --b
out 1

out 2

$ lightsout c
exit 2
```

<!-- docs-test: skip (too long) -->
```
$ lightsout d
```

```sh
lightsout e    # a listing, not a transcript: no `$`
```
";
    let blocks = parse("page.md", page).unwrap();
    assert_eq!(blocks.len(), 2);
    let first = &blocks[0];
    assert_eq!((first.line, first.skip.as_deref()), (2, None));
    let [a, c] = &first.examples[..] else { panic!("two examples") };
    assert_eq!((a.line, a.command.as_str()), (3, "lightsout a \\\n  --b"));
    assert_eq!((a.expected.as_str(), a.exit, a.output_lines.clone()), ("out 1\n\nout 2", 0, 4..7));
    assert_eq!((c.line, c.expected.as_str(), c.exit, c.output_lines.clone()), (9, "", 2, 9..10));
    assert_eq!(blocks[1].skip.as_deref(), Some("(too long)"));
}

#[test]
fn parse_refuses_what_would_go_untested() {
    let loose = "Run it:\n\n    $ lightsout x\n    4\n";
    assert!(parse("p.md", loose).unwrap_err().contains("p.md:3: a `$ ` command outside a fenced block"));
    let open = "```\n$ lightsout x\n";
    assert!(parse("p.md", open).unwrap_err().contains("p.md:1: a fence that is never closed"));
    let stray = "<!-- docs-test: skip (why) -->\n```\nno command\n```\n";
    assert!(parse("p.md", stray).unwrap_err().contains("p.md:2: a skip marker before a block"));
}

#[test]
fn commands_to_a_server_go_to_the_tests_port() {
    let command = "curl localhost:8080/api/solve -H 'Host: localhost:8391' && echo localhost:";
    assert_eq!(
        to_server(command, "4242"),
        "curl localhost:4242/api/solve -H 'Host: localhost:4242' && echo localhost:"
    );
}

#[test]
fn diff_shows_the_changed_lines_with_context() {
    let expected = "a\nb\nc\nd\ne\nf\ng\nh";
    let actual = "a\nb\nc\nd\ne\nF\ng\nh";
    assert_eq!(diff(expected, actual), "     d\n     e\n  -  f\n  +  F\n     g\n     h\n");
}
