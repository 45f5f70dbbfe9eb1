//! Reads a window of lines from a text file in one streaming pass: it keeps
//! only the lines shown, counts all of them, refuses binary content, and
//! checks for cancellation between chunks, so a huge file costs time but
//! never memory, and can be stopped.

use super::ReadError;
use std::io::Read;

/// At most this many lines are shown at once.
pub const MAX_LINES: usize = 2000;
/// At most this many bytes of text are shown at once.
pub const MAX_BYTES: usize = 50 * 1024;

pub(super) const CHUNK: usize = 64 * 1024;

/// What was read: the shown lines and where they sit in the file.
#[derive(Debug, PartialEq, Eq)]
pub(super) struct Window {
    /// The shown lines, joined with `\n` (line ends `\r\n` become `\n`).
    pub text: String,
    /// The first and last line shown, 1-based; 0 when none.
    pub first_line: usize,
    pub last_line: usize,
    /// Lines in the whole file.
    pub total_lines: usize,
    /// The line cut short at the byte cap, if any.
    pub cut_line: Option<usize>,
}

/// Which lines to show: from `offset` (1-based), at most `limit`.
#[derive(Clone, Copy, Debug)]
pub(super) struct Request {
    pub offset: usize,
    pub limit: usize,
}

/// Reads `source`, calling `cancelled` between chunks.
pub(super) fn read_window(
    mut source: impl Read,
    request: Request,
    cancelled: impl Fn() -> bool,
) -> Result<Window, ReadError> {
    let limit = request.limit.min(MAX_LINES);
    let mut scan = Scan {
        request,
        limit,
        out: Vec::new(),
        pending: Vec::new(),
        shown: 0,
        first_line: 0,
        last_line: 0,
        line: 1,
        mid_line: false,
        stopped: false,
        cut_line: None,
    };
    let mut utf8 = Utf8Check::default();
    let mut chunk = vec![0u8; CHUNK];
    while let Some(bytes) = next_chunk(&mut source, &mut chunk, &cancelled)? {
        if bytes.contains(&0) {
            return Err(ReadError::Binary("it contains NUL bytes"));
        }
        utf8.feed(bytes)?;
        scan.feed(bytes);
    }
    utf8.finish()?;
    Ok(scan.finish())
}

struct Scan {
    request: Request,
    limit: usize,
    out: Vec<u8>,
    /// The line being read, while it is in the window (at most one byte
    /// past the cap is kept: enough to know it does not fit).
    pending: Vec<u8>,
    shown: usize,
    first_line: usize,
    last_line: usize,
    /// The number of the line the next byte belongs to.
    line: usize,
    /// True when the last byte seen was not a line end.
    mid_line: bool,
    /// True once the window is full (lines, limit or bytes).
    stopped: bool,
    cut_line: Option<usize>,
}

impl Scan {
    fn feed(&mut self, bytes: &[u8]) {
        for piece in bytes.split_inclusive(|byte| *byte == b'\n') {
            let ends_line = piece.last() == Some(&b'\n');
            let content = if ends_line {
                &piece[..piece.len() - 1]
            } else {
                piece
            };
            if self.in_window() {
                let room = (MAX_BYTES + 1).saturating_sub(self.pending.len());
                self.pending
                    .extend_from_slice(&content[..content.len().min(room)]);
            }
            if ends_line {
                self.end_line();
                self.line += 1;
                self.mid_line = false;
            } else {
                self.mid_line = true;
            }
        }
    }

    fn in_window(&self) -> bool {
        !self.stopped && self.line >= self.request.offset
    }

    /// The line just read is shown whole if it fits; a line too long to
    /// fit even alone is cut (and shown first); otherwise the window stops
    /// before it, so reading on from the note loses nothing.
    fn end_line(&mut self) {
        if !self.in_window() {
            return;
        }
        let line = std::mem::take(&mut self.pending);
        if self.shown == self.limit {
            self.stopped = true;
            return;
        }
        let separator = usize::from(self.shown > 0);
        if self.out.len() + separator + line.len() <= MAX_BYTES {
            if separator == 1 {
                self.out.push(b'\n');
            }
            self.out.extend_from_slice(&line);
        } else if self.shown == 0 {
            self.out.extend_from_slice(&line[..MAX_BYTES]);
            self.cut_line = Some(self.line);
            self.stopped = true;
        } else {
            self.stopped = true;
            return;
        }
        if self.shown == 0 {
            self.first_line = self.line;
        }
        self.last_line = self.line;
        self.shown += 1;
    }

    fn finish(mut self) -> Window {
        if self.mid_line {
            self.end_line();
        }
        let total_lines = if self.mid_line {
            self.line
        } else {
            self.line - 1
        };
        // The whole file is valid UTF-8; only a cut at the byte cap can end
        // inside a character.
        let valid = match std::str::from_utf8(&self.out) {
            Ok(_) => self.out.len(),
            Err(error) => error.valid_up_to(),
        };
        self.out.truncate(valid);
        let text = String::from_utf8(self.out)
            .unwrap_or_default()
            .replace("\r\n", "\n");
        let text = match text.strip_suffix('\r') {
            Some(stripped) => stripped.to_owned(),
            None => text,
        };
        Window {
            text,
            first_line: self.first_line,
            last_line: self.last_line,
            total_lines,
            cut_line: self.cut_line,
        }
    }
}

/// Checks UTF-8 across chunk boundaries: an incomplete sequence at the end
/// of one chunk is completed by the next.
#[derive(Default)]
struct Utf8Check {
    carry: Vec<u8>,
}

impl Utf8Check {
    fn feed(&mut self, bytes: &[u8]) -> Result<(), ReadError> {
        let mut joined;
        let data = if self.carry.is_empty() {
            bytes
        } else {
            joined = std::mem::take(&mut self.carry);
            joined.extend_from_slice(bytes);
            &joined[..]
        };
        match std::str::from_utf8(data) {
            Ok(_) => Ok(()),
            // Incomplete at the very end: wait for the next chunk.
            Err(error) if error.error_len().is_none() => {
                self.carry = data[error.valid_up_to()..].to_vec();
                Ok(())
            }
            Err(_) => Err(ReadError::Binary("it is not valid UTF-8")),
        }
    }

    fn finish(self) -> Result<(), ReadError> {
        if self.carry.is_empty() {
            Ok(())
        } else {
            Err(ReadError::Binary("it is not valid UTF-8"))
        }
    }
}

/// The next piece of `source` (`None` at its end), read into `chunk`
/// between checks of the caller's signal; an interrupted read is retried.
pub(super) fn next_chunk<'c>(
    source: &mut impl Read,
    chunk: &'c mut [u8],
    cancelled: &impl Fn() -> bool,
) -> Result<Option<&'c [u8]>, ReadError> {
    loop {
        if cancelled() {
            return Err(ReadError::Cancelled);
        }
        match source.read(chunk) {
            Ok(0) => return Ok(None),
            Ok(read) => return Ok(Some(&chunk[..read])),
            Err(error) if error.kind() == std::io::ErrorKind::Interrupted => {}
            Err(error) => return Err(ReadError::Io(error.kind())),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &[u8], offset: usize, limit: usize) -> Result<Window, ReadError> {
        read_window(text, Request { offset, limit }, || false)
    }

    #[test]
    fn counts_lines_with_and_without_a_final_newline() {
        assert_eq!(read(b"", 1, 10).unwrap().total_lines, 0);
        assert_eq!(read(b"a", 1, 10).unwrap().total_lines, 1);
        assert_eq!(read(b"a\n", 1, 10).unwrap().total_lines, 1);
        assert_eq!(read(b"a\nb", 1, 10).unwrap().total_lines, 2);
        assert_eq!(read(b"a\n\n", 1, 10).unwrap().total_lines, 2);
    }

    #[test]
    fn shows_the_requested_window() {
        let window = read(b"one\r\ntwo\nthree\nfour\n", 2, 2).unwrap();
        assert_eq!(window.text, "two\nthree");
        assert_eq!(
            (window.first_line, window.last_line, window.total_lines),
            (2, 3, 4)
        );
        let empty_lines = read(b"\n\nx\n", 1, 10).unwrap();
        assert_eq!(empty_lines.text, "\n\nx");
        assert_eq!(empty_lines.last_line, 3);
    }

    #[test]
    fn cuts_a_long_line_at_a_character_boundary() {
        let long = "é".repeat(MAX_BYTES);
        let window = read(long.as_bytes(), 1, 10).unwrap();
        assert_eq!(window.cut_line, Some(1));
        assert_eq!(window.text.len(), MAX_BYTES);
        assert!(window.text.chars().all(|c| c == 'é'));
    }

    #[test]
    fn stops_before_a_line_that_does_not_fit() {
        let text = format!("{}\n", "x".repeat(99)).repeat(1000);
        let window = read(text.as_bytes(), 1, 2000).unwrap();
        assert_eq!(window.last_line, 512);
        assert_eq!(window.cut_line, None);
        assert_eq!(window.text.len(), 512 * 100 - 1);
    }

    #[test]
    fn refuses_binary_content_anywhere() {
        let mut text = "ok\n".repeat(100_000).into_bytes();
        text.push(0);
        assert!(matches!(read(&text, 1, 10), Err(ReadError::Binary(_))));
        assert!(matches!(read(b"a\xffb", 1, 10), Err(ReadError::Binary(_))));
        assert!(matches!(read(b"a\xc3", 1, 10), Err(ReadError::Binary(_))));
    }

    #[test]
    fn multibyte_characters_may_straddle_chunks() {
        let mut text = "a".repeat(CHUNK - 1);
        text.push_str("é and more");
        let window = read(text.as_bytes(), 1, 10).unwrap();
        assert_eq!(window.total_lines, 1);
    }

    #[test]
    fn stops_when_cancelled() {
        let result = read_window(
            &b"a\n"[..],
            Request {
                offset: 1,
                limit: 1,
            },
            || true,
        );
        assert!(matches!(result, Err(ReadError::Cancelled)));
    }
}
