//! The binary's command line: a handful of commands and flags, parsed by hand
//! (an argument parser crate would cost more to build than this file).

use std::net::SocketAddr;
use std::path::PathBuf;
use tool_core::providers::ProviderFormat;

/// What the binary was asked to do.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// No arguments: the seed's walkthrough.
    Walkthrough,
    /// `call`: run JSON-lines tool calls from stdin.
    Call {
        /// Where `read` and `list` are rooted.
        root: PathBuf,
        /// One call at a time instead of all at once.
        sequential: bool,
        /// Repair near-miss arguments (every rule), visibly.
        repair: bool,
    },
    /// `definitions`: print the tool definitions in a provider's format.
    Definitions {
        /// Which format.
        format: ProviderFormat,
    },
    /// `mcp`: serve the tools over MCP.
    Mcp {
        /// Where `read` and `list` are rooted.
        root: PathBuf,
        /// Serve streamable HTTP on this address instead of stdio.
        http: Option<SocketAddr>,
    },
    /// `--help` somewhere: print this text and exit 0.
    Help(&'static str),
}

/// A command line that makes no sense; exit code 2.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UsageError {
    /// What was wrong, then the usage of the command concerned.
    pub message: String,
}

pub const MAIN_HELP: &str = "\
tool-examples: typed tool calling, shown on real tools (echo, upper, read, list)

Usage: tool-examples [COMMAND]

Commands:
  (none)        walk through the seed's echo call, its result and three failures
  call          run tool calls: ToolCall JSON lines on stdin, one result line each on stdout
  definitions   print the tools' definitions, in a provider's format
  mcp           serve the tools over MCP (stdio, or streamable HTTP with --http)
  help          print this help

Options:
  -h, --help    print help (also after a command: tool-examples call --help)
";

pub const CALL_HELP: &str = "\
Run tool calls read from stdin, one ToolCall JSON object per line:
  {\"type\":\"toolCall\",\"id\":\"call-1\",\"name\":\"echo\",\"arguments\":{\"value\":\"Pi\"}}
Each call is answered by one ToolResultMessage JSON line on stdout, in input order.
Calls run in parallel; answers stream out as soon as every earlier one is written.
A line that is not a tool call gets a paired error result when its \"id\" can be read,
else {\"error\": ..., \"line\": N}. Blank lines are skipped. Exits 0 at end of input.

Usage: tool-examples call [--root DIR] [--sequential] [--repair]

Options:
  --root DIR      the directory `read` and `list` may look in (default: the current directory)
  --sequential    run one call at a time, in input order
  --repair        repair near-miss arguments (\"2\" for 2, JSON text for an object,
                  one value for a list, \"Fast\" for \"fast\", empty for {}); each repair
                  is listed in the result's \"repairs\" and told to the model
  -h, --help      print help
";

pub const DEFINITIONS_HELP: &str = "\
Print the example tools' definitions (name, description, JSON Schema of the
parameters) in a provider's format: a JSON array of tool definitions (for
Gemini, the object that wraps functionDeclarations). What a format cannot
express is listed on stderr, one line per change.

Usage: tool-examples definitions [--format FORMAT]

Options:
  --format FORMAT   neutral (default), openai, openai-strict, openai-responses,
                    openai-responses-strict, anthropic, gemini, gemini-legacy, mcp
  -h, --help        print help
";

pub const MCP_HELP: &str = "\
Serve the example tools (echo, upper, read, list) over the Model Context Protocol.
Over stdio by default: stdin and stdout carry JSON-RPC, as an MCP client that
starts this program expects. With --http, over streamable HTTP at
http://ADDR/mcp (port 0 picks a free port). Logs go to stderr only.

Usage: tool-examples mcp [--http ADDR] [--root DIR]

Options:
  --http ADDR   serve streamable HTTP on ADDR, such as 127.0.0.1:8080
  --root DIR    the directory `read` and `list` may look in (default: the current directory)
  -h, --help    print help
";

/// Parses the arguments after the program name.
pub fn parse<I, S>(args: I) -> Result<Command, UsageError>
where
    I: IntoIterator<Item = S>,
    S: Into<String>,
{
    let mut args = args.into_iter().map(Into::into);
    let Some(command) = args.next() else {
        return Ok(Command::Walkthrough);
    };
    match command.as_str() {
        "-h" | "--help" | "help" => Ok(Command::Help(MAIN_HELP)),
        "call" => parse_call(args),
        "definitions" => parse_definitions(args),
        "mcp" => parse_mcp(args),
        other => Err(UsageError {
            message: format!("unknown command '{other}'\n\n{}", usage_of(MAIN_HELP)),
        }),
    }
}

fn parse_call(mut args: impl Iterator<Item = String>) -> Result<Command, UsageError> {
    let mut root = None;
    let mut sequential = false;
    let mut repair = false;
    while let Some(arg) = args.next() {
        match split_inline(&arg) {
            (flag, None) if is_help(flag) => return Ok(Command::Help(CALL_HELP)),
            ("--sequential", None) => sequential = true,
            ("--repair", None) => repair = true,
            ("--root", inline) => {
                let dir = flag_value("--root", inline, &mut args, "a directory", CALL_HELP)?;
                root = Some(PathBuf::from(dir));
            }
            _ => return Err(unexpected(&arg, CALL_HELP)),
        }
    }
    Ok(Command::Call {
        root: root.unwrap_or_else(|| PathBuf::from(".")),
        sequential,
        repair,
    })
}

fn parse_mcp(mut args: impl Iterator<Item = String>) -> Result<Command, UsageError> {
    let mut root = None;
    let mut http = None;
    while let Some(arg) = args.next() {
        match split_inline(&arg) {
            (flag, None) if is_help(flag) => return Ok(Command::Help(MCP_HELP)),
            ("--root", inline) => {
                let dir = flag_value("--root", inline, &mut args, "a value", MCP_HELP)?;
                root = Some(PathBuf::from(dir));
            }
            ("--http", inline) => {
                let value = flag_value("--http", inline, &mut args, "a value", MCP_HELP)?;
                http = Some(value.parse().map_err(|_| UsageError {
                    message: format!(
                        "'--http' needs an address such as 127.0.0.1:8080, not '{value}'\n\n{}",
                        usage_of(MCP_HELP)
                    ),
                })?);
            }
            _ => return Err(unexpected(&arg, MCP_HELP)),
        }
    }
    Ok(Command::Mcp {
        root: root.unwrap_or_else(|| PathBuf::from(".")),
        http,
    })
}

fn parse_definitions(mut args: impl Iterator<Item = String>) -> Result<Command, UsageError> {
    let mut format = ProviderFormat::Neutral;
    while let Some(arg) = args.next() {
        match split_inline(&arg) {
            (flag, None) if is_help(flag) => return Ok(Command::Help(DEFINITIONS_HELP)),
            ("--format", inline) => {
                let value =
                    flag_value("--format", inline, &mut args, "a format", DEFINITIONS_HELP)?;
                format = value.parse().map_err(|message| UsageError {
                    message: format!("{message}\n\n{}", usage_of(DEFINITIONS_HELP)),
                })?;
            }
            _ => return Err(unexpected(&arg, DEFINITIONS_HELP)),
        }
    }
    Ok(Command::Definitions { format })
}

/// An argument split at its `=` when it is a `--flag=VALUE`.
fn split_inline(arg: &str) -> (&str, Option<&str>) {
    match arg.split_once('=') {
        Some((flag, value)) if flag.starts_with("--") => (flag, Some(value)),
        _ => (arg, None),
    }
}

/// The value of `flag`, written inline (`--flag=VALUE`) or as the next
/// argument. Missing, empty, or a next argument that is itself an option
/// (write `--flag=-value` for that) is a usage error: `flag` needs `what`.
fn flag_value(
    flag: &str,
    inline: Option<&str>,
    args: &mut impl Iterator<Item = String>,
    what: &str,
    help: &str,
) -> Result<String, UsageError> {
    let value = match inline {
        Some(value) => Some(value.to_owned()),
        None => args.next().filter(|value| !value.starts_with('-')),
    };
    value
        .filter(|value| !value.is_empty())
        .ok_or_else(|| UsageError {
            message: format!("'{flag}' needs {what}\n\n{}", usage_of(help)),
        })
}

fn is_help(arg: &str) -> bool {
    arg == "-h" || arg == "--help"
}

fn unexpected(arg: &str, help: &str) -> UsageError {
    UsageError {
        message: format!("unexpected argument '{arg}'\n\n{}", usage_of(help)),
    }
}

/// The `Usage:` line of a help text, with a pointer to `--help`.
fn usage_of(help: &str) -> String {
    let usage = help
        .lines()
        .find(|line| line.starts_with("Usage:"))
        .unwrap_or("Usage: tool-examples [COMMAND]");
    format!("{usage}\n\nFor more information, try '--help'.")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_and_flags() {
        assert_eq!(parse(Vec::<String>::new()), Ok(Command::Walkthrough));
        assert_eq!(
            parse(["definitions"]),
            Ok(Command::Definitions {
                format: ProviderFormat::Neutral
            })
        );
        assert_eq!(
            parse(["definitions", "--format", "openai-strict"]),
            Ok(Command::Definitions {
                format: ProviderFormat::OpenAiStrict
            })
        );
        assert_eq!(
            parse(["definitions", "--format=gemini-legacy"]),
            Ok(Command::Definitions {
                format: ProviderFormat::GeminiLegacy
            })
        );
        assert_eq!(
            parse(["call", "--sequential", "--root", "/tmp"]),
            Ok(Command::Call {
                root: "/tmp".into(),
                sequential: true,
                repair: false,
            })
        );
        assert_eq!(
            parse(["call", "--root=dir"]),
            Ok(Command::Call {
                root: "dir".into(),
                sequential: false,
                repair: false,
            })
        );
        assert_eq!(
            parse(["call", "--repair"]),
            Ok(Command::Call {
                root: ".".into(),
                sequential: false,
                repair: true,
            })
        );
        assert_eq!(parse(["--help"]), Ok(Command::Help(MAIN_HELP)));
        assert_eq!(parse(["call", "-h"]), Ok(Command::Help(CALL_HELP)));
        assert_eq!(
            parse(["definitions", "--help"]),
            Ok(Command::Help(DEFINITIONS_HELP))
        );
    }

    #[test]
    fn mcp_takes_an_address_and_a_root() {
        assert_eq!(
            parse(["mcp"]),
            Ok(Command::Mcp {
                root: ".".into(),
                http: None
            })
        );
        assert_eq!(
            parse(["mcp", "--http", "127.0.0.1:0", "--root=/tmp"]),
            Ok(Command::Mcp {
                root: "/tmp".into(),
                http: Some("127.0.0.1:0".parse().unwrap())
            })
        );
        assert_eq!(parse(["mcp", "--help"]), Ok(Command::Help(MCP_HELP)));
        let error = parse(["mcp", "--http", "localhost"]).unwrap_err();
        assert!(
            error
                .message
                .starts_with("'--http' needs an address such as 127.0.0.1:8080, not 'localhost'")
        );
        assert!(parse(["mcp", "--http"]).is_err());
        assert!(parse(["mcp", "--stdio"]).is_err());
    }

    #[test]
    fn mistakes_say_what_and_show_the_usage() {
        let error = parse(["frobnicate"]).unwrap_err();
        assert!(
            error
                .message
                .starts_with("unknown command 'frobnicate'\n\nUsage: tool-examples [COMMAND]")
        );
        let error = parse(["call", "--fast"]).unwrap_err();
        assert!(
            error
                .message
                .starts_with("unexpected argument '--fast'\n\nUsage: tool-examples call")
        );
        let error = parse(["call", "--root"]).unwrap_err();
        assert!(error.message.starts_with("'--root' needs a directory"));
        assert!(parse(["definitions", "x"]).is_err());
        let error = parse(["definitions", "--format", "cohere"]).unwrap_err();
        assert!(
            error
                .message
                .starts_with("unknown format 'cohere'; expected one of: neutral, openai,")
        );
        assert!(parse(["definitions", "--format"]).is_err());
    }
}
