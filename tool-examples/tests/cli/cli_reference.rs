//! The CLI reference in `tool-examples/README.md` is clap's help,
//! verbatim: the block between the `cli-reference` markers is made from the
//! same derive the binary parses with, so a flag added or reworded shows up
//! here as a failure until the README says it too.
//!
//! `UPDATE_README=1 cargo test -p tool-examples --test cli cli_reference`
//! rewrites the block.

use clap::error::ErrorKind;
use std::path::Path;
use tool_examples::cli::Cli;

const START: &str = "<!-- cli-reference:start -->";
const END: &str = "<!-- cli-reference:end -->";
const REGENERATE: &str = "UPDATE_README=1 cargo test -p tool-examples --test cli cli_reference";

/// The commands whose `--help` the reference shows, in its order.
const COMMANDS: [&[&str]; 5] = [&[], &["call"], &["definitions"], &["mcp"], &["completions"]];

fn readme_path() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("README.md")
}

/// `tool-examples COMMAND --help` as the binary prints it (the test of
/// `help_prints_clap_help_and_exits_0` in `cli.rs` holds the binary to
/// this rendering), without the spaces clap leaves at the end of the blank
/// lines inside an option's help: Markdown editors strip them.
fn help(command: &[&str]) -> String {
    let args = std::iter::once("tool-examples")
        .chain(command.iter().copied())
        .chain(std::iter::once("--help"));
    let error = Cli::try_from_args(args).expect_err("--help is an early exit");
    assert_eq!(error.kind(), ErrorKind::DisplayHelp, "{command:?}");
    error
        .render()
        .to_string()
        .lines()
        .map(|line| format!("{}\n", line.trim_end()))
        .collect()
}

/// `tool-examples COMMAND --help`, as typed.
fn command_line(command: &[&str]) -> String {
    let words: Vec<&str> = std::iter::once("tool-examples")
        .chain(command.iter().copied())
        .chain(std::iter::once("--help"))
        .collect();
    words.join(" ")
}

/// The block tool-examples/README.md must hold, markers included.
fn reference() -> String {
    let mut block = format!("{START}\n<!-- Generated from clap's help by {REGENERATE} -->\n");
    for command in COMMANDS {
        block.push_str(&format!(
            "\n```text\n$ {}\n{}```\n",
            command_line(command),
            help(command)
        ));
    }
    block.push('\n');
    block.push_str(END);
    block
}

#[test]
fn the_readme_holds_every_commands_help() {
    let path = readme_path();
    let readme = std::fs::read_to_string(&path).unwrap();
    let (before, rest) = readme
        .split_once(START)
        .unwrap_or_else(|| panic!("tool-examples/README.md has no {START} marker"));
    let (_, after) = rest
        .split_once(END)
        .unwrap_or_else(|| panic!("tool-examples/README.md has no {END} marker after {START}"));
    let expected = reference();
    if readme.contains(&expected) {
        return;
    }
    if std::env::var_os("UPDATE_README").is_some() {
        std::fs::write(&path, format!("{before}{expected}{after}")).unwrap();
        return;
    }
    for command in COMMANDS {
        assert!(
            readme.contains(&help(command)),
            "tool-examples/README.md's CLI reference does not hold `{}` as clap prints it; regenerate the \
             block with: {REGENERATE}",
            command_line(command)
        );
    }
    panic!(
        "tool-examples/README.md's CLI reference is out of date; regenerate it with: {REGENERATE}"
    );
}
