//! What a model reads of a result: text, images, sounds, links.

use base64::Engine as _;
use serde::{Deserialize, Serialize};

/// One piece of a result the model reads.
///
/// The wire shapes are MCP's content items (and pi's), so a result travels
/// to an MCP client unchanged; each provider adapter in
/// [`providers`](crate::providers) writes them in the shape its provider
/// takes (see there for what a provider without a place for media gets).
///
/// ```
/// use tool_core::Content;
/// use serde_json::json;
///
/// assert_eq!(serde_json::to_value(Content::text("Pi")).unwrap(), json!({"type": "text", "text": "Pi"}));
/// assert_eq!(
///     serde_json::to_value(Content::image(b"\x89PNG", "image/png")).unwrap(),
///     json!({"type": "image", "data": "iVBORw==", "mimeType": "image/png"}),
/// );
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
#[non_exhaustive]
pub enum Content {
    /// Plain text: `{"type":"text","text":"Pi"}`.
    Text {
        /// The text.
        text: String,
    },
    /// An image: `{"type":"image","data":"<base64>","mimeType":"image/png"}`.
    Image {
        /// The image's bytes in standard base64 (with padding).
        data: String,
        /// Its MIME type, such as `image/png`.
        mime_type: String,
    },
    /// A sound: `{"type":"audio","data":"<base64>","mimeType":"audio/wav"}`.
    Audio {
        /// The sound's bytes in standard base64 (with padding).
        data: String,
        /// Its MIME type, such as `audio/wav`.
        mime_type: String,
    },
    /// A link to something the reader can fetch, MCP's `resource_link`:
    /// `{"type":"resource_link","uri":"file:///a.txt","name":"a.txt"}`.
    ResourceLink {
        /// Where it is.
        uri: String,
        /// What to call it.
        name: String,
        /// What it is; left out when `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        description: Option<String>,
        /// Its MIME type; left out when `None`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        mime_type: Option<String>,
    },
    /// A resource's contents, carried whole, MCP's embedded resource:
    /// `{"type":"resource","resource":{"uri":"file:///a.txt","mimeType":"text/plain","text":"..."}}`
    /// (`blob`, base64, for bytes).
    Resource {
        /// The resource and what it holds.
        resource: EmbeddedResource,
    },
}

/// The contents of a resource carried in a result
/// ([`Content::Resource`]): text, or bytes in base64.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmbeddedResource {
    /// Which resource it is.
    pub uri: String,
    /// Its MIME type; left out when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mime_type: Option<String>,
    /// Its text, for a text resource; left out when `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub text: Option<String>,
    /// Its bytes in standard base64, for a binary one; left out when
    /// `None`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub blob: Option<String>,
}

impl Content {
    /// A text content item: `Content::text("Pi")` is `{"type":"text","text":"Pi"}`.
    pub fn text(text: impl Into<String>) -> Content {
        Content::Text { text: text.into() }
    }

    /// An image content item from its bytes, which are base64-encoded here:
    /// `Content::image(png_bytes, "image/png")`.
    pub fn image(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Content {
        Content::Image {
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// An audio content item from its bytes, which are base64-encoded here:
    /// `Content::audio(wav_bytes, "audio/wav")`.
    pub fn audio(bytes: impl AsRef<[u8]>, mime_type: impl Into<String>) -> Content {
        Content::Audio {
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
            mime_type: mime_type.into(),
        }
    }

    /// A resource link content item, with no description or MIME type (add
    /// them with [`Content::with_description`] and [`Content::with_mime_type`]).
    pub fn resource_link(uri: impl Into<String>, name: impl Into<String>) -> Content {
        Content::ResourceLink {
            uri: uri.into(),
            name: name.into(),
            description: None,
            mime_type: None,
        }
    }

    /// A text resource carried whole: `Content::embedded_text("file:///a.txt",
    /// "text/plain", "...")`.
    ///
    /// ```
    /// use tool_core::Content;
    ///
    /// let item = Content::embedded_text("test://notes", "text/plain", "Hello");
    /// assert_eq!(
    ///     serde_json::to_value(&item).unwrap(),
    ///     serde_json::json!({"type": "resource", "resource": {
    ///         "uri": "test://notes", "mimeType": "text/plain", "text": "Hello"
    ///     }}),
    /// );
    /// ```
    pub fn embedded_text(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        text: impl Into<String>,
    ) -> Content {
        Content::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: Some(text.into()),
                blob: None,
            },
        }
    }

    /// A binary resource carried whole, its bytes base64-encoded here.
    pub fn embedded_bytes(
        uri: impl Into<String>,
        mime_type: impl Into<String>,
        bytes: impl AsRef<[u8]>,
    ) -> Content {
        Content::Resource {
            resource: EmbeddedResource {
                uri: uri.into(),
                mime_type: Some(mime_type.into()),
                text: None,
                blob: Some(base64::engine::general_purpose::STANDARD.encode(bytes)),
            },
        }
    }

    /// The text of a text item.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text { text } => Some(text),
            _ => None,
        }
    }

    /// Adds a description to a resource link; other items are returned as
    /// they are.
    ///
    /// ```
    /// use tool_core::Content;
    ///
    /// let link = Content::resource_link("file:///notes.md", "notes.md").with_description("Meeting notes");
    /// assert_eq!(serde_json::to_value(&link).unwrap()["description"], "Meeting notes");
    /// ```
    pub fn with_description(mut self, text: impl Into<String>) -> Self {
        if let Content::ResourceLink { description, .. } = &mut self {
            *description = Some(text.into());
        }
        self
    }

    /// Adds a MIME type to a resource link; other items are returned as
    /// they are.
    pub fn with_mime_type(mut self, mime: impl Into<String>) -> Self {
        if let Content::ResourceLink { mime_type, .. } = &mut self {
            *mime_type = Some(mime.into());
        }
        self
    }
}
