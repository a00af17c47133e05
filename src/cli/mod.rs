//! The command-line front: turns arguments into library calls and prints.
//!
//! It lives in the library, above everything else, so that tests and the
//! fuzz harness can run the whole command in-process ([`run`]); `main.rs`
//! only hands it the process's arguments and streams.

use std::io::{self, Read, Write};

use clap::CommandFactory;

// The floor, by what each file does: the arguments clap parses, the plan
// resolved from them once, where boards come from, how answers are printed
// and drawn, progress bars, and one file per command.
mod args;
mod generate;
mod groups;
mod hardest;
mod input;
mod interrupt;
mod kind;
mod long;
mod merge;
mod plan;
mod progress;
mod render;
mod search;
mod solve;
mod study;
mod values;
mod verify;

use args::*;
use generate::generate;
use groups::*;
use input::*;
use kind::{BoardInput, EachBoard, Kind};
use plan::*;
use progress::*;
use search::Long;
use solve::*;
use values::*;
use verify::verify;

use crate::error::plural;
use crate::error::{ShapeOf, Side};
use crate::present::*;
use crate::{Error, Solver, StateSolver};

/// Runs the command line `args` (program name first) against the given
/// streams and returns the exit code: 0 answered (or the output pipe was
/// closed), 1 `verify` found a disagreement, 2 bad input or usage, 3 a
/// limit refused the work, 70 an internal check failed, 130 interrupted.
///
/// # Example
/// ```
/// let mut out = Vec::new();
/// let code = lightsout::cli::run(["lightsout"], &mut &b"bwwb\nbbwb\nbwwb\nbwww\n"[..], &mut out, &mut Vec::new());
/// assert_eq!((code, out), (0, b"4\n".to_vec()));
/// ```
pub fn run<I, T>(args: I, stdin: &mut dyn Read, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    run_from(args, stdin, false, stdout, stderr)
}

/// As [`run`], saying whether `stdin` is a person at a terminal: then each
/// board is answered as soon as it is typed, after a one-line hint on
/// stderr. The binary passes the real answer; [`run`] says no (files,
/// pipes, a test's buffer).
pub fn run_from<I, T>(
    args: I,
    stdin: &mut dyn Read,
    stdin_is_terminal: bool,
    stdout: &mut dyn Write,
    stderr: &mut dyn Write,
) -> u8
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    let args: Vec<std::ffi::OsString> = args.into_iter().map(Into::into).collect();
    if let Some(message) = mistyped_command(&args) {
        let _ = writeln!(stderr, "lightsout: {message}");
        return 2;
    }
    let (cli, asked) = match parse(args) {
        Ok(parsed) => parsed,
        Err(e) => return usage_error(&e, stdout, stderr),
    };
    let mut io = Streams { stdin, stdin_is_terminal, stdout, stderr };
    let mut command = cli.command.unwrap_or(Command::Solve(cli.solve));
    if let Command::Solve(args) = &mut command {
        args.max_nullity_asked = asked;
    }
    // The one fork between the kinds of game: the states asked for pick it.
    let result = match command.states() > 2 {
        true => run_command::<StateSolver>(command, &mut io),
        false => run_command::<Solver>(command, &mut io),
    };
    match result {
        Ok(code) => code,
        Err(Failure::Quiet) => 0,
        Err(Failure::Error { error, hint }) => {
            let hint = hint.map_or(String::new(), |hint| format!("; {hint}"));
            let _ = writeln!(io.stderr, "lightsout: {}{hint}", describe(&error));
            exit_code(&error)
        }
    }
}

/// The command line parsed, and whether `solve` was given `--max-nullity`
/// (its default then limits nothing: the K-state work limit is for runs
/// that did not ask for a budget).
fn parse(args: Vec<std::ffi::OsString>) -> Result<(Cli, bool), clap::Error> {
    use clap::{FromArgMatches, parser::ValueSource};
    let mut matches = Cli::command().try_get_matches_from(args)?;
    let solve = match matches.subcommand() {
        Some(("solve", sub)) => Some(sub),
        Some(_) => None,
        None => Some(&matches),
    };
    let asked = solve.and_then(|m| m.value_source("max_nullity")) == Some(ValueSource::CommandLine);
    let cli = Cli::from_arg_matches_mut(&mut matches).map_err(|e| e.format(&mut Cli::command()))?;
    Ok((cli, asked))
}

/// Runs `command` for the kind of game `G`.
fn run_command<G: Long>(command: Command, io: &mut Streams) -> Result<u8, Failure> {
    match command {
        Command::Solve(args) => solve::<G>(args, io),
        Command::Verify(args) => verify(args, io),
        Command::Generate(args) => generate(args, io),
        Command::Analyze(args) => study::analyze(args, io),
        Command::Check(args) => study::check::<G>(args, io),
        Command::Table(args) => study::table(args, io),
        Command::Hardest(args) => hardest::hardest::<G>(args, io),
        Command::Completions(args) => completions(args, io),
        Command::Man => man_page(io),
        Command::Merge(args) => merge::merge_command(args, io),
        Command::Serve(args) => crate::serve::run(&args, io.stdout).map_err(Failure::from),
    }
}

/// Help and version go to stdout (exit 0); a usage error becomes one line
/// on stderr (exit 2) that keeps what clap knew: the missing arguments by
/// name, its "similar argument" tip, the possible values.
fn usage_error(e: &clap::Error, stdout: &mut dyn Write, stderr: &mut dyn Write) -> u8 {
    let text = e.render().to_string();
    if !e.use_stderr() {
        let _ = stdout.write_all(text.as_bytes());
        return 0;
    }
    let _ = writeln!(stderr, "lightsout: {} (see --help)", one_line(&text));
    2
}

/// Clap's several-line error as one line: the first line, the indented list
/// it introduces (`--rows <R>, --cols <C>`), then tips and possible values.
fn one_line(text: &str) -> String {
    let mut lines = text.lines().map(str::trim_end);
    let mut line = lines.next().unwrap_or("invalid arguments").trim_start_matches("error: ").to_string();
    let mut rest = lines.peekable();
    if line.ends_with(':') {
        let mut items = Vec::new();
        while let Some(item) = rest.next_if(|l| l.starts_with("  ")) {
            items.push(item.trim());
        }
        line = format!("{line} {}", items.join(", "));
    }
    for extra in rest.map(str::trim) {
        // "To pass '--show' as a value, use '-- --show'" would make it a
        // board file's name: not what someone who typed a flag meant.
        if let Some(tip) = extra.strip_prefix("tip: ").filter(|tip| !tip.starts_with("to pass")) {
            line += &format!("; {tip}");
        } else if extra.starts_with("[possible values") {
            line += &format!(" {extra}");
        }
    }
    line
}

/// A first argument that is no subcommand and no file, but a typing slip
/// away from a subcommand (`analyse`): the user meant the command, not a
/// board file to read.
fn mistyped_command(args: &[std::ffi::OsString]) -> Option<String> {
    let word = args.get(1)?.to_str()?;
    if word.starts_with('-') || std::path::Path::new(word).exists() {
        return None;
    }
    let command = Cli::command();
    let names: Vec<&str> = command.get_subcommands().map(|c| c.get_name()).collect();
    if names.contains(&word) {
        return None;
    }
    // One slip in a short name, two in a longer one (`analyse`, `tabel`).
    let near = names
        .into_iter()
        .find(|name| strsim::levenshtein(word, name) <= if name.len() <= 3 { 1 } else { 2 })?;
    Some(format!("no command or file '{word}'; did you mean the command '{near}'? (see --help)"))
}

/// The process's streams, or a test's buffers.
struct Streams<'a> {
    stdin: &'a mut dyn Read,
    /// Whether `stdin` is a person typing at a terminal.
    stdin_is_terminal: bool,
    stdout: &'a mut dyn Write,
    stderr: &'a mut dyn Write,
}

/// Why a run stopped early.
enum Failure {
    /// The reader went away (`lightsout … | head`): stop without a word.
    Quiet,
    /// An error, and what to change when a change would help.
    Error { error: Error, hint: Option<String> },
}

impl Failure {
    fn hinted(error: Error, hint: impl Into<String>) -> Self {
        Failure::Error { error, hint: Some(hint.into()) }
    }
}

impl From<Error> for Failure {
    fn from(error: Error) -> Self {
        Failure::Error { error, hint: None }
    }
}

/// Library results told what to change when a stated limit refuses them.
trait LimitHint<T> {
    fn limit_hint(self, hint: impl FnOnce() -> String) -> Result<T, Failure>;
}

impl<T> LimitHint<T> for Result<T, Error> {
    fn limit_hint(self, hint: impl FnOnce() -> String) -> Result<T, Failure> {
        self.map_err(|error| match error.is_limit() {
            true => Failure::hinted(error, hint()),
            false => error.into(),
        })
    }
}

/// A library error in the command line's terms: its flags by name, sizes in
/// binary units. The library's own words are neutral.
fn describe(error: &Error) -> String {
    match error {
        Error::Memory { work, needed, limit } => {
            format!(
                "{work} needs about {}, over --max-memory {}",
                format_bytes(*needed),
                format_bytes(*limit)
            )
        }
        Error::Mismatch { source, side: Side::Cols, line, found, expected, given: true, .. } => {
            format!("{source}: line {line} has {} but --cols is {expected}", plural(*found, "cell"))
        }
        Error::Mismatch { source, side: Side::Rows, first_line, found, expected, given: true, .. } => {
            format!(
                "{source}: the board starting at line {first_line} has {} but --rows is {expected}",
                plural(*found, "row")
            )
        }
        Error::Mismatch { side: Side::Rows, given: false, .. } => {
            format!("{error} (use --rows for rectangles)")
        }
        Error::AmbiguousRow { source, line, text, states, width_given } => {
            // Boards without blank lines are square, so one cell wide takes
            // --rows too.
            let or_tall = match width_given {
                true => "",
                false => ", or give --rows N --cols 1 for a board N cells tall and one wide",
            };
            format!(
                "{source}: line {line}: '{text}' is one number or {} cells: with --states {states} write a row's \
                 states apart (like '{}'){or_tall}",
                text.len(),
                crate::error::states_apart(text)
            )
        }
        Error::BadSide { side, value: 0, .. } => format!("{} must be at least 1, got 0", flag(*side)),
        Error::BadSide { side, value, max } => format!("{} is {value}, outside 1..={max}", flag(*side)),
        Error::Shape { of: ShapeOf::Target, found: (r, c), expected: (er, ec) } => {
            format!("the --target board is {r}x{c} but the board is {er}x{ec}")
        }
        _ => error.to_string(),
    }
}

/// The flag that gives a side.
fn flag(side: Side) -> &'static str {
    match side {
        Side::Rows => "--rows",
        Side::Cols => "--cols",
    }
}

/// The exit code of an error: 2 bad input or usage, 3 a stated limit
/// refused the work, 70 an internal check failed.
fn exit_code(error: &Error) -> u8 {
    match error {
        Error::Internal(_) => 70,
        e if e.is_limit() => 3,
        _ => 2,
    }
}

impl From<io::Error> for Failure {
    fn from(e: io::Error) -> Self {
        if e.kind() == io::ErrorKind::BrokenPipe {
            Failure::Quiet
        } else {
            Failure::from(Error::BadInput(format!("cannot write output: {e}")))
        }
    }
}

fn completions(args: CompletionsArgs, io: &mut Streams) -> Result<u8, Failure> {
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut Cli::command(), "lightsout", &mut script);
    io.stdout.write_all(&script)?;
    io.stdout.flush()?;
    Ok(0)
}

/// The manual page: clap's sections, the commands listed in it (not as
/// pages `lightsout-analyze(1)` that nothing installs), exit status and
/// examples.
fn man_page(io: &mut Streams) -> Result<u8, Failure> {
    let command = Cli::command();
    let man = clap_mangen::Man::new(command.clone());
    let mut page = Vec::new();
    man.render_title(&mut page)?;
    man.render_name_section(&mut page)?;
    man.render_synopsis_section(&mut page)?;
    man.render_description_section(&mut page)?;
    man.render_options_section(&mut page)?;
    page.extend_from_slice(b".SH COMMANDS\n");
    for sub in command.get_subcommands().filter(|s| !s.is_hide_set()) {
        let about = sub.get_about().map(|a| a.to_string()).unwrap_or_default();
        page.extend_from_slice(
            format!(".TP\n\\fBlightsout {}\\fR\n{}\n", sub.get_name(), roff(&about)).as_bytes(),
        );
    }
    page.extend_from_slice(b".PP\nEach command's options: \\fBlightsout help\\fR \\fICOMMAND\\fR.\n");
    page.extend_from_slice(MAN_EXIT_AND_EXAMPLES.as_bytes());
    man.render_version_section(&mut page)?;
    io.stdout.write_all(&page)?;
    io.stdout.flush()?;
    Ok(0)
}

/// Escapes text for roff: a backslash, and a line starting with a dot or
/// a quote.
fn roff(text: &str) -> String {
    let text = text.replace('\\', "\\e");
    if text.starts_with(['.', '\'']) { format!("\\&{text}") } else { text }
}

const MAN_EXIT_AND_EXAMPLES: &str = r#".SH "EXIT STATUS"
.TP
\fB0\fR
Every board was answered (\fBImpossible\fR is an answer).
.TP
\fB1\fR
\fBlightsout verify\fR found a board on which the solver and breadth-first search disagree.
.TP
\fB2\fR
Bad input or usage, or output that cannot be written: one line on standard error names the file, line and column or the flag. (A closed pipe ends the run quietly with 0.)
.TP
\fB3\fR
A stated limit refused the work (\fB\-\-max\-memory\fR, a picture or table too large); the line says which and what to change.
.TP
\fB70\fR
An internal check failed: a press set did not pass its re-check. Never printed as an answer.
.TP
\fB130\fR
Interrupted (Ctrl-C or SIGTERM); a search with \fB\-\-checkpoint\fR saved it first.
.SH EXAMPLES
.TP
\fBlightsout examples/flip\-game.txt\fR
The POJ 1753 sample: prints 4.
.TP
\fBprintf 'bbbww\\nwbwbw\\nwwbbb\\n' | lightsout \-\-show \-\-format text\fR
Any size; the presses and the board reached.
.TP
\fBlightsout \-\-generate all\-black \-\-rows 61 \-\-cols 61 \-\-target white \-\-max\-nullity 40\fR
The proven minimum of a board no search could touch (1629).
.TP
\fBlightsout analyze \-\-rows 5 \-\-cols 5\fR
Rank, nullity and the quiet patterns of a size.
.TP
\fBlightsout table \-\-rows 1..100 \-\-cols 1..100 \-\-png map.png\fR
The nullity of ten thousand sizes as a heat map.
"#;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse() {
        assert_eq!(parse_bytes("512M"), Ok(512 << 20));
        assert_eq!(parse_bytes("1.5GiB"), Ok(3 << 29));
        assert_eq!(parse_bytes("4096"), Ok(4096));
        assert!(parse_bytes("lots").is_err() && parse_bytes("-1G").is_err() && parse_bytes("").is_err());
    }

    /// Issue 25 items 2 and 6: only a run that asks no `--max-nullity`
    /// limits a K-state board's work over its targets, so `parse` must tell
    /// the default from the same value asked, in every spelling and with or
    /// without the `solve` word.
    #[test]
    fn max_nullity_asked_is_told_from_its_default() {
        let asked = |args: &[&str]| {
            let args: Vec<std::ffi::OsString> = args.iter().map(Into::into).collect();
            parse(args).map(|(_, asked)| asked).unwrap()
        };
        assert!(!asked(&["lightsout", "--states", "5", "-g", "all-black", "-r", "3", "-c", "3"]));
        assert!(!asked(&["lightsout", "solve", "--states", "5", "b.txt"]));
        assert!(asked(&["lightsout", "--max-nullity", "36", "--states", "5", "b.txt"]));
        assert!(asked(&["lightsout", "solve", "--max-nullity=36", "b.txt"]));
        assert!(!asked(&["lightsout", "analyze", "--max-nullity", "20", "-r", "3", "-c", "3"]));
    }

    #[test]
    fn clap_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
