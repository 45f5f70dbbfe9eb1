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
//! the `requestState` is the point (forged, changed, replayed to this
//! server or to another sharing its key, with or without its ledger, or
//! sent again after the retry that ran it went away mid-call).
//!
//! Arguments too big to show are cut in the question, which then ends
//! with their SHA-256: the digest of what runs.

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
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use tests::approval_fixture::approval_registry;
use tokio::sync::Semaphore;
use tokio_util::sync::CancellationToken;
use tool_core::approval::{
    ApprovalKey, ApprovalPolicy, Approvals, Decision, MemoryLedger, QUESTION_ARGUMENT_BYTES,
    arguments_sha256,
};
use tool_core::params::ParamValue;
use tool_core::{RunOptions, Tool, ToolContext, ToolError, ToolOutput, ToolParams, ToolRegistry};
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

/// What the model reads of a call that needed approval and got none.
fn not_run(reason: &str) -> String {
    format!("This call did not run: it needs a person's approval, and got none ({reason}).")
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
    assert_eq!(
        text(&declined),
        "A person denied this call: they declined this call of erase in the client; do not \
         call it again unless they ask for it",
        "{revision}"
    );

    person.will(Answer::Cancel);
    let cancelled = erase(&client, &gamma).await;
    assert_eq!(cancelled.is_error, Some(true), "{revision}: {cancelled:?}");
    assert_eq!(
        text(&cancelled),
        not_run("a person dismissed the question about erase without deciding"),
        "{revision}"
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
    assert_eq!(
        text(&refused),
        not_run("this client cannot ask a person about erase: no elicitation capability"),
        "{revision}"
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
            assert_eq!(
                text(&refused),
                not_run(&format!(
                    "this client cannot ask a person about erase: this server serves without \
                     sessions, and on MCP {revision} a person is asked by elicitation/create, \
                     whose answer only a session can bring back to the call (a client on \
                     2026-07-28 can be asked)"
                )),
                "{revision}"
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
        assert_eq!(
            text(&result),
            not_run("no one answered the question within 300 ms")
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
            Approvals::suspend(key)
                .with_policy(ApprovalPolicy::when(|tool, _| tool.name() == "echo")),
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

/// A note to keep
#[derive(ToolParams, Debug)]
struct KeepParams {
    /// What the note says
    content: String,
    /// The note's name
    name: String,
    /// How many copies to keep
    #[param(default = 1)]
    copies: u32,
}

/// `keep`: needs approval; records the arguments it ran with, as JSON.
#[derive(Clone, Default)]
struct KeepTool {
    ran: Arc<Mutex<Vec<Value>>>,
}

impl Tool for KeepTool {
    type Params = KeepParams;
    type Details = Value;

    fn name(&self) -> &str {
        "keep"
    }

    fn description(&self) -> &str {
        "Keep a note"
    }

    fn needs_approval(&self) -> bool {
        true
    }

    async fn execute(
        &self,
        params: KeepParams,
        _ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        self.ran.lock().unwrap().push(params.to_json());
        Ok(ToolOutput::text(format!("kept {}", params.name)))
    }
}

/// A 1 MiB argument: the question shows its first bytes, how big it is,
/// that the rest is not shown, and the SHA-256 of the arguments, which is
/// that of the arguments the tool ran with (the default filled in, so not
/// that of the arguments sent), on both ways of asking.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_question_about_a_huge_argument_shows_its_head_and_the_digest_of_what_runs() {
    bounded(async {
        let keep = KeepTool::default();
        let mut tools = approval_registry();
        tools.register(keep.clone()).unwrap();
        let server = Server::start(tools.into(), |http| http).await;
        let content = "0123456789abcdef".repeat(64 * 1024);
        assert_eq!(content.len(), 1 << 20);
        let sent = json!({"name": "big", "content": content});
        for revision in [ProtocolVersion::V_2026_07_28, ProtocolVersion::V_2025_11_25] {
            let person = Person::new(&revision, true);
            let (client, _) = connect(&Target::Http(server.url.clone()), &person).await;
            let kept = client.call_tool(call("keep", sent.clone())).await.unwrap();
            assert_eq!(text(&kept), "kept big", "{revision}");

            let ran = keep.ran.lock().unwrap().pop().expect("keep ran");
            assert_eq!(
                ran,
                json!({"content": content, "name": "big", "copies": 1}),
                "{revision}"
            );
            let digest = arguments_sha256(&ran);
            assert_ne!(digest, arguments_sha256(&sent), "the default counts");
            let whole = serde_json::to_string(&ran).unwrap().len();
            // The content's JSON is a quote, then the content: the first
            // 4096 bytes of it hold 4095 of the content's.
            let head = &content[..QUESTION_ARGUMENT_BYTES - 1];
            let expected = format!(
                "Allow keep (Keep a note) to run with:\n  \
                 content: \"{head}... (cut: {} bytes in all)\n  \
                 name: (not shown: 5 bytes)\n  \
                 copies: (not shown: 1 bytes)\n\
                 ?\n\
                 Not everything is shown: the arguments are {whole} bytes of JSON. \
                 SHA-256 of the exact arguments that will run: {digest}",
                content.len() + 2
            );
            let asked = person.asked();
            assert_eq!(asked.len(), 1, "{revision}");
            assert_eq!(asked[0], expected, "{revision}");
            // What a person reads last: the digest, which is the one run.
            let shown = asked[0].rsplit(": ").next().unwrap();
            assert_eq!(shown, arguments_sha256(&ran), "{revision}");
            client.cancel().await.unwrap();
        }
        server.stop().await;
    })
    .await;
}

/// `name`'s question on 2026-07-28, with its state.
async fn asked_about(client: &Client, name: &str, arguments: Value) -> String {
    match client.call_tool_once(call(name, arguments)).await {
        Ok(CallToolResponse::InputRequired(asked)) => asked.request_state.expect("a requestState"),
        other => panic!("expected an InputRequiredResult, got {other:?}"),
    }
}

/// Two stateless servers of `approval_registry()` (each its own list of
/// erased notes, as two processes have) with the same key, each with
/// `ledger_of(i)`; alpha's state, asked and run on the first, replayed to
/// the second: the answer to the replay, and what each server erased.
async fn replayed_to_another_server(
    ledger_of: impl Fn(usize) -> MemoryLedger,
) -> (Result<CallToolResponse, ServiceError>, String, String) {
    let key = ApprovalKey::new(*b"a key shared by both processes!!").unwrap();
    let [first, second] = [0, 1].map(|i| {
        McpServer::new(approval_registry())
            .with_approval_key(&key)
            .with_approval_ledger(ledger_of(i))
    });
    let first = Server::start(first, HttpServer::stateless).await;
    let second = Server::start(second, HttpServer::stateless).await;
    let person = Person::new(&ProtocolVersion::V_2026_07_28, true);
    let (here, _) = connect(&Target::Http(first.url.clone()), &person).await;
    let (there, _) = connect(&Target::Http(second.url.clone()), &person).await;
    let alpha = json!({"name": "alpha"});
    let state = asked_about(&here, "erase", alpha.clone()).await;
    let ran = here
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
    let replayed = there
        .call_tool_once(retry(
            alpha.clone(),
            &state,
            answered(ElicitationAction::Accept),
        ))
        .await;
    let erased_here = erased(&here).await;
    let erased_there = erased(&there).await;
    for client in [here, there] {
        client.cancel().await.unwrap();
    }
    first.stop().await;
    second.stop().await;
    (replayed, erased_here, erased_there)
}

/// Processes that share the key and the ledger (here two servers given
/// clones of one ledger, as processes share a store) run a state once
/// between them: a replay to the other is refused, and nothing runs there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_state_replayed_to_a_server_sharing_the_ledger_is_refused() {
    bounded(async {
        let shared = MemoryLedger::default();
        let (replayed, here, there) = replayed_to_another_server(|_| shared.clone()).await;
        invalid_params(replayed, "requestState was already used");
        assert_eq!(here, "alpha");
        assert_eq!(there, "", "nothing ran on the second server");
    })
    .await;
}

/// The documented limit: single use holds per ledger. Two servers with the
/// same key and a ledger each (processes that share the key and no store)
/// each verify the state, and a replay to the other runs the call again
/// there.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_request_state_replayed_to_a_server_with_another_ledger_runs_again_there() {
    bounded(async {
        let (replayed, here, there) = replayed_to_another_server(|_| MemoryLedger::default()).await;
        let Ok(CallToolResponse::Complete(ran)) = replayed else {
            panic!("the replay ran on the other server: {replayed:?}");
        };
        assert_eq!(text(&ran), "erased alpha");
        assert_eq!(here, "alpha");
        assert_eq!(there, "alpha", "the call ran on both servers");
    })
    .await;
}

/// The note to hold
#[derive(ToolParams, Debug)]
struct HoldParams {
    /// The note's name
    name: String,
}

/// `hold`: needs approval; counts its runs, then holds until the test
/// releases it or its call is cancelled.
#[derive(Clone)]
struct HoldTool {
    started: Arc<AtomicUsize>,
    release: Arc<Semaphore>,
}

impl HoldTool {
    fn new() -> Self {
        HoldTool {
            started: Arc::default(),
            release: Arc::new(Semaphore::new(0)),
        }
    }

    fn started(&self) -> usize {
        self.started.load(Ordering::SeqCst)
    }
}

impl Tool for HoldTool {
    type Params = HoldParams;
    type Details = Value;

    fn name(&self) -> &str {
        "hold"
    }

    fn description(&self) -> &str {
        "Hold a note until released"
    }

    fn needs_approval(&self) -> bool {
        true
    }

    async fn execute(
        &self,
        params: HoldParams,
        ctx: ToolContext,
    ) -> Result<ToolOutput<Value>, ToolError> {
        self.started.fetch_add(1, Ordering::SeqCst);
        tokio::select! {
            _ = self.release.acquire() => {}
            () = ctx.cancelled() => {}
        }
        Ok(ToolOutput::text(format!("held {}", params.name)))
    }
}

/// On 2026-07-28, a retry whose client goes away while the approved call
/// runs leaves that run's end unknown: the same retry sent again does not
/// run the tool a second time, and is answered `interrupted`, saying the
/// call may or may not have run.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_retry_sent_again_after_its_run_was_lost_is_answered_interrupted() {
    bounded(async {
        let hold = HoldTool::new();
        let mut tools = ToolRegistry::new();
        tools.register(hold.clone()).unwrap();
        let mcp = McpServer::new(tools);
        let watched = mcp.clone();
        let server = Server::start(mcp, HttpServer::stateless).await;
        let target = Target::Http(server.url.clone());
        let person = Person::new(&ProtocolVersion::V_2026_07_28, true);
        let (client, _) = connect(&target, &person).await;
        let alpha = json!({"name": "alpha"});
        let state = asked_about(&client, "hold", alpha.clone()).await;
        let accepted = call("hold", alpha)
            .with_request_state(state.as_str())
            .with_input_responses(answered(ElicitationAction::Accept));

        // The first retry, from a client that goes away while it runs:
        // its HTTP request is closed unanswered.
        let (leaving, _) = connect(&target, &person).await;
        let _unanswered = leaving
            .send_cancellable_request(
                ClientRequest::CallToolRequest(Request::new(accepted.clone())),
                PeerRequestOptions::no_options(),
            )
            .await
            .unwrap();
        crate::support::mcp::eventually("the approved call runs", || async { hold.started() == 1 })
            .await;
        leaving.cancel().await.unwrap();
        crate::support::mcp::eventually("the server lets go of the call", || async {
            watched.calls_running() == 0
        })
        .await;

        // The same retry again: not run, answered interrupted.
        let again = client.call_tool_once(accepted.clone()).await;
        let Ok(CallToolResponse::Complete(again)) = again else {
            panic!("a tool result, got {again:?}");
        };
        assert_eq!(again.is_error, Some(true), "{again:?}");
        assert!(
            text(&again).starts_with("This call may or may not have run"),
            "{}",
            text(&again)
        );
        // Answered once as interrupted: a third time it is used.
        let third = client.call_tool_once(accepted).await;
        invalid_params(third, "requestState was already used");
        assert_eq!(hold.started(), 1, "the tool ran once in all");
        hold.release.add_permits(1);
        client.cancel().await.unwrap();
        server.stop().await;
    })
    .await;
}

/// Two `tool-examples mcp --http --stateless` processes given one approval
/// key and one Redis (`--state-url`): a `requestState` that ran its call
/// on the first is refused on the second, and the file is not written
/// again. Run by the interop suite (interop/checks/redis_ledger.sh), which
/// starts both and names them in `TOOL_MCP_REPLAY_URLS` (`URL,URL`) and
/// their root in `TOOL_MCP_REPLAY_ROOT`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "needs two tool-examples processes and redis-server: interop/checks/redis_ledger.sh runs it"]
async fn a_request_state_replayed_to_another_process_sharing_the_store_is_refused() {
    let urls =
        std::env::var("TOOL_MCP_REPLAY_URLS").expect("TOOL_MCP_REPLAY_URLS names two servers");
    let root = std::path::PathBuf::from(
        std::env::var("TOOL_MCP_REPLAY_ROOT").expect("TOOL_MCP_REPLAY_ROOT"),
    );
    let (first, second) = urls.split_once(',').expect("two URLs, comma-separated");
    let person = Person::new(&ProtocolVersion::V_2026_07_28, true);
    let (here, _) = connect(&Target::Http(first.to_owned()), &person).await;
    let (there, _) = connect(&Target::Http(second.to_owned()), &person).await;
    let write = |arguments: Value| {
        CallToolRequestParams::new("write").with_arguments(arguments.as_object().unwrap().clone())
    };
    let arguments = json!({"path": "replayed.txt", "content": "once"});
    let state = match here.call_tool_once(write(arguments.clone())).await {
        Ok(CallToolResponse::InputRequired(asked)) => asked.request_state.expect("a requestState"),
        other => panic!("expected an InputRequiredResult, got {other:?}"),
    };
    let accepted = || {
        write(arguments.clone())
            .with_request_state(state.clone())
            .with_input_responses(answered(ElicitationAction::Accept))
    };
    let ran = here.call_tool_once(accepted()).await;
    let Ok(CallToolResponse::Complete(ran)) = ran else {
        panic!("the call ran: {ran:?}");
    };
    assert!(!ran.is_error.unwrap_or(false), "{ran:?}");
    let file = root.join("replayed.txt");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "once");
    std::fs::remove_file(&file).unwrap();
    invalid_params(
        there.call_tool_once(accepted()).await,
        "requestState was already used",
    );
    assert!(
        !file.exists(),
        "the replay wrote nothing on the other process"
    );
    for client in [here, there] {
        client.cancel().await.unwrap();
    }
}
