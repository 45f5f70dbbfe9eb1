//! Why the sandbox refused a path, or could not open or replace what it
//! leads to.
//!
//! The sandbox words none of these for the model: `read`, `list` and
//! `write` each map them into their own errors, since one refusal reads
//! differently to each (a missing name on the way is a missing file to
//! `read`, a missing directory to `list`, a missing parent directory to
//! `write`). So the sandbox depends on none of the tools built on it.

use std::io;

/// Why a walk beneath the root, or what it opened or replaced there,
/// failed. Like the tools' errors, none of it tells what lies outside the
/// root: a path leading outside is refused before anything outside is
/// looked at, and other I/O failures keep their kind only.
#[derive(Debug)]
pub(crate) enum SandboxError {
    /// The path holds a NUL byte, which no name on disk can.
    NulByte,
    /// The path, or a symlink on the way, leads outside the root.
    OutsideRoot,
    /// Nothing is at the path, or a name on the way is not a directory.
    NotFound,
    /// A file was asked for, and the path leads to a directory (or, for a
    /// write, one was put at the name before the rename).
    IsDirectory,
    /// A file was asked for, and the path leads to a FIFO, socket or
    /// device: refused unopened, since opening one can wait, or do
    /// something.
    NotAFile,
    /// A directory was asked for, and the path leads to something else.
    NotADirectory,
    /// A file is to be written at a path ending in `/` (or `/.`), which
    /// the walk drops, and which no file's name has.
    TrailingSlash,
    /// Symlinks nest too deep (or loop), or a name kept changing between
    /// being looked up and being opened.
    TooManySymlinks,
    /// The file to be replaced is one this process may not write itself;
    /// a rename would replace it on the directory's write permission alone.
    NotWritable {
        /// The file, relative to the root, as the walk resolved it.
        path: String,
    },
    /// The caller cancelled a write before the file was replaced.
    Cancelled,
    /// Another I/O failure, by kind only (its text could name paths).
    Io(io::ErrorKind),
}

impl From<io::Error> for SandboxError {
    fn from(error: io::Error) -> SandboxError {
        SandboxError::Io(error.kind())
    }
}
