//! `tool-examples`: the seed's walkthrough (no arguments), a JSON-lines tool
//! runner (`call`), the tool definitions (`definitions`), and an MCP server
//! (`mcp`).

use std::process::ExitCode;
use std::sync::Arc;
use tool_core::ExecutionMode;
use tool_examples::cli::{self, Command};
use tool_examples::{call, example_registry, walkthrough};

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(usage) => {
            eprintln!("error: {}", usage.message);
            return ExitCode::from(2);
        }
    };
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> std::io::Result<()> {
    // Only the commands that run tools start a runtime.
    let runtime = || {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
    };
    match command {
        Command::Help(text) => {
            print!("{text}");
            Ok(())
        }
        Command::Walkthrough => {
            let tools = example_registry(&std::env::current_dir()?)?;
            let mut out = std::io::stdout().lock();
            runtime()?.block_on(walkthrough::run(&tools, &mut out))
        }
        Command::Definitions { format } => {
            let tools = example_registry(&std::env::current_dir()?)?;
            let converted = format.definitions(&tools.definitions());
            for diagnostic in &converted.diagnostics {
                eprintln!("{format}: {diagnostic}");
            }
            let mut out = std::io::stdout().lock();
            serde_json::to_writer_pretty(&mut out, &converted.value)?;
            println!();
            Ok(())
        }
        Command::Mcp { root, http } => {
            let tools = rooted_registry(&root)?;
            runtime()?.block_on(serve_mcp(tools, http))
        }
        Command::Call {
            root,
            sequential,
            repair,
        } => {
            let tools = rooted_registry(&root)?;
            let mode = if sequential {
                ExecutionMode::Sequential
            } else {
                ExecutionMode::Parallel
            };
            runtime()?.block_on(call::run_calls(
                tokio::io::BufReader::new(tokio::io::stdin()),
                tokio::io::BufWriter::new(tokio::io::stdout()),
                Arc::new(tools),
                mode,
                call_context(repair),
            ))
        }
    }
}

/// What every call of `call` runs with: repair when asked for.
fn call_context(repair: bool) -> tool_core::CallContext {
    let ctx = tool_core::CallContext::new();
    if repair {
        ctx.with_repair(tool_core::RepairPolicy::all())
    } else {
        ctx
    }
}

fn rooted_registry(root: &std::path::Path) -> std::io::Result<tool_core::ToolRegistry> {
    example_registry(root).map_err(|error| {
        std::io::Error::new(error.kind(), format!("--root {}: {error}", root.display()))
    })
}

/// Serves over stdio, or over HTTP until Ctrl-C. Logs go to stderr: over
/// stdio, stdout belongs to the protocol.
async fn serve_mcp(
    tools: tool_core::ToolRegistry,
    http: Option<std::net::SocketAddr>,
) -> std::io::Result<()> {
    let Some(address) = http else {
        return tool_mcp::serve_stdio(tools).await;
    };
    let server = tool_mcp::HttpServer::bind(tools, address).await?;
    eprintln!(
        "serving MCP on http://{}/mcp (Ctrl-C to stop)",
        server.local_addr()?
    );
    let shutdown = tokio_util::sync::CancellationToken::new();
    let on_signal = shutdown.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_signal.cancel();
        }
    });
    server.run(shutdown).await
}
