//! The `read` tool through the executor: a real temp directory with real
//! files and real symlinks. Every refusal is a paired error that says
//! nothing about what lies outside the root.

use crate::support::files::{OUTSIDE_MESSAGE, SECRET, Tree};
use serde_json::{Value, json};
use std::fmt::Write as _;
use std::ops::Deref;
use std::os::unix::fs::symlink;
use tool_core::{
    CancellationToken, Content, RunOptions, ToolCall, ToolResultMessage, execute_tool_call,
};
use tool_examples::files::Files;
use tool_examples::read::{MAX_BYTES, MAX_IMAGE_BYTES, MAX_LINES};

/// The [`Tree`], with `read`'s calls and checks.
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

    async fn read(&self, arguments: Value) -> ToolResultMessage {
        self.read_with(arguments, RunOptions::default()).await
    }

    async fn read_with(&self, arguments: Value, ctx: RunOptions) -> ToolResultMessage {
        let call = ToolCall::new("call-r", "read", arguments);
        let result = execute_tool_call(&call, &self.tools, ctx).await;
        assert_eq!(result.tool_call_id, "call-r");
        assert_eq!(result.tool_name, "read");
        result
    }

    async fn read_path(&self, path: &str) -> ToolResultMessage {
        self.read(json!({ "path": path })).await
    }

    /// Asserts a paired error with exactly `message`, leaking nothing of
    /// the outside directory.
    fn assert_refused(&self, result: &ToolResultMessage, message: &str) {
        assert!(result.is_error, "expected an error, got {result:?}");
        assert_eq!(
            result.content,
            vec![Content::text(format!("Tool read failed: {message}"))]
        );
        assert_eq!(result.details, Some(json!({ "error": message })));
        let wire = serde_json::to_string(result).unwrap();
        assert!(!wire.contains(SECRET), "leaked content: {wire}");
        assert!(
            !wire.contains(self.outside.to_str().unwrap()),
            "leaked path: {wire}"
        );
        assert!(!wire.contains("outside/"), "leaked path: {wire}");
        assert!(!wire.contains("secret"), "leaked name: {wire}");
    }

    fn assert_outside(&self, result: &ToolResultMessage) {
        self.assert_refused(result, OUTSIDE_MESSAGE);
    }
}

fn only_text(result: &ToolResultMessage) -> &str {
    assert_eq!(result.content.len(), 1, "{result:?}");
    result.content[0].as_text().unwrap()
}

/// Details serialized, to check key order as well as values.
fn details_json(result: &ToolResultMessage) -> String {
    serde_json::to_string(result.details.as_ref().expect("details")).unwrap()
}

/// A successful read that shows exactly `text`.
fn assert_shows(result: &ToolResultMessage, text: &str) {
    assert!(!result.is_error, "{result:?}");
    assert_eq!(only_text(result), text);
}

/// A successful read that shows exactly `text`, with `details` (serialized,
/// key order included).
fn assert_read(result: &ToolResultMessage, text: &str, details: &str) {
    assert_shows(result, text);
    assert_eq!(details_json(result), details);
}

fn numbered_lines(count: usize) -> String {
    let mut out = String::new();
    for line in 1..=count {
        writeln!(out, "line {line}").unwrap();
    }
    out
}

// ---------------------------------------------------------------- sandbox

#[tokio::test]
async fn a_plain_file_inside_is_read() {
    let fx = Fixture::new();
    let result = fx.read_path("hello.txt").await;
    assert_read(
        &result,
        "hello\nworld",
        r#"{"path":"hello.txt","firstLine":1,"lastLine":2,"totalLines":2,"truncated":false}"#,
    );
}

#[tokio::test]
async fn parent_dir_at_the_root_is_outside() {
    let fx = Fixture::new();
    fx.assert_outside(&fx.read_path("../outside/secret.txt").await);
    fx.assert_outside(&fx.read_path("../x").await);
    fx.assert_outside(&fx.read_path("..").await);
}

#[tokio::test]
async fn climbing_out_through_a_subdirectory_is_outside() {
    let fx = Fixture::new();
    fx.assert_outside(&fx.read_path("a/../../x").await);
    fx.assert_outside(&fx.read_path("a/../../outside/secret.txt").await);
    fx.assert_outside(&fx.read_path("./sub/../../outside/secret.txt").await);
    // Going down and back up, staying inside, is fine.
    let result = fx.read_path("a/../sub/../hello.txt").await;
    assert_shows(&result, "hello\nworld");
}

#[tokio::test]
async fn an_absolute_path_outside_is_outside() {
    let fx = Fixture::new();
    let secret = fx.outside.join("secret.txt");
    fx.assert_outside(&fx.read_path(secret.to_str().unwrap()).await);
    fx.assert_outside(&fx.read_path("/etc/passwd").await);
    fx.assert_outside(&fx.read_path("/x").await);
    // Lexically back out of the root.
    let sneaky = format!("{}/../outside/secret.txt", fx.root.display());
    fx.assert_outside(&fx.read_path(&sneaky).await);
}

#[tokio::test]
async fn an_absolute_path_inside_is_allowed() {
    let fx = Fixture::new();
    let inside = fx.root.join("hello.txt");
    let result = fx.read_path(inside.to_str().unwrap()).await;
    assert_read(
        &result,
        "hello\nworld",
        r#"{"path":"hello.txt","firstLine":1,"lastLine":2,"totalLines":2,"truncated":false}"#,
    );
}

#[tokio::test]
async fn a_symlink_to_a_file_outside_is_outside() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("secret.txt"), "abs_secret");
    fx.link("../outside/secret.txt", "rel_secret");
    fx.assert_outside(&fx.read_path("abs_secret").await);
    fx.assert_outside(&fx.read_path("rel_secret").await);
}

#[tokio::test]
async fn a_symlink_to_a_directory_outside_is_outside() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("dir"), "outlink");
    fx.link("../outside/dir", "rel_outlink");
    fx.assert_outside(&fx.read_path("outlink/file.txt").await);
    fx.assert_outside(&fx.read_path("rel_outlink/file.txt").await);
    fx.assert_outside(&fx.read_path("outlink").await);
}

#[tokio::test]
async fn a_relative_symlink_climbing_out_is_outside() {
    let fx = Fixture::new();
    // root/sub/up -> ../../outside, and a link to /etc however deep we are.
    symlink("../../outside", fx.root.join("sub").join("up")).unwrap();
    let etc = format!("{}etc", "../".repeat(fx.root.components().count() + 2));
    symlink(&etc, fx.root.join("sub").join("etc")).unwrap();
    fx.assert_outside(&fx.read_path("sub/up/secret.txt").await);
    fx.assert_outside(&fx.read_path("sub/up/dir/file.txt").await);
    fx.assert_outside(&fx.read_path("sub/etc/passwd").await);
    fx.assert_outside(&fx.read_path("sub/etc/does-not-exist").await);
}

#[tokio::test]
async fn a_symlink_to_a_file_inside_is_allowed() {
    let fx = Fixture::new();
    fx.write("sub/real.txt", "real\n");
    fx.link("sub/real.txt", "rel_link");
    fx.link(fx.root.join("sub/real.txt"), "abs_link");
    symlink("../hello.txt", fx.root.join("sub").join("up_link")).unwrap();
    for path in ["rel_link", "abs_link"] {
        let result = fx.read_path(path).await;
        assert!(!result.is_error, "{path}: {result:?}");
        assert_eq!(only_text(&result), "real");
        // The details name the file the link resolves to (inside the root).
        assert_eq!(
            details_json(&result),
            r#"{"path":"sub/real.txt","firstLine":1,"lastLine":1,"totalLines":1,"truncated":false}"#
        );
    }
    let result = fx.read_path("sub/up_link").await;
    assert_shows(&result, "hello\nworld");
    // A symlinked directory inside the root.
    fx.link("sub", "sublink");
    let result = fx.read_path("sublink/real.txt").await;
    assert_shows(&result, "real");
}

#[tokio::test]
async fn a_symlink_to_the_root_itself_stays_inside() {
    let fx = Fixture::new();
    fx.link(&fx.root, "abs_root");
    symlink("..", fx.root.join("sub").join("up")).unwrap();
    for path in [
        "abs_root/hello.txt",
        "sub/up/hello.txt",
        "abs_root/sub/up/hello.txt",
    ] {
        assert_read(
            &fx.read_path(path).await,
            "hello\nworld",
            r#"{"path":"hello.txt","firstLine":1,"lastLine":2,"totalLines":2,"truncated":false}"#,
        );
    }
    // Still no way above it.
    fx.assert_outside(&fx.read_path("abs_root/../outside/secret.txt").await);
    fx.assert_outside(&fx.read_path("sub/up/../outside/secret.txt").await);
    fx.assert_refused(
        &fx.read_path("abs_root").await,
        "the path is a directory, not a file",
    );
}

#[tokio::test]
async fn a_symlink_loop_is_refused() {
    let fx = Fixture::new();
    fx.link("b", "a_loop");
    fx.link("a_loop", "b");
    fx.link("self", "self");
    for path in ["a_loop", "b", "self", "a_loop/x"] {
        fx.assert_refused(
            &fx.read_path(path).await,
            "too many levels of symbolic links",
        );
    }
}

#[tokio::test]
async fn a_dangling_symlink_to_a_missing_file_outside_is_outside_not_missing() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("missing.txt"), "abs_dangling");
    fx.link("../outside/missing.txt", "rel_dangling");
    fx.link("/nonexistent-dir/missing", "abs_nowhere");
    for path in ["abs_dangling", "rel_dangling", "abs_nowhere"] {
        let result = fx.read_path(path).await;
        fx.assert_outside(&result);
    }
}

#[tokio::test]
async fn a_missing_file_behind_a_symlinked_directory_outside_is_outside() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("dir"), "outlink");
    fx.link(fx.outside.join("no-such-dir"), "outlink_missing_dir");
    fx.assert_outside(&fx.read_path("outlink/missing").await);
    fx.assert_outside(&fx.read_path("outlink_missing_dir/missing").await);
}

#[tokio::test]
async fn a_dangling_symlink_inside_is_missing() {
    let fx = Fixture::new();
    fx.link("nothing-here.txt", "dangling");
    fx.assert_refused(&fx.read_path("dangling").await, "no such file");
}

// ------------------------------------------------------- other refusals

#[tokio::test]
async fn a_nul_byte_in_the_path_is_refused() {
    let fx = Fixture::new();
    fx.assert_refused(
        &fx.read_path("hello.txt\0.png").await,
        "the path contains a NUL byte",
    );
    fx.assert_refused(
        &fx.read_path("\0../outside/secret.txt").await,
        "the path contains a NUL byte",
    );
}

#[tokio::test]
async fn a_directory_is_refused() {
    let fx = Fixture::new();
    for path in ["a", "sub/", ".", ""] {
        fx.assert_refused(
            &fx.read_path(path).await,
            "the path is a directory, not a file",
        );
    }
}

#[tokio::test]
async fn a_fifo_is_not_a_regular_file() {
    let fx = Fixture::new();
    let status = std::process::Command::new("mkfifo")
        .arg(fx.root.join("pipe"))
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    // Refused without opening it (opening a FIFO would block).
    fx.assert_refused(
        &fx.read_path("pipe").await,
        "the path is not a regular file",
    );
}

#[tokio::test]
async fn a_missing_file_is_refused() {
    let fx = Fixture::new();
    fx.assert_refused(&fx.read_path("nope.txt").await, "no such file");
    fx.assert_refused(&fx.read_path("a/nope/deeper.txt").await, "no such file");
    // A file used as a directory.
    fx.assert_refused(&fx.read_path("hello.txt/x").await, "no such file");
}

#[tokio::test]
async fn a_nul_byte_late_in_a_large_file_is_binary() {
    let fx = Fixture::new();
    let mut contents = "some text\n".repeat(300_000).into_bytes();
    contents.extend_from_slice(b"and then\0");
    contents.extend_from_slice(b"more text\n");
    fx.write("late-nul.bin", contents);
    fx.assert_refused(
        &fx.read_path("late-nul.bin").await,
        "not a text file: it contains NUL bytes",
    );
    // Even when the window asked for ends long before the NUL byte.
    fx.assert_refused(
        &fx.read(json!({"path": "late-nul.bin", "limit": 1})).await,
        "not a text file: it contains NUL bytes",
    );
}

#[tokio::test]
async fn invalid_utf8_is_binary() {
    let fx = Fixture::new();
    fx.write("latin1.txt", b"caf\xe9\n");
    fx.write("truncated.txt", b"caf\xc3");
    let mut late = "ok\n".repeat(100_000).into_bytes();
    late.extend_from_slice(b"\xff\xfe\n");
    fx.write("late.txt", late);
    for path in ["latin1.txt", "truncated.txt", "late.txt"] {
        fx.assert_refused(
            &fx.read_path(path).await,
            "not a text file: it is not valid UTF-8",
        );
    }
}

// ------------------------------------------------------------- windows

#[tokio::test]
async fn an_empty_file_says_so() {
    let fx = Fixture::new();
    fx.write("empty.txt", "");
    let result = fx.read_path("empty.txt").await;
    assert_read(
        &result,
        "[The file is empty.]",
        r#"{"path":"empty.txt","firstLine":0,"lastLine":0,"totalLines":0,"truncated":false}"#,
    );
}

#[tokio::test]
async fn offset_and_limit_pick_a_window() {
    let fx = Fixture::new();
    fx.write("five.txt", "one\ntwo\nthree\nfour\nfive\n");
    let result = fx
        .read(json!({"path": "five.txt", "offset": 2, "limit": 2}))
        .await;
    assert_read(
        &result,
        "two\nthree\n\n[Showing lines 2-3 of 5. Use offset=4 to read on.]",
        r#"{"path":"five.txt","firstLine":2,"lastLine":3,"totalLines":5,"truncated":true}"#,
    );

    // Reading on to the end: no note, not truncated.
    let result = fx.read(json!({"path": "five.txt", "offset": 4})).await;
    assert_read(
        &result,
        "four\nfive",
        r#"{"path":"five.txt","firstLine":4,"lastLine":5,"totalLines":5,"truncated":false}"#,
    );

    // The last line exactly.
    let result = fx
        .read(json!({"path": "five.txt", "offset": 5, "limit": 10}))
        .await;
    assert_eq!(only_text(&result), "five");
}

#[tokio::test]
async fn an_offset_past_the_end_says_how_many_lines() {
    let fx = Fixture::new();
    fx.write("five.txt", "one\ntwo\nthree\nfour\nfive\n");
    fx.write("one.txt", "only");
    fx.write("empty.txt", "");
    fx.assert_refused(
        &fx.read(json!({"path": "five.txt", "offset": 6})).await,
        "offset 6 is past the end of the file, which has 5 lines",
    );
    fx.assert_refused(
        &fx.read(json!({"path": "one.txt", "offset": 3})).await,
        "offset 3 is past the end of the file, which has 1 line",
    );
    fx.assert_refused(
        &fx.read(json!({"path": "empty.txt", "offset": 2})).await,
        "offset 2 is past the end of the file, which has 0 lines",
    );
}

#[tokio::test]
async fn offset_and_limit_must_be_positive() {
    let fx = Fixture::new();
    for arguments in [
        json!({"path": "hello.txt", "offset": 0}),
        json!({"path": "hello.txt", "limit": 0}),
        json!({"path": "hello.txt", "offset": -1}),
    ] {
        let result = fx.read(arguments.clone()).await;
        assert!(result.is_error, "{arguments}: {result:?}");
        assert!(
            only_text(&result).starts_with("Tool read failed: "),
            "{result:?}"
        );
    }
}

#[tokio::test]
async fn long_files_stop_at_2000_lines() {
    let fx = Fixture::new();
    fx.write("long.txt", numbered_lines(5000));
    let result = fx.read_path("long.txt").await;
    assert!(!result.is_error);
    let expected = format!(
        "{}\n\n[Showing lines 1-2000 of 5000. Use offset=2001 to read on.]",
        numbered_lines(MAX_LINES).trim_end()
    );
    assert_read(
        &result,
        &expected,
        r#"{"path":"long.txt","firstLine":1,"lastLine":2000,"totalLines":5000,"truncated":true}"#,
    );

    // A limit above the cap is capped; reading on from the note's offset.
    let result = fx
        .read(json!({"path": "long.txt", "offset": 2001, "limit": 100000}))
        .await;
    let text = only_text(&result);
    assert!(text.starts_with("line 2001\n"), "{}", &text[..40]);
    assert!(
        text.ends_with(
            "line 4000\n\n[Showing lines 2001-4000 of 5000. Use offset=4001 to read on.]"
        )
    );
    assert_eq!(
        details_json(&result),
        r#"{"path":"long.txt","firstLine":2001,"lastLine":4000,"totalLines":5000,"truncated":true}"#
    );

    let result = fx.read(json!({"path": "long.txt", "offset": 4001})).await;
    assert_eq!(
        details_json(&result),
        r#"{"path":"long.txt","firstLine":4001,"lastLine":5000,"totalLines":5000,"truncated":false}"#
    );
    assert!(only_text(&result).ends_with("line 5000"));
}

/// 1000 lines of 100 bytes (plus the line end): 100 KB, over the byte cap
/// long before the line cap.
fn hundred_byte_lines() -> String {
    let mut out = String::new();
    for line in 1..=1000 {
        let label = format!("{line:04}:");
        writeln!(out, "{label}{}", "x".repeat(100 - label.len())).unwrap();
    }
    out
}

#[tokio::test]
async fn long_lines_stop_at_50_kb() {
    let fx = Fixture::new();
    fx.write("wide.txt", hundred_byte_lines());
    let result = fx.read_path("wide.txt").await;
    assert!(!result.is_error);
    let text = only_text(&result);
    let (shown, note) = text.rsplit_once("\n\n").unwrap();
    // Within the cap, and at least most of it used.
    assert!(shown.len() <= MAX_BYTES, "{}", shown.len());
    assert!(shown.len() > MAX_BYTES - 200, "{}", shown.len());
    let details = result.details.clone().unwrap();
    assert_eq!(details["totalLines"], 1000);
    assert_eq!(details["firstLine"], 1);
    assert_eq!(details["truncated"], true);
    let last = details["lastLine"].as_u64().unwrap();
    assert!(note.contains(&format!("offset={}", last + 1)), "{note}");
    let lines: Vec<&str> = shown.split('\n').collect();
    assert_eq!(lines.len() as u64, last);
    assert_eq!(lines[0], format!("0001:{}", "x".repeat(95)));
    // Every line shown is shown whole.
    assert!(lines.iter().all(|line| line.len() == 100));
}

/// The exact answer for the same file: 506 whole lines fit in 50 KB (506
/// lines of 100 bytes and 505 line ends: 51,105 bytes); line 507 does not.
#[tokio::test]
async fn long_lines_stop_before_the_line_that_does_not_fit() {
    let fx = Fixture::new();
    fx.write("wide.txt", hundred_byte_lines());
    let result = fx.read_path("wide.txt").await;
    let text = only_text(&result);
    assert!(
        text.ends_with("\n\n[Showing lines 1-506 of 1000. Use offset=507 to read on.]"),
        "{}",
        &text[text.len() - 200..]
    );
    assert_eq!(
        details_json(&result),
        r#"{"path":"wide.txt","firstLine":1,"lastLine":506,"totalLines":1000,"truncated":true}"#
    );
    let shown = text.rsplit_once("\n\n").unwrap().0;
    assert!(shown.split('\n').all(|line| line.len() == 100));
}

#[tokio::test]
async fn a_line_over_50_kb_is_cut_with_a_note() {
    let fx = Fixture::new();
    let long = "y".repeat(60_000);
    fx.write("huge-line.txt", format!("{long}\nsecond\n"));
    let result = fx.read_path("huge-line.txt").await;
    assert_read(
        &result,
        &format!(
            "{}\n\n[Line 1 is longer than 50 KB and was cut there; the rest of it cannot be shown. Use offset=2 to read on.]",
            "y".repeat(MAX_BYTES)
        ),
        r#"{"path":"huge-line.txt","firstLine":1,"lastLine":1,"totalLines":2,"truncated":true}"#,
    );

    // The note's offset reads on.
    let result = fx.read(json!({"path": "huge-line.txt", "offset": 2})).await;
    assert_eq!(only_text(&result), "second");

    // The only line: nothing to read on to.
    fx.write("one-huge-line.txt", &long);
    let result = fx.read_path("one-huge-line.txt").await;
    assert_read(
        &result,
        &format!(
            "{}\n\n[Line 1 is longer than 50 KB and was cut there; the rest of it cannot be shown.]",
            "y".repeat(MAX_BYTES)
        ),
        r#"{"path":"one-huge-line.txt","firstLine":1,"lastLine":1,"totalLines":1,"truncated":true}"#,
    );
}

#[tokio::test]
async fn crlf_line_ends_become_lf() {
    let fx = Fixture::new();
    fx.write("dos.txt", "one\r\ntwo\r\nthree\r\n");
    let result = fx.read_path("dos.txt").await;
    assert_read(
        &result,
        "one\ntwo\nthree",
        r#"{"path":"dos.txt","firstLine":1,"lastLine":3,"totalLines":3,"truncated":false}"#,
    );
    let result = fx
        .read(json!({"path": "dos.txt", "offset": 2, "limit": 1}))
        .await;
    assert_eq!(
        only_text(&result),
        "two\n\n[Showing lines 2-2 of 3. Use offset=3 to read on.]"
    );
}

#[tokio::test]
async fn a_cancelled_read_of_a_large_file_is_a_paired_error() {
    let fx = Fixture::new();
    fx.write("big.txt", "0123456789abcdef\n".repeat(200_000));
    let signal = CancellationToken::new();
    signal.cancel();
    let result = fx
        .read_with(
            json!({"path": "big.txt"}),
            RunOptions::default().with_signal(signal),
        )
        .await;
    fx.assert_refused(&result, "cancelled");

    // Not cancelled: the same file reads.
    let result = fx
        .read_with(
            json!({"path": "big.txt", "limit": 1}),
            RunOptions::default().with_signal(CancellationToken::new()),
        )
        .await;
    assert!(!result.is_error);
    assert_eq!(
        details_json(&result),
        r#"{"path":"big.txt","firstLine":1,"lastLine":1,"totalLines":200000,"truncated":true}"#
    );
}

// -------------------------------------------------------------- images

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x01\0\0\0\x01\x08\x06\0\0\0";
const JPEG: &[u8] = b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0\xff\xd9";
const GIF87: &[u8] = b"GIF87a\x01\0\x01\0\x80\0\0\0\0\0\xff\xff\xff;";
const GIF89: &[u8] = b"GIF89a\x01\0\x01\0\x80\0\0\0\0\0\xff\xff\xff;";
const WEBP: &[u8] =
    b"RIFF\x1a\0\0\0WEBPVP8L\x0d\0\0\0\x2f\0\0\0\x10\x07\x10\x11\x11\x88\x88\xfe\x07\0";

/// A successful read of an image: pi's note, then the image itself, and
/// details with its type and size.
fn assert_image(result: &ToolResultMessage, path: &str, bytes: &[u8], mime_type: &str) {
    assert!(!result.is_error, "{result:?}");
    assert_eq!(
        result.content,
        vec![
            Content::text(format!("Read image file [{mime_type}]")),
            Content::image(bytes, mime_type)
        ]
    );
    assert_eq!(
        details_json(result),
        format!(
            r#"{{"path":"{path}","mimeType":"{mime_type}","bytes":{}}}"#,
            bytes.len()
        )
    );
}

#[tokio::test]
async fn the_four_image_formats_are_sent_as_images() {
    let fx = Fixture::new();
    for (name, bytes, mime_type) in [
        ("pixel.png", PNG, "image/png"),
        ("pixel.jpg", JPEG, "image/jpeg"),
        ("old.gif", GIF87, "image/gif"),
        ("pixel.gif", GIF89, "image/gif"),
        ("pixel.webp", WEBP, "image/webp"),
    ] {
        fx.write(name, bytes);
        assert_image(&fx.read_path(name).await, name, bytes, mime_type);
    }
    // The smallest prefix that is recognized, and nothing more.
    fx.write("three.jpg", b"\xff\xd8\xff");
    assert_image(
        &fx.read_path("three.jpg").await,
        "three.jpg",
        b"\xff\xd8\xff",
        "image/jpeg",
    );
}

#[tokio::test]
async fn the_first_bytes_decide_not_the_name() {
    let fx = Fixture::new();
    fx.write("really-text.png", "just text\n");
    assert_read(
        &fx.read_path("really-text.png").await,
        "just text",
        r#"{"path":"really-text.png","firstLine":1,"lastLine":1,"totalLines":1,"truncated":false}"#,
    );
    fx.write("really-png.txt", PNG);
    assert_image(
        &fx.read_path("really-png.txt").await,
        "really-png.txt",
        PNG,
        "image/png",
    );
    fx.write("no-extension", GIF89);
    assert_image(
        &fx.read_path("no-extension").await,
        "no-extension",
        GIF89,
        "image/gif",
    );
}

#[tokio::test]
async fn text_that_starts_like_an_image_header_stays_text() {
    let fx = Fixture::new();
    // Short of a whole signature, or a RIFF file that is not WebP.
    for (name, contents) in [
        ("gif.txt", "GIF8 is how a GIF starts\n"),
        ("riff.txt", "RIFF....WAVE is a sound\n"),
        ("riffweb.txt", "RIFF1234WEB\n"),
        ("short.txt", "GIF"),
    ] {
        fx.write(name, contents);
        assert_shows(&fx.read_path(name).await, contents.trim_end());
    }
}

#[tokio::test]
async fn offset_and_limit_do_not_apply_to_images() {
    let fx = Fixture::new();
    fx.write("pixel.png", PNG);
    let result = fx
        .read(json!({"path": "pixel.png", "offset": 5, "limit": 1}))
        .await;
    assert_image(&result, "pixel.png", PNG, "image/png");
}

#[tokio::test]
async fn an_image_through_a_symlink_names_the_file_it_resolves_to() {
    let fx = Fixture::new();
    fx.write("sub/pixel.webp", WEBP);
    fx.link("sub/pixel.webp", "picture.txt");
    assert_image(
        &fx.read_path("picture.txt").await,
        "sub/pixel.webp",
        WEBP,
        "image/webp",
    );
}

#[tokio::test]
async fn an_image_over_the_cap_is_refused() {
    let fx = Fixture::new();
    let cap = usize::try_from(MAX_IMAGE_BYTES).unwrap();
    let mut at_cap = PNG.to_vec();
    at_cap.resize(cap, 0);
    fx.write("at-cap.png", &at_cap);
    assert_image(
        &fx.read_path("at-cap.png").await,
        "at-cap.png",
        &at_cap,
        "image/png",
    );
    // Its base64 is exactly 5 MiB, Anthropic's limit.
    let result = fx.read_path("at-cap.png").await;
    let wire = serde_json::to_value(&result.content[1]).unwrap();
    assert_eq!(wire["data"].as_str().unwrap().len(), 5 * 1024 * 1024);

    let mut over = at_cap;
    over.push(0);
    fx.write("over.png", &over);
    fx.assert_refused(
        &fx.read_path("over.png").await,
        "the image is 3932161 bytes, over the 3932160-byte cap",
    );
    // Past the cap, however large; only its size is looked at.
    std::fs::File::create(fx.root.join("huge.gif"))
        .and_then(|file| {
            use std::io::Write as _;
            let mut file = file;
            file.write_all(GIF89)?;
            file.set_len(10 * 1024 * 1024 * 1024)
        })
        .unwrap();
    fx.assert_refused(
        &fx.read_path("huge.gif").await,
        "the image is 10737418240 bytes, over the 3932160-byte cap",
    );
}

#[tokio::test]
async fn a_cancelled_read_of_an_image_is_a_paired_error() {
    let fx = Fixture::new();
    fx.write("pixel.png", PNG);
    let signal = CancellationToken::new();
    signal.cancel();
    let result = fx
        .read_with(
            json!({"path": "pixel.png"}),
            RunOptions::default().with_signal(signal),
        )
        .await;
    fx.assert_refused(&result, "cancelled");
}

#[test]
fn the_root_must_be_an_existing_directory() {
    let fx = Fixture::new();
    assert!(Files::new(fx.root.join("nope")).is_err());
    assert!(Files::new(fx.root.join("hello.txt")).is_err());
    let files = Files::new(fx.root.join("a/..")).unwrap();
    assert_eq!(files.root(), fx.root);
}
