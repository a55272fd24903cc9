//! What every module's error shares, and nothing else: the sort of a failure
//! ([`ErrorKind`]) and how a message quotes the user's input ([`excerpt`], [`shorten`],
//! [`shorten_message`]). A leaf: it uses no other module of the crate, so every game's
//! error type can use it without an import that runs back up to [`crate::error`], which
//! names them all.
//!
//! `docs/cli.md`, "Files, streams and memory": a piece of the user's input is repeated in a message at most
//! as its first [`EXCERPT_CHARS`] characters, `…` and its length, whichever part of the
//! program refuses it and whichever door (the command line, the server) it came through.

/// What sort of failure an error is, for a caller that reacts to the sort, not the detail.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ErrorKind {
    /// The caller's input is malformed or out of range: a position, a hand, a parameter.
    Input,
    /// A table is missing, foreign, corrupt or of the wrong kind.
    Table,
    /// Reading or writing a file or stream failed.
    Io,
    /// The work itself failed (a search with no answer, a budget exhausted).
    Failed,
}

/// The longest piece of user input an error message repeats, in characters.
pub const EXCERPT_CHARS: usize = 80;

/// The longest error message given whole, in characters: a longer one (a list of many
/// faults) is cut there, `…` and its length.
pub const MAX_MESSAGE: usize = 1000;

/// `text` as an error message may repeat it: whole if it is at most [`EXCERPT_CHARS`]
/// characters, else its first [`EXCERPT_CHARS`] characters, `…`, and how long it was (a
/// 100,000-character input is not echoed).
pub fn excerpt(text: &str) -> String {
    match text.char_indices().nth(EXCERPT_CHARS) {
        None => text.to_string(),
        Some((cut, _)) => format!("{}… ({} characters)", &text[..cut], text.chars().count()),
    }
}

/// The user's text quoted in a message: its [`excerpt`] in backticks.
pub fn shorten(text: &str) -> String {
    format!("`{}`", excerpt(text))
}

/// A whole message held to the rule, whatever made it: every word longer than the rule
/// allows cut to its [`excerpt`] (an excerpt already made is kept), and a message still
/// longer than [`MAX_MESSAGE`] characters cut there. Both doors pass every message they
/// send through it: the command line's stderr and the server's `{"error": …}`.
pub fn shorten_message(text: &str) -> String {
    let words: String = text
        .split_inclusive(['\n', ' '])
        .map(|w| {
            let word = w.trim_end_matches(['\n', ' ']);
            if word.chars().count() > EXCERPT_CHARS + 2 && !is_excerpt(word) {
                format!("{}{}", excerpt(word), &w[word.len()..])
            } else {
                w.to_string()
            }
        })
        .collect();
    match words.char_indices().nth(MAX_MESSAGE) {
        Some((cut, _)) => format!("{}… ({} characters)", &words[..cut], words.chars().count()),
        None => words,
    }
}

/// Whether `word` is an excerpt already: its limit of characters and a `…` (with quotes
/// or punctuation about it).
fn is_excerpt(word: &str) -> bool {
    word.char_indices()
        .nth(EXCERPT_CHARS)
        .is_some_and(|(at, _)| {
            word[at..]
                .trim_start_matches(['`', '\'', '"'])
                .starts_with('…')
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_input_is_quoted_by_its_head_and_length() {
        assert_eq!(shorten("1-2"), "`1-2`");
        let long = "8".repeat(100_000);
        let shown = shorten(&long);
        assert!(shown.len() < 120, "{shown}");
        assert!(shown.ends_with("(100000 characters)`"), "{shown}");
    }

    #[test]
    fn a_message_is_held_to_the_rule_word_by_word_and_as_a_whole() {
        let hand = "o".repeat(3000);
        let m = shorten_message(&format!("hand `{hand}` is not five cards"));
        assert!(m.chars().count() < 150, "{m}");
        assert!(m.ends_with("is not five cards"), "{m}");
        // An excerpt already made is left alone.
        let made = format!("position {}: too long", shorten(&hand));
        assert_eq!(shorten_message(&made), made);
        let many = "`name`, ".repeat(500);
        let m = shorten_message(&many);
        assert!(m.chars().count() < MAX_MESSAGE + 30, "{m}");
    }
}
