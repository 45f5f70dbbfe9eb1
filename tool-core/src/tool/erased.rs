//! A `Tool` with its types erased, so a registry can hold tools of any
//! parameter and details types side by side.

use crate::params::ParamError;
use crate::params::{ParamValue, ToolParams};
use crate::tool::ToolContext;
use crate::tool::{Tool, ToolError, ToolOutput};
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;

/// The future of a running call, with its output's details as JSON.
pub(crate) type RunFuture<'a> =
    Pin<Box<dyn Future<Output = Result<ToolOutput<Value>, ToolError>> + Send + 'a>>;

pub(crate) trait ErasedTool: Send + Sync + 'static {
    fn prepare<'a>(&'a self, arguments: &Value)
    -> Result<Box<dyn ErasedCall<'a> + 'a>, ParamError>;
}

/// Arguments parsed for a tool, ready to run.
pub(crate) trait ErasedCall<'a>: Send {
    fn arguments(&self) -> Value;
    fn run(self: Box<Self>, ctx: ToolContext) -> RunFuture<'a>;
}

impl<T: Tool> ErasedTool for T {
    fn prepare<'a>(
        &'a self,
        arguments: &Value,
    ) -> Result<Box<dyn ErasedCall<'a> + 'a>, ParamError> {
        let params = T::Params::parse(arguments)?;
        Ok(Box::new(Parsed { tool: self, params }))
    }
}

struct Parsed<'a, T: Tool> {
    tool: &'a T,
    params: T::Params,
}

impl<'a, T: Tool> ErasedCall<'a> for Parsed<'a, T> {
    fn arguments(&self) -> Value {
        self.params.to_json()
    }

    fn run(self: Box<Self>, ctx: ToolContext) -> RunFuture<'a> {
        let Parsed { tool, params } = *self;
        // `execute` is called inside the future, so even its synchronous part
        // runs under the executor's panic guard.
        Box::pin(async move {
            let output = tool.execute(params, ctx).await?;
            let details = match output.details {
                Some(details) => Some(serde_json::to_value(details).map_err(|error| {
                    ToolError::from(format!("its details could not be serialized: {error}"))
                })?),
                None => None,
            };
            Ok(ToolOutput {
                content: output.content,
                details,
                is_error: output.is_error,
            })
        })
    }
}
