//! Where saphyr is stricter than libyaml: the edits that let saphyr read
//! what libyaml reads (tabs after `:`, flow-context indicators, ...), the
//! bounds on re-parsing, and libyaml's own checks saphyr lacks (control
//! characters, directives).

#[allow(unused_imports)]
use super::{bignum::*, loader::*, scalar::*, *};

/// A private-use character that does not occur in the source.
pub(crate) fn unused_char(chars: &[char], taken: &[(char, char)]) -> char {
    ('\u{f0000}'..='\u{10fffd}')
        .rev()
        .find(|c| !chars.contains(c) && !taken.iter().any(|t| t.0 == *c))
        .unwrap_or('\u{10fffd}')
}

/// Blanks, after char `from`, the tabs that follow a `:` as saphyr rejects
/// them (only tabs, then `-` or a letter or digit), recording where.
pub(crate) fn guess_colon_tabs(
    chars: &mut [char],
    from: usize,
    no_guess: &[usize],
    guesses: &mut Vec<usize>,
) {
    let mut i = from;
    while i + 1 < chars.len() {
        if chars[i] == ':'
            && chars[i + 1] == '\t'
            && i > 0
            && !is_blank(chars[i - 1])
            && !is_break(chars[i - 1])
        {
            let mut j = i + 1;
            while j < chars.len() && chars[j] == '\t' {
                j += 1;
            }
            if j < chars.len()
                && (chars[j] == '-' || chars[j].is_ascii_alphanumeric() || chars[j] == '_')
            {
                for (k, c) in chars.iter_mut().enumerate().take(j).skip(i + 1) {
                    if !no_guess.contains(&k) {
                        *c = ' ';
                        guesses.push(k);
                    }
                }
            }
            i = j;
        } else {
            i += 1;
        }
    }
    guesses.sort_unstable();
}

/// How many times a document may be re-parsed after patching a place where
/// saphyr is stricter than libyaml.
pub(crate) const MAX_RETRIES: usize = 100_000;

/// The characters that all the passes of one load may parse together: a
/// document that needs many repairs is re-parsed once per repair, so a large
/// one gets fewer (a 64 KiB document 128, a 1 MiB one 8, never fewer than
/// 8), and a hostile one ends in "document too complex to parse" within a
/// few seconds instead of minutes or hours (a pass may run at a few MB/s:
/// deep flow collections parse slowly). Repairs that recur through a
/// document, lone dashes and tabs after colons, are made all at once.
pub(crate) const MAX_REPARSED_CHARS: usize = 8 << 20;

/// The most digits of a binary, octal or hexadecimal integer (their
/// conversion to decimal is quadratic); decimal integers have no bound.
pub(crate) const MAX_NONDECIMAL_DIGITS: usize = 100_000;

/// The first character libyaml's reader rejects.
pub(crate) fn control_character(text: &str) -> Option<char> {
    if text
        .bytes()
        .all(|b| matches!(b, b'\t' | b'\n' | b'\r' | 0x20..=0x7e))
    {
        // Plain ASCII, the usual data file: checked a byte at a time.
        return None;
    }
    for c in text.chars() {
        let ok = matches!(c, '\t' | '\n' | '\r' | '\u{20}'..='\u{7e}' | '\u{85}')
            || ('\u{a0}'..='\u{d7ff}').contains(&c)
            || ('\u{e000}'..='\u{fffd}').contains(&c)
            || c >= '\u{10000}';
        if !ok {
            return Some(c);
        }
    }
    None
}

// ---------------------------------------------------------------------------
// Directives (libyaml checks them where saphyr does not)
// ---------------------------------------------------------------------------

pub(crate) fn at_line_col(problem: &str, line: usize, col0: usize) -> YamlError {
    YamlError::new(
        format!("{} at line {} column {}", problem, line, col0 + 1),
        Some(line),
    )
}

/// Checks the directives before the first document as libyaml does: only
/// `%YAML 1.1`/`1.2` and `%TAG` are known, each at most once, and they must
/// be followed by `---`.
pub(crate) fn check_directives(chars: &[char]) -> Result<(), YamlError> {
    let mut i = 0;
    let mut line = 1;
    let mut seen_yaml = false;
    let mut handles: Vec<String> = Vec::new();
    let mut any = false;
    while i < chars.len() {
        let start = i;
        let mut end = i;
        while end < chars.len() && chars[end] != '\n' && chars[end] != '\r' {
            end += 1;
        }
        let l = &chars[start..end];
        let mut next = end;
        if next < chars.len() {
            next += if chars[next] == '\r' && chars.get(next + 1) == Some(&'\n') {
                2
            } else {
                1
            };
        }
        let first = l.iter().position(|c| *c != ' ');
        match first {
            None => {}
            Some(p) if l[p] == '#' => {}
            Some(0) if l[0] == '%' => {
                any = true;
                let name: String = l[1..]
                    .iter()
                    .take_while(|c| c.is_ascii_alphanumeric() || **c == '_' || **c == '-')
                    .collect();
                let after = 1 + name.chars().count();
                if name.is_empty() {
                    return Err(at_line_col(
                        "could not find expected directive name while scanning a directive",
                        line,
                        0,
                    ));
                }
                if after < l.len() && l[after] != ' ' && l[after] != '\t' {
                    return Err(at_line_col(
                        "found unexpected non-alphabetical character while scanning a directive",
                        line,
                        0,
                    ));
                }
                let rest: String = l[after..].iter().collect();
                let rest = match rest.find('#') {
                    Some(h) => rest[..h].to_string(),
                    None => rest,
                };
                let words: Vec<&str> = rest.split([' ', '\t']).filter(|w| !w.is_empty()).collect();
                match name.as_str() {
                    "YAML" => {
                        let version = words.first().copied().unwrap_or("");
                        let (major, minor) = match version.split_once('.') {
                            Some((a, b))
                                if !a.is_empty()
                                    && !b.is_empty()
                                    && a.chars().all(|c| c.is_ascii_digit())
                                    && b.chars().all(|c| c.is_ascii_digit()) =>
                            {
                                (a.parse::<u64>().unwrap_or(u64::MAX), b.parse::<u64>().unwrap_or(u64::MAX))
                            }
                            _ => {
                                return Err(at_line_col(
                                    "did not find expected digit or '.' character while scanning a %YAML directive",
                                    line,
                                    0,
                                ))
                            }
                        };
                        if seen_yaml {
                            return Err(at_line_col("found duplicate %YAML directive", 1, 0));
                        }
                        seen_yaml = true;
                        if major != 1 || (minor != 1 && minor != 2) {
                            return Err(at_line_col("found incompatible YAML document", 1, 0));
                        }
                    }
                    "TAG" => {
                        let handle = words.first().copied().unwrap_or("").to_string();
                        if handles.contains(&handle) {
                            return Err(at_line_col("found duplicate %TAG directive", 1, 0));
                        }
                        handles.push(handle);
                    }
                    _ => {
                        return Err(at_line_col(
                            "found unknown directive name while scanning a directive",
                            line,
                            0,
                        ))
                    }
                }
            }
            Some(_) => {
                let is_doc_start = l.len() >= 3
                    && l[0] == '-'
                    && l[1] == '-'
                    && l[2] == '-'
                    && (l.len() == 3 || l[3] == ' ' || l[3] == '\t');
                if any && !is_doc_start {
                    return Err(at_line_col("did not find expected <document start>", 1, 0));
                }
                return Ok(());
            }
        }
        i = next;
        line += 1;
    }
    if any {
        // libyaml reaches the end of the stream where it wanted `---`.
        return Err(at_line_col("did not find expected <document start>", 1, 0));
    }
    Ok(())
}

// ---------------------------------------------------------------------------
// Patches for places where saphyr is stricter than libyaml
// ---------------------------------------------------------------------------

/// An edit of the source after which saphyr reads it as libyaml would.
pub(crate) enum Fix {
    /// Replace these chars with spaces (tabs after `:`, a comment glued to a
    /// quoted scalar).
    Blank(usize, usize),
    /// Insert spaces at a char index (indentation saphyr wants inside flow
    /// collections and quoted scalars, which libyaml ignores).
    Indent(usize, usize),
    /// Drop everything from here on (content after the root node, which
    /// Psych never reads).
    Truncate(usize),
    /// Stand in for this `-` (a plain scalar for libyaml).
    Dash(usize),
    /// Replace these chars with a null (`~`) padded with spaces (an alias to
    /// an unknown anchor, which saphyr cannot get past but Psych only reports
    /// after parsing the whole document).
    Null(usize, usize),
}

impl Fix {
    pub(crate) fn position(&self) -> usize {
        match *self {
            Fix::Blank(a, _)
            | Fix::Indent(a, _)
            | Fix::Truncate(a)
            | Fix::Null(a, _)
            | Fix::Dash(a) => a,
        }
    }

    pub(crate) fn apply(self, chars: &mut Vec<char>) {
        match self {
            Fix::Blank(a, b) => {
                let b = b.min(chars.len());
                for c in chars[a..b].iter_mut() {
                    *c = ' ';
                }
            }
            Fix::Indent(a, n) => {
                chars.splice(a..a, std::iter::repeat_n(' ', n));
            }
            Fix::Truncate(a) => chars.truncate(a),
            Fix::Dash(_) => {}
            Fix::Null(a, b) => {
                let b = b.min(chars.len());
                for c in chars[a..b].iter_mut() {
                    *c = ' ';
                }
                if a < b {
                    chars[a] = '~';
                }
            }
        }
    }
}

pub(crate) enum Outcome {
    Done(Option<Value>),
    Failed(YamlError),
    /// Patch the source and parse again; the error is reported if the patch
    /// does not move the parse forward. A conversion error found on the way
    /// is carried over to the next parse.
    Retry(Fix, YamlError, Option<Failure>),
}

/// A conversion error and where it happened (line, column): Psych reports
/// the first in document order.
pub(crate) type Failure = ((usize, usize), YamlError);
