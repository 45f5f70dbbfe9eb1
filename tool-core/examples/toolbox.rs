//! A stateful toolbox: `#[tools]` on the impl block of a small notes store
//! makes its `#[tool]` methods tools that share one store behind a lock.
//! Their annotations (`read_only`, `destructive`) are hints for the program
//! around the model: here a before hook refuses whatever may destroy,
//! as an application would until a person approves it. Two batches of calls
//! run in parallel with `execute_tool_calls`; every call gets its paired
//! result, in call order, refused and failed ones included.
//!
//! Run: `cargo run -p tool-core --example toolbox`

use serde_json::json;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use tool_core::executor::HookDecision;
use tool_core::{
    ExecutionMode, RunOptions, ToolCall, ToolError, ToolRegistry, ToolResultMessage,
    execute_tool_calls, tools,
};

/// Notes by title, shared by every tool of the box.
#[derive(Default)]
struct Notes {
    notes: Mutex<BTreeMap<String, String>>,
}

#[tools]
impl Notes {
    /// Add a note under a new title
    #[tool(destructive = false)]
    async fn add_note(
        &self,
        /// The note's title
        title: String,
        /// What the note says
        text: String,
    ) -> Result<String, ToolError> {
        let mut notes = self.notes.lock().unwrap();
        if notes.contains_key(&title) {
            return Err(format!("a note titled {title:?} exists already").into());
        }
        notes.insert(title.clone(), text);
        Ok(format!("added {title:?}"))
    }

    /// Read a note
    #[tool(read_only)]
    async fn read_note(&self, title: String) -> Result<String, ToolError> {
        let notes = self.notes.lock().unwrap();
        Ok(notes
            .get(&title)
            .ok_or_else(|| format!("no note titled {title:?}"))?
            .clone())
    }

    /// List the titles of the notes
    #[tool(read_only)]
    async fn list_notes(&self) -> String {
        let notes = self.notes.lock().unwrap();
        notes.keys().cloned().collect::<Vec<_>>().join(", ")
    }

    /// Delete a note
    #[tool(destructive)]
    async fn delete_note(&self, title: String) -> String {
        self.notes.lock().unwrap().remove(&title);
        format!("deleted {title:?}")
    }

    /// An ordinary method, not a tool: the program's own view of the store.
    fn count(&self) -> usize {
        self.notes.lock().unwrap().len()
    }
}

/// A result's text, as the model reads it.
fn text(result: &ToolResultMessage) -> &str {
    result.content[0].as_text().unwrap_or_default()
}

fn texts(results: &[ToolResultMessage]) -> Vec<&str> {
    results.iter().map(text).collect()
}

fn print(results: &[ToolResultMessage]) {
    for result in results {
        let flag = if result.is_error { "error" } else { "ok" };
        let (id, name) = (&result.tool_call_id, &result.tool_name);
        println!("  {id} {name} [{flag}] {}", text(result));
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let notes = Arc::new(Notes::default());
    let mut tools = ToolRegistry::new();
    tools.register_all(Arc::clone(&notes))?;

    println!("tools and their annotations:");
    for definition in tools.definitions() {
        println!(
            "  {} {}",
            definition.name,
            serde_json::to_string(&definition.annotations)?
        );
    }
    let annotations = |name: &str| tools.get(name).unwrap().definition().annotations.clone();
    assert_eq!(annotations("read_note").read_only, Some(true));
    assert!(!annotations("add_note").may_destroy());
    assert!(annotations("delete_note").may_destroy());

    // Nothing that may destroy runs without a person's approval, which
    // this program never gives.
    let options = RunOptions::new().with_before_hook(|call| async move {
        Ok(if call.annotations.may_destroy() {
            HookDecision::Block(format!("{} needs a person's approval", call.tool_name))
        } else {
            HookDecision::Allow
        })
    });
    let call = |id: &str, name: &str, arguments| ToolCall::new(id, name, arguments);

    let first = [
        call(
            "1",
            "add_note",
            json!({"title": "groceries", "text": "eggs, flour"}),
        ),
        call(
            "2",
            "add_note",
            json!({"title": "ideas", "text": "a toolbox example"}),
        ),
    ];
    let results =
        execute_tool_calls(&first, &tools, options.clone(), ExecutionMode::Parallel).await;
    println!("first batch:");
    print(&results);
    assert_eq!(
        texts(&results),
        [r#"added "groceries""#, r#"added "ideas""#]
    );

    let second = [
        call("3", "read_note", json!({"title": "groceries"})),
        call("4", "read_note", json!({"title": "todo"})),
        call("5", "delete_note", json!({"title": "ideas"})),
        call("6", "list_notes", json!({})),
    ];
    let results = execute_tool_calls(&second, &tools, options, ExecutionMode::Parallel).await;
    println!("second batch:");
    print(&results);
    let ids: Vec<&str> = results.iter().map(|r| r.tool_call_id.as_str()).collect();
    assert_eq!(ids, ["3", "4", "5", "6"]);
    assert_eq!(
        texts(&results),
        [
            "eggs, flour",
            r#"Tool read_note failed: no note titled "todo""#,
            "Tool delete_note failed: delete_note needs a person's approval",
            "groceries, ideas",
        ]
    );
    let failed: Vec<bool> = results.iter().map(|r| r.is_error).collect();
    assert_eq!(failed, [false, true, true, false]);

    // The caller's Arc is the store the tools used.
    assert_eq!(notes.count(), 2);
    Ok(())
}
