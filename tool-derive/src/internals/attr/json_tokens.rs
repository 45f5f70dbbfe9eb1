//! A JSON value written in an attribute's tokens (`default = {"days": 3}`),
//! read back into JSON text. Rust tokenizes it as braces, string and
//! number literals, `:`, `,`, `-` and the idents `true`, `false`, `null`;
//! anything else is not JSON, refused at its token. Whether the value fits
//! the field's type is the type's parse's to say, when the schema is built.

use proc_macro2::{Delimiter, Span, TokenTree};

/// Whether the value ahead is meant as JSON: braces that open with a
/// string key (`{"days": 3}`, where a Rust block would not), or brackets
/// that read as JSON whole (`[-1.5, 2]`; `[LIMIT, 2]` stays a Rust array).
pub(crate) fn looks_like_json(ahead: &syn::parse::ParseBuffer<'_>) -> bool {
    let Ok(tree) = ahead.parse::<TokenTree>() else {
        return false;
    };
    let TokenTree::Group(group) = &tree else {
        return false;
    };
    match group.delimiter() {
        Delimiter::Brace => {
            let mut inner = group.stream().into_iter();
            matches!(
                (inner.next(), inner.next()),
                (Some(TokenTree::Literal(key)), Some(TokenTree::Punct(colon)))
                    if key.to_string().starts_with('"') && colon.as_char() == ':'
            )
        }
        Delimiter::Bracket => json_text(&tree).is_ok(),
        _ => false,
    }
}

/// The JSON text of `tree`, or where and why it is not JSON.
pub(crate) fn json_text(tree: &TokenTree) -> Result<String, (Span, String)> {
    let mut out = String::new();
    write_value(&mut std::iter::once(tree.clone()).peekable(), &mut out)?;
    Ok(out)
}

type Tokens<I> = std::iter::Peekable<I>;

fn write_value<I: Iterator<Item = TokenTree>>(
    tokens: &mut Tokens<I>,
    out: &mut String,
) -> Result<(), (Span, String)> {
    let Some(token) = tokens.next() else {
        return Err((Span::call_site(), "a value is missing".to_owned()));
    };
    match &token {
        TokenTree::Group(group) => {
            let (open, close) = match group.delimiter() {
                Delimiter::Brace => ('{', '}'),
                Delimiter::Bracket => ('[', ']'),
                _ => return Err((group.span(), "parentheses are not JSON".to_owned())),
            };
            out.push(open);
            let mut inner = group.stream().into_iter().peekable();
            let mut first = true;
            while inner.peek().is_some() {
                if !first {
                    expect_punct(&mut inner, ',', out)?;
                    if inner.peek().is_none() {
                        return Err((group.span(), "a trailing comma is not JSON".to_owned()));
                    }
                }
                first = false;
                if open == '{' {
                    match inner.next() {
                        Some(TokenTree::Literal(key)) if key.to_string().starts_with('"') => {
                            out.push_str(&key.to_string());
                        }
                        Some(other) => {
                            return Err((
                                other.span(),
                                "an object's key is a string in double quotes".to_owned(),
                            ));
                        }
                        None => break,
                    }
                    expect_punct(&mut inner, ':', out)?;
                }
                write_value(&mut inner, out)?;
            }
            out.push(close);
        }
        TokenTree::Punct(minus) if minus.as_char() == '-' => {
            out.push('-');
            match tokens.next() {
                Some(TokenTree::Literal(number)) if is_number(&number.to_string()) => {
                    out.push_str(&number.to_string());
                }
                _ => return Err((minus.span(), "`-` is only a number's sign".to_owned())),
            }
        }
        TokenTree::Literal(literal) => {
            let text = literal.to_string();
            if !(text.starts_with('"') || is_number(&text)) {
                return Err((
                    literal.span(),
                    "only strings in double quotes and plain numbers are JSON literals".to_owned(),
                ));
            }
            out.push_str(&text);
        }
        TokenTree::Ident(word)
            if ["true", "false", "null"].contains(&word.to_string().as_str()) =>
        {
            out.push_str(&word.to_string());
        }
        other => return Err((other.span(), format!("`{other}` is not JSON"))),
    }
    Ok(())
}

fn expect_punct<I: Iterator<Item = TokenTree>>(
    tokens: &mut Tokens<I>,
    wanted: char,
    out: &mut String,
) -> Result<(), (Span, String)> {
    match tokens.next() {
        Some(TokenTree::Punct(punct)) if punct.as_char() == wanted => {
            out.push(wanted);
            Ok(())
        }
        Some(other) => Err((other.span(), format!("expected `{wanted}` here"))),
        None => Err((Span::call_site(), format!("expected `{wanted}`"))),
    }
}

/// A literal JSON would read as a number: digits, a point, an exponent,
/// no Rust suffix (`3u8`) or underscore.
fn is_number(text: &str) -> bool {
    !text.is_empty()
        && text
            .chars()
            .next()
            .is_some_and(|first| first.is_ascii_digit())
        && text
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | 'e' | 'E' | '+' | '-'))
}
