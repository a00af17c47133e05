//! The connections: how the server accepts them, how long it waits for a
//! client, and how many it keeps at once.
//!
//! `axum::serve` waits for a client for ever: 3000 connections that sent
//! half a request all stayed open (300 of 300 after 40 s), each holding a
//! socket and a task. Here every connection is served by hyper's HTTP/1
//! connection with a timer, and:
//!
//! - a request's header must arrive within [`Limits::header_time`] of the
//!   server starting to wait for it (also between the requests of a
//!   kept-alive connection), or the connection is closed;
//! - its body must arrive within [`Limits::body_time`] of the header, or
//!   the request is answered 408 and the connection closed;
//! - at most [`Limits::connections`] connections are open at once: one more
//!   is closed as soon as it is accepted, so that stalled clients cannot
//!   take every socket and task the process has.

use std::future::{Future, poll_fn};
use std::pin::{Pin, pin};
use std::sync::Arc;
use std::time::Duration;

use axum::body::{Body, HttpBody};
use axum::extract::{Request, State};
use axum::http::{StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{Semaphore, watch};

use super::{Limits, router};

/// Serves the explorer's [`router`] on `listener` with `limits` (the
/// connection limits included) until `shutdown` completes; then stops
/// accepting, lets the requests under way finish and closes idle
/// connections.
///
/// # Errors
/// None so far: a failed `accept` (out of file descriptors, a connection
/// reset before it was accepted) is waited out and the loop goes on. The
/// `Result` leaves room for errors of the listener itself.
///
/// # Example
/// ```
/// # tokio::runtime::Runtime::new().unwrap().block_on(async {
/// use lightsout::serve::{Limits, serve};
///
/// let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
/// let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
/// let server = tokio::spawn(serve(listener, Limits::default(), async move { let _ = stopped.await; }));
/// // ... requests to the listener's address ...
/// let _ = stop.send(());
/// server.await.unwrap().unwrap();
/// # });
/// ```
pub async fn serve(
    listener: TcpListener,
    limits: Limits,
    shutdown: impl Future<Output = ()> + Send,
) -> std::io::Result<()> {
    let timing = Timing { body_time: limits.body_time, body_bytes: limits.body_bytes };
    let app = router(limits.clone()).layer(middleware::from_fn_with_state(timing, body_in_time));
    let open = Arc::new(Semaphore::new(limits.connections));
    // Every connection watches this; it turns true when the server stops.
    let (stopping, stop_seen) = watch::channel(false);
    let mut connections = tokio::task::JoinSet::new();
    let mut shutdown = pin!(shutdown);
    loop {
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(_) => {
                    // Out of file descriptors or a connection gone before it
                    // was accepted: wait a little rather than spin.
                    tokio::time::sleep(Duration::from_millis(50)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        // Finished connections' tasks are collected as we go.
        while connections.try_join_next().is_some() {}
        let Ok(permit) = Arc::clone(&open).try_acquire_owned() else {
            // Over the cap: closed at once (the client sees the connection
            // end without an answer) instead of waiting in a queue.
            drop(stream);
            continue;
        };
        // Answers are one write each; Nagle's delay would only hold them.
        let _ = stream.set_nodelay(true);
        let service = TowerToHyperService::new(app.clone());
        let header_time = limits.header_time;
        let mut stop_seen = stop_seen.clone();
        connections.spawn(async move {
            let mut builder = hyper::server::conn::http1::Builder::new();
            builder.timer(TokioTimer::new()).header_read_timeout(header_time).keep_alive(true);
            let mut connection = pin!(builder.serve_connection(TokioIo::new(stream), service));
            tokio::select! {
                _ = connection.as_mut() => {}
                _ = stop_seen.changed() => {
                    connection.as_mut().graceful_shutdown();
                    let _ = connection.await;
                }
            }
            drop(permit);
        });
    }
    let _ = stopping.send(true);
    while connections.join_next().await.is_some() {}
    Ok(())
}

/// What the body reader needs of the limits.
#[derive(Clone, Copy)]
struct Timing {
    body_time: Duration,
    body_bytes: usize,
}

/// Reads the request body within [`Limits::body_time`] before the handler
/// sees it: a client that sends its header and then stalls is answered
/// 408, not waited for. At most one byte over `body_bytes` is kept, so that
/// the body extractor still refuses a large body with its own 413.
async fn body_in_time(State(timing): State<Timing>, request: Request, next: Next) -> Response {
    let (parts, mut body) = request.into_parts();
    let keep = timing.body_bytes.saturating_add(1);
    let read = async {
        let mut bytes = Vec::new();
        while bytes.len() < keep {
            let Some(frame) = poll_fn(|cx| Pin::new(&mut body).poll_frame(cx)).await else { break };
            if let Ok(data) = frame?.into_data() {
                let room = keep - bytes.len();
                bytes.extend_from_slice(&data[..data.len().min(room)]);
            }
        }
        Ok::<_, axum::Error>(bytes)
    };
    match tokio::time::timeout(timing.body_time, read).await {
        Ok(Ok(bytes)) => next.run(Request::from_parts(parts, Body::from(bytes))).await,
        Ok(Err(e)) => too_slow(StatusCode::BAD_REQUEST, format!("cannot read the request body: {e}"), None),
        Err(_) => too_slow(
            StatusCode::REQUEST_TIMEOUT,
            format!(
                "the request body did not arrive within {} s of its header",
                timing.body_time.as_secs_f64()
            ),
            Some("body_time"),
        ),
    }
}

/// An answer to a client that did not send its request in time, in the
/// API's error shape; the connection is closed after it, since the rest of
/// the body may still come.
fn too_slow(status: StatusCode, message: String, limit: Option<&str>) -> Response {
    let body = match limit {
        Some(limit) => serde_json::json!({"error": message, "limit": limit}),
        None => serde_json::json!({"error": message}),
    };
    (status, [(header::CONNECTION, "close")], axum::Json(body)).into_response()
}

#[cfg(test)]
mod tests {
    use std::time::Instant;

    use tokio::net::TcpStream;

    use super::*;

    /// Writes all of `bytes` (the server build has no `AsyncWriteExt`).
    async fn write_all(stream: &TcpStream, mut bytes: &[u8]) {
        while !bytes.is_empty() {
            stream.writable().await.unwrap();
            match stream.try_write(bytes) {
                Ok(n) => bytes = &bytes[n..],
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                Err(e) => panic!("write: {e}"),
            }
        }
    }

    /// One read: `Ok(0)` at the end of the stream.
    async fn read(stream: &TcpStream, buffer: &mut [u8]) -> std::io::Result<usize> {
        loop {
            stream.readable().await?;
            match stream.try_read(buffer) {
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {}
                done => return done,
            }
        }
    }

    /// A server with `limits` on a free port of 127.0.0.1, stopped when the
    /// returned sender is dropped or sent to.
    async fn start(limits: Limits) -> (std::net::SocketAddr, tokio::sync::oneshot::Sender<()>) {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        tokio::spawn(serve(listener, limits, async move {
            let _ = stopped.await;
        }));
        (address, stop)
    }

    fn quick(header_time: Duration, body_time: Duration, connections: usize) -> Limits {
        Limits { header_time, body_time, connections, ..Limits::default() }
    }

    /// Reads until the server closes the connection or `wait` passes;
    /// returns what was read and whether it closed.
    async fn read_until_closed(stream: &TcpStream, wait: Duration) -> (String, bool) {
        let mut seen = Vec::new();
        let mut buffer = [0u8; 4096];
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            match tokio::time::timeout_at(deadline, read(stream, &mut buffer)).await {
                Ok(Ok(0)) | Ok(Err(_)) => return (String::from_utf8_lossy(&seen).into_owned(), true),
                Ok(Ok(n)) => seen.extend_from_slice(&buffer[..n]),
                Err(_) => return (String::from_utf8_lossy(&seen).into_owned(), false),
            }
        }
    }

    const HALF_A_REQUEST: &[u8] = b"POST /api/solve HTTP/1.1\r\nHost: localhost\r\nContent-Ty";

    /// `count` connections to `address`, each of which sent half a request
    /// and waits.
    async fn stalled_connections(address: std::net::SocketAddr, count: usize) -> Vec<TcpStream> {
        let mut streams = Vec::with_capacity(count);
        for _ in 0..count {
            let stream = TcpStream::connect(address).await.unwrap();
            write_all(&stream, HALF_A_REQUEST).await;
            streams.push(stream);
        }
        streams
    }

    /// Issue 15: 3000 connections that sent half a request stayed open
    /// (300 of 300 still open after 40 s): `axum::serve` has no header
    /// timeout. Now 300 such connections are all closed by the server
    /// within a second of the header time (0.3 s here).
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn regression_stalled_headers_are_dropped() {
        let (address, _stop) = start(quick(Duration::from_millis(300), Duration::from_secs(5), 1000)).await;
        let clients = stalled_connections(address, 300).await;
        let started = Instant::now();
        // All waits run at once (collected, not a lazy map awaited in turn).
        let waits: Vec<_> = clients
            .into_iter()
            .map(|stream| {
                tokio::spawn(async move { read_until_closed(&stream, Duration::from_secs(5)).await.1 })
            })
            .collect();
        let mut closed = 0;
        for wait in waits {
            closed += usize::from(wait.await.unwrap());
        }
        assert_eq!(closed, 300, "{closed} of 300 stalled connections closed");
        assert!(started.elapsed() < Duration::from_secs(3), "closed after {:?}", started.elapsed());
    }

    /// Issue 15: a client that sent its header and then only part of the
    /// body was waited for without end. It is now answered 408 (limit
    /// `body_time`) and the connection closed.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn regression_a_stalled_body_is_answered_408() {
        let (address, _stop) = start(quick(Duration::from_secs(5), Duration::from_millis(300), 1000)).await;
        let stream = TcpStream::connect(address).await.unwrap();
        let head = "POST /api/solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
                    Content-Length: 100\r\n\r\n{\"board\": [";
        write_all(&stream, head.as_bytes()).await;
        let (answer, closed) = read_until_closed(&stream, Duration::from_secs(5)).await;
        assert!(closed, "still open: {answer}");
        assert!(answer.starts_with("HTTP/1.1 408"), "{answer}");
        assert!(answer.contains("\"limit\":\"body_time\""), "{answer}");
    }

    /// A whole request is still answered, on a connection that stays open
    /// for the next one, and a connection left idle after its answer is
    /// closed after the header time.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn whole_requests_are_answered_and_idle_connections_closed() {
        let (address, _stop) = start(quick(Duration::from_millis(500), Duration::from_secs(5), 1000)).await;
        let stream = TcpStream::connect(address).await.unwrap();
        let body = r#"{"board": ["bwwb", "bbwb", "bwwb", "bwww"]}"#;
        let request = format!(
            "POST /api/solve HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\n\r\n{body}",
            body.len()
        );
        for _ in 0..2 {
            write_all(&stream, request.as_bytes()).await;
            let mut buffer = vec![0u8; 8192];
            let n = tokio::time::timeout(Duration::from_secs(5), read(&stream, &mut buffer))
                .await
                .unwrap()
                .unwrap();
            let answer = String::from_utf8_lossy(&buffer[..n]);
            assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
            assert!(answer.contains("\"presses\":4"), "{answer}");
        }
        let started = Instant::now();
        let (_, closed) = read_until_closed(&stream, Duration::from_secs(5)).await;
        assert!(closed && started.elapsed() < Duration::from_secs(3), "idle for {:?}", started.elapsed());
    }

    /// Past the cap a connection is closed at once; once a connection
    /// ends, a new one is served again.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn connections_past_the_cap_are_closed_at_once() {
        let (address, _stop) = start(quick(Duration::from_secs(2), Duration::from_secs(2), 20)).await;
        let mut held = stalled_connections(address, 20).await;
        // Give the server the time to accept them all.
        tokio::time::sleep(Duration::from_millis(200)).await;
        let extra = TcpStream::connect(address).await.unwrap();
        let started = Instant::now();
        let (_, closed) = read_until_closed(&extra, Duration::from_secs(1)).await;
        assert!(closed && started.elapsed() < Duration::from_millis(900), "the 21st stayed open");
        // Closing one of the twenty frees its place.
        drop(held.pop());
        tokio::time::sleep(Duration::from_millis(200)).await;
        let next = TcpStream::connect(address).await.unwrap();
        write_all(&next, b"GET / HTTP/1.1\r\nHost: localhost\r\n\r\n").await;
        let mut buffer = vec![0u8; 1024];
        let n =
            tokio::time::timeout(Duration::from_secs(5), read(&next, &mut buffer)).await.unwrap().unwrap();
        assert!(buffer[..n].starts_with(b"HTTP/1.1 200"), "{}", String::from_utf8_lossy(&buffer[..n]));
    }

    /// The shutdown future stops the server: it stops accepting and its
    /// future ends once the connections have.
    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn the_shutdown_future_stops_the_server() {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let (stop, stopped) = tokio::sync::oneshot::channel::<()>();
        let server = tokio::spawn(serve(listener, Limits::default(), async move {
            let _ = stopped.await;
        }));
        stop.send(()).unwrap();
        let ended = tokio::time::timeout(Duration::from_secs(5), server).await;
        assert!(matches!(ended, Ok(Ok(Ok(())))), "{ended:?}");
    }
}
