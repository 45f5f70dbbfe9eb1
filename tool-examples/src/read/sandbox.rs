//! Resolves a requested path inside a root directory, one component at a
//! time, following symlinks by hand. Every step stays inside the root, so a
//! path that leads outside is refused before anything outside is looked at:
//! the answer never tells whether a file outside the root exists.

use super::ReadError;
use std::collections::VecDeque;
use std::ffi::OsString;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Symlinks followed for one path before giving up (as Linux's ELOOP).
const MAX_SYMLINKS: usize = 40;

/// The real path of `requested` under `root` (which is canonical), with no
/// symlink left in it.
pub(crate) fn resolve(root: &Path, requested: &str) -> Result<PathBuf, ReadError> {
    if requested.contains('\0') {
        return Err(ReadError::NulByte);
    }
    let requested = Path::new(requested);
    let mut pending: VecDeque<OsString> = VecDeque::new();
    if requested.is_absolute() {
        // An absolute path is fine only if it names something in the root.
        let inside = lexically_inside(root, requested).ok_or(ReadError::OutsideRoot)?;
        push_components(&mut pending, &inside, false);
    } else {
        push_components(&mut pending, requested, false);
    }

    let mut current = root.to_path_buf();
    let mut symlinks = 0;
    while let Some(part) = pending.pop_front() {
        if part == ".." {
            // `current` is a real directory inside the root; its parent is
            // only inside the root if it is not the root itself.
            if current == root {
                return Err(ReadError::OutsideRoot);
            }
            current.pop();
            continue;
        }
        let next = current.join(&part);
        let metadata = match std::fs::symlink_metadata(&next) {
            Ok(metadata) => metadata,
            Err(error) if error.kind() == io::ErrorKind::NotFound => {
                return Err(ReadError::NotFound);
            }
            Err(error) if error.kind() == io::ErrorKind::NotADirectory => {
                return Err(ReadError::NotFound);
            }
            Err(error) => return Err(ReadError::Io(error.kind())),
        };
        if !metadata.file_type().is_symlink() {
            current = next;
            continue;
        }
        symlinks += 1;
        if symlinks > MAX_SYMLINKS {
            return Err(ReadError::TooManySymlinks);
        }
        let target = std::fs::read_link(&next).map_err(|error| ReadError::Io(error.kind()))?;
        if target.is_absolute() {
            let inside = lexically_inside(root, &target).ok_or(ReadError::OutsideRoot)?;
            current = root.to_path_buf();
            push_components(&mut pending, &inside, true);
        } else {
            // Relative to the directory holding the link: `current`.
            push_components(&mut pending, &target, true);
        }
    }
    Ok(current)
}

/// Queues the components of `path`: at the back, or (a symlink's target,
/// to be walked before the rest) at the front.
fn push_components(pending: &mut VecDeque<OsString>, path: &Path, front: bool) {
    let parts: Vec<OsString> = path
        .components()
        .filter_map(|component| match component {
            Component::Normal(part) => Some(part.to_owned()),
            Component::ParentDir => Some(OsString::from("..")),
            Component::CurDir | Component::RootDir | Component::Prefix(_) => None,
        })
        .collect();
    if front {
        for part in parts.into_iter().rev() {
            pending.push_front(part);
        }
    } else {
        pending.extend(parts);
    }
}

/// For an absolute path, its part below `root` once `.` and `..` are
/// applied as text, or `None` if that leaves the root. Symlinks in the rest
/// are still followed (and checked) by [`resolve`].
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
