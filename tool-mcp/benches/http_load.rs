//! Load and cost of `tools/call` over streamable HTTP on loopback: our
//! server (`tool_mcp::HttpServer`, a `ToolRegistry` behind rmcp) against
//! the same echo tool served by rmcp directly (`#[tool_router]`, schemars),
//! mounted on a plain hyper HTTP/1 loop (what src/http.rs had before its
//! checks and limits), so the ratio is the cost of our layer on top of rmcp:
//! the request gate (`Host`, body read whole and parsed once more for the
//! session and in-flight limits) and the handler (registry, executor,
//! result conversion).
//!
//! Throughput: both servers and every client run in this one process, on one
//! tokio runtime with one worker thread per CPU. Each client is rmcp's own
//! (`StreamableHttpClientTransport::from_uri`, reqwest): it initializes its
//! own session, then calls `echo` in a loop. After a warmup, the calls that
//! complete in the window are counted and timed. Ours and rmcp's alternate,
//! round after round; the medians of the rounds are reported, and the ratio
//! is the median of the rounds' ratios.
//!
//! Memory: each server runs alone in a child process (this binary, with
//! `--serve`); this process opens sessions to it, each calling `echo` once,
//! and reads the child's `VmRSS` and open file descriptors from `/proc`.
//!
//! Usage: `cargo bench -p tool-mcp --bench http_load [-- --quick] [--pooled]`
//! (about 90 s; `--quick` about 15 s). `--pooled` gives each client a
//! reqwest client that keeps its connections, where rmcp's default client
//! opens a new one for every POST. Not part of `cargo test`.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolRequestParams, ClientConfig, ServerCapabilities, ServerConfig};
use rmcp::service::RunningService;
use rmcp::transport::StreamableHttpClientTransport;
use rmcp::transport::streamable_http_client::StreamableHttpClientTransportConfig;
use rmcp::transport::streamable_http_server::session::local::LocalSessionManager;
use rmcp::transport::{StreamableHttpServerConfig, StreamableHttpService};
use rmcp::{RoleClient, ServerHandler, ServiceExt, tool_handler, tool_router};
use serde_json::{Map, Value};
use std::convert::Infallible;
use std::io::{BufRead, BufReader, Read};
use std::net::{Ipv4Addr, SocketAddr};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};
use tokio::net::TcpListener;
use tokio::task::JoinSet;
use tokio_util::sync::CancellationToken;
use tool_core::ToolRegistry;
use tool_mcp::HttpServer;

// ---------------------------------------------------------------- the tools

/// Echo one value
#[tool_core::tool]
async fn echo(value: String) -> String {
    value
}

/// `echo`'s arguments, for rmcp.
#[derive(serde::Deserialize, schemars::JsonSchema)]
struct EchoRequest {
    /// The value to echo
    value: String,
}

/// The same tool, served by rmcp alone: what rmcp's own examples write.
#[derive(Clone)]
struct RmcpEcho {
    tool_router: ToolRouter<Self>,
}

#[tool_router]
impl RmcpEcho {
    fn new() -> Self {
        RmcpEcho {
            tool_router: Self::tool_router(),
        }
    }

    #[rmcp::tool(description = "Echo one value")]
    async fn echo(&self, Parameters(EchoRequest { value }): Parameters<EchoRequest>) -> String {
        value
    }
}

#[tool_handler(router = self.tool_router)]
impl ServerHandler for RmcpEcho {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }
}

// -------------------------------------------------------------- the servers

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Ours,
    Rmcp,
}

impl Kind {
    fn name(self) -> &'static str {
        match self {
            Kind::Ours => "ours",
            Kind::Rmcp => "rmcp",
        }
    }
}

/// Sessions our server admits at once here (its default is 256).
const MAX_SESSIONS: usize = 100_000;

const LOOPBACK: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::LOCALHOST), 0);

/// Starts `kind`'s server on a free loopback port, as a task of the current
/// runtime, until `shutdown`.
async fn start_server(kind: Kind, shutdown: CancellationToken) -> SocketAddr {
    match kind {
        Kind::Ours => {
            let mut tools = ToolRegistry::new();
            tools.register(EchoTool).expect("registers echo");
            // The default admits 256 sessions at once (503 beyond): the
            // memory figures open more, and closed sessions leave rmcp's
            // map a moment after their DELETE is answered.
            let server = HttpServer::bind(tools, LOOPBACK)
                .await
                .expect("binds loopback")
                .with_max_sessions(MAX_SESSIONS);
            let address = server.local_addr().expect("the bound address");
            tokio::spawn(server.run(shutdown));
            address
        }
        Kind::Rmcp => {
            let listener = TcpListener::bind(LOOPBACK).await.expect("binds loopback");
            let address = listener.local_addr().expect("the bound address");
            tokio::spawn(serve_rmcp(listener, shutdown));
            address
        }
    }
}

/// rmcp's service for [`RmcpEcho`] on the same hyper HTTP/1 loop as
/// `tool_mcp::HttpServer` (src/http.rs), with rmcp's default configuration
/// and none of its checks. Like src/http.rs it turns Nagle's algorithm off
/// for accepted sockets (else a kept-alive connection waits ~40 ms for the
/// client's delayed ACK on every call, and `--pooled` would compare unlike
/// things).
async fn serve_rmcp(listener: TcpListener, shutdown: CancellationToken) {
    let service = StreamableHttpService::new(
        || Ok(RmcpEcho::new()),
        Arc::new(LocalSessionManager::default()),
        StreamableHttpServerConfig::default().with_cancellation_token(shutdown.child_token()),
    );
    loop {
        let (stream, _) = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok(accepted) => accepted,
                Err(_) => continue,
            },
            () = shutdown.cancelled() => return,
        };
        let _ = stream.set_nodelay(true);
        let service = service.clone();
        tokio::spawn(async move {
            let handler = service_fn(move |request: Request<hyper::body::Incoming>| {
                let service = service.clone();
                async move {
                    if request.uri().path() != "/mcp" {
                        let mut response = Response::new(
                            Full::new(Bytes::from_static(b"not found\n"))
                                .map_err(|never| match never {})
                                .boxed(),
                        );
                        *response.status_mut() = StatusCode::NOT_FOUND;
                        return Ok::<_, Infallible>(response);
                    }
                    Ok(service.handle(request).await)
                }
            });
            let _ = http1::Builder::new()
                .serve_connection(TokioIo::new(stream), handler)
                .await;
        });
    }
}

/// `--serve ours|rmcp`: serves alone in this process (for the memory
/// figures), prints `listening <address>`, and exits when stdin closes.
fn serve_alone(kind: Kind) {
    let runtime = runtime();
    let shutdown = CancellationToken::new();
    let address = runtime.block_on(start_server(kind, shutdown.clone()));
    println!("listening {address}");
    let mut rest = Vec::new();
    let _ = std::io::stdin().read_to_end(&mut rest);
    shutdown.cancel();
}

// -------------------------------------------------------------- the clients

type Client = RunningService<RoleClient, ClientConfig>;

/// Whether clients keep their connections (`--pooled`); rmcp's default
/// client does not (`pool_max_idle_per_host(0)`).
static POOLED: AtomicBool = AtomicBool::new(false);

/// A client that has initialized its own session with the server at `address`.
async fn connect(address: SocketAddr) -> Client {
    let uri = format!("http://{address}/mcp");
    let transport = if POOLED.load(Ordering::Relaxed) {
        let http = reqwest::Client::builder()
            .build()
            .expect("a reqwest client");
        StreamableHttpClientTransport::with_client(
            http,
            StreamableHttpClientTransportConfig::with_uri(uri),
        )
    } else {
        StreamableHttpClientTransport::from_uri(uri)
    };
    ClientConfig::default()
        .serve(transport)
        .await
        .expect("the session initializes")
}

fn echo_call(value: &str) -> CallToolRequestParams {
    let arguments = Map::from_iter([("value".to_owned(), Value::from(value))]);
    CallToolRequestParams::new("echo").with_arguments(arguments)
}

/// One `echo` call, checked.
async fn call_echo(client: &Client, value: &str) {
    let result = client
        .call_tool(echo_call(value))
        .await
        .expect("tools/call answers");
    assert_ne!(result.is_error, Some(true), "echo failed: {result:?}");
    let text = result.content.first().and_then(|content| content.as_text());
    assert_eq!(text.map(|text| text.text.as_str()), Some(value));
}

/// Calls `echo` until `end`; returns the latencies (µs) of the calls that
/// completed from `warm` on.
async fn call_loop(
    client: Client,
    value: String,
    warm: Instant,
    end: Instant,
) -> (Client, Vec<u32>) {
    call_echo(&client, &value).await;
    let request = echo_call(&value);
    let mut latencies = Vec::new();
    loop {
        let start = Instant::now();
        if start >= end {
            break;
        }
        client
            .call_tool(request.clone())
            .await
            .expect("tools/call answers");
        let done = Instant::now();
        if done >= warm && done <= end {
            latencies.push((done - start).as_micros().min(u32::MAX as u128) as u32);
        }
    }
    (client, latencies)
}

/// Connects `count` clients, `batch` initializing at a time.
async fn connect_many(address: SocketAddr, count: usize, batch: usize) -> Vec<Client> {
    let mut clients = Vec::with_capacity(count);
    while clients.len() < count {
        let mut connecting = JoinSet::new();
        for _ in 0..batch.min(count - clients.len()) {
            connecting.spawn(connect(address));
        }
        while let Some(client) = connecting.join_next().await {
            clients.push(client.expect("connect does not panic"));
        }
    }
    clients
}

async fn close_all(clients: Vec<Client>) {
    let mut closing = JoinSet::new();
    for client in clients {
        closing.spawn(async move {
            let _ = client.cancel().await;
        });
    }
    while closing.join_next().await.is_some() {}
}

// ------------------------------------------------------------- throughput

struct Settings {
    rounds: usize,
    warmup: Duration,
    window: Duration,
    client_counts: &'static [usize],
    session_counts: &'static [usize],
}

/// One side of one round.
struct Run {
    calls_per_second: f64,
    p50: Duration,
    p99: Duration,
    /// CPU time of the whole process (servers and clients) per second of
    /// the window: 2.0 is both cores busy.
    cores_busy: f64,
    /// Open file descriptors of the whole process mid-window.
    fds: usize,
}

async fn run_once(address: SocketAddr, clients: usize, settings: &Settings) -> Run {
    let connected = connect_many(address, clients, 64).await;
    let warm = Instant::now() + settings.warmup;
    let end = warm + settings.window;
    let mut running = JoinSet::new();
    for (index, client) in connected.into_iter().enumerate() {
        running.spawn(call_loop(client, format!("client {index}"), warm, end));
    }
    tokio::time::sleep_until(warm.into()).await;
    let cpu_start = cpu_seconds();
    tokio::time::sleep(settings.window / 2).await;
    let fds = open_fds("self");
    tokio::time::sleep_until(end.into()).await;
    let cpu = cpu_seconds() - cpu_start;
    let mut latencies = Vec::new();
    let mut done = Vec::with_capacity(clients);
    while let Some(finished) = running.join_next().await {
        let (client, mine) = finished.expect("a client does not panic");
        latencies.extend(mine);
        done.push(client);
    }
    close_all(done).await;
    latencies.sort_unstable();
    let at = |q: f64| {
        let index = ((latencies.len() - 1) as f64 * q).round() as usize;
        Duration::from_micros(u64::from(latencies[index]))
    };
    Run {
        calls_per_second: latencies.len() as f64 / settings.window.as_secs_f64(),
        p50: at(0.50),
        p99: at(0.99),
        cores_busy: cpu / settings.window.as_secs_f64(),
        fds,
    }
}

fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    let n = values.len();
    if n % 2 == 1 {
        values[n / 2]
    } else {
        (values[n / 2 - 1] + values[n / 2]) / 2.0
    }
}

fn median_duration(values: impl Iterator<Item = Duration>) -> Duration {
    Duration::from_secs_f64(median(values.map(|d| d.as_secs_f64()).collect()))
}

fn format_duration(duration: Duration) -> String {
    let micros = duration.as_secs_f64() * 1e6;
    if micros < 1000.0 {
        format!("{micros:.0} µs")
    } else {
        format!("{:.1} ms", micros / 1000.0)
    }
}

async fn throughput(settings: &Settings) {
    let shutdown = CancellationToken::new();
    let ours = start_server(Kind::Ours, shutdown.clone()).await;
    let rmcp = start_server(Kind::Rmcp, shutdown.clone()).await;
    println!(
        "| clients | ours calls/s | rmcp calls/s | ratio | ours p50 / p99 | rmcp p50 / p99 | CPU busy (of {} cores), ours / rmcp | CPU µs per call, ours / rmcp | fds mid-run, ours / rmcp |",
        cores()
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
    for &clients in settings.client_counts {
        let mut runs: [Vec<Run>; 2] = [Vec::new(), Vec::new()];
        let mut ratios = Vec::new();
        for round in 0..settings.rounds {
            // Alternate which goes first, so a drift hits both alike.
            let order = if round % 2 == 0 {
                [Kind::Ours, Kind::Rmcp]
            } else {
                [Kind::Rmcp, Kind::Ours]
            };
            let mut pair = [0.0; 2];
            for kind in order {
                let side = (kind == Kind::Rmcp) as usize;
                let address = if kind == Kind::Ours { ours } else { rmcp };
                let run = run_once(address, clients, settings).await;
                pair[side] = run.calls_per_second;
                runs[side].push(run);
            }
            ratios.push(pair[0] / pair[1]);
        }
        let rate = |side: usize| median(runs[side].iter().map(|r| r.calls_per_second).collect());
        let p50 = |side: usize| format_duration(median_duration(runs[side].iter().map(|r| r.p50)));
        let p99 = |side: usize| format_duration(median_duration(runs[side].iter().map(|r| r.p99)));
        let busy = |side: usize| median(runs[side].iter().map(|r| r.cores_busy).collect());
        let fds = |side: usize| median(runs[side].iter().map(|r| r.fds as f64).collect());
        // CPU of the whole process (both sides of every call) per call.
        let cost = |side: usize| {
            median(
                runs[side]
                    .iter()
                    .map(|r| r.cores_busy * 1e6 / r.calls_per_second)
                    .collect(),
            )
        };
        println!(
            "| {clients} | {:.0} | {:.0} | {:.2} | {} / {} | {} / {} | {:.2} / {:.2} | {:.0} / {:.0} | {:.0} / {:.0} |",
            rate(0),
            rate(1),
            median(ratios),
            p50(0),
            p99(0),
            p50(1),
            p99(1),
            busy(0),
            busy(1),
            cost(0),
            cost(1),
            fds(0),
            fds(1),
        );
    }
    shutdown.cancel();
}

// ----------------------------------------------------------------- memory

/// A server alone in a child process.
struct Child {
    process: std::process::Child,
    address: SocketAddr,
}

impl Child {
    fn spawn(kind: Kind) -> Child {
        let mut process = Command::new(std::env::current_exe().expect("this binary"))
            .args(["--serve", kind.name()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .spawn()
            .expect("the server process starts");
        let mut line = String::new();
        BufReader::new(process.stdout.take().expect("piped"))
            .read_line(&mut line)
            .expect("reads the address");
        let address = line
            .trim()
            .strip_prefix("listening ")
            .and_then(|address| address.parse().ok())
            .unwrap_or_else(|| panic!("not an address line: {line:?}"));
        Child { process, address }
    }

    fn pid(&self) -> String {
        self.process.id().to_string()
    }

    /// Closes the child's stdin: it shuts down and exits.
    fn stop(mut self) {
        drop(self.process.stdin.take());
        let _ = self.process.wait();
    }
}

/// `VmRSS` of `/proc/<pid>/status`, in KiB.
fn rss_kib(pid: &str) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).expect("/proc status");
    status
        .lines()
        .find_map(|line| line.strip_prefix("VmRSS:"))
        .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok())
        .expect("a VmRSS line")
}

fn open_fds(pid: &str) -> usize {
    std::fs::read_dir(format!("/proc/{pid}/fd")).map_or(0, |dir| dir.count())
}

/// User and system CPU time of this process, in seconds (at Linux's usual
/// 100 clock ticks per second).
fn cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/self/stat").expect("/proc/self/stat");
    let after_name = &stat[stat.rfind(')').expect("a name in parentheses") + 1..];
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks: u64 = fields[11].parse::<u64>().unwrap() + fields[12].parse::<u64>().unwrap();
    ticks as f64 / 100.0
}

fn cores() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

async fn settle() {
    tokio::time::sleep(Duration::from_millis(500)).await;
}

async fn memory(settings: &Settings) {
    println!(
        "| server | sessions open | RSS before | RSS with sessions | KiB per session | fds per session | after closing them |"
    );
    println!("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
    for kind in [Kind::Ours, Kind::Rmcp] {
        let child = Child::spawn(kind);
        let pid = child.pid();
        // Warm the allocator and every lazy path with a few sessions first.
        let warm = connect_many(child.address, 16, 16).await;
        for client in &warm {
            call_echo(client, "warm").await;
        }
        close_all(warm).await;
        settle().await;
        let (rss_before, fds_before) = (rss_kib(&pid), open_fds(&pid));
        let mut open = Vec::new();
        for &target in settings.session_counts {
            let more = connect_many(child.address, target - open.len(), 64).await;
            for client in &more {
                call_echo(client, "idle").await;
            }
            open.extend(more);
            settle().await;
            let (rss, fds) = (rss_kib(&pid), open_fds(&pid));
            let closed = if target == *settings.session_counts.last().unwrap() {
                close_all(std::mem::take(&mut open)).await;
                settle().await;
                format!("{} KiB, {} fds", rss_kib(&pid), open_fds(&pid))
            } else {
                "—".to_owned()
            };
            println!(
                "| {} | {target} | {rss_before} KiB, {fds_before} fds | {rss} KiB | {:.1} | {:.2} | {closed} |",
                kind.name(),
                (rss as f64 - rss_before as f64) / target as f64,
                (fds as f64 - fds_before as f64) / target as f64,
            );
        }
        child.stop();
    }
}

// ------------------------------------------------------------------- main

fn runtime() -> tokio::runtime::Runtime {
    tokio::runtime::Builder::new_multi_thread()
        .worker_threads(cores())
        .enable_all()
        .build()
        .expect("a tokio runtime")
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let Some(at) = args.iter().position(|arg| arg == "--serve") {
        let kind = match args.get(at + 1).map(String::as_str) {
            Some("ours") => Kind::Ours,
            Some("rmcp") => Kind::Rmcp,
            other => panic!("--serve ours|rmcp, not {other:?}"),
        };
        return serve_alone(kind);
    }
    let quick = args.iter().any(|arg| arg == "--quick");
    POOLED.store(args.iter().any(|arg| arg == "--pooled"), Ordering::Relaxed);
    let settings = if quick {
        Settings {
            rounds: 1,
            warmup: Duration::from_millis(200),
            window: Duration::from_secs(1),
            client_counts: &[1, 16, 256],
            session_counts: &[100],
        }
    } else {
        Settings {
            rounds: 3,
            warmup: Duration::from_millis(500),
            window: Duration::from_secs(3),
            client_counts: &[1, 16, 256],
            session_counts: &[200, 1000],
        }
    };
    let started = Instant::now();
    println!(
        "tools/call echo over streamable HTTP on loopback; {} CPU cores; {} round(s) per row, {:?} warmup + {:?} counted each, ours and rmcp alternating.",
        cores(),
        settings.rounds,
        settings.warmup,
        settings.window
    );
    println!(
        "Servers (ours and rmcp's, each on its own port) and all clients share this one process and one {}-worker tokio runtime, so the CPU column counts both sides.",
        cores()
    );
    if POOLED.load(Ordering::Relaxed) {
        println!(
            "Clients (--pooled): rmcp 3.11 StreamableHttpClientTransport::with_client on a default reqwest::Client each (keep-alive: POSTs reuse their connection), one session each.\n"
        );
    } else {
        println!(
            "Clients: rmcp 3.11 StreamableHttpClientTransport::from_uri (reqwest with pool_max_idle_per_host(0): every POST opens a new TCP connection), one session each.\n"
        );
    }
    let runtime = runtime();
    runtime.block_on(throughput(&settings));
    println!(
        "\nMemory per open idle session: each server alone in a child process (its VmRSS and /proc/<pid>/fd), sessions initialized from this process and each used for one call.\n"
    );
    runtime.block_on(memory(&settings));
    println!("\n(total {:.0} s)", started.elapsed().as_secs_f64());
}
