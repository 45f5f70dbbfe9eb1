//! Starting a server (a child process on stdio, with the environment it is
//! given and no more) or reaching it (streamable HTTP on our own reqwest
//! client, with its TLS roots), then MCP's `initialize`.

use super::connection::{Handler, Service, State};
use super::token_file::TokenFromFile;
use super::{ClientError, Credential, INHERITED_ENV, Target, Upstream, Variable};
use rmcp::ServiceExt;
use rmcp::service::ClientInitializeError;
use rmcp::transport::common::client_side_sse::ExponentialBackoff;
use rmcp::transport::streamable_http_client::{
    StreamableHttpClientTransportConfig, StreamableHttpError,
};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess};
use std::collections::HashMap;
use std::ffi::OsString;
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

/// Starts the server (or reaches it) and runs `initialize`.
pub(super) async fn start(upstream: &Upstream, state: &Arc<State>) -> Result<Service, ClientError> {
    // `initialize` is traced too, its context in its `_meta`.
    let span = super::span::request_span("initialize", upstream);
    let handler = Handler {
        state: Arc::clone(state),
        upstream: upstream.clone(),
        initialize_meta: crate::trace_context::outgoing(&span),
    };
    let limit = upstream.connect_timeout;
    // Not entered: rmcp's tasks for the connection would keep it (and so
    // its end) for as long as the connection lives.
    let started = serve_on(upstream, handler, limit).await;
    let outcome = match started {
        Ok(Ok(Ok(service))) => Ok(service),
        Ok(Ok(Err(error))) => Err(ClientError::Connect(start_failure(&error))),
        Ok(Err(_)) => Err(ClientError::Connect(format!(
            "no answer within {} ms",
            limit.as_millis()
        ))),
        Err(error) => Err(error),
    };
    if let Err(error) = &outcome {
        super::span::failed(&span, "_OTHER", &error.to_string());
    }
    drop(span);
    outcome
}

/// What serving `initialize` to the upstream came to, within `limit`.
type Started = Result<Result<Service, ClientInitializeError>, tokio::time::error::Elapsed>;

/// Starts the upstream's program, or builds the HTTP client to reach it,
/// and serves `handler` on it; an error for what could not even start.
async fn serve_on(
    upstream: &Upstream,
    handler: Handler,
    limit: Duration,
) -> Result<Started, ClientError> {
    let started = match &upstream.target {
        Target::Command { program, args, env } => {
            let mut command = tokio::process::Command::new(program);
            command
                .args(args)
                .env_clear()
                .envs(environment(env))
                .kill_on_drop(true);
            let (child, _) = TokioChildProcess::builder(command)
                .stderr(Stdio::inherit())
                .spawn()
                .map_err(|error| {
                    ClientError::Connect(format!(
                        "cannot start {}: {error}",
                        program.to_string_lossy()
                    ))
                })?;
            tokio::time::timeout(limit, handler.serve(child)).await
        }
        Target::Http {
            url,
            bearer_token,
            root_certificates,
            #[cfg(feature = "client-oauth")]
            oauth,
        } => {
            // Building it reads the system's CA certificates from disk.
            let roots = root_certificates.clone();
            let client = tokio::task::spawn_blocking(move || http_client(&roots, limit))
                .await
                .map_err(|error| {
                    ClientError::Connect(format!("cannot build the HTTP client: {error}"))
                })?
                .map_err(ClientError::Connect)?;
            let mut config = StreamableHttpClientTransportConfig::with_uri(url.as_str());
            config.retry_config = Arc::new(resume_once());
            #[cfg(feature = "client-oauth")]
            if let Some(oauth) = oauth {
                let authorizer = super::oauth::Authorizer::new(oauth.clone(), url, root_certificates)
                    .map_err(ClientError::Connect)?;
                let client =
                    super::oauth::WithOAuth::new(client, Arc::new(authorizer), oauth.max_step_ups());
                let transport = StreamableHttpClientTransport::with_client(client, config);
                return Ok(tokio::time::timeout(limit, handler.serve(transport)).await);
            }
            match bearer_token {
                Some(Credential::File(path)) => {
                    let client = TokenFromFile::open(client, path)
                        .map_err(|error| ClientError::Connect(error.to_string()))?;
                    let transport = StreamableHttpClientTransport::with_client(client, config);
                    tokio::time::timeout(limit, handler.serve(transport)).await
                }
                fixed => {
                    if let Some(Credential::Fixed(token)) = fixed {
                        config = config.auth_header(token.clone());
                    }
                    let transport = StreamableHttpClientTransport::with_client(client, config);
                    tokio::time::timeout(limit, handler.serve(transport)).await
                }
            }
        }
    };
    Ok(started)
}

/// rmcp's words for a failed start, with what went wrong underneath (a
/// refused certificate, a refused connection) and without the transport's
/// Rust type, which rmcp's own message names.
fn start_failure(error: &ClientInitializeError) -> String {
    match error {
        ClientInitializeError::TransportError { error, context } => {
            let inner: &(dyn std::error::Error + 'static) = error.error.as_ref();
            // rmcp's wrapper of reqwest's error does not name it as its
            // source; reqwest's own causes say what failed.
            let inner = match inner.downcast_ref::<StreamableHttpError<reqwest::Error>>() {
                Some(StreamableHttpError::Client(client)) => client,
                _ => inner,
            };
            format!("cannot {context}: {}", with_causes(inner))
        }
        other => with_causes(other),
    }
}

/// `error`'s message, then each cause's that it does not already hold.
pub(super) fn with_causes(error: &(dyn std::error::Error + 'static)) -> String {
    let mut message = error.to_string();
    let mut cause = error.source();
    while let Some(inner) = cause {
        let text = inner.to_string();
        if !message.contains(&text) {
            message.push_str(": ");
            message.push_str(&text);
        }
        cause = inner.source();
    }
    message
}

/// A started server's whole environment: [`INHERITED_ENV`] (those set
/// here), then the upstream's own variables in order, a later one winning.
fn environment(own: &[Variable]) -> HashMap<OsString, OsString> {
    let mut variables: HashMap<OsString, OsString> = INHERITED_ENV
        .iter()
        .filter_map(|name| Some((OsString::from(name), std::env::var_os(name)?)))
        .collect();
    for variable in own {
        match variable {
            Variable::Set(name, value) => {
                variables.insert(name.clone(), value.clone());
            }
            Variable::Inherited(name) => match std::env::var_os(name) {
                Some(value) => {
                    variables.insert(name.clone(), value);
                }
                None => {
                    variables.remove(name);
                }
            },
        }
    }
    variables
}

/// How a streamable HTTP response stream that breaks before its answer is
/// resumed (a GET with `Last-Event-ID`): one attempt, at once when the
/// connection broke, or after the server's SSE `retry` wait (rmcp's servers
/// ask for 3 s; [`RESUME_WAIT`] if it named none) when the stream ended
/// cleanly. If that attempt fails, rmcp answers the calls waiting on the
/// stream "transport closed", and [`Connection::failed`] marks the
/// connection for reconnecting. rmcp's default retries without end,
/// doubling its wait, so a call to a server that died would wait for its
/// timeout.
fn resume_once() -> ExponentialBackoff {
    let mut policy = ExponentialBackoff::default();
    policy.max_times = Some(1);
    policy.base_duration = RESUME_WAIT;
    policy
}

/// How long a broken response stream waits before its one resumption when
/// the server named no wait of its own.
const RESUME_WAIT: Duration = Duration::from_millis(500);

/// The HTTP client of an HTTP upstream: rmcp's default settings (one
/// connection per request, same-origin 307/308 redirects only), a bound on
/// connecting, and the upstream's extra roots.
fn http_client(
    root_certificates: &[Vec<u8>],
    connect_timeout: Duration,
) -> Result<reqwest::Client, String> {
    let mut builder = reqwest::Client::builder()
        // rmcp's reason: a reused connection whose last body was not read
        // to its end stalls ~40 ms on Linux's delayed ACK.
        .pool_max_idle_per_host(0)
        .redirect(same_origin_redirects())
        .connect_timeout(connect_timeout);
    for (index, pem) in root_certificates.iter().enumerate() {
        let place = format!(
            "root certificate {} of {}",
            index + 1,
            root_certificates.len()
        );
        let certificates = reqwest::Certificate::from_pem_bundle(pem)
            .map_err(|error| format!("{place} is not PEM: {error}"))?;
        if certificates.is_empty() {
            return Err(format!(
                "{place} holds no certificate (expected -----BEGIN CERTIFICATE-----)"
            ));
        }
        for certificate in certificates {
            builder = builder.add_root_certificate(certificate);
        }
    }
    builder
        .build()
        .map_err(|error| format!("cannot build the HTTP client: {error}"))
}

/// The redirects rmcp's own client follows: 307 and 308 (which keep the
/// POST's body) to the same origin (so the session and token go nowhere
/// else), at most 10; any other redirect is returned as the answer.
fn same_origin_redirects() -> reqwest::redirect::Policy {
    const MAX_REDIRECTS: usize = 10;
    reqwest::redirect::Policy::custom(|attempt| {
        let keeps_body = matches!(
            attempt.status(),
            reqwest::StatusCode::TEMPORARY_REDIRECT | reqwest::StatusCode::PERMANENT_REDIRECT
        );
        let same_origin = attempt
            .previous()
            .first()
            .is_some_and(|first| first.origin() == attempt.url().origin());
        if !keeps_body || !same_origin {
            attempt.stop()
        } else if attempt.previous().len() > MAX_REDIRECTS {
            attempt.error(format!("more than {MAX_REDIRECTS} redirects"))
        } else {
            attempt.follow()
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    use tokio::net::TcpListener;

    /// A server on loopback that answers each request by its path: a
    /// redirect where `routes` says so, else 200 with the request's method
    /// and body. One request per connection, as the client sends them.
    async fn redirecting(routes: Vec<(&'static str, String)>) -> std::net::SocketAddr {
        let listener = TcpListener::bind("127.0.0.1:0").await.unwrap();
        let address = listener.local_addr().unwrap();
        tokio::spawn(async move {
            while let Ok((mut stream, _)) = listener.accept().await {
                let mut request = Vec::new();
                let mut buffer = [0; 4096];
                // The head and a body of a few bytes arrive together.
                while !request.windows(4).any(|w| w == b"\r\n\r\n") {
                    let Ok(read) = stream.read(&mut buffer).await else {
                        return;
                    };
                    if read == 0 {
                        break;
                    }
                    request.extend_from_slice(&buffer[..read]);
                }
                let text = String::from_utf8_lossy(&request).into_owned();
                let mut words = text.split_whitespace();
                let method = words.next().unwrap_or_default().to_owned();
                let path = words.next().unwrap_or_default().to_owned();
                let body = text.split_once("\r\n\r\n").map_or("", |(_, body)| body);
                let answer = match routes.iter().find(|(from, _)| *from == path) {
                    Some((_, head)) => format!("HTTP/1.1 {head}\r\nContent-Length: 0\r\n\r\n"),
                    None => {
                        let said = format!("{method} {path} {body}");
                        format!(
                            "HTTP/1.1 200 OK\r\nContent-Length: {}\r\n\r\n{said}",
                            said.len()
                        )
                    }
                };
                let _ = stream.write_all(answer.as_bytes()).await;
            }
        });
        address
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 2)]
    async fn redirects_are_followed_as_rmcps_own_client_follows_them() {
        let elsewhere = redirecting(Vec::new()).await;
        let server = redirecting(vec![
            (
                "/temporary",
                "307 Temporary Redirect\r\nLocation: /final".to_owned(),
            ),
            (
                "/permanent",
                "308 Permanent Redirect\r\nLocation: /final".to_owned(),
            ),
            ("/found", "302 Found\r\nLocation: /final".to_owned()),
            (
                "/away",
                format!("307 Temporary Redirect\r\nLocation: http://{elsewhere}/final"),
            ),
            (
                "/loop",
                "307 Temporary Redirect\r\nLocation: /loop".to_owned(),
            ),
        ])
        .await;
        let client = http_client(&[], Duration::from_secs(5)).unwrap();
        let post = |path: &str| {
            client
                .post(format!("http://{server}{path}"))
                .body("{}")
                .send()
        };

        // 307 and 308 to the same origin: followed, the POST and its body kept.
        for path in ["/temporary", "/permanent"] {
            let response = post(path).await.unwrap();
            assert_eq!(response.status(), 200, "{path}");
            assert_eq!(response.text().await.unwrap(), "POST /final {}", "{path}");
        }
        // A 302 (which would drop the body) and another origin: answered
        // as they are.
        assert_eq!(post("/found").await.unwrap().status(), 302);
        assert_eq!(post("/away").await.unwrap().status(), 307);
        // And not for ever.
        let error = post("/loop").await.unwrap_err();
        assert!(error.is_redirect(), "{error}");
    }

    #[test]
    fn roots_that_are_not_certificates_are_named() {
        let garbage =
            b"-----BEGIN CERTIFICATE-----\nnot base64 at all!\n-----END CERTIFICATE-----\n";
        let error =
            http_client(&[Vec::new(), garbage.to_vec()], Duration::from_secs(5)).unwrap_err();
        assert_eq!(
            error,
            "root certificate 1 of 2 holds no certificate (expected -----BEGIN CERTIFICATE-----)"
        );
        let error = http_client(&[garbage.to_vec()], Duration::from_secs(5)).unwrap_err();
        assert!(
            error.starts_with("root certificate 1 of 1 is not PEM: "),
            "{error}"
        );
    }
}
