//! `tool-examples`: the seed's walkthrough (no arguments), a JSON-lines tool
//! runner (`call`), and the tool definitions (`definitions`).

use std::process::ExitCode;
use std::sync::Arc;
use tool_core::ExecutionMode;
use tool_examples::cli::{self, Command};
use tool_examples::{call, example_registry, walkthrough};

fn main() -> ExitCode {
    let command = match cli::parse(std::env::args().skip(1)) {
        Ok(command) => command,
        Err(usage) => {
            eprintln!("error: {}", usage.message);
            return ExitCode::from(2);
        }
    };
    match run(command) {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn run(command: Command) -> std::io::Result<()> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    match command {
        Command::Help(text) => {
            print!("{text}");
            Ok(())
        }
        Command::Walkthrough => {
            let tools = example_registry(&std::env::current_dir()?)?;
            let mut out = std::io::stdout().lock();
            runtime.block_on(walkthrough::run(&tools, &mut out))
        }
        Command::Definitions { format } => {
            let tools = example_registry(&std::env::current_dir()?)?;
            let converted = format.definitions(&tools.definitions());
            for diagnostic in &converted.diagnostics {
                eprintln!("{format}: {diagnostic}");
            }
            let mut out = std::io::stdout().lock();
            serde_json::to_writer_pretty(&mut out, &converted.value)?;
            println!();
            Ok(())
        }
        Command::Call { root, sequential } => {
            let tools = example_registry(&root).map_err(|error| {
                std::io::Error::new(error.kind(), format!("--root {}: {error}", root.display()))
            })?;
            let mode = if sequential {
                ExecutionMode::Sequential
            } else {
                ExecutionMode::Parallel
            };
            runtime.block_on(call::run_calls(
                tokio::io::BufReader::new(tokio::io::stdin()),
                tokio::io::BufWriter::new(tokio::io::stdout()),
                Arc::new(tools),
                mode,
            ))
        }
    }
}
