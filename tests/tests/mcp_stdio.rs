//! The MCP server end to end over stdio: an rmcp client drives the
//! `mcp_fixture` binary (`tool_mcp::serve_stdio` on `tests::mcp_fixture`)
//! as a child process; it runs every scenario of `mcp_common`.

mod mcp_common;

use mcp_common::{Client, Wire, connect_over, transport_scenarios};
use rmcp::transport::TokioChildProcess;
use std::process::Stdio;

/// A client connected to its own fixture process (killed when dropped).
struct Session {
    client: Client,
    wire: Wire,
}

impl Session {
    async fn close(self) {
        self.client.cancel().await.expect("the client closes");
    }
}

/// Starts the fixture binary and initializes a client with it.
async fn connect() -> Session {
    let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_fixture"));
    command.kill_on_drop(true);
    let (child, _stderr) = TokioChildProcess::builder(command)
        .stderr(Stdio::inherit())
        .spawn()
        .expect("the fixture starts");
    let (client, wire) = connect_over(child).await;
    Session { client, wire }
}

transport_scenarios!(
    initialize_then_list_gives_the_registry_definitions,
    echo_answers_with_its_content_and_structured_content,
    bad_arguments_are_an_error_result_not_a_protocol_error,
    an_unknown_tool_is_the_invalid_params_error,
    fifty_concurrent_calls_each_get_their_own_answer,
    progress_notifications_arrive_in_order_before_the_result,
    a_cancelled_call_cancels_the_tool_and_gets_no_answer,
);
