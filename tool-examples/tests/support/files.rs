//! A root for the `Files` tools with a secret next to it, for the tests of
//! `read`, `list` and `write` (`files::read_tool`, `files::list_tool`,
//! `files::write_tool`): whatever a call answers must carry nothing of the
//! outside, and nothing outside may change.

use std::collections::BTreeMap;
use std::os::unix::fs::{MetadataExt as _, symlink};
use std::path::{Path, PathBuf};
use std::time::SystemTime;
use tempfile::TempDir;
use tool_core::RunOptions;
use tool_core::ToolRegistry;
use tool_core::approval::{Approvals, Decision};
use tool_examples::files::Files;

/// What every file outside the root holds; no answer may contain it.
pub(crate) const SECRET: &str = "TOP SECRET CONTENT";
/// The error of a path that leads outside the root.
pub(crate) const OUTSIDE_MESSAGE: &str = "the path is outside the root directory";

/// `base/root` is the `Files` tools' root; `base/outside` holds a secret
/// file and a directory, next to the root.
pub(crate) struct Tree {
    _dir: TempDir,
    pub(crate) root: PathBuf,
    pub(crate) outside: PathBuf,
    pub(crate) tools: ToolRegistry,
}

impl Tree {
    /// The tree in a new temporary directory: `root/a/`, `root/sub/` and
    /// `root/hello.txt`; `outside/secret.txt` and `outside/dir/file.txt`.
    pub(crate) fn new() -> Self {
        let dir = tempfile::tempdir().unwrap();
        let base = dir.path().canonicalize().unwrap();
        let root = base.join("root");
        let outside = base.join("outside");
        std::fs::create_dir_all(root.join("a")).unwrap();
        std::fs::create_dir_all(root.join("sub")).unwrap();
        std::fs::create_dir_all(outside.join("dir")).unwrap();
        std::fs::write(outside.join("secret.txt"), SECRET).unwrap();
        std::fs::write(outside.join("dir").join("file.txt"), SECRET).unwrap();
        std::fs::write(root.join("hello.txt"), "hello\nworld\n").unwrap();
        let mut tools = ToolRegistry::new();
        tools.register_all(Files::new(&root).unwrap()).unwrap();
        Tree {
            _dir: dir,
            root,
            outside,
            tools,
        }
    }

    /// Writes `contents` to `name` under the root.
    pub(crate) fn write(&self, name: &str, contents: impl AsRef<[u8]>) {
        std::fs::write(self.root.join(name), contents).unwrap();
    }

    /// Everything outside the root: the temporary directory holding it,
    /// `outside` and all it holds (see [`snapshot`]).
    pub(crate) fn outside_now(&self) -> BTreeMap<PathBuf, Seen> {
        snapshot(self.root.parent().unwrap(), &self.root)
    }

    /// Makes `name` under the root a symlink to `target`.
    pub(crate) fn link(&self, target: impl AsRef<Path>, name: &str) {
        symlink(target, self.root.join(name)).unwrap();
    }
}

/// Options that approve every call that asks (`write` needs approval).
pub(crate) fn approving() -> RunOptions {
    RunOptions::new().with_approvals(Approvals::ask(|_| async { Decision::Approve }))
}

/// One entry of a tree as [`snapshot`] records it.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct Seen {
    /// Its inode: replacing the entry changes it.
    pub(crate) inode: u64,
    /// Its modification time.
    pub(crate) modified: SystemTime,
    /// A file's bytes, a symlink's target, nothing for the rest.
    pub(crate) bytes: Vec<u8>,
}

/// `dir` and every entry under it but `except` (not following symlinks),
/// by path: what must be the same before and after a call that may not
/// touch it. A directory's modification time changes when a name is added
/// to it or removed, so even a file created and removed again shows.
pub(crate) fn snapshot(dir: &Path, except: &Path) -> BTreeMap<PathBuf, Seen> {
    let mut seen = BTreeMap::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(path) = pending.pop() {
        if path == except {
            continue;
        }
        let metadata = std::fs::symlink_metadata(&path).unwrap();
        let bytes = if metadata.is_file() {
            std::fs::read(&path).unwrap()
        } else if metadata.is_symlink() {
            std::fs::read_link(&path)
                .unwrap()
                .into_os_string()
                .into_encoded_bytes()
        } else {
            if metadata.is_dir() {
                for entry in std::fs::read_dir(&path).unwrap() {
                    pending.push(entry.unwrap().path());
                }
            }
            Vec::new()
        };
        let entry = Seen {
            inode: metadata.ino(),
            modified: metadata.modified().unwrap(),
            bytes,
        };
        seen.insert(path, entry);
    }
    seen
}
