//! A result written as JSON by hand: the bytes its `Serialize` (serde's
//! derive) gives through `serde_json`, without escaping the same constant
//! keys again for every result. The keys are most of what `serde_json`
//! spends on a short result: `format_escaped_str` checks every byte of
//! `"toolCallId"` on every call. The tool's strings and JSON values still go
//! through `serde_json`, so they are escaped exactly as `Serialize`
//! escapes them.
//! `tests/tests/providers/result_wire.rs` holds the two to the same bytes on
//! arbitrary results.

use super::{ToolResultMessage, is_retry_or_none};
use crate::tool::Content;
use serde::Serialize;

impl ToolResultMessage {
    /// Appends the result to `out` as one compact JSON object: the same bytes
    /// as `serde_json::to_writer(out, self)`, for less work (a quarter less
    /// for a short result: the constant keys are copied, not escaped again).
    /// This is how `tool-examples call` writes its answers.
    ///
    /// ```
    /// use tool_core::{ToolCall, ToolResultMessage};
    /// use serde_json::json;
    ///
    /// let call = ToolCall::new("call-1", "echo", json!({}));
    /// let result = ToolResultMessage::failure(&call, "unknown tool");
    /// let mut line = Vec::new();
    /// result.write_json(&mut line).unwrap();
    /// assert_eq!(line, serde_json::to_vec(&result).unwrap());
    /// ```
    ///
    /// # Errors
    /// Only what `serde_json` gives for a value it cannot write (`out` then
    /// holds the part written before it); a result holds strings, numbers
    /// and JSON values, so in practice none.
    pub fn write_json(&self, out: &mut Vec<u8>) -> serde_json::Result<()> {
        out.extend_from_slice(br#"{"role":"toolResult","toolCallId":"#);
        write_value(out, &self.tool_call_id)?;
        out.extend_from_slice(br#","toolName":"#);
        write_value(out, &self.tool_name)?;
        out.extend_from_slice(br#","content":["#);
        for (index, item) in self.content.iter().enumerate() {
            if index > 0 {
                out.push(b',');
            }
            write_content(out, item)?;
        }
        out.push(b']');
        if let Some(details) = &self.details {
            out.extend_from_slice(br#","details":"#);
            write_value(out, details)?;
        }
        out.extend_from_slice(if self.is_error {
            br#","isError":true"#
        } else {
            br#","isError":false"#
        });
        if !is_retry_or_none(&self.failure_kind) {
            out.extend_from_slice(br#","failure":"#);
            write_value(out, &self.failure_kind)?;
        }
        if !self.repairs.is_empty() {
            out.extend_from_slice(br#","repairs":"#);
            write_value(out, &self.repairs)?;
        }
        out.extend_from_slice(br#","timestamp":"#);
        write_value(out, &self.timestamp)?;
        out.push(b'}');
        Ok(())
    }
}

/// A text item, the common one, by hand; the others as serde writes them.
fn write_content(out: &mut Vec<u8>, item: &Content) -> serde_json::Result<()> {
    match item {
        Content::Text { text } => {
            out.extend_from_slice(br#"{"type":"text","text":"#);
            write_value(out, text)?;
            out.push(b'}');
            Ok(())
        }
        other => write_value(out, other),
    }
}

fn write_value<T: Serialize + ?Sized>(out: &mut Vec<u8>, value: &T) -> serde_json::Result<()> {
    serde_json::to_writer(&mut *out, value)
}

#[cfg(test)]
mod tests {
    use crate::message::{ToolCall, ToolResultMessage};
    use crate::tool::{Content, FailureKind};
    use serde_json::json;

    fn same_bytes(result: &ToolResultMessage) {
        let mut ours = Vec::new();
        result.write_json(&mut ours).unwrap();
        assert_eq!(
            String::from_utf8(ours).unwrap(),
            serde_json::to_string(result).unwrap()
        );
    }

    #[test]
    fn every_optional_part_is_written_as_serde_writes_it() {
        let call = ToolCall::new("call-\"1\"\n", "é\u{1}cho", json!({}));
        let mut result = ToolResultMessage::failed(&call, "gone", FailureKind::Fatal);
        same_bytes(&result);
        result.failure_kind = Some(FailureKind::Retry);
        same_bytes(&result);
        result.details = None;
        result.is_error = false;
        result.failure_kind = None;
        result.content = vec![
            Content::text("a \"quoted\"\tline\n"),
            Content::image(b"\x89PNG", "image/png"),
            Content::text(""),
        ];
        same_bytes(&result);
        result.content.clear();
        result.details = Some(json!({"nested": [1, 2.5, null, {"k": "v"}]}));
        same_bytes(&result);
    }
}
