//! Mistakes on the command line that clap cannot see, because they depend
//! on the tools (a `--defer-all-except` name that is no tool): reported as
//! clap reports its own usage errors, with the command's usage line, and
//! exit code 2.

use super::Cli;
use clap::CommandFactory;
use clap::error::ErrorKind;
use std::fmt;
use std::process::ExitCode;

/// A usage error of one command, found after the command line was read.
///
/// It travels up as an [`std::io::Error`] (what the commands return), and
/// [`found_in`](UsageError::found_in) finds it there again.
///
/// ```
/// use tool_examples::cli::UsageError;
///
/// let error: std::io::Error = UsageError::new("mcp", "--defer-all-except: no tool ecko").into();
/// let usage = UsageError::found_in(&error).unwrap();
/// assert_eq!(usage.to_string(), "--defer-all-except: no tool ecko");
/// assert_eq!(usage.render().to_string(), "error: --defer-all-except: no tool ecko\n\n\
///     Usage: tool-examples mcp [OPTIONS]\n\nFor more information, try '--help'.\n");
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError {
    /// The subcommand whose usage line is shown (`mcp`).
    command: &'static str,
    message: String,
}

impl UsageError {
    /// A mistake in how `command` (a subcommand's name) was given.
    pub fn new(command: &'static str, message: impl Into<String>) -> Self {
        UsageError {
            command,
            message: message.into(),
        }
    }

    /// The usage error carried by `error`, if it carries one.
    pub fn found_in(error: &std::io::Error) -> Option<&UsageError> {
        error.get_ref()?.downcast_ref::<UsageError>()
    }

    /// The error as clap writes its own: `error: ...`, the command's usage
    /// line, and where to find more.
    pub fn render(&self) -> clap::Error {
        let mut cli = Cli::command();
        // Built, the subcommands' usage lines start with `tool-examples`.
        cli.build();
        let error = clap::Error::raw(ErrorKind::ValueValidation, &self.message);
        match cli.find_subcommand_mut(self.command) {
            Some(command) => error.format(command),
            None => error.format(&mut cli),
        }
    }

    /// Writes the error to stderr; the exit code clap gives usage errors (2).
    pub fn report(&self) -> ExitCode {
        let error = self.render();
        // Nothing better to do when stderr itself is gone.
        let _ = error.print();
        ExitCode::from(u8::try_from(error.exit_code()).unwrap_or(2))
    }
}

impl fmt::Display for UsageError {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        out.write_str(&self.message)
    }
}

impl std::error::Error for UsageError {}

impl From<UsageError> for std::io::Error {
    fn from(error: UsageError) -> Self {
        std::io::Error::new(std::io::ErrorKind::InvalidInput, error)
    }
}
