//! `rename_all` case conventions, named as serde names them.

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum RenameRule {
    Lower,
    Upper,
    Pascal,
    Camel,
    Snake,
    ScreamingSnake,
    Kebab,
    ScreamingKebab,
}

pub(crate) const RULE_NAMES: &str = "\"lowercase\", \"UPPERCASE\", \"PascalCase\", \"camelCase\", \"snake_case\", \"SCREAMING_SNAKE_CASE\", \"kebab-case\", \"SCREAMING-KEBAB-CASE\"";

impl RenameRule {
    pub(crate) fn from_name(name: &str) -> Option<Self> {
        Some(match name {
            "lowercase" => RenameRule::Lower,
            "UPPERCASE" => RenameRule::Upper,
            "PascalCase" => RenameRule::Pascal,
            "camelCase" => RenameRule::Camel,
            "snake_case" => RenameRule::Snake,
            "SCREAMING_SNAKE_CASE" => RenameRule::ScreamingSnake,
            "kebab-case" => RenameRule::Kebab,
            "SCREAMING-KEBAB-CASE" => RenameRule::ScreamingKebab,
            _ => return None,
        })
    }

    /// Renames a field, written in snake_case in Rust.
    pub(crate) fn apply_to_field(self, field: &str) -> String {
        match self {
            RenameRule::Lower | RenameRule::Snake => field.to_owned(),
            RenameRule::Upper | RenameRule::ScreamingSnake => field.to_ascii_uppercase(),
            RenameRule::Pascal => {
                let mut pascal = String::new();
                let mut capitalize = true;
                for c in field.chars() {
                    if c == '_' {
                        capitalize = true;
                    } else if capitalize {
                        pascal.push(c.to_ascii_uppercase());
                        capitalize = false;
                    } else {
                        pascal.push(c);
                    }
                }
                pascal
            }
            RenameRule::Camel => {
                let pascal = RenameRule::Pascal.apply_to_field(field);
                lower_first(&pascal)
            }
            RenameRule::Kebab => field.replace('_', "-"),
            RenameRule::ScreamingKebab => field.replace('_', "-").to_ascii_uppercase(),
        }
    }

    /// Renames a variant, written in PascalCase in Rust.
    pub(crate) fn apply_to_variant(self, variant: &str) -> String {
        match self {
            RenameRule::Pascal => variant.to_owned(),
            RenameRule::Lower => variant.to_ascii_lowercase(),
            RenameRule::Upper => variant.to_ascii_uppercase(),
            RenameRule::Camel => lower_first(variant),
            RenameRule::Snake => {
                let mut snake = String::new();
                for (i, c) in variant.char_indices() {
                    if i > 0 && c.is_uppercase() {
                        snake.push('_');
                    }
                    snake.push(c.to_ascii_lowercase());
                }
                snake
            }
            RenameRule::ScreamingSnake => RenameRule::Snake
                .apply_to_variant(variant)
                .to_ascii_uppercase(),
            RenameRule::Kebab => RenameRule::Snake
                .apply_to_variant(variant)
                .replace('_', "-"),
            RenameRule::ScreamingKebab => RenameRule::ScreamingSnake
                .apply_to_variant(variant)
                .replace('_', "-"),
        }
    }
}

fn lower_first(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_ascii_lowercase().to_string() + chars.as_str(),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_and_variants() {
        let cases = [
            (
                RenameRule::Camel,
                "max_results",
                "maxResults",
                "VeryFast",
                "veryFast",
            ),
            (
                RenameRule::Pascal,
                "max_results",
                "MaxResults",
                "VeryFast",
                "VeryFast",
            ),
            (
                RenameRule::Snake,
                "max_results",
                "max_results",
                "VeryFast",
                "very_fast",
            ),
            (
                RenameRule::ScreamingSnake,
                "max_results",
                "MAX_RESULTS",
                "VeryFast",
                "VERY_FAST",
            ),
            (
                RenameRule::Kebab,
                "max_results",
                "max-results",
                "VeryFast",
                "very-fast",
            ),
            (
                RenameRule::ScreamingKebab,
                "max_results",
                "MAX-RESULTS",
                "VeryFast",
                "VERY-FAST",
            ),
            (
                RenameRule::Lower,
                "max_results",
                "max_results",
                "VeryFast",
                "veryfast",
            ),
            (
                RenameRule::Upper,
                "max_results",
                "MAX_RESULTS",
                "VeryFast",
                "VERYFAST",
            ),
        ];
        for (rule, field, field_renamed, variant, variant_renamed) in cases {
            assert_eq!(rule.apply_to_field(field), field_renamed, "{rule:?}");
            assert_eq!(rule.apply_to_variant(variant), variant_renamed, "{rule:?}");
        }
    }
}
