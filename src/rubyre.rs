//! Ruby regular expressions (lookup_options pattern keys) compiled with the
//! `regex` crate. The common syntax is shared; Ruby-only escapes are
//! translated, and what Rust cannot express is reported as an error.

use crate::error::{Error, ErrorKind, Result};
use regex::Regex;
use std::sync::OnceLock;

/// Compiles the Ruby regexp source `src` (as Ruby's `Regexp.compile` would).
pub fn compile(src: &str) -> Result<Regex> {
    // Ruby's ^ and $ match at line boundaries.
    Regex::new(&format!("(?m){}", translate(src))).map_err(|e| syntax_error(e, src))
}

/// `src` with Ruby-only escapes translated to the regex crate's syntax.
fn translate(src: &str) -> String {
    let mut out = String::with_capacity(src.len() + 8);
    let mut chars = src.chars().peekable();
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                Some('h') => out.push_str("[0-9a-fA-F]"),
                Some('H') => out.push_str("[^0-9a-fA-F]"),
                Some('Z') => out.push_str(r"(?:\n?\z)"),
                Some(n) => {
                    out.push('\\');
                    out.push(n);
                }
                None => out.push('\\'),
            }
        } else {
            out.push(c);
        }
    }
    out
}

fn syntax_error(e: regex::Error, src: &str) -> Error {
    match e {
        regex::Error::Syntax(s) => syntax_detail_error(&s, src),
        other => Error::new(ErrorKind::Lookup, format!("{other}: /{src}/")),
    }
}

/// The error for the regex crate's syntax error text `text` (the last line
/// of which says what is wrong).
fn syntax_detail_error(text: &str, src: &str) -> Error {
    let detail = text.lines().last().unwrap_or("invalid pattern").trim();
    let detail = onigmo_message(detail).unwrap_or(detail);
    Error::new(ErrorKind::Lookup, format!("{detail}: /{src}/"))
}

/// What Ruby's regexp compiler (Onigmo) says for the syntax errors both
/// compilers find, by the regex crate's wording of them.
fn onigmo_message(detail: &str) -> Option<&'static str> {
    const MESSAGES: &[(&str, &str)] = &[
        ("unclosed character class", "premature end of char-class"),
        ("unclosed group", "end pattern with unmatched parenthesis"),
        ("unopened group", "unmatched close parenthesis"),
        ("incomplete escape sequence", "too short escape sequence"),
        ("invalid character class range", "empty range in char class"),
        (
            "invalid repetition count range",
            "upper is smaller than lower in repeat range",
        ),
    ];
    let detail = detail.strip_prefix("error: ").unwrap_or(detail);
    MESSAGES
        .iter()
        .find(|(rust, _)| detail.starts_with(rust))
        .map(|(_, ruby)| *ruby)
}

/// A compiled lookup_options pattern, matched as Ruby's `=~` matches it.
///
/// Ruby's `^` and `$` match at line boundaries; for the usual subject, a
/// key without a newline, they are the start and end of the text, so that
/// subject is matched with a single-line form of the regexp, which the
/// regex engine runs anchored when the pattern starts with `^`, and a
/// literal prefix or suffix refuses most keys before any regexp runs.
///
/// Both forms are compiled the first time a subject needs them: most keys
/// are refused by the literal prefix or suffix, so most patterns never run
/// (compiling one took more than half a million instructions, a seventh of
/// a first compile). The syntax is checked at once, so a bad pattern fails
/// where it always did; a pattern that only fails to compile (one over the
/// regex crate's size limits) fails the lookups that reach it. A pattern of
/// literal text around at most one `.*` (`Literal`, most real ones) is
/// neither parsed nor compiled for such subjects: it is a comparison.
#[derive(Debug)]
pub struct Pattern {
    /// The Ruby source, for error messages.
    source: Box<str>,
    /// The translated source.
    translated: Box<str>,
    single_line: OnceLock<std::result::Result<Regex, Error>>,
    multi_line: OnceLock<std::result::Result<Regex, Error>>,
    prefix: Option<Box<str>>,
    /// Empty: no suffix is required.
    suffixes: Box<[Box<str>]>,
    /// The pattern's answer for a subject without a newline, when the
    /// pattern is one of the literal shapes [`Literal`] reads: then no
    /// regexp is parsed or compiled for such subjects.
    literal: Option<Literal>,
}

/// A pattern made of literal text around at most one `.*`, the shape most
/// lookup_options patterns have (`^ntp::.*::(packages|servers)$`,
/// `^profile::`, `^.*::labels$`, `^apache::port$`): `^`, a literal run
/// (the prefix), optionally `.*`, then a literal run optionally followed by
/// a group of literal alternatives (the tails), then `$` or the end of the
/// pattern. For a subject without a newline Ruby's `^` and `$` are its
/// start and end and `.` is any character, so a match is a comparison of
/// the subject's start and end with the literals. Anything else (a
/// quantifier, a class, an escape, an option) is not this shape.
#[derive(Debug)]
struct Literal {
    prefix: Box<str>,
    /// Whether a `.*` follows the prefix.
    any_between: bool,
    /// The texts one of which follows (the `.*` or the prefix): one empty
    /// text when nothing does.
    tails: Box<[Box<str>]>,
    /// Whether the pattern ends with `$` (else it matches a subject's start).
    anchored_end: bool,
}

/// Patterns longer than this are left to the regexp, whose compile-size
/// limit they might reach (a shortcut must fail where the regexp fails).
const LITERAL_MAX: usize = 1024;

impl Literal {
    /// `src`'s literal shape, if it has one.
    fn of(src: &str) -> Option<Literal> {
        if src.len() > LITERAL_MAX {
            return None;
        }
        let rest = src.strip_prefix('^')?;
        let run = |s: &str| s.find(|c| !is_literal(c)).unwrap_or(s.len());
        let (prefix, rest) = rest.split_at(run(rest));
        let (any_between, rest) = match rest.strip_prefix(".*") {
            Some(r) => (true, r),
            None => (false, rest),
        };
        let (lead, rest) = rest.split_at(run(rest));
        let (body, anchored_end) = match rest.strip_suffix('$') {
            Some(b) => (b, true),
            None => (rest, false),
        };
        let tails: Vec<Box<str>> = if body.is_empty() {
            vec![lead.into()]
        } else {
            literal_group(body)?
                .into_iter()
                .map(|a| format!("{lead}{a}").into_boxed_str())
                .collect()
        };
        // `^p.*t` without `$` would be a search for `t` after `p`: not a
        // comparison; `^p.*` alone is `^p`.
        if any_between && !anchored_end && tails.iter().any(|t| !t.is_empty()) {
            return None;
        }
        Some(Literal {
            prefix: prefix.into(),
            any_between,
            tails: tails.into_boxed_slice(),
            anchored_end,
        })
    }

    /// Whether the pattern matches `subject`, which has no newline.
    fn is_match(&self, subject: &str) -> bool {
        let Some(after) = subject.strip_prefix(&*self.prefix) else {
            return false;
        };
        self.tails
            .iter()
            .any(|t| match (self.any_between, self.anchored_end) {
                (false, true) => after == &**t,
                (false, false) => after.starts_with(&**t),
                (true, true) => after.ends_with(&**t),
                (true, false) => true,
            })
    }
}

impl Pattern {
    /// Checks the Ruby regexp source `src` (errors as [`compile`]'s, but for
    /// those of compiling, which come when the pattern first runs).
    pub fn new(src: &str) -> Result<Pattern> {
        let translated = translate(src);
        let literal = Literal::of(src);
        // What `Regex::new` checks before it compiles (its parser, with its
        // default settings); the multi-line form only adds the `m` flag. A
        // literal shape is literal text, `^`, `.*`, a group and `$`: always
        // valid, so the check is skipped for it.
        if literal.is_none() {
            regex_syntax::Parser::new()
                .parse(&translated)
                .map_err(|e| syntax_detail_error(&e.to_string(), src))?;
        }
        Ok(Pattern {
            literal,
            source: src.into(),
            translated: translated.into_boxed_str(),
            single_line: OnceLock::new(),
            multi_line: OnceLock::new(),
            prefix: literal_prefix(src).map(String::into_boxed_str),
            suffixes: literal_suffixes(src)
                .unwrap_or_default()
                .into_iter()
                .map(String::into_boxed_str)
                .collect(),
        })
    }

    /// The literal texts one of which every match of a subject without a
    /// newline ends with (empty: no such suffix is known).
    pub fn suffixes(&self) -> &[Box<str>] {
        &self.suffixes
    }

    /// Whether the pattern matches somewhere in `subject`.
    pub fn is_match(&self, subject: &str) -> Result<bool> {
        self.is_match_lines(subject, subject.as_bytes().contains(&b'\n'))
    }

    /// [`Pattern::is_match`] for a subject already known to contain a
    /// newline or not (when one subject is given to several patterns).
    pub fn is_match_lines(&self, subject: &str, has_newline: bool) -> Result<bool> {
        if has_newline {
            let multi_line = self
                .multi_line
                .get_or_init(|| self.compiled(&format!("(?m){}", self.translated)));
            return multi_line
                .as_ref()
                .map(|re| re.is_match(subject))
                .map_err(Clone::clone);
        }
        if let Some(literal) = &self.literal {
            return Ok(literal.is_match(subject));
        }
        if self
            .prefix
            .as_deref()
            .is_some_and(|p| !subject.starts_with(p))
            || (!self.suffixes.is_empty() && !self.suffixes.iter().any(|p| subject.ends_with(&**p)))
        {
            return Ok(false);
        }
        let single_line = self
            .single_line
            .get_or_init(|| self.compiled(&self.translated));
        single_line
            .as_ref()
            .map(|re| re.is_match(subject))
            .map_err(Clone::clone)
    }

    fn compiled(&self, translated: &str) -> std::result::Result<Regex, Error> {
        Regex::new(translated).map_err(|e| syntax_error(e, &self.source))
    }
}

/// The literal text every match of `src` must start with when it is
/// anchored at the start (`^lit...`), for a quick refusal of the keys that
/// cannot match. Ruby's `^` also matches after a newline, so a subject that
/// contains one must still be given to the regexp (see [`Pattern`]).
///
/// `None` when there is no such prefix: no leading `^`, an alternation at
/// the top level (`^a|b`), or no literal character first.
pub fn literal_prefix(src: &str) -> Option<String> {
    let rest = src.strip_prefix('^')?;
    if has_top_level_alternation(rest) {
        return None;
    }
    let mut prefix = String::new();
    let mut chars = rest.chars().peekable();
    while let Some(&c) = chars.peek() {
        if !(c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '-') {
            break;
        }
        chars.next();
        prefix.push(c);
    }
    // A quantifier that allows zero makes the last character optional.
    if matches!(chars.peek(), Some('?' | '*' | '{')) {
        prefix.pop();
    }
    (!prefix.is_empty()).then_some(prefix)
}

/// The literal texts one of which every match of `src` must end with when
/// it is anchored at the end (`...lit$`, or `...lit(a|b)$`), for subjects
/// without a newline (where Ruby's `$` is the end of the text). `None` when
/// there is no such suffix, and when an inline option group turns on
/// case-insensitive or extended matching (`(?i)`, `(?x:...)`): after it the
/// pattern's text is no longer the text a match ends with (Ruby matches
/// `^(?i)a::settings$` against `a::SETTINGS`, and `(?x)` makes `# ...` a
/// comment).
pub fn literal_suffixes(src: &str) -> Option<Vec<String>> {
    if has_top_level_alternation(src) || turns_on_case_or_extended(src) {
        return None;
    }
    let mut run = String::new();
    let mut chars = src.char_indices().peekable();
    let mut in_class = false;
    while let Some((at, c)) = chars.next() {
        if in_class {
            match c {
                '\\' => {
                    chars.next();
                }
                ']' => in_class = false,
                _ => {}
            }
            continue;
        }
        match c {
            '$' if chars.peek().is_none() => return (!run.is_empty()).then(|| vec![run]),
            c if is_literal(c) => run.push(c),
            '(' => {
                if let Some(alternatives) = trailing_literal_group(&src[at..]) {
                    return Some(
                        alternatives
                            .into_iter()
                            .map(|a| format!("{run}{a}"))
                            .collect(),
                    );
                }
                run.clear();
            }
            '\\' => {
                chars.next();
                run.clear();
            }
            '[' => {
                in_class = true;
                run.clear();
            }
            // Quantifiers, groups, anchors and any other syntax end a run.
            _ => run.clear(),
        }
    }
    None
}

/// The alternatives of a group of literals that ends the pattern:
/// `(a|b)$` or `(?:a|b)$`.
fn trailing_literal_group(rest: &str) -> Option<Vec<&str>> {
    literal_group(rest.strip_suffix('$')?)
}

/// The alternatives of `group`, when it is exactly a group of non-empty
/// literal texts: `(a|b)` or `(?:a|b)`.
fn literal_group(group: &str) -> Option<Vec<&str>> {
    let inner = group.strip_prefix('(')?.strip_suffix(')')?;
    let inner = inner.strip_prefix("?:").unwrap_or(inner);
    let alternatives: Vec<&str> = inner.split('|').collect();
    alternatives
        .iter()
        .all(|a| !a.is_empty() && a.chars().all(is_literal))
        .then_some(alternatives)
}

fn is_literal(c: char) -> bool {
    c.is_ascii_alphanumeric() || c == '_' || c == ':' || c == '-'
}

/// Whether `src` has an inline option group (`(?imx-imx)` or
/// `(?imx-imx:...)`) that turns on `i` or `x`. Conservative: a `(?` inside
/// a character class counts too (a suffix refused is only a missed
/// shortcut).
fn turns_on_case_or_extended(src: &str) -> bool {
    let bytes = src.as_bytes();
    let mut at = 0;
    while let Some(found) = src[at..].find("(?") {
        let flags_at = at + found + 2;
        let on = bytes[flags_at..]
            .iter()
            .take_while(|b| b.is_ascii_alphabetic())
            .any(|b| matches!(b, b'i' | b'x'));
        if on {
            return true;
        }
        at = flags_at;
    }
    false
}

/// Whether `src` has a `|` outside groups and character classes.
fn has_top_level_alternation(src: &str) -> bool {
    let (mut depth, mut in_class, mut escaped) = (0usize, false, false);
    for c in src.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' => escaped = true,
            '[' if !in_class => in_class = true,
            ']' if in_class => in_class = false,
            _ if in_class => {}
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            '|' if depth == 0 => return true,
            _ => {}
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn literal_prefixes() {
        assert_eq!(
            literal_prefix("^profile::.*::settings$").as_deref(),
            Some("profile::")
        );
        assert_eq!(
            literal_prefix("^ntp::.*::(packages|servers)$").as_deref(),
            Some("ntp::")
        );
        assert_eq!(literal_prefix("^site::.*_list$").as_deref(), Some("site::"));
        assert_eq!(literal_prefix("^abc?d").as_deref(), Some("ab"));
        assert_eq!(literal_prefix("^ab*").as_deref(), Some("a"));
        assert_eq!(literal_prefix("^a{0,2}"), None);
        assert_eq!(literal_prefix("^ab+").as_deref(), Some("ab"));
        assert_eq!(literal_prefix("^a|b"), None);
        assert_eq!(literal_prefix("^a[|]b").as_deref(), Some("a"));
        assert_eq!(literal_prefix("^a\\|b").as_deref(), Some("a"));
        assert_eq!(literal_prefix("^(?i)abc"), None);
        assert_eq!(literal_prefix("profile::.*"), None);
        assert_eq!(literal_prefix("^.*x"), None);
        let sfx = |src: &str| literal_suffixes(src).map(|v| v.join(","));
        assert_eq!(sfx("^.*::labels$").as_deref(), Some("::labels"));
        assert_eq!(
            sfx("^profile::.*::settings$").as_deref(),
            Some("::settings")
        );
        assert_eq!(
            sfx("^ntp::.*::(packages|servers)$").as_deref(),
            Some("::packages,::servers")
        );
        assert_eq!(
            sfx("^ntp::.*::(?:packages|servers)$").as_deref(),
            Some("::packages,::servers")
        );
        assert_eq!(sfx("^ntp::.*(packages|.ervers)$"), None);
        assert_eq!(sfx("^ntp::.*(packages|)$"), None);
        assert_eq!(sfx("^ntp::.*(a|b)+$"), None);
        assert_eq!(sfx("ab+$"), None);
        assert_eq!(sfx("a\\d$"), None);
        assert_eq!(sfx("a\\$"), None);
        assert_eq!(sfx("[a$]x$").as_deref(), Some("x"));
        assert_eq!(sfx("a|b$"), None);
        assert_eq!(sfx("abc"), None);
        // Case-insensitive or extended from an inline option on: no suffix.
        assert_eq!(sfx("^(?i)profile::.*::settings$"), None);
        assert_eq!(sfx("^profile::(?i:x)::settings$"), None);
        assert_eq!(sfx("^(?mi)a$"), None);
        assert_eq!(sfx("^(?x)foo # c$"), None);
        assert_eq!(sfx("^(?m-i)a::b$").as_deref(), Some("a::b"));
        assert_eq!(sfx("^(?:a)::b$").as_deref(), Some("::b"));
    }

    #[test]
    fn patterns_match_as_ruby_regexps() {
        // A Pattern answers what the multi-line regexp answers, with and
        // without newlines in the subject.
        let cases = [
            ("^profile::.*::settings$", "profile::web::settings", true),
            ("^profile::.*::settings$", "x\nprofile::web::settings", true),
            ("^profile::.*::settings$", "profile::web::settings\nx", true),
            ("^profile::.*::settings$", "apache::port", false),
            ("^profile::.*::settings$", "xprofile::web::settings", false),
            ("settings$", "a::settings", true),
            ("settings\\Z", "a::settings", true),
            ("^abc?d", "abd", true),
            ("^ab*", "a", true),
            ("^a[|]b", "a|b", true),
            ("^a\\|b", "a|b", true),
            ("^a|b", "xb", true),
            (
                "^ntp::.*::(packages|servers)$",
                "ntp::config::servers",
                true,
            ),
            (
                "^ntp::.*::(packages|servers)$",
                "ntp::config::server",
                false,
            ),
            ("^a\\h+$", "a0f", true),
            ("^.*::labels$", "ntp::labels", true),
            ("^.*::labels$", "ntp::labels::x", false),
            ("^.*::labels$", "ntp::x\nntp::labels", true),
            ("ab+$", "xabbb", true),
            ("[a$]x$", "$x", true),
            ("^ntp::.*::(packages|servers)$", "ntp::x::packages", true),
            ("^ntp::.*::(packages|servers)$", "ntp::x::packagez", false),
            ("^ntp::.*::(?:packages|servers)$", "ntp::x::servers", true),
            ("^ntp::.*(a|b)+$", "ntp::xab", true),
            (
                "^(?i)profile::.*::settings$",
                "profile::web::SETTINGS",
                true,
            ),
            (
                "^profile::.*::(?i)settings$",
                "profile::web::Settings",
                true,
            ),
            ("^(?x)foo # c$", "foo", true),
            ("^(?x)foo # c$", "foo # c", true),
            ("^(?x)foo # c$", "fo", false),
        ];
        for (src, subject, expected) in cases {
            let p = Pattern::new(src).unwrap();
            assert_eq!(
                compile(src).unwrap().is_match(subject),
                expected,
                "{src} {subject:?}"
            );
            assert_eq!(p.is_match(subject).unwrap(), expected, "{src} {subject:?}");
        }
        assert!(Pattern::new("^[a-z").is_err());
    }

    /// `Pattern::new` refuses what `Regex::new` refuses, with the same
    /// message; what only fails to compile fails when the pattern runs.
    #[test]
    fn patterns_are_checked_as_regex_checks_them() {
        let sources = [
            "^[a-z",
            "^[z-a]$",
            "a{2,1}",
            "x**",
            "(?<name>x)y",
            "(?P<n>x)(?P<n>y)",
            "(?=x)",
            "(?<!x)y",
            "\\1",
            "\\p{Foo}",
            "(?i)abc",
            "a\\Z",
            "\\h+",
            "(",
            ")",
            "[[:alpha:]]+",
            "[[:foo:]]",
            "\\",
            "a{,5}",
            "\\K",
            "é+",
            "(?x) a b",
            "^ntp::.*::(packages|servers)$",
        ];
        for src in sources {
            let eager = Regex::new(&translate(src))
                .map(|_| ())
                .map_err(|e| syntax_error(e, src).message);
            let checked = Pattern::new(src).map(|_| ()).map_err(|e| e.message);
            assert_eq!(checked, eager, "{src}");
        }
        let huge = Pattern::new("^ab{1000}{1000}$").expect("the syntax is fine");
        assert!(
            !huge.is_match("x").unwrap(),
            "refused by its literal prefix without compiling"
        );
        let e = huge.is_match("ab").unwrap_err();
        assert!(e.message.contains("size limit"), "{}", e.message);
        assert!(huge
            .is_match("x\na")
            .unwrap_err()
            .message
            .contains("size limit"));
    }

    /// A pattern of a literal shape answers what its regexp answers, for
    /// generated patterns of that shape and near it (which must not take
    /// the shortcut wrongly) and subjects made of the patterns' pieces.
    #[test]
    fn literal_shapes_match_as_their_regexps() {
        let mut rnd = crate::map::tests::below(0x11e7);
        let words = ["ntp", "a", "::", "servers", "x-y", "_", "é", "1", "ab", "b"];
        let syntax = [
            "",
            "",
            "",
            ".*",
            ".*",
            "(a|b)",
            "(?:servers|x-y)",
            "(ab)",
            "$",
            "$",
            "b?",
            "[ab]",
            "\\d",
            ".",
            "(?i)",
            "(|a)",
            "+",
            ")",
            "(a|.)",
            ".*.*",
        ];
        let pick = |xs: &[&'static str], rnd: &mut dyn FnMut(u64) -> u64| {
            xs[rnd(xs.len() as u64) as usize]
        };
        let (mut shaped, mut checked) = (0, 0);
        for _ in 0..4_000 {
            let mut src = String::from(if rnd(10) == 0 { "" } else { "^" });
            for _ in 0..1 + rnd(5) {
                let from: &[&str] = if rnd(3) == 0 { &syntax } else { &words };
                src.push_str(pick(from, &mut rnd));
            }
            let Ok(re) = compile(&src) else {
                continue;
            };
            let pattern = Pattern::new(&src).expect("compile() took it");
            shaped += usize::from(pattern.literal.is_some());
            for _ in 0..20 {
                let mut subject = String::new();
                for _ in 0..rnd(6) {
                    subject.push_str(pick(&words, &mut rnd));
                }
                assert_eq!(
                    pattern.is_match(&subject).unwrap(),
                    re.is_match(&subject),
                    "{src:?} on {subject:?}"
                );
                checked += 1;
            }
        }
        assert!(
            shaped > 500 && checked > 20_000,
            "{shaped} shaped, {checked}"
        );
        let shape = |src: &str| Literal::of(src).is_some();
        for src in [
            "^ntp::.*::(packages|servers)$",
            "^profile::",
            "^.*::labels$",
            "^apache::port$",
            "^a(?:b|c)",
            "^",
            "^$",
            "^.*",
        ] {
            assert!(shape(src), "{src}");
        }
        for src in [
            "ntp::",
            "^a.*b",
            "^a(b|c)d$",
            "^a(b|)$",
            "^a(?i:b)$",
            "^a.*.*b$",
            "^ab?$",
            "^a\\.b$",
            "^[a]$",
            "^a|b$",
        ] {
            assert!(!shape(src), "{src}");
        }
        assert!(!shape(&format!("^{}$", "a".repeat(LITERAL_MAX))));
    }

    #[test]
    fn compiles_ruby_syntax() {
        assert!(compile(r"^profile::(.*)::users$")
            .unwrap()
            .is_match("profile::web::users"));
        assert!(compile(r"^a\h+$").unwrap().is_match("a0f"));
        assert!(compile("^[a-z").is_err());
    }
}

#[cfg(test)]
mod onigmo_message_tests {
    use super::*;

    #[test]
    fn syntax_errors_carry_rubys_wording() {
        for (src, want) in [
            ("^[", "premature end of char-class: /^[/"),
            ("^(a", "end pattern with unmatched parenthesis: /^(a/"),
            ("^a)", "unmatched close parenthesis: /^a)/"),
            ("^[z-a]", "empty range in char class: /^[z-a]/"),
        ] {
            assert_eq!(Pattern::new(src).unwrap_err().message, want, "{src}");
            assert_eq!(compile(src).unwrap_err().message, want, "{src}");
        }
    }
}
