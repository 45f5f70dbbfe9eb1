//! One name in a directory the walk holds: its symlink target read, or the
//! entry itself opened, through the directory's handle.
//!
//! Each open goes through cap-std, which confines it beneath the handle it
//! is called on (`openat2` with `RESOLVE_BENEATH` where Linux has it), and
//! asks for `O_NOFOLLOW`, so the entry itself is opened, never a symlink
//! put in its place. The opened handle is then checked (device and inode)
//! to be the entry that was looked up: if the name changed between the two
//! steps, the caller looks again. `None` means exactly that.

use super::SandboxError;
use cap_std::fs::{Dir, File, Metadata, MetadataExt, OpenOptions, OpenOptionsExt};
use rustix::fs::OFlags;
use rustix::io::Errno;
use std::ffi::OsStr;
use std::io;
use std::path::PathBuf;

/// A directory that is only looked through needs no read permission, as
/// with paths: `O_PATH` where the system has it. Listing one reopens it
/// for reading through its handle (cap-std's `Dir::entries`).
#[cfg(any(target_os = "linux", target_os = "android"))]
const LOOK_THROUGH: OFlags = OFlags::PATH;
#[cfg(not(any(target_os = "linux", target_os = "android")))]
const LOOK_THROUGH: OFlags = OFlags::empty();

/// The target of the symlink `name` in `parent`; `None` if it is no longer
/// a symlink.
pub(super) fn read_link(parent: &Dir, name: &OsStr) -> Result<Option<PathBuf>, SandboxError> {
    match parent.read_link_contents(name) {
        Ok(target) => Ok(Some(target)),
        // Not a symlink (EINVAL) or gone.
        Err(error) if is(&error, &[Errno::INVAL, Errno::NOENT]) => Ok(None),
        Err(error) => Err(error.into()),
    }
}

/// The directory `name` in `parent`, which was `seen`; `None` if it is no
/// longer that directory.
pub(super) fn open_dir(
    parent: &Dir,
    name: &OsStr,
    seen: &Metadata,
) -> Result<Option<Dir>, SandboxError> {
    let Some(opened) = open(parent, name, OFlags::DIRECTORY | LOOK_THROUGH)? else {
        return Ok(None);
    };
    let dir = Dir::from_std_file(opened.into_std());
    let metadata = dir.dir_metadata()?;
    Ok(same(seen, &metadata).then_some(dir))
}

/// The regular file `name` in `parent`, which was `seen`, opened for
/// reading, with its metadata; `None` if it is no longer that file.
///
/// Opened with `O_NONBLOCK` (which regular files ignore), so a FIFO put in
/// its place cannot make the open wait for a writer; `O_NOCTTY`, so a
/// terminal put there is not made the process's own.
pub(super) fn open_file(
    parent: &Dir,
    name: &OsStr,
    seen: &Metadata,
) -> Result<Option<(File, Metadata)>, SandboxError> {
    let Some(file) = open(parent, name, OFlags::NONBLOCK | OFlags::NOCTTY)? else {
        return Ok(None);
    };
    let metadata = file.metadata()?;
    Ok(same(seen, &metadata).then_some((file, metadata)))
}

/// Opens `name` in `parent` for reading, never following a symlink; `None`
/// if what is there now is not what the flags ask for: a symlink (ELOOP),
/// not a directory (ENOTDIR), a socket (ENXIO), or nothing.
fn open(parent: &Dir, name: &OsStr, flags: OFlags) -> Result<Option<File>, SandboxError> {
    let mut options = OpenOptions::new();
    options
        .read(true)
        .custom_flags((OFlags::NOFOLLOW | flags).bits().cast_signed());
    match parent.open_with(name, &options) {
        Ok(file) => Ok(Some(file)),
        Err(error)
            if is(
                &error,
                &[Errno::LOOP, Errno::NOTDIR, Errno::NXIO, Errno::NOENT],
            ) =>
        {
            Ok(None)
        }
        Err(error) => Err(error.into()),
    }
}

/// The same entry: the same inode of the same device.
fn same(seen: &Metadata, opened: &Metadata) -> bool {
    seen.dev() == opened.dev() && seen.ino() == opened.ino()
}

fn is(error: &io::Error, errnos: &[Errno]) -> bool {
    Errno::from_io_error(error).is_some_and(|errno| errnos.contains(&errno))
}
