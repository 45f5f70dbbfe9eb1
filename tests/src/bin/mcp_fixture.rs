//! Serves the MCP test fixture over stdio, for `tests/mcp/stdio.rs`
//! (`tests::mcp_fixture`), or, given `approval`, for `tests/mcp/approval.rs`
//! (`tests::approval_fixture`). Exits when stdin closes.

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> std::io::Result<()> {
    let tools = match std::env::args().nth(1).as_deref() {
        None => tests::mcp_fixture::fixture_registry(),
        Some("approval") => tests::approval_fixture::approval_registry(),
        Some(other) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("mcp_fixture: unknown registry {other:?}; give none, or `approval`"),
            ));
        }
    };
    tool_mcp::serve_stdio(tools).await
}
