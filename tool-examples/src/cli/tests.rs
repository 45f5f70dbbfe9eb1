use super::*;
use crate::upstream::UpstreamSpec;
use clap::CommandFactory;
use clap::error::ErrorKind;
use tool_core::providers::gemini::Dialect;
use tool_core::providers::{ProviderFormat, Strict};

/// The deployment variables change what a bare command line means; these
/// tests read the command line alone.
fn assert_no_deployment_variables() {
    for name in [
        ROOT_VARIABLE,
        HTTP_VARIABLE,
        TOKEN_FILE_VARIABLE,
        STATELESS_VARIABLE,
        OAUTH_ISSUER_VARIABLE,
        AUDIENCE_VARIABLE,
        JWKS_FILE_VARIABLE,
        "TOOL_EXAMPLES_MAX_IN_FLIGHT",
        "TOOL_EXAMPLES_MAX_SESSIONS",
    ] {
        assert!(
            std::env::var_os(name).is_none(),
            "unset {name} to run the command-line tests"
        );
    }
}

/// `tool-examples ARGS`, read.
fn parse(args: &[&str]) -> Result<Cli, clap::Error> {
    Cli::try_from_args(std::iter::once("tool-examples").chain(args.iter().copied()))
}

/// The command of `tool-examples ARGS`, which must parse.
fn command(args: &[&str]) -> Option<Command> {
    parse(args)
        .unwrap_or_else(|error| panic!("{args:?}: {error}"))
        .command
}

/// The error of `tool-examples ARGS`, which must not parse.
fn error(args: &[&str]) -> clap::Error {
    parse(args).expect_err("a usage error")
}

fn call(root: &str, sequential: bool, repair: bool) -> Option<Command> {
    Some(Command::Call(CallArgs {
        root: Root { dir: root.into() },
        sequential,
        repair,
        approvals: ApprovalArgs::default(),
        state: SharedState::default(),
        upstreams: Upstreams::default(),
        deferral: Deferral::default(),
    }))
}

fn definitions(format: ProviderFormat) -> Option<Command> {
    Some(Command::Definitions(DefinitionsArgs {
        format: Format(format),
        deferral: Deferral::default(),
    }))
}

/// `mcp` with only a root and maybe an address.
fn mcp(root: &str, http: Option<&str>) -> Option<Command> {
    Some(Command::Mcp(mcp_args(root, http)))
}

/// The flags of `mcp` with only a root and maybe an address.
fn mcp_args(root: &str, http: Option<&str>) -> McpArgs {
    McpArgs {
        root: Root { dir: root.into() },
        http: http.map(|address| address.parse().unwrap()),
        token_file: None,
        allowed_hosts: Vec::new(),
        allowed_origins: Vec::new(),
        upstreams: Upstreams::default(),
        deferral: Deferral::default(),
        allow_unauthenticated: false,
        stateless: false,
        defer_without_sessions: false,
        code_mode: false,
        code_time_limit: None,
        approval_key_file: None,
        state: SharedState::default(),
        repair: false,
        limits: Box::default(),
        oauth: Box::default(),
        shutdown_grace: None,
        drain_delay: None,
    }
}

#[test]
fn the_definition_is_consistent() {
    Cli::command().debug_assert();
}

#[test]
fn commands_and_flags() {
    assert_no_deployment_variables();
    assert_eq!(command(&[]), None, "no command: the walkthrough");
    assert_eq!(
        command(&["definitions"]),
        definitions(ProviderFormat::Neutral)
    );
    assert_eq!(
        command(&["definitions", "--format", "openai-strict"]),
        definitions(ProviderFormat::OpenAiChat(Strict::On))
    );
    assert_eq!(
        command(&["definitions", "--format=gemini-legacy"]),
        definitions(ProviderFormat::Gemini(Dialect::OpenApi))
    );
    assert_eq!(
        command(&["call", "--sequential", "--root", "/tmp"]),
        call("/tmp", true, false)
    );
    assert_eq!(command(&["call", "--root=dir"]), call("dir", false, false));
    assert_eq!(command(&["call", "--repair"]), call(".", false, true));
    assert_eq!(
        command(&["completions", "bash"]),
        Some(Command::Completions(CompletionsArgs {
            shell: clap_complete::Shell::Bash
        }))
    );
}

#[test]
fn every_provider_format_is_a_format_value() {
    for format in ProviderFormat::ALL {
        assert_eq!(
            command(&["definitions", "--format", format.name()]),
            definitions(format)
        );
    }
    assert_eq!(
        error(&["definitions", "--format", "cohere"]).kind(),
        ErrorKind::InvalidValue
    );
}

#[test]
fn the_log_format_goes_anywhere_on_the_line() {
    assert_eq!(parse(&[]).unwrap().log_format, LogFormat::Text);
    for args in [
        &["--log-format", "json", "call"][..],
        &["call", "--log-format=json"][..],
        &["--log-format=json"][..],
    ] {
        assert_eq!(parse(args).unwrap().log_format, LogFormat::Json, "{args:?}");
    }
    assert_eq!(
        error(&["--log-format", "yaml"]).kind(),
        ErrorKind::InvalidValue
    );
}

#[test]
fn help_and_version_are_clap_exits() {
    for (args, kind) in [
        (&["--help"][..], ErrorKind::DisplayHelp),
        (&["-h"][..], ErrorKind::DisplayHelp),
        (&["call", "-h"][..], ErrorKind::DisplayHelp),
        (&["mcp", "--help"][..], ErrorKind::DisplayHelp),
        (&["--version"][..], ErrorKind::DisplayVersion),
    ] {
        let error = error(args);
        assert_eq!(error.kind(), kind, "{args:?}");
        assert_eq!(error.exit_code(), 0, "{args:?}");
    }
    assert_eq!(
        error(&["--version"]).to_string(),
        format!("tool-examples {}\n", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn mcp_takes_an_address_and_a_root() {
    assert_no_deployment_variables();
    assert_eq!(command(&["mcp"]), mcp(".", None));
    assert_eq!(
        command(&["mcp", "--http", "127.0.0.1:0", "--root=/tmp"]),
        mcp("/tmp", Some("127.0.0.1:0"))
    );
    let bad = error(&["mcp", "--http", "localhost"]);
    assert_eq!(bad.kind(), ErrorKind::ValueValidation);
    assert_eq!(bad.exit_code(), 2);
    assert!(
        bad.to_string()
            .starts_with("error: invalid value 'localhost' for '--http <ADDR>'"),
        "{bad}"
    );
    assert!(parse(&["mcp", "--http"]).is_err());
    assert!(parse(&["mcp", "--stdio"]).is_err());
}

#[test]
fn mcp_over_http_takes_a_token_file_hosts_and_an_explicit_no_token() {
    assert_no_deployment_variables();
    assert_eq!(
        command(&[
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
        Some(Command::Mcp(McpArgs {
            token_file: Some("/run/token".into()),
            allowed_hosts: vec!["mcp.example.com".into(), "10.0.0.5:8080".into()],
            upstreams: Upstreams {
                servers: vec![UpstreamSpec::parse("docs=http://10.0.0.9:8080/mcp").unwrap()],
                ..Upstreams::default()
            },
            allow_unauthenticated: true,
            ..mcp_args(".", Some("0.0.0.0:8080"))
        }))
    );
    let upstream = error(&["call", "--upstream", " "]).to_string();
    assert!(
        upstream.contains("'' names no server: give a URL or a command"),
        "{upstream}"
    );
    for args in [
        &["mcp", "--http", "127.0.0.1:0", "--token-file"][..],
        &["mcp", "--http", "127.0.0.1:0", "--allowed-host"][..],
        &["mcp", "--http", "127.0.0.1:0", "--allowed-host="][..],
    ] {
        assert!(parse(args).is_err(), "{args:?}");
    }
    // Only with --http.
    for flag in [
        "--allow-unauthenticated",
        "--allowed-host=x",
        "--token-file=t",
    ] {
        let error = error(&["mcp", flag]);
        assert_eq!(error.kind(), ErrorKind::MissingRequiredArgument, "{flag}");
        assert!(error.to_string().contains("--http <ADDR>"), "{error}");
    }
}

#[test]
fn the_oauth_issuer_and_audience_come_together() {
    assert_no_deployment_variables();
    let all = [
        "mcp",
        "--http",
        "0.0.0.0:8080",
        "--oauth-issuer",
        "https://auth.example.com",
        "--audience",
        "https://mcp.example.com/mcp",
        "--jwks-file",
        "/etc/mcp/jwks.json",
        "--tool-scope",
        "write=files:admin",
    ];
    let Some(Command::Mcp(args)) = command(&all) else {
        panic!("not mcp");
    };
    let config = args.oauth.config().expect("OAuth configured");
    assert_eq!(config.issuer(), "https://auth.example.com");
    assert_eq!(config.audience(), "https://mcp.example.com/mcp");
    assert_eq!(
        config.scopes_supported(),
        ["tools:read", "tools:write", "files:admin"]
    );
    assert_eq!(command(&all[..3]), mcp(".", Some("0.0.0.0:8080")));
    // The issuer without the audience, or the reverse (the key file is
    // optional: the keys are fetched from the issuer without it): a usage
    // error naming the other.
    for (args, missing) in [
        (&all[..5], &["--audience <URI>"][..]),
        (
            &[&all[..3], &all[5..7]].concat()[..],
            &["--oauth-issuer <URL>"][..],
        ),
        (
            &[&all[..5], &all[7..9]].concat()[..],
            &["--audience <URI>"][..],
        ),
    ] {
        let error = error(args);
        assert_eq!(error.kind(), ErrorKind::MissingRequiredArgument, "{args:?}");
        let message = error.to_string();
        for flag in missing {
            assert!(message.contains(flag), "{args:?}: {message}");
        }
    }
    let scope_alone = error(&["mcp", "--http", "0.0.0.0:8080", "--read-scope", "r"]);
    assert_eq!(scope_alone.kind(), ErrorKind::MissingRequiredArgument);
    let malformed = error(&[&all[..9], &["--tool-scope", "write"]].concat()).to_string();
    assert!(
        malformed.contains("'write' is not TOOL=SCOPE"),
        "{malformed}"
    );
    let claims = [
        &all[..9],
        &[
            "--token-type",
            "JWT",
            "--token-type=at+jwt",
            "--require-claim",
            "azp=agent-7",
            "--require-claim=groups=mcp-users",
        ],
    ]
    .concat();
    let Some(Command::Mcp(args)) = command(&claims) else {
        panic!("not mcp");
    };
    assert_eq!(args.oauth.token_types, ["JWT", "at+jwt"]);
    assert_eq!(
        args.oauth.required_claims,
        [
            ("azp".to_owned(), "agent-7".to_owned()),
            ("groups".to_owned(), "mcp-users".to_owned())
        ]
    );
    assert!(args.oauth.config().is_some());
    let malformed = error(&[&all[..9], &["--require-claim", "azp"]].concat()).to_string();
    assert!(
        malformed.contains("'azp' is not NAME=VALUE, such as azp=agent-7"),
        "{malformed}"
    );
}

#[test]
fn a_token_is_never_taken_from_the_command_line() {
    for args in [
        &["mcp", "--http", "0.0.0.0:1", "--token", "secret"][..],
        &["mcp", "--http", "0.0.0.0:1", "--token=secret"][..],
        &["mcp", "--bearer-token=secret"][..],
        &["mcp", "--auth-token"][..],
    ] {
        let error = error(args);
        let message = error.to_string();
        assert_eq!(error.exit_code(), 2, "{message}");
        assert!(message.contains("is not accepted"), "{message}");
        assert!(message.contains("--token-file"), "{message}");
        assert!(!message.contains("secret"), "{message}");
    }
    assert!(
        error(&["mcp", "--bearer-token=secret"])
            .to_string()
            .starts_with("error: '--bearer-token' is not accepted")
    );
    // Not in the command clap's help and completions are made from.
    let help = Cli::command()
        .find_subcommand_mut("mcp")
        .unwrap()
        .render_long_help()
        .to_string();
    assert!(!help.contains("--token "), "{help}");
    assert!(!help.contains("--bearer-token"), "{help}");
}

#[test]
fn mistakes_are_clap_usage_errors() {
    for (args, kind) in [
        (&["frobnicate"][..], ErrorKind::InvalidSubcommand),
        (&["call", "--fast"][..], ErrorKind::UnknownArgument),
        (&["call", "--root"][..], ErrorKind::InvalidValue),
        (&["definitions", "x"][..], ErrorKind::UnknownArgument),
        (&["definitions", "--format"][..], ErrorKind::InvalidValue),
        (&["completions"][..], ErrorKind::MissingRequiredArgument),
        (&["completions", "tcsh"][..], ErrorKind::InvalidValue),
    ] {
        let error = error(args);
        assert_eq!(error.kind(), kind, "{args:?}: {error}");
        assert_eq!(error.exit_code(), 2, "{args:?}");
    }
}

#[test]
fn the_help_names_the_default_log_filter() {
    assert!(help::LOGGING.contains(crate::logging::DEFAULT_FILTER));
}

#[test]
fn mcp_over_http_takes_every_limit_stateless_origins_and_repair() {
    assert_no_deployment_variables();
    let expected = McpArgs {
        allowed_origins: vec!["https://app.example.com".into()],
        stateless: true,
        repair: true,
        limits: Box::new(HttpLimits {
            max_sessions: Some(8.try_into().unwrap()),
            max_in_flight: Some(64.try_into().unwrap()),
            max_in_flight_per_session: Some(4.try_into().unwrap()),
            max_pending_connections: Some(16.try_into().unwrap()),
            max_body_bytes: Some(1024.try_into().unwrap()),
            session_idle_timeout: Some(std::time::Duration::from_secs(60)),
            read_timeout: Some(std::time::Duration::from_millis(2500)),
            credential_stale_limit: Some(std::time::Duration::from_secs(90)),
            sse_polling: Some(std::time::Duration::from_secs(30)),
            rate_per_caller: Some(20.try_into().unwrap()),
            burst_per_caller: Some(40.try_into().unwrap()),
            max_sessions_per_caller: Some(3.try_into().unwrap()),
            max_in_flight_per_caller: Some(6.try_into().unwrap()),
            trusted_proxies: vec!["10.0.0.0/8".into(), "192.0.2.7".into()],
        }),
        shutdown_grace: Some(std::time::Duration::ZERO),
        drain_delay: Some(std::time::Duration::from_millis(1500)),
        ..mcp_args(".", Some("127.0.0.1:0"))
    };
    assert_eq!(
        command(&[
            "mcp",
            "--http=127.0.0.1:0",
            "--allowed-origin",
            "https://app.example.com",
            "--stateless",
            "--repair",
            "--max-sessions=8",
            "--max-in-flight",
            "64",
            "--max-in-flight-per-session=4",
            "--max-pending-connections=16",
            "--max-body-bytes=1024",
            "--session-idle-timeout=60",
            "--read-timeout=2.5",
            "--credential-stale-limit=90",
            "--sse-polling=30",
            "--rate-per-caller=20",
            "--burst-per-caller=40",
            "--max-sessions-per-caller=3",
            "--max-in-flight-per-caller=6",
            "--trusted-proxy=10.0.0.0/8",
            "--trusted-proxy=192.0.2.7",
            "--shutdown-grace=0",
            "--drain-delay=1.5",
        ]),
        Some(Command::Mcp(expected))
    );
    // Repair, the grace and the approval key need no HTTP: stdio serves
    // with them too.
    assert_eq!(
        command(&[
            "mcp",
            "--repair",
            "--shutdown-grace",
            "5",
            "--approval-key-file",
            "/run/approval-key"
        ]),
        Some(Command::Mcp(McpArgs {
            repair: true,
            shutdown_grace: Some(std::time::Duration::from_secs(5)),
            approval_key_file: Some("/run/approval-key".into()),
            ..mcp_args(".", None)
        }))
    );
    for (args, says) in [
        (&["mcp", "--stateless"][..], "--http <ADDR>"),
        (&["mcp", "--max-in-flight=3"][..], "--http <ADDR>"),
        (
            &["mcp", "--http=127.0.0.1:0", "--max-in-flight=0"][..],
            "zero",
        ),
        (
            &["mcp", "--http=127.0.0.1:0", "--max-sessions=-1"][..],
            "invalid digit",
        ),
        (
            &["mcp", "--http=127.0.0.1:0", "--shutdown-grace=soon"][..],
            "'soon' is not a number of seconds, such as 30 or 0.5",
        ),
        (
            &["mcp", "--http=127.0.0.1:0", "--read-timeout=-1"][..],
            "'-1' is not a number of seconds from 0 up",
        ),
    ] {
        let message = error(args).to_string();
        assert!(message.contains(says), "{args:?}: {message}");
    }
}

#[test]
fn upstreams_take_an_environment_and_token_files_in_call_and_mcp() {
    assert_no_deployment_variables();
    let upstreams = Upstreams {
        servers: vec![UpstreamSpec::parse("docs=http://10.0.0.9:8080/mcp").unwrap()],
        env: vec![
            crate::upstream::UpstreamEnv::parse("DEBUG=1").unwrap(),
            crate::upstream::UpstreamEnv::parse("GITHUB_TOKEN").unwrap(),
        ],
        token_files: vec![crate::upstream::TokenFile::parse("docs=/run/docs-token").unwrap()],
        trusted: vec!["docs".into()],
    };
    let flags = [
        "--upstream",
        "docs=http://10.0.0.9:8080/mcp",
        "--upstream-env",
        "DEBUG=1",
        "--upstream-env=GITHUB_TOKEN",
        "--upstream-token-file",
        "docs=/run/docs-token",
        "--upstream-trust",
        "docs",
    ];
    let Some(Command::Call(call)) = command(&[&["call"][..], &flags[..]].concat()) else {
        panic!("call parses");
    };
    assert_eq!(call.upstreams, upstreams);
    let Some(Command::Mcp(mcp)) = command(&[&["mcp"][..], &flags[..]].concat()) else {
        panic!("mcp parses");
    };
    assert_eq!(mcp.upstreams, upstreams);
    assert_eq!(mcp.upstreams.settings().token_files, upstreams.token_files);
    assert_eq!(mcp.upstreams.settings().trusted, ["docs"]);
    for args in [
        &["call", "--upstream-env", "1BAD=x"][..],
        &["call", "--upstream-token-file", "docs"][..],
    ] {
        assert!(parse(args).is_err(), "{args:?}");
    }
}

#[test]
fn defer_all_except_takes_names_repeated_or_comma_separated_in_every_command() {
    assert_no_deployment_variables();
    let core = Deferral {
        core: vec!["echo".into(), "upper".into(), "read".into()],
    };
    let flags = [
        "--defer-all-except",
        "echo,upper",
        "--defer-all-except=read",
    ];
    let Some(Command::Call(call)) = command(&[&["call"][..], &flags[..]].concat()) else {
        panic!("call parses");
    };
    assert_eq!(call.deferral, core);
    let Some(Command::Mcp(mcp)) = command(&[&["mcp"][..], &flags[..]].concat()) else {
        panic!("mcp parses");
    };
    assert_eq!(mcp.deferral, core);
    let Some(Command::Definitions(definitions)) =
        command(&[&["definitions"][..], &flags[..]].concat())
    else {
        panic!("definitions parses");
    };
    assert_eq!(definitions.deferral, core);
    assert!(!mcp.defer_without_sessions);
    // Deferral kept without sessions: only with something deferred.
    let Some(Command::Mcp(mcp)) = command(&[
        "mcp",
        "--defer-all-except",
        "echo",
        "--defer-without-sessions",
    ]) else {
        panic!("mcp parses");
    };
    assert!(mcp.defer_without_sessions);
    let refused = error(&["mcp", "--defer-without-sessions"]);
    assert_eq!(
        refused.kind(),
        ErrorKind::MissingRequiredArgument,
        "{refused}"
    );
    assert!(
        refused.to_string().contains("--defer-all-except"),
        "{refused}"
    );
    // Without the flag, nothing is deferred.
    let Some(Command::Call(call)) = command(&["call"]) else {
        panic!("call parses");
    };
    assert!(call.deferral.core.is_empty());
    // An empty name, alone or between commas, and no value at all.
    for args in [
        &["call", "--defer-all-except", ""][..],
        &["mcp", "--defer-all-except", "echo,,upper"][..],
        &["definitions", "--defer-all-except"][..],
    ] {
        let refused = error(args);
        assert!(
            matches!(
                refused.kind(),
                ErrorKind::InvalidValue | ErrorKind::ValueValidation
            ),
            "{args:?}: {refused}"
        );
        assert!(
            refused.to_string().contains("--defer-all-except"),
            "{args:?}: {refused}"
        );
    }
}

#[test]
fn shared_state_flags_parse_on_call_and_mcp() {
    let state = SharedState {
        url: Some("redis://127.0.0.1:6379/0".into()),
        password_file: Some("/run/redis-password".into()),
        prefix: Some("staging".into()),
        approval_ledger: None,
    };
    assert_eq!(
        command(&[
            "mcp",
            "--approval-key-file=/run/key",
            "--state-url=redis://127.0.0.1:6379/0",
            "--state-password-file=/run/redis-password",
            "--state-prefix=staging",
        ]),
        Some(Command::Mcp(McpArgs {
            approval_key_file: Some("/run/key".into()),
            state: state.clone(),
            ..mcp_args(".", None)
        }))
    );
    let Some(Command::Call(call)) = command(&["call", "--approval-ledger", "none"]) else {
        panic!("call");
    };
    assert_eq!(call.state.approval_ledger, Some(LedgerChoice::None));
    for (args, says) in [
        (
            &["call", "--approval-ledger=none", "--state-url=redis://h/0"][..],
            "cannot be used with",
        ),
        (&["call", "--approval-ledger=file.txt"][..], "invalid value"),
        (&["call", "--state-prefix=p"][..], "--state-url <URL>"),
        (&["mcp", "--state-password-file=p"][..], "--state-url <URL>"),
        (
            &["call", "--approve-all", "--state-url=redis://h/0"][..],
            "cannot be used with",
        ),
    ] {
        let refused = error(args).to_string();
        assert!(refused.contains(says), "{args:?}: {refused}");
    }
}

#[test]
fn code_mode_takes_a_time_limit_above_zero_only_with_code_mode() {
    let mut expected = mcp_args("/tmp", None);
    expected.code_mode = true;
    expected.code_time_limit = Some(std::time::Duration::from_millis(2500));
    assert_eq!(
        command(&[
            "mcp",
            "--root",
            "/tmp",
            "--code-mode",
            "--code-time-limit",
            "2.5"
        ]),
        Some(Command::Mcp(expected))
    );
    let zero = error(&[
        "mcp",
        "--root",
        "/tmp",
        "--code-mode",
        "--code-time-limit",
        "0",
    ]);
    assert_eq!(zero.kind(), ErrorKind::ValueValidation);
    assert!(
        zero.to_string()
            .contains("would stop every program at once"),
        "{zero}"
    );
    let alone = error(&["mcp", "--root", "/tmp", "--code-time-limit", "5"]);
    assert_eq!(alone.kind(), ErrorKind::MissingRequiredArgument);
}
