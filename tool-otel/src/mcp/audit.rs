//! Counts from tool-mcp's audit events (target `tool_mcp::audit`): the
//! credentials refused, by reason, and the sessions open. The MCP
//! conventions have neither (only the sessions' durations), so the names
//! are this crate's: `mcp.server.refused_credentials` and
//! `mcp.server.active_sessions`, made like the HTTP conventions'
//! `http.server.active_requests`
//! (<https://opentelemetry.io/docs/specs/semconv/http/http-metrics/#metric-httpserveractive_requests>).
//!
//! The sessions are counted up at `session_opened` and down at
//! `session_closed`, which tool-mcp emits for a client's DELETE, for a
//! session the gate closes itself, and (within a second) for one rmcp
//! ended because it sat idle or the server stopped. With sessions shared
//! between processes, one process may count a session up and another
//! down: sum the processes.

use super::contract;
use super::fields::Captured;
use opentelemetry::KeyValue;
use opentelemetry::metrics::{Counter, Meter, UpDownCounter};

/// The instruments fed by the audit events.
#[derive(Clone, Debug)]
pub(super) struct AuditMetrics {
    refused: Counter<u64>,
    sessions: UpDownCounter<i64>,
}

/// The fields read.
const FIELDS: [&str; 2] = [contract::AUDIT_EVENT, contract::REFUSAL_REASON];

impl AuditMetrics {
    pub(super) fn new(meter: &Meter) -> Self {
        AuditMetrics {
            refused: meter
                .u64_counter("mcp.server.refused_credentials")
                .with_unit("{credential}")
                .with_description("Credentials the MCP server refused (answered 401), by reason.")
                .build(),
            sessions: meter
                .i64_up_down_counter("mcp.server.active_sessions")
                .with_unit("{session}")
                .with_description(
                    "MCP sessions opened and not yet closed by their client or the server.",
                )
                .build(),
        }
    }

    /// An audit event with fields `event`.
    pub(super) fn event(&self, event: &tracing::Event<'_>) {
        let mut fields = Captured::of(&FIELDS);
        event.record(&mut fields);
        match fields.get(contract::AUDIT_EVENT).as_deref() {
            Some(contract::CREDENTIAL_REFUSED) => {
                let reason = fields.get(contract::REFUSAL_REASON).unwrap_or_default();
                self.refused
                    .add(1, &[KeyValue::new(contract::REFUSAL_REASON, reason)]);
            }
            Some(contract::SESSION_OPENED) => self.sessions.add(1, &[]),
            Some(contract::SESSION_CLOSED) => self.sessions.add(-1, &[]),
            _ => {}
        }
    }
}
