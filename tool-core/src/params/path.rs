//! Where a value sits inside the arguments, built on the stack as parsing
//! descends and rendered to text only when a problem is reported, so the
//! happy path never allocates for it.

use std::fmt;

/// The location of a value inside a tool call's arguments: `limit`,
/// `items[2].name`, `tags.color`. The root itself renders as `arguments`.
///
/// Paths are linked lists that borrow their parent, so descending into a
/// field costs a few words on the stack and nothing on the heap.
///
/// ```
/// use tool_core::params::ParamPath;
///
/// let root = ParamPath::root();
/// let items = root.field("items");
/// let second = items.index(2);
/// let name = second.field("name");
/// assert_eq!(name.to_string(), "items[2].name");
/// assert_eq!(root.to_string(), "arguments");
/// ```
#[derive(Clone, Copy, Debug)]
pub struct ParamPath<'a> {
    parent: Option<&'a ParamPath<'a>>,
    segment: Segment<'a>,
    depth: usize,
}

#[derive(Clone, Copy, Debug)]
enum Segment<'a> {
    Root,
    Field(&'a str),
    Index(usize),
    Key(&'a str),
}

impl ParamPath<'static> {
    /// The path of the arguments object itself.
    #[inline]
    pub const fn root() -> Self {
        ParamPath {
            parent: None,
            segment: Segment::Root,
            depth: 0,
        }
    }
}

impl<'a> ParamPath<'a> {
    /// The path of a declared field of the object at `self`.
    #[inline]
    pub fn field<'b>(&'b self, name: &'b str) -> ParamPath<'b> {
        self.child(Segment::Field(name))
    }

    /// The path of the `index`-th element of the array at `self`.
    #[inline]
    pub fn index(&self, index: usize) -> ParamPath<'_> {
        self.child(Segment::Index(index))
    }

    /// The path of the value under `key` in the map at `self`.
    #[inline]
    pub fn key<'b>(&'b self, key: &'b str) -> ParamPath<'b> {
        self.child(Segment::Key(key))
    }

    /// How many steps below the root this path is (the root is 0).
    #[inline]
    pub fn depth(&self) -> usize {
        self.depth
    }

    #[inline]
    fn child<'b>(&'b self, segment: Segment<'b>) -> ParamPath<'b> {
        ParamPath {
            parent: Some(self),
            segment,
            depth: self.depth + 1,
        }
    }

    fn write_to(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Some(parent) = self.parent else {
            return out.write_str("arguments");
        };
        let parent_is_root = parent.parent.is_none();
        if !parent_is_root {
            parent.write_to(out)?;
        }
        match self.segment {
            Segment::Root => Ok(()),
            Segment::Field(name) | Segment::Key(name) if name.len() <= 64 && is_plain_key(name) => {
                if !parent_is_root {
                    out.write_str(".")?;
                }
                out.write_str(name)
            }
            Segment::Field(name) | Segment::Key(name) => {
                if parent_is_root {
                    out.write_str("arguments")?;
                }
                // Quoted, and capped: a 50 MB key must not come back whole.
                write!(out, "[{}]", crate::params::describe::StrExcerpt(name))
            }
            Segment::Index(index) => {
                if parent_is_root {
                    out.write_str("arguments")?;
                }
                write!(out, "[{index}]")
            }
        }
    }
}

/// Keys that read unambiguously after a dot; anything else is written as a
/// quoted JSON string in brackets (`tags["a b"]`).
fn is_plain_key(key: &str) -> bool {
    !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_alphanumeric() || c == '_' || c == '-' || c == '$')
}

impl fmt::Display for ParamPath<'_> {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.write_to(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_fields_indexes_and_keys() {
        let root = ParamPath::root();
        let tags = root.field("tags");
        assert_eq!(tags.key("color").to_string(), "tags.color");
        assert_eq!(tags.key("a b").to_string(), "tags[\"a b\"]");
        assert_eq!(root.index(3).to_string(), "arguments[3]");
        assert_eq!(root.key("").to_string(), "arguments[\"\"]");
        let huge = "k".repeat(1_000_000);
        let shown = tags.key(&huge).to_string();
        assert!(
            shown.starts_with("tags[\"kkk") && shown.ends_with("k…]"),
            "{shown:.40}"
        );
        assert!(shown.len() < 100);
        let items = root.field("items");
        let first = items.index(0);
        let inner = first.index(1);
        assert_eq!(inner.to_string(), "items[0][1]");
        assert_eq!(inner.depth(), 3);
    }
}
