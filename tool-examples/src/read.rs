//! `read`: reads a UTF-8 text file under a root directory, a window of
//! lines at a time. A tool with state (its root), so a struct implementing
//! `Tool` by hand.

mod sandbox;
mod window;

pub use window::{MAX_BYTES, MAX_LINES};

use serde::Serialize;
use std::fmt;
use std::io;
use std::num::NonZeroU32;
use std::path::{Path, PathBuf};
use tool_core::{Tool, ToolContext, ToolError, ToolOutput, ToolParams, text};
use window::{Request, Window, read_window};

/// Which file to read, and which of its lines.
#[derive(ToolParams, Debug, Clone, PartialEq, Eq)]
pub struct ReadParams {
    /// Path of the file to read, relative to the root directory
    pub path: String,
    /// The first line to read, counting from 1 (default: 1)
    pub offset: Option<NonZeroU32>,
    /// The most lines to read (default and cap: 2000)
    pub limit: Option<NonZeroU32>,
}

/// Where the shown lines sit in the file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ReadDetails {
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

/// Reads text files under one root directory, never outside it.
///
/// Refused, as a paired error that says nothing of what lies outside the
/// root: paths that resolve outside it (`..`, absolute paths, symlinks to
/// files or directories outside), NUL bytes in the path, directories,
/// missing files, binary files (NUL bytes or invalid UTF-8), and an offset
/// past the end. At most [`MAX_LINES`] lines or [`MAX_BYTES`] bytes are shown
/// at once, with a closing note saying how to read on.
#[derive(Clone, Debug)]
pub struct ReadTool {
    root: PathBuf,
}

impl ReadTool {
    /// A `read` tool rooted at `root`, which must be an existing directory.
    pub fn new(root: impl AsRef<Path>) -> io::Result<Self> {
        let root = root.as_ref().canonicalize()?;
        if !root.is_dir() {
            return Err(io::Error::new(
                io::ErrorKind::NotADirectory,
                format!("not a directory: {}", root.display()),
            ));
        }
        Ok(ReadTool { root })
    }

    /// The root directory, canonical.
    pub fn root(&self) -> &Path {
        &self.root
    }
}

impl Tool for ReadTool {
    type Params = ReadParams;
    type Details = ReadDetails;

    fn name(&self) -> &str {
        "read"
    }

    fn description(&self) -> &str {
        "Read a UTF-8 text file under the root directory. Shows at most 2000 lines or 50 KB at a time; use offset and limit to read on."
    }

    async fn execute(
        &self,
        params: ReadParams,
        ctx: ToolContext,
    ) -> Result<ToolOutput<ReadDetails>, ToolError> {
        let root = self.root.clone();
        let signal = ctx.signal.clone();
        // File system work blocks; it runs on a blocking thread and watches
        // the signal between chunks, so a cancelled read of a huge file stops.
        let read = tokio::task::spawn_blocking(move || {
            let cancelled = || signal.as_ref().is_some_and(|s| s.is_cancelled());
            read_file(&root, &params, cancelled)
        })
        .await
        .map_err(|error| ToolError::from(format!("the read was interrupted: {error}")))?;
        Ok(read?)
    }
}

fn read_file(
    root: &Path,
    params: &ReadParams,
    cancelled: impl Fn() -> bool,
) -> Result<ToolOutput<ReadDetails>, ReadError> {
    let resolved = sandbox::resolve(root, &params.path)?;
    let shown_path = resolved
        .strip_prefix(root)
        .unwrap_or(Path::new(""))
        .to_string_lossy()
        .into_owned();
    let metadata = std::fs::metadata(&resolved).map_err(|error| ReadError::Io(error.kind()))?;
    if metadata.is_dir() {
        return Err(ReadError::IsDirectory);
    }
    if !metadata.is_file() {
        return Err(ReadError::NotAFile);
    }
    let file = std::fs::File::open(&resolved).map_err(|error| ReadError::Io(error.kind()))?;
    let request = Request {
        offset: params.offset.map_or(1, |offset| offset.get() as usize),
        limit: params.limit.map_or(MAX_LINES, |limit| limit.get() as usize),
    };
    let window = read_window(io::BufReader::new(file), request, cancelled)?;
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
    ToolOutput::new(vec![text(shown)]).with_details(ReadDetails {
        path,
        first_line: window.first_line,
        last_line: window.last_line,
        total_lines: window.total_lines,
        truncated: more_after || window.cut_line.is_some(),
    })
}

/// Why a read was refused. The messages name the request, never what the
/// path resolved to.
#[derive(Debug)]
pub enum ReadError {
    /// The path holds a NUL byte.
    NulByte,
    /// The path resolves outside the root.
    OutsideRoot,
    /// Nothing is at the path.
    NotFound,
    /// The path names a directory.
    IsDirectory,
    /// The path names something that is not a regular file.
    NotAFile,
    /// The file holds NUL bytes or invalid UTF-8.
    Binary(&'static str),
    /// The offset is past the file's last line.
    OffsetPastEnd {
        /// The requested first line.
        offset: usize,
        /// Lines in the file.
        total_lines: usize,
    },
    /// Symlinks nest too deep (or loop).
    TooManySymlinks,
    /// The caller cancelled the read.
    Cancelled,
    /// Another I/O failure, by kind only (its text could name paths).
    Io(io::ErrorKind),
}

impl fmt::Display for ReadError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NulByte => out.write_str("the path contains a NUL byte"),
            ReadError::OutsideRoot => out.write_str("the path is outside the root directory"),
            ReadError::NotFound => out.write_str("no such file"),
            ReadError::IsDirectory => out.write_str("the path is a directory, not a file"),
            ReadError::NotAFile => out.write_str("the path is not a regular file"),
            ReadError::Binary(why) => write!(out, "not a text file: {why}"),
            ReadError::OffsetPastEnd {
                offset,
                total_lines,
            } => write!(
                out,
                "offset {offset} is past the end of the file, which has {total_lines} line{}",
                if *total_lines == 1 { "" } else { "s" }
            ),
            ReadError::TooManySymlinks => out.write_str("too many levels of symbolic links"),
            ReadError::Cancelled => out.write_str("cancelled"),
            ReadError::Io(io::ErrorKind::PermissionDenied) => out.write_str("permission denied"),
            ReadError::Io(kind) => write!(out, "could not read the file: {kind}"),
        }
    }
}

impl std::error::Error for ReadError {}
