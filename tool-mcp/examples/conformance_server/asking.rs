//! The suite's tools that ask the client while they run: its model
//! (`tools-call-sampling`) and its person (`tools-call-elicitation`, and
//! the forms of SEP-1034's defaults and SEP-1330's enums), through
//! `ToolContext::sample` and `ToolContext::elicit`.

use serde_json::{Value, json};
use tool_core::params::{ParamPath, ParamValue, ParseContext};
use tool_core::{
    Content, ElicitError, Elicited, SamplingRequest, ToolContext, ToolParams, ToolRegistry, tool,
};

/// The result text the elicitation scenarios describe:
/// `Elicitation completed: action=<accept/decline/cancel>, content={...}`.
fn completed<T>(asked: Result<Elicited<T>, ElicitError>, content: impl Fn(&T) -> Value) -> String {
    match asked {
        Ok(Elicited::Accept(answer)) => {
            format!(
                "Elicitation completed: action=accept, content={}",
                content(&answer)
            )
        }
        Ok(Elicited::Decline) => "Elicitation completed: action=decline, content={}".to_owned(),
        Ok(Elicited::Cancel) => "Elicitation completed: action=cancel, content={}".to_owned(),
        Err(error) => format!("Elicitation failed: {error}"),
    }
}

/// tools-call-sampling: asks the client's model `prompt`, and answers with
/// what it said.
#[tool(name = "test_sampling")]
async fn test_sampling(ctx: &ToolContext, prompt: String) -> String {
    match ctx.sample(SamplingRequest::user(prompt, 100)).await {
        Ok(sampled) => match sampled.content {
            Content::Text { text } => format!("LLM response: {text}"),
            other => format!("LLM response: {other:?}"),
        },
        Err(error) => format!("Sampling failed: {error}"),
    }
}

/// Who the person is.
#[derive(ToolParams, Debug)]
struct Contact {
    /// Your name
    name: String,
    /// Your email address
    email: String,
}

/// tools-call-elicitation: asks the person `message` with a form.
#[tool(name = "test_elicitation")]
async fn test_elicitation(ctx: &ToolContext, message: String) -> String {
    completed(
        ctx.elicit::<Contact>(message).await,
        |contact| json!({"name": contact.name, "email": contact.email}),
    )
}

/// A status, as SEP-1034's scenario lists it.
#[derive(ToolParams, Debug)]
#[param(rename_all = "lowercase")]
enum Status {
    Active,
    Inactive,
    Pending,
}

/// A form whose every field has a default (SEP-1034).
#[derive(ToolParams, Debug)]
struct Defaults {
    /// Name
    #[param(default = String::from("John Doe"))]
    name: String,
    /// Age
    #[param(default = 30)]
    age: i64,
    /// Score
    #[param(default = 95.5)]
    score: f64,
    /// Status
    #[param(default = Status::Active)]
    status: Status,
    /// Verified
    #[param(default = true)]
    verified: bool,
}

/// elicitation-sep1034-defaults: a form with a default for every
/// primitive type.
#[tool(name = "test_elicitation_sep1034_defaults")]
async fn test_elicitation_sep1034_defaults(ctx: &ToolContext) -> String {
    completed(
        ctx.elicit::<Defaults>("Please review your details").await,
        |answer| {
            json!({
                "name": answer.name, "age": answer.age, "score": answer.score,
                "status": format!("{:?}", answer.status).to_lowercase(), "verified": answer.verified,
            })
        },
    )
}

/// The five enum fields of SEP-1330, written as the scenario lists them:
/// titled choices (`oneOf`/`anyOf` of `const` and `title`) and the legacy
/// `enumNames` are beyond what a derive writes, so this form is a
/// `ParamValue` of its own (the public trait for a field type).
#[derive(Debug)]
struct Choices(Value);

impl ParamValue for Choices {
    fn schema() -> Value {
        json!({
            "type": "object",
            "properties": {
                "untitledSingle": {"type": "string", "enum": ["option1", "option2", "option3"]},
                "titledSingle": {"type": "string", "oneOf": [
                    {"const": "value1", "title": "First Option"},
                    {"const": "value2", "title": "Second Option"},
                    {"const": "value3", "title": "Third Option"},
                ]},
                "legacyEnum": {"type": "string", "enum": ["opt1", "opt2", "opt3"],
                               "enumNames": ["Option One", "Option Two", "Option Three"]},
                "untitledMulti": {"type": "array",
                                  "items": {"type": "string", "enum": ["option1", "option2", "option3"]}},
                "titledMulti": {"type": "array", "items": {"anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]}},
            },
        })
    }

    fn parse_value(value: &Value, path: &ParamPath<'_>, errors: &mut ParseContext) -> Option<Self> {
        if !value.is_object() {
            errors.push(path, "expected an object of choices");
            return None;
        }
        Some(Choices(value.clone()))
    }

    fn to_json(&self) -> Value {
        self.0.clone()
    }
}

impl ToolParams for Choices {}

/// elicitation-sep1330-enums: a form with every kind of enum field.
#[tool(name = "test_elicitation_sep1330_enums")]
async fn test_elicitation_sep1330_enums(ctx: &ToolContext) -> String {
    completed(ctx.elicit::<Choices>("Please choose").await, |choices| {
        choices.0.clone()
    })
}

/// Registers the asking tools.
pub(crate) fn register(tools: &mut ToolRegistry) -> Result<(), Box<dyn std::error::Error>> {
    tools.register(TestSamplingTool)?;
    tools.register(TestElicitationTool)?;
    tools.register(TestElicitationSep1034DefaultsTool)?;
    tools.register(TestElicitationSep1330EnumsTool)?;
    Ok(())
}
