//! The `write` tool of [`Files`](crate::files::Files): creates a UTF-8 text
//! file under the root directory, or replaces one's whole content, with the
//! same sandbox as `read` and `list`.

mod error;

pub use error::WriteError;

use crate::sandbox::{Opened, Sandbox};
use serde::Serialize;
use tool_core::{Content, ToolOutput};

/// The most bytes one write takes: 1 MiB.
///
/// A model writes the content token by token in one response, and one
/// response is at most 128K tokens on current Claude models
/// (<https://platform.claude.com/docs/en/models/opus-5/overview>, "Max
/// output: 128K tokens"; 300K only through the Batch API's beta, not an
/// agent's loop), about 512 KB of text at 4 bytes a token: the cap is twice
/// that, so no file a model writes in one response is refused, while one call
/// cannot make the tool hold or put on disk more than this. It also stays
/// well under what the binary's transports take whole (a 4 MiB HTTP body,
/// a 16 MiB `call` line), escaped JSON included.
pub const MAX_WRITE_BYTES: usize = 1024 * 1024;

/// What was written: `{"path":"notes/a.txt","bytes":12,"created":true}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WriteDetails {
    /// The file, relative to the root, as the walk resolved it (a symlink
    /// followed to the file it names), as `read` names it.
    pub path: String,
    /// The content's size in bytes.
    pub bytes: u64,
    /// True when nothing was at the name before: the file was created, not
    /// replaced.
    pub created: bool,
}

/// Writes `content` as the file `path` under the sandbox's root: creates
/// it, or replaces its whole content, calling `cancelled` before and while
/// writing and last just before the file is replaced.
///
/// The content goes into a new temporary file in the directory that is to
/// hold the file, which is then renamed over the name; a cancelled or
/// failed write leaves the old file as it was and no temporary file. An
/// existing file keeps its permissions. The answer is one line for the
/// model, `created notes/a.txt (12 bytes)` or `wrote 12 bytes to
/// notes/a.txt`, and [`WriteDetails`].
///
/// Refused, saying nothing of what lies outside the root: content over
/// [`MAX_WRITE_BYTES`]; paths that resolve outside the root (`..`,
/// absolute paths, symlinks to files or directories outside, dangling ones
/// included), NUL bytes in the path, a path ending in `/`; a directory,
/// FIFO, socket or device at the path; a directory to hold the file that
/// does not exist (none is created); an existing file this process may
/// not write itself (`permission denied: this process may not write
/// notes/a.txt`), even in a directory it may write.
///
/// ```
/// use tool_examples::sandbox::Sandbox;
/// use tool_examples::write::write_file;
///
/// let dir = tempfile::tempdir().unwrap();
/// let sandbox = Sandbox::open(dir.path()).unwrap();
/// let created = write_file(&sandbox, "a.txt", "hello\n", || false).unwrap();
/// assert_eq!(created.content[0].as_text(), Some("created a.txt (6 bytes)"));
/// let replaced = write_file(&sandbox, "a.txt", "bye\n", || false).unwrap();
/// assert_eq!(replaced.content[0].as_text(), Some("wrote 4 bytes to a.txt"));
/// assert_eq!(std::fs::read_to_string(dir.path().join("a.txt")).unwrap(), "bye\n");
/// ```
pub fn write_file(
    sandbox: &Sandbox,
    path: &str,
    content: &str,
    cancelled: impl Fn() -> bool,
) -> Result<ToolOutput<WriteDetails>, WriteError> {
    if content.len() > MAX_WRITE_BYTES {
        return Err(WriteError::TooLarge {
            bytes: content.len(),
            cap: MAX_WRITE_BYTES,
        });
    }
    let Opened {
        handle: created,
        path,
    } = sandbox.replace_file(path, content.as_bytes(), &cancelled)?;
    let bytes = content.len();
    let size = format!("{bytes} byte{}", if bytes == 1 { "" } else { "s" });
    let text = if created {
        format!("created {path} ({size})")
    } else {
        format!("wrote {size} to {path}")
    };
    Ok(
        ToolOutput::new(vec![Content::text(text)]).with_details(WriteDetails {
            path,
            bytes: bytes as u64,
            created,
        }),
    )
}
