//! The provider formats (`tool_core::providers`): definitions, calls and
//! results in each API's shape, media, stream accumulators, and the
//! hand-written result writer. One test binary for the layer (each binary
//! links the whole dependency tree, and CI builds them on two cores).
//!
//! - [`definitions`], [`enums`]: the tool definitions each format writes,
//!   and their diagnostics; [`anthropic_strict`]: Anthropic's strict tool
//!   use; [`cost_table`]: the per-construct table of docs/providers.md,
//!   generated from the conversions.
//! - [`calls`]: the call and result adapters, both directions.
//! - [`media`]: images, sounds and resource links in results.
//! - [`streaming`], [`streaming_properties`]: the stream accumulators;
//!   [`streaming_deltas`]: the text their `ArgumentsGrew` events carry.
//! - [`result_wire`]: `ToolResultMessage::write_json` against serde.

mod anthropic_strict;
mod calls;
mod cost_table;
mod definitions;
mod enums;
mod media;
mod programmatic;
mod result_wire;
mod stream_formats;
mod streaming;
mod streaming_deltas;
mod streaming_properties;
mod teaching_messages;
mod tool_search_wire;
mod whole_responses;
// Shared by every test binary here: one copy, beside the binaries.
#[path = "../support/mod.rs"]
mod support;
