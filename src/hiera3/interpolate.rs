//! Hiera 3's interpolation (`Hiera::Interpolate`) and the answer walk
//! `Backend.parse_answer`, quirks included:
//!
//! * tokens are `%{...}` (`%\{([^\}]*)\}`); only a stripped expression of
//!   `""`, `::`, `''`, `""`, `'::'` or `"::"` is special (it gives `""`),
//!   otherwise the text is used as it is: `%{ x }` is the variable `" x "`;
//! * methods are `hiera`, `scope`, `literal` and `alias` (matched with
//!   Ruby's line anchors, `^(\w+)\(([^)]*)\)$`); anything else written as a
//!   call is `Invalid interpolation method 'lookup'`; the argument must be
//!   quoted;
//! * the value a variable, `hiera()` or `alias()` gives is interpolated
//!   again by taking its *first* token only and replacing the whole value
//!   with that token's value (`"pre %{y} post"` becomes the value of `y`);
//! * a recursion guard (one per top-level string, shared with the lookups
//!   `hiera()` and `alias()` make) lists the raw expressions being
//!   expanded: `Lookup recursion detected in [hiera('a'), hiera('b')]`. A
//!   `literal()` leaves its expression on the guard (the gem returns from
//!   inside the guarded block), so `%{literal('a')}%{literal('a')}` is a
//!   recursion error and the next expression popped is the wrong one;
//! * a non-String `alias()` result is returned as the whole value if some
//!   *line* of the string is just that token, otherwise it is
//!   `Cannot call alias in the string context`; a String alias result may
//!   be embedded;
//! * other non-String values are embedded with Ruby's `to_s` (`nil` is
//!   `""`, a Hash is `{"k"=>"v"}`);
//! * `parse_answer` keeps Integers, Floats and booleans, interpolates
//!   Strings and Hash keys, walks Arrays and Hashes, and turns anything
//!   else (`nil`, Symbols) into `nil`.

use super::key::{is_index, qualified_lookup, split_key};
use crate::error::{Error, ErrorKind, Result};
use crate::hiera5::interpolate::{ruby_strip, Leaf};
use crate::limits::{self, Limits};
use crate::ruby::to_s as ruby_to_s;
use crate::value::Value;
use regex::Regex;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use std::sync::OnceLock;

/// The interpolation context the gem passes around (`:recurse_guard`,
/// `:order_override`, `:is_interpolate_config`). Clones share the guard.
#[derive(Clone, Debug, Default)]
pub struct Context {
    guard: Option<Rc<RefCell<Vec<String>>>>,
    /// The order_override nested `hiera()`/`alias()` lookups use.
    pub order_override: Option<Value>,
    /// Set while hiera.yaml entries (hierarchy, datadir) are interpolated.
    pub is_interpolate_config: bool,
    /// The work of the interpolations made with this context and its
    /// clones, bounded by the default [`Limits`].
    work: Rc<Work>,
}

/// What the interpolations sharing a [`Context`] have done so far.
#[derive(Debug, Default)]
struct Work {
    /// How deep `hiera()`/`alias()` lookups are nested now.
    depth: Cell<usize>,
    /// The `hiera()`/`alias()` lookups made in all.
    lookups: Cell<usize>,
}

impl Context {
    /// A context without a guard (each string interpolated gets its own).
    pub fn new(order_override: Option<Value>) -> Context {
        Context {
            guard: None,
            order_override,
            is_interpolate_config: false,
            work: Rc::default(),
        }
    }

    /// A context whose recursion guard already holds `seen`: what a host
    /// answering a `hiera()`/`alias()` callback passes back in when it
    /// interpolates the value it found, so that loops across the callback
    /// are still detected (see [`Context::seen`]).
    pub fn with_seen(seen: Vec<String>, order_override: Option<Value>) -> Context {
        Context {
            guard: Some(Rc::new(RefCell::new(seen))),
            order_override,
            is_interpolate_config: false,
            work: Rc::default(),
        }
    }

    /// A context for hiera.yaml entries, with a fresh guard.
    pub fn for_config(order_override: Option<Value>) -> Context {
        Context {
            guard: Some(Rc::default()),
            order_override,
            is_interpolate_config: true,
            work: Rc::default(),
        }
    }

    /// A hiera.yaml context (`@config_lookup_context`) whose guard already
    /// holds `seen`: a host that is itself interpolating a hiera.yaml entry
    /// hands its context in this way.
    pub fn config_with_seen(seen: Vec<String>, order_override: Option<Value>) -> Context {
        Context {
            guard: Some(Rc::new(RefCell::new(seen))),
            order_override,
            is_interpolate_config: true,
            work: Rc::default(),
        }
    }

    /// The expressions the guard holds, outermost first.
    pub fn seen(&self) -> Vec<String> {
        self.guard
            .as_ref()
            .map(|g| g.borrow().clone())
            .unwrap_or_default()
    }

    /// Whether the context has a recursion guard yet.
    pub fn has_guard(&self) -> bool {
        self.guard.is_some()
    }

    /// Replaces what the guard holds (in every clone of this context). A
    /// host that answered a `hiera()`/`alias()` callback with its own copy
    /// of the guard hands back that copy's final state this way: the gem
    /// shares one guard object, and a `literal()` inside the nested lookup
    /// leaves its expression behind on it. Does nothing without a guard.
    pub fn set_seen(&self, seen: Vec<String>) {
        if let Some(g) = &self.guard {
            *g.borrow_mut() = seen;
        }
    }

    /// `context.clone` with `recurse_guard ||= RecursiveGuard.new`.
    fn guarded(&self) -> Context {
        let mut c = self.clone();
        if c.guard.is_none() {
            c.guard = Some(Rc::default());
        }
        c
    }
}

/// Answers the lookups `%{hiera('k')}` and `%{alias('k')}` make: the gem's
/// `Backend.lookup(key, nil, scope, context[:order_override], :priority,
/// context)`. `Ok(None)` is "not found" (the default `nil`).
pub trait Lookup {
    /// Looks `key` up with priority resolution.
    fn lookup(&mut self, key: &str, scope: &Value, context: &Context) -> Result<Option<Value>>;

    /// The scope variable `name` when the host holds the scope itself (the
    /// gem's `scope.include?(name)` and `scope[name]` on a Hash or a
    /// `Hiera::Scope` the host keeps): `Some(Ok(Some(v)))` found,
    /// `Some(Ok(None))` not in the scope. `None` (the default) reads the
    /// variable from the `scope` value passed along.
    fn scope_variable(&mut self, _name: &str) -> Option<Result<Option<Value>>> {
        None
    }
}

/// A [`Lookup`] that finds nothing.
pub struct NoLookup;

impl Lookup for NoLookup {
    fn lookup(&mut self, _: &str, _: &Value, _: &Context) -> Result<Option<Value>> {
        Ok(None)
    }
}

/// A [`Lookup`] made of a closure `(key, context) -> Result<Option<Value>>`.
pub struct FnLookup<F>(pub F);

impl<F: FnMut(&str, &Context) -> Result<Option<Value>>> Lookup for FnLookup<F> {
    fn lookup(&mut self, key: &str, _scope: &Value, context: &Context) -> Result<Option<Value>> {
        (self.0)(key, context)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Method {
    Hiera,
    Scope,
    Literal,
    Alias,
}

fn method_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?m)^([A-Za-z0-9_]+)\(([^)]*)\)$").unwrap())
}

fn quoted_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r#"(?m)^(?:"([^"]+)"|'([^']+)')$"#).unwrap())
}

fn only_interpolation_re() -> &'static Regex {
    static RE: OnceLock<Regex> = OnceLock::new();
    RE.get_or_init(|| Regex::new(r"(?m)^%\{[^}]*\}$").unwrap())
}

const EMPTY_INTERPOLATIONS: [&str; 6] = ["", "::", "\"\"", "''", "\"::\"", "'::'"];

/// The first `%{...}` token of `s`: `(start, end, inner)`.
fn first_token(s: &str) -> Option<(usize, usize, &str)> {
    let start = s.find("%{")?;
    let close = s[start + 2..].find('}')?;
    let end = start + 2 + close + 1;
    Some((start, end, &s[start + 2..end - 1]))
}

fn interpolation_error(message: String) -> Error {
    Error::new(ErrorKind::Interpolation, message)
}

/// `Backend.parse_string` / `Interpolate.interpolate`: interpolates a String
/// value; any other value is returned as it is. The result is a String,
/// except for a whole-string `alias()` of a non-String.
pub fn interpolate(
    data: &Value,
    scope: &Value,
    extra: &Value,
    context: &Context,
    host: &mut dyn Lookup,
) -> Result<Value> {
    let s: std::borrow::Cow<str> = match data {
        Value::String(s) => std::borrow::Cow::Borrowed(s),
        // A binary string is interpolated as text only if it has a token.
        Value::Bytes(b) if b.windows(2).any(|w| w == b"%{") => String::from_utf8_lossy(b),
        other => return Ok(other.clone()),
    };
    let context = context.guarded();
    let mut out = String::with_capacity(s.len());
    let mut pos = 0;
    while let Some((start, end, _)) = first_token(&s[pos..]) {
        let (start, end) = (pos + start, pos + end);
        out.push_str(&s[pos..start]);
        let token = Value::from(&s[start..end]);
        let (value, method) = do_interpolation(&token, scope, extra, &context, host)?;
        if method == Some(Method::Alias) && !matches!(value, Value::String(_)) {
            if only_interpolation_re().is_match(&s) {
                return Ok(value);
            }
            return Err(interpolation_error(
                "Cannot call alias in the string context".into(),
            ));
        }
        ruby_to_s(&value, &mut out);
        Limits::default().check_string_bytes(out.len())?;
        pos = end;
    }
    out.push_str(&s[pos..]);
    Ok(Value::from(out))
}

/// The same as [`interpolate`] (the gem's `Backend.parse_string`).
pub fn parse_string(
    data: &Value,
    scope: &Value,
    extra: &Value,
    context: &Context,
    host: &mut dyn Lookup,
) -> Result<Value> {
    interpolate(data, scope, extra, context, host)
}

/// `Backend.parse_answer`: interpolates every String (and Hash key) in an
/// answer read from a data file.
pub fn parse_answer(
    data: &Value,
    scope: &Value,
    extra: &Value,
    context: &Context,
    host: &mut dyn Lookup,
) -> Result<Value> {
    // Walked without recursion on the native stack: `host` may call back
    // into the host language (see `crate::stack`).
    let rebuilt = crate::hiera5::interpolate::rebuild(data, &mut |v: &Value, key: bool| {
        if key {
            return interpolate(v, scope, extra, context, host).map(Leaf::Replace);
        }
        Ok(match v {
            Value::Int(_) | Value::BigInt(_) | Value::Float(_) | Value::Bool(_) => Leaf::Keep,
            Value::String(_) | Value::Bytes(_) => {
                Leaf::Replace(interpolate(v, scope, extra, context, host)?)
            }
            Value::Hash(_) | Value::Array(_) => Leaf::Descend,
            _ => Leaf::Replace(Value::Nil),
        })
    })?;
    Ok(rebuilt.unwrap_or_else(|| data.clone()))
}

/// One interpolation site: the value of the first token of `data` (or
/// `data` itself when it is not a String with a token).
fn do_interpolation(
    data: &Value,
    scope: &Value,
    extra: &Value,
    context: &Context,
    host: &mut dyn Lookup,
) -> Result<(Value, Option<Method>)> {
    let Value::String(s) = data else {
        return Ok((data.clone(), None));
    };
    let Some((_, _, inner)) = first_token(s) else {
        return Ok((data.clone(), None));
    };
    if EMPTY_INTERPOLATIONS.contains(&ruby_strip(inner)) {
        return Ok((Value::from(""), None));
    }
    let guard = context.guard.clone().unwrap_or_default();
    {
        let mut seen = guard.borrow_mut();
        if seen.iter().any(|x| x == inner) {
            return Err(Error::new(
                ErrorKind::Recursion,
                format!("Lookup recursion detected in [{}]", seen.join(", ")),
            ));
        }
        // The guard also grows across host callbacks (the host hands it
        // back), where the depth below does not follow; `literal()` entries
        // stay on it (the gem's slip), hence the room.
        let depth = Limits::default().lookup_depth;
        if seen.len() >= 8 * depth {
            return Err(limits::exceeded(
                "lookup_depth",
                depth,
                format_args!(
                    "interpolations nested more than {} deep, at '%{{{inner}}}'",
                    8 * depth
                ),
            ));
        }
        seen.push(inner.to_string());
    }
    let (method, key) = method_and_key(inner)?;
    let work = Rc::clone(&context.work);
    let limits = Limits::default();
    limits.check_interpolation_depth(work.depth.get(), format_args!("'%{{{inner}}}'"))?;
    if matches!(method, Method::Hiera | Method::Alias) {
        limits.check_nested_lookups(work.lookups.get(), format_args!("'%{{{inner}}}'"))?;
        crate::stack::check_lookup(key)?;
        work.lookups.set(work.lookups.get() + 1);
    }
    work.depth.set(work.depth.get() + 1);
    let r = (|| {
        let value = interpolation_value(s, method, key, scope, extra, context, host)?;
        if method == Method::Literal {
            // The gem returns from inside the guarded block: no pop.
            return Ok((value, Some(Method::Literal)));
        }
        let (value, _) = do_interpolation(&value, scope, extra, context, host)?;
        guard.borrow_mut().pop();
        Ok((value, Some(method)))
    })();
    work.depth.set(work.depth.get() - 1);
    r
}

/// The value of one `%{...}` site, before it is interpolated in turn.
fn interpolation_value(
    s: &str,
    method: Method,
    key: &str,
    scope: &Value,
    extra: &Value,
    context: &Context,
    host: &mut dyn Lookup,
) -> Result<Value> {
    Ok(match method {
        Method::Scope => scope_interpolate(s, key, scope, extra, host)?,
        Method::Hiera | Method::Alias => host.lookup(key, scope, context)?.unwrap_or(Value::Nil),
        Method::Literal => Value::from(key),
    })
}

fn method_and_key(inner: &str) -> Result<(Method, &str)> {
    let Some(caps) = method_re().captures(inner) else {
        return Ok((Method::Scope, inner));
    };
    let name = caps.get(1).unwrap().as_str();
    let method = match name {
        "hiera" => Method::Hiera,
        "scope" => Method::Scope,
        "literal" => Method::Literal,
        "alias" => Method::Alias,
        _ => {
            return Err(interpolation_error(format!(
                "Invalid interpolation method '{name}'"
            )))
        }
    };
    let arg = caps.get(2).unwrap().as_str();
    let Some(q) = quoted_re().captures(arg) else {
        return Err(interpolation_error(format!(
            "Argument to interpolation method '{name}' must be quoted, got '{arg}'"
        )));
    };
    Ok((method, q.get(1).or_else(|| q.get(2)).unwrap().as_str()))
}

/// A variable from the scope (then from `extra`); `nil` when missing.
/// `data` is the text the token was found in (it names the expression in
/// syntax errors). A host that holds the scope is asked for the variable
/// (the first segment); the rest is dug into its value.
fn scope_interpolate(
    data: &str,
    key: &str,
    scope: &Value,
    extra: &Value,
    host: &mut dyn Lookup,
) -> Result<Value> {
    let segments = split_key(key).ok_or_else(|| {
        interpolation_error(format!("Syntax error in interpolation expression: {data}"))
    })?;
    // A digits-only first segment is an Array index into the scope Hash: a
    // type mismatch whatever the scope holds, as qualified_lookup says.
    let hosted = match segments.first() {
        Some(root) if !is_index(root) => host.scope_variable(root),
        _ => None,
    };
    match hosted {
        Some(found) => {
            if let Some(root) = found? {
                if let Some(v) = qualified_lookup(&segments[1..], &root, Some(key))? {
                    return Ok(v);
                }
            }
        }
        None => {
            if let Some(v) = qualified_lookup(&segments, scope, Some(key))? {
                return Ok(v);
            }
        }
    }
    Ok(qualified_lookup(&segments, extra, Some(key))?.unwrap_or(Value::Nil))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::value::Map;

    fn scope() -> Value {
        let mut m = Map::default();
        for (k, v) in [
            ("a", Value::from("x")),
            ("b", Value::from("%{literal('q')}")),
            ("c", Value::from("pre %{a} post")),
            ("loop", Value::from("%{loop}")),
            ("n", Value::Int(3)),
            ("f", Value::Bool(false)),
        ] {
            m.insert(Value::from(k), v);
        }
        let mut os = Map::default();
        os.insert(Value::from("family"), Value::from("Debian"));
        m.insert(Value::from("os"), Value::hash(os));
        Value::hash(m)
    }

    fn table(key: &str, _: &Context) -> Result<Option<Value>> {
        Ok(match key {
            "arr" => Some(Value::array(vec![Value::from("a"), Value::Int(1)])),
            "str" => Some(Value::from("S")),
            _ => None,
        })
    }

    fn run(s: &str) -> std::result::Result<Value, String> {
        parse_string(
            &Value::from(s),
            &scope(),
            &Value::empty_hash(),
            &Context::default(),
            &mut FnLookup(table),
        )
        .map_err(|e| e.message)
    }

    fn text(s: &str) -> String {
        match run(s) {
            Ok(Value::String(s)) => s.to_string(),
            other => panic!("{s}: {other:?}"),
        }
    }

    #[test]
    fn variables_and_methods() {
        assert_eq!(
            text("%{a}-%{scope('a')}-%{os.family}-%{n}-%{f}-%{nope}"),
            "x-x-Debian-3-false-"
        );
        assert_eq!(text("%{ a }|%{}|%{::}|%{'::'}|%{::a}"), "||||");
        assert_eq!(text("%{literal('%')}{a}"), "%{a}");
        assert_eq!(text("<%{hiera('arr')}>"), "<[\"a\", 1]>");
        assert_eq!(text("[%{c}]"), "[x]");
        assert_eq!(text("%{alias('str')} too"), "S too");
    }

    #[test]
    fn alias_keeps_the_type_only_as_a_whole_line() {
        assert_eq!(
            run("%{alias('arr')}").unwrap(),
            Value::array(vec![Value::from("a"), Value::Int(1)])
        );
        assert_eq!(
            run("x\n%{alias('arr')}").unwrap(),
            Value::array(vec![Value::from("a"), Value::Int(1)])
        );
        assert_eq!(run("%{alias('nope')}").unwrap(), Value::Nil);
        assert_eq!(
            run("x %{alias('arr')}").unwrap_err(),
            "Cannot call alias in the string context"
        );
    }

    #[test]
    fn errors() {
        assert_eq!(
            run("%{lookup('a')}").unwrap_err(),
            "Invalid interpolation method 'lookup'"
        );
        assert_eq!(
            run("%{hiera(a)}").unwrap_err(),
            "Argument to interpolation method 'hiera' must be quoted, got 'a'"
        );
        assert_eq!(
            run("x%{a..b}").unwrap_err(),
            "Syntax error in interpolation expression: %{a..b}"
        );
        assert_eq!(
            run("%{loop}").unwrap_err(),
            "Lookup recursion detected in [loop]"
        );
        assert_eq!(
            run("%{literal('a')}%{literal('a')}").unwrap_err(),
            "Lookup recursion detected in [literal('a')]"
        );
        assert_eq!(
            run("%{b}%{b}").unwrap_err(),
            "Lookup recursion detected in [b]"
        );
        assert_eq!(text("%{a}%{a}"), "xx");
        assert_eq!(
            run("%{1}").unwrap_err(),
            "Hiera type mismatch: Got Hash when Array was expected to access value using '1' from key '1'"
        );
    }

    #[test]
    fn parse_answer_walks_values() {
        let mut h = Map::default();
        h.insert(
            Value::from("%{a}"),
            Value::array(vec![
                Value::from("%{a}"),
                Value::Symbol("s".into()),
                Value::Nil,
            ]),
        );
        h.insert(Value::Symbol("k".into()), Value::Float(1.5));
        let got = parse_answer(
            &Value::hash(h),
            &scope(),
            &Value::empty_hash(),
            &Context::default(),
            &mut NoLookup,
        )
        .unwrap();
        let mut want = Map::default();
        want.insert(
            Value::from("x"),
            Value::array(vec![Value::from("x"), Value::Nil, Value::Nil]),
        );
        want.insert(Value::Symbol("k".into()), Value::Float(1.5));
        assert_eq!(got, Value::hash(want));
    }
}
