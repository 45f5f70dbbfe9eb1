//! Upstreams that are not there yet when `mcp` starts: a server that is
//! down, or slow to answer, must not keep the others' tools (and this
//! program's own) from being served. Each upstream is connected on a task
//! of its own; those connected within [`START_WAIT`] are served from the
//! start, the others keep trying in the background (waiting a little
//! longer after each failure, up to [`RETRY_CEILING`]) and their tools
//! appear when they connect: the server's clients are told with
//! `notifications/tools/list_changed`
//! ([`McpServer::update_tools`](tool_mcp::McpServer::update_tools)).
//!
//! `call` has no later: there every upstream must connect
//! ([`add_upstreams`](crate::upstream::add_upstreams)).

use crate::upstream::{UpstreamSettings, UpstreamSpec, prepare, register};
use std::io;
use std::time::Duration;
use tokio::task::JoinHandle;
use tool_core::ToolRegistry;
use tool_mcp::McpServer;
use tool_mcp::client::{McpClient, Upstream};

/// How long the start waits for the upstreams before serving without
/// those not connected yet.
pub const START_WAIT: Duration = Duration::from_secs(5);

/// The first wait after a failed connection; it doubles after each.
const FIRST_RETRY: Duration = Duration::from_secs(1);

/// The longest wait between two attempts.
pub const RETRY_CEILING: Duration = Duration::from_secs(30);

/// An upstream still connecting, and its prefix.
#[derive(Debug)]
pub struct Later {
    /// Its tools' prefix.
    pub prefix: String,
    connecting: JoinHandle<McpClient>,
}

/// Connects to every upstream at once, waiting at most `wait` for their
/// first attempts: those connected are registered in `registry` (as
/// [`add_upstreams`](crate::upstream::add_upstreams) does) and their
/// clients returned; the others (refused, failed, or not answering in
/// time) are returned still connecting, on a task that tries again, for
/// [`serve_when_connected`]. Mistakes in the settings (a token file, a
/// trusted name) are errors before anything is started.
pub async fn add_upstreams_or_later(
    registry: &mut ToolRegistry,
    specs: &[UpstreamSpec],
    settings: &UpstreamSettings,
    wait: Duration,
) -> io::Result<(Vec<McpClient>, Vec<Later>)> {
    let deadline = tokio::time::Instant::now() + wait;
    let attempts: Vec<_> = prepare(specs, settings)?
        .into_iter()
        .map(|(prefix, upstream)| {
            let first = tokio::spawn(tokio::time::timeout_at(
                deadline,
                McpClient::connect(upstream.clone()),
            ));
            (prefix, upstream, first)
        })
        .collect();
    let mut clients = Vec::new();
    let mut later = Vec::new();
    for (prefix, upstream, first) in attempts {
        let failure = match first.await {
            Ok(Ok(Ok(client))) => {
                register(&client, registry, &prefix, &[])?;
                clients.push(client);
                continue;
            }
            Ok(Ok(Err(error))) => error.to_string(),
            Ok(Err(_)) => format!("no answer within {} s", wait.as_secs()),
            Err(panicked) => panicked.to_string(),
        };
        tracing::warn!(
            "upstream {prefix}: {failure}; serving without its tools, which appear when it \
             connects (trying again in the background)"
        );
        later.push(Later {
            connecting: tokio::spawn(connect_until_connected(prefix.clone(), upstream)),
            prefix,
        });
    }
    Ok((clients, later))
}

/// Serves each of `later`'s tools through `server` once it connects
/// (those not named in `core` deferred, as `--defer-all-except` defers the
/// others; with `code_mode`'s limits, `run_code` built again over them), telling
/// the server's clients. The tasks hold the clients for
/// as long as the runtime runs. Needs a tokio runtime.
pub fn serve_when_connected(
    later: Vec<Later>,
    server: &McpServer,
    core: &[String],
    code_mode: Option<tool_code::CodeLimits>,
) {
    for upstream in later {
        let server = server.clone();
        let core = core.to_vec();
        tokio::spawn(async move {
            let Ok(client) = upstream.connecting.await else {
                return;
            };
            let registered = server.update_tools(|tools| {
                let count = register(&client, tools, &upstream.prefix, &core)?;
                // `run_code` again, over the tools that came with it.
                if let Some(limits) = code_mode {
                    let current = std::mem::replace(tools, ToolRegistry::new());
                    *tools = crate::code_mode::with_run_code(current, limits)
                        .map_err(|error| std::io::Error::other(error.to_string()))?;
                }
                Ok::<usize, std::io::Error>(count)
            });
            match registered {
                Ok(_) => {
                    tracing::info!(
                        "upstream {}: connected late; clients were told the tools changed",
                        upstream.prefix
                    );
                    // The client lives as long as what it serves.
                    std::future::pending::<()>().await;
                }
                Err(error) => tracing::error!("{error}: its tools are not served"),
            }
        });
    }
}

/// Connects to `upstream` after a first attempt failed, trying again
/// after each failure (a little longer each time), until it answers.
async fn connect_until_connected(prefix: String, upstream: Upstream) -> McpClient {
    let mut retry = FIRST_RETRY;
    let mut attempts = 1_u32;
    loop {
        tokio::time::sleep(retry).await;
        match McpClient::connect(upstream.clone()).await {
            Ok(client) => {
                tracing::info!("upstream {prefix}: connected after {attempts} failed attempts");
                return client;
            }
            Err(error) => {
                attempts += 1;
                retry = (retry * 2).min(RETRY_CEILING);
                // Once the waits are at their longest, each failure is a
                // warning: a server down for hours is a line every 30 s,
                // not one a second.
                if retry >= RETRY_CEILING {
                    tracing::warn!(
                        "upstream {prefix}: {error}; trying again in {} s",
                        retry.as_secs()
                    );
                } else {
                    tracing::debug!("upstream {prefix}: {error}; trying again");
                }
            }
        }
    }
}

/// Which upstream still connecting `name` belongs to (`{prefix}__...`).
pub fn later_upstream_of<'a>(name: &str, later: &'a [Later]) -> Option<&'a str> {
    later
        .iter()
        .map(|upstream| upstream.prefix.as_str())
        .find(|prefix| {
            name.strip_prefix(prefix)
                .is_some_and(|rest| rest.starts_with(tool_mcp::client::PREFIX_SEPARATOR))
        })
}

/// The `--defer-all-except` names checked at the start: those of the
/// upstreams still connecting are checked when each connects (logged
/// then if it has no such tool).
pub fn names_known_now(core: &[String], later: &[Later]) -> Vec<String> {
    core.iter()
        .filter(|name| later_upstream_of(name, later).is_none())
        .cloned()
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn later(prefix: &str) -> Later {
        Later {
            prefix: prefix.to_owned(),
            connecting: tokio::spawn(std::future::pending()),
        }
    }

    #[tokio::test]
    async fn names_of_an_upstream_still_connecting_wait_for_it() {
        let later = [later("docs")];
        assert_eq!(later_upstream_of("docs__read", &later), Some("docs"));
        assert_eq!(later_upstream_of("docsx__read", &later), None);
        assert_eq!(later_upstream_of("docs", &later), None);
        let core = ["echo".to_owned(), "docs__read".to_owned()];
        assert_eq!(names_known_now(&core, &later), ["echo"]);
    }
}
