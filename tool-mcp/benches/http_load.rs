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
//! `--serve`); this process opens sessions to it, each calling `echo` once
//! and then left idle, and reads the child's `VmRSS` and open file
//! descriptors from `/proc`.
//!
//! Without sessions (`--stateless`): ours is `HttpServer::stateless()`,
//! rmcp's the same service with `legacy_session_mode(false)` and
//! `json_response(true)`, which is what `stateless()` sets; a deployment of
//! several processes behind a round-robin balancer runs this. The clients
//! are measured twice: on 2025-06-18 (`initialize`, no session comes back,
//! then each call a POST of its own with `MCP-Protocol-Version`) and on
//! 2026-07-28 (`server/discover`, then calls that carry their revision).
//! There are no sessions to weigh, so no memory table.
//!
//! Usage: `cargo bench -p tool-mcp --bench http_load [-- --quick] [--pooled]
//! [--stateless | --memory]` (about 90 s, twice that with `--stateless`;
//! `--quick` about 15 s; `--memory`: the memory table alone). `--pooled`
//! gives each client a reqwest client that keeps its connections, where
//! rmcp's default client opens a new one for every POST. Not part of
//! `cargo test`.

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::server::conn::http1;
use hyper::service::service_fn;
use hyper::{Request, Response, StatusCode};
use hyper_util::rt::TokioIo;
use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{
    CallToolRequestParams, ClientConfig, ProtocolVersion, ServerCapabilities, ServerConfig,
};
use rmcp::service::{ClientLifecycleMode, ClientServiceExt, RunningService};
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

/// Requests in flight our server admits at once here (its default is 256,
/// as many as the most clients measured: one more in flight, as a client's
/// next call overtakes the end of its last, would be a 429).
const MAX_IN_FLIGHT: usize = 100_000;

/// Connections not yet past the checks our server keeps here (its default
/// is 256). reqwest's pool opens connections it may never send a request
/// on (it races a new connection against the return of a busy one), and
/// such a connection stays pending: with 1000 `--pooled` sessions open, the
/// default would close some of them (the oldest first), and a client that
/// then picks one from its pool sees it closed. The bench measures calls,
/// not that limit.
const MAX_PENDING_CONNECTIONS: usize = 100_000;

/// Whether both servers serve without sessions (`--stateless`).
static STATELESS: AtomicBool = AtomicBool::new(false);

const LOOPBACK: SocketAddr = SocketAddr::new(std::net::IpAddr::V4(Ipv4Addr::LOCALHOST), 0);

/// Starts `kind`'s server on a free loopback port, as a task of the current
/// runtime, until `shutdown`.
async fn start_server(kind: Kind, shutdown: CancellationToken) -> SocketAddr {
    match kind {
        Kind::Ours => {
            let mut tools = ToolRegistry::new();
            tools.register(EchoTool).expect("registers echo");
            // The defaults admit 256 sessions at once (503 beyond): the
            // memory figures open more, and closed sessions leave rmcp's
            // map a moment after their DELETE is answered.
            let mut server = HttpServer::bind(tools, LOOPBACK)
                .await
                .expect("binds loopback")
                .with_max_sessions(MAX_SESSIONS)
                .with_max_in_flight(MAX_IN_FLIGHT)
                .with_max_pending_connections(MAX_PENDING_CONNECTIONS);
            if STATELESS.load(Ordering::Relaxed) {
                server = server.stateless();
            }
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
/// `tool_mcp::HttpServer` (src/http/serve.rs), with rmcp's default
/// configuration (or, `--stateless`, the two settings `stateless()` makes)
/// and none of its checks. Like src/http/serve.rs it turns Nagle's algorithm
/// off for accepted sockets (else a kept-alive connection waits ~40 ms for
/// the client's delayed ACK on every call, and `--pooled` would compare
/// unlike things).
async fn serve_rmcp(listener: TcpListener, shutdown: CancellationToken) {
    let mut config =
        StreamableHttpServerConfig::default().with_cancellation_token(shutdown.child_token());
    if STATELESS.load(Ordering::Relaxed) {
        config = config
            .with_legacy_session_mode(false)
            .with_json_response(true);
    }
    let service = StreamableHttpService::new(
        || Ok(RmcpEcho::new()),
        Arc::new(LocalSessionManager::default()),
        config,
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

/// `--serve ours|rmcp [--stateless]`: serves alone in this process (for
/// the memory figures, and scripts/stateless-load.sh), prints `listening
/// <address>`, and exits when stdin closes.
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

/// How clients start: rmcp's default `initialize` (it asks for its latest
/// revision; the server answers with the one it picks), `initialize` asking
/// for 2025-06-18, or `server/discover` on 2026-07-28, which never opens a
/// session.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Revision {
    Default,
    Legacy,
    Modern,
}

/// How clients start, a [`Revision`] as a number (for a static).
static REVISION: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

fn revision() -> Revision {
    match REVISION.load(Ordering::Relaxed) {
        0 => Revision::Default,
        1 => Revision::Legacy,
        _ => Revision::Modern,
    }
}

fn set_revision(revision: Revision) {
    REVISION.store(revision as u8, Ordering::Relaxed);
}

/// A client that has started with the server at `address`: initialized its
/// own session, or (stateless server, 2026-07-28) none.
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
    match revision() {
        Revision::Default => ClientConfig::default().serve(transport).await,
        Revision::Legacy => {
            ClientConfig::default()
                .with_protocol_version(ProtocolVersion::V_2025_06_18)
                .serve(transport)
                .await
        }
        Revision::Modern => {
            ClientConfig::default()
                .serve_with_lifecycle(
                    transport,
                    ClientLifecycleMode::Discover {
                        preferred_versions: vec![ProtocolVersion::V_2026_07_28],
                    },
                )
                .await
        }
    }
    .expect("the client starts")
}

/// What a client of `kind`'s server negotiates, and whether it gets a
/// session: rmcp's client does not tell, so the headers of a bare
/// `initialize`'s answer are read (the table's title must not claim
/// "stateless" for a server that still hands out sessions).
async fn describe_clients(kind: Kind, address: SocketAddr) -> String {
    let client = connect(address).await;
    let negotiated = client
        .peer()
        .peer_info()
        .map_or("?".to_owned(), |info| info.protocol_version.to_string());
    call_echo(&client, "probe").await;
    close_all(vec![client]).await;
    let session = match revision() {
        Revision::Modern => "no session",
        Revision::Default | Revision::Legacy => {
            if initialize_opens_session(address).await {
                "a session (Mcp-Session-Id)"
            } else {
                "no session"
            }
        }
    };
    format!("{} negotiates {negotiated}, {session}", kind.name())
}

/// Whether a bare `initialize` (2025-06-18) to `address` is answered with
/// an `Mcp-Session-Id`.
async fn initialize_opens_session(address: SocketAddr) -> bool {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let body = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"probe","version":"0"}}}"#;
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {address}\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(address)
        .await
        .expect("connects");
    stream
        .write_all(request.as_bytes())
        .await
        .expect("sends initialize");
    let mut answer = Vec::new();
    let _ = stream.read_to_end(&mut answer).await;
    String::from_utf8_lossy(&answer)
        .to_ascii_lowercase()
        .contains("\r\nmcp-session-id:")
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
    /// CPU time of every other process of the machine per second of the
    /// window: a build running beside shows here, and the round can be
    /// told apart and repeated.
    others_busy: f64,
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
    let machine_start = machine_cpu_seconds();
    tokio::time::sleep(settings.window / 2).await;
    let fds = open_fds("self");
    tokio::time::sleep_until(end.into()).await;
    let cpu = cpu_seconds() - cpu_start;
    let machine = machine_cpu_seconds() - machine_start;
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
        others_busy: (machine - cpu).max(0.0) / settings.window.as_secs_f64(),
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

/// The median of the rounds' ratios, and their range when there are several.
fn spread(mut ratios: Vec<f64>) -> String {
    ratios.sort_by(f64::total_cmp);
    match ratios.as_slice() {
        [only] => format!("{only:.2}"),
        [first, .., last] => format!("{:.2} ({first:.2} – {last:.2})", median(ratios.clone())),
        [] => "—".to_owned(),
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
        "Clients: {}; {}.\n",
        describe_clients(Kind::Ours, ours).await,
        describe_clients(Kind::Rmcp, rmcp).await
    );
    println!(
        "| clients | ours calls/s | rmcp calls/s | ratio | ours p50 / p99 | rmcp p50 / p99 | CPU busy (of {} cores), ours / rmcp | CPU µs per call, ours / rmcp | fds mid-run, ours / rmcp | other processes' CPU, ours / rmcp |",
        cores()
    );
    println!("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
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
        let others = |side: usize| median(runs[side].iter().map(|r| r.others_busy).collect());
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
            "| {clients} | {:.0} | {:.0} | {} | {} / {} | {} / {} | {:.2} / {:.2} | {:.0} / {:.0} | {:.0} / {:.0} | {:.2} / {:.2} |",
            rate(0),
            rate(1),
            spread(ratios),
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
            others(0),
            others(1),
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

/// Busy CPU time of the whole machine, every core, in seconds (`/proc/stat`:
/// user, nice, system, irq, softirq and steal).
fn machine_cpu_seconds() -> f64 {
    let stat = std::fs::read_to_string("/proc/stat").expect("/proc/stat");
    let line = stat.lines().next().expect("the cpu line");
    let ticks: Vec<u64> = line
        .split_whitespace()
        .skip(1)
        .map(|field| field.parse().unwrap_or(0))
        .collect();
    let busy = ticks[0] + ticks[1] + ticks[2] + ticks[5] + ticks[6] + ticks[7];
    busy as f64 / 100.0
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
    let stateless = args.iter().any(|arg| arg == "--stateless");
    STATELESS.store(stateless, Ordering::Relaxed);
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
        "tools/call echo over streamable HTTP on loopback{}; {} CPU cores; {} round(s) per row, {:?} warmup + {:?} counted each, ours and rmcp alternating.",
        if stateless {
            ", both servers without sessions (ours: HttpServer::stateless(); rmcp: legacy_session_mode(false), json_response(true))"
        } else {
            ""
        },
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
            "Clients (--pooled): rmcp 3.11 StreamableHttpClientTransport::with_client on a default reqwest::Client each (keep-alive: POSTs reuse their connection).\n"
        );
    } else {
        println!(
            "Clients: rmcp 3.11 StreamableHttpClientTransport::from_uri (reqwest with pool_max_idle_per_host(0): every POST opens a new TCP connection).\n"
        );
    }
    let runtime = runtime();
    if stateless {
        for (revision, title) in [
            (
                Revision::Legacy,
                "2025-06-18 clients: initialize (no session comes back), then each call a POST of its own",
            ),
            (
                Revision::Modern,
                "2026-07-28 clients: server/discover, then each call a POST of its own",
            ),
        ] {
            set_revision(revision);
            println!("{title}.");
            runtime.block_on(throughput(&settings));
            println!();
        }
        println!("No memory table: without sessions nothing stays open between calls.");
    } else {
        if !args.iter().any(|arg| arg == "--memory") {
            runtime.block_on(throughput(&settings));
        }
        println!(
            "\nMemory per open idle session: each server alone in a child process (its VmRSS and /proc/<pid>/fd), sessions initialized from this process by the clients above, each used for one call and then left idle.\n"
        );
        runtime.block_on(memory(&settings));
    }
    println!("\n(total {:.0} s)", started.elapsed().as_secs_f64());
}
