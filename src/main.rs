//! The `lightsout` command: hands the process's arguments and streams to
//! [`lightsout::cli::run_from`].

use std::io::{self, IsTerminal};
use std::process::ExitCode;

fn main() -> ExitCode {
    let code = lightsout::cli::run_from(
        std::env::args_os(),
        &mut io::stdin().lock(),
        io::stdin().is_terminal(),
        &mut io::stdout().lock(),
        // Not locked: progress bars draw on stderr from worker threads.
        &mut io::stderr(),
    );
    ExitCode::from(code)
}
