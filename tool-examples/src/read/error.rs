//! Why a read or a listing was refused: the sandbox's refusals in a
//! reader's words, and those about a file's content.

use crate::sandbox::SandboxError;
use std::fmt;
use std::io;

/// Why a read (or a [listing](crate::list)) was refused. The messages name
/// the request, never what the path resolved to.
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
    /// Nothing is at the path to be listed.
    NoSuchDirectory,
    /// The path to be listed is not a directory.
    NotADirectory,
    /// The file holds NUL bytes or invalid UTF-8.
    Binary(&'static str),
    /// The file is an image over [`MAX_IMAGE_BYTES`](super::MAX_IMAGE_BYTES).
    ImageTooLarge {
        /// Its size.
        bytes: u64,
        /// The cap.
        cap: u64,
    },
    /// The offset is past the file's last line.
    OffsetPastEnd {
        /// The requested first line.
        offset: usize,
        /// Lines in the file.
        total_lines: usize,
    },
    /// Symlinks nest too deep (or loop), or a name kept changing between
    /// being looked up and being opened.
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
            ReadError::NoSuchDirectory => out.write_str("no such directory"),
            ReadError::NotADirectory => out.write_str("the path is not a directory"),
            ReadError::Binary(why) => write!(out, "not a text file: {why}"),
            ReadError::ImageTooLarge { bytes, cap } => {
                write!(out, "the image is {bytes} bytes, over the {cap}-byte cap")
            }
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

impl From<SandboxError> for ReadError {
    /// A missing name on the way is a missing file; [`list`](crate::list)
    /// words it as a missing directory itself.
    fn from(error: SandboxError) -> ReadError {
        match error {
            SandboxError::NulByte => ReadError::NulByte,
            SandboxError::OutsideRoot => ReadError::OutsideRoot,
            SandboxError::NotFound => ReadError::NotFound,
            SandboxError::IsDirectory => ReadError::IsDirectory,
            SandboxError::NotAFile => ReadError::NotAFile,
            SandboxError::NotADirectory => ReadError::NotADirectory,
            SandboxError::TooManySymlinks => ReadError::TooManySymlinks,
            SandboxError::Cancelled => ReadError::Cancelled,
            SandboxError::Io(kind) => ReadError::Io(kind),
            // Only a write meets these; were a read to, this is what they
            // would mean to it.
            SandboxError::TrailingSlash => ReadError::NotAFile,
            SandboxError::NotWritable { .. } => ReadError::Io(io::ErrorKind::PermissionDenied),
        }
    }
}
