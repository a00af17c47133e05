//! `lightsout serve`: the explorer page and its JSON API, served by the
//! binary itself.
//!
//! A thin floor like the command line: handlers turn JSON into the same
//! library calls the CLI makes and answer with the same JSON objects as its
//! `--format json` (the CLI's own renderers). Every request is bounded
//! before work starts ([`Limits`]: body size, board sides, enumeration
//! budget, memory, table work) and while it runs (a time limit); the work
//! runs on tokio's blocking pool, at most one job per core at a time in
//! each of two lanes (small two-state boards have their own), so the
//! server keeps answering other requests meanwhile.
//!
//! - [`router`]: the routes (`router.rs`);
//! - `page.rs`: the page (one HTML, one CSS, one JavaScript module in
//!   `page/`, embedded with `include_str!`);
//! - `request.rs`: the request bodies and how their fields are read;
//! - `board.rs`: `/api/solve` and `/api/check`, which take a board;
//! - `study.rs`: `/api/analyze` and `/api/table`, which take sizes;
//! - `chase.rs`: `/api/chase`, light chasing step by step;
//! - `error.rs`: the one error type, mapped to status codes in one place,
//!   and the JSON body extractor;
//! - `work.rs`: the blocking pool, the job slots and the time limit;
//! - [`serve`] (`listen.rs`): the connections, with a time limit on each
//!   request's header and body and a cap on how many are open at once.
//!
//! # Example
//! ```
//! # tokio::runtime::Runtime::new().unwrap().block_on(async {
//! use lightsout::serve::{serve, Limits};
//!
//! let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
//! let address = listener.local_addr().unwrap();
//! tokio::spawn(serve(listener, Limits::default(), std::future::pending()));
//! // POST http://{address}/api/solve {"board": ["bwwb", "bbwb", "bwwb", "bwww"]}
//! // answers what `lightsout solve --format json` prints for that board.
//! # let _ = address;
//! # });
//! ```

mod board;
mod chase;
mod error;
mod game;
mod hardest;
mod listen;
mod page;
mod request;
mod router;
mod study;
mod work;

use std::io::Write;
use std::net::{IpAddr, Ipv4Addr, SocketAddr};
use std::time::Duration;

use axum::response::IntoResponse;

pub use listen::serve;
pub use router::router;

use crate::Error;

/// A JSON answer rendered by the CLI's own functions, sent as it is.
fn json_response(body: String) -> axum::response::Response {
    ([(axum::http::header::CONTENT_TYPE, "application/json")], body).into_response()
}

/// Options of `lightsout serve`.
#[derive(clap::Args, Debug, Clone)]
pub struct ServeArgs {
    /// Port to listen on (0 picks a free one and prints it).
    #[arg(long, default_value_t = 8080)]
    pub port: u16,
    /// Address to listen on. The default answers this machine only; give
    /// 0.0.0.0 to open the explorer to your network.
    #[arg(long, default_value_t = IpAddr::V4(Ipv4Addr::LOCALHOST), value_name = "ADDR")]
    pub bind: IpAddr,
}

/// What one request may ask for, and how long and how many connections the
/// server waits for. Anything over a request limit is refused before the
/// work starts (except time, which is watched while it runs) with a 4xx
/// JSON error naming the limit; the connection limits apply in [`serve`]
/// (a [`router`] served some other way has only the request limits).
#[derive(Clone, Debug)]
pub struct Limits {
    /// Largest request body, in bytes (`body_bytes`).
    pub body_bytes: usize,
    /// Largest number of rows or columns of a board or size (`side`).
    pub max_side: usize,
    /// Largest enumeration budget a request may ask for, and the default:
    /// null spaces up to this dimension are searched exhaustively for the
    /// minimum (`max_nullity`).
    pub max_nullity: usize,
    /// Memory one request's work may need, as the library estimates it
    /// (`memory`).
    pub max_memory: u64,
    /// Most sizes in one nullity table (`table_sizes`).
    pub max_table_sizes: usize,
    /// Most word operations, estimated, for a table of a rule other than
    /// the classic plane, which factors each size by elimination
    /// (`table_work`).
    pub max_table_work: f64,
    /// Longest a request may wait for a job slot and run (`time`).
    pub time: Duration,
    /// Jobs running at once; more wait for a slot.
    pub jobs: usize,
    /// Longest the server waits for a request's header, from the moment it
    /// starts waiting (a new connection, or the end of the last answer on
    /// a kept-alive one); then the connection is closed (`header_time`).
    pub header_time: Duration,
    /// Longest the server waits for a request's body after its header;
    /// then the request is answered 408 and the connection closed
    /// (`body_time`).
    pub body_time: Duration,
    /// Most connections open at once; one more is closed as soon as it is
    /// accepted (`connections`).
    pub connections: usize,
    /// Answer only requests addressed to `localhost`, `127.0.0.1` or
    /// `[::1]` (a guard against DNS rebinding): on unless the server is
    /// bound to an address other machines can reach.
    pub local_names_only: bool,
}

impl Default for Limits {
    /// Limits that keep every request under a few seconds on a small machine.
    fn default() -> Self {
        Limits {
            body_bytes: 256 << 10,
            max_side: 256,
            max_nullity: 24,
            max_memory: 256 << 20,
            max_table_sizes: 1 << 16,
            max_table_work: 1e10,
            time: Duration::from_secs(15),
            jobs: std::thread::available_parallelism().map_or(2, |n| n.get()),
            // A person's browser sends a request in milliseconds; 10 s
            // leaves room for a slow network and none for a client that
            // stops halfway.
            header_time: Duration::from_secs(10),
            body_time: Duration::from_secs(10),
            // A browser opens about 6 connections to a server; 256 leaves
            // room for many users and keeps the sockets and tasks bounded.
            connections: 256,
            local_names_only: true,
        }
    }
}

/// Runs the server until Ctrl-C, after printing its URL on `stdout`.
///
/// # Errors
/// [`Error::BadInput`] when the address cannot be listened on.
pub fn run(args: &ServeArgs, stdout: &mut dyn Write) -> Result<u8, Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(format!("cannot start the server's runtime: {e}")))?;
    runtime.block_on(async {
        let address = SocketAddr::new(args.bind, args.port);
        let listener = tokio::net::TcpListener::bind(address)
            .await
            .map_err(|e| Error::BadInput(format!("cannot listen on {address}: {e}")))?;
        let bound = listener.local_addr().unwrap_or(address);
        let host = match bound.ip() {
            IpAddr::V6(ip) => format!("[{ip}]"),
            IpAddr::V4(ip) => ip.to_string(),
        };
        let _ = writeln!(
            stdout,
            "lightsout: serving the explorer on http://{host}:{}/ (Ctrl-C stops)",
            bound.port()
        );
        let _ = stdout.flush();
        let limits = Limits { local_names_only: args.bind.is_loopback(), ..Limits::default() };
        serve(listener, limits, async {
            let _ = tokio::signal::ctrl_c().await;
        })
        .await
        .map_err(|e| Error::Internal(format!("the server stopped: {e}")))
    })?;
    Ok(0)
}
