//! Lines of text from a person, read safely: at most [`MAX_LINE`] bytes a line (a stream
//! with no line break, such as `/dev/zero`, is refused instead of filling the memory),
//! and bytes that are not UTF-8 are refused naming the line. Every interactive session
//! reads its input through [`Lines`].

use std::io::{BufRead, Read};
use thiserror::Error;

/// The longest line read, in bytes (its line break not counted).
pub const MAX_LINE: usize = 4096;

/// Why a line could not be read.
#[derive(Debug, Error)]
pub enum LineError {
    /// The stream itself failed.
    #[error("{0}")]
    Read(#[source] std::io::Error),
    /// A line ran past [`MAX_LINE`] bytes.
    #[error("line {line} is longer than {max} bytes")]
    TooLong {
        /// The line's number, from 1.
        line: u64,
        /// The longest line read.
        max: usize,
    },
    /// A line was not UTF-8 text.
    #[error("line {line} is not UTF-8 text")]
    NotText {
        /// The line's number, from 1.
        line: u64,
    },
}

/// Reads lines, trimmed, counting them.
#[derive(Debug)]
pub struct Lines<R> {
    input: R,
    line: u64,
}

impl<R: BufRead> Lines<R> {
    /// Lines of `input`.
    pub fn new(input: R) -> Self {
        Lines { input, line: 0 }
    }

    /// How many lines have been read.
    pub fn count(&self) -> u64 {
        self.line
    }

    /// The next line, trimmed of surrounding white space; `None` at the end of the input.
    pub fn next_line(&mut self) -> Result<Option<String>, LineError> {
        let mut bytes = Vec::new();
        let read = (&mut self.input)
            .take(MAX_LINE as u64 + 1)
            .read_until(b'\n', &mut bytes)
            .map_err(LineError::Read)?;
        if read == 0 {
            return Ok(None);
        }
        self.line += 1;
        if bytes.last() == Some(&b'\n') {
            bytes.pop();
        } else if bytes.len() > MAX_LINE {
            return Err(LineError::TooLong {
                line: self.line,
                max: MAX_LINE,
            });
        }
        let text = String::from_utf8(bytes).map_err(|_| LineError::NotText { line: self.line })?;
        Ok(Some(text.trim().to_string()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_are_trimmed_and_counted_until_the_input_ends() {
        let mut lines = Lines::new(&b" 8/6 5/4* \r\nq\n\nlast"[..]);
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("8/6 5/4*"));
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("q"));
        assert_eq!(lines.next_line().unwrap().as_deref(), Some(""));
        assert_eq!(lines.next_line().unwrap().as_deref(), Some("last"));
        assert!(lines.next_line().unwrap().is_none());
        assert_eq!(lines.count(), 4);
    }

    #[test]
    fn an_endless_line_is_refused_after_the_limit_not_read_whole() {
        let zeros = std::io::repeat(0).take(1 << 30);
        let mut lines = Lines::new(std::io::BufReader::new(zeros));
        match lines.next_line() {
            Err(LineError::TooLong { line: 1, max }) => assert_eq!(max, MAX_LINE),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn bytes_that_are_not_text_are_refused_naming_the_line() {
        let mut lines = Lines::new(&b"1\n\xff\xfe\n"[..]);
        assert!(lines.next_line().is_ok());
        assert!(matches!(
            lines.next_line(),
            Err(LineError::NotText { line: 2 })
        ));
    }
}
