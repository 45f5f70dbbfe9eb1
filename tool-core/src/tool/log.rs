//! Messages a tool logs for whoever runs it ([`ToolContext::log`]): over
//! MCP, the client (`notifications/message`, at or above the level it set
//! with `logging/setLevel`); anywhere else the application's sink
//! ([`RunOptions::with_log`](crate::RunOptions::with_log)), or `tracing`.
//!
//! The levels are the syslog severities of RFC 5424, which MCP's logging
//! uses
//! (<https://modelcontextprotocol.io/specification/2025-11-25/server/utilities/logging#log-levels>).
//!
//! [`ToolContext::log`]: crate::ToolContext::log

use std::fmt;
use std::sync::Arc;

/// How severe a logged message is, least first: the syslog severities
/// (RFC 5424 section 6.2.1) as MCP names them.
///
/// ```
/// use tool_core::LogLevel;
///
/// assert!(LogLevel::Warning > LogLevel::Info);
/// assert_eq!(LogLevel::Warning.as_str(), "warning");
/// assert_eq!("error".parse::<LogLevel>(), Ok(LogLevel::Error));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum LogLevel {
    /// Detailed information for debugging.
    Debug,
    /// Information about the work as it goes.
    Info,
    /// Normal but significant.
    Notice,
    /// Something unexpected that did not stop the work.
    Warning,
    /// Something failed.
    Error,
    /// A critical condition.
    Critical,
    /// Action must be taken at once.
    Alert,
    /// The system is unusable.
    Emergency,
}

/// Every level, least severe first.
const LEVELS: [LogLevel; 8] = [
    LogLevel::Debug,
    LogLevel::Info,
    LogLevel::Notice,
    LogLevel::Warning,
    LogLevel::Error,
    LogLevel::Critical,
    LogLevel::Alert,
    LogLevel::Emergency,
];

impl LogLevel {
    /// The level's name as MCP writes it (`"debug"` ... `"emergency"`).
    pub fn as_str(self) -> &'static str {
        match self {
            LogLevel::Debug => "debug",
            LogLevel::Info => "info",
            LogLevel::Notice => "notice",
            LogLevel::Warning => "warning",
            LogLevel::Error => "error",
            LogLevel::Critical => "critical",
            LogLevel::Alert => "alert",
            LogLevel::Emergency => "emergency",
        }
    }
}

impl fmt::Display for LogLevel {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(self.as_str())
    }
}

/// A name that is none of the levels.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownLogLevel(pub String);

impl fmt::Display for UnknownLogLevel {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            out,
            "{:?} is not a log level (debug, info, notice, warning, error, critical, alert, emergency)",
            self.0
        )
    }
}

impl std::error::Error for UnknownLogLevel {}

impl std::str::FromStr for LogLevel {
    type Err = UnknownLogLevel;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        LEVELS
            .into_iter()
            .find(|level| level.as_str() == text)
            .ok_or_else(|| UnknownLogLevel(text.to_owned()))
    }
}

/// Receives the messages a tool logs.
pub type LogFn = Arc<dyn Fn(LogLevel, &str) + Send + Sync>;

/// A logged message tagged with the call it comes from
/// ([`RunOptions::with_log`](crate::RunOptions::with_log)).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LogEvent {
    /// The call logging.
    pub call_id: String,
    /// Its tool.
    pub tool_name: String,
    /// How severe it is.
    pub level: LogLevel,
    /// What the tool said.
    pub message: String,
}

/// Where a message goes when the run has no sink: `tracing`, at the
/// nearest of its levels (notice is info; critical and above are error),
/// under the target `tool_core::tool_log`, with the call's id.
pub(crate) fn to_tracing(call_id: &str, level: LogLevel, message: &str) {
    // Without the `tracing` feature the events below are not written.
    #[cfg(not(feature = "tracing"))]
    let _ = (call_id, message);
    match level {
        LogLevel::Debug => {
            crate::trace::debug!(target: "tool_core::tool_log", call_id, level = level.as_str(), "{message}")
        }
        LogLevel::Info | LogLevel::Notice => {
            crate::trace::info!(target: "tool_core::tool_log", call_id, level = level.as_str(), "{message}")
        }
        LogLevel::Warning => {
            crate::trace::warn!(target: "tool_core::tool_log", call_id, level = level.as_str(), "{message}")
        }
        _ => {
            crate::trace::error!(target: "tool_core::tool_log", call_id, level = level.as_str(), "{message}")
        }
    }
}
