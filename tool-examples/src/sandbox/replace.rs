//! Writes a file into a directory the walk holds: the content goes into a
//! new temporary file beside the name, which is then renamed over the
//! name, each step through the directory's handle.
//!
//! Why nothing outside the root is created, truncated or written, whatever
//! another process swaps meanwhile:
//!
//! - The held directory is inside the root (`walk.rs`), whatever its name
//!   is by now; every call here names one entry of it, never a path.
//! - The temporary file is created `O_CREAT | O_EXCL | O_NOFOLLOW` under a
//!   random name: a new inode in that directory, never an existing file
//!   or a symlink's target. The content goes through its handle.
//! - `renameat` replaces the name's directory entry. It never follows a
//!   symlink at the destination (the link itself is replaced), and a hard
//!   link to a file outside the root is an entry like any other: it now
//!   names the new file, and the file it shared is left as it was.
//! - A guard removes the temporary file on every way out but the rename
//!   (errors, cancellation, a panic).
//!
//! A rename needs write permission on the directory only, never on the
//! file it replaces: in a directory anyone may write (`0777`), it replaces
//! another user's file, root's included. So an existing file is replaced
//! only if this process could write it itself: `faccessat(W_OK)` with
//! `AT_EACCESS`, asked of the same directory handle the rename then uses,
//! by the name alone, without following a symlink there.
//!
//! The rename also makes the write whole: a reader sees the old content or
//! the new, never a part; the content is flushed to disk before the rename,
//! so a crash leaves one or the other too.

use super::SandboxError;
use cap_std::fs::{Dir, Metadata, MetadataExt, OpenOptions, OpenOptionsExt};
use rustix::fs::{Access, AtFlags, OFlags, accessat, renameat, unlinkat};
use rustix::io::Errno;
use std::ffi::OsStr;
use std::fs::Permissions;
use std::hash::{BuildHasher, RandomState};
use std::io::{self, Write as _};
use std::os::unix::fs::PermissionsExt as _;

/// Bytes written between two checks of the caller's signal.
const CHUNK: usize = 64 * 1024;

/// Random names tried for the temporary file. With 64 random bits a
/// clash is a matter of someone creating such names there on purpose;
/// `O_EXCL` makes a clash harmless, this makes it end.
const NAME_TRIES: usize = 8;

/// How a [`replace`] that met no error ended.
pub(super) enum Replaced {
    /// The name now holds the content; `created`: the walk saw nothing
    /// there.
    Written {
        /// Nothing was at the name.
        created: bool,
    },
    /// Nothing was written: the file at the name is one this process may
    /// not write itself ([`may_write`]).
    NotWritable,
}

/// Writes `content` as the file `name` of `parent`, where the walk saw
/// `existing` (`None`: nothing). `cancelled` is checked before anything is
/// created, between chunks, and last just before the rename: a write
/// cancelled by then leaves the name as it was, and no temporary file.
/// `None`: the file the walk saw is no longer at the name, and nothing was
/// created; the walk looks again.
///
/// An existing file is replaced only if this process may write it itself
/// ([`may_write`]), and keeps its permission bits (read, write, execute;
/// the set-user-ID and set-group-ID bits are dropped, as the kernel drops
/// them when a file is written). A new file gets `0o666` less the
/// process's umask, as any program's. The file is a new inode either way:
/// it belongs to the user the process runs as.
pub(super) fn replace(
    parent: &Dir,
    name: &OsStr,
    existing: Option<&Metadata>,
    content: &[u8],
    cancelled: &dyn Fn() -> bool,
) -> Result<Option<Replaced>, SandboxError> {
    let keep = match existing {
        Some(existing) => match may_write(parent, name)? {
            None => return Ok(None),
            Some(false) => return Ok(Some(Replaced::NotWritable)),
            Some(true) => Some(existing.mode() & 0o777),
        },
        None => None,
    };
    if cancelled() {
        return Err(SandboxError::Cancelled);
    }
    // Private until its permissions are set, when it replaces a file.
    let mut temp = Temp::create(parent, if keep.is_some() { 0o600 } else { 0o666 })?;
    for chunk in content.chunks(CHUNK) {
        if cancelled() {
            return Err(SandboxError::Cancelled);
        }
        temp.file.write_all(chunk)?;
    }
    if let Some(mode) = keep {
        temp.file.set_permissions(Permissions::from_mode(mode))?;
    }
    temp.file.sync_all()?;
    if cancelled() {
        return Err(SandboxError::Cancelled);
    }
    renameat(parent, &temp.name, parent, name).map_err(|errno| match errno {
        // A directory put at the name since it was looked up.
        Errno::ISDIR => SandboxError::IsDirectory,
        other => io::Error::from(other).into(),
    })?;
    temp.renamed = true;
    Ok(Some(Replaced::Written {
        created: existing.is_none(),
    }))
}

/// Whether this process may write the file `name` of `parent` itself, as
/// an open for writing would find: `faccessat(W_OK)` with `AT_EACCESS`
/// (the effective user and groups, those its opens use, not the real
/// ones; root may write any file, as its opens may), asked through
/// `parent`'s handle, the one the rename uses, never by a path from the
/// root. `AT_SYMLINK_NOFOLLOW`: a symlink put at the name since the walk
/// looked is asked about itself, never followed (the rename replaces the
/// link, not what it names). `None`: nothing is at the name any more.
///
/// Linux asks it of `faccessat2` (5.8 and later); where that is missing,
/// the answer is an error, and nothing is replaced.
fn may_write(parent: &Dir, name: &OsStr) -> Result<Option<bool>, SandboxError> {
    let flags = AtFlags::EACCESS | AtFlags::SYMLINK_NOFOLLOW;
    match accessat(parent, name, Access::WRITE_OK, flags) {
        Ok(()) => Ok(Some(true)),
        Err(Errno::ACCESS | Errno::PERM) => Ok(Some(false)),
        Err(Errno::NOENT) => Ok(None),
        Err(other) => Err(io::Error::from(other).into()),
    }
}

/// The temporary file, removed when dropped unless it was renamed.
struct Temp<'d> {
    dir: &'d Dir,
    name: String,
    file: std::fs::File,
    renamed: bool,
}

impl<'d> Temp<'d> {
    /// A new, empty file in `dir` under a random name, with `mode` (less
    /// the umask).
    fn create(dir: &'d Dir, mode: u32) -> Result<Temp<'d>, SandboxError> {
        let mut options = OpenOptions::new();
        options
            .write(true)
            .create_new(true)
            .mode(mode)
            .custom_flags(OFlags::NOFOLLOW.bits().cast_signed());
        for _ in 0..NAME_TRIES {
            let name = temp_name();
            match dir.open_with(&name, &options) {
                Ok(file) => {
                    return Ok(Temp {
                        dir,
                        name,
                        file: file.into_std(),
                        renamed: false,
                    });
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => {}
                Err(error) => return Err(error.into()),
            }
        }
        Err(SandboxError::Io(io::ErrorKind::AlreadyExists))
    }
}

impl Drop for Temp<'_> {
    fn drop(&mut self) {
        if self.renamed {
            return;
        }
        if let Err(errno) = unlinkat(self.dir, &self.name, AtFlags::empty()) {
            tracing::warn!(
                name = %self.name,
                error = %errno,
                "a write's temporary file could not be removed"
            );
        }
    }
}

/// `.write-` and 16 random hex digits. std's `RandomState` draws its keys
/// from the system's random source (once per thread, then steps them for
/// each new state), so the name is one no other process can guess, with no
/// dependency for it.
fn temp_name() -> String {
    let random = RandomState::new().hash_one(std::process::id());
    format!(".write-{random:016x}.tmp")
}
