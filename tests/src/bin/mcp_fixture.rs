//! Serves the MCP test fixture (`tests::mcp_fixture`) over stdio, for
//! `tests/mcp/stdio.rs`. Exits when stdin closes.

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::io::Result<()> {
    tool_mcp::serve_stdio(tests::mcp_fixture::fixture_registry()).await
}
