//! The suite's resources, prompts and completion, served beside the tools
//! by `McpServer::with_handler`: an rmcp `ServerHandler` written by hand,
//! each answer in the JSON its scenario shows (rmcp's types read MCP's
//! JSON as it is on the wire).

use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    GetPromptResult, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ReadResourceResult,
    ServerCapabilities, ServerConfig, SubscribeRequestParams, UnsubscribeRequestParams,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler};
use serde_json::{Value, json};
use std::collections::BTreeSet;
use std::sync::Mutex;

/// The resources, prompts and subscriptions of the suite's scenarios.
#[derive(Default)]
pub(crate) struct Library {
    /// resources-subscribe and -unsubscribe: the URIs watched.
    subscribed: Mutex<BTreeSet<String>>,
}

/// MCP's JSON as rmcp's type.
fn wire<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ErrorData> {
    serde_json::from_value(value)
        .map_err(|error| ErrorData::internal_error(error.to_string(), None))
}

/// The argument `name` of a prompt, or the error of one missing.
fn argument(request: &GetPromptRequestParams, name: &str) -> Result<String, ErrorData> {
    request
        .arguments
        .as_ref()
        .and_then(|arguments| arguments.get(name))
        .and_then(Value::as_str)
        .map(str::to_owned)
        .ok_or_else(|| ErrorData::invalid_params(format!("the argument {name} is required"), None))
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

    // resources-list: the direct resources, each with a description.
    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        wire(json!({"resources": [
            {"uri": "test://static-text", "name": "static-text",
             "description": "A static text resource", "mimeType": "text/plain"},
            {"uri": "test://static-binary", "name": "static-binary",
             "description": "A static binary resource (a PNG)", "mimeType": "image/png"},
            {"uri": "test://watched-resource", "name": "watched-resource",
             "description": "A resource to subscribe to", "mimeType": "text/plain"},
        ]}))
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        wire(json!({"resourceTemplates": [
            {"uriTemplate": "test://template/{id}/data", "name": "template-data",
             "description": "Data for an id", "mimeType": "application/json"},
        ]}))
    }

    // resources-read-text, -read-binary, -templates-read.
    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let uri = request.uri.as_str();
        let content = match uri {
            "test://static-text" | "test://watched-resource" => json!({
                "uri": uri, "mimeType": "text/plain",
                "text": "This is the content of the static text resource.",
            }),
            "test://static-binary" => json!({
                "uri": uri, "mimeType": "image/png", "blob": super::red_pixel_base64(),
            }),
            _ => match uri
                .strip_prefix("test://template/")
                .and_then(|rest| rest.strip_suffix("/data"))
            {
                Some(id) => json!({
                    "uri": uri, "mimeType": "application/json",
                    "text": json!({"id": id, "templateTest": true, "data": format!("Data for ID: {id}")}).to_string(),
                }),
                None => {
                    return Err(ErrorData::resource_not_found(
                        format!("no resource {uri}"),
                        None,
                    ));
                }
            },
        };
        let result: ReadResourceResult = wire(json!({"contents": [content]}))?;
        Ok(result.into())
    }

    async fn subscribe(
        &self,
        request: SubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(request.uri);
        Ok(())
    }

    async fn unsubscribe(
        &self,
        request: UnsubscribeRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<(), ErrorData> {
        self.subscribed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&request.uri);
        Ok(())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        wire(json!({"prompts": [
            {"name": "test_simple_prompt", "description": "A simple prompt"},
            {"name": "test_prompt_with_arguments", "description": "A prompt with arguments",
             "arguments": [
                {"name": "arg1", "description": "First test argument", "required": true},
                {"name": "arg2", "description": "Second test argument", "required": true},
             ]},
            {"name": "test_prompt_with_embedded_resource", "description": "A prompt with a resource",
             "arguments": [{"name": "resourceUri", "description": "The resource to embed", "required": true}]},
            {"name": "test_prompt_with_image", "description": "A prompt with an image"},
        ]}))
    }

    // prompts-get-simple, -with-args, -embedded-resource, -with-image.
    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        let text =
            |text: String| json!({"role": "user", "content": {"type": "text", "text": text}});
        let messages = match request.name.as_str() {
            "test_simple_prompt" => vec![text("This is a simple prompt for testing.".to_owned())],
            "test_prompt_with_arguments" => {
                let (arg1, arg2) = (argument(&request, "arg1")?, argument(&request, "arg2")?);
                vec![text(format!(
                    "Prompt with arguments: arg1='{arg1}', arg2='{arg2}'"
                ))]
            }
            "test_prompt_with_embedded_resource" => {
                let uri = argument(&request, "resourceUri")?;
                vec![
                    json!({"role": "user", "content": {"type": "resource", "resource": {
                        "uri": uri, "mimeType": "text/plain",
                        "text": "Embedded resource content for testing.",
                    }}}),
                    text("Please process the embedded resource above.".to_owned()),
                ]
            }
            "test_prompt_with_image" => vec![
                json!({"role": "user", "content": {
                    "type": "image", "data": super::red_pixel_base64(), "mimeType": "image/png",
                }}),
                text("Please analyze the image above.".to_owned()),
            ],
            other => {
                return Err(ErrorData::invalid_params(
                    format!("no prompt {other}"),
                    None,
                ));
            }
        };
        let result: GetPromptResult = wire(json!({"messages": messages}))?;
        Ok(result.into())
    }

    // completion-complete: suggestions that start with what was typed.
    async fn complete(
        &self,
        request: CompleteRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        let typed = request.argument.value.to_lowercase();
        let values: Vec<&str> = ["paris", "park", "party", "hello", "world"]
            .into_iter()
            .filter(|value| value.starts_with(&typed))
            .collect();
        wire(json!({"completion": {"values": values, "total": values.len(), "hasMore": false}}))
    }
}
