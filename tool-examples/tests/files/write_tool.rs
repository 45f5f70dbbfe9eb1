//! The `write` tool through the executor, approved by
//! [`approving`](crate::support::files::approving): a real temp directory
//! with real files, symlinks, hard links and a FIFO. Every refusal of
//! `read_tool.rs` is made again here, and each asserts the refusal's text,
//! that it says nothing of the outside, and that nothing outside changed
//! (every byte, inode and modification time, and no new name).
//!
//! No test names a path of the real system (`/etc/passwd`): a sandbox that
//! failed would write there.

use crate::support::files::{OUTSIDE_MESSAGE, SECRET, Tree, approving};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::fs::Permissions;
use std::io::{Read as _, Write as _};
use std::ops::Deref;
use std::os::unix::fs::{MetadataExt as _, PermissionsExt as _, symlink};
use std::os::unix::process::CommandExt as _;
use std::path::Path;
use std::process::Stdio;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tool_core::approval::{Approvals, Decision};
use tool_core::{
    CancellationToken, Content, FailureKind, RunOptions, ToolCall, ToolResultMessage,
    execute_tool_call,
};
use tool_examples::sandbox::Sandbox;
use tool_examples::write::{MAX_WRITE_BYTES, WriteError, write_file};

/// What the tests write; never the secret.
const NEW: &str = "new content\n";

/// The [`Tree`], with `write`'s calls and checks.
struct Fixture(Tree);

impl Deref for Fixture {
    type Target = Tree;

    fn deref(&self) -> &Tree {
        &self.0
    }
}

impl Fixture {
    fn new() -> Self {
        Fixture(Tree::new())
    }

    async fn call(&self, arguments: Value, options: RunOptions) -> ToolResultMessage {
        let call = ToolCall::new("call-w", "write", arguments);
        let result = execute_tool_call(&call, &self.tools, options).await;
        assert_eq!(result.tool_call_id, "call-w");
        assert_eq!(result.tool_name, "write");
        result
    }

    /// `content` written to `path`, approved.
    async fn write_to(&self, path: &str, content: &str) -> ToolResultMessage {
        self.call(json!({"path": path, "content": content}), approving())
            .await
    }

    /// Asserts that writing to `path` is refused with exactly `message`,
    /// leaks nothing of the outside, and changes nothing outside the root.
    async fn assert_refused(&self, path: &str, message: &str) {
        let before = self.outside_now();
        let result = self.write_to(path, NEW).await;
        assert!(
            result.is_error,
            "{path:?}: expected an error, got {result:?}"
        );
        assert_eq!(
            result.content,
            vec![Content::text(format!("Tool write failed: {message}"))],
            "{path:?}"
        );
        assert_eq!(result.details, Some(json!({ "error": message })));
        let wire = serde_json::to_string(&result).unwrap();
        assert!(!wire.contains(SECRET), "leaked content: {wire}");
        assert!(
            !wire.contains(self.outside.to_str().unwrap()),
            "leaked path: {wire}"
        );
        assert!(!wire.contains("outside/"), "leaked path: {wire}");
        assert!(!wire.contains("secret"), "leaked name: {wire}");
        assert_eq!(self.outside_now(), before, "{path:?} changed the outside");
        assert_no_temporary_file(&self.root);
    }

    async fn assert_outside(&self, path: &str) {
        self.assert_refused(path, OUTSIDE_MESSAGE).await;
    }

    fn read(&self, name: &str) -> String {
        std::fs::read_to_string(self.root.join(name)).unwrap()
    }
}

/// A successful write that answers exactly `text`, with `details`
/// (serialized, key order included).
fn assert_wrote(result: &ToolResultMessage, text: &str, details: &str) {
    assert!(!result.is_error, "{result:?}");
    assert_eq!(result.content, vec![Content::text(text)]);
    let shown = serde_json::to_string(result.details.as_ref().expect("details")).unwrap();
    assert_eq!(shown, details);
}

/// The names in `dir`.
fn names(dir: &Path) -> BTreeSet<String> {
    std::fs::read_dir(dir)
        .unwrap()
        .map(|entry| entry.unwrap().file_name().into_string().unwrap())
        .collect()
}

/// No temporary file is left anywhere under `dir`.
fn assert_no_temporary_file(dir: &Path) {
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let entry = entry.unwrap();
            let name = entry.file_name().into_string().unwrap();
            assert!(
                !name.starts_with(".write-"),
                "a temporary file was left: {}",
                entry.path().display()
            );
            if entry.file_type().unwrap().is_dir() {
                pending.push(entry.path());
            }
        }
    }
}

// ---------------------------------------------------------------- sandbox

#[tokio::test]
async fn parent_dir_at_the_root_is_outside() {
    let fx = Fixture::new();
    for path in ["../outside/secret.txt", "../outside/new.txt", "../x", ".."] {
        fx.assert_outside(path).await;
    }
}

#[tokio::test]
async fn climbing_out_through_a_subdirectory_is_outside() {
    let fx = Fixture::new();
    for path in [
        "a/../../x",
        "a/../../outside/secret.txt",
        "./sub/../../outside/secret.txt",
        "sub/../../outside/dir/new.txt",
    ] {
        fx.assert_outside(path).await;
    }
    // Going down and back up, staying inside, is fine.
    let result = fx.write_to("a/../sub/../new.txt", NEW).await;
    assert_wrote(
        &result,
        "created new.txt (12 bytes)",
        r#"{"path":"new.txt","bytes":12,"created":true}"#,
    );
    assert_eq!(fx.read("new.txt"), NEW);
}

#[tokio::test]
async fn an_absolute_path_outside_is_outside() {
    let fx = Fixture::new();
    let base = fx.root.parent().unwrap();
    for path in [
        fx.outside.join("secret.txt"),
        fx.outside.join("new.txt"),
        fx.outside.join("dir/file.txt"),
        base.join("x"),
        // Lexically back out of the root.
        fx.root.join("../outside/secret.txt"),
        fx.root.join("a/../../outside/new.txt"),
    ] {
        fx.assert_outside(path.to_str().unwrap()).await;
    }
}

#[tokio::test]
async fn an_absolute_path_inside_is_allowed() {
    let fx = Fixture::new();
    let inside = fx.root.join("hello.txt");
    let result = fx.write_to(inside.to_str().unwrap(), NEW).await;
    assert_wrote(
        &result,
        "wrote 12 bytes to hello.txt",
        r#"{"path":"hello.txt","bytes":12,"created":false}"#,
    );
    assert_eq!(fx.read("hello.txt"), NEW);
}

#[tokio::test]
async fn a_symlink_to_a_file_outside_is_outside() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("secret.txt"), "abs_secret");
    fx.link("../outside/secret.txt", "rel_secret");
    fx.assert_outside("abs_secret").await;
    fx.assert_outside("rel_secret").await;
    // The links are left as they were.
    assert!(
        std::fs::symlink_metadata(fx.root.join("abs_secret"))
            .unwrap()
            .is_symlink()
    );
}

#[tokio::test]
async fn a_symlink_to_a_directory_outside_is_outside() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("dir"), "outlink");
    fx.link("../outside/dir", "rel_outlink");
    for path in [
        "outlink/file.txt",
        "outlink/new.txt",
        "rel_outlink/file.txt",
        "rel_outlink/new.txt",
        "outlink",
    ] {
        fx.assert_outside(path).await;
    }
}

#[tokio::test]
async fn a_relative_symlink_climbing_out_is_outside() {
    let fx = Fixture::new();
    symlink("../../outside", fx.root.join("sub").join("up")).unwrap();
    for path in [
        "sub/up/secret.txt",
        "sub/up/new.txt",
        "sub/up/dir/file.txt",
        "sub/up/dir/new.txt",
    ] {
        fx.assert_outside(path).await;
    }
}

#[tokio::test]
async fn a_dangling_symlink_outside_is_outside_and_not_created() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("missing.txt"), "abs_dangling");
    fx.link("../outside/missing.txt", "rel_dangling");
    fx.link("/nonexistent-dir/missing", "abs_nowhere");
    for path in ["abs_dangling", "rel_dangling", "abs_nowhere"] {
        fx.assert_outside(path).await;
    }
    assert!(!fx.outside.join("missing.txt").exists());
}

#[tokio::test]
async fn a_missing_file_behind_a_symlinked_directory_outside_is_outside() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("dir"), "outlink");
    fx.link(fx.outside.join("no-such-dir"), "outlink_missing_dir");
    fx.assert_outside("outlink/missing").await;
    fx.assert_outside("outlink_missing_dir/missing").await;
    assert!(!fx.outside.join("no-such-dir").exists());
}

#[tokio::test]
async fn a_symlink_to_a_file_inside_is_followed() {
    let fx = Fixture::new();
    fx.write("sub/real.txt", "real\n");
    fx.link("sub/real.txt", "rel_link");
    fx.link(fx.root.join("sub/real.txt"), "abs_link");
    symlink("../hello.txt", fx.root.join("sub").join("up_link")).unwrap();
    for (path, content) in [("rel_link", "one\n"), ("abs_link", "two\n")] {
        let result = fx.write_to(path, content).await;
        // The file the link names is written, and named.
        assert_wrote(
            &result,
            "wrote 4 bytes to sub/real.txt",
            r#"{"path":"sub/real.txt","bytes":4,"created":false}"#,
        );
        assert_eq!(fx.read("sub/real.txt"), content);
        // The link stays a link.
        let link = std::fs::symlink_metadata(fx.root.join(path)).unwrap();
        assert!(link.is_symlink(), "{path}");
    }
    let result = fx.write_to("sub/up_link", NEW).await;
    assert_wrote(
        &result,
        "wrote 12 bytes to hello.txt",
        r#"{"path":"hello.txt","bytes":12,"created":false}"#,
    );
    // A symlinked directory inside the root.
    fx.link("sub", "sublink");
    let result = fx.write_to("sublink/other.txt", "x").await;
    assert_wrote(
        &result,
        "created sub/other.txt (1 byte)",
        r#"{"path":"sub/other.txt","bytes":1,"created":true}"#,
    );
}

#[tokio::test]
async fn a_dangling_symlink_inside_creates_the_file_it_names() {
    let fx = Fixture::new();
    fx.link("a/nothing-here.txt", "dangling");
    let result = fx.write_to("dangling", NEW).await;
    assert_wrote(
        &result,
        "created a/nothing-here.txt (12 bytes)",
        r#"{"path":"a/nothing-here.txt","bytes":12,"created":true}"#,
    );
    assert_eq!(fx.read("a/nothing-here.txt"), NEW);
    assert!(
        std::fs::symlink_metadata(fx.root.join("dangling"))
            .unwrap()
            .is_symlink()
    );
}

#[tokio::test]
async fn a_symlink_to_the_root_itself_stays_inside() {
    let fx = Fixture::new();
    fx.link(&fx.root, "abs_root");
    symlink("..", fx.root.join("sub").join("up")).unwrap();
    for path in ["abs_root/hello.txt", "sub/up/hello.txt"] {
        let result = fx.write_to(path, NEW).await;
        assert_wrote(
            &result,
            "wrote 12 bytes to hello.txt",
            r#"{"path":"hello.txt","bytes":12,"created":false}"#,
        );
    }
    // Still no way above it.
    fx.assert_outside("abs_root/../outside/secret.txt").await;
    fx.assert_outside("sub/up/../outside/new.txt").await;
    fx.assert_refused("abs_root", "the path is a directory, not a file")
        .await;
}

#[tokio::test]
async fn a_symlink_loop_is_refused() {
    let fx = Fixture::new();
    fx.link("b", "a_loop");
    fx.link("a_loop", "b");
    fx.link("self", "self");
    for path in ["a_loop", "b", "self", "a_loop/x"] {
        fx.assert_refused(path, "too many levels of symbolic links")
            .await;
    }
}

// ------------------------------------------------------- other refusals

#[tokio::test]
async fn a_nul_byte_in_the_path_is_refused() {
    let fx = Fixture::new();
    fx.assert_refused("hello.txt\0.png", "the path contains a NUL byte")
        .await;
    fx.assert_refused("\0../outside/secret.txt", "the path contains a NUL byte")
        .await;
    assert_eq!(fx.read("hello.txt"), "hello\nworld\n");
}

#[tokio::test]
async fn a_directory_is_refused() {
    let fx = Fixture::new();
    let before = names(&fx.root);
    for path in ["a", "sub/", ".", "", "a/.."] {
        fx.assert_refused(path, "the path is a directory, not a file")
            .await;
    }
    assert!(fx.root.join("a").is_dir());
    assert_eq!(names(&fx.root), before);
}

#[tokio::test]
async fn a_path_ending_in_a_slash_is_refused() {
    let fx = Fixture::new();
    let message = "the path ends with '/', which names a directory, not a file";
    for path in ["new/", "hello.txt/", "new/."] {
        fx.assert_refused(path, message).await;
    }
    assert!(!fx.root.join("new").exists());
    assert_eq!(fx.read("hello.txt"), "hello\nworld\n");
}

#[tokio::test]
async fn a_fifo_is_not_a_regular_file() {
    let fx = Fixture::new();
    let status = std::process::Command::new("mkfifo")
        .arg(fx.root.join("pipe"))
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    fx.assert_refused("pipe", "the path is not a regular file")
        .await;
    // Not replaced: still the FIFO.
    let metadata = std::fs::symlink_metadata(fx.root.join("pipe")).unwrap();
    assert!(std::os::unix::fs::FileTypeExt::is_fifo(
        &metadata.file_type()
    ));
}

#[tokio::test]
async fn a_missing_parent_directory_is_refused_and_not_created() {
    let fx = Fixture::new();
    let before = names(&fx.root);
    let message = "the directory to hold the file does not exist (write creates no directories)";
    // A file used as a directory is no directory either.
    for path in ["nope/new.txt", "a/nope/deeper.txt", "hello.txt/x"] {
        fx.assert_refused(path, message).await;
    }
    assert_eq!(names(&fx.root), before);
    assert!(names(&fx.root.join("a")).is_empty());
}

/// A rename needs write permission on the directory only: `write` must
/// still refuse a file this process may not write itself. Exactly one
/// branch runs, by who runs the test, and each makes such a file in a
/// directory the writing process may write:
///
/// - As root (who may write any file), the binary runs `call` as
///   `nobody` (uid and gid 65534) in a `0777` directory holding root's
///   `0644` file: refused, the file left as it was. `nobody`'s own file
///   beside it is written, in the same run: the refusal is about the file,
///   not the process. The test itself, as root, writes a `0444` file.
/// - As anyone else, the test's own `0444` file in its own directory is
///   refused through the executor.
#[tokio::test]
async fn a_file_this_process_may_not_write_is_refused() {
    if rustix::process::geteuid().is_root() {
        refused_as_nobody_in_a_directory_anyone_may_write();
        root_writes_a_file_with_no_write_bit().await;
    } else {
        refused_as_its_owner_without_write_permission().await;
    }
}

/// The uid and gid the binary runs as when the test runs as root.
const NOBODY: u32 = 65534;

/// A file's bytes, permission bits, inode and owner.
fn state(path: &Path) -> (Vec<u8>, u32, u64, u32) {
    let metadata = std::fs::symlink_metadata(path).unwrap();
    (
        std::fs::read(path).unwrap(),
        metadata.mode(),
        metadata.ino(),
        metadata.uid(),
    )
}

fn refused_as_nobody_in_a_directory_anyone_may_write() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    // `nobody` must reach the root (and run in `base`).
    std::fs::set_permissions(&base, Permissions::from_mode(0o755)).unwrap();
    let root = base.join("root");
    let notes = root.join("notes");
    std::fs::create_dir_all(&notes).unwrap();
    for dir in [&root, &notes] {
        std::fs::set_permissions(dir, Permissions::from_mode(0o777)).unwrap();
    }
    let roots = notes.join("a.txt");
    std::fs::write(&roots, "root's\n").unwrap();
    std::fs::set_permissions(&roots, Permissions::from_mode(0o644)).unwrap();
    let nobodys = notes.join("mine.txt");
    std::fs::write(&nobodys, "nobody's\n").unwrap();
    std::fs::set_permissions(&nobodys, Permissions::from_mode(0o644)).unwrap();
    std::os::unix::fs::chown(&nobodys, Some(NOBODY), Some(NOBODY)).unwrap();
    let before = state(&roots);
    assert_eq!((before.1 & 0o7777, before.3), (0o644, 0));

    let calls: String = [("w1", "notes/a.txt"), ("w2", "notes/mine.txt")]
        .iter()
        .map(|(id, path)| {
            let call = json!({"type": "toolCall", "id": id, "name": "write",
                "arguments": {"path": path, "content": NEW}});
            format!("{call}\n")
        })
        .collect();
    let mut command = crate::support::command(
        &["call", "--root", root.to_str().unwrap(), "--approve-all"],
        &base,
    );
    command
        .uid(NOBODY)
        .gid(NOBODY)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let mut child = command.spawn().expect("the binary starts as nobody");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(calls.as_bytes())
        .unwrap();
    let mut stdout = String::new();
    child
        .stdout
        .take()
        .unwrap()
        .read_to_string(&mut stdout)
        .unwrap();
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .unwrap()
        .read_to_string(&mut stderr)
        .unwrap();
    let status = crate::support::wait(&mut child, Duration::from_secs(20));
    assert!(status.success(), "{stderr}");
    assert_eq!(stderr, "");

    let results: Vec<Value> = stdout
        .lines()
        .map(|line| serde_json::from_str(line).unwrap())
        .collect();
    assert_eq!(results.len(), 2, "{stdout}");
    let message = "permission denied: this process may not write notes/a.txt";
    let refused = &results[0];
    assert_eq!(refused["toolCallId"], "w1", "{stdout}");
    assert_eq!(refused["isError"], true, "{refused}");
    assert_eq!(
        refused["content"],
        json!([{"type": "text", "text": format!("Tool write failed: {message}")}]),
        "{refused}"
    );
    assert_eq!(refused["details"], json!({ "error": message }), "{refused}");
    // Every byte, the mode, the inode and the owner as they were.
    assert_eq!(state(&roots), before);

    let written = &results[1];
    assert_eq!(written["toolCallId"], "w2", "{stdout}");
    assert_eq!(written["isError"], false, "{written}");
    assert_eq!(
        written["content"],
        json!([{"type": "text", "text": "wrote 12 bytes to notes/mine.txt"}]),
        "{written}"
    );
    assert_eq!(std::fs::read_to_string(&nobodys).unwrap(), NEW);
    assert_eq!(std::fs::metadata(&nobodys).unwrap().uid(), NOBODY);
    assert_no_temporary_file(&root);
}

/// Root may write any file, so its writes replace one with no write bit,
/// which keeps its mode.
async fn root_writes_a_file_with_no_write_bit() {
    let fx = Fixture::new();
    fx.write("frozen.txt", "frozen\n");
    let path = fx.root.join("frozen.txt");
    std::fs::set_permissions(&path, Permissions::from_mode(0o444)).unwrap();
    let result = fx.write_to("frozen.txt", NEW).await;
    assert_wrote(
        &result,
        "wrote 12 bytes to frozen.txt",
        r#"{"path":"frozen.txt","bytes":12,"created":false}"#,
    );
    assert_eq!(fx.read("frozen.txt"), NEW);
    assert_eq!(std::fs::metadata(&path).unwrap().mode() & 0o7777, 0o444);
}

async fn refused_as_its_owner_without_write_permission() {
    let fx = Fixture::new();
    fx.write("sub/frozen.txt", "frozen\n");
    let path = fx.root.join("sub/frozen.txt");
    std::fs::set_permissions(&path, Permissions::from_mode(0o444)).unwrap();
    let before = state(&path);
    fx.assert_refused(
        "sub/frozen.txt",
        "permission denied: this process may not write sub/frozen.txt",
    )
    .await;
    assert_eq!(state(&path), before);
}

// ------------------------------------------------------ creating, replacing

#[tokio::test]
async fn a_new_file_is_created() {
    let fx = Fixture::new();
    let result = fx.write_to("a/new.txt", NEW).await;
    assert_wrote(
        &result,
        "created a/new.txt (12 bytes)",
        r#"{"path":"a/new.txt","bytes":12,"created":true}"#,
    );
    assert_eq!(fx.read("a/new.txt"), NEW);
    assert_eq!(
        names(&fx.root.join("a")),
        BTreeSet::from(["new.txt".into()])
    );

    // Empty, and one byte; multi-byte text counts bytes.
    let result = fx.write_to("empty.txt", "").await;
    assert_eq!(
        result.content,
        vec![Content::text("created empty.txt (0 bytes)")]
    );
    assert_eq!(fx.read("empty.txt"), "");
    let result = fx.write_to("one.txt", "1").await;
    assert_eq!(
        result.content,
        vec![Content::text("created one.txt (1 byte)")]
    );
    let result = fx.write_to("café.txt", "naïve ☕\n").await;
    assert_wrote(
        &result,
        "created café.txt (11 bytes)",
        r#"{"path":"café.txt","bytes":11,"created":true}"#,
    );
    assert_eq!(fx.read("café.txt"), "naïve ☕\n");
    assert_no_temporary_file(&fx.root);
}

#[tokio::test]
async fn an_existing_file_is_replaced_and_keeps_its_permissions() {
    let fx = Fixture::new();
    for (name, mode) in [
        ("private.txt", 0o600),
        ("shared.txt", 0o664),
        ("run.sh", 0o750),
    ] {
        fx.write(name, "old content that is longer than the new one\n");
        let path = fx.root.join(name);
        std::fs::set_permissions(&path, Permissions::from_mode(mode)).unwrap();
        let inode = std::fs::metadata(&path).unwrap().ino();
        let result = fx.write_to(name, "short\n").await;
        assert_wrote(
            &result,
            &format!("wrote 6 bytes to {name}"),
            &format!(r#"{{"path":"{name}","bytes":6,"created":false}}"#),
        );
        // Replaced whole (not a prefix overwritten), by a new file with the
        // old one's permissions.
        assert_eq!(fx.read(name), "short\n");
        let metadata = std::fs::metadata(&path).unwrap();
        assert_eq!(metadata.mode() & 0o7777, mode, "{name}");
        assert_ne!(metadata.ino(), inode, "{name}");
    }
    // Set-user-ID is not kept on a written file.
    fx.write("setuid", "x");
    std::fs::set_permissions(fx.root.join("setuid"), Permissions::from_mode(0o4755)).unwrap();
    assert!(!fx.write_to("setuid", "y").await.is_error);
    let mode = std::fs::metadata(fx.root.join("setuid")).unwrap().mode();
    assert_eq!(mode & 0o7777, 0o755);
    assert_no_temporary_file(&fx.root);
}

#[tokio::test]
async fn a_hard_link_to_a_file_outside_is_replaced_not_written_through() {
    let fx = Fixture::new();
    let secret = fx.outside.join("secret.txt");
    std::fs::hard_link(&secret, fx.root.join("hard.txt")).unwrap();
    assert_eq!(std::fs::metadata(&secret).unwrap().nlink(), 2);
    let before = fx.outside_now();
    let result = fx.write_to("hard.txt", NEW).await;
    assert_wrote(
        &result,
        "wrote 12 bytes to hard.txt",
        r#"{"path":"hard.txt","bytes":12,"created":false}"#,
    );
    assert_eq!(fx.read("hard.txt"), NEW);
    // The file outside holds what it held, and is no longer linked inside.
    assert_eq!(fx.outside_now(), before);
    assert_eq!(std::fs::read_to_string(&secret).unwrap(), SECRET);
    assert_eq!(std::fs::metadata(&secret).unwrap().nlink(), 1);
}

#[tokio::test]
async fn content_over_the_cap_is_refused() {
    let fx = Fixture::new();
    let at_cap = "x".repeat(MAX_WRITE_BYTES);
    let result = fx.write_to("at-cap.txt", &at_cap).await;
    assert_wrote(
        &result,
        "created at-cap.txt (1048576 bytes)",
        r#"{"path":"at-cap.txt","bytes":1048576,"created":true}"#,
    );
    assert_eq!(
        std::fs::metadata(fx.root.join("at-cap.txt")).unwrap().len(),
        1_048_576
    );

    let before = names(&fx.root);
    for (content, bytes) in [
        ("x".repeat(MAX_WRITE_BYTES + 1), 1_048_577),
        // Half as many characters as the cap, but two bytes each.
        ("é".repeat(MAX_WRITE_BYTES / 2 + 1), 1_048_578),
    ] {
        let message = format!("the content is {bytes} bytes, over the 1048576-byte cap");
        for path in ["over.txt", "at-cap.txt"] {
            let result = fx.write_to(path, &content).await;
            assert_eq!(
                result.content,
                vec![Content::text(format!("Tool write failed: {message}"))]
            );
        }
    }
    assert_eq!(names(&fx.root), before);
    assert_eq!(
        std::fs::metadata(fx.root.join("at-cap.txt")).unwrap().len(),
        1_048_576
    );
}

#[tokio::test]
async fn the_definition_asks_for_a_path_and_the_content() {
    let fx = Fixture::new();
    let write = fx.tools.get("write").unwrap();
    assert!(write.needs_approval());
    let annotations = write.annotations();
    assert_eq!(annotations.destructive, Some(true));
    assert_eq!(annotations.read_only, None);
    let schema = &write.definition().parameters;
    assert_eq!(schema["required"], json!(["path", "content"]));
    assert_eq!(schema["properties"]["content"]["type"], "string");
}

// --------------------------------------------------------------- approval

#[tokio::test]
async fn without_approval_nothing_is_written() {
    let fx = Fixture::new();
    let before = names(&fx.root);
    // No way to ask: denied, never run unasked.
    let unasked = fx
        .call(
            json!({"path": "hello.txt", "content": NEW}),
            RunOptions::default(),
        )
        .await;
    // A person said no; the model reads why.
    let refused = Approvals::ask(|_| async { Decision::deny("not in this folder") });
    let denied = fx
        .call(
            json!({"path": "new.txt", "content": NEW}),
            RunOptions::new().with_approvals(refused),
        )
        .await;
    for (result, text) in [
        (
            &unasked,
            "This call did not run: it needs a person's approval, and got none \
             (the run options have no approvals (RunOptions::with_approvals)).",
        ),
        (&denied, "A person denied this call: not in this folder"),
    ] {
        assert!(result.is_error, "{result:?}");
        assert_eq!(result.failure_kind, Some(FailureKind::Denied));
        assert_eq!(result.content, vec![Content::text(text)]);
    }
    assert_eq!(fx.read("hello.txt"), "hello\nworld\n");
    assert_eq!(names(&fx.root), before);
}

// ------------------------------------------------------------ cancellation

#[tokio::test]
async fn a_write_cancelled_before_it_runs_leaves_the_old_file() {
    let fx = Fixture::new();
    let inode = std::fs::metadata(fx.root.join("hello.txt")).unwrap().ino();
    let before = names(&fx.root);
    // The person approves, and the caller cancels at that moment: the tool
    // starts with its signal already cancelled, and must not replace.
    let signal = CancellationToken::new();
    let cancel = signal.clone();
    let options = RunOptions::new()
        .with_signal(signal)
        .with_approvals(Approvals::ask(move |_| {
            cancel.cancel();
            async { Decision::Approve }
        }));
    let result = fx
        .call(json!({"path": "hello.txt", "content": NEW}), options)
        .await;
    assert!(result.is_error, "{result:?}");
    assert_eq!(
        result.content,
        vec![Content::text("Tool write failed: cancelled")]
    );
    assert_eq!(fx.read("hello.txt"), "hello\nworld\n");
    assert_eq!(
        std::fs::metadata(fx.root.join("hello.txt")).unwrap().ino(),
        inode
    );
    assert_eq!(names(&fx.root), before);
}

/// The check before the rename, and every other: cancelled at the `n`th
/// check, for each `n` until a write gets through, the old file stays and
/// no temporary file does. The check itself looks for the temporary file,
/// so the test knows the cancellations it made after one existed (the
/// paths that must remove it).
#[test]
fn a_write_cancelled_at_any_check_leaves_the_old_file_and_no_temporary_file() {
    let dir = tempfile::tempdir().unwrap();
    let root = dir.path().canonicalize().unwrap();
    std::fs::write(root.join("file.txt"), "old\n").unwrap();
    let sandbox = Sandbox::open(&root).unwrap();
    // Four chunks of 64 KiB: six checks in all.
    let content = "0123456789abcdef".repeat(16 * 1024);
    let with_temporary = Arc::new(Mutex::new(Vec::new()));
    let mut cancelled_with_temporary = 0;
    for n in 1.. {
        let checks = AtomicUsize::new(0);
        let seen = Arc::clone(&with_temporary);
        let root_seen = root.clone();
        let outcome = write_file(&sandbox, "file.txt", &content, || {
            let check = checks.fetch_add(1, Ordering::SeqCst) + 1;
            let temporary = names(&root_seen)
                .iter()
                .any(|name| name.starts_with(".write-"));
            seen.lock().unwrap().push((n, check, temporary));
            check == n
        });
        let last = *with_temporary.lock().unwrap().last().unwrap();
        match outcome {
            Err(WriteError::Cancelled) => {
                assert_eq!(last, (n, n, last.2));
                if last.2 {
                    cancelled_with_temporary += 1;
                }
                assert_eq!(
                    std::fs::read_to_string(root.join("file.txt")).unwrap(),
                    "old\n"
                );
                assert_eq!(names(&root), BTreeSet::from(["file.txt".into()]));
            }
            Ok(output) => {
                assert_eq!(
                    output.content,
                    vec![Content::text("wrote 262144 bytes to file.txt")]
                );
                // Every check was made, and none cancelled it.
                assert_eq!(checks.load(Ordering::SeqCst), n - 1);
                break;
            }
            Err(other) => panic!("check {n}: {other}"),
        }
    }
    // The first check comes before anything is created; the five after it
    // (four chunks, then the rename) with the temporary file there.
    let made: Vec<_> = with_temporary
        .lock()
        .unwrap()
        .iter()
        .filter(|(n, check, _)| n == check)
        .map(|(_, check, temporary)| (*check, *temporary))
        .collect();
    assert_eq!(
        made,
        [
            (1, false),
            (2, true),
            (3, true),
            (4, true),
            (5, true),
            (6, true)
        ]
    );
    assert_eq!(cancelled_with_temporary, 5);
    assert_eq!(
        std::fs::read_to_string(root.join("file.txt")).unwrap(),
        content
    );
    assert_eq!(names(&root), BTreeSet::from(["file.txt".into()]));
}
