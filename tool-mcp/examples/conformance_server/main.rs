//! The server the official MCP conformance suite (npm
//! `@modelcontextprotocol/conformance`, pinned in
//! interop/conformance/package.json) is run against: the suite's test
//! tools, written with the public API only, so what it checks is what an
//! application built on tool-core and tool-mcp can do.
//!
//! Each tool's name, arguments and result are the ones its scenario calls
//! and checks (the scenario classes in the package's `dist/index.js`; each
//! tool below names its scenario). The scenarios this server cannot serve
//! yet are listed, with why, in interop/conformance/expected-failures.txt;
//! their tools are not registered here, rather than registered to fail.
//!
//! Run: `cargo run -p tool-mcp --example conformance_server -- --http 127.0.0.1:PORT`
//! (port 0 for any; the address is printed as `serving MCP on http://ADDR/mcp`),
//! or with no argument over stdio. interop/checks/conformance.sh runs the
//! suite against it.

mod asking;
mod library;

use serde_json::{Value, json};
use std::net::SocketAddr;
use std::time::Duration;
use tokio_util::sync::CancellationToken;
use tool_core::{Content, DynamicTool, ToolError, ToolOutput, ToolRegistry};
use tool_mcp::HttpServer;

/// A 1x1 red PNG (the suite's "Implementation Note" for `test_image_content`
/// asks for one). Made with Python's zlib: signature, IHDR (1x1, 8-bit
/// RGB), IDAT (filter 0, then ff 00 00), IEND.
const RED_PIXEL_PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// [`RED_PIXEL_PNG`] in standard base64, as a resource's `blob` and a
/// prompt's image carry it: what `Content::image` writes.
fn red_pixel_base64() -> String {
    match Content::image(RED_PIXEL_PNG, "image/png") {
        Content::Image { data, .. } => data,
        _ => String::new(),
    }
}

/// The pause between a tool's notifications: the scenarios of logging and
/// progress ask for "~50ms" so that the client sees them arrive one by one
/// during the call.
const STEP: Duration = Duration::from_millis(50);

/// A tenth of a second of a 440 Hz square wave as a WAV file (8 kHz, mono,
/// 8-bit PCM): `tools-call-audio` checks for `mimeType` `audio/wav` and
/// some data, "a minimal test audio file".
fn short_beep_wav() -> Vec<u8> {
    const RATE: u32 = 8_000;
    let samples: Vec<u8> = (0..RATE / 10)
        .map(|n| {
            if (n * 440 * 2 / RATE).is_multiple_of(2) {
                0xc0
            } else {
                0x40
            }
        })
        .collect();
    let data_len = samples.len() as u32;
    let mut wav = Vec::with_capacity(44 + samples.len());
    wav.extend_from_slice(b"RIFF");
    wav.extend_from_slice(&(36 + data_len).to_le_bytes());
    wav.extend_from_slice(b"WAVEfmt ");
    wav.extend_from_slice(&16u32.to_le_bytes()); // the fmt chunk's size
    wav.extend_from_slice(&1u16.to_le_bytes()); // PCM
    wav.extend_from_slice(&1u16.to_le_bytes()); // mono
    wav.extend_from_slice(&RATE.to_le_bytes()); // samples per second
    wav.extend_from_slice(&RATE.to_le_bytes()); // bytes per second
    wav.extend_from_slice(&1u16.to_le_bytes()); // bytes per frame
    wav.extend_from_slice(&8u16.to_le_bytes()); // bits per sample
    wav.extend_from_slice(b"data");
    wav.extend_from_slice(&data_len.to_le_bytes());
    wav.extend_from_slice(&samples);
    wav
}

/// The tools of the suite's tool scenarios that tool-core can express.
fn conformance_tools() -> Result<ToolRegistry, Box<dyn std::error::Error>> {
    let mut tools = ToolRegistry::new();

    // tools-call-simple-text: a text item with a non-empty `text`.
    tools.register(DynamicTool::new(
        "test_simple_text",
        "Returns a simple text response",
        |_args, _ctx| async {
            Ok(ToolOutput::text(
                "This is a simple text response for testing.",
            ))
        },
    ))?;

    // tools-call-image: an image item with `data` and a `mimeType`.
    tools.register(DynamicTool::new(
        "test_image_content",
        "Returns a 1x1 red PNG",
        |_args, _ctx| async {
            Ok(ToolOutput::new(vec![Content::image(
                RED_PIXEL_PNG,
                "image/png",
            )]))
        },
    ))?;

    // tools-call-audio: an audio item with `data` and `mimeType` exactly
    // `audio/wav`.
    tools.register(DynamicTool::new(
        "test_audio_content",
        "Returns a short WAV beep",
        |_args, _ctx| async {
            Ok(ToolOutput::new(vec![Content::audio(
                short_beep_wav(),
                "audio/wav",
            )]))
        },
    ))?;

    // tools-call-with-logging: at least 3 `notifications/message` during
    // the call, after the client's `logging/setLevel` to `debug`; the
    // messages and delays are the scenario's.
    tools.register(DynamicTool::new(
        "test_tool_with_logging",
        "Logs three messages at info level while it runs",
        |_args, ctx| async move {
            ctx.info("Tool execution started");
            tokio::time::sleep(STEP).await;
            ctx.info("Tool processing data");
            tokio::time::sleep(STEP).await;
            ctx.info("Tool execution completed");
            Ok(ToolOutput::text(
                "Logging test completed: sent 3 log messages",
            ))
        },
    ))?;

    // tools-call-error: `isError: true` and a text first item. The tool
    // fails the way a real one does (an `Err`), so what is checked is the
    // executor's error result, not an output marked by hand.
    tools.register(DynamicTool::new(
        "test_error_handling",
        "Always fails, to test error results",
        |_args, _ctx| async {
            Err::<ToolOutput<Value>, ToolError>(
                "This tool intentionally returns an error for testing".into(),
            )
        },
    ))?;

    // tools-call-with-progress: at least 3 `notifications/progress` for the
    // request's `progressToken`, their `progress` never decreasing. Our
    // server numbers a call's updates 1, 2, 3 (handler/progress.rs) with the
    // text as the message; the scenario's 0/50/100 of 100 is a suggestion
    // it does not check.
    tools.register(DynamicTool::new(
        "test_tool_with_progress",
        "Reports progress three times while it runs",
        |_args, ctx| async move {
            for (step, percent) in [0, 50, 100].into_iter().enumerate() {
                if step > 0 {
                    tokio::time::sleep(STEP).await;
                }
                ctx.report_progress(vec![Content::text(format!("{percent}/100"))]);
            }
            Ok(ToolOutput::text(
                "Progress test completed: reported 3 steps",
            ))
        },
    ))?;

    // json-schema-2020-12 (SEP-1613): the listing keeps the input schema's
    // `$schema`, `$defs.address` and `additionalProperties: false` as given.
    // The schema is the scenario's, word for word; the tool echoes what it
    // was given, which the schema (checked before the call) allows.
    tools.register(
        DynamicTool::new(
            "json_schema_2020_12_tool",
            "Tool with JSON Schema 2020-12 features",
            |args, _ctx| async move {
                Ok(ToolOutput::text(format!(
                    "Received: {}",
                    Value::Object(args)
                )))
            },
        )
        .try_with_parameters(json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "$defs": {
                "address": {
                    "type": "object",
                    "properties": {
                        "street": {"type": "string"},
                        "city": {"type": "string"}
                    }
                }
            },
            "properties": {
                "name": {"type": "string"},
                "address": {"$ref": "#/$defs/address"}
            },
            "additionalProperties": false
        }))?,
    )?;

    // tools-call-embedded-resource: a text resource carried whole.
    tools.register(DynamicTool::new(
        "test_embedded_resource",
        "Returns an embedded text resource",
        |_args, _ctx| async {
            Ok(ToolOutput::new(vec![Content::embedded_text(
                "test://embedded-resource",
                "text/plain",
                "This is an embedded resource content.",
            )]))
        },
    ))?;

    // tools-call-mixed-content: text, an image and an embedded resource.
    tools.register(DynamicTool::new(
        "test_multiple_content_types",
        "Returns text, an image and a resource",
        |_args, _ctx| async {
            Ok(ToolOutput::new(vec![
                Content::text("Multiple content types test:"),
                Content::image(RED_PIXEL_PNG, "image/png"),
                Content::embedded_text(
                    "test://mixed-content-resource",
                    "application/json",
                    json!({"test": "data", "value": 123}).to_string(),
                ),
            ]))
        },
    ))?;

    // server-sse-polling: a call that outlasts the polling interval, so
    // its stream is closed mid-call and the answer read after the client
    // reconnects with `Last-Event-ID` (see `main`).
    tools.register(DynamicTool::new(
        "test_reconnection",
        "Outlasts the SSE polling interval, so its stream is closed mid-call",
        |_args, _ctx| async {
            tokio::time::sleep(POLL_INTERVAL + POLL_INTERVAL / 2).await;
            Ok(ToolOutput::text("Reconnection test completed successfully"))
        },
    ))?;

    asking::register(&mut tools)?;
    Ok(tools)
}

/// How long an HTTP event stream stays open before the server closes it
/// and the client reconnects (SEP-1699): longer than every other tool
/// takes here, so only `test_reconnection` is cut.
const POLL_INTERVAL: Duration = Duration::from_secs(1);

/// `--http ADDR`, or nothing for stdio.
fn http_address() -> Result<Option<SocketAddr>, String> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.as_slice() {
        [] => Ok(None),
        [flag, address] if flag == "--http" => address
            .parse()
            .map(Some)
            .map_err(|error| format!("--http {address}: {error}")),
        _ => Err("usage: conformance_server [--http ADDR]".to_owned()),
    }
}

#[tokio::main]
async fn main() -> Result<(), Box<dyn std::error::Error>> {
    let tools = conformance_tools()?;
    let Some(address) = http_address()? else {
        let server = tool_mcp::McpServer::new(tools).with_handler(library::Library::default());
        tool_mcp::serve_stdio(server).await?;
        return Ok(());
    };
    let server = tool_mcp::McpServer::new(tools)
        .with_server_info("tool-mcp-conformance", env!("CARGO_PKG_VERSION"))
        .with_handler(library::Library::default());
    let http = HttpServer::bind(server, address)
        .await?
        .with_sse_polling(POLL_INTERVAL, Duration::from_millis(200));
    // What interop/checks/conformance.sh waits for, with the port bound.
    eprintln!("serving MCP on http://{}/mcp", http.local_addr()?);
    // Until the process is stopped (the check kills it).
    http.run(CancellationToken::new()).await?;
    Ok(())
}
