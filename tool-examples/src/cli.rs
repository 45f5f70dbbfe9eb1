//! The binary's command line: a handful of commands and flags, parsed by hand
//! (an argument parser crate would cost more to build than this file).

use crate::upstream::UpstreamSpec;
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
        /// Other MCP servers whose tools are callable too, each under its prefix.
        upstreams: Vec<UpstreamSpec>,
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
        /// HTTP only: the file the bearer token is read from (else the
        /// `TOOL_EXAMPLES_TOKEN` environment variable). Never the token
        /// itself: a command line is visible to every user of the machine.
        token_file: Option<PathBuf>,
        /// HTTP only: host names clients will use (besides those in
        /// `TOOL_EXAMPLES_ALLOWED_HOSTS`).
        allowed_hosts: Vec<String>,
        /// Other MCP servers whose tools are served too, each under its prefix.
        upstreams: Vec<UpstreamSpec>,
        /// HTTP only: serve a non-loopback address without a token.
        allow_unauthenticated: bool,
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
tool-examples: typed tool calling, shown on real tools (echo, upper, read, list, wait)

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

Usage: tool-examples call [--root DIR] [--sequential] [--repair] [--upstream SERVER]...

Options:
  --root DIR      the directory `read` and `list` may look in (default: the current directory)
  --sequential    run one call at a time, in input order
  --repair        repair near-miss arguments (\"2\" for 2, JSON text for an object,
                  one value for a list, \"Fast\" for \"fast\", empty for {}); each repair
                  is listed in the result's \"repairs\" and told to the model
  --upstream SERVER
                  also call another MCP server's tools, as PREFIX__name (repeatable):
                  [NAME=]URL (streamable HTTP) or [NAME=]\"PROGRAM ARGS\" (stdio); the
                  prefix is NAME, else the URL's host and port or the program's name
  -h, --help      print help

Environment:
  TOOL_EXAMPLES_UPSTREAM_TOKEN  the bearer token sent to HTTP upstreams
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
Serve the example tools (echo, upper, read, list, wait) over the Model Context Protocol.
Over stdio by default: stdin and stdout carry JSON-RPC, as an MCP client that
starts this program expects. With --http, over streamable HTTP at
http://ADDR/mcp (port 0 picks a free port). Logs go to stderr only.

Usage: tool-examples mcp [--root DIR] [--upstream SERVER]... [--http ADDR [--token-file PATH] [--allowed-host HOST]... [--allow-unauthenticated]]

Options:
  --root DIR               the directory `read` and `list` may look in (default: the current directory)
  --upstream SERVER        also serve another MCP server's tools, as PREFIX__name
                           (repeatable): [NAME=]URL (streamable HTTP) or
                           [NAME=]\"PROGRAM ARGS\" (stdio); the prefix is NAME, else the
                           URL's host and port or the program's name
  --http ADDR              serve streamable HTTP on ADDR, such as 127.0.0.1:8080
  --token-file PATH        require `Authorization: Bearer <token>`, the token read from PATH
                           (surrounding whitespace ignored); the token itself is never
                           accepted on the command line, where other users can see it
  --allowed-host HOST      a host name clients will put in the URL, HOST or HOST:PORT
                           (repeatable); loopback names and the address bound are always
                           accepted, and on 0.0.0.0 or [::] with none named, any IP
                           address of this machine
  --allow-unauthenticated  serve a non-loopback address without a token (else refused)
  -h, --help               print help

Environment:
  TOOL_EXAMPLES_TOKEN          the bearer token, when --token-file is not given
  TOOL_EXAMPLES_ALLOWED_HOSTS  more allowed hosts, comma-separated
  TOOL_EXAMPLES_UPSTREAM_TOKEN the bearer token sent to HTTP upstreams

Over HTTP, a request body may have 4 MiB (else 413) and must arrive within 30 s
(else 408), as must its headers; at most 256 sessions are open at once (else 503),
a session ends after 10 idle minutes (then 404), and a session may have 32
requests in flight (else 429).
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
    let mut upstreams = Vec::new();
    while let Some(arg) = args.next() {
        match split_inline(&arg) {
            (flag, None) if is_help(flag) => return Ok(Command::Help(CALL_HELP)),
            ("--sequential", None) => sequential = true,
            ("--repair", None) => repair = true,
            ("--upstream", inline) => upstreams.push(upstream(inline, &mut args, CALL_HELP)?),
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
        upstreams,
    })
}

fn parse_mcp(mut args: impl Iterator<Item = String>) -> Result<Command, UsageError> {
    let mut root = None;
    let mut http = None;
    let mut token_file = None;
    let mut allowed_hosts = Vec::new();
    let mut allow_unauthenticated = false;
    let mut upstreams = Vec::new();
    // The HTTP-only flag seen first, for the error when --http is missing.
    let mut http_only = None;
    while let Some(arg) = args.next() {
        match split_inline(&arg) {
            (flag, None) if is_help(flag) => return Ok(Command::Help(MCP_HELP)),
            ("--upstream", inline) => upstreams.push(upstream(inline, &mut args, MCP_HELP)?),
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
            ("--token-file", inline) => {
                let path = flag_value("--token-file", inline, &mut args, "a file", MCP_HELP)?;
                token_file = Some(PathBuf::from(path));
                http_only.get_or_insert("--token-file");
            }
            ("--allowed-host", inline) => {
                let host = flag_value("--allowed-host", inline, &mut args, "a host", MCP_HELP)?;
                allowed_hosts.push(host);
                http_only.get_or_insert("--allowed-host");
            }
            ("--allow-unauthenticated", None) => {
                allow_unauthenticated = true;
                http_only.get_or_insert("--allow-unauthenticated");
            }
            ("--token" | "--bearer-token" | "--auth-token", _) => {
                return Err(UsageError {
                    message: format!(
                        "'{}' is not accepted: a token on the command line can be read by \
                         every user of the machine; put it in a file for --token-file PATH, \
                         or in the TOOL_EXAMPLES_TOKEN environment variable\n\n{}",
                        split_inline(&arg).0,
                        usage_of(MCP_HELP)
                    ),
                });
            }
            _ => return Err(unexpected(&arg, MCP_HELP)),
        }
    }
    if let (None, Some(flag)) = (http, http_only) {
        return Err(UsageError {
            message: format!("'{flag}' applies to --http only\n\n{}", usage_of(MCP_HELP)),
        });
    }
    Ok(Command::Mcp {
        root: root.unwrap_or_else(|| PathBuf::from(".")),
        http,
        token_file,
        allowed_hosts,
        upstreams,
        allow_unauthenticated,
    })
}

/// An `--upstream` value, read; a malformed one is a usage error.
fn upstream(
    inline: Option<&str>,
    args: &mut impl Iterator<Item = String>,
    help: &str,
) -> Result<UpstreamSpec, UsageError> {
    let value = flag_value("--upstream", inline, args, "a URL or a command", help)?;
    UpstreamSpec::parse(&value).map_err(|problem| UsageError {
        message: format!("'--upstream' {problem}\n\n{}", usage_of(help)),
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
                upstreams: Vec::new(),
            })
        );
        assert_eq!(
            parse(["call", "--root=dir"]),
            Ok(Command::Call {
                root: "dir".into(),
                sequential: false,
                repair: false,
                upstreams: Vec::new(),
            })
        );
        assert_eq!(
            parse(["call", "--repair"]),
            Ok(Command::Call {
                root: ".".into(),
                sequential: false,
                repair: true,
                upstreams: Vec::new(),
            })
        );
        assert_eq!(parse(["--help"]), Ok(Command::Help(MAIN_HELP)));
        assert_eq!(parse(["call", "-h"]), Ok(Command::Help(CALL_HELP)));
        assert_eq!(
            parse(["definitions", "--help"]),
            Ok(Command::Help(DEFINITIONS_HELP))
        );
    }

    /// `mcp` with only a root and maybe an address.
    fn mcp(root: &str, http: Option<&str>) -> Command {
        Command::Mcp {
            root: root.into(),
            http: http.map(|address| address.parse().unwrap()),
            token_file: None,
            allowed_hosts: Vec::new(),
            upstreams: Vec::new(),
            allow_unauthenticated: false,
        }
    }

    #[test]
    fn mcp_takes_an_address_and_a_root() {
        assert_eq!(parse(["mcp"]), Ok(mcp(".", None)));
        assert_eq!(
            parse(["mcp", "--http", "127.0.0.1:0", "--root=/tmp"]),
            Ok(mcp("/tmp", Some("127.0.0.1:0")))
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
    fn mcp_over_http_takes_a_token_file_hosts_and_an_explicit_no_token() {
        assert_eq!(
            parse([
                "mcp",
                "--http=0.0.0.0:8080",
                "--token-file",
                "/run/token",
                "--allowed-host",
                "mcp.example.com",
                "--allowed-host=10.0.0.5:8080",
                "--allow-unauthenticated",
                "--upstream",
                "docs=http://10.0.0.9:8080/mcp",
            ]),
            Ok(Command::Mcp {
                root: ".".into(),
                http: Some("0.0.0.0:8080".parse().unwrap()),
                token_file: Some("/run/token".into()),
                allowed_hosts: vec!["mcp.example.com".into(), "10.0.0.5:8080".into()],
                upstreams: vec![UpstreamSpec::parse("docs=http://10.0.0.9:8080/mcp").unwrap()],
                allow_unauthenticated: true,
            })
        );
        assert!(
            parse(["call", "--upstream", " "])
                .unwrap_err()
                .message
                .starts_with("'--upstream' '' names no server: give a URL or a command")
        );
        assert!(
            parse(["mcp", "--http", "127.0.0.1:0", "--token-file"])
                .unwrap_err()
                .message
                .starts_with("'--token-file' needs a file")
        );
        assert!(
            parse(["mcp", "--http", "127.0.0.1:0", "--allowed-host"])
                .unwrap_err()
                .message
                .starts_with("'--allowed-host' needs a host")
        );
        // Only with --http.
        for flag in [
            "--allow-unauthenticated",
            "--allowed-host=x",
            "--token-file=t",
        ] {
            let error = parse(["mcp", flag]).unwrap_err();
            let name = flag.split('=').next().unwrap();
            assert!(
                error
                    .message
                    .starts_with(&format!("'{name}' applies to --http only")),
                "{}",
                error.message
            );
        }
    }

    #[test]
    fn a_token_is_never_taken_from_the_command_line() {
        for args in [
            &["mcp", "--http", "0.0.0.0:1", "--token", "secret"][..],
            &["mcp", "--http", "0.0.0.0:1", "--token=secret"][..],
            &["mcp", "--bearer-token=secret"][..],
        ] {
            let error = parse(args.iter().copied()).unwrap_err();
            assert!(
                error.message.contains("is not accepted"),
                "{}",
                error.message
            );
            assert!(error.message.contains("--token-file"), "{}", error.message);
            assert!(!error.message.contains("secret"), "{}", error.message);
        }
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
