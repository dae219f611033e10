//! The fast path of [`super::load`]: the usual Hiera data file (block
//! mappings and sequences of one-line plain and quoted scalars, comments,
//! plain ASCII) read straight into values, without saphyr's scanner and
//! parser and without the loader's events.
//!
//! It answers only when it is certain to give what the full loader gives:
//! at anything else (tabs, `\r`, non-ASCII bytes, flow collections, block
//! scalars, anchors, aliases, tags, `?` keys, multi-line or escaped
//! scalars, directives, document markers after the first line, odd
//! indentation, any syntax or conversion error, nesting deeper than
//! [`MAX_FAST_DEPTH`]) it returns `None` and the full loader reads the
//! document, with its exact errors and positions. Scalars are resolved by
//! the same rules ([`resolve_scalar`]) and pairs stored by the same
//! [`insert_pair`], so `<<` keys, repeated keys and key order are Psych's.

use std::borrow::Cow;

use super::loader::{insert_pair, NodeKind};
use super::scalar::tokenize_or_text;
use crate::value::{List, Map, Str, Value};

/// Where the values a document is read into are kept once (the file
/// cache's interner, [`crate::data`]): the fast path builds each String and
/// flat Array in that form as it reads it, instead of building it and
/// leaving the cache's compaction to swap it for the kept one.
pub(crate) trait Intern {
    /// The kept String equal to `s` (kept now if there is none; a string
    /// short enough to be stored in place is returned as it is).
    fn string(&mut self, s: &str) -> Str;
    /// Replaces `a` (its elements kept already) with the kept Array equal
    /// to it, when the interner keeps such an Array.
    fn array(&mut self, a: &mut List);
}

/// How deep the fast path nests collections before leaving the document to
/// the full loader (which has its own, larger limit).
pub(crate) const MAX_FAST_DEPTH: usize = 100;

/// libyaml's limit on an implicit key's length (1,024 characters), kept
/// well below: a longer key goes to the full loader, which words the error.
const MAX_KEY: usize = 1_000;

/// The document's root (a Hash or an Array), or `None` when the full loader
/// must read `text`.
#[cfg(test)]
pub(crate) fn load_simple(text: &str) -> Option<Value> {
    if !plain_ascii(text.as_bytes()) {
        return None;
    }
    load_checked(text, None).map(|(root, _)| root)
}

/// Whether every byte of `b` is a printable ASCII character or `\n` (the
/// fast path's text, with no control character either), checked 64 bytes
/// at a time without a branch per byte.
pub(crate) fn plain_ascii(b: &[u8]) -> bool {
    fn bad(c: u8) -> bool {
        (c < 0x20 && c != b'\n') | (c > 0x7e)
    }
    let mut chunks = b.chunks_exact(64);
    for chunk in &mut chunks {
        if chunk.iter().fold(false, |acc, &c| acc | bad(c)) {
            return false;
        }
    }
    !chunks.remainder().iter().any(|&c| bad(c))
}

/// [`load_simple`] of a text [`plain_ascii`] accepted, building its values
/// through `intern` when given: the root, and whether it is in its final,
/// compacted form already (`intern` given, and no Symbol key met: those are
/// made Strings by the compaction, which must run then).
pub(crate) fn load_checked(text: &str, intern: Option<&mut dyn Intern>) -> Option<(Value, bool)> {
    let b = text.as_bytes();
    let compact = intern.is_some();
    let mut f = Fast {
        text,
        b,
        p: 0,
        bad: false,
        pairs: Vec::new(),
        items: Vec::new(),
        intern,
        symbol_key: false,
    };
    // Comments, then an optional `---` alone on its line.
    if f.skip_lines(false)? == 0 && b[f.p..].starts_with(b"---") && f.blank_or_eol(f.p + 3) {
        let j = f.spaces(f.p + 3);
        if !f.eol_or_comment(j, f.p + 3) {
            return None;
        }
        f.p = f.line_after(j);
    }
    let n = f.next_line()?;
    let i = f.p + n;
    let root = if f.seq_entry(i) {
        f.sequence(n, 1)?
    } else {
        f.mapping(n, i, 1)?
    };
    if f.next_line().is_some() || f.bad {
        return None;
    }
    Some((root, compact && !f.symbol_key))
}

struct Fast<'a, 'i> {
    text: &'a str,
    b: &'a [u8],
    /// The start of the line to read next.
    p: usize,
    /// A document marker was met where content could be: the full loader
    /// decides.
    bad: bool,
    /// The pairs of the mappings being read, innermost last (issue 18: a
    /// mapping's `Map` is made once its pairs are all read, with room for
    /// them exactly, where growing it pair by pair reallocated it and
    /// rehashed its index as it grew, and the compaction shrank it again).
    pairs: Vec<(Value, Value, NodeKind)>,
    /// The entries of the sequences being read, innermost last (each made
    /// a List of its exact size once read, where a `Vec` per sequence grew
    /// entry by entry and was then copied).
    items: Vec<Value>,
    /// Where Strings and flat Arrays are kept once, if anywhere.
    intern: Option<&'i mut dyn Intern>,
    /// A mapping key was a Symbol (the compaction must make it a String).
    symbol_key: bool,
}

/// A scalar read on one line.
struct Scan<'a> {
    text: Cow<'a, str>,
    plain: bool,
    /// Where the line goes on: after the `:` of a key, else at the end of the
    /// scalar (only blanks and a comment may follow).
    end: usize,
    /// A `:` and a blank (or the end of the line) follow: a mapping key.
    key: bool,
}

impl<'a> Fast<'a, '_> {
    fn at(&self, i: usize) -> u8 {
        self.b.get(i).copied().unwrap_or(b'\n')
    }

    /// The first position from `i` whose byte is one `stop` wants, or the
    /// text's end (where [`Self::at`] reads a line end): one tight pass
    /// over a scalar's bytes, where a byte-by-byte `match` cost a first
    /// compile a tenth of its instructions on a large `common.yaml`.
    fn find(&self, i: usize, stop: impl Fn(u8) -> bool) -> usize {
        let rest = self.b.get(i..).unwrap_or_default();
        rest.iter()
            .position(|&c| stop(c))
            .map_or(self.b.len(), |k| i + k)
    }

    /// The end of `b[from..to]` without its trailing blanks.
    fn trim_end(&self, from: usize, mut to: usize) -> usize {
        while to > from && self.b[to - 1] == b' ' {
            to -= 1;
        }
        to
    }

    /// A quoted scalar's text: what escapes built (`owned`) and the rest of
    /// the text up to its closing quote at `end`, or the text itself.
    fn quoted_text(&self, owned: Option<String>, from: usize, end: usize) -> Cow<'a, str> {
        match owned {
            Some(mut s) => {
                s.push_str(&self.text[from..end]);
                Cow::Owned(s)
            }
            None => Cow::Borrowed(&self.text[from..end]),
        }
    }

    fn blank_or_eol(&self, i: usize) -> bool {
        matches!(self.at(i), b' ' | b'\n')
    }

    fn spaces(&self, mut i: usize) -> usize {
        while self.at(i) == b' ' && i < self.b.len() {
            i += 1;
        }
        i
    }

    /// Whether the line ends at `i` (blanks skipped already): its end, or a
    /// comment (a `#` after a blank, or at `i` == `from`'s blank position).
    fn eol_or_comment(&self, i: usize, from: usize) -> bool {
        match self.at(i) {
            b'\n' => true,
            b'#' => i > from || i == 0 || self.b[i - 1] == b' ' || self.b[i - 1] == b'\n',
            _ => false,
        }
    }

    /// The start of the line after the one holding `i`.
    fn line_after(&self, i: usize) -> usize {
        match memchr::memchr(b'\n', &self.b[i.min(self.b.len())..]) {
            Some(k) => i + k + 1,
            None => self.b.len(),
        }
    }

    /// Skips blank and comment lines from `self.p`; the indentation of the
    /// next content line (`self.p` at its start), or `None` at the end.
    fn next_line(&mut self) -> Option<usize> {
        self.skip_lines(true)
    }

    /// [`Self::next_line`]; with `markers`, a document marker (`---` or
    /// `...` at the start of a line) ends the fast path.
    fn skip_lines(&mut self, markers: bool) -> Option<usize> {
        loop {
            let start = self.p;
            if start >= self.b.len() {
                return None;
            }
            let i = self.spaces(start);
            match self.at(i) {
                b'\n' if i >= self.b.len() => {
                    self.p = self.b.len();
                    return None;
                }
                b'\n' | b'#' => self.p = self.line_after(i),
                _ => {
                    if markers
                        && i == start
                        && (self.b[i..].starts_with(b"---") || self.b[i..].starts_with(b"..."))
                        && self.blank_or_eol(i + 3)
                    {
                        self.bad = true;
                        return None;
                    }
                    return Some(i - start);
                }
            }
        }
    }

    /// A `-` block sequence entry indicator at `i`.
    fn seq_entry(&self, i: usize) -> bool {
        self.at(i) == b'-' && i < self.b.len() && self.blank_or_eol(i + 1)
    }

    /// A scalar starting at `i` (not at the end of a line).
    fn scan(&self, i: usize) -> Option<Scan<'a>> {
        let c = self.at(i);
        let (text, plain, after) = match c {
            b'"' => {
                let mut k = i + 1;
                let mut owned: Option<String> = None;
                let mut from = k;
                loop {
                    k = self.find(k, |c| matches!(c, b'"' | b'\\' | b'\n'));
                    match self.at(k) {
                        b'"' => break,
                        b'\\' => {
                            // libyaml's one-character escapes; the others
                            // (`\x`, `\u`, `\N`, ..., a line break) go to
                            // the full loader.
                            let c = match self.at(k + 1) {
                                b'0' => '\0',
                                b'a' => '\x07',
                                b'b' => '\x08',
                                b't' => '\t',
                                b'n' => '\n',
                                b'v' => '\x0b',
                                b'f' => '\x0c',
                                b'r' => '\r',
                                b'e' => '\x1b',
                                b' ' => ' ',
                                b'"' => '"',
                                b'/' => '/',
                                b'\\' => '\\',
                                _ => return None,
                            };
                            let s = owned.get_or_insert_with(String::new);
                            s.push_str(&self.text[from..k]);
                            s.push(c);
                            k += 2;
                            from = k;
                        }
                        _ => return None,
                    }
                }
                (self.quoted_text(owned, from, k), false, k + 1)
            }
            b'\'' => {
                let mut k = i + 1;
                let mut owned: Option<String> = None;
                let mut from = k;
                loop {
                    k = self.find(k, |c| matches!(c, b'\'' | b'\n'));
                    match self.at(k) {
                        b'\'' if self.at(k + 1) == b'\'' && k + 1 < self.b.len() => {
                            owned
                                .get_or_insert_with(String::new)
                                .push_str(&self.text[from..=k]);
                            k += 2;
                            from = k;
                        }
                        b'\'' => break,
                        _ => return None,
                    }
                }
                (self.quoted_text(owned, from, k), false, k + 1)
            }
            _ => {
                let starts = c.is_ascii_alphanumeric()
                    || b"$()+./;<=\\^_~".contains(&c)
                    || (matches!(c, b'-' | b':') && !self.blank_or_eol(i + 1));
                if !starts {
                    return None;
                }
                // To the line's end, a comment (` #`) or a key's `:` (one
                // before a blank or the line's end); the scalar is what
                // comes before, without its trailing blanks.
                let mut k = i;
                loop {
                    k = self.find(k, |c| matches!(c, b':' | b'#' | b'\n'));
                    match self.at(k) {
                        b':' if self.blank_or_eol(k + 1) => {
                            if k - i > MAX_KEY {
                                return None;
                            }
                            return Some(Scan {
                                text: Cow::Borrowed(&self.text[i..self.trim_end(i, k)]),
                                plain: true,
                                end: k + 1,
                                key: true,
                            });
                        }
                        // `b[i]` starts a scalar, so is no `#`: `k > i`.
                        b'#' if self.b[k - 1] == b' ' => break,
                        b'\n' => break,
                        _ => k += 1,
                    }
                }
                let last = self.trim_end(i, k);
                return Some(Scan {
                    text: Cow::Borrowed(&self.text[i..last]),
                    plain: true,
                    end: last,
                    key: false,
                });
            }
        };
        let k = self.spaces(after);
        if self.at(k) == b':' && self.blank_or_eol(k + 1) {
            if k - i > MAX_KEY {
                return None;
            }
            return Some(Scan {
                text,
                plain,
                end: k + 1,
                key: true,
            });
        }
        if !self.eol_or_comment(k, after) {
            return None;
        }
        Some(Scan {
            text,
            plain,
            end: after,
            key: false,
        })
    }

    /// A scalar's value, as [`super::scalar::resolve_scalar`] resolves an
    /// untagged scalar (plain ones by Psych's rules, quoted ones Strings);
    /// a String built through the interner, if any.
    fn resolve(&mut self, s: &Scan<'_>) -> Option<Value> {
        if s.plain {
            if let Some(v) = tokenize_or_text(&s.text).ok()? {
                return Some(v);
            }
        }
        Some(Value::String(match self.intern.as_deref_mut() {
            Some(intern) => intern.string(&s.text),
            None => Str::new(&s.text),
        }))
    }

    /// A block mapping whose keys are at column `ind`, the first at `i`.
    fn mapping(&mut self, ind: usize, mut i: usize, depth: usize) -> Option<Value> {
        if depth > MAX_FAST_DEPTH {
            return None;
        }
        let start = self.pairs.len();
        loop {
            let k = self.scan(i)?;
            if !k.key {
                return None;
            }
            let key = self.resolve(&k)?;
            self.symbol_key |= matches!(key, Value::Symbol(_));
            let j = self.spaces(k.end);
            let (value, kind) = if self.eol_or_comment(j, k.end) {
                self.p = self.line_after(j);
                self.block_value(ind, depth, true)?
            } else {
                if self.seq_entry(j) {
                    return None;
                }
                let v = self.scan(j)?;
                if v.key {
                    return None;
                }
                self.p = self.line_after(v.end);
                (self.resolve(&v)?, NodeKind::Scalar)
            };
            self.pairs.push((key, value, kind));
            match self.next_line() {
                None => break,
                Some(n) if n == ind => {
                    i = self.p + n;
                    if self.seq_entry(i) {
                        return None;
                    }
                }
                Some(n) if n < ind => break,
                Some(_) => return None,
            }
        }
        // In order, as they were read: `insert_pair` gives `<<` Psych's
        // meaning; without one, repeated keys are all `insert` does, and
        // `Map::of_pairs` builds the map in its final form at once.
        if !self.pairs[start..]
            .iter()
            .any(|(key, ..)| key.as_str() == Some("<<"))
        {
            let map = Map::of_pairs(
                self.pairs
                    .drain(start..)
                    .map(|(key, value, _)| (key, value)),
            );
            return Some(Value::hash(map));
        }
        let mut map = Map::with_capacity(self.pairs.len() - start);
        for (key, value, kind) in self.pairs.drain(start..) {
            insert_pair(&mut map, key, false, value, kind);
        }
        map.shrink_to_fit();
        Some(Value::hash(map))
    }

    /// The value of a key or entry whose line ended after its indicator:
    /// the collection on the lines below (more indented, or a sequence at
    /// the key's own column), else null. `self.p` is at the next line.
    fn block_value(&mut self, ind: usize, depth: usize, in_map: bool) -> Option<(Value, NodeKind)> {
        let Some(n) = self.next_line() else {
            return Some((Value::Nil, NodeKind::Scalar));
        };
        let i = self.p + n;
        if n > ind {
            if self.seq_entry(i) {
                Some((self.sequence(n, depth + 1)?, NodeKind::Sequence))
            } else {
                Some((self.mapping(n, i, depth + 1)?, NodeKind::Mapping))
            }
        } else if n == ind && in_map && self.seq_entry(i) {
            Some((self.sequence(n, depth + 1)?, NodeKind::Sequence))
        } else {
            Some((Value::Nil, NodeKind::Scalar))
        }
    }

    /// A block sequence whose `-` are at column `ind`; `self.p` is at the
    /// start of the first entry's line.
    fn sequence(&mut self, ind: usize, depth: usize) -> Option<Value> {
        if depth > MAX_FAST_DEPTH {
            return None;
        }
        let start = self.items.len();
        loop {
            let line = self.p;
            let dash = line + ind;
            let j = self.spaces(dash + 1);
            if self.eol_or_comment(j, dash + 1) {
                self.p = self.line_after(j);
                let v = self.block_value(ind, depth, false)?.0;
                self.items.push(v);
            } else {
                if self.seq_entry(j) {
                    return None;
                }
                let s = self.scan(j)?;
                if s.key {
                    let v = self.mapping(j - line, j, depth + 1)?;
                    self.items.push(v);
                } else {
                    self.p = self.line_after(s.end);
                    let v = self.resolve(&s)?;
                    self.items.push(v);
                }
            }
            match self.next_line() {
                None => break,
                Some(n) if n == ind && self.seq_entry(self.p + n) => {}
                Some(n) if n <= ind => break,
                Some(_) => return None,
            }
        }
        let mut list = List::take_from(&mut self.items, start);
        if let Some(intern) = self.intern.as_deref_mut() {
            intern.array(&mut list);
        }
        Some(Value::Array(list))
    }
}

#[cfg(test)]
mod tests {
    use super::super::load_full;
    use super::*;

    /// The fast path's answer, if any, must be the full loader's, key order
    /// included (a Hash's `==` ignores the order; its `Debug` does not).
    fn same(doc: &str) -> bool {
        let Some(fast) = load_simple(doc) else {
            return false;
        };
        let full = load_full(doc, &Default::default());
        assert_eq!(
            format!("{:?}", Ok::<_, super::super::YamlError>(Some(fast))),
            format!("{full:?}"),
            "fast path and full loader differ on {doc:?}"
        );
        true
    }

    /// Random documents of keys, scalars and sequences made of the bytes
    /// a scalar's scan stops at or looks past (`:`, `#`, blanks, quotes,
    /// escapes, digits): wherever the fast path answers, the full loader
    /// gives the same, and it answers often.
    #[test]
    fn random_scalars_load_as_the_full_loader_loads_them() {
        let mut rnd = crate::map::tests::below(0xfa57);
        let pieces = [
            "a", "b7", "k", ":", "::", ": ", " ", "  ", "#", " #", "# x", "'", "''", "\"", "\\",
            "\\n", "-", "0", "12", "0x1", "1.5", "~", "yes", "on", "null", "x:y", "a#b",
        ];
        let scalar = |rnd: &mut dyn FnMut(u64) -> u64| -> String {
            let mut t: String = (0..1 + rnd(4))
                .map(|_| pieces[rnd(pieces.len() as u64) as usize])
                .collect();
            match rnd(4) {
                0 => t = format!("\"{t}\""),
                1 => t = format!("'{t}'"),
                _ => {}
            }
            t
        };
        let mut answered = 0;
        for _ in 0..20_000 {
            let mut doc = String::new();
            for k in 0..1 + rnd(4) {
                doc.push_str(&format!("k{k}{}:", ["", " ", "  "][rnd(3) as usize]));
                match rnd(3) {
                    0 => {
                        for _ in 0..1 + rnd(3) {
                            doc.push_str(&format!("\n  - {}", scalar(&mut rnd)));
                        }
                    }
                    _ => doc.push_str(&format!(" {}", scalar(&mut rnd))),
                }
                doc.push('\n');
            }
            answered += usize::from(same(&doc));
        }
        assert!(answered > 2_000, "{answered} of 20000 on the fast path");
    }

    #[test]
    fn usual_documents_take_the_fast_path_and_load_alike() {
        let docs = [
            "a: 1\n",
            "---\na: 1\nb: two\n",
            "# head\n\n--- # c\n  a: 1\n  b:\n",
            "a: 'it''s'\nb: \"x y\"\n'c d': e # c\n\"k\"  : v\n",
            "a:\n  b:\n    c: x\n    d: '1'\n  e: 2\n",
            "a:\n- x\n- y\nb:\n  - 1\n  -\n  - z: 1\n    w:\n    - q\n",
            "- a\n- b: 1\n  c: 2\n-\n  d: 3\n- 'e'\n",
            "a: true\nb: no\nc: ~\nd: 1.5\ne: 0x1f\nf: 1_000\ng: :sym\nh: 2001-01-01x\n",
            "a: b#c\nb: x # y\nc: http://e/f?g=h&i\nd: -1\ne: a,b[c]{d}\n",
            "1: a\ntrue: b\n~: c\n<<: d\n",
            "a: 1\na: 2\nb: 3\n",
            "a:\n  b: 1\n# x\n  # y\n  c: 2\nd: 4",
            "::a: 1\n-x: 2\n",
            "a: \"%{x(\\\"y\\\")}: \\\\ \\/ \\t\\n\\0\\e\\ \"\n",
        ];
        for doc in docs {
            assert!(same(doc), "{doc:?} should take the fast path");
        }
    }

    #[test]
    fn anything_unusual_goes_to_the_full_loader() {
        let docs = [
            "",
            "# only a comment\n",
            "---\n",
            "a\n",
            "a:\tb\n",
            "a: b\r\n",
            "a: \u{e9}\n",
            "a: [1, 2]\n",
            "a: {b: 1}\n",
            "a: |\n  x\n",
            "a: &x 1\nb: *x\n",
            "a: !!str 1\n",
            "? a\n: b\n",
            "a: b\n  c\n",
            "a: b: c\n",
            "a: 'x'#c\n",
            "a: \"x\\u00e9y\"\n",
            "a: \"x\\\n  y\"\n",
            "a: 'x\n  y'\n",
            "%YAML 1.1\n---\na: 1\n",
            "a: 1\n---\nb: 2\n",
            "a: 1\n...\n",
            "a: 1\n b: 2\n",
            "a:\n  b: 1\n c: 2\n",
            "- a\n  - b\n",
            "- - a\n",
            "a: - b\n",
            "a: 2001-01-01\n",
            "a: @x\n",
            "a:\n  x\n",
            "a: 1\n- b\n",
        ];
        for doc in docs {
            assert!(
                load_simple(doc).is_none(),
                "{doc:?} should not take the fast path"
            );
        }
        let deep: String = (0..MAX_FAST_DEPTH + 5)
            .map(|d| format!("{}k:\n", " ".repeat(d)))
            .collect();
        assert!(load_simple(&deep).is_none());
    }

    /// Every YAML file of the test trees, and every document of the table
    /// recorded from Psych: where the fast path answers, as the full loader.
    #[test]
    fn test_files_and_the_psych_table_load_alike() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests");
        let texts = crate::yaml::test_yaml_texts();
        let files = texts.len();
        let fast: usize = texts.iter().map(|t| same(t) as usize).sum();
        assert!(files > 1000 && fast > files / 2, "{fast} of {files}");
        let table: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(root.join("psych/cases.json")).unwrap())
                .unwrap();
        let mut n = 0;
        for case in table.as_array().unwrap() {
            n += same(case[0].as_str().unwrap()) as usize;
        }
        assert!(
            n > 50,
            "{n} documents of the Psych table took the fast path"
        );
    }
}
