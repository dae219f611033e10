//! The `ENC[...]` blocks of a string, found as hiera-eyaml 3.3.0's hiera
//! backend parser finds them, (decoded by [`crate::ruby::base64::unpack_m`]).
//!
//! - A string is "encrypted" (Puppet's `eyaml_lookup_key#encrypted?`,
//!   `/.*ENC\[.*?\]/`) when some line has `ENC[` followed by `]` on the
//!   same line; other strings are never parsed.
//! - A block is `ENC\[(\w+,)?([a-zA-Z0-9+/ =\n]+?)\]` (ASCII `\w`): an
//!   optional encryptor name and comma, then base64 in which spaces and
//!   newlines may appear (a folded YAML block), then `]`. Blocks are found
//!   left to right; the text between them is kept as it is.

/// Whether Puppet's function treats the string as encrypted.
pub(crate) fn encrypted(s: &str) -> bool {
    let b = s.as_bytes();
    let mut from = 0;
    while let Some(i) = memchr::memmem::find(&b[from..], b"ENC[") {
        let start = from + i + 4;
        let line_end = memchr::memchr(b'\n', &b[start..]).map_or(b.len(), |j| start + j);
        if memchr::memchr(b']', &b[start..line_end]).is_some() {
            return true;
        }
        from = from + i + 1;
    }
    false
}

/// One piece of a parsed string.
#[derive(Debug, PartialEq)]
pub(crate) enum Piece<'a> {
    /// Text outside blocks.
    Text(&'a str),
    /// A block: its encryptor name (`None`: the default, PKCS7) and its
    /// base64 text with the whitespace removed.
    Block {
        scheme: Option<&'a str>,
        base64: String,
    },
}

/// The pieces of a string, left to right.
pub(crate) fn parse(s: &str) -> Vec<Piece<'_>> {
    let b = s.as_bytes();
    let mut out = Vec::new();
    let (mut text_from, mut from) = (0, 0);
    while let Some(i) = memchr::memmem::find(&b[from..], b"ENC[") {
        let at = from + i;
        match block_at(b, at + 4) {
            Some((scheme, body, end)) => {
                if at > text_from {
                    out.push(Piece::Text(&s[text_from..at]));
                }
                out.push(Piece::Block {
                    scheme: scheme.map(|(a, z)| &s[a..z]),
                    base64: s[body.0..body.1]
                        .chars()
                        .filter(|c| !c.is_ascii_whitespace())
                        .collect(),
                });
                text_from = end;
                from = end;
            }
            None => from = at + 1,
        }
    }
    if text_from < s.len() {
        out.push(Piece::Text(&s[text_from..]));
    }
    out
}

/// A block's content starting at `i` (just after `ENC[`): the scheme's
/// and body's byte ranges and the index after the closing `]`.
#[allow(clippy::type_complexity)]
fn block_at(b: &[u8], i: usize) -> Option<(Option<(usize, usize)>, (usize, usize), usize)> {
    let body = |from: usize| {
        let end = from
            + b[from..]
                .iter()
                .take_while(|&&c| base64_or_space(c))
                .count();
        (end > from && b.get(end) == Some(&b']')).then_some(((from, end), end + 1))
    };
    let word = b[i..]
        .iter()
        .take_while(|&&c| c.is_ascii_alphanumeric() || c == b'_')
        .count();
    if word > 0 && b.get(i + word) == Some(&b',') {
        if let Some((range, end)) = body(i + word + 1) {
            return Some((Some((i, i + word)), range, end));
        }
    }
    body(i).map(|(range, end)| (None, range, end))
}

/// `[a-zA-Z0-9+/ =\n]`.
fn base64_or_space(c: u8) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, b'+' | b'/' | b' ' | b'=' | b'\n')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn encrypted_needs_the_bracket_on_the_same_line() {
        assert!(encrypted("x ENC[abc] y"));
        assert!(encrypted("a\nENC[]"));
        assert!(!encrypted("ENC[abc\n]"));
        assert!(!encrypted("ENC abc]"));
        assert!(encrypted("ENC[x\nENC[y]"));
    }

    #[test]
    fn blocks_are_found_as_the_ruby_regexp_finds_them() {
        let p = parse("u=ENC[PKCS7,QU JD\n] v=ENC[QUJD]ENC[a,b,c] ENC[_x,QQ]");
        assert_eq!(
            p,
            vec![
                Piece::Text("u="),
                Piece::Block {
                    scheme: Some("PKCS7"),
                    base64: "QUJD".into()
                },
                Piece::Text(" v="),
                Piece::Block {
                    scheme: None,
                    base64: "QUJD".into()
                },
                Piece::Text("ENC[a,b,c] "),
                Piece::Block {
                    scheme: Some("_x"),
                    base64: "QQ".into()
                },
            ]
        );
        // A tab, `!` or an empty body is no block.
        assert_eq!(parse("ENC[P,Q\tQ]"), vec![Piece::Text("ENC[P,Q\tQ]")]);
        assert_eq!(parse("ENC[P,]"), vec![Piece::Text("ENC[P,]")]);
        // Unicode word characters are not `\w`.
        assert_eq!(parse("ENC[é,QQ]"), vec![Piece::Text("ENC[é,QQ]")]);
    }
}
