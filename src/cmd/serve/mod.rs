//! `tabula serve`: the second door to the same answers (`docs/serve.md`). The board in a
//! browser and the tables over HTTP, on tokio and hyper. The server only answers: every
//! API document is the one the command line prints with `--json` for the same question,
//! made by the same functions (`super::gammon::answer`, `super::bingo::law`,
//! `super::numeron::next`, `super::poker::comparison`); a game in progress lives in the
//! page.
//!
//! - [`api`]: the routes, from a path and its parameters to a JSON document or a fault.
//! - [`fault`]: what a request that gets no answer gets instead: a status and a message.
//! - [`params`]: query parameters, decoded and checked.
//! - [`state`]: the tables folder and the tables opened from it, mapped once and shared.
//! - [`http`]: hyper's side: connections, limits, the page's files, shutdown.

mod api;
mod fault;
mod http;
mod params;
mod state;

use clap::Args;
use std::net::SocketAddr;
use std::path::PathBuf;
use tabula::Result;

/// `tabula serve`'s arguments.
#[derive(Args, Clone)]
pub struct ServeArgs {
    /// The address to listen on (loopback by default; port 0 picks a free port)
    #[arg(long, default_value = "127.0.0.1:7878", value_name = "ADDR")]
    pub addr: SocketAddr,
    /// The tables folder served (default: the one the other commands use, `tables/`)
    #[arg(long, value_name = "DIR")]
    pub tables: Option<PathBuf>,
    /// Worker threads answering requests (default: one per core)
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=256))]
    pub threads: Option<u16>,
    /// Seconds a client may take to send a request's head, and as long again for its body
    /// (408 after that)
    #[arg(long, default_value_t = http::DEADLINE.as_secs(), value_name = "SECONDS",
          value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub deadline: u64,
}

/// Serves until SIGINT or SIGTERM, then finishes the requests in flight and returns.
pub fn run(args: ServeArgs) -> Result<()> {
    let folder = args
        .tables
        .clone()
        .unwrap_or_else(super::tables::build_folder);
    let state = state::State::new(folder);
    http::serve(
        args.addr,
        args.threads.map(usize::from),
        std::time::Duration::from_secs(args.deadline),
        state,
    )
}
