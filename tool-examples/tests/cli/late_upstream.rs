//! An upstream that is down when `mcp` starts does not stop the start:
//! the server serves its own tools at once, keeps trying the upstream in
//! the background, and once it answers serves its tools too, telling the
//! client with `notifications/tools/list_changed`. The official MCP
//! client of this test, the binary on both sides.

use crate::support::mcp::{binary, bounded, call};
use rmcp::model::{ClientCapabilities, ClientConfig, Implementation};
use rmcp::service::NotificationContext;
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use std::process::Stdio;
use tokio::io::{AsyncBufReadExt, BufReader};
use tokio::sync::mpsc;

/// A client that says when it was told the tools changed.
#[derive(Clone)]
struct Told(mpsc::UnboundedSender<()>);

impl ClientHandler for Told {
    fn get_info(&self) -> ClientConfig {
        ClientConfig::new(
            ClientCapabilities::default(),
            Implementation::new("late-upstream-test", "0.1.0"),
        )
    }

    async fn on_tool_list_changed(&self, _context: NotificationContext<RoleClient>) {
        let _ = self.0.send(());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_upstream_down_at_the_start_is_served_when_it_comes_up() {
    // A port nothing listens on yet: the upstream's, later.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let root = tempfile::tempdir().unwrap();
    let mut front = binary()
        .args(["mcp", "--upstream"])
        .arg(format!("late=http://127.0.0.1:{port}/mcp"))
        .arg("--root")
        .arg(root.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the front starts");
    let (lines, mut log) = mpsc::unbounded_channel();
    let mut stderr = BufReader::new(front.stderr.take().unwrap()).lines();
    tokio::spawn(async move {
        while let Ok(Some(line)) = stderr.next_line().await {
            let _ = lines.send(line);
        }
    });
    let (changed, mut told) = mpsc::unbounded_channel();
    let transport = (front.stdout.take().unwrap(), front.stdin.take().unwrap());
    let client = bounded("initialize", Told(changed).serve(transport))
        .await
        .expect("the front serves though its upstream is down");
    let names = |tools: Vec<rmcp::model::Tool>| -> Vec<String> {
        tools
            .into_iter()
            .map(|tool| tool.name.to_string())
            .collect()
    };
    let before = names(client.list_all_tools().await.unwrap());
    assert!(before.contains(&"echo".to_owned()), "{before:?}");
    assert!(
        !before.iter().any(|name| name.starts_with("late__")),
        "{before:?}"
    );
    let warned = bounded("the down upstream is logged", async {
        loop {
            let line = log.recv().await.expect("stderr open");
            if line.contains("upstream late") {
                return line;
            }
        }
    })
    .await;
    assert!(warned.contains("WARN"), "{warned}");

    // The upstream comes up on its port.
    let upstream_root = tempfile::tempdir().unwrap();
    std::fs::write(upstream_root.path().join("far.txt"), "far away").unwrap();
    let _upstream = binary()
        .args(["mcp", "--http", &format!("127.0.0.1:{port}"), "--root"])
        .arg(upstream_root.path())
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .expect("the upstream starts");

    bounded("told the tools changed", told.recv())
        .await
        .expect("told");
    let after = names(client.list_all_tools().await.unwrap());
    assert!(after.contains(&"late__read".to_owned()), "{after:?}");
    let read = client
        .call_tool(call("late__read", serde_json::json!({"path": "far.txt"})))
        .await
        .unwrap();
    assert_eq!(read.content[0].as_text().unwrap().text, "far away");
    client.cancel().await.unwrap();
}
