//! Who may call a tool, and who called it: the model directly, or a
//! program the model wrote, run by the provider's code execution
//! (Anthropic's programmatic tool calling, OpenAI's programmatic callers),
//! whose calls come back to you one by one, each naming the program.

use serde::{Deserialize, Serialize};

/// Who may call a tool: the model, code it writes, or both. The default is
/// the model alone; a provider format writes the rest as its
/// `allowed_callers` (`#[tool(callers(direct, code))]`,
/// [`Toolset::callers`](crate::toolset::Toolset::callers)).
///
/// ```
/// use tool_core::Callers;
///
/// assert_eq!(Callers::default(), Callers::DIRECT);
/// assert!(Callers::BOTH.code && Callers::BOTH.direct);
/// assert!(!Callers::CODE.direct);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Callers {
    /// The model may call the tool itself.
    pub direct: bool,
    /// Code the model wrote may call it (the provider's code execution).
    pub code: bool,
}

impl Callers {
    /// The model alone: every tool's default.
    pub const DIRECT: Callers = Callers {
        direct: true,
        code: false,
    };
    /// Code alone: the model reaches the tool only through a program, so
    /// its results never enter the model's context.
    pub const CODE: Callers = Callers {
        direct: false,
        code: true,
    };
    /// The model and code.
    pub const BOTH: Callers = Callers {
        direct: true,
        code: true,
    };

    /// Whether this is the default: the model alone.
    pub fn is_direct_only(&self) -> bool {
        *self == Callers::DIRECT
    }
}

impl Default for Callers {
    fn default() -> Self {
        Callers::DIRECT
    }
}

/// Who made a call, when it was not the model itself: a program the
/// provider runs, which waits for the result. A format reads it from the
/// call (Anthropic's `caller`, OpenAI's `caller`), keeps it on the result,
/// and writes the result in the shape the program receives.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum CallOrigin {
    /// A program run by the provider's code execution.
    Code {
        /// Which run of it: Anthropic's `server_tool_use` id
        /// (`caller.tool_id`), OpenAI's program `call_id`
        /// (`caller.caller_id`).
        program: String,
    },
}
