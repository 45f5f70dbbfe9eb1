//! A server whose tools are deferred but for a few core ones: `tools/list`
//! shows the core tools and `tool_search`, sorted; `tool_search` answers
//! with the definitions of the tools it finds; a found tool is called by
//! its name; and the list is the same bytes however the tools were
//! registered. rmcp's client where the protocol's objects matter, JSON-RPC
//! lines written by hand where the bytes do, over an in-process pipe
//! (stdio's framing).

use super::{bounded, call, connect, serve};
use rmcp::model::CallToolRequestParams;
use serde_json::{Map, Value, json};
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tool_core::toolset::Toolset;
use tool_core::{DynamicTool, ToolOutput, ToolRegistry};
use tool_mcp::McpServer;

/// Name, description and parameters of the served tools; each answers
/// `<name>: <arguments>`.
const TOOLS: [(&str, &str, &str); 6] = [
    ("echo", "Echo one value", "value"),
    ("weather", "Get the weather forecast for a city", "city"),
    (
        "stock_quote",
        "Get the latest stock price of a ticker symbol",
        "symbol",
    ),
    ("file_read", "Read a text file from the workspace", "path"),
    ("file_write", "Write a text file in the workspace", "path"),
    ("calendar_add", "Add an event to the calendar", "title"),
];

/// The core tools, offered up front.
const CORE: [&str; 2] = ["weather", "echo"];

fn tool(name: &'static str, description: &str, parameter: &str) -> DynamicTool {
    DynamicTool::new(
        name,
        description,
        move |arguments: Map<String, Value>, _ctx| async move {
            Ok(ToolOutput::text(format!(
                "{name}: {}",
                Value::Object(arguments)
            )))
        },
    )
    .with_parameters(json!({
        "type": "object",
        "properties": {parameter: {"type": "string", "description": format!("The {parameter}")}},
        "required": [parameter],
        "additionalProperties": false,
    }))
}

/// [`TOOLS`] registered in the order `order` gives (positions in TOOLS),
/// all but [`CORE`] deferred.
fn registry(order: &[usize]) -> ToolRegistry {
    let set = order.iter().fold(Toolset::new("served"), |set, &at| {
        let (name, description, parameter) = TOOLS[at];
        set.with(tool(name, description, parameter))
    });
    let mut tools = ToolRegistry::new();
    tools.register_all(set.deferred_except(&CORE)).unwrap();
    tools
}

#[tokio::test]
async fn tools_list_shows_the_core_tools_and_tool_search_sorted() {
    bounded(async {
        let client = connect(McpServer::new(registry(&[0, 1, 2, 3, 4, 5]))).await;
        let listed = client.list_all_tools().await.unwrap();
        let names: Vec<&str> = listed.iter().map(|tool| tool.name.as_ref()).collect();
        assert_eq!(names, ["echo", "tool_search", "weather"]);
        let search = &listed[1];
        let schema = Value::Object(search.input_schema.as_ref().clone());
        assert_eq!(schema["required"], json!(["query"]), "{schema}");
        assert_eq!(
            schema["properties"]["mode"]["enum"],
            json!(["bm25", "regex"])
        );
    })
    .await;
}

#[tokio::test]
async fn tool_search_answers_with_the_definitions_it_finds_and_they_are_callable() {
    bounded(async {
        let client = connect(McpServer::new(registry(&[0, 1, 2, 3, 4, 5]))).await;
        let found = call(&client, "tool_search", json!({"query": "stock price"})).await;
        assert_eq!(found["isError"], false, "{found}");
        assert_eq!(
            found["structuredContent"]["found"][0], "stock_quote",
            "{found}"
        );
        let text = found["content"][0]["text"].as_str().unwrap();
        let mut lines = text.lines();
        assert!(
            lines.next().unwrap().starts_with("Found "),
            "the text starts with what it found: {text}"
        );
        let first: Value = serde_json::from_str(lines.next().unwrap()).unwrap();
        assert_eq!(
            first,
            json!({
                "name": "stock_quote",
                "description": "Get the latest stock price of a ticker symbol",
                "parameters": {
                    "type": "object",
                    "properties": {"symbol": {"type": "string", "description": "The symbol"}},
                    "required": ["symbol"],
                    "additionalProperties": false,
                },
            })
        );

        // The found tool, never listed, is called by its name, and its
        // arguments are checked against the schema the search showed.
        let quote = call(&client, "stock_quote", json!({"symbol": "ACME"})).await;
        assert_eq!(quote["isError"], false, "{quote}");
        assert_eq!(
            quote["content"][0]["text"],
            r#"stock_quote: {"symbol":"ACME"}"#
        );
        let wrong = call(&client, "stock_quote", json!({"ticker": "ACME"})).await;
        assert_eq!(wrong["isError"], true, "{wrong}");

        // A regex over the names finds both file tools.
        let files = call(
            &client,
            "tool_search",
            json!({"query": "^file_", "mode": "regex"}),
        )
        .await;
        assert_eq!(
            files["structuredContent"]["found"],
            json!(["file_read", "file_write"]),
            "{files}"
        );
        // A name no tool has is still unknown.
        let error = client
            .call_tool(CallToolRequestParams::new("file_delete").with_arguments(Map::new()))
            .await
            .expect_err("an unknown tool is a protocol error");
        assert!(
            error.to_string().contains("Unknown tool: file_delete"),
            "{error}"
        );
    })
    .await;
}

/// `tools/list`'s answer, exactly as the server writes it on the pipe.
async fn raw_tools_list(server: McpServer) -> String {
    let (reader, mut writer) = tokio::io::split(serve(server));
    let mut lines = BufReader::new(reader).lines();
    let initialize = r#"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"bytes","version":"0.1.0"}}}"#;
    writer
        .write_all(format!("{initialize}\n").as_bytes())
        .await
        .unwrap();
    let answer = lines
        .next_line()
        .await
        .unwrap()
        .expect("initialize answers");
    assert!(answer.contains(r#""id":1"#), "{answer}");
    let rest = concat!(
        r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#,
        "\n",
        r#"{"jsonrpc":"2.0","id":2,"method":"tools/list"}"#,
        "\n"
    );
    writer.write_all(rest.as_bytes()).await.unwrap();
    let listed = lines
        .next_line()
        .await
        .unwrap()
        .expect("tools/list answers");
    assert!(listed.contains(r#""id":2"#), "{listed}");
    listed
}

#[tokio::test]
async fn the_list_is_the_same_bytes_whatever_order_the_tools_were_registered_in() {
    bounded(async {
        let orders: [[usize; 6]; 4] = [
            [0, 1, 2, 3, 4, 5],
            [5, 4, 3, 2, 1, 0],
            [3, 0, 5, 1, 4, 2],
            [1, 5, 2, 0, 3, 4],
        ];
        let first = raw_tools_list(McpServer::new(registry(&orders[0]))).await;
        let parsed: Value = serde_json::from_str(&first).unwrap();
        let names: Vec<&str> = parsed["result"]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .map(|tool| tool["name"].as_str().unwrap())
            .collect();
        assert_eq!(names, ["echo", "tool_search", "weather"]);
        for order in &orders[1..] {
            let again = raw_tools_list(McpServer::new(registry(order))).await;
            assert_eq!(again, first, "registered in the order {order:?}");
        }
    })
    .await;
}
