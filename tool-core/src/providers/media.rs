//! Content where a provider has room for text only: every item that is not
//! text becomes a short note, so no image, sound or link vanishes without
//! the model knowing it was there; and the small pieces the adapters that
//! do carry media share (data URLs, MIME type checks).

use crate::model::Content;

/// Content as one string, for the places that take only one (a text-only
/// result, an MCP progress message): one item per line, a text item as its
/// text and anything else as its [`media_note`]. Text-only content is its
/// text items joined by newlines, as it always was.
///
/// ```
/// use tool_core::{providers::content_text, Content};
///
/// assert_eq!(content_text(&[Content::text("a"), Content::text("b")]), "a\nb");
/// assert_eq!(
///     content_text(&[Content::text("The chart:"), Content::image(b"\x89PNG", "image/png")]),
///     "The chart:\n[image: image/png, 4 bytes]",
/// );
/// ```
pub fn content_text(content: &[Content]) -> String {
    lines(content.iter().map(media_note))
}

/// The text standing for `item` where only text fits: a text item's own
/// text, and for anything else a note in brackets saying what was there:
///
/// - an image or a sound: its MIME type and size (of the decoded bytes),
///   `[image: image/png, 1234 bytes]`, `[audio: audio/wav, 5120 bytes]`;
/// - a resource link: its name and URI, then its MIME type and description
///   when it has them, `[resource: notes.md <file:///notes.md>, text/markdown: Meeting notes]`;
/// - an embedded resource: its text as it is, or for bytes its URI, MIME
///   type and size, `[resource: <test://logo>, image/png, 68 bytes]`.
///
/// ```
/// use tool_core::{providers::media_note, Content};
///
/// assert_eq!(media_note(&Content::text("Pi")), "Pi");
/// assert_eq!(media_note(&Content::audio([0u8; 5], "audio/wav")), "[audio: audio/wav, 5 bytes]");
/// assert_eq!(
///     media_note(&Content::resource_link("file:///notes.md", "notes.md").with_description("Meeting notes")),
///     "[resource: notes.md <file:///notes.md>: Meeting notes]",
/// );
/// assert_eq!(media_note(&Content::embedded_text("test://n", "text/plain", "Hello")), "Hello");
/// assert_eq!(
///     media_note(&Content::embedded_bytes("test://logo", "image/png", [0u8; 4])),
///     "[resource: <test://logo>, image/png, 4 bytes]",
/// );
/// ```
pub fn media_note(item: &Content) -> String {
    note(item, None)
}

/// `item`'s note, saying where the item itself went when an adapter sent it
/// elsewhere: `[image: image/png, 4 bytes, sent in the next user message]`.
pub(crate) fn note(item: &Content, sent: Option<&str>) -> String {
    let body = match item {
        Content::Text { text } => return text.clone(),
        Content::Image { data, mime_type } => format!("image: {mime_type}, {}", size(data)),
        Content::Audio { data, mime_type } => format!("audio: {mime_type}, {}", size(data)),
        Content::ResourceLink {
            uri,
            name,
            description,
            mime_type,
        } => {
            let mut body = format!("resource: {name} <{uri}>");
            if let Some(mime_type) = mime_type {
                body.push_str(", ");
                body.push_str(mime_type);
            }
            if let Some(description) = description {
                body.push_str(": ");
                body.push_str(description);
            }
            body
        }
        // Its text, where text fits: what it holds, not a mention of it.
        Content::Resource { resource } => match (&resource.text, &resource.blob) {
            (Some(text), _) => return text.clone(),
            (None, Some(blob)) => format!(
                "resource: <{}>, {}, {}",
                resource.uri,
                resource
                    .mime_type
                    .as_deref()
                    .unwrap_or("application/octet-stream"),
                size(blob)
            ),
            (None, None) => format!("resource: <{}>, empty", resource.uri),
        },
    };
    match sent {
        Some(place) => format!("[{body}, {place}]"),
        None => format!("[{body}]"),
    }
}

/// Strings one per line.
pub(crate) fn lines(items: impl Iterator<Item = String>) -> String {
    items.collect::<Vec<_>>().join("\n")
}

/// `data:<mime>;base64,<data>`, the URL OpenAI takes an inline image as.
pub(crate) fn data_url(mime_type: &str, data: &str) -> String {
    format!("data:{mime_type};base64,{data}")
}

/// Whether `mime_type` is one of `accepted` (MIME types compare without
/// regard to case).
pub(crate) fn accepts(accepted: &[&str], mime_type: &str) -> bool {
    accepted
        .iter()
        .any(|candidate| candidate.eq_ignore_ascii_case(mime_type))
}

/// The size of the bytes `data` encodes in base64 (padded or not), in words.
fn size(data: &str) -> String {
    match data.trim_end_matches('=').len() * 3 / 4 {
        1 => "1 byte".to_owned(),
        bytes => format!("{bytes} bytes"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_are_of_the_decoded_bytes_padded_or_not() {
        for length in 0..8 {
            let bytes = vec![7u8; length];
            let Content::Image { data, .. } = Content::image(&bytes, "image/png") else {
                unreachable!()
            };
            let unpadded = data.trim_end_matches('=');
            let expected = if length == 1 {
                "1 byte".to_owned()
            } else {
                format!("{length} bytes")
            };
            assert_eq!(size(&data), expected);
            assert_eq!(size(unpadded), expected);
        }
    }

    #[test]
    fn a_resource_note_has_its_mime_type_and_description_when_set() {
        let link = Content::resource_link("https://example.com/a.pdf", "a.pdf")
            .with_mime_type("application/pdf");
        assert_eq!(
            note(&link, Some("not sent")),
            "[resource: a.pdf <https://example.com/a.pdf>, application/pdf, not sent]"
        );
        assert!(accepts(&["image/png"], "IMAGE/PNG"));
    }
}
