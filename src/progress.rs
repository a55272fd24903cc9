//! Progress bars on stderr, hidden when stderr is not a terminal or when asked to be quiet.

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};
use std::io::IsTerminal;

/// A bar of `len` steps labelled `message`; hidden when `quiet` or when stderr is not a
/// terminal, so piped output and tests see nothing of it.
pub fn bar(len: u64, message: &str, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(Some(len), target(quiet));
    bar.set_style(
        ProgressStyle::with_template("{msg:>12} [{bar:40}] {pos}/{len} ({eta}) {prefix}")
            .expect("the template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(message.to_string());
    bar
}

/// A spinner for work of unknown length.
pub fn spinner(message: &str, quiet: bool) -> ProgressBar {
    let bar = ProgressBar::with_draw_target(None, target(quiet));
    bar.set_style(
        ProgressStyle::with_template("{spinner} {msg} [{elapsed}]").expect("the template is valid"),
    );
    bar.set_message(message.to_string());
    bar
}

fn target(quiet: bool) -> ProgressDrawTarget {
    if quiet || !std::io::stderr().is_terminal() {
        ProgressDrawTarget::hidden()
    } else {
        ProgressDrawTarget::stderr()
    }
}
