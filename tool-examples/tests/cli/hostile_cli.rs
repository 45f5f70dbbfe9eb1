//! `tool-examples call` fed hostile JSON lines, as a child process: JSON
//! nested 100,000 deep, a 50 MB string (a line over the 16 MiB cap), a
//! million-element array, `1e400`, invalid UTF-8, a 20 MB line without an
//! id. Each is answered in input order (paired with its call whenever the
//! id can be read), a normal call after them is still answered, the process
//! exits 0, and its peak memory stays bounded.

use crate::support;
use serde_json::Value;
use std::io::Write;
use std::process::{Child, ChildStdin, Stdio};
use std::sync::mpsc;
use std::thread;
use std::time::Duration;
use tool_examples::call::MAX_LINE_BYTES;

/// Far more than any run needs: only there so a hang fails the test.
const HANG: Duration = Duration::from_secs(60);

const DEEP: usize = 100_000;
const MIB: usize = 1024 * 1024;

/// Generous: the input is about 100 MB, and no more than 16 MiB of a line
/// nor 64 MiB of lines in flight may be held at once.
const PEAK_MEMORY_LIMIT_KB: u64 = 600 * 1024;

/// The binary running `call`, its stdin written from a thread and its
/// stdout read line by line from another.
struct Calls {
    child: Child,
    stdin: Option<mpsc::Sender<Vec<u8>>>,
    writer: Option<thread::JoinHandle<()>>,
    answers: mpsc::Receiver<String>,
    _dir: tempfile::TempDir,
}

impl Calls {
    fn start(args: &[&str]) -> Calls {
        let dir = tempfile::tempdir().unwrap();
        let args = [&["call"], args].concat();
        let mut child = support::spawn(&args, dir.path(), Stdio::inherit());
        let (stdin, chunks) = mpsc::channel::<Vec<u8>>();
        let mut pipe: ChildStdin = child.stdin.take().unwrap();
        // Dropping the sender closes stdin, once everything sent is written.
        let writer = thread::spawn(move || {
            for chunk in chunks {
                if pipe.write_all(&chunk).is_err() {
                    return;
                }
            }
        });
        let (answers, _reader) = support::lines(child.stdout.take().unwrap());
        Calls {
            child,
            stdin: Some(stdin),
            writer: Some(writer),
            answers,
            _dir: dir,
        }
    }

    fn send(&self, line: Vec<u8>) {
        self.stdin.as_ref().unwrap().send(line).unwrap();
    }

    /// The next answer line, parsed.
    fn answer(&self) -> Value {
        let line = self
            .answers
            .recv_timeout(HANG)
            .expect("an answer line within the hang ceiling");
        assert!(line.ends_with('\n'), "a whole line");
        serde_json::from_str(&line)
            .unwrap_or_else(|error| panic!("the answer is JSON ({error}): {:.300}", line))
    }

    /// The peak resident memory so far, in KiB (the process must still run).
    fn peak_memory_kb(&self) -> u64 {
        let status = std::fs::read_to_string(format!("/proc/{}/status", self.child.id()))
            .expect("/proc/<pid>/status of the running binary");
        status
            .lines()
            .find_map(|line| line.strip_prefix("VmHWM:"))
            .and_then(|value| value.trim().strip_suffix("kB"))
            .and_then(|kb| kb.trim().parse().ok())
            .expect("a VmHWM line")
    }

    /// Closes stdin and waits for the exit; no answer may be left over.
    fn finish(mut self) -> std::process::ExitStatus {
        drop(self.stdin.take());
        self.writer.take().unwrap().join().unwrap();
        let status = support::wait(&mut self.child, HANG);
        let extra = self.answers.recv_timeout(Duration::from_secs(5));
        assert!(extra.is_err(), "an answer too many: {extra:.300?}");
        status
    }
}

fn line(text: &str) -> Vec<u8> {
    format!("{text}\n").into_bytes()
}

fn deep_array() -> String {
    format!("{}{}", "[".repeat(DEEP), "]".repeat(DEEP))
}

/// A paired failure: the call's id and name, and its message.
fn assert_paired_failure(answer: &Value, id: &str, name: &str, message_start: &str) {
    assert_eq!(answer["role"], "toolResult", "{answer:.300}");
    assert_eq!(answer["toolCallId"], id, "{answer:.300}");
    assert_eq!(answer["toolName"], name, "{answer:.300}");
    assert_eq!(answer["isError"], true, "{answer:.300}");
    let text = answer["content"][0]["text"].as_str().unwrap();
    let expected = format!("Tool {name} failed: {message_start}");
    assert!(
        text.starts_with(&expected),
        "{text:.300} (expected {expected})"
    );
    assert!(text.len() < 4096, "a short message: {} bytes", text.len());
}

fn assert_text(answer: &Value, id: &str, text: &str) {
    assert_eq!(answer["toolCallId"], id, "{answer:.300}");
    assert_eq!(answer["isError"], false, "{answer:.300}");
    assert!(answer["content"][0]["text"] == text, "{answer:.300}");
}

/// Runs the hostile lines through `call` with `args`; `under_cap` adds a
/// 15 MB string just under the line cap, echoed whole (it costs a couple of
/// seconds in a debug build, so only one run has it).
fn hostile_run(args: &[&str], under_cap: bool) {
    let calls = Calls::start(args);
    let big = "x".repeat(50 * MIB);
    assert!(big.len() > MAX_LINE_BYTES);
    let under_cap = under_cap.then(|| "u".repeat(15 * MIB));
    let million = vec!["0"; 1_000_000].join(",");

    // 1. Nested 100,000 deep, the id first.
    calls.send(line(&format!(
        r#"{{"id":"deep","name":"echo","arguments":{{"value":{}}}}}"#,
        deep_array()
    )));
    // 2. Nested 100,000 deep, the id after the nesting.
    calls.send(line(&format!(
        r#"{{"name":"echo","arguments":{{"value":{}}},"id":"deep-late"}}"#,
        deep_array()
    )));
    // 3. A 50 MB string: the line is over the cap, but its id comes first.
    calls.send(line(&format!(
        r#"{{"id":"big","name":"echo","arguments":{{"value":"{big}"}}}}"#
    )));
    // 4. A million-element array.
    calls.send(line(&format!(
        r#"{{"id":"million","name":"echo","arguments":{{"value":[{million}]}}}}"#
    )));
    // 5. A number out of range.
    calls.send(line(
        r#"{"id":"huge-number","name":"echo","arguments":{"value":1e400}}"#,
    ));
    // 6. Bytes that are not UTF-8.
    calls.send(b"\xff\xfe{\"not\": \"utf-8\"\xc0}\n".to_vec());
    // 7. A 20 MB line without an id.
    calls.send(line(&format!(
        r#"{{"name":"echo","arguments":{{"value":"{}"}}}}"#,
        &big[..20 * MIB]
    )));
    // 8. A 15 MB string, under the cap: echoed whole.
    if let Some(under_cap) = &under_cap {
        assert!(under_cap.len() + 100 < MAX_LINE_BYTES);
        calls.send(line(&format!(
            r#"{{"id":"under-cap","name":"echo","arguments":{{"value":"{under_cap}"}}}}"#
        )));
    }
    // 9. A normal call after all that.
    calls.send(line(
        r#"{"id":"after","name":"upper","arguments":{"text":"still here"}}"#,
    ));

    for (id, message_start) in [
        ("deep", "invalid tool call: recursion limit exceeded"),
        ("deep-late", "invalid tool call: recursion limit exceeded"),
        ("big", "the line is longer than 16 MiB, so it was not read"),
        ("million", "value: expected string, got array [0,0,0,"),
        ("huge-number", "invalid tool call: number out of range"),
    ] {
        assert_paired_failure(&calls.answer(), id, "echo", message_start);
    }
    assert_eq!(
        calls.answer(),
        serde_json::json!({"error": "line 6: the line is not valid UTF-8", "line": 6})
    );
    assert_eq!(
        calls.answer(),
        serde_json::json!({
            "error": "line 7: the line is longer than 16 MiB, so it was not read",
            "line": 7
        })
    );
    if let Some(under_cap) = &under_cap {
        assert_text(&calls.answer(), "under-cap", under_cap);
    }
    assert_text(&calls.answer(), "after", "STILL HERE");

    let peak = calls.peak_memory_kb();
    eprintln!(
        "tool-examples call {args:?}: peak memory {} MiB",
        peak / 1024
    );
    assert!(
        peak < PEAK_MEMORY_LIMIT_KB,
        "peak memory {} MiB",
        peak / 1024
    );
    let status = calls.finish();
    assert!(status.success(), "{status}");
}

#[test]
fn hostile_lines_are_each_answered_in_order_within_bounded_memory() {
    hostile_run(&[], true);
}

#[test]
fn hostile_lines_in_sequence_are_each_answered_in_order_within_bounded_memory() {
    hostile_run(&["--sequential"], false);
}

#[test]
fn a_line_with_an_id_and_invalid_utf8_is_answered_paired() {
    // `classify` promises a paired failure "when its id can be read", and a
    // line over the cap is paired after a lossy UTF-8 decoding; a short line
    // with one bad byte in a value once got only a line error.
    let calls = Calls::start(&[]);
    calls.send(b"{\"id\":\"utf\",\"name\":\"echo\",\"arguments\":{\"value\":\"\xff\"}}\n".to_vec());
    let answer = calls.answer();
    let status = calls.finish();
    assert!(status.success(), "{status}");
    assert_paired_failure(&answer, "utf", "echo", "");
}
