//! Every call a script makes is an `execute_tool` span of its own, a child
//! of the `run_code` call's span, with its own call id: a trace shows the
//! run and each call inside it.

use serde_json::json;
use std::sync::{Arc, Mutex};
use tool_code::CodeMode;
use tool_core::{RunOptions, ToolCall, ToolRegistry, execute_tool_call, tool};
use tracing::Subscriber;
use tracing::field::{Field, Visit};
use tracing::span::{Attributes, Id};
use tracing_subscriber::layer::{Context, Layer, SubscriberExt};
use tracing_subscriber::registry::LookupSpan;

/// Echo one value
#[tool]
async fn echo(value: String) -> String {
    value
}

/// (span name, its call id, its parent's call id)
type Seen = Arc<Mutex<Vec<(String, String, Option<String>)>>>;

struct CallIds(Seen);

/// A span's `gen_ai.tool.call.id`.
#[derive(Default)]
struct CallId(String);

impl Visit for CallId {
    fn record_str(&mut self, field: &Field, value: &str) {
        if field.name() == "gen_ai.tool.call.id" {
            self.0 = value.to_owned();
        }
    }

    fn record_debug(&mut self, field: &Field, value: &dyn std::fmt::Debug) {
        if field.name() == "gen_ai.tool.call.id" {
            self.0 = format!("{value:?}");
        }
    }
}

impl<S> Layer<S> for CallIds
where
    S: Subscriber + for<'a> LookupSpan<'a>,
{
    fn on_new_span(&self, attrs: &Attributes<'_>, id: &Id, ctx: Context<'_, S>) {
        let mut call_id = CallId::default();
        attrs.record(&mut call_id);
        let Some(span) = ctx.span(id) else { return };
        let parent = span
            .parent()
            .and_then(|parent| parent.extensions().get::<String>().cloned());
        span.extensions_mut().insert(call_id.0.clone());
        self.0
            .lock()
            .unwrap()
            .push((attrs.metadata().name().to_owned(), call_id.0, parent));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_inner_call_is_a_child_span_of_the_run() {
    let seen: Seen = Arc::default();
    let subscriber = tracing_subscriber::registry().with(CallIds(Arc::clone(&seen)));
    let _guard = tracing::subscriber::set_default(subscriber);
    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).unwrap();
    let tools = CodeMode::new().registry(tools).unwrap();
    let script =
        "return await Promise.all([tools.echo({ value: 'a' }), tools.echo({ value: 'b' })]);";
    let call = ToolCall::new("run-1", "run_code", json!({ "code": script }));
    let result = execute_tool_call(&call, &tools, RunOptions::new()).await;
    assert!(!result.is_error, "{result:?}");
    let mut spans: Vec<_> = seen
        .lock()
        .unwrap()
        .iter()
        .filter(|(name, ..)| name == "execute_tool")
        .cloned()
        .collect();
    spans.sort();
    assert_eq!(
        spans,
        [
            ("execute_tool".to_owned(), "run-1".to_owned(), None),
            (
                "execute_tool".to_owned(),
                "run-1.1".to_owned(),
                Some("run-1".to_owned())
            ),
            (
                "execute_tool".to_owned(),
                "run-1.2".to_owned(),
                Some("run-1".to_owned())
            ),
        ]
    );
}
