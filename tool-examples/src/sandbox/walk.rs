//! Walks a requested path beneath the root's handle, one name at a time,
//! holding a handle on each directory it descends into.
//!
//! `..` goes back to the handle held for the parent, never through the
//! file system, so the walk cannot climb above the root's handle however
//! the tree changes meanwhile. A symlink's target is walked the same way,
//! from the directory holding the link (or from the root, for an absolute
//! target that names something under the root's path). The answer for a
//! path that leads outside is decided before anything outside is looked
//! at, so it never tells whether that thing exists.
//!
//! Symlinks are followed here rather than by the kernel for two things
//! `openat2(RESOLVE_BENEATH)` alone cannot give: a symlink whose absolute
//! target names something under the root keeps working (the kernel
//! refuses every absolute symlink), and the answer names the path the
//! request led to. Every single step still goes through the kernel beneath
//! a handle (`entry.rs`).

use super::{SandboxError, entry};
use cap_std::fs::{Dir, Metadata};
use std::collections::VecDeque;
use std::ffi::{OsStr, OsString};
use std::io;
use std::ops::Deref;
use std::path::{Component, Path, PathBuf};

/// Symlinks followed, and names looked up again because they changed
/// between two steps, for one path before giving up (Linux's ELOOP limit).
const MAX_STEPS: usize = 40;

/// A directory handle the walk holds: the root's own, or one it opened.
#[derive(Debug)]
pub(crate) enum Held<'r> {
    /// The root's handle, for a path that ends at the root.
    Root(&'r Dir),
    /// A directory beneath it.
    Opened(Dir),
}

impl Deref for Held<'_> {
    type Target = Dir;

    fn deref(&self) -> &Dir {
        match self {
            Held::Root(dir) => dir,
            Held::Opened(dir) => dir,
        }
    }
}

/// Where a walk ended.
pub(super) enum Found<'r, T> {
    /// At a directory (the root itself for an empty path, `.` or `a/..`).
    Dir(Held<'r>),
    /// At what the caller's `last` made of a final name that is not a
    /// directory.
    Other(T),
}

/// What the caller's `last` answers for a final name that is not a
/// directory.
pub(super) enum Last<T> {
    /// The walk's result.
    Done(T),
    /// The name changed since it was looked up: look again.
    Changed,
}

/// Walks `requested` from `root` (whose canonical path is `root_path`),
/// returning where it ended and that place's path relative to the root.
///
/// A final name that is not a directory (or is missing: `None`) is handed
/// to `last` with the directory that holds it and its metadata as looked
/// up; the caller opens (or refuses) it there.
pub(super) fn walk<'r, T>(
    root: &'r Dir,
    root_path: &Path,
    requested: &str,
    mut last: impl FnMut(&Dir, &OsStr, Option<&Metadata>) -> Result<Last<T>, SandboxError>,
) -> Result<(Found<'r, T>, String), SandboxError> {
    if requested.contains('\0') {
        return Err(SandboxError::NulByte);
    }
    let requested = Path::new(requested);
    let mut pending = VecDeque::new();
    if requested.is_absolute() {
        let inside = lexically_inside(root_path, requested).ok_or(SandboxError::OutsideRoot)?;
        queue(&mut pending, &inside, false);
    } else {
        queue(&mut pending, requested, false);
    }
    // The directories descended into, each with its name; the last holds
    // the next name.
    let mut dirs: Vec<(Dir, OsString)> = Vec::new();
    let mut steps = 0;
    let mut step = || {
        steps += 1;
        if steps > MAX_STEPS {
            Err(SandboxError::TooManySymlinks)
        } else {
            Ok(())
        }
    };

    while let Some(name) = pending.pop_front() {
        if name == ".." {
            // Back to the handle held for the parent; none above the root.
            dirs.pop().ok_or(SandboxError::OutsideRoot)?;
            continue;
        }
        let parent = dirs.last().map_or(root, |(dir, _)| dir);
        let metadata = match parent.symlink_metadata(&name) {
            Ok(metadata) => Some(metadata),
            Err(error) if error.kind() == io::ErrorKind::NotFound => None,
            Err(error) => return Err(error.into()),
        };
        match &metadata {
            Some(seen) if seen.file_type().is_symlink() => {
                step()?;
                match entry::read_link(parent, &name)? {
                    Some(target) if target.is_absolute() => {
                        let inside = lexically_inside(root_path, &target)
                            .ok_or(SandboxError::OutsideRoot)?;
                        dirs.clear();
                        queue(&mut pending, &inside, true);
                    }
                    // Relative to the directory holding the link.
                    Some(target) => queue(&mut pending, &target, true),
                    None => pending.push_front(name),
                }
            }
            Some(seen) if seen.is_dir() => match entry::open_dir(parent, &name, seen)? {
                Some(dir) => dirs.push((dir, name)),
                None => {
                    step()?;
                    pending.push_front(name);
                }
            },
            // A file, or nothing, used as a directory.
            _ if !pending.is_empty() => return Err(SandboxError::NotFound),
            seen => match last(parent, &name, seen.as_ref())? {
                Last::Done(done) => return Ok((Found::Other(done), shown(&dirs, Some(&name)))),
                Last::Changed => {
                    step()?;
                    pending.push_front(name);
                }
            },
        }
    }
    let path = shown(&dirs, None);
    let dir = dirs
        .pop()
        .map_or(Held::Root(root), |(dir, _)| Held::Opened(dir));
    Ok((Found::Dir(dir), path))
}

/// Queues the names of `path` (`..` included, `.` and a root left out): at
/// the back, or (a symlink's target, walked before the rest) at the front.
fn queue(pending: &mut VecDeque<OsString>, path: &Path, front: bool) {
    let names = path.components().filter_map(|component| match component {
        Component::Normal(name) => Some(name.to_owned()),
        Component::ParentDir => Some(OsString::from("..")),
        Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
    });
    if front {
        let names: Vec<_> = names.collect();
        for name in names.into_iter().rev() {
            pending.push_front(name);
        }
    } else {
        pending.extend(names);
    }
}

/// For an absolute path, its part below `root` once `.` and `..` are
/// applied as text, or `None` if that leaves the root. What it names is
/// then walked from the root's handle like any relative path.
fn lexically_inside(root: &Path, absolute: &Path) -> Option<PathBuf> {
    let mut normal = PathBuf::new();
    for component in absolute.components() {
        match component {
            Component::ParentDir => {
                normal.pop();
            }
            Component::CurDir => {}
            other => normal.push(other.as_os_str()),
        }
    }
    normal.strip_prefix(root).ok().map(Path::to_path_buf)
}

/// The path walked so far, relative to the root: the directories held,
/// then `name`.
fn shown(dirs: &[(Dir, OsString)], name: Option<&OsStr>) -> String {
    let path: PathBuf = dirs
        .iter()
        .map(|(_, name)| name.as_os_str())
        .chain(name)
        .collect();
    path.to_string_lossy().into_owned()
}
