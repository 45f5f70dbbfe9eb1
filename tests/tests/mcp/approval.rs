//! A served call that needs a person's approval asks the client first, on
//! every revision this repository tests (2026-07-28 by discovery, 2025-11-25
//! and 2025-06-18 by `initialize`), over streamable HTTP with and without
//! sessions and over stdio: accept runs it, decline and cancel are tool
//! errors and nothing runs, a client without elicitation gets a tool error
//! saying why. The client is rmcp's, its person a [`Person`] whose answer
//! the test sets; `erased` tells which calls really ran.
//!
//! On 2026-07-28 the question comes as an `InputRequiredResult` and rmcp's
//! `call_tool` drives the retry; `call_tool_once` drives it by hand where
//! the `requestState` is the point (forged, changed, replayed).

use crate::support::bounded::bounded;
use crate::support::mcp::{Recorded, Wire, call};
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ClientCapabilities, ClientConfig,
    ClientRequest, ElicitRequestParams, ElicitResult, ElicitationAction, ErrorCode, Implementation,
    InputRequest, InputRequiredResult, InputResponses, ProtocolVersion, Request,
};
use rmcp::service::{
    ClientLifecycleMode, ClientServiceExt, PeerRequestOptions, RequestContext, RunningService,
};
use rmcp::transport::{StreamableHttpClientTransport, TokioChildProcess, Transport};
use rmcp::{ClientHandler, ErrorData, RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tests::approval_fixture::approval_registry;
use tokio_util::sync::CancellationToken;
use tool_core::RunOptions;
use tool_core::approval::{ApprovalKey, ApprovalPolicy, Approvals, Decision};
use tool_mcp::{HttpServer, McpServer};

const REVISIONS: [ProtocolVersion; 3] = [
    ProtocolVersion::V_2026_07_28,
    ProtocolVersion::V_2025_11_25,
    ProtocolVersion::V_2025_06_18,
];

/// What `erase(name)` asks, word for word: tool-core's question.
fn question(name: &str) -> String {
    format!("Allow erase (Erase note; may destroy data) to run with:\n  name: \"{name}\"\n?")
}

/// How the person answers.
#[derive(Clone, Copy, Debug)]
enum Answer {
    Accept,
    Decline,
    Cancel,
    /// Never: the question stays open.
    Never,
}

/// The client's person: answers every question with the answer set, and
/// remembers each question.
#[derive(Clone)]
struct Person {
    revision: ProtocolVersion,
    /// Declares the elicitation capability.
    elicitation: bool,
    answer: Arc<Mutex<Answer>>,
    asked: Arc<Mutex<Vec<String>>>,
}

impl Person {
    fn new(revision: &ProtocolVersion, elicitation: bool) -> Self {
        Person {
            revision: revision.clone(),
            elicitation,
            answer: Arc::new(Mutex::new(Answer::Accept)),
            asked: Arc::default(),
        }
    }

    fn will(&self, answer: Answer) {
        *self.answer.lock().unwrap() = answer;
    }

    fn asked(&self) -> Vec<String> {
        self.asked.lock().unwrap().clone()
    }
}

impl ClientHandler for Person {
    fn get_info(&self) -> ClientConfig {
        let capabilities = if self.elicitation {
            ClientCapabilities::builder().enable_elicitation().build()
        } else {
            ClientCapabilities::default()
        };
        ClientConfig::new(capabilities, Implementation::new("approval-test", "0.1.0"))
            .with_protocol_version(self.revision.clone())
    }

    async fn create_elicitation(
        &self,
        request: ElicitRequestParams,
        _context: RequestContext<RoleClient>,
    ) -> Result<ElicitResult, ErrorData> {
        let ElicitRequestParams::FormElicitationParams {
            message,
            requested_schema,
            ..
        } = request
        else {
            panic!("an approval is asked in form mode: {request:?}");
        };
        assert!(
            requested_schema.properties.is_empty(),
            "a form without fields"
        );
        self.asked.lock().unwrap().push(message);
        let answer = *self.answer.lock().unwrap();
        Ok(match answer {
            Answer::Accept => ElicitResult::new(ElicitationAction::Accept).with_content(json!({})),
            Answer::Decline => ElicitResult::new(ElicitationAction::Decline),
            Answer::Cancel => ElicitResult::new(ElicitationAction::Cancel),
            Answer::Never => std::future::pending().await,
        })
    }
}

type Client = RunningService<RoleClient, Person>;

/// Where the server is.
enum Target {
    /// Streamable HTTP at this URL.
    Http(String),
    /// A `mcp_fixture approval` child process of the client's own.
    Stdio,
}

/// `person`'s client of `target`, on the person's revision, recording what
/// it receives.
async fn connect(target: &Target, person: &Person) -> (Client, Wire) {
    let wire = Wire::default();
    let client = match target {
        Target::Http(url) => {
            let transport = StreamableHttpClientTransport::from_uri(url.as_str());
            start(person, recorded(transport, &wire)).await
        }
        Target::Stdio => {
            let mut command = tokio::process::Command::new(env!("CARGO_BIN_EXE_mcp_fixture"));
            command.arg("approval").kill_on_drop(true);
            let (child, _stderr) = TokioChildProcess::builder(command)
                .stderr(Stdio::inherit())
                .spawn()
                .expect("the fixture starts");
            start(person, recorded(child, &wire)).await
        }
    };
    let negotiated = client.peer_info().map(|info| info.protocol_version.clone());
    assert_eq!(
        negotiated.as_ref(),
        Some(&person.revision),
        "the revision negotiated"
    );
    (client, wire)
}

fn recorded<T: Transport<RoleClient>>(inner: T, wire: &Wire) -> Recorded<T> {
    Recorded {
        inner,
        wire: wire.clone(),
    }
}

/// 2026-07-28 by discovery, older revisions by `initialize`.
async fn start<T>(person: &Person, transport: T) -> Client
where
    T: Transport<RoleClient> + Send + 'static,
{
    if person.revision == ProtocolVersion::V_2026_07_28 {
        person
            .clone()
            .serve_with_lifecycle(
                transport,
                ClientLifecycleMode::Discover {
                    preferred_versions: vec![person.revision.clone()],
                },
            )
            .await
    } else {
        person.clone().serve(transport).await
    }
    .expect("the client connects")
}

/// `approval_registry()` over HTTP on a free loopback port.
struct Server {
    url: String,
    shutdown: CancellationToken,
    running: tokio::task::JoinHandle<std::io::Result<()>>,
}

impl Server {
    async fn start(server: McpServer, options: impl FnOnce(HttpServer) -> HttpServer) -> Server {
        let http = HttpServer::bind(server, "127.0.0.1:0".parse().unwrap())
            .await
            .expect("binds a free port");
        let url = format!("http://{}/mcp", http.local_addr().unwrap());
        let shutdown = CancellationToken::new();
        let running = tokio::spawn(options(http).run(shutdown.clone()));
        Server {
            url,
            shutdown,
            running,
        }
    }

    async fn stop(self) {
        self.shutdown.cancel();
        self.running.await.unwrap().expect("run ends cleanly");
    }
}

fn text(result: &CallToolResult) -> String {
    result
        .content
        .iter()
        .filter_map(|block| block.as_text().map(|text| text.text.clone()))
        .collect::<Vec<_>>()
        .join("\n")
}

async fn erase(client: &Client, name: &str) -> CallToolResult {
    client
        .call_tool(call("erase", json!({"name": name})))
        .await
        .unwrap_or_else(|error| panic!("erase({name}) answers with a result: {error}"))
}

/// The names erased so far, as `erased` says.
async fn erased(client: &Client) -> String {
    let result = client
        .call_tool(call("erased", json!({})))
        .await
        .expect("erased answers");
    text(&result)
}

/// Accept, decline, cancel, then a client without elicitation, against
/// the server at `target`, on `revision`. The notes are named after the
/// revision, so one server can be met on several.
async fn every_answer(target: &Target, revision: &ProtocolVersion) {
    let [alpha, beta, gamma, delta] =
        ["alpha", "beta", "gamma", "delta"].map(|name| format!("{name}-{revision}"));
    let person = Person::new(revision, true);
    let (client, _) = connect(target, &person).await;

    let accepted = erase(&client, &alpha).await;
    assert_eq!(accepted.is_error, Some(false), "{revision}: {accepted:?}");
    assert_eq!(text(&accepted), format!("erased {alpha}"));
    assert_eq!(person.asked(), [question(&alpha)]);

    person.will(Answer::Decline);
    let declined = erase(&client, &beta).await;
    assert_eq!(declined.is_error, Some(true), "{revision}: {declined:?}");
    assert!(
        text(&declined).contains("A person declined this call of erase; it did not run."),
        "{revision}: {}",
        text(&declined)
    );

    person.will(Answer::Cancel);
    let cancelled = erase(&client, &gamma).await;
    assert_eq!(cancelled.is_error, Some(true), "{revision}: {cancelled:?}");
    assert!(
        text(&cancelled).contains(
            "A person dismissed the approval request for this call of erase without deciding"
        ),
        "{revision}: {}",
        text(&cancelled)
    );
    assert_eq!(
        person.asked(),
        [question(&alpha), question(&beta), question(&gamma)]
    );

    // A tool that needs no approval is not asked about.
    let echoed = client
        .call_tool(call("echo", json!({"value": "Pi"})))
        .await
        .unwrap();
    assert_eq!(text(&echoed), "Pi");
    assert_eq!(person.asked().len(), 3, "{revision}");
    let ran = erased(&client).await;
    assert!(ran.lines().any(|name| name == alpha), "{revision}: {ran}");
    assert!(
        !ran.lines().any(|name| name == beta || name == gamma),
        "{revision}: only the accepted call ran: {ran}"
    );
    client.cancel().await.unwrap();

    let unaskable = Person::new(revision, false);
    let (client, _) = connect(target, &unaskable).await;
    let refused = erase(&client, &delta).await;
    assert_eq!(refused.is_error, Some(true), "{revision}: {refused:?}");
    assert!(
        text(&refused).contains(
            "This call of erase needs a person's approval, and this client cannot ask one \
             (no elicitation capability); it did not run."
        ),
        "{revision}: {}",
        text(&refused)
    );
    assert!(unaskable.asked().is_empty());
    let ran = erased(&client).await;
    assert!(!ran.lines().any(|name| name == delta), "{revision}: {ran}");
    client.cancel().await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_with_sessions_every_revision_asks() {
    bounded(async {
        let server = Server::start(approval_registry().into(), |http| http).await;
        let target = Target::Http(server.url.clone());
        for revision in &REVISIONS {
            every_answer(&target, revision).await;
        }
        server.stop().await;
    })
    .await;
}

/// Without sessions, 2026-07-28 asks as before (its rounds are whole
/// requests); an older revision cannot be asked, and is told why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_http_without_sessions_2026_07_28_asks_and_older_revisions_are_told_why_not() {
    bounded(async {
        let server = Server::start(approval_registry().into(), HttpServer::stateless).await;
        let target = Target::Http(server.url.clone());
        every_answer(&target, &ProtocolVersion::V_2026_07_28).await;

        for revision in &REVISIONS[1..] {
            let person = Person::new(revision, true);
            let (client, _) = connect(&target, &person).await;
            let refused = erase(&client, "omega").await;
            assert_eq!(refused.is_error, Some(true), "{revision}");
            assert!(
                text(&refused).contains(&format!(
                    "this client cannot ask one (this server serves without sessions, and on \
                     MCP {revision} a person is asked by elicitation/create"
                )),
                "{revision}: {}",
                text(&refused)
            );
            assert!(person.asked().is_empty());
            let ran = erased(&client).await;
            assert!(!ran.contains("omega"), "{revision}: nothing ran: {ran}");
            client.cancel().await.unwrap();
        }
        server.stop().await;
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn over_stdio_every_revision_asks() {
    bounded(async {
        for revision in &REVISIONS {
            every_answer(&Target::Stdio, revision).await;
        }
    })
    .await;
}

/// `call_tool_once` on 2026-07-28: the question and its state, as sent.
async fn asked_once(client: &Client, arguments: Value) -> InputRequiredResult {
    match client.call_tool_once(call("erase", arguments)).await {
        Ok(CallToolResponse::InputRequired(asked)) => asked,
        other => panic!("expected an InputRequiredResult, got {other:?}"),
    }
}

fn answered(action: ElicitationAction) -> InputResponses {
    [(
        "approval".to_owned(),
        serde_json::to_value(ElicitResult::new(action)).unwrap(),
    )]
    .into()
}

fn retry(arguments: Value, state: &str, responses: InputResponses) -> CallToolRequestParams {
    call("erase", arguments)
        .with_request_state(state)
        .with_input_responses(responses)
}

fn invalid_params(outcome: Result<CallToolResponse, ServiceError>, says: &str) {
    match outcome {
        Err(ServiceError::McpError(error)) => {
            assert_eq!(error.code, ErrorCode::INVALID_PARAMS, "{error:?}");
            assert!(error.message.starts_with(says), "{}", error.message);
        }
        other => panic!("expected invalid params ({says}), got {other:?}"),
    }
}

/// The state binds the tool and the arguments, verifies only as signed,
/// and runs the call once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_2026_07_28_request_state_cannot_be_forged_moved_or_replayed() {
    bounded(async {
        let server = Server::start(approval_registry().into(), HttpServer::stateless).await;
        let target = Target::Http(server.url.clone());
        let person = Person::new(&ProtocolVersion::V_2026_07_28, true);
        let (client, _) = connect(&target, &person).await;
        let alpha = json!({"name": "alpha"});

        let asked = asked_once(&client, alpha.clone()).await;
        let requests = asked.input_requests.clone().expect("the question");
        assert_eq!(requests.len(), 1);
        let Some(InputRequest::Elicitation(elicit)) = requests.get("approval") else {
            panic!("an elicitation keyed approval: {requests:?}");
        };
        let ElicitRequestParams::FormElicitationParams { message, .. } = &elicit.params else {
            panic!("form mode");
        };
        assert_eq!(message, &question("alpha"));
        let state = asked.request_state.clone().expect("a requestState");
        assert!(state.starts_with("rs1."), "rmcp's signed format: {state}");

        // Someone else's state, or an altered one: refused, nothing runs.
        for forged in [
            "rs1.AAAAAAAAAAA.BBBBBBBBBBB".to_owned(),
            "approved".to_owned(),
            format!("{state}A"),
        ] {
            let outcome = client
                .call_tool_once(retry(
                    alpha.clone(),
                    &forged,
                    answered(ElicitationAction::Accept),
                ))
                .await;
            invalid_params(outcome, "requestState does not verify");
        }
        // The approval of alpha does not erase beta.
        let outcome = client
            .call_tool_once(retry(
                json!({"name": "beta"}),
                &state,
                answered(ElicitationAction::Accept),
            ))
            .await;
        invalid_params(outcome, "requestState does not verify");
        assert_eq!(erased(&client).await, "", "nothing ran");

        // Without the answer: asked again, with a new state.
        match client
            .call_tool_once(call("erase", alpha.clone()).with_request_state(state.as_str()))
            .await
        {
            Ok(CallToolResponse::InputRequired(again)) => {
                assert!(again.input_requests.is_some());
                assert_ne!(again.request_state.as_deref(), Some(state.as_str()));
            }
            other => panic!("asked again, got {other:?}"),
        }

        // The right state with the person's accept: it runs, once.
        let ran = client
            .call_tool_once(retry(
                alpha.clone(),
                &state,
                answered(ElicitationAction::Accept),
            ))
            .await;
        let Ok(CallToolResponse::Complete(ran)) = ran else {
            panic!("the call ran: {ran:?}");
        };
        assert_eq!(text(&ran), "erased alpha");
        let replayed = client
            .call_tool_once(retry(
                alpha.clone(),
                &state,
                answered(ElicitationAction::Accept),
            ))
            .await;
        invalid_params(replayed, "requestState was already used");
        assert_eq!(erased(&client).await, "alpha", "it ran once");

        // Another server (another key) does not take this one's state.
        let other = Server::start(approval_registry().into(), HttpServer::stateless).await;
        let (elsewhere, _) = connect(&Target::Http(other.url.clone()), &person).await;
        let fresh = asked_once(&client, alpha.clone())
            .await
            .request_state
            .unwrap();
        let outcome = elsewhere
            .call_tool_once(retry(
                alpha.clone(),
                &fresh,
                answered(ElicitationAction::Accept),
            ))
            .await;
        invalid_params(outcome, "requestState does not verify");
        elsewhere.cancel().await.unwrap();
        other.stop().await;

        client.cancel().await.unwrap();
        server.stop().await;
    })
    .await;
}

/// Two servers given the same key take each other's states, as processes
/// behind a balancer must.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn servers_with_the_same_approval_key_take_each_others_states() {
    bounded(async {
        let key = ApprovalKey::new(*b"a key shared by both processes!!").unwrap();
        let first = Server::start(
            McpServer::new(approval_registry()).with_approval_key(&key),
            HttpServer::stateless,
        )
        .await;
        let second = Server::start(
            McpServer::new(approval_registry()).with_approval_key(&key),
            HttpServer::stateless,
        )
        .await;
        let person = Person::new(&ProtocolVersion::V_2026_07_28, true);
        let (asking, _) = connect(&Target::Http(first.url.clone()), &person).await;
        let (running, _) = connect(&Target::Http(second.url.clone()), &person).await;
        let alpha = json!({"name": "alpha"});
        let state = asked_once(&asking, alpha.clone())
            .await
            .request_state
            .unwrap();
        let ran = running
            .call_tool_once(retry(alpha, &state, answered(ElicitationAction::Accept)))
            .await;
        let Ok(CallToolResponse::Complete(ran)) = ran else {
            panic!("the second server ran the call: {ran:?}");
        };
        assert_eq!(text(&ran), "erased alpha");
        assert_eq!(erased(&running).await, "alpha");
        assert_eq!(erased(&asking).await, "");
        for client in [asking, running] {
            client.cancel().await.unwrap();
        }
        first.stop().await;
        second.stop().await;
    })
    .await;
}

/// Before 2026-07-28, a call cancelled while its question is open takes
/// the question back (`notifications/cancelled` for it) and does not run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_cancelled_while_asking_withdraws_its_question() {
    bounded(async {
        let server = Server::start(approval_registry().into(), |http| http).await;
        let person = Person::new(&ProtocolVersion::V_2025_11_25, true);
        person.will(Answer::Never);
        let (client, wire) = connect(&Target::Http(server.url.clone()), &person).await;
        let handle = client
            .send_cancellable_request(
                ClientRequest::CallToolRequest(Request::new(call(
                    "erase",
                    json!({"name": "alpha"}),
                ))),
                PeerRequestOptions::no_options(),
            )
            .await
            .unwrap();
        let call_id = handle.id.clone();
        crate::support::mcp::eventually("the person is asked", || async {
            person.asked().len() == 1
        })
        .await;
        let asked_id = wire
            .messages()
            .iter()
            .find(|message| message["method"] == "elicitation/create")
            .map(|message| message["id"].clone())
            .expect("the question was received");
        handle
            .cancel(Some("the test gives up".into()))
            .await
            .unwrap();
        crate::support::mcp::eventually("the question is withdrawn", || async {
            wire.messages().iter().any(|message| {
                message["method"] == "notifications/cancelled"
                    && message["params"]["requestId"] == asked_id
            })
        })
        .await;
        assert_eq!(
            wire.answer(&call_id),
            None,
            "a cancelled call is not answered"
        );
        assert_eq!(erased(&client).await, "", "nothing ran");
        client.cancel().await.unwrap();
        server.stop().await;
    })
    .await;
}

/// Before 2026-07-28, no answer within the approval timeout is a tool
/// error, the question withdrawn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn no_answer_in_time_is_a_tool_error() {
    bounded(async {
        let server = Server::start(
            McpServer::new(approval_registry()).with_approval_timeout(Duration::from_millis(300)),
            |http| http,
        )
        .await;
        let person = Person::new(&ProtocolVersion::V_2025_11_25, true);
        person.will(Answer::Never);
        let (client, wire) = connect(&Target::Http(server.url.clone()), &person).await;
        let result = erase(&client, "alpha").await;
        assert_eq!(result.is_error, Some(true));
        assert!(
            text(&result).contains(
                "No one answered the approval request for this call of erase within 300 ms; \
                 it did not run."
            ),
            "{}",
            text(&result)
        );
        crate::support::mcp::eventually("the question is withdrawn", || async {
            wire.messages()
                .iter()
                .any(|message| message["method"] == "notifications/cancelled")
        })
        .await;
        assert_eq!(erased(&client).await, "");
        client.cancel().await.unwrap();
        server.stop().await;
    })
    .await;
}

/// The server's call options pick more tools that need approval (the
/// policy of their suspending approvals, which a served call cannot
/// suspend): the client is asked about those too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_call_options_policy_picks_more_tools_and_the_client_is_asked() {
    bounded(async {
        let key = ApprovalKey::new(*b"the application's suspension key").unwrap();
        let options = RunOptions::new().with_approvals(
            Approvals::suspend(key).with_policy(ApprovalPolicy::when(|tool| tool.name() == "echo")),
        );
        let server = Server::start(
            McpServer::new(approval_registry()).with_call_options(options),
            |http| http,
        )
        .await;
        for revision in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
            let person = Person::new(&revision, true);
            let (client, _) = connect(&Target::Http(server.url.clone()), &person).await;
            let echoed = client
                .call_tool(call("echo", json!({"value": "Pi"})))
                .await
                .unwrap();
            assert_eq!(text(&echoed), "Pi", "{revision}");
            assert_eq!(
                person.asked(),
                ["Allow echo (Echo one value) to run with:\n  value: \"Pi\"\n?"],
                "{revision}"
            );
            // The tool that asks for approval itself still does.
            person.will(Answer::Decline);
            let declined = erase(&client, "alpha").await;
            assert_eq!(declined.is_error, Some(true), "{revision}");
            assert_eq!(person.asked().len(), 2, "{revision}");
            // The read-only list needs none.
            assert_eq!(erased(&client).await, "", "{revision}");
            assert_eq!(person.asked().len(), 2, "{revision}");
            client.cancel().await.unwrap();
        }
        server.stop().await;
    })
    .await;
}

/// Call options that ask in their own way keep their asker: the client is
/// not asked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_asker_of_the_call_options_answers_instead_of_the_client() {
    bounded(async {
        let options = RunOptions::new().with_approvals(Approvals::ask(|request| async move {
            if request.arguments["name"] == "draft" {
                Decision::Approve
            } else {
                Decision::deny("the operator keeps this note")
            }
        }));
        let server = Server::start(
            McpServer::new(approval_registry()).with_call_options(options),
            |http| http,
        )
        .await;
        for revision in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
            let person = Person::new(&revision, true);
            let (client, _) = connect(&Target::Http(server.url.clone()), &person).await;
            let kept = erase(&client, "keep").await;
            assert_eq!(kept.is_error, Some(true), "{revision}");
            assert!(
                text(&kept).contains("the operator keeps this note"),
                "{revision}: {}",
                text(&kept)
            );
            let erased_draft = erase(&client, "draft").await;
            assert_eq!(erased_draft.is_error, Some(false), "{revision}");
            assert!(
                person.asked().is_empty(),
                "{revision}: the client was not asked"
            );
            client.cancel().await.unwrap();
        }
        server.stop().await;
    })
    .await;
}
