//! A root for the `Files` tools with a secret next to it, for the tests of
//! `read` and `list` (`files::read_tool`, `files::list_tool`): whatever a
//! call answers must carry nothing of the outside.

use std::os::unix::fs::symlink;
use std::path::{Path, PathBuf};
use tempfile::TempDir;
use tool_core::ToolRegistry;
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

    /// Makes `name` under the root a symlink to `target`.
    pub(crate) fn link(&self, target: impl AsRef<Path>, name: &str) {
        symlink(target, self.root.join(name)).unwrap();
    }
}
