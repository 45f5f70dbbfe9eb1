//! `tool-examples`: the walkthrough (no arguments), a JSON-lines tool
//! runner (`call`), the tool definitions (`definitions`), an MCP server
//! (`mcp`), and shell completions (`completions`).

#![forbid(unsafe_code)]
use clap::CommandFactory;
use std::process::ExitCode;
use std::sync::Arc;
use tool_core::ExecutionMode;
use tool_core::approval::{Approvals, Decision};
use tool_examples::cli::{
    ApprovalArgs, CallArgs, Cli, Command, CompletionsArgs, Deferral, DefinitionsArgs, McpArgs,
    Root, SharedState, UsageError,
};
use tool_examples::late_upstream;
use tool_examples::serve::{
    DEFAULT_DRAIN_DELAY, DEFAULT_SHUTDOWN_GRACE, HOSTS_VARIABLE, HttpOptions, ORIGINS_VARIABLE,
    bearer_token, serve_http, serve_stdio, with_env_list,
};
use tool_examples::telemetry::{Endpoints, Telemetry};
use tool_examples::upstream::add_upstreams;
use tool_examples::{call, deferral, example_registry, logging, shared_state, walkthrough};

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
    let telemetry = match Endpoints::resolve(cli.otlp_endpoint.as_deref())
        .and_then(|endpoints| endpoints.as_ref().map(Telemetry::start).transpose())
    {
        Ok(telemetry) => telemetry,
        Err(error) => return report(UsageError::new("tool-examples", error.to_string()).into()),
    };
    logging::init(cli.log_format, telemetry.as_ref());
    let ran = run(cli.command);
    // Flushed on every way out: a signal ends `mcp` through `run` too.
    if let Some(telemetry) = telemetry {
        telemetry.shutdown();
    }
    match ran {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => report(error),
    }
}

fn report(error: std::io::Error) -> ExitCode {
    match UsageError::found_in(&error) {
        Some(usage) => usage.report(),
        None => {
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
        Command::Definitions(DefinitionsArgs { format, deferral }) => {
            let format = tool_core::providers::ProviderFormat::from(format);
            let tools = example_registry(&std::env::current_dir()?)?;
            let tools = deferred(tools, &deferral, "definitions")?;
            let converted = format.definitions(&deferral::shown_definitions(&tools, format));
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
            allowed_origins,
            upstreams,
            deferral,
            allow_unauthenticated,
            stateless,
            defer_without_sessions,
            code_mode,
            code_time_limit,
            approval_key_file,
            state,
            repair,
            shutdown_grace,
            drain_delay,
            limits,
            oauth,
        }) => {
            let mut tools = rooted_registry(&root)?;
            let runtime = runtime()?;
            let store = runtime.block_on(shared_state::connect(&state, "mcp"))?;
            let ledger = shared_state::approval_ledger(
                approval_key_file.as_deref(),
                store.as_ref(),
                &state,
                "mcp",
            )?;
            // The clients live as long as the server: they hold the
            // upstreams. One that is not there yet is served when it is.
            let (_clients, later) = runtime.block_on(late_upstream::add_upstreams_or_later(
                &mut tools,
                &upstreams.servers,
                &upstreams.settings(),
                late_upstream::START_WAIT,
            ))?;
            let core_now = Deferral {
                core: late_upstream::names_known_now(&deferral.core, &later),
            };
            let code_limits = code_mode.then(|| code_limits(code_time_limit));
            let tools = match code_limits {
                Some(limits) => tool_examples::code_mode::with_run_code(tools, limits)
                    .map_err(|error| std::io::Error::other(format!("mcp --code-mode: {error}")))?,
                None => tools,
            };
            let tools = deferred(tools, &core_now, "mcp")?;
            oauth.check_tools(&tools, &later)?;
            let mut server =
                tool_mcp::McpServer::new(tools).with_call_options(call_context(repair));
            {
                let _runtime = runtime.enter();
                late_upstream::serve_when_connected(later, &server, &deferral.core, code_limits);
            }
            if defer_without_sessions {
                server = server.with_deferral_without_sessions();
            }
            if let Some(file) = approval_key_file {
                let key = call::approval::load_key(Some(&file))?;
                server = server.with_approval_key(&key);
            }
            if let Some(ledger) = ledger {
                server = server.with_approval_ledger(ledger);
            }
            let shutdown_grace = shutdown_grace.unwrap_or(DEFAULT_SHUTDOWN_GRACE);
            let Some(address) = http else {
                let served = runtime.block_on(serve_stdio(server, shutdown_grace));
                drop(_clients);
                // Stopped by a signal, the client may still hold stdin open:
                // tokio's reader of it is a blocking read that only the
                // client can end, which a runtime dropped would wait for.
                runtime.shutdown_background();
                return served;
            };
            let options = HttpOptions {
                address,
                token: bearer_token(token_file.as_deref())?,
                oauth: oauth.config(),
                allowed_hosts: with_env_list(allowed_hosts, HOSTS_VARIABLE)?,
                allowed_origins: with_env_list(allowed_origins, ORIGINS_VARIABLE)?,
                allow_unauthenticated,
                stateless,
                shared: store.map(|store| {
                    let idle = limits
                        .session_idle_timeout
                        .unwrap_or(tool_mcp::DEFAULT_SESSION_IDLE_TIMEOUT);
                    store.mcp_state(idle, shared_state::EVENTS_KEPT_FOR)
                }),
                limits: *limits,
                shutdown_grace,
                drain_delay: drain_delay.unwrap_or(DEFAULT_DRAIN_DELAY),
            };
            runtime.block_on(serve_http(server, options))
        }
        Command::Call(CallArgs {
            root: Root { dir: root },
            sequential,
            repair,
            approvals,
            state,
            upstreams,
            deferral,
        }) => {
            let runtime = runtime()?;
            let approvals = runtime.block_on(call_approvals(&approvals, &state))?;
            let ctx = call_context(repair).with_approvals(approvals);
            let mut tools = rooted_registry(&root)?;
            let _clients = runtime.block_on(add_upstreams(
                &mut tools,
                &upstreams.servers,
                &upstreams.settings(),
            ))?;
            let tools = deferred(tools, &deferral, "call")?;
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
                ctx,
                progress.clone(),
            ));
            if let Some(progress) = progress {
                progress.finish();
            }
            ran
        }
    }
}

/// How `call` answers a call that needs approval: run it (`--approve-all`),
/// or an approval-request line sealed with the key given (or a random
/// one), its resumes recorded in the shared ledger when there is one.
async fn call_approvals(args: &ApprovalArgs, state: &SharedState) -> std::io::Result<Approvals> {
    if args.approve_all {
        return Ok(Approvals::ask(|_| async { Decision::Approve }));
    }
    let key_file = args.key_file.as_deref();
    let store = shared_state::connect(state, "call").await?;
    let ledger = shared_state::approval_ledger(key_file, store.as_ref(), state, "call")?;
    let approvals = Approvals::suspend(call::approval::load_key(key_file)?);
    Ok(match ledger {
        Some(ledger) => approvals.with_ledger(ledger),
        None => approvals,
    })
}

/// What every call of `call` and `mcp` runs with: repair when asked for.
fn call_context(repair: bool) -> tool_core::RunOptions {
    let ctx = tool_core::RunOptions::new();
    if repair {
        ctx.with_repair(tool_core::repair::RepairPolicy::all())
    } else {
        ctx
    }
}

/// The limits of `mcp --code-mode`'s programs: the library's, with
/// `--code-time-limit` when given.
fn code_limits(time: Option<std::time::Duration>) -> tool_code::CodeLimits {
    let limits = tool_code::CodeLimits::default();
    match time {
        Some(time) => limits.with_time(time),
        None => limits,
    }
}

/// `tools` with all but `--defer-all-except`'s tools deferred, once every
/// tool (upstream ones too) is registered; a name that is no tool is a
/// usage error of `command`.
fn deferred(
    tools: tool_core::ToolRegistry,
    deferral: &Deferral,
    command: &'static str,
) -> std::io::Result<tool_core::ToolRegistry> {
    deferral::defer_all_except(tools, &deferral.core)
        .map_err(|error| UsageError::new(command, format!("--defer-all-except: {error}")).into())
}

fn rooted_registry(root: &std::path::Path) -> std::io::Result<tool_core::ToolRegistry> {
    example_registry(root).map_err(|error| {
        std::io::Error::new(error.kind(), format!("--root {}: {error}", root.display()))
    })
}
