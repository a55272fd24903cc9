//! The library's progress events drawn as bars on stderr (hidden when stderr is not a
//! terminal, or when the command was asked to be quiet).

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use tabula::progress::{Event, Progress};

type Current = Arc<Mutex<Option<ProgressBar>>>;
type Callback = Box<dyn Fn(Event<'_>) + Sync>;

/// Draws one bar (or a spinner, for a stage of unknown length) per stage.
pub struct Bars {
    current: Current,
    callback: Option<Callback>,
}

impl Bars {
    /// Bars that draw only when `quiet` is false and stderr is a terminal.
    pub fn new(quiet: bool) -> Bars {
        let current: Current = Arc::default();
        let callback: Option<Callback> = if !quiet && std::io::stderr().is_terminal() {
            let current = Arc::clone(&current);
            Some(Box::new(move |event| draw(&current, event)))
        } else {
            None
        };
        Bars { current, callback }
    }

    /// The callback to hand to the library.
    pub fn progress(&self) -> Progress<'_> {
        match &self.callback {
            Some(callback) => Progress::new(callback.as_ref()),
            None => Progress::SILENT,
        }
    }
}

impl Drop for Bars {
    fn drop(&mut self) {
        draw(&self.current, Event::Finish);
    }
}

fn draw(current: &Current, event: Event<'_>) {
    let mut current = current.lock().unwrap_or_else(|e| e.into_inner());
    match event {
        Event::Start { stage, total } => {
            if let Some(old) = current.take() {
                old.finish_and_clear();
            }
            *current = Some(bar(stage, total));
        }
        Event::Advance(n) => {
            if let Some(bar) = current.as_ref() {
                bar.inc(n);
            }
        }
        Event::Status(text) => {
            if let Some(bar) = current.as_ref() {
                bar.set_prefix(text.to_string());
            }
        }
        Event::Finish => {
            if let Some(old) = current.take() {
                old.finish_and_clear();
            }
        }
    }
}

fn bar(stage: &str, total: Option<u64>) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(total, ProgressDrawTarget::stderr());
    let style = match total {
        Some(_) => {
            ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} ({eta}) {prefix}")
                .expect("the template is valid")
                .progress_chars("=> ")
        }
        None => ProgressStyle::with_template("{spinner} {msg} [{elapsed}] {prefix}")
            .expect("the template is valid"),
    };
    bar.set_style(style);
    bar.set_message(stage.to_string());
    if total.is_none() {
        bar.enable_steady_tick(std::time::Duration::from_millis(120));
    }
    bar
}
