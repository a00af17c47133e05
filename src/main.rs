//! The `lightsout` command: hands the process's arguments and streams to
//! [`lightsout::cli::run`].

use std::io;
use std::process::ExitCode;

fn main() -> ExitCode {
    let code = lightsout::cli::run(
        std::env::args_os(),
        &mut io::stdin().lock(),
        &mut io::stdout().lock(),
        // Not locked: progress bars draw on stderr from worker threads.
        &mut io::stderr(),
    );
    ExitCode::from(code)
}
