//! The MCP server end to end over stdio: an rmcp client drives the
//! `mcp_fixture` binary (`tool_mcp::serve_stdio` on `tests::mcp_fixture`)
//! as a child process; it runs every scenario of `support::mcp`.

use crate::support::mcp::{Client, Wire, connect_over, transport_scenarios};
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

transport_scenarios!();
