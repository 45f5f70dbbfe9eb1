//! What the HTTP server tests (`server::*`) share: a server on a free
//! loopback port, and HTTP/1.1 written by hand on a TCP socket, so every
//! byte sent (or not sent) is the test's. Declared by the test binary's
//! `main.rs` as `#[path = "../support/mod.rs"] mod support;`, as in the
//! workspace's other test packages.

#![allow(dead_code)] // Each test file uses its own part.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use tool_core::{ToolRegistry, tool};
use tool_mcp::HttpServer;

/// Echo one value
#[tool]
pub(crate) async fn echo(value: String) -> String {
    value
}

/// Answers after `ms` milliseconds
#[tool]
pub(crate) async fn nap(ms: u64) -> String {
    tokio::time::sleep(Duration::from_millis(ms)).await;
    "rested".to_owned()
}

pub(crate) const TOKEN: &str = "s3cret-Token_value";
/// Only there so a hang fails the test.
pub(crate) const CEILING: Duration = Duration::from_secs(10);

pub(crate) fn registry() -> ToolRegistry {
    let mut tools = ToolRegistry::new();
    tools.register(EchoTool).unwrap();
    tools.register(NapTool).unwrap();
    tools
}

pub(crate) struct Running {
    pub address: SocketAddr,
    pub shutdown: CancellationToken,
    pub task: JoinHandle<std::io::Result<()>>,
}

impl Running {
    pub(crate) async fn stop(self) {
        self.shutdown.cancel();
        self.task.await.unwrap().expect("the server ran");
    }

    /// `Host` naming the address bound, as a client connecting to it sends.
    pub(crate) fn host(&self) -> String {
        format!("localhost:{}", self.address.port())
    }
}

pub(crate) async fn start_at(
    address: &str,
    options: impl FnOnce(HttpServer) -> HttpServer,
) -> Running {
    start_tools_at(registry(), address, options).await
}

/// `tools` served on a free loopback port, with `options`.
pub(crate) async fn start_with(
    tools: ToolRegistry,
    options: impl FnOnce(HttpServer) -> HttpServer,
) -> Running {
    start_tools_at(tools, "127.0.0.1:0", options).await
}

async fn start_tools_at(
    tools: ToolRegistry,
    address: &str,
    options: impl FnOnce(HttpServer) -> HttpServer,
) -> Running {
    start_server_at(tools.into(), address, options).await
}

/// `server` (with its call options) on a free loopback port, with `options`.
pub(crate) async fn start_server(
    server: tool_mcp::McpServer,
    options: impl FnOnce(HttpServer) -> HttpServer,
) -> Running {
    start_server_at(server, "127.0.0.1:0", options).await
}

async fn start_server_at(
    server: tool_mcp::McpServer,
    address: &str,
    options: impl FnOnce(HttpServer) -> HttpServer,
) -> Running {
    let server = HttpServer::bind(server, address.parse().unwrap())
        .await
        .expect("binds");
    let address = server.local_addr().unwrap();
    let server = options(server);
    let shutdown = CancellationToken::new();
    let task = tokio::spawn(server.run(shutdown.clone()));
    Running {
        address: SocketAddr::new("127.0.0.1".parse().unwrap(), address.port()),
        shutdown,
        task,
    }
}

pub(crate) async fn start(options: impl FnOnce(HttpServer) -> HttpServer) -> Running {
    start_at("127.0.0.1:0", options).await
}

#[derive(Debug)]
pub(crate) struct Answer {
    pub status: u16,
    pub headers: Vec<(String, String)>,
    pub body: String,
}

impl Answer {
    pub(crate) fn header(&self, name: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|(key, _)| key.eq_ignore_ascii_case(name))
            .map(|(_, value)| value.as_str())
    }

    pub(crate) fn session(&self) -> String {
        self.header("mcp-session-id")
            .unwrap_or_else(|| panic!("no session id: {self:?}"))
            .to_owned()
    }
}

/// Sends `request` on a new connection and reads the answer to the end
/// (every request says `Connection: close`).
pub(crate) async fn send(address: SocketAddr, request: Vec<u8>) -> Answer {
    tokio::task::spawn_blocking(move || {
        let mut stream = TcpStream::connect(address).unwrap();
        stream.set_read_timeout(Some(CEILING)).unwrap();
        stream.write_all(&request).unwrap();
        let mut bytes = Vec::new();
        stream.read_to_end(&mut bytes).expect("the answer is read");
        parse(&bytes)
    })
    .await
    .unwrap()
}

pub(crate) fn parse(bytes: &[u8]) -> Answer {
    let text = String::from_utf8_lossy(bytes);
    let (head, body) = text
        .split_once("\r\n\r\n")
        .unwrap_or_else(|| panic!("not an HTTP answer: {text:?}"));
    let mut lines = head.split("\r\n");
    let status = lines
        .next()
        .unwrap()
        .split(' ')
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    let headers: Vec<(String, String)> = lines
        .filter_map(|line| line.split_once(':'))
        .map(|(key, value)| (key.trim().to_owned(), value.trim().to_owned()))
        .collect();
    let chunked = headers
        .iter()
        .any(|(key, value)| key.eq_ignore_ascii_case("transfer-encoding") && value == "chunked");
    let body = if chunked {
        dechunk(body)
    } else {
        body.to_owned()
    };
    Answer {
        status,
        headers,
        body,
    }
}

pub(crate) fn dechunk(mut body: &str) -> String {
    let mut out = String::new();
    while let Some((size, rest)) = body.split_once("\r\n") {
        let size = usize::from_str_radix(size.trim(), 16).unwrap_or(0);
        if size == 0 {
            break;
        }
        out.push_str(&rest[..size]);
        body = &rest[size + 2..];
    }
    out
}

/// A POST to `/mcp` with `headers` besides the usual ones.
pub(crate) fn post(host: &str, headers: &[(&str, &str)], body: &str) -> Vec<u8> {
    let mut request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {host}\r\nAccept: application/json, text/event-stream\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n",
        body.len()
    );
    for (name, value) in headers {
        request.push_str(&format!("{name}: {value}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    request.into_bytes()
}

pub(crate) const INITIALIZE: &str = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"http-safety","version":"0.1.0"}}}"#;
pub(crate) const INITIALIZED: &str = r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#;
pub(crate) const LIST: &str = r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#;

pub(crate) fn call(id: u32, name: &str, arguments: &str) -> String {
    format!(
        r#"{{"jsonrpc":"2.0","id":{id},"method":"tools/call","params":{{"name":"{name}","arguments":{arguments}}}}}"#
    )
}

pub(crate) fn bearer(token: &str) -> String {
    format!("Bearer {token}")
}

/// An initialized session: its id.
pub(crate) async fn open_session(server: &Running, auth: &[(&str, &str)]) -> String {
    let answer = send(server.address, post(&server.host(), auth, INITIALIZE)).await;
    assert_eq!(answer.status, 200, "{answer:?}");
    let session = answer.session();
    let mut headers = auth.to_vec();
    headers.push(("Mcp-Session-Id", &session));
    let answer = send(server.address, post(&server.host(), &headers, INITIALIZED)).await;
    assert_eq!(answer.status, 202, "{answer:?}");
    session
}

pub(crate) async fn bounded<F: std::future::Future>(future: F) -> F::Output {
    tokio::time::timeout(CEILING, future)
        .await
        .expect("within the ceiling")
}

/// The JSON of an answer's body: the body itself when it is JSON, else the
/// last `data:` line of its event stream (where the result comes).
pub(crate) fn answer_json(answer: &Answer) -> serde_json::Value {
    if let Ok(value) = serde_json::from_str(&answer.body) {
        return value;
    }
    let data = answer
        .body
        .lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(str::trim)
        .rfind(|data| !data.is_empty())
        .unwrap_or_else(|| panic!("no JSON in {answer:?}"));
    serde_json::from_str(data).unwrap()
}

/// Held by the tests that read log lines, so that each reads only its
/// own server's.
pub(crate) static LOGGED: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Where a thread's log lines go while a [`Logs`] lives, and from which
/// level.
type Capture = Option<(tracing::Level, Arc<Mutex<Vec<u8>>>)>;

thread_local! {
    static CAPTURE: std::cell::RefCell<Capture> = const { std::cell::RefCell::new(None) };
}

/// One subscriber for the whole test binary, set once, that keeps the
/// lines of the threads a [`Logs`] captures and drops the others. One, and
/// global, because tracing caches whether a log statement is wanted the
/// first time it runs: with a subscriber per test (`set_default`), a
/// statement first run on another test's thread could be cached as
/// unwanted, silencing it in a later capture (seen with more test
/// threads). Its filter decides per event, so nothing is cached.
fn install_capture() {
    static INSTALLED: std::sync::Once = std::sync::Once::new();
    INSTALLED.call_once(|| {
        use tracing_subscriber::layer::SubscriberExt;
        let lines = tracing_subscriber::fmt::layer()
            .with_ansi(false)
            .with_writer(|| Appender);
        let subscriber = tracing_subscriber::registry()
            .with(OnlyCaptured)
            .with(lines);
        tracing::subscriber::set_global_default(subscriber)
            .expect("no other subscriber is set in this test binary");
    });
}

/// Lets through what a [`Logs`] of the thread wants, asked at every event
/// (never cached per statement).
struct OnlyCaptured;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for OnlyCaptured {
    fn register_callsite(
        &self,
        _metadata: &'static tracing::Metadata<'static>,
    ) -> tracing::subscriber::Interest {
        tracing::subscriber::Interest::sometimes()
    }

    fn enabled(
        &self,
        metadata: &tracing::Metadata<'_>,
        _context: tracing_subscriber::layer::Context<'_, S>,
    ) -> bool {
        CAPTURE.with(|capture| {
            capture
                .borrow()
                .as_ref()
                .is_some_and(|(level, _)| metadata.level() <= level)
        })
    }
}

/// The log lines at `level` and above written on this thread while it
/// lives (a test's runtime of one thread: the server's tasks log on it).
pub(crate) struct Logs {
    lines: Arc<Mutex<Vec<u8>>>,
}

impl Logs {
    pub(crate) fn capture(level: tracing::Level) -> Logs {
        install_capture();
        let lines = Arc::<Mutex<Vec<u8>>>::default();
        CAPTURE.with(|capture| *capture.borrow_mut() = Some((level, Arc::clone(&lines))));
        Logs { lines }
    }

    pub(crate) fn text(&self) -> String {
        String::from_utf8(self.lines.lock().unwrap().clone()).unwrap()
    }

    /// The lines of the audit log (target `tool_mcp::audit`).
    pub(crate) fn audit(&self) -> Vec<String> {
        self.text()
            .lines()
            .filter(|line| line.contains("tool_mcp::audit"))
            .map(str::to_owned)
            .collect()
    }
}

impl Drop for Logs {
    fn drop(&mut self) {
        CAPTURE.with(|capture| capture.borrow_mut().take());
    }
}

/// Writes to the capture of the thread it writes on.
struct Appender;

impl Write for Appender {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        CAPTURE.with(|capture| {
            if let Some((_, lines)) = capture.borrow().as_ref() {
                lines.lock().unwrap().extend_from_slice(bytes);
            }
        });
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}
