//! The server's questions to the person (`elicitation/create`), answered
//! by the application's asker ([`Upstream::with_elicitation`](super::Upstream::with_elicitation)).
//!
//! The asker's answer is checked against the server's form before it
//! travels: an application that answers with a value the form does not
//! allow gets an error back to the server naming the field, not a reply
//! the server would have to distrust
//! (<https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation#response-actions>:
//! accepted content must conform to the requested schema).

use rmcp::ErrorData;
use rmcp::model::{
    ElicitRequestParams, ElicitResult, ElicitationAction, ElicitationCreateRequestMethod,
};
use tool_core::params::SchemaCheck;
use tool_core::{ElicitFn, ElicitationRequest, Elicited};

/// The answer to one `elicitation/create`.
pub(super) async fn answer(
    asker: Option<&ElicitFn>,
    request: ElicitRequestParams,
) -> Result<ElicitResult, ErrorData> {
    // Without an asker the client declared no elicitation: a server that
    // asks anyway is told so.
    let Some(asker) = asker else {
        return Err(ErrorData::method_not_found::<ElicitationCreateRequestMethod>());
    };
    let ElicitRequestParams::FormElicitationParams {
        message,
        requested_schema,
        ..
    } = request
    else {
        return Err(ErrorData::invalid_params(
            "this client declared form elicitation only; it shows no URL to the person",
            None,
        ));
    };
    let schema = serde_json::to_value(&requested_schema)
        .map_err(|error| ErrorData::invalid_params(format!("the form: {error}"), None))?;
    let check = SchemaCheck::new(&schema).map_err(|error| {
        ErrorData::invalid_params(format!("the form is not a JSON Schema: {error}"), None)
    })?;
    let answered = asker(ElicitationRequest { message, schema }).await;
    match answered {
        Ok(Elicited::Accept(values)) => {
            check.check(&values).map_err(|error| {
                tracing::warn!("MCP elicitation: the application's answer does not fit the server's form: {error}");
                ErrorData::internal_error(
                    format!("the answer does not fit the form: {error}"),
                    None,
                )
            })?;
            Ok(ElicitResult::new(ElicitationAction::Accept).with_content(values))
        }
        Ok(Elicited::Decline) => Ok(ElicitResult::new(ElicitationAction::Decline)),
        Ok(Elicited::Cancel) => Ok(ElicitResult::new(ElicitationAction::Cancel)),
        Err(error) => Err(ErrorData::internal_error(error.to_string(), None)),
    }
}
