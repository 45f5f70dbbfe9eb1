//! A `Tool` with its types erased, so a registry can hold tools of any
//! parameter and details types side by side.

use crate::params::ParamError;
use crate::params::{ParamValue, ToolParams};
use crate::tool::ToolContext;
use crate::tool::{Tool, ToolError, ToolOutput};
use pin_project_lite::pin_project;
use serde_json::Value;
use std::future::Future;
use std::pin::Pin;
use std::task::{Context, Poll};

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
        self.check_arguments(arguments)?;
        Ok(Box::new(Stage::Parsed {
            start: run_tool::<T>,
            tool: self,
            params,
        }))
    }
}

/// The tool run, its details turned into JSON. An `async fn`, so calling it
/// only captures its arguments: even `execute`'s synchronous part runs when
/// the future is polled, under the executor's panic guard.
async fn run_tool<T: Tool>(
    tool: &T,
    params: T::Params,
    ctx: ToolContext,
) -> Result<ToolOutput<Value>, ToolError> {
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
}

pin_project! {
    /// A call from its parsed arguments to its output, in one allocation:
    /// the box that holds the parsed arguments becomes the running future
    /// (one allocation fewer on every call than boxing each on its own).
    /// `start` is [`run_tool`], a type parameter only because the type of
    /// its future cannot be named.
    #[project = StageProjection]
    enum Stage<'a, T: Tool, S, F> {
        Parsed { start: S, tool: &'a T, params: T::Params },
        Running { #[pin] running: F },
        // Only between the two, inside `run`.
        Starting,
    }
}

impl<'a, T, S, F> ErasedCall<'a> for Stage<'a, T, S, F>
where
    T: Tool,
    S: FnOnce(&'a T, T::Params, ToolContext) -> F + Send + 'a,
    F: Future<Output = Result<ToolOutput<Value>, ToolError>> + Send + 'a,
{
    fn arguments(&self) -> Value {
        match self {
            Stage::Parsed { params, .. } => params.to_json(),
            // `run` takes the box, so nothing can ask once it has started.
            Stage::Running { .. } | Stage::Starting => {
                unreachable!("arguments asked of a call that has started")
            }
        }
    }

    fn run(mut self: Box<Self>, ctx: ToolContext) -> RunFuture<'a> {
        // Not pinned yet: the stage can change in place.
        if let Stage::Parsed {
            start,
            tool,
            params,
        } = std::mem::replace(&mut *self, Stage::Starting)
        {
            *self = Stage::Running {
                running: start(tool, params, ctx),
            };
        }
        Box::into_pin(self)
    }
}

impl<'a, T, S, F> Future for Stage<'a, T, S, F>
where
    T: Tool,
    F: Future<Output = Result<ToolOutput<Value>, ToolError>>,
{
    type Output = F::Output;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<F::Output> {
        match self.project() {
            StageProjection::Running { running } => running.poll(cx),
            // Only `run` makes the future, and it starts the call first.
            StageProjection::Parsed { .. } | StageProjection::Starting => {
                unreachable!("a call polled before it started")
            }
        }
    }
}
