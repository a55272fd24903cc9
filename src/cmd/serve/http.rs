//! hyper's side of the server: the runtime, the connections (HTTP/1.1, keep-alive, a
//! timeout on slow request heads), the limits on what a client sends, the page's files,
//! and a clean stop on SIGINT or SIGTERM that finishes the requests in flight.

use super::api;
use super::fault::Fault;
use super::state::State;
use http_body_util::{BodyExt, Full, Limited};
use hyper::body::{Bytes, Incoming};
use hyper::header::{HeaderValue, ALLOW, CACHE_CONTROL, CONTENT_LENGTH, CONTENT_TYPE};
use hyper::{Method, Request, Response, StatusCode};
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::server::graceful::GracefulShutdown;
use std::convert::Infallible;
use std::future::{poll_fn, Future};
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::Poll;
use std::time::Duration;
use tabula::Result;
use tokio::net::TcpListener;

/// The largest request body read, in bytes, where the route takes none (a larger one is a
/// 413).
pub const MAX_BODY: usize = 16 * 1024;
/// The largest match file a `POST` to [`api::ANALYSE`] may send, in bytes.
pub const MAX_FILE: usize = 4 << 20;
/// hyper's buffer for a request head: a longer head is refused with a 431.
const MAX_HEAD: usize = 16 * 1024;
/// How long a client may take to send its request head, and then the body it declared,
/// unless `serve --deadline` says otherwise.
pub const DEADLINE: Duration = Duration::from_secs(10);
/// How long a stop lets the last answer be written once no request is in flight.
const SETTLE: Duration = Duration::from_millis(200);
/// How long a stop waits for the requests in flight.
const DRAIN: Duration = Duration::from_secs(10);
/// Long computations (bingo, numeron) running at once; one more is a 503.
const MAX_HEAVY: usize = 2;

/// The page and its files, served from the binary.
const INDEX: &str = include_str!("page/index.html");
const SCRIPT: &str = include_str!("page/app.js");
const STYLE: &str = include_str!("page/style.css");
const ICON: &str = include_str!("page/icon.svg");

static HEAVY: AtomicUsize = AtomicUsize::new(0);
/// Requests whose head has come and whose answer is not sent yet: what a stop waits for.
static IN_FLIGHT: AtomicUsize = AtomicUsize::new(0);

/// Serves `state` on `addr` with `threads` workers until a signal stops it; a client has
/// `deadline` to send its request's head, and as long again for the body it declares.
pub fn serve(
    addr: SocketAddr,
    threads: Option<usize>,
    deadline: Duration,
    state: State,
) -> Result<()> {
    let mut runtime = tokio::runtime::Builder::new_multi_thread();
    if let Some(t) = threads {
        runtime.worker_threads(t);
    }
    let runtime = runtime
        .enable_io()
        .enable_time()
        .thread_name("tabula-serve")
        .build()
        .map_err(|e| tabula::Error::io("the server's runtime", e))?;
    runtime.block_on(listen(addr, deadline, Arc::new(state)))
}

async fn listen(addr: SocketAddr, deadline: Duration, state: Arc<State>) -> Result<()> {
    let listener = TcpListener::bind(addr)
        .await
        .map_err(|e| tabula::Error::io(format!("listening on {addr}"), e))?;
    let local = listener
        .local_addr()
        .map_err(|e| tabula::Error::io("the server's address", e))?;
    crate::cmd::diag(&format!(
        "tabula serve: listening on http://{local}/ (tables from {}); Ctrl-C stops",
        state.folder().display()
    ));
    let graceful = GracefulShutdown::new();
    let mut stop = pin!(stop_signal());
    loop {
        let accepted = poll_fn(|cx| match stop.as_mut().poll(cx) {
            Poll::Ready(()) => Poll::Ready(None),
            Poll::Pending => listener.poll_accept(cx).map(Some),
        })
        .await;
        let stream = match accepted {
            None => break,
            Some(Ok((stream, _))) => stream,
            // Out of descriptors, or a connection reset before it was accepted: go on.
            Some(Err(_)) => {
                tokio::time::sleep(Duration::from_millis(5)).await;
                continue;
            }
        };
        let _ = stream.set_nodelay(true);
        let connection = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(deadline)
            // A client that half-closes after its request still gets the answer.
            .half_close(true)
            .max_buf_size(MAX_HEAD)
            .serve_connection(
                TokioIo::new(stream),
                hyper::service::service_fn({
                    let state = state.clone();
                    move |req| respond(state.clone(), deadline, req)
                }),
            );
        let connection = graceful.watch(connection);
        tokio::spawn(async move {
            // A client that goes away mid-request is its own business.
            let _ = connection.await;
        });
    }
    drop(listener);
    crate::cmd::diag("tabula serve: stopping, finishing the requests in flight");
    // Idle keep-alive connections close now, those answering once their answer is sent.
    // A connection still sending its head has no request in flight: once no request has
    // been in flight for a moment (its answer written), it is not waited for.
    let mut shutdown = pin!(graceful.shutdown());
    let started = tokio::time::Instant::now();
    let mut idle_since = None;
    loop {
        let step = tokio::time::timeout(Duration::from_millis(5), shutdown.as_mut()).await;
        if step.is_ok() {
            break;
        }
        if IN_FLIGHT.load(Ordering::SeqCst) > 0 {
            idle_since = None;
        } else if idle_since
            .get_or_insert(tokio::time::Instant::now())
            .elapsed()
            >= SETTLE
        {
            break;
        }
        if started.elapsed() >= DRAIN {
            crate::cmd::diag(&format!(
                "tabula serve: some requests were still running after {DRAIN:?}; stopped"
            ));
            break;
        }
    }
    Ok(())
}

/// Resolves on SIGINT (Ctrl-C) or SIGTERM.
async fn stop_signal() {
    use tokio::signal::unix::{signal, SignalKind};
    let mut int = signal(SignalKind::interrupt()).ok();
    let mut term = signal(SignalKind::terminate()).ok();
    poll_fn(|cx| {
        let mut hit = |s: &mut Option<tokio::signal::unix::Signal>| {
            s.as_mut().is_some_and(|s| s.poll_recv(cx).is_ready())
        };
        if hit(&mut int) || hit(&mut term) {
            Poll::Ready(())
        } else {
            Poll::Pending
        }
    })
    .await
}

type Reply = Response<Full<Bytes>>;

/// One request: its size checked, its method, then its route.
async fn respond(
    state: Arc<State>,
    deadline: Duration,
    req: Request<Incoming>,
) -> Result<Reply, Infallible> {
    struct Flight;
    impl Drop for Flight {
        fn drop(&mut self) {
            IN_FLIGHT.fetch_sub(1, Ordering::SeqCst);
        }
    }
    IN_FLIGHT.fetch_add(1, Ordering::SeqCst);
    let _flight = Flight;
    let (parts, body) = req.into_parts();
    // Only the analysis of a match file takes a body (the file), and only by POST.
    let posts = parts.uri.path() == api::ANALYSE;
    let limit = if posts { MAX_FILE } else { MAX_BODY };
    let read = tokio::time::timeout(deadline, read_body(&parts.headers, body, limit)).await;
    let read = read.unwrap_or_else(|_| {
        Err(Fault::new(
            StatusCode::REQUEST_TIMEOUT,
            format!("the request body did not arrive within {deadline:?}"),
        ))
    });
    let body = match read {
        Ok(body) => body,
        Err(fault) => {
            let mut reply = fault_reply(&fault);
            if fault.status == StatusCode::REQUEST_TIMEOUT {
                reply
                    .headers_mut()
                    .insert(hyper::header::CONNECTION, HeaderValue::from_static("close"));
            }
            return Ok(reply);
        }
    };
    let allowed = match posts {
        true => parts.method == Method::POST,
        false => parts.method == Method::GET || parts.method == Method::HEAD,
    };
    if !allowed {
        let (served, allow) = match posts {
            true => ("POST (the match file as the body)", "POST"),
            false => ("GET", "GET, HEAD"),
        };
        let fault = Fault::new(
            StatusCode::METHOD_NOT_ALLOWED,
            format!(
                "method {} is not served: {} answers {served}",
                parts.method,
                if posts { api::ANALYSE } else { "the API" }
            ),
        );
        let mut reply = fault_reply(&fault);
        reply
            .headers_mut()
            .insert(ALLOW, HeaderValue::from_static(allow));
        return Ok(reply);
    }
    if posts {
        let query = parts.uri.query().map(str::to_string);
        let job = move || api::analyse(&state, query.as_deref(), &body);
        return Ok(reply(heavy(job).await));
    }
    let path = parts.uri.path();
    let query = parts.uri.query();
    let page = |body: &'static str, kind: &'static str| Ok(asset(body, kind));
    match path {
        "/" | "/index.html" => page(INDEX, "text/html; charset=utf-8"),
        "/app.js" => page(SCRIPT, "text/javascript; charset=utf-8"),
        "/style.css" => page(STYLE, "text/css; charset=utf-8"),
        "/icon.svg" | "/favicon.ico" => page(ICON, "image/svg+xml"),
        p if p.starts_with("/api/") && api::is_heavy(p, query) => {
            let (p, query) = (p.to_string(), query.map(str::to_string));
            Ok(reply(
                heavy(move || api::answer(&state, &p, query.as_deref())).await,
            ))
        }
        p if p.starts_with("/api/") => Ok(reply(guarded(|| api::answer(&state, p, query)))),
        _ => Ok(fault_reply(&Fault::not_found(format!(
            "nothing at {}: the board is at /, the API under /api/",
            tabula::error::shorten(path)
        )))),
    }
}

/// Reads the body, refusing one larger than `limit` with a 413.
async fn read_body(
    headers: &hyper::HeaderMap,
    body: Incoming,
    limit: usize,
) -> Result<Bytes, Fault> {
    let too_large = || {
        let takes = match limit {
            MAX_BODY => "; the API takes none (but a match file's, at /api/gammon/analyse)",
            _ => ", the largest match file read",
        };
        Fault::new(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the request body is larger than {limit} bytes{takes}"),
        )
    };
    let declared = headers
        .get(CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if declared.is_some_and(|n| n > limit as u64) {
        return Err(too_large());
    }
    if hyper::body::Body::is_end_stream(&body) {
        return Ok(Bytes::new());
    }
    Limited::new(body, limit)
        .collect()
        .await
        .map(|b| b.to_bytes())
        .map_err(|_| too_large())
}

/// Answers a long route (`job`) on the blocking pool, at most [`MAX_HEAVY`] at once.
async fn heavy(job: impl FnOnce() -> api::Answer + Send + 'static) -> api::Answer {
    struct Slot;
    impl Drop for Slot {
        fn drop(&mut self) {
            HEAVY.fetch_sub(1, Ordering::SeqCst);
        }
    }
    let slot = Slot;
    if HEAVY.fetch_add(1, Ordering::SeqCst) >= MAX_HEAVY {
        return Err(Fault::new(
            StatusCode::SERVICE_UNAVAILABLE,
            format!("{MAX_HEAVY} long computations are already running: try again shortly"),
        ));
    }
    let job = tokio::task::spawn_blocking(move || {
        let _slot = slot;
        guarded(job)
    });
    job.await.unwrap_or_else(|_| {
        Err(Fault::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error",
        ))
    })
}

/// Runs `answer`; a panic (a bug) becomes a 500 instead of a dropped connection.
fn guarded(answer: impl FnOnce() -> api::Answer) -> api::Answer {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(answer)).unwrap_or_else(|_| {
        Err(Fault::new(
            StatusCode::INTERNAL_SERVER_ERROR,
            "internal error (a bug: please report the request)",
        ))
    })
}

fn reply(answer: api::Answer) -> Reply {
    match answer {
        Ok(body) => json_reply(StatusCode::OK, body),
        Err(fault) => fault_reply(&fault),
    }
}

fn fault_reply(fault: &Fault) -> Reply {
    json_reply(fault.status, fault.body())
}

fn json_reply(status: StatusCode, body: Vec<u8>) -> Reply {
    let mut r = Response::new(Full::new(Bytes::from(body)));
    *r.status_mut() = status;
    r.headers_mut()
        .insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    r
}

/// One of the page's files, which may only load its own files.
fn asset(body: &'static str, kind: &'static str) -> Reply {
    let mut r = Response::new(Full::new(Bytes::from_static(body.as_bytes())));
    let h = r.headers_mut();
    h.insert(CONTENT_TYPE, HeaderValue::from_static(kind));
    h.insert(CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    h.insert(
        "content-security-policy",
        HeaderValue::from_static("default-src 'self'; img-src 'self' data:; style-src 'self'"),
    );
    h.insert(
        "x-content-type-options",
        HeaderValue::from_static("nosniff"),
    );
    r
}
