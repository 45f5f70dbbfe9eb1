//! Images: recognized by their first bytes (never by the file's name) and
//! sent whole, as an image the model looks at, up to a size cap.

use super::ReadError;
use super::window::{CHUNK, next_chunk};
use std::io::Read;

/// The largest image `read` sends, in bytes: 3,932,160 (3.75 MiB).
///
/// Anthropic refuses an image whose base64 text is over 5 MiB (5,242,880
/// bytes), and base64 writes 4 characters for every 3 bytes, so 3.75 MiB
/// of image is exactly 5 MiB of base64. A 5 MiB image would be 6.7 MiB of
/// base64, too large there.
pub const MAX_IMAGE_BYTES: u64 = 5 * 1024 * 1024 / 4 * 3;

/// The bytes needed to recognize every format (WebP's `RIFF....WEBP`).
pub(super) const SNIFF_BYTES: usize = 12;

/// The MIME type of an image that starts with `prefix`: PNG, JPEG, GIF
/// (87a and 89a) or WebP; `None` for anything else.
pub(super) fn sniff(prefix: &[u8]) -> Option<&'static str> {
    if prefix.starts_with(b"\x89PNG\r\n\x1a\n") {
        Some("image/png")
    } else if prefix.starts_with(b"\xff\xd8\xff") {
        Some("image/jpeg")
    } else if prefix.starts_with(b"GIF87a") || prefix.starts_with(b"GIF89a") {
        Some("image/gif")
    } else if prefix.len() >= 12 && prefix.starts_with(b"RIFF") && &prefix[8..12] == b"WEBP" {
        Some("image/webp")
    } else {
        None
    }
}

/// Reads up to [`SNIFF_BYTES`] from the start of `source`: fewer only at
/// its end.
pub(super) fn read_prefix(source: &mut impl Read) -> Result<Vec<u8>, ReadError> {
    let mut prefix = Vec::with_capacity(SNIFF_BYTES);
    source
        .take(SNIFF_BYTES as u64)
        .read_to_end(&mut prefix)
        .map_err(|error| ReadError::Io(error.kind()))?;
    Ok(prefix)
}

/// The rest of an image whose first bytes are `prefix`, refused past
/// [`MAX_IMAGE_BYTES`]. `size` is what the file's metadata said; the cap is
/// checked again on what is actually read (the file may grow meanwhile),
/// and `cancelled` is called between chunks.
pub(super) fn read_image(
    prefix: Vec<u8>,
    size: u64,
    mut source: impl Read,
    cancelled: impl Fn() -> bool,
) -> Result<Vec<u8>, ReadError> {
    let too_large = |bytes| ReadError::ImageTooLarge {
        bytes,
        cap: MAX_IMAGE_BYTES,
    };
    if size > MAX_IMAGE_BYTES {
        return Err(too_large(size));
    }
    let mut bytes = prefix;
    bytes.reserve(
        usize::try_from(size)
            .unwrap_or(0)
            .saturating_sub(bytes.len()),
    );
    let mut chunk = vec![0u8; CHUNK];
    while let Some(read) = next_chunk(&mut source, &mut chunk, &cancelled)? {
        bytes.extend_from_slice(read);
        if bytes.len() as u64 > MAX_IMAGE_BYTES {
            // It grew since the metadata was read: the size so far is all
            // that is known.
            return Err(too_large(bytes.len() as u64));
        }
    }
    if cancelled() {
        return Err(ReadError::Cancelled);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_is_five_mib_of_base64() {
        assert_eq!(MAX_IMAGE_BYTES, 3_932_160);
        assert_eq!(MAX_IMAGE_BYTES.div_ceil(3) * 4, 5 * 1024 * 1024);
    }

    #[test]
    fn recognizes_the_four_formats_by_their_first_bytes() {
        assert_eq!(sniff(b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR"), Some("image/png"));
        assert_eq!(sniff(b"\xff\xd8\xff\xe0"), Some("image/jpeg"));
        assert_eq!(sniff(b"GIF87a\x01\0"), Some("image/gif"));
        assert_eq!(sniff(b"GIF89a\x01\0"), Some("image/gif"));
        assert_eq!(sniff(b"RIFF\x24\0\0\0WEBPVP8 "), Some("image/webp"));
    }

    #[test]
    fn anything_else_is_not_an_image() {
        for prefix in [
            &b""[..],
            b"\x89PNG",
            b"\x89PNG\r\n\x1a",
            b"\xff\xd8",
            b"GIF88a",
            b"RIFF\x24\0\0\0WAVEfmt ",
            b"RIFF\x24\0\0\0WEB",
            b"hello world!",
        ] {
            assert_eq!(sniff(prefix), None, "{prefix:?}");
        }
    }

    #[test]
    fn the_prefix_stops_at_twelve_bytes_or_the_end() {
        let mut long = &b"0123456789abcdef"[..];
        assert_eq!(read_prefix(&mut long).unwrap(), b"0123456789ab");
        assert_eq!(long, b"cdef");
        let mut short = &b"abc"[..];
        assert_eq!(read_prefix(&mut short).unwrap(), b"abc");
    }

    #[test]
    fn an_image_that_grew_past_the_cap_is_refused() {
        let rest = vec![0u8; MAX_IMAGE_BYTES as usize];
        let result = read_image(b"GIF89a".to_vec(), 10, &rest[..], || false);
        assert!(matches!(
            result,
            Err(ReadError::ImageTooLarge { bytes, cap: MAX_IMAGE_BYTES }) if bytes > MAX_IMAGE_BYTES
        ));
    }

    #[test]
    fn stops_when_cancelled() {
        let result = read_image(b"GIF89a".to_vec(), 6, &b""[..], || true);
        assert!(matches!(result, Err(ReadError::Cancelled)));
    }
}
