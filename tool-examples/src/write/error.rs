//! Why a write was refused: the path refusals `read` gives, in the same
//! words, and those only writing has.

use crate::sandbox::SandboxError;
use std::fmt;
use std::io;

/// Why a [write](crate::write::write_file) was refused. Like
/// [`ReadError`](crate::read::ReadError)'s, the messages say nothing of
/// what lies outside the root; the one that names a file
/// ([`NotWritable`](WriteError::NotWritable)) names it as a successful
/// write would, relative to the root.
#[derive(Debug)]
pub enum WriteError {
    /// The path holds a NUL byte.
    NulByte,
    /// The path resolves outside the root.
    OutsideRoot,
    /// The path names a directory.
    IsDirectory,
    /// The path ends with `/`, which names a directory.
    TrailingSlash,
    /// The path names something that is not a regular file (a FIFO, a
    /// socket, a device).
    NotAFile,
    /// The directory that is to hold the file does not exist (or a name on
    /// the way is not a directory).
    NoParentDirectory,
    /// The file exists, and this process may not write it itself
    /// (`faccessat(W_OK, AT_EACCESS)`, checked through the handle of the
    /// directory holding it): replacing it would take only the directory's
    /// write permission, which is not the file's.
    NotWritable {
        /// The file, relative to the root, as the walk resolved it.
        path: String,
    },
    /// The content is over [`MAX_WRITE_BYTES`](crate::write::MAX_WRITE_BYTES).
    TooLarge {
        /// Its size in bytes.
        bytes: usize,
        /// The cap.
        cap: usize,
    },
    /// Symlinks nest too deep (or loop), or a name kept changing between
    /// being looked up and being opened.
    TooManySymlinks,
    /// The caller cancelled the write before the file was replaced.
    Cancelled,
    /// Another I/O failure, by kind only (its text could name paths).
    Io(io::ErrorKind),
}

impl From<SandboxError> for WriteError {
    /// The sandbox's refusal in a writer's words. A write creates a
    /// missing final name, so a name missing (or no directory) is one on
    /// the way: the directory to hold the file is missing.
    fn from(error: SandboxError) -> WriteError {
        match error {
            SandboxError::NulByte => WriteError::NulByte,
            SandboxError::OutsideRoot => WriteError::OutsideRoot,
            SandboxError::NotFound | SandboxError::NotADirectory => WriteError::NoParentDirectory,
            SandboxError::IsDirectory => WriteError::IsDirectory,
            SandboxError::NotAFile => WriteError::NotAFile,
            SandboxError::TrailingSlash => WriteError::TrailingSlash,
            SandboxError::TooManySymlinks => WriteError::TooManySymlinks,
            SandboxError::NotWritable { path } => WriteError::NotWritable { path },
            SandboxError::Cancelled => WriteError::Cancelled,
            SandboxError::Io(kind) => WriteError::Io(kind),
        }
    }
}

impl fmt::Display for WriteError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::NulByte => out.write_str("the path contains a NUL byte"),
            WriteError::OutsideRoot => out.write_str("the path is outside the root directory"),
            WriteError::IsDirectory => out.write_str("the path is a directory, not a file"),
            WriteError::TrailingSlash => {
                out.write_str("the path ends with '/', which names a directory, not a file")
            }
            WriteError::NotAFile => out.write_str("the path is not a regular file"),
            WriteError::NoParentDirectory => out.write_str(
                "the directory to hold the file does not exist (write creates no directories)",
            ),
            WriteError::NotWritable { path } => {
                write!(out, "permission denied: this process may not write {path}")
            }
            WriteError::TooLarge { bytes, cap } => {
                write!(out, "the content is {bytes} bytes, over the {cap}-byte cap")
            }
            WriteError::TooManySymlinks => out.write_str("too many levels of symbolic links"),
            WriteError::Cancelled => out.write_str("cancelled"),
            WriteError::Io(io::ErrorKind::PermissionDenied) => out.write_str("permission denied"),
            WriteError::Io(kind) => write!(out, "could not write the file: {kind}"),
        }
    }
}

impl std::error::Error for WriteError {}
