//! The `read` tool of [`Files`](crate::files::Files): reads a UTF-8 text
//! file under a root directory, a window of lines at a time, or an image
//! whole.

mod error;
mod image;
mod window;

pub use error::ReadError;
pub use image::MAX_IMAGE_BYTES;
pub use window::{MAX_BYTES, MAX_LINES};

use crate::sandbox::{Opened, Sandbox};
use serde::Serialize;
use std::io::{self, Read as _};
use std::num::NonZeroU32;
use tool_core::{Content, ToolOutput};
use window::{Request, Window, read_window};

/// What was read: where the shown lines of a text file sit, or which
/// image was sent. Untagged: the JSON is the inner struct's.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ReadDetails {
    /// A text file:
    /// `{"path":"a.txt","firstLine":1,"lastLine":2,"totalLines":2,"truncated":false}`.
    Text(TextDetails),
    /// An image: `{"path":"a.png","mimeType":"image/png","bytes":1234}`.
    Image(ImageDetails),
}

/// Where the shown lines sit in a text file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextDetails {
    /// The file, relative to the root.
    pub path: String,
    /// The first line shown, 1-based (0 for an empty file).
    pub first_line: usize,
    /// The last line shown.
    pub last_line: usize,
    /// Lines in the whole file.
    pub total_lines: usize,
    /// True when the file goes on after what was shown.
    pub truncated: bool,
}

/// The image that was sent.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImageDetails {
    /// The file, relative to the root.
    pub path: String,
    /// Its MIME type, from its first bytes: `image/png`, `image/jpeg`,
    /// `image/gif` or `image/webp`.
    pub mime_type: String,
    /// Its size in bytes.
    pub bytes: u64,
}

/// Reads the file `path` under the sandbox's root, calling `cancelled`
/// before and while reading.
///
/// A text file shows a window of lines: from `offset` (1-based, default 1),
/// at most `limit` lines (default and cap [`MAX_LINES`]) and [`MAX_BYTES`]
/// bytes, with a closing note saying how to read on. A file that starts
/// like a PNG, JPEG, GIF or WebP image (its first bytes decide, not its
/// name) is sent whole as an image, up to [`MAX_IMAGE_BYTES`], after a
/// short text note (`Read image file [image/png]`); offset and limit apply
/// to text only.
///
/// Refused, saying nothing of what lies outside the root: paths that
/// resolve outside it (`..`, absolute paths, symlinks to files or
/// directories outside), NUL bytes in the path, directories, missing
/// files, anything but a regular file (a FIFO or device is not opened),
/// binary files (NUL bytes or invalid UTF-8), images over the cap, and an
/// offset past the end of a text file.
pub fn read_file(
    sandbox: &Sandbox,
    path: &str,
    offset: Option<NonZeroU32>,
    limit: Option<NonZeroU32>,
    cancelled: impl Fn() -> bool,
) -> Result<ToolOutput<ReadDetails>, ReadError> {
    let Opened {
        handle: (file, metadata),
        path: shown_path,
    } = sandbox.open_file(path)?;
    if cancelled() {
        return Err(ReadError::Cancelled);
    }
    let mut file = file.into_std();
    // Only the first bytes decide whether it is an image; text is read
    // from the start, those bytes first.
    let prefix = image::read_prefix(&mut file)?;
    if let Some(mime_type) = image::sniff(&prefix) {
        let bytes = image::read_image(prefix, metadata.len(), file, &cancelled)?;
        return Ok(image_output(shown_path, mime_type, bytes));
    }
    let source = io::Cursor::new(prefix).chain(io::BufReader::new(file));
    let request = Request {
        offset: offset.map_or(1, |offset| offset.get() as usize),
        limit: limit.map_or(MAX_LINES, |limit| limit.get() as usize),
    };
    let window = read_window(source, request, cancelled)?;
    if request.offset > window.total_lines.max(1) {
        return Err(ReadError::OffsetPastEnd {
            offset: request.offset,
            total_lines: window.total_lines,
        });
    }
    Ok(output(shown_path, window))
}

fn output(path: String, window: Window) -> ToolOutput<ReadDetails> {
    let more_after = window.last_line < window.total_lines;
    let mut shown = window.text;
    let note = if window.total_lines == 0 {
        Some("[The file is empty.]".to_owned())
    } else if let Some(cut) = window.cut_line {
        let next = if cut < window.total_lines {
            format!(" Use offset={} to read on.", cut + 1)
        } else {
            String::new()
        };
        Some(format!(
            "[Line {cut} is longer than {} KB and was cut there; the rest of it cannot be shown.{next}]",
            MAX_BYTES / 1024
        ))
    } else if more_after {
        Some(format!(
            "[Showing lines {}-{} of {}. Use offset={} to read on.]",
            window.first_line,
            window.last_line,
            window.total_lines,
            window.last_line + 1
        ))
    } else {
        None
    };
    if let Some(note) = note {
        if !shown.is_empty() {
            shown.push_str("\n\n");
        }
        shown.push_str(&note);
    }
    ToolOutput::new(vec![Content::text(shown)]).with_details(ReadDetails::Text(TextDetails {
        path,
        first_line: window.first_line,
        last_line: window.last_line,
        total_lines: window.total_lines,
        truncated: more_after || window.cut_line.is_some(),
    }))
}

/// A short note, as pi's read tool writes, then the image.
fn image_output(path: String, mime_type: &str, bytes: Vec<u8>) -> ToolOutput<ReadDetails> {
    let details = ImageDetails {
        path,
        mime_type: mime_type.to_owned(),
        bytes: bytes.len() as u64,
    };
    ToolOutput::new(vec![
        Content::text(format!("Read image file [{mime_type}]")),
        tool_core::Content::image(bytes, mime_type),
    ])
    .with_details(ReadDetails::Image(details))
}
