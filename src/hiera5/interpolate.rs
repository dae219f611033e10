//! Hiera 5 interpolation: `%{var}`, `%{facts.a.b}`, `%{lookup('k')}`,
//! `%{hiera('k')}`, `%{alias('k')}`, `%{literal('x')}`, `%{scope('v')}`.
//!
//! The token grammar and the driver live here; where values come from
//! (scope, nested lookups, recursion guard) is the [`Resolver`]'s business.

use crate::error::{Error, ErrorKind, Result};
use crate::value::{Map, Value};
use regex::Regex;
use std::sync::OnceLock;

/// A parsed `%{...}` expression.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Expr<'a> {
    /// `%{}`, `%{::}`, `%{''}` and friends: the empty string.
    Empty,
    /// `name('arg')`.
    Method(&'a str, &'a str),
    /// A scope expression (`var`, `::var`, `facts.os.family`).
    Scope(&'a str),
}

/// Puppet's pattern of a method call, `^(\w+)\((?:"([^"]+)"|'([^']+)')\)$`
/// (with the `regex` crate's Unicode `\w`): used only for a name that is
/// not ASCII ([`method_call`] reads the others without it).
fn method_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(METHOD_PATTERN).unwrap())
}

const METHOD_PATTERN: &str = r#"^(\w+)\((?:"([^"]+)"|'([^']+)')\)$"#;

/// The name and argument of `name("arg")` or `name('arg')`, as
/// [`METHOD_PATTERN`] matches them, read without compiling it (issue 18:
/// the first interpolation of a process paid for its compilation). A name
/// with bytes beyond ASCII goes to the pattern itself (its `\w` is
/// Unicode's).
fn method_call(expr: &str) -> Option<(&str, &str)> {
    let open = expr.find('(')?;
    let name = &expr[..open];
    if name.is_empty() {
        return None;
    }
    if !name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_') {
        if name.is_ascii() {
            return None;
        }
        let c = method_re().captures(expr)?;
        let name = c.get(1)?.as_str();
        let arg = c.get(2).or_else(|| c.get(3))?.as_str();
        return Some((name, arg));
    }
    // `"arg")` or `'arg')`: the quote, at least one other character, the
    // same quote, `)`, the end.
    let quoted = expr[open + 1..].strip_suffix(')')?;
    let quote = match quoted.as_bytes().first()? {
        q @ (b'"' | b'\'') => *q as char,
        _ => return None,
    };
    let arg = quoted[1..].strip_suffix(quote)?;
    (!arg.is_empty() && !arg.contains(quote)).then_some((name, arg))
}

/// Ruby's `String#strip` (whitespace and NUL).
pub fn ruby_strip(s: &str) -> &str {
    s.trim_matches(|c: char| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r' | '\0'))
}

/// Classifies the text between `%{` and `}` (already stripped).
pub fn parse_expr(expr: &str) -> Expr<'_> {
    if matches!(expr, "" | "::" | "\"\"" | "''" | "\"::\"" | "'::'") {
        return Expr::Empty;
    }
    if expr.ends_with(')') {
        if let Some((name, arg)) = method_call(expr) {
            return Expr::Method(name, arg);
        }
    }
    Expr::Scope(expr)
}

/// Finds the tokens of a string: `(start, end, inner)` for each `%{...}`
/// (regexp `%\{([^\}]*)\}`, left to right, non-overlapping).
pub fn tokens(s: &str) -> Vec<(usize, usize, &str)> {
    let mut out = Vec::new();
    let mut pos = 0;
    while let Some(off) = s[pos..].find("%{") {
        let start = pos + off;
        match s[start + 2..].find('}') {
            Some(close) => {
                let end = start + 2 + close + 1;
                out.push((start, end, &s[start + 2..end - 1]));
                pos = end;
            }
            None => break,
        }
    }
    out
}

/// What interpolation needs from the engine.
pub trait Resolver {
    /// Evaluates a scope expression (`facts.os.family`), including digging;
    /// `subject` is the whole string (for syntax error messages).
    fn scope(&mut self, expr: &str, subject: &str) -> Result<Value>;
    /// A nested lookup (`lookup`/`hiera`/`alias`) with a default of `''`.
    fn lookup(&mut self, key: &str) -> Result<Value>;
    /// Runs `f` with `name` pushed on the recursion guard.
    fn check(
        &mut self,
        name: String,
        f: &mut dyn FnMut(&mut Self) -> Result<Value>,
    ) -> Result<Value>;
    /// An interpolated string has reached `bytes` bytes (`whole`: it is
    /// complete); an error stops the interpolation (a limit).
    fn produced(&mut self, _bytes: usize, _whole: bool) -> Result<()> {
        Ok(())
    }
    /// Interpolation of `subject` begins (for explanations).
    fn enter(&mut self, _subject: &str) {}
    /// Interpolation of the last entered subject ends.
    fn leave(&mut self) {}
}

fn issue(msg: &str) -> Error {
    Error::new(ErrorKind::Interpolation, msg)
}

/// Interpolates a value: strings, array elements, hash keys and values.
pub fn interpolate<R: Resolver>(value: &Value, r: &mut R, allow_methods: bool) -> Result<Value> {
    Ok(interpolate_changed(value, r, allow_methods)?.unwrap_or_else(|| value.clone()))
}

/// [`interpolate`] in one pass: `None` when nothing in `value` has a
/// `%{...}` (the caller keeps the value it has, shared, not copied).
/// Strings, array elements, hash keys and values are interpolated in order.
fn interpolate_changed<R: Resolver>(
    value: &Value,
    r: &mut R,
    allow_methods: bool,
) -> Result<Option<Value>> {
    rebuild(value, &mut |v: &Value, _key: bool| match v {
        Value::String(s) if has_token(s) => {
            interpolate_string(s, r, allow_methods).map(Leaf::Replace)
        }
        Value::Array(_) | Value::Hash(_) => Ok(Leaf::Descend),
        _ => Ok(Leaf::Keep),
    })
}

/// What [`rebuild`] does with one value it meets.
pub(crate) enum Leaf {
    /// Keeps the value as it is.
    Keep,
    /// Puts this value in its place.
    Replace(Value),
    /// Walks into the Array or Hash (anything else is kept).
    Descend,
}

/// One Array or Hash that [`rebuild`] is walking: the next position, and
/// the copy made once something in it changed.
enum Walk<'v> {
    Array {
        src: &'v [Value],
        next: usize,
        out: Option<Vec<Value>>,
    },
    /// `key` holds the replacement of the current entry's key while its
    /// value is walked.
    Hash {
        src: &'v Map,
        next: usize,
        key: Option<Option<Value>>,
        out: Option<Map>,
    },
}

impl<'v> Walk<'v> {
    /// The next value to visit, or `None` when the walk is complete.
    fn next_child(&mut self) -> Option<&'v Value> {
        match self {
            Walk::Array { src, next, .. } => src.get(*next),
            Walk::Hash { src, next, key, .. } => {
                let (k, v) = src.get_index(*next)?;
                Some(if key.is_none() { k } else { v })
            }
        }
    }

    /// Takes the outcome of the child [`Walk::next_child`] gave (`None`:
    /// unchanged) and moves on.
    fn accept(&mut self, changed: Option<Value>) {
        match self {
            Walk::Array { src, next, out } => {
                let i = *next;
                match (changed, out.as_mut()) {
                    (Some(new), Some(o)) => o.push(new),
                    (Some(new), None) => {
                        let mut o = Vec::with_capacity(src.len());
                        o.extend_from_slice(&src[..i]);
                        o.push(new);
                        *out = Some(o);
                    }
                    (None, Some(o)) => o.push(src[i].clone()),
                    (None, None) => {}
                }
                *next += 1;
            }
            Walk::Hash {
                src,
                next,
                key,
                out,
            } => {
                let Some(new_key) = key.take() else {
                    *key = Some(changed);
                    return;
                };
                let i = *next;
                let (k, v) = src.get_index(i).expect("the entry being walked");
                if out.is_none() && (new_key.is_some() || changed.is_some()) {
                    let mut m = Map::with_capacity(src.len());
                    for (pk, pv) in src.iter().take(i) {
                        m.insert(pk.clone(), pv.clone());
                    }
                    *out = Some(m);
                }
                if let Some(m) = out {
                    m.insert(
                        new_key.unwrap_or_else(|| k.clone()),
                        changed.unwrap_or_else(|| v.clone()),
                    );
                }
                *next += 1;
            }
        }
    }

    /// The rebuilt container, or `None` when nothing in it changed.
    fn finish(self) -> Option<Value> {
        match self {
            Walk::Array { out, .. } => out.map(Value::array),
            Walk::Hash { out, .. } => out.map(Value::hash),
        }
    }
}

/// Rebuilds `value` with what `visit` says of each value inside it, in
/// order (array elements; hash keys, each before its value; `visit`'s
/// second argument is `true` for a hash key), sharing what
/// did not change: `None` when nothing changed. The walk keeps its own stack
/// on the heap, so `visit` (which may make nested lookups, and so reach the
/// host) always runs on the thread's own stack, however deep `value` is.
pub(crate) fn rebuild<'v>(
    value: &'v Value,
    visit: &mut dyn FnMut(&Value, bool) -> Result<Leaf>,
) -> Result<Option<Value>> {
    let mut walks: Vec<Walk<'v>> = Vec::new();
    let mut node = value;
    loop {
        // `Some(outcome)` when `node` is done with; `None` when it is being walked.
        let is_key = matches!(walks.last(), Some(Walk::Hash { key: None, .. }));
        let mut done = match visit(node, is_key)? {
            Leaf::Keep => Some(None),
            Leaf::Replace(v) => Some(Some(v)),
            Leaf::Descend => match node {
                Value::Array(a) => {
                    walks.push(Walk::Array {
                        src: a,
                        next: 0,
                        out: None,
                    });
                    None
                }
                Value::Hash(h) => {
                    walks.push(Walk::Hash {
                        src: h,
                        next: 0,
                        key: None,
                        out: None,
                    });
                    None
                }
                _ => Some(None),
            },
        };
        loop {
            if let Some(outcome) = done.take() {
                match walks.last_mut() {
                    Some(parent) => parent.accept(outcome),
                    None => return Ok(outcome),
                }
            }
            let top = walks.last_mut().expect("a walk in progress");
            if let Some(child) = top.next_child() {
                node = child;
                break;
            }
            done = Some(walks.pop().expect("a walk in progress").finish());
        }
    }
}

/// `true` when `s` contains `%{` (a byte scan: cheaper than a substring
/// search for the short strings of Hiera data).
pub fn has_token(s: &str) -> bool {
    s.as_bytes()
        .windows(2)
        .any(|w| w[0] == b'%' && w[1] == b'{')
}

/// `true` when some string inside `v` contains `%{`.
pub fn needs_interpolation(v: &Value) -> bool {
    crate::stack::grow(|| match v {
        Value::String(s) => has_token(s),
        Value::Array(a) => a.iter().any(needs_interpolation),
        Value::Hash(h) => h
            .iter()
            .any(|(k, v)| needs_interpolation(k) || needs_interpolation(v)),
        _ => false,
    })
}

fn interpolate_string<R: Resolver>(subject: &str, r: &mut R, allow_methods: bool) -> Result<Value> {
    let toks = tokens(subject);
    if toks.is_empty() {
        return Ok(Value::string(subject));
    }
    r.enter(subject);
    let result = interpolate_tokens(subject, &toks, r, allow_methods);
    r.leave();
    result
}

fn interpolate_tokens<R: Resolver>(
    subject: &str,
    toks: &[(usize, usize, &str)],
    r: &mut R,
    allow_methods: bool,
) -> Result<Value> {
    let mut out = String::with_capacity(subject.len());
    let mut last = 0;
    for &(start, end, inner) in toks {
        out.push_str(&subject[last..start]);
        last = end;
        let expr = ruby_strip(inner);
        let value = match parse_expr(expr) {
            Expr::Empty => continue,
            Expr::Method(name, arg) => {
                if !allow_methods {
                    return Err(issue(
                        "Interpolation using method syntax is not allowed in this context",
                    ));
                }
                match name {
                    "alias" => {
                        if start != 0 || end != subject.len() {
                            return Err(issue("'alias' interpolation is only permitted if the expression is equal to the entire string"));
                        }
                        return r.lookup(arg);
                    }
                    "lookup" | "hiera" => {
                        let v = r.lookup(arg)?;
                        checked(r, &v, || arg.to_string(), allow_methods)?
                    }
                    "literal" => {
                        let v = Value::string(arg);
                        checked(r, &v, || arg.to_string(), allow_methods)?
                    }
                    "scope" => {
                        let v = r.scope(arg, subject)?;
                        checked(r, &v, || format!("scope:{arg}"), allow_methods)?
                    }
                    other => return Err(issue(&format!("Unknown interpolation method '{other}'"))),
                }
            }
            Expr::Scope(key) => {
                let v = r.scope(key, subject)?;
                checked(r, &v, || format!("scope:{key}"), allow_methods)?
            }
        };
        crate::ruby::to_s(&value, &mut out);
        r.produced(out.len(), false)?;
    }
    out.push_str(&subject[last..]);
    r.produced(out.len(), true)?;
    Ok(Value::from(out))
}

/// A found value interpolated in turn, under the recursion guard `name`.
/// A value without `%{` is its own interpolation and cannot recurse (the
/// guard could only trip while interpolating a value that has tokens), so
/// it is returned as it is.
fn checked<R: Resolver>(
    r: &mut R,
    v: &Value,
    name: impl FnOnce() -> String,
    allow_methods: bool,
) -> Result<Value> {
    if !needs_interpolation(v) {
        return Ok(v.clone());
    }
    r.check(name(), &mut |r| interpolate(v, r, allow_methods))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_scanning() {
        assert_eq!(tokens("a%{x}b%{ y }"), vec![(1, 5, "x"), (6, 12, " y ")]);
        assert_eq!(tokens("[abc %{facts.role]"), vec![]);
        assert_eq!(tokens("[%{a] [%{b}]"), vec![(1, 11, "a] [%{b")]);
        assert_eq!(tokens("%%{x}"), vec![(1, 5, "x")]);
    }

    #[test]
    fn expressions() {
        assert_eq!(parse_expr("lookup('a.b')"), Expr::Method("lookup", "a.b"));
        assert_eq!(parse_expr("hiera(\"x\")"), Expr::Method("hiera", "x"));
        assert_eq!(parse_expr("lookup(base)"), Expr::Scope("lookup(base)"));
        assert_eq!(parse_expr("lookup( 'x' )"), Expr::Scope("lookup( 'x' )"));
        assert_eq!(parse_expr("''"), Expr::Empty);
        assert_eq!(parse_expr("::"), Expr::Empty);
        assert_eq!(parse_expr("facts.os"), Expr::Scope("facts.os"));
    }

    /// The method-call reader agrees with Puppet's pattern on every
    /// expression built from the pieces that matter to it.
    #[test]
    fn method_calls_read_as_the_pattern_reads_them() {
        let re = Regex::new(METHOD_PATTERN).unwrap();
        let names = ["lookup", "a_1", "", "a b", "a.b", "lööp", "x-y", "é", "_"];
        let args = [
            "\"x\"", "'x'", "\"\"", "''", "\"a'b\"", "'a\"b'", "\"a)\"", "'x\"", "x", " 'x' ",
            "\"a\"b\"", "'a''", "\"a\")", "(\"x\")", "\"x\n\"",
        ];
        let tails = [")", "", "))", ")x", ") "];
        for name in names {
            for arg in args {
                for tail in tails {
                    let expr = format!("{name}({arg}{tail}");
                    let want = re.captures(&expr).map(|c| {
                        let arg = c.get(2).or_else(|| c.get(3)).unwrap().as_str();
                        (c.get(1).unwrap().as_str().to_string(), arg.to_string())
                    });
                    let got = method_call(&expr).map(|(n, a)| (n.to_string(), a.to_string()));
                    assert_eq!(got, want, "{expr:?}");
                }
            }
        }
        assert_eq!(method_call("lookup"), None);
        assert_eq!(method_call("(\"x\")"), None);
    }
}
