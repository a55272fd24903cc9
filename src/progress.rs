//! Progress reporting: one callback, no terminal.
//!
//! Long work in the library takes a [`Progress`] and reports through it what it is doing
//! and how far it has come. The library never decides how (or whether) that is shown: the
//! command layer turns the events into progress bars on stderr, a library user may log
//! them, ignore them ([`Progress::SILENT`]) or count them in a test.
//!
//! ```
//! use std::sync::atomic::{AtomicU64, Ordering};
//! use tabula::progress::{Event, Progress};
//!
//! let done = AtomicU64::new(0);
//! let count = |event: Event<'_>| {
//!     if let Event::Advance(n) = event {
//!         done.fetch_add(n, Ordering::Relaxed);
//!     }
//! };
//! let progress = Progress::new(&count);
//! progress.start("work", Some(10));
//! progress.advance(4);
//! progress.advance(6);
//! progress.finish();
//! assert_eq!(done.load(Ordering::Relaxed), 10);
//! ```

/// What a piece of long work reports.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Event<'a> {
    /// A stage begins: its name and, when known, how many steps it has. A new `Start`
    /// replaces the stage under way (so a stage whose length becomes known later simply
    /// starts again with its total).
    Start {
        /// A short name for the stage, e.g. `"games"` or `"sweeps"`.
        stage: &'a str,
        /// Steps in the stage, when known.
        total: Option<u64>,
    },
    /// `n` more steps of the current stage are done.
    Advance(u64),
    /// A short status line for the current stage (e.g. the residual of the last sweep).
    Status(&'a str),
    /// The current stage is over.
    Finish,
    /// Where work made of parts, each with stages of its own (a match's scores), stands;
    /// reported when the whole begins and as each part begins and ends, between the
    /// stages of the parts.
    Parts(Parts<'a>),
}

/// Where work made of parts stands (see [`Event::Parts`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Parts<'a> {
    /// A short name for the parts, e.g. `"scores"`.
    pub stage: &'a str,
    /// Parts finished (those found already done included).
    pub done: u64,
    /// Parts in all.
    pub total: u64,
    /// The work of the parts finished, in units of the work a part is expected to take
    /// (so that the time left can be estimated from the time taken).
    pub work_done: u64,
    /// The work of all the parts, in the same units.
    pub work: u64,
    /// The part under way, if any.
    pub current: Option<&'a str>,
}

/// A handle on the one progress callback, cheap to copy into worker threads.
#[derive(Clone, Copy)]
pub struct Progress<'a> {
    callback: Option<&'a (dyn Fn(Event<'_>) + Sync)>,
}

impl std::fmt::Debug for Progress<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Progress")
            .field("silent", &self.callback.is_none())
            .finish()
    }
}

impl Default for Progress<'_> {
    fn default() -> Self {
        Progress::SILENT
    }
}

impl<'a> Progress<'a> {
    /// Reports nothing.
    pub const SILENT: Progress<'static> = Progress { callback: None };

    /// Reports every event to `callback`, which may be called from several threads.
    pub fn new(callback: &'a (dyn Fn(Event<'_>) + Sync)) -> Self {
        Progress {
            callback: Some(callback),
        }
    }

    /// Whether events go anywhere (lets hot loops skip formatting a status).
    pub fn is_silent(&self) -> bool {
        self.callback.is_none()
    }

    /// Reports `event`.
    pub fn report(&self, event: Event<'_>) {
        if let Some(callback) = self.callback {
            callback(event);
        }
    }

    /// Reports [`Event::Start`].
    pub fn start(&self, stage: &str, total: Option<u64>) {
        self.report(Event::Start { stage, total });
    }

    /// Reports [`Event::Advance`].
    pub fn advance(&self, n: u64) {
        self.report(Event::Advance(n));
    }

    /// Reports [`Event::Status`].
    pub fn status(&self, text: &str) {
        self.report(Event::Status(text));
    }

    /// Reports [`Event::Finish`].
    pub fn finish(&self) {
        self.report(Event::Finish);
    }

    /// Reports [`Event::Parts`].
    pub fn parts(&self, parts: Parts<'_>) {
        self.report(Event::Parts(parts));
    }
}
