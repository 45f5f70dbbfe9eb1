//! The `list` tool of [`Files`](crate::files::Files): the entries of a
//! directory under the root, with the same sandbox as `read` (a path that
//! leads outside the root is refused before anything outside is looked at).
//! The directory is enumerated, and its entries measured, through its
//! opened handle.

use crate::read::ReadError;
use crate::sandbox::{Opened, Sandbox, SandboxError};
use std::collections::BinaryHeap;
use std::ffi::OsString;
use std::io;
use tool_core::ToolParams;

/// At most this many entries are listed; past it the listing says
/// `truncated`.
pub const MAX_ENTRIES: usize = 1000;

/// A directory's entries.
#[derive(ToolParams, Debug, Clone, PartialEq, Eq)]
pub struct Listing {
    /// The directory, relative to the root ("." for the root itself)
    pub path: String,
    /// Its entries, sorted by name in byte order (at most 1000)
    pub entries: Vec<Entry>,
    /// True when the directory holds more entries than are listed
    pub truncated: bool,
}

/// One entry of a directory.
#[derive(ToolParams, Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// Its name (a name that is not UTF-8 is shown with U+FFFD in place of
    /// what is not)
    pub name: String,
    /// What it is; a symlink is not followed
    pub kind: EntryKind,
    /// Its size in bytes for a file, else 0
    pub size: u64,
}

/// What a directory entry is.
#[derive(ToolParams, Debug, Clone, Copy, PartialEq, Eq)]
#[param(rename_all = "snake_case")]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link, wherever it points (it is not followed, so nothing
    /// outside the root is revealed).
    Symlink,
    /// Anything else: a FIFO, a socket, a device.
    Other,
}

/// Lists the directory `path` (the root when `None`) under the sandbox's
/// root.
///
/// The entries are sorted by name (byte order: `Z` before `a`), at most
/// [`MAX_ENTRIES`] of them (the first by name; memory stays bounded however
/// large the directory); `cancelled` is called between entries. Refused as
/// [`read_file`](crate::read::read_file) refuses paths (outside the root,
/// NUL bytes, symlink loops), plus a missing directory and a path that is
/// not a directory.
pub fn list_dir(
    sandbox: &Sandbox,
    path: Option<&str>,
    cancelled: impl Fn() -> bool,
) -> Result<Listing, ReadError> {
    let Opened {
        handle: dir,
        path: shown_path,
    } = sandbox
        .open_dir(path.unwrap_or("."))
        .map_err(|error| match error {
            SandboxError::NotFound => ReadError::NoSuchDirectory,
            other => ReadError::from(other),
        })?;
    let shown_path = if shown_path.is_empty() {
        ".".to_owned()
    } else {
        shown_path
    };

    // The first MAX_ENTRIES names in order, kept in a max-heap whose top is
    // the one to drop next.
    let mut first: BinaryHeap<(String, OsString)> = BinaryHeap::with_capacity(MAX_ENTRIES + 1);
    let mut total = 0usize;
    for entry in dir.entries().map_err(io_error)? {
        if cancelled() {
            return Err(ReadError::Cancelled);
        }
        let name = entry.map_err(io_error)?.file_name();
        total += 1;
        first.push((name.to_string_lossy().into_owned(), name));
        if first.len() > MAX_ENTRIES {
            first.pop();
        }
    }

    let mut entries = Vec::with_capacity(first.len());
    for (name, raw_name) in first.into_sorted_vec() {
        if cancelled() {
            return Err(ReadError::Cancelled);
        }
        // Not followed: a symlink's own metadata, through the directory's
        // handle.
        let metadata = match dir.symlink_metadata(&raw_name) {
            Ok(metadata) => metadata,
            // Removed since the directory was read.
            Err(error) if error.kind() == io::ErrorKind::NotFound => continue,
            Err(error) => return Err(io_error(error)),
        };
        let file_type = metadata.file_type();
        let (kind, size) = if file_type.is_symlink() {
            (EntryKind::Symlink, 0)
        } else if file_type.is_dir() {
            (EntryKind::Directory, 0)
        } else if file_type.is_file() {
            (EntryKind::File, metadata.len())
        } else {
            (EntryKind::Other, 0)
        };
        entries.push(Entry { name, kind, size });
    }
    Ok(Listing {
        path: shown_path,
        entries,
        truncated: total > MAX_ENTRIES,
    })
}

fn io_error(error: io::Error) -> ReadError {
    ReadError::Io(error.kind())
}
