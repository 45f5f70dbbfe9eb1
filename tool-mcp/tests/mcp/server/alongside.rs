//! Prompts, resources and completion beside the tools
//! (`McpServer::with_handler`): a handler written with rmcp by hand, its
//! capabilities declared, each method answered by it, the tools still the
//! registry's; and a server of tools alone says it has none of them.
//! rmcp's client over a pipe, in the wire's JSON.

use super::connect;
use crate::support::bounded;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult, PaginatedRequestParams,
    ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities, ServerConfig,
    SubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use std::sync::{Arc, Mutex};
use tool_mcp::McpServer;

/// A library: one prompt, two resources (text and binary), a template,
/// subscriptions, completion of the prompt's argument.
#[derive(Clone, Default)]
struct Library {
    subscribed: Arc<Mutex<Vec<String>>>,
}

fn wire<T: serde::de::DeserializeOwned>(value: Value) -> T {
    serde_json::from_value(value).unwrap()
}

impl ServerHandler for Library {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(
            ServerCapabilities::builder()
                .enable_prompts()
                .enable_resources()
                .enable_resources_subscribe()
                .enable_completions()
                .build(),
        )
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(wire(json!({"prompts": [{
            "name": "summarize",
            "description": "Summarize a book",
            "arguments": [{"name": "title", "required": true}],
        }]})))
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let title = request
            .arguments
            .as_ref()
            .and_then(|arguments| arguments.get("title"))
            .and_then(Value::as_str)
            .ok_or_else(|| ErrorData::invalid_params("title is required", None))?
            .to_owned();
        let result: rmcp::model::GetPromptResult = wire(json!({"messages": [{
            "role": "user",
            "content": {"type": "text", "text": format!("Summarize {title}")},
        }]}));
        Ok(result.into())
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(wire(json!({"resources": [
            {"uri": "library://catalogue", "name": "catalogue", "mimeType": "text/plain"},
            {"uri": "library://cover.png", "name": "cover", "mimeType": "image/png"},
        ]})))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(wire(json!({"resourceTemplates": [
            {"uriTemplate": "library://books/{title}", "name": "book"},
        ]})))
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let contents = match request.uri.as_str() {
            "library://catalogue" => {
                json!([{"uri": request.uri, "mimeType": "text/plain", "text": "Dune\nEmma"}])
            }
            "library://cover.png" => {
                json!([{"uri": request.uri, "mimeType": "image/png", "blob": "iVBORw0KGgo="}])
            }
            other => {
                return Err(ErrorData::resource_not_found(
                    format!("no resource {other}"),
                    None,
                ));
            }
        };
        let result: rmcp::model::ReadResourceResult = wire(json!({"contents": contents}));
        Ok(result.into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed.lock().unwrap().push(request.uri);
        Ok(())
    }

    async fn complete(
        &self,
        _request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        Ok(wire(
            json!({"completion": {"values": ["Dune"], "total": 1, "hasMore": false}}),
        ))
    }
}

fn json_of<T: serde::Serialize>(value: &T) -> Value {
    serde_json::to_value(value).unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_handlers_prompts_resources_and_completion_are_served_beside_the_tools() {
    bounded(async {
        let library = Library::default();
        let server = McpServer::new(crate::support::registry()).with_handler(library.clone());
        let client = connect(server).await;
        let capabilities = json_of(&client.peer_info().unwrap().capabilities);
        for capability in ["tools", "prompts", "resources", "completions"] {
            assert!(
                capabilities[capability].is_object(),
                "{capability}: {capabilities}"
            );
        }
        assert_eq!(capabilities["resources"]["subscribe"], true);

        let prompts = json_of(&client.list_prompts(None).await.unwrap());
        assert_eq!(prompts["prompts"][0]["name"], "summarize");
        let mut arguments = serde_json::Map::new();
        arguments.insert("title".to_owned(), json!("Dune"));
        let prompt = json_of(
            &client
                .get_prompt(GetPromptRequestParams::new("summarize").with_arguments(arguments))
                .await
                .unwrap(),
        );
        assert_eq!(prompt["messages"][0]["content"]["text"], "Summarize Dune");

        let resources = json_of(&client.list_resources(None).await.unwrap());
        assert_eq!(resources["resources"].as_array().unwrap().len(), 2);
        let text = json_of(
            &client
                .read_resource(ReadResourceRequestParams::new("library://catalogue"))
                .await
                .unwrap(),
        );
        assert_eq!(text["contents"][0]["text"], "Dune\nEmma");
        let binary = json_of(
            &client
                .read_resource(ReadResourceRequestParams::new("library://cover.png"))
                .await
                .unwrap(),
        );
        assert_eq!(binary["contents"][0]["blob"], "iVBORw0KGgo=");
        let missing = client
            .read_resource(ReadResourceRequestParams::new("library://nothing"))
            .await
            .unwrap_err();
        assert!(
            missing
                .to_string()
                .contains("no resource library://nothing"),
            "{missing}"
        );
        let templates = json_of(&client.list_resource_templates(None).await.unwrap());
        assert_eq!(
            templates["resourceTemplates"][0]["uriTemplate"],
            "library://books/{title}"
        );

        #[expect(
            deprecated,
            reason = "resources/subscribe: the revisions before 2026-07-28 have it"
        )]
        client
            .subscribe(SubscribeRequestParams::new("library://catalogue"))
            .await
            .unwrap();
        assert_eq!(*library.subscribed.lock().unwrap(), ["library://catalogue"]);

        let completion: CompleteRequestParams = wire(json!({
            "ref": {"type": "ref/prompt", "name": "summarize"},
            "argument": {"name": "title", "value": "Du"},
        }));
        let completed = json_of(&client.complete(completion).await.unwrap());
        assert_eq!(completed["completion"]["values"], json!(["Dune"]));

        // The tools are still the registry's.
        let tools = client.list_all_tools().await.unwrap();
        assert!(tools.iter().any(|tool| tool.name == "echo"));
        client.cancel().await.unwrap();
    })
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_server_of_tools_alone_has_no_prompts_nor_resources() {
    bounded(async {
        let client = connect(McpServer::new(crate::support::registry())).await;
        let capabilities = json_of(&client.peer_info().unwrap().capabilities);
        assert!(capabilities.get("prompts").is_none(), "{capabilities}");
        assert!(capabilities.get("resources").is_none(), "{capabilities}");
        let refused = client.list_prompts(None).await.unwrap_err();
        assert!(
            refused
                .to_string()
                .contains("this server serves tools only"),
            "{refused}"
        );
        client.cancel().await.unwrap();
    })
    .await;
}
