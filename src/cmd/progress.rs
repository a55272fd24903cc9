//! The library's progress events drawn as bars on stderr when it is a terminal; when it
//! is not (a batch job's log, `nohup`), a line now and then: every minute at most, or
//! every `TABULA_PROGRESS_EVERY` seconds. Nothing when the command was asked to be quiet.

use indicatif::{MultiProgress, ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};
use tabula::progress::{Event, Parts, Progress};

type Current = Arc<Mutex<Drawn>>;
type Callback = Box<dyn Fn(Event<'_>) + Sync>;

/// What is on the screen: the bar of the stage under way and, for work made of parts, a
/// bar of the whole above it.
#[derive(Default)]
struct Drawn {
    multi: Option<MultiProgress>,
    stage: Option<ProgressBar>,
    whole: Option<Whole>,
}

/// The bar of work made of parts, and when and at what work its first part began (the
/// parts found done before it take no time).
struct Whole {
    bar: ProgressBar,
    began: Option<(Instant, u64)>,
}

/// Draws one bar (or a spinner, for a stage of unknown length) per stage, and one for the
/// whole of work made of parts ([`Event::Parts`]): parts done, the part under way, the
/// time left.
pub struct Bars {
    current: Current,
    callback: Option<Callback>,
}

impl Bars {
    /// Bars that draw only when `quiet` is false and stderr is a terminal; lines now
    /// and then ([`Lines`]) when it is not.
    pub fn new(quiet: bool) -> Bars {
        let current: Current = Arc::default();
        let callback: Option<Callback> = if quiet {
            None
        } else if std::io::stderr().is_terminal() {
            let current = Arc::clone(&current);
            Some(Box::new(move |event| draw(&current, event)))
        } else {
            let lines = Mutex::new(Lines::new(every()));
            Some(Box::new(move |event| {
                let line = lines.lock().unwrap_or_else(|e| e.into_inner()).see(event);
                if let Some(line) = line {
                    crate::cmd::diag(&line);
                }
            }))
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
        let mut drawn = self.current.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(whole) = drawn.whole.take() {
            whole.bar.finish_and_clear();
        }
    }
}

/// How often a line is written where no bar is drawn: `TABULA_PROGRESS_EVERY` seconds,
/// else a minute.
fn every() -> Duration {
    std::env::var("TABULA_PROGRESS_EVERY")
        .ok()
        .and_then(|s| s.trim().parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s >= 0.0)
        .map_or(Duration::from_secs(60), Duration::from_secs_f64)
}

/// The progress as lines, for a stderr that is no terminal: where the work stands (the
/// stage, its steps, its status; the parts), written when `every` has passed since the
/// last line (or the start).
struct Lines {
    every: Duration,
    started: Instant,
    last: Instant,
    stage: String,
    total: Option<u64>,
    done: u64,
    status: String,
    parts: String,
}

impl Lines {
    fn new(every: Duration) -> Lines {
        let now = Instant::now();
        Lines {
            every,
            started: now,
            last: now,
            stage: String::new(),
            total: None,
            done: 0,
            status: String::new(),
            parts: String::new(),
        }
    }

    /// Takes in `event`; the line to write, when one is due.
    fn see(&mut self, event: Event<'_>) -> Option<String> {
        match event {
            Event::Start { stage, total } => {
                self.stage = stage.to_string();
                self.total = total;
                self.done = 0;
                self.status.clear();
            }
            Event::Advance(n) => self.done += n,
            Event::Status(text) => self.status = text.to_string(),
            Event::Finish => return None,
            Event::Parts(parts) => self.parts = parts_line(&parts, None),
        }
        if self.stage.is_empty() || self.last.elapsed() < self.every {
            return None;
        }
        self.last = Instant::now();
        let mut line = format!(
            "tabula: [{}] {}",
            hours_minutes_seconds(self.started.elapsed()),
            self.stage
        );
        match self.total {
            Some(total) if total > 0 => {
                let share = 100.0 * self.done as f64 / total as f64;
                line += &format!(" {}/{total} ({share:.1}%)", self.done);
            }
            _ => line += &format!(" {}", self.done),
        }
        if !self.status.is_empty() {
            line += &format!(", {}", self.status);
        }
        if !self.parts.is_empty() {
            line += &format!("; {}", self.parts);
        }
        Some(line)
    }
}

/// `1:02:03`, `2:03`.
fn hours_minutes_seconds(d: Duration) -> String {
    let s = d.as_secs();
    match s / 3600 {
        0 => format!("{}:{:02}", s / 60, s % 60),
        h => format!("{h}:{:02}:{:02}", s / 60 % 60, s % 60),
    }
}

fn draw(current: &Current, event: Event<'_>) {
    let mut drawn = current.lock().unwrap_or_else(|e| e.into_inner());
    let drawn = &mut *drawn;
    match event {
        Event::Start { stage, total } => {
            if let Some(old) = drawn.stage.take() {
                old.finish_and_clear();
            }
            let new = bar(stage, total);
            drawn.stage = Some(match &drawn.multi {
                Some(multi) => multi.add(new),
                None => new,
            });
        }
        Event::Advance(n) => {
            if let Some(bar) = drawn.stage.as_ref() {
                bar.inc(n);
            }
        }
        Event::Status(text) => {
            if let Some(bar) = drawn.stage.as_ref() {
                bar.set_prefix(text.to_string());
            }
        }
        Event::Finish => {
            if let Some(old) = drawn.stage.take() {
                old.finish_and_clear();
            }
        }
        Event::Parts(parts) => {
            let whole = drawn.whole.get_or_insert_with(|| {
                let multi = drawn.multi.get_or_insert_with(|| {
                    MultiProgress::with_draw_target(ProgressDrawTarget::stderr())
                });
                let bar = multi.insert(0, whole_bar(parts.stage, parts.work));
                Whole { bar, began: None }
            });
            if parts.current.is_some() && whole.began.is_none() {
                whole.began = Some((Instant::now(), parts.work_done));
            }
            whole.bar.set_position(parts.work_done);
            let left = whole
                .began
                .and_then(|(at, from)| time_left(at.elapsed(), from, &parts));
            whole.bar.set_prefix(parts_line(&parts, left));
        }
    }
}

/// The time the parts not done will take, at the rate of those done since `from` (the
/// work done when the first part began), in the time `taken` since then; none before a
/// part is done.
fn time_left(taken: Duration, from: u64, parts: &Parts<'_>) -> Option<Duration> {
    let done = parts.work_done.checked_sub(from).filter(|&d| d > 0)?;
    let left = parts.work.saturating_sub(parts.work_done);
    Some(taken.mul_f64(left as f64 / done as f64))
}

/// "5/34 scores done, 2-4 under way, about 1h 02m left".
fn parts_line(parts: &Parts<'_>, left: Option<Duration>) -> String {
    let mut line = format!("{}/{} {} done", parts.done, parts.total, parts.stage);
    if let Some(current) = parts.current {
        line += &format!(", {current} under way");
    }
    if let Some(left) = left {
        line += &format!(", about {} left", hours_minutes(left));
    }
    line
}

/// `1h 02m`, `41m`, `<1m`.
fn hours_minutes(d: Duration) -> String {
    let minutes = (d.as_secs_f64() / 60.0).round() as u64;
    match minutes {
        0 => "<1m".to_string(),
        m if m < 60 => format!("{m}m"),
        m => format!("{}h {:02}m", m / 60, m % 60),
    }
}

/// The bar of the whole: its work done against `work`.
fn whole_bar(stage: &str, work: u64) -> ProgressBar {
    let bar = ProgressBar::hidden();
    bar.set_length(work);
    bar.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:40}] [{elapsed}] {prefix}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(stage.to_string());
    bar
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

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(done: u64, work_done: u64, current: Option<&str>) -> Parts<'_> {
        Parts {
            stage: "scores",
            done,
            total: 34,
            work_done,
            work: 100,
            current,
        }
    }

    #[test]
    fn lines_where_no_bar_is_drawn_say_where_the_work_stands_when_due() {
        let mut now = Lines::new(Duration::ZERO);
        assert_eq!(now.see(Event::Advance(1)), None, "no stage yet");
        let line = now
            .see(Event::Start {
                stage: "sweeps",
                total: Some(8),
            })
            .unwrap();
        assert!(
            line.starts_with("tabula: [0:00] sweeps 0/8 (0.0%)"),
            "{line}"
        );
        now.see(Event::Advance(2));
        let line = now.see(Event::Status("residual 1e-9")).unwrap();
        assert!(
            line.ends_with("sweeps 2/8 (25.0%), residual 1e-9"),
            "{line}"
        );
        let line = now.see(Event::Parts(parts(5, 50, Some("2-4")))).unwrap();
        assert!(
            line.ends_with("; 5/34 scores done, 2-4 under way"),
            "{line}"
        );
        assert_eq!(now.see(Event::Finish), None);
        // Not due: nothing.
        let mut later = Lines::new(Duration::from_secs(3600));
        let start = Event::Start {
            stage: "sweeps",
            total: None,
        };
        assert_eq!(later.see(start), None);
        assert_eq!(later.see(Event::Advance(1)), None);
        assert_eq!(hours_minutes_seconds(Duration::from_secs(3723)), "1:02:03");
        assert_eq!(hours_minutes_seconds(Duration::from_secs(123)), "2:03");
    }

    // The time left is the time taken for the work done since the first part began (not
    // the parts found done before it), scaled to the work left.
    #[test]
    fn the_time_left_scales_the_time_taken_by_the_work_left() {
        let hour = Duration::from_secs(3600);
        assert_eq!(time_left(hour, 20, &parts(5, 20, Some("2-4"))), None);
        assert_eq!(time_left(hour, 20, &parts(9, 40, None)), Some(hour * 3));
        assert_eq!(
            time_left(hour, 0, &parts(34, 100, None)),
            Some(Duration::ZERO)
        );
        let line = parts_line(&parts(9, 40, Some("3-4")), Some(hour * 3 + hour / 30));
        assert_eq!(line, "9/34 scores done, 3-4 under way, about 3h 02m left");
        assert_eq!(hours_minutes(Duration::from_secs(20)), "<1m");
        assert_eq!(hours_minutes(Duration::from_secs(41 * 60 + 10)), "41m");
    }
}
