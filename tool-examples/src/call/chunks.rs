//! Input split into chunks of whole lines: what has already arrived, up to
//! a size, so a burst of queued calls is handed on (and parsed, run and
//! written) many lines at a time, while a single call typed or piped in
//! alone is handed on at once. A line longer than
//! [`MAX_LINE_BYTES`](super::MAX_LINE_BYTES) is never read into memory: only
//! its start is kept, to pair its answer.

use super::{MAX_LINE_BYTES, PREFIX_BYTES};
use std::ops::Range;
use std::pin::Pin;
use std::task::{Context, Poll, Waker};
use tokio::io::{AsyncBufRead, AsyncBufReadExt};

/// A chunk ends after this many lines, so the work spreads over the cores
/// (and few calls wait on one chunk's slowest).
pub(super) const MAX_CHUNK_LINES: usize = 128;

/// A chunk ends once it holds this many bytes (one longer line still makes
/// a chunk of its own).
const MAX_CHUNK_BYTES: usize = 256 * 1024;

/// Whole input lines, in order, in one buffer.
#[derive(Default)]
pub(super) struct Chunk {
    /// The lines' bytes, newlines included; a too-long line's start only.
    pub bytes: Vec<u8>,
    /// Each line: where it is in `bytes`, its number in the input, and
    /// whether it was too long to read (then `bytes` holds only its start).
    pub lines: Vec<ChunkLine>,
}

/// One line of a [`Chunk`].
pub(super) struct ChunkLine {
    /// Its bytes in the chunk.
    pub range: Range<usize>,
    /// Its number in the input, from 1.
    pub number: usize,
    /// Longer than the limit: `range` is only its start.
    pub too_long: bool,
}

impl Chunk {
    /// The input's bytes this chunk accounts for, in KiB rounded up (at
    /// least one per line): its share of the in-flight memory budget.
    pub(super) fn budget_units(&self) -> u32 {
        let units = self.bytes.len() / super::BUDGET_UNIT + self.lines.len();
        u32::try_from(units).unwrap_or(u32::MAX)
    }
}

/// Reads [`Chunk`]s from an async buffered reader.
pub(super) struct ChunkReader<R> {
    input: R,
    /// Lines read so far.
    number: usize,
    /// Bytes read so far (all of a too-long line's, though few were kept).
    pub consumed: u64,
    /// The size of the chunk before, in bytes and lines: the room the next
    /// one starts with (a burst makes chunks of much the same size, which
    /// then grow by no copy).
    last: (usize, usize),
}

impl<R: AsyncBufRead + Unpin> ChunkReader<R> {
    pub(super) fn new(input: R) -> Self {
        ChunkReader {
            input,
            number: 0,
            consumed: 0,
            last: (0, 0),
        }
    }

    /// The next chunk: waits for one line, then takes the lines already
    /// buffered behind it without waiting. `None` at the end of the input.
    pub(super) async fn next_chunk(&mut self) -> std::io::Result<Option<Chunk>> {
        let mut chunk = Chunk {
            bytes: Vec::with_capacity(self.last.0),
            lines: Vec::with_capacity(self.last.1),
        };
        loop {
            if !chunk.lines.is_empty() && !self.more_is_buffered() {
                break;
            }
            if !self.read_line(&mut chunk).await? {
                break;
            }
            if chunk.lines.len() >= MAX_CHUNK_LINES || chunk.bytes.len() >= MAX_CHUNK_BYTES {
                break;
            }
        }
        self.last = (chunk.bytes.len(), chunk.lines.len());
        Ok((!chunk.lines.is_empty()).then_some(chunk))
    }

    /// Whether reading on would not wait: bytes are buffered, the input
    /// ended, or it failed (the next read says so).
    fn more_is_buffered(&mut self) -> bool {
        let mut context = Context::from_waker(Waker::noop());
        match Pin::new(&mut self.input).poll_fill_buf(&mut context) {
            Poll::Ready(Ok(buffered)) => !buffered.is_empty(),
            Poll::Ready(Err(_)) => true,
            Poll::Pending => false,
        }
    }

    /// Appends the next line to `chunk`; false at the end of the input.
    /// A line over the limit keeps only its first [`PREFIX_BYTES`].
    async fn read_line(&mut self, chunk: &mut Chunk) -> std::io::Result<bool> {
        let start = chunk.bytes.len();
        let mut seen = false;
        let mut length = 0usize;
        loop {
            let available = self.input.fill_buf().await?;
            if available.is_empty() {
                break;
            }
            seen = true;
            let (take, ends) = match memchr_newline(available) {
                Some(end) => (end + 1, true),
                None => (available.len(), false),
            };
            if length + take <= MAX_LINE_BYTES {
                chunk.bytes.extend_from_slice(&available[..take]);
            } else if length <= MAX_LINE_BYTES {
                // Over the limit from here: keep the start (the id usually
                // comes before the arguments), drop the rest unread.
                chunk.bytes.truncate(start + PREFIX_BYTES.min(length));
                let missing = PREFIX_BYTES.saturating_sub(length).min(take);
                chunk.bytes.extend_from_slice(&available[..missing]);
                chunk.bytes.shrink_to(start + PREFIX_BYTES);
            }
            length = length.saturating_add(take);
            self.consumed += take as u64;
            self.input.consume(take);
            if ends {
                break;
            }
        }
        if !seen {
            return Ok(false);
        }
        self.number += 1;
        chunk.lines.push(ChunkLine {
            range: start..chunk.bytes.len(),
            number: self.number,
            too_long: length > MAX_LINE_BYTES,
        });
        Ok(true)
    }
}

/// The first newline in `bytes`: a call of 1 MB is scanned for its end as
/// well as parsed, so a byte-by-byte loop would show; memchr compares 16 or
/// 32 bytes at a time.
fn memchr_newline(bytes: &[u8]) -> Option<usize> {
    memchr::memchr(b'\n', bytes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Cursor;
    use tokio::io::BufReader;

    fn reader(input: Vec<u8>, capacity: usize) -> ChunkReader<BufReader<Cursor<Vec<u8>>>> {
        ChunkReader::new(BufReader::with_capacity(capacity, Cursor::new(input)))
    }

    #[test]
    fn the_newline_is_found_at_every_offset() {
        for length in 0..40 {
            for at in 0..=length {
                let mut bytes = vec![b'x'; length];
                if at < length {
                    bytes[at] = b'\n';
                }
                let expected = bytes.iter().position(|byte| *byte == b'\n');
                assert_eq!(memchr_newline(&bytes), expected, "{length} {at}");
            }
        }
    }

    #[tokio::test]
    async fn buffered_lines_come_in_chunks_of_at_most_128_numbered_in_order() {
        let input: String = (1..=300).map(|n| format!("line {n}\n")).collect();
        let mut chunks = reader(input.into_bytes(), 1 << 20);
        let mut sizes = Vec::new();
        let mut next_number = 1;
        while let Some(chunk) = chunks.next_chunk().await.unwrap() {
            for line in &chunk.lines {
                assert_eq!(line.number, next_number);
                let text = &chunk.bytes[line.range.clone()];
                assert_eq!(text, format!("line {next_number}\n").as_bytes());
                next_number += 1;
            }
            sizes.push(chunk.lines.len());
        }
        assert_eq!(sizes, [128, 128, 44]);
    }

    #[tokio::test]
    async fn a_line_over_the_limit_keeps_only_its_start_even_from_one_huge_read() {
        let mut line = br#"{"id":"big","name":"echo","arguments":{"value":""#.to_vec();
        line.resize(MAX_LINE_BYTES + 10, b'x');
        line.extend_from_slice(b"\"}}\nnext\n");
        // The reader hands over the whole line in one piece.
        let mut chunks = reader(line, 64 << 20);
        let chunk = chunks.next_chunk().await.unwrap().unwrap();
        let first = &chunk.lines[0];
        assert!(first.too_long);
        assert_eq!(first.range.len(), PREFIX_BYTES);
        assert!(chunk.bytes.starts_with(br#"{"id":"big""#));
        let second = &chunk.lines[1];
        assert!(!second.too_long);
        assert_eq!(&chunk.bytes[second.range.clone()], b"next\n");
    }
}
