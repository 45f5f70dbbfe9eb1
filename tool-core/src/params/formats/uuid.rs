//! `uuid`: the string representation of RFC 4122 section 3, `8-4-4-4-12`
//! hexadecimal digits joined by hyphens. Digits are case-insensitive on
//! input (section 3), and any version and variant is accepted: the grammar
//! does not restrict them, and neither does the `jsonschema` crate.
//! No braces, no `urn:uuid:` prefix, no unhyphenated form.

/// `uuid`: `123e4567-e89b-12d3-a456-426614174000`.
pub(super) fn is_uuid(text: &str) -> bool {
    let bytes = text.as_bytes();
    bytes.len() == 36
        && bytes.iter().enumerate().all(|(index, byte)| match index {
            8 | 13 | 18 | 23 => *byte == b'-',
            _ => byte.is_ascii_hexdigit(),
        })
}

#[cfg(test)]
mod tests {
    use super::is_uuid;

    #[test]
    fn uuids() {
        for valid in [
            "123e4567-e89b-12d3-a456-426614174000",
            "2EB8AA08-AA98-11EA-B4AA-73B441D16380",
            "2eb8aa08-AA98-11ea-B4Aa-73B441D16380",
            "00000000-0000-0000-0000-000000000000",
            "ffffffff-ffff-ffff-ffff-ffffffffffff",
            "98d80576-482e-427f-8434-7f86890ab222",
            "99c17cbb-656f-564a-940f-1a4568f03487",
            "99c17cbb-656f-f64a-c40f-1a4568f03487",
        ] {
            assert!(is_uuid(valid), "{valid}");
        }
        for invalid in [
            "",
            "2eb8aa08-aa98-11ea-b4aa-73b441d1638",
            "2eb8aa08-aa98-11ea-b4aa-73b441d163800",
            "2eb8aa08-aa98-11ea-b4ga-73b441d16380",
            "2eb8aa08aa9811eab4aa73b441d16380",
            "2eb8aa08aa98-11ea-b4aa73b441d16380----",
            "2eb8-aa08-aa98-11ea-b4aa73b44-1d16380",
            "{2eb8aa08-aa98-11ea-b4aa-73b441d16380}",
            "urn:uuid:2eb8aa08-aa98-11ea-b4aa-73b441d16380",
            "2eb8aa08-aa98-11ea-b4aa-73b441d1638é",
            " eb8aa08-aa98-11ea-b4aa-73b441d16380",
        ] {
            assert!(!is_uuid(invalid), "{invalid}");
        }
    }
}
