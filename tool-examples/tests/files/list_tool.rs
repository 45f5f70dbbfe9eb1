//! The `list` tool through the executor, on a real temp directory with
//! real files and real symlinks: the same sandbox as `read`, so the same
//! escapes are refused with the same paired errors, saying nothing about
//! what lies outside the root.

use crate::support::files::{OUTSIDE_MESSAGE, SECRET, Tree};
use serde_json::{Value, json};
use std::ops::Deref;
use std::os::unix::fs::symlink;
use tool_core::{
    CancellationToken, Content, RunOptions, ToolCall, ToolParams, ToolResultMessage,
    execute_tool_call, params::ParamValue,
};
use tool_examples::list::{Entry, EntryKind, Listing, MAX_ENTRIES, list_dir};
use tool_examples::sandbox::Sandbox;

/// The [`Tree`], with `list`'s calls and checks.
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

    async fn call_with(&self, arguments: Value, ctx: RunOptions) -> ToolResultMessage {
        let call = ToolCall::new("call-l", "list", arguments);
        let result = execute_tool_call(&call, &self.tools, ctx).await;
        assert_eq!(result.tool_call_id, "call-l");
        assert_eq!(result.tool_name, "list");
        result
    }

    /// The listing, read back from the result's details (which the model
    /// also gets as text), or the failed result.
    async fn call(&self, arguments: Value) -> Result<Listing, ToolResultMessage> {
        let result = self.call_with(arguments, RunOptions::default()).await;
        if result.is_error {
            return Err(result);
        }
        let details = result.details.as_ref().expect("details");
        assert_eq!(result.content, vec![Content::text(details.to_string())]);
        // Every listing a test produces is valid against the output schema
        // the tool advertises, by a real validator, and parses back.
        let schema = self
            .tools
            .get("list")
            .unwrap()
            .definition()
            .output_schema
            .clone();
        let validator = jsonschema::draft202012::new(&schema.expect("list has an output schema"))
            .expect("the output schema compiles");
        let problems: Vec<String> = validator
            .iter_errors(details)
            .map(|e| e.to_string())
            .collect();
        assert!(problems.is_empty(), "{details}: {problems:?}");
        Ok(Listing::parse(details).expect("the details parse back"))
    }

    async fn list(&self, path: &str) -> Result<Listing, ToolResultMessage> {
        self.call(json!({ "path": path })).await
    }

    /// Asserts a paired error with exactly `message`, leaking nothing of
    /// the outside directory.
    fn assert_refused(&self, result: Result<Listing, ToolResultMessage>, message: &str) {
        let result = match result {
            Ok(listing) => panic!("expected an error, got {listing:?}"),
            Err(result) => result,
        };
        assert_eq!(
            result.content,
            vec![Content::text(format!("Tool list failed: {message}"))]
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
    }

    fn assert_outside(&self, result: Result<Listing, ToolResultMessage>) {
        self.assert_refused(result, OUTSIDE_MESSAGE);
    }
}

fn entry(name: &str, kind: EntryKind, size: u64) -> Entry {
    Entry {
        name: name.to_owned(),
        kind,
        size,
    }
}

fn names(listing: &Listing) -> Vec<&str> {
    listing
        .entries
        .iter()
        .map(|entry| entry.name.as_str())
        .collect()
}

// ---------------------------------------------------------------- entries

#[tokio::test]
async fn the_root_is_listed_by_default() {
    let fx = Fixture::new();
    let expected = Listing {
        path: ".".into(),
        entries: vec![
            entry("a", EntryKind::Directory, 0),
            entry("hello.txt", EntryKind::File, 12),
            entry("sub", EntryKind::Directory, 0),
        ],
        truncated: false,
    };
    assert_eq!(fx.call(json!({})).await.unwrap(), expected);
    assert_eq!(fx.call(json!({"path": null})).await.unwrap(), expected);
    for path in [".", "", "./", "a/..", fx.root.to_str().unwrap()] {
        assert_eq!(fx.list(path).await.unwrap(), expected, "{path}");
    }
}

#[tokio::test]
async fn a_subdirectory_is_listed_with_its_path() {
    let fx = Fixture::new();
    fx.write("sub/one.txt", "1");
    std::fs::create_dir(fx.root.join("sub/deeper")).unwrap();
    let expected = Listing {
        path: "sub".into(),
        entries: vec![
            entry("deeper", EntryKind::Directory, 0),
            entry("one.txt", EntryKind::File, 1),
        ],
        truncated: false,
    };
    assert_eq!(fx.list("sub").await.unwrap(), expected);
    assert_eq!(fx.list("sub/").await.unwrap(), expected);
    assert_eq!(fx.list("a/../sub").await.unwrap(), expected);
    assert_eq!(
        fx.list(fx.root.join("sub").to_str().unwrap())
            .await
            .unwrap(),
        expected
    );
    assert_eq!(fx.list("sub/deeper").await.unwrap().path, "sub/deeper");
}

#[tokio::test]
async fn an_empty_directory_has_no_entries() {
    let fx = Fixture::new();
    assert_eq!(
        fx.list("a").await.unwrap(),
        Listing {
            path: "a".into(),
            entries: vec![],
            truncated: false,
        }
    );
}

#[tokio::test]
async fn entries_are_sorted_by_name_in_byte_order() {
    let fx = Fixture::new();
    for name in ["b", "A", "a", "10", "9", ".hidden", "é", "Z"] {
        fx.write(&format!("a/{name}"), "");
    }
    assert_eq!(
        names(&fx.list("a").await.unwrap()),
        [".hidden", "10", "9", "A", "Z", "a", "b", "é"]
    );
}

#[tokio::test]
async fn symlinks_are_not_followed() {
    let fx = Fixture::new();
    // Links to the outside, to a missing file, to a file and a directory
    // inside: all just symlinks, with no size (the target's length could
    // hint at where it points).
    symlink(fx.outside.join("secret.txt"), fx.root.join("a/abs_out")).unwrap();
    symlink("../../outside/dir", fx.root.join("a/rel_out")).unwrap();
    symlink("nowhere", fx.root.join("a/dangling")).unwrap();
    symlink("../hello.txt", fx.root.join("a/to_file")).unwrap();
    symlink("../sub", fx.root.join("a/to_dir")).unwrap();
    let listing = fx.list("a").await.unwrap();
    assert_eq!(
        listing.entries,
        ["abs_out", "dangling", "rel_out", "to_dir", "to_file"].map(|name| entry(
            name,
            EntryKind::Symlink,
            0
        ))
    );
    let wire = listing.to_json().to_string();
    assert!(!wire.contains(fx.outside.to_str().unwrap()), "{wire}");
    assert!(!wire.contains("secret"), "{wire}");
}

#[tokio::test]
async fn a_fifo_is_other() {
    let fx = Fixture::new();
    let status = std::process::Command::new("mkfifo")
        .arg(fx.root.join("a/pipe"))
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    assert_eq!(
        fx.list("a").await.unwrap().entries,
        [entry("pipe", EntryKind::Other, 0)]
    );
}

#[tokio::test]
async fn at_most_max_entries_are_listed_the_first_by_name() {
    let fx = Fixture::new();
    std::fs::create_dir(fx.root.join("many")).unwrap();
    // Created in reverse, so the directory's own order is no help.
    for index in (0..MAX_ENTRIES + 5).rev() {
        fx.write(&format!("many/{index:05}"), "");
    }
    let listing = fx.list("many").await.unwrap();
    assert!(listing.truncated);
    assert_eq!(listing.entries.len(), MAX_ENTRIES);
    let expected: Vec<String> = (0..MAX_ENTRIES)
        .map(|index| format!("{index:05}"))
        .collect();
    assert_eq!(names(&listing), expected);

    // Exactly the cap: all of them, not truncated.
    for index in MAX_ENTRIES..MAX_ENTRIES + 5 {
        std::fs::remove_file(fx.root.join(format!("many/{index:05}"))).unwrap();
    }
    let listing = fx.list("many").await.unwrap();
    assert!(!listing.truncated);
    assert_eq!(listing.entries.len(), MAX_ENTRIES);
}

#[tokio::test]
async fn a_cancelled_listing_is_refused() {
    let fx = Fixture::new();
    let signal = CancellationToken::new();
    signal.cancel();
    let result = fx
        .call_with(json!({}), RunOptions::default().with_signal(signal))
        .await;
    fx.assert_refused(Err(result), "cancelled");
    // The function watches its own check.
    let sandbox = Sandbox::open(&fx.root).unwrap();
    let error = list_dir(&sandbox, None, || true).unwrap_err();
    assert_eq!(error.to_string(), "cancelled");
}

// ---------------------------------------------------------------- the JSON

#[tokio::test]
async fn the_listing_json_round_trips_and_matches_its_schema() {
    let fx = Fixture::new();
    let listing = fx.list(".").await.unwrap();
    let value = listing.to_json();
    assert_eq!(
        value,
        json!({
            "path": ".",
            "entries": [
                {"name": "a", "kind": "directory", "size": 0},
                {"name": "hello.txt", "kind": "file", "size": 12},
                {"name": "sub", "kind": "directory", "size": 0},
            ],
            "truncated": false,
        })
    );
    assert_eq!(Listing::parse(&value).unwrap(), listing);

    let schema = Listing::json_schema();
    assert_eq!(schema["required"], json!(["path", "entries", "truncated"]));
    let entry = &schema["properties"]["entries"]["items"];
    assert_eq!(
        entry["properties"]["kind"]["enum"],
        json!(["file", "directory", "symlink", "other"])
    );
    assert_eq!(entry["properties"]["size"]["type"], "integer");
    assert_eq!(
        schema["properties"]["truncated"]["description"],
        "True when the directory holds more entries than are listed"
    );
}

// ---------------------------------------------------------------- sandbox

#[tokio::test]
async fn parent_dir_at_the_root_is_outside() {
    let fx = Fixture::new();
    fx.assert_outside(fx.list("..").await);
    fx.assert_outside(fx.list("../outside").await);
    fx.assert_outside(fx.list("../outside/dir").await);
    fx.assert_outside(fx.list("../x").await);
}

#[tokio::test]
async fn climbing_out_through_a_subdirectory_is_outside() {
    let fx = Fixture::new();
    fx.assert_outside(fx.list("a/../..").await);
    fx.assert_outside(fx.list("a/../../outside").await);
    fx.assert_outside(fx.list("./sub/../../outside/dir").await);
}

#[tokio::test]
async fn an_absolute_path_outside_is_outside() {
    let fx = Fixture::new();
    fx.assert_outside(fx.list(fx.outside.to_str().unwrap()).await);
    fx.assert_outside(fx.list(fx.outside.join("dir").to_str().unwrap()).await);
    fx.assert_outside(fx.list("/").await);
    fx.assert_outside(fx.list("/etc").await);
    fx.assert_outside(fx.list("/nonexistent-dir").await);
    // Lexically back out of the root.
    fx.assert_outside(fx.list(&format!("{}/../outside", fx.root.display())).await);
}

#[tokio::test]
async fn a_symlink_to_a_directory_outside_is_outside() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("dir"), "outlink");
    fx.link("../outside/dir", "rel_outlink");
    fx.link(&fx.outside, "abs_outside");
    for path in ["outlink", "rel_outlink", "abs_outside", "outlink/."] {
        fx.assert_outside(fx.list(path).await);
    }
}

#[tokio::test]
async fn a_symlink_to_a_file_outside_is_outside() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("secret.txt"), "abs_file");
    fx.link("../outside/secret.txt", "rel_file");
    fx.assert_outside(fx.list("abs_file").await);
    fx.assert_outside(fx.list("rel_file").await);
}

#[tokio::test]
async fn a_relative_symlink_climbing_out_is_outside() {
    let fx = Fixture::new();
    symlink("../../outside", fx.root.join("sub").join("up")).unwrap();
    let etc = format!("{}etc", "../".repeat(fx.root.components().count() + 2));
    symlink(&etc, fx.root.join("sub").join("etc")).unwrap();
    fx.assert_outside(fx.list("sub/up").await);
    fx.assert_outside(fx.list("sub/up/dir").await);
    fx.assert_outside(fx.list("sub/etc").await);
    fx.assert_outside(fx.list("sub/etc/does-not-exist").await);
}

#[tokio::test]
async fn a_dangling_symlink_outside_is_outside_not_missing() {
    let fx = Fixture::new();
    fx.link(fx.outside.join("no-such-dir"), "abs_dangling");
    fx.link("../outside/no-such-dir", "rel_dangling");
    fx.link("/nonexistent-dir/missing", "abs_nowhere");
    for path in ["abs_dangling", "rel_dangling", "abs_nowhere"] {
        fx.assert_outside(fx.list(path).await);
    }
}

#[tokio::test]
async fn a_symlink_to_a_directory_inside_lists_the_directory_it_resolves_to() {
    let fx = Fixture::new();
    fx.write("sub/real.txt", "real\n");
    fx.link("sub", "rel_link");
    fx.link(fx.root.join("sub"), "abs_link");
    symlink("..", fx.root.join("sub").join("up")).unwrap();
    for path in ["rel_link", "abs_link", "sub/up/sub"] {
        let listing = fx.list(path).await.unwrap();
        assert_eq!(listing.path, "sub", "{path}");
        assert_eq!(names(&listing), ["real.txt", "up"], "{path}");
    }
    assert_eq!(fx.list("sub/up").await.unwrap().path, ".");
}

#[tokio::test]
async fn a_symlink_to_the_root_itself_lists_the_root() {
    let fx = Fixture::new();
    fx.link(&fx.root, "abs_root");
    for path in ["abs_root", "abs_root/abs_root", "abs_root/sub/.."] {
        let listing = fx.list(path).await.unwrap();
        assert_eq!(listing.path, ".", "{path}");
        assert_eq!(names(&listing), ["a", "abs_root", "hello.txt", "sub"]);
    }
    fx.assert_outside(fx.list("abs_root/..").await);
}

#[tokio::test]
async fn a_symlink_loop_is_refused() {
    let fx = Fixture::new();
    fx.link("b", "a_loop");
    fx.link("a_loop", "b");
    fx.link("self", "self");
    for path in ["a_loop", "b", "self", "a_loop/x"] {
        fx.assert_refused(fx.list(path).await, "too many levels of symbolic links");
    }
}

// ------------------------------------------------------- other refusals

#[tokio::test]
async fn a_nul_byte_in_the_path_is_refused() {
    let fx = Fixture::new();
    fx.assert_refused(fx.list("sub\0").await, "the path contains a NUL byte");
    fx.assert_refused(
        fx.list("\0../outside").await,
        "the path contains a NUL byte",
    );
}

#[tokio::test]
async fn a_missing_directory_is_refused() {
    let fx = Fixture::new();
    fx.assert_refused(fx.list("nope").await, "no such directory");
    fx.assert_refused(fx.list("a/nope/deeper").await, "no such directory");
    // A file used as a directory.
    fx.assert_refused(fx.list("hello.txt/x").await, "no such directory");
    // A dangling symlink inside.
    fx.link("nothing-here", "dangling");
    fx.assert_refused(fx.list("dangling").await, "no such directory");
}

#[tokio::test]
async fn a_file_is_not_a_directory() {
    let fx = Fixture::new();
    fx.assert_refused(fx.list("hello.txt").await, "the path is not a directory");
    fx.link("hello.txt", "file_link");
    fx.assert_refused(fx.list("file_link").await, "the path is not a directory");
    let status = std::process::Command::new("mkfifo")
        .arg(fx.root.join("pipe"))
        .status()
        .expect("mkfifo runs");
    assert!(status.success());
    fx.assert_refused(fx.list("pipe").await, "the path is not a directory");
}

// ------------------------------------------------------------ definitions

#[tokio::test]
async fn the_definitions_show_read_and_list_read_only() {
    let fx = Fixture::new();
    let names: Vec<_> = fx.tools.iter().map(|tool| tool.name()).collect();
    assert_eq!(names, ["list", "read", "write"]);

    let list = fx.tools.get("list").unwrap().definition();
    assert!(
        list.description
            .starts_with("List a directory under the root directory: ")
    );
    assert_eq!(list.annotations.read_only, Some(true));
    assert_eq!(
        list.parameters["properties"]["path"]["description"],
        "Path of the directory to list, relative to the root directory (default: the root)"
    );
    assert_eq!(list.parameters.get("required"), None);
    assert_eq!(list.output_schema, Some(Listing::json_schema()));

    let read = fx.tools.get("read").unwrap().definition();
    assert!(
        read.description
            .starts_with("Read a file under the root directory. ")
    );
    assert_eq!(read.annotations.read_only, Some(true));
    assert_eq!(read.parameters["required"], json!(["path"]));
    assert_eq!(
        read.parameters["properties"]["offset"]["description"],
        "The first line to read, counting from 1 (default: 1)"
    );
    assert_eq!(read.output_schema, None);
}
