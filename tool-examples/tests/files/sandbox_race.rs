//! The `Files` sandbox against another process that can write under the
//! root: while `read` and `list` answer for `sw/secret.txt`, `sw` and
//! `swf`, a swapper thread exchanges, as fast as it can, `sw` (a directory
//! inside the root) with a symlink to a directory outside it, and `swf` (a
//! file inside) with a symlink to a file outside. Whatever the timing, no
//! answer may carry anything from outside the root. The same swaps run
//! while `write` writes `sw/secret.txt`, `sw/new.txt` and `swf`: no byte,
//! inode or name outside the root may change.
//!
//! The exchange is one `renameat2(RENAME_EXCHANGE)`, so each name always
//! names one of its two versions. Nothing here depends on how fast the
//! machine is: the test asserts on what the answers hold, never on time.

#![cfg(target_os = "linux")]

use crate::support::files::{SECRET, approving, snapshot};
use rustix::fs::{CWD, RenameFlags, renameat_with};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::thread;
use tool_core::{RunOptions, ToolCall, ToolRegistry, ToolResultMessage, execute_tool_call};
use tool_examples::files::Files;

const INSIDE: &str = "inside the root";
/// A name only the outside directory holds, so a listing of it shows.
const OUTSIDE_ONLY: &str = "only-outside.txt";

/// Rounds of the three calls: 12,000 calls, a few seconds on two cores. A
/// sandbox that checks a path and then opens it by name leaks in every run
/// of this many (70 to 1,000 answers, of all three kinds).
const ROUNDS: usize = 4000;
/// Calls in flight at once.
const BATCH: usize = 64;

/// Exchanges each pair of paths, over and over, until told to stop.
struct Swapper {
    stop: Arc<AtomicBool>,
    thread: thread::JoinHandle<u64>,
}

impl Swapper {
    fn start(pairs: Vec<(PathBuf, PathBuf)>) -> Swapper {
        let stop = Arc::new(AtomicBool::new(false));
        let flag = Arc::clone(&stop);
        let thread = thread::spawn(move || {
            let mut swaps = 0;
            while !flag.load(Ordering::Relaxed) {
                for (a, b) in &pairs {
                    renameat_with(CWD, a, CWD, b, RenameFlags::EXCHANGE).expect("exchange");
                    swaps += 1;
                }
            }
            swaps
        });
        Swapper { stop, thread }
    }

    /// Stops it; returns how many exchanges it made.
    fn stop(self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.join().unwrap()
    }
}

/// The three calls each round makes, all of names the swapper exchanges.
const KINDS: [(&str, &str); 3] = [
    ("read", r#"{"path": "sw/secret.txt"}"#),
    ("list", r#"{"path": "sw"}"#),
    ("read", r#"{"path": "swf"}"#),
];

/// Why a call may be refused while the swapper runs: the name is a
/// symlink leading out, or it changed between each look and open until the
/// walk gave up.
const REFUSALS: [&str; 2] = [
    ": the path is outside the root directory",
    ": too many levels of symbolic links",
];

/// What the answers held.
#[derive(Debug, Default)]
struct Tally {
    calls: usize,
    /// Answers that showed the inside version, exactly.
    inside: usize,
    /// Refusals: the outside version, or a name that kept changing as it
    /// was looked up.
    refused: usize,
    /// Answers that are none of these.
    unexpected: Vec<String>,
    /// Answers that carried anything from outside the root, by kind.
    leaks: [usize; KINDS.len()],
    /// The first of them.
    first_leak: Option<String>,
}

impl Tally {
    fn count(&mut self, kind: usize, result: &ToolResultMessage) {
        self.calls += 1;
        let wire = serde_json::to_string(result).unwrap();
        if wire.contains(SECRET) || wire.contains(OUTSIDE_ONLY) || wire.contains("outside/") {
            self.leaks[kind] += 1;
            self.first_leak.get_or_insert(wire);
        } else if result.is_error {
            let refusal = result.content[0].as_text().unwrap_or_default();
            if REFUSALS.iter().any(|why| refusal.ends_with(why)) {
                self.refused += 1;
            } else {
                self.unexpected.push(wire);
            }
        } else if shows_inside(kind, result) {
            self.inside += 1;
        } else {
            self.unexpected.push(wire);
        }
    }
}

/// Whether a successful answer shows the inside version: the file's text,
/// or the directory's one entry, measured.
fn shows_inside(kind: usize, result: &ToolResultMessage) -> bool {
    if KINDS[kind].0 == "list" {
        let entries = &result.details.as_ref().unwrap()["entries"];
        *entries == json!([{"name": "secret.txt", "kind": "file", "size": INSIDE.len()}])
    } else {
        result.content[0].as_text() == Some(INSIDE)
    }
}

fn setup(base: &Path) -> (PathBuf, Vec<(PathBuf, PathBuf)>) {
    let root = base.join("root");
    let outside = base.join("outside");
    std::fs::create_dir_all(root.join("sw")).unwrap();
    std::fs::create_dir_all(&outside).unwrap();
    std::fs::write(root.join("sw/secret.txt"), INSIDE).unwrap();
    std::fs::write(root.join("swf"), INSIDE).unwrap();
    std::fs::write(outside.join("secret.txt"), SECRET).unwrap();
    std::fs::write(outside.join(OUTSIDE_ONLY), SECRET).unwrap();
    // The other halves of the swaps, under names no call asks for.
    std::os::unix::fs::symlink(&outside, root.join(".dir-link")).unwrap();
    std::os::unix::fs::symlink(outside.join("secret.txt"), root.join(".file-link")).unwrap();
    let pairs = vec![
        (root.join("sw"), root.join(".dir-link")),
        (root.join("swf"), root.join(".file-link")),
    ];
    (root, pairs)
}

/// Makes round `round`'s calls at once.
async fn answer(tools: &ToolRegistry, round: usize) -> Vec<ToolResultMessage> {
    let calls = KINDS.iter().enumerate().map(|(kind, (name, arguments))| {
        let call = ToolCall::new(
            format!("{round}-{kind}"),
            *name,
            serde_json::from_str(arguments).unwrap(),
        );
        async move { execute_tool_call(&call, tools, RunOptions::default()).await }
    });
    futures_util::future::join_all(calls).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swapping_a_directory_for_a_symlink_outside_never_leaks() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let (root, pairs) = setup(&base);
    let mut tools = ToolRegistry::new();
    tools.register_all(Files::new(&root).unwrap()).unwrap();
    let tools = Arc::new(tools);

    let swapper = Swapper::start(pairs);
    let mut tally = Tally::default();
    for start in (0..ROUNDS).step_by(BATCH) {
        let batch: Vec<_> = (start..(start + BATCH).min(ROUNDS))
            .map(|round| {
                let tools = Arc::clone(&tools);
                tokio::spawn(async move { answer(&tools, round).await })
            })
            .collect();
        for answers in batch {
            for (kind, result) in answers.await.unwrap().iter().enumerate() {
                tally.count(kind, result);
            }
        }
    }
    let swaps = swapper.stop();

    let leaks: usize = tally.leaks.iter().sum();
    eprintln!(
        "{} calls during {swaps} swaps: {} inside, {} refused, {leaks} leaked \
         (read sw/secret.txt: {}, list sw: {}, read swf: {})",
        tally.calls, tally.inside, tally.refused, tally.leaks[0], tally.leaks[1], tally.leaks[2],
    );
    assert_eq!(
        leaks,
        0,
        "answers carried what is outside the root, such as {}",
        tally.first_leak.unwrap_or_default()
    );
    assert!(tally.unexpected.is_empty(), "{:?}", tally.unexpected);
    // The race was run: both versions were seen while the swapper ran.
    assert!(swaps > 0);
    assert!(tally.inside > 0 && tally.refused > 0, "{tally:?}");
}

/// Rounds of the three writes: 3,000 writes, each flushed to disk.
const WRITE_ROUNDS: usize = 1000;

/// The writes each round makes: a file that exists on both sides, one
/// that exists on neither (so one created outside would show), and the
/// swapped file.
const WRITES: [&str; 3] = ["sw/secret.txt", "sw/new.txt", "swf"];

/// Makes round `round`'s writes at once, approved.
async fn write_round(tools: &ToolRegistry, round: usize) -> Vec<ToolResultMessage> {
    let calls = WRITES.iter().enumerate().map(|(kind, path)| {
        let call = ToolCall::new(
            format!("{round}-{kind}"),
            "write",
            json!({"path": path, "content": format!("written in round {round}")}),
        );
        async move { execute_tool_call(&call, tools, approving()).await }
    });
    futures_util::future::join_all(calls).await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn swapping_a_directory_for_a_symlink_outside_never_writes_outside() {
    let dir = tempfile::tempdir().unwrap();
    let base = dir.path().canonicalize().unwrap();
    let (root, pairs) = setup(&base);
    let mut tools = ToolRegistry::new();
    tools.register_all(Files::new(&root).unwrap()).unwrap();
    let tools = Arc::new(tools);
    let outside_before = snapshot(&base, &root);

    let swapper = Swapper::start(pairs);
    let (mut written, mut refused) = (0usize, 0usize);
    let mut unexpected = Vec::new();
    for start in (0..WRITE_ROUNDS).step_by(BATCH) {
        let batch: Vec<_> = (start..(start + BATCH).min(WRITE_ROUNDS))
            .map(|round| {
                let tools = Arc::clone(&tools);
                tokio::spawn(async move { write_round(&tools, round).await })
            })
            .collect();
        for answers in batch {
            for result in answers.await.unwrap() {
                let text = result.content[0].as_text().unwrap_or_default();
                if !result.is_error && (text.starts_with("wrote ") || text.starts_with("created "))
                {
                    written += 1;
                } else if result.is_error && REFUSALS.iter().any(|why| text.ends_with(why)) {
                    refused += 1;
                } else {
                    unexpected.push(serde_json::to_string(&result).unwrap());
                }
            }
        }
    }
    let swaps = swapper.stop();

    eprintln!(
        "{} writes during {swaps} swaps: {written} written, {refused} refused",
        WRITE_ROUNDS * WRITES.len()
    );
    let outside_after = snapshot(&base, &root);
    let changed: Vec<_> = outside_before
        .keys()
        .chain(outside_after.keys())
        .filter(|path| outside_before.get(*path) != outside_after.get(*path))
        .collect();
    assert!(changed.is_empty(), "changed outside the root: {changed:?}");
    assert!(unexpected.is_empty(), "{unexpected:?}");
    // The race was run: writes went through and were refused meanwhile.
    assert!(swaps > 0);
    assert!(
        written > 0 && refused > 0,
        "{written} written, {refused} refused"
    );
    // What was written is inside, in the directory `sw` named at the start
    // (under whichever of its two names it has now).
    let inside = [root.join("sw"), root.join(".dir-link")]
        .into_iter()
        .find(|path| std::fs::symlink_metadata(path).unwrap().is_dir())
        .unwrap();
    let secret = std::fs::read_to_string(inside.join("secret.txt")).unwrap();
    assert!(secret.starts_with("written in round "), "{secret}");
    // No temporary file is left anywhere.
    for dir in [&root, &inside] {
        for entry in std::fs::read_dir(dir).unwrap() {
            let name = entry.unwrap().file_name();
            assert!(!name.to_string_lossy().starts_with(".write-"), "{name:?}");
        }
    }
}
