//! `tool-examples`: the seed's walkthrough (no arguments), a JSON-lines tool
//! runner (`call`), the tool definitions (`definitions`), an MCP server
//! (`mcp`), and shell completions (`completions`).

use clap::CommandFactory;
use std::process::ExitCode;
use std::sync::Arc;
use tool_core::ExecutionMode;
use tool_examples::cli::{CallArgs, Cli, Command, CompletionsArgs, DefinitionsArgs, McpArgs, Root};
use tool_examples::token_file::warn_if_others_can_read;
use tool_examples::upstream::{UpstreamSettings, add_upstreams};
use tool_examples::{call, example_registry, logging, walkthrough};

/// The binary's allocator: mimalloc. `call` parses a chunk of calls on one
/// thread and may free it on another (always so in `--sequential` mode),
/// and glibc's allocator serves such frees through its locked paths: with
/// it, `--sequential` spent 462 ms of CPU on 100,000 label calls where
/// parallel mode spent 286 ms (perf), and ran at 2.4x - 3.0x the typed
/// floor; with mimalloc, 1.3x - 1.5x. The floors use it too, so the ratios
/// stay fair. A library never sets one: tool-core and tool-mcp leave the
/// choice to the application.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    // clap's own exits: a usage error exits 2, `--help` and `--version` 0.
    let cli = Cli::from_env();
    logging::init(cli.log_format);
    match run(cli.command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Option<Command>) -> std::io::Result<()> {
    // Only the commands that run tools start a runtime.
    let runtime = || {
        tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
    };
    let Some(command) = command else {
        let tools = example_registry(&std::env::current_dir()?)?;
        let mut out = std::io::stdout().lock();
        return runtime()?.block_on(walkthrough::run(&tools, &mut out));
    };
    match command {
        Command::Completions(CompletionsArgs { shell }) => {
            let mut out = std::io::stdout().lock();
            clap_complete::generate(shell, &mut Cli::command(), "tool-examples", &mut out);
            Ok(())
        }
        Command::Definitions(DefinitionsArgs { format }) => {
            let format = tool_core::providers::ProviderFormat::from(format);
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
        Command::Mcp(McpArgs {
            root: Root { dir: root },
            http,
            token_file,
            allowed_hosts,
            upstreams,
            allow_unauthenticated,
        }) => {
            let mut tools = rooted_registry(&root)?;
            let runtime = runtime()?;
            // The clients live as long as the server: they hold the upstreams.
            let _clients = runtime.block_on(add_upstreams(
                &mut tools,
                &upstreams,
                &UpstreamSettings::default(),
            ))?;
            let Some(address) = http else {
                return runtime.block_on(tool_mcp::serve_stdio(tools));
            };
            let options = HttpOptions {
                address,
                token: bearer_token(token_file.as_deref())?,
                allowed_hosts: allowed_hosts_with_env(allowed_hosts)?,
                allow_unauthenticated,
            };
            runtime.block_on(serve_http(tools, options))
        }
        Command::Call(CallArgs {
            root: Root { dir: root },
            sequential,
            repair,
            upstreams,
        }) => {
            let mut tools = rooted_registry(&root)?;
            let runtime = runtime()?;
            let _clients = runtime.block_on(add_upstreams(
                &mut tools,
                &upstreams,
                &UpstreamSettings::default(),
            ))?;
            let mode = if sequential {
                ExecutionMode::Sequential
            } else {
                ExecutionMode::Parallel
            };
            // A bar only on a terminal: pipes and CI see nothing at all.
            let progress =
                call::Progress::on_terminal(call::progress::stdin_file_size()).map(Arc::new);
            // Large buffers: tokio's stdin and stdout hand every read and
            // write to a blocking thread, so fewer, larger ones go faster.
            let ran = runtime.block_on(call::run_calls_with_progress(
                tokio::io::BufReader::with_capacity(call::IO_BUFFER_BYTES, tokio::io::stdin()),
                tokio::io::BufWriter::with_capacity(call::IO_BUFFER_BYTES, tokio::io::stdout()),
                Arc::new(tools),
                mode,
                call_context(repair),
                progress.clone(),
            ));
            if let Some(progress) = progress {
                progress.finish();
            }
            ran
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

/// Where the token came from, to say so at startup.
struct Token {
    value: String,
    source: String,
}

struct HttpOptions {
    address: std::net::SocketAddr,
    token: Option<Token>,
    allowed_hosts: Vec<String>,
    allow_unauthenticated: bool,
}

const TOKEN_VARIABLE: &str = "TOOL_EXAMPLES_TOKEN";
const HOSTS_VARIABLE: &str = "TOOL_EXAMPLES_ALLOWED_HOSTS";

/// The bearer token: from `--token-file` when given, else from
/// `TOOL_EXAMPLES_TOKEN`, else none. Surrounding whitespace (the file's last
/// newline) is not part of it; an empty one is a mistake, not "no token".
fn bearer_token(file: Option<&std::path::Path>) -> std::io::Result<Option<Token>> {
    let (value, source) = match file {
        Some(path) => {
            let context = |error: std::io::Error| {
                std::io::Error::new(
                    error.kind(),
                    format!("--token-file {}: {error}", path.display()),
                )
            };
            let value = std::fs::read_to_string(path).map_err(context)?;
            (value, format!("--token-file {}", path.display()))
        }
        None => match std::env::var(TOKEN_VARIABLE) {
            Ok(value) => (value, TOKEN_VARIABLE.to_owned()),
            Err(std::env::VarError::NotPresent) => return Ok(None),
            Err(std::env::VarError::NotUnicode(_)) => {
                return Err(std::io::Error::new(
                    std::io::ErrorKind::InvalidInput,
                    format!("{TOKEN_VARIABLE} is not UTF-8"),
                ));
            }
        },
    };
    let value = value.trim();
    if value.is_empty() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!("{source}: the token is empty"),
        ));
    }
    if let Some(path) = file {
        warn_if_others_can_read(&source, path);
    }
    Ok(Some(Token {
        value: value.to_owned(),
        source,
    }))
}

/// `--allowed-host`s, then those of `TOOL_EXAMPLES_ALLOWED_HOSTS`.
fn allowed_hosts_with_env(mut hosts: Vec<String>) -> std::io::Result<Vec<String>> {
    match std::env::var(HOSTS_VARIABLE) {
        Ok(list) => hosts.extend(
            list.split(',')
                .map(str::trim)
                .filter(|host| !host.is_empty())
                .map(str::to_owned),
        ),
        Err(std::env::VarError::NotPresent) => {}
        Err(std::env::VarError::NotUnicode(_)) => {
            return Err(std::io::Error::new(
                std::io::ErrorKind::InvalidInput,
                format!("{HOSTS_VARIABLE} is not UTF-8"),
            ));
        }
    }
    Ok(hosts)
}

/// Serves over HTTP until Ctrl-C, logging where, for which hosts
/// and with what authentication. A non-loopback address with no token is
/// refused before anything is bound, unless --allow-unauthenticated.
async fn serve_http(tools: tool_core::ToolRegistry, options: HttpOptions) -> std::io::Result<()> {
    let address = options.address;
    if options.token.is_none() && !options.allow_unauthenticated && !address.ip().is_loopback() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            format!(
                "refusing to serve MCP on {address} without a token: that address can be \
                 reached from other machines, and whoever reaches it could call every tool. \
                 Give a token with --token-file PATH or {TOKEN_VARIABLE}, or pass \
                 --allow-unauthenticated if that is meant"
            ),
        ));
    }
    let mut server = tool_mcp::HttpServer::bind(tools, address)
        .await?
        .with_allowed_hosts(options.allowed_hosts);
    // Whoever reaches a non-loopback address without a token may call every
    // tool: that is said as a warning, not as news.
    let (authentication, open_to_all) = match options.token {
        Some(token) => {
            server = server.with_bearer_token(token.value);
            (format!("bearer token from {}", token.source), false)
        }
        None if address.ip().is_loopback() => ("none (loopback only)".to_owned(), false),
        None => {
            server = server.allow_unauthenticated();
            let warning =
                "NONE (--allow-unauthenticated): whoever reaches this address can call every tool";
            (warning.to_owned(), true)
        }
    };
    let hosts = server.accepted_hosts()?;
    tracing::info!(
        "serving MCP on http://{}/mcp (Ctrl-C to stop)",
        server.local_addr()?
    );
    tracing::info!("accepting Host: {hosts} (name others with --allowed-host)");
    if open_to_all {
        tracing::warn!("authentication: {authentication}");
    } else {
        tracing::info!("authentication: {authentication}");
    }
    let shutdown = tokio_util::sync::CancellationToken::new();
    let on_signal = shutdown.clone();
    tokio::spawn(async move {
        if tokio::signal::ctrl_c().await.is_ok() {
            on_signal.cancel();
        }
    });
    server.run(shutdown).await
}
