//! `mcp --token` and its look-alikes: hidden flags that exist only to be
//! refused with the reason, since clap alone would answer "unexpected
//! argument" and a user would try the next spelling. The value, a secret,
//! is never repeated in the error.

use clap::builder::TypedValueParser;
use clap::error::{Error, ErrorKind};
use clap::{Arg, Command};
use std::ffi::OsStr;

/// `command` with the refused flags added to its `mcp`. Added at parse
/// time only, not in the derive: clap_complete offers even hidden flags,
/// and the completions must not suggest typing a token.
pub(super) fn add_to(command: Command) -> Command {
    command.mut_subcommand("mcp", |mcp| {
        ["token", "bearer-token", "auth-token"]
            .into_iter()
            .fold(mcp, |mcp, name| mcp.arg(flag(name)))
    })
}

/// The hidden flag `--name`, with or without a value; giving it is a usage
/// error that points to `--token-file` and `TOOL_EXAMPLES_TOKEN`.
fn flag(name: &'static str) -> Arg {
    Arg::new(name)
        .long(name)
        .hide(true)
        .num_args(0..=1)
        // A bare `--token` is refused too: the parser runs on this.
        .default_missing_value("")
        .value_parser(Refuse)
}

/// A value parser that fails for every value.
#[derive(Clone)]
struct Refuse;

impl TypedValueParser for Refuse {
    type Value = ();

    fn parse_ref(
        &self,
        command: &Command,
        arg: Option<&Arg>,
        _secret: &OsStr,
    ) -> Result<(), Error> {
        let flag = arg.and_then(Arg::get_long).unwrap_or("token");
        let mut command = command.clone();
        Err(command.error(
            ErrorKind::UnknownArgument,
            format!(
                "'--{flag}' is not accepted: a token on the command line can be read by every \
                 user of the machine; put it in a file for --token-file PATH, or in the \
                 TOOL_EXAMPLES_TOKEN environment variable"
            ),
        ))
    }
}
