//! The executor and the tools it runs: `#[tool]` and `#[tools]`, the echo
//! walkthrough's outcomes, batches, faults, recovery, repair, structured
//! results, a 10,000-call stress batch, and the `tracing` events. One test
//! binary for the layer (each binary links the whole dependency tree, and CI
//! builds them on two cores).
//!
//! - [`approval`]: suspended batches, their sealed state, resumes.
//! - [`approval_lifecycle`]: what approvals promise across requests,
//!   processes and crashes; closing; the policies (arguments, standing
//!   decisions, results from outside); the ledgers' contract.
//! - [`seed`]: the echo walkthrough's cases and the five outcomes.
//! - [`tool_fn`], [`toolbox`]: `#[tool]` functions, `#[tools]` impl blocks.
//! - [`executor`]: batches, concurrency, failure paths.
//! - [`faults`], [`recovery`]: timeouts, cancellation, limits, hooks;
//!   failure kinds, retry budgets, rewrites.
//! - [`repair_properties`]: repair judged by a JSON Schema validator.
//! - [`repair_any_tool`]: dynamic tools checked and repaired against their
//!   schema; the note and the recorded repairs bounded.
//! - [`structured_results`]: `Json<T>` results and output schemas.
//! - [`stress`]: one batch of every outcome, 10,000 calls.
//! - [`tracing_events`]: the events in the logs, captured by a subscriber;
//!   what a tool logs, to `tracing` or the run's sink.
//! - [`elicit`]: a tool's question to a person, through the run's asker.
//! - [`call_span`]: the `execute_tool` span's fields (OpenTelemetry's GenAI
//!   conventions), kept by the layer in [`span_capture`].
//! - [`otel_export`]: real calls under `tool_otel::layer`, as the
//!   OpenTelemetry SDK exports their spans and durations.

mod approval;
mod approval_lifecycle;
mod call_span;
mod elicit;
mod executor;
mod faults;
mod otel_export;
mod recovery;
mod repair_any_tool;
mod repair_properties;
mod seed;
mod span_capture;
mod stress;
mod structured_results;
// Shared by every test binary here: one copy, beside the binaries.
#[path = "../support/mod.rs"]
mod support;
mod tool_fn;
mod toolbox;
mod tracing_events;
