//! The sandbox of the [`Files`](crate::files::Files) tools: a handle on the
//! root directory, beneath which every file and directory they touch is
//! opened.
//!
//! A requested path is never opened by name. It is walked one name at a
//! time (`walk.rs`): each name is looked up, read (a symlink) or opened
//! through the handle of the directory that holds it (`entry.rs`), and
//! what a tool reads, lists or measures comes from the handles so opened.
//! So whatever another process swaps under the root meanwhile, each handle
//! is an entry of a directory already held, opened as it is at that moment;
//! a swap cannot redirect an open outside the root
//! (`tests/files/sandbox_race.rs`).
//!
//! What the root's tree holds is what the tools show: a hard link inside
//! the root to a file outside it is that file, and a mount point shows what
//! is mounted there; no path resolution can tell them apart. (Writing
//! replaces such a link's name rather than writing through it; a mount
//! point is a directory like any other.)
//!
//! `write` walks the same way to the directory that is to hold the file,
//! then creates or replaces the name through that directory's handle
//! (`replace.rs`): the content goes into a new temporary file there, which
//! is renamed over the name. The rename replaces the directory entry, so a
//! symlink or a hard link put at the name is replaced, never written
//! through; nothing outside the root is ever created, truncated or written
//! (`tests/files/write_tool.rs`, and the write race of `sandbox_race.rs`).
//! Since a rename asks nothing of the file it replaces, an existing file is
//! first checked to be one this process may write itself.
//!
//! What the sandbox refuses, it refuses as a `SandboxError` (`error.rs`),
//! which each tool puts in its own words.

mod entry;
mod error;
mod replace;
mod walk;

use cap_std::fs::{Dir, File, Metadata};
pub(crate) use error::SandboxError;
use replace::Replaced;
use std::convert::Infallible;
use std::io;
use std::path::{Path, PathBuf};
pub(crate) use walk::Held;
use walk::{Found, Last, walk};

/// A handle on the root directory, and its canonical path: the path only
/// decides whether an absolute path (requested, or a symlink's target)
/// names something under the root; everything is opened through the
/// handle.
#[derive(Debug)]
pub struct Sandbox {
    dir: Dir,
    path: PathBuf,
}

/// What a request opened, with its path relative to the root once every
/// symlink is followed (empty for the root itself).
pub(crate) struct Opened<T> {
    pub(crate) handle: T,
    pub(crate) path: String,
}

impl Sandbox {
    /// The sandbox rooted at `root`, which must be an existing directory.
    pub fn open(root: impl AsRef<Path>) -> io::Result<Sandbox> {
        let path = root.as_ref().canonicalize()?;
        let dir = Dir::open_ambient_dir(&path, cap_std::ambient_authority()).map_err(|error| {
            if error.kind() == io::ErrorKind::NotADirectory {
                io::Error::new(
                    io::ErrorKind::NotADirectory,
                    format!("not a directory: {}", path.display()),
                )
            } else {
                error
            }
        })?;
        Ok(Sandbox { dir, path })
    }

    /// The root directory's canonical path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// The regular file `requested` leads to, opened for reading, with its
    /// metadata (the opened file's own).
    pub(crate) fn open_file(
        &self,
        requested: &str,
    ) -> Result<Opened<(File, Metadata)>, SandboxError> {
        let (found, path) = walk(&self.dir, &self.path, requested, |parent, name, seen| {
            match seen {
                None => Err(SandboxError::NotFound),
                // A FIFO, socket or device is refused unopened: opening
                // one can wait, or do something.
                Some(seen) if !seen.is_file() => Err(SandboxError::NotAFile),
                Some(seen) => Ok(match entry::open_file(parent, name, seen)? {
                    Some(opened) => Last::Done(opened),
                    None => Last::Changed,
                }),
            }
        })?;
        match found {
            Found::Other(handle) => Ok(Opened { handle, path }),
            Found::Dir(_) => Err(SandboxError::IsDirectory),
        }
    }

    /// Writes `content` as the file `requested` leads to, creating it or
    /// replacing it whole (`replace.rs`), and answers whether it was
    /// created: nothing was at the name when the walk looked.
    ///
    /// The directory that is to hold it must exist. A final symlink is
    /// followed as [`open_file`](Self::open_file) follows it (one inside
    /// the root to the file it names, created if missing); a directory,
    /// FIFO, socket or device at the name is refused, and so is a file this
    /// process may not write itself, however writable its directory.
    pub(crate) fn replace_file(
        &self,
        requested: &str,
        content: &[u8],
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Opened<bool>, SandboxError> {
        // The walk drops a final `/` (and `/.`); a file has no such name.
        let trailing_slash = requested.ends_with('/') || requested.ends_with("/.");
        let (found, path) = walk(&self.dir, &self.path, requested, |parent, name, seen| {
            match seen {
                _ if trailing_slash => Err(SandboxError::TrailingSlash),
                // Directories never get here: the walk descends into them.
                Some(seen) if !seen.is_file() => Err(SandboxError::NotAFile),
                seen => Ok(
                    match replace::replace(parent, name, seen, content, cancelled)? {
                        Some(replaced) => Last::Done(replaced),
                        None => Last::Changed,
                    },
                ),
            }
        })?;
        match found {
            Found::Other(Replaced::Written { created }) => Ok(Opened {
                handle: created,
                path,
            }),
            // Named as a successful write would name it.
            Found::Other(Replaced::NotWritable) => Err(SandboxError::NotWritable { path }),
            Found::Dir(_) => Err(SandboxError::IsDirectory),
        }
    }

    /// The directory `requested` leads to.
    pub(crate) fn open_dir(&self, requested: &str) -> Result<Opened<Held<'_>>, SandboxError> {
        let (found, path) = walk(&self.dir, &self.path, requested, |_, _, seen| {
            Err::<Last<Infallible>, _>(match seen {
                None => SandboxError::NotFound,
                Some(_) => SandboxError::NotADirectory,
            })
        })?;
        match found {
            Found::Dir(handle) => Ok(Opened { handle, path }),
            Found::Other(never) => match never {},
        }
    }
}
