//! The standalone helpers custom Hiera 3 backends call
//! (`Backend.merge_answer`, `Backend.parse_answer`/`parse_string`,
//! `Backend.datasources`), in Rust and at the JSON level the C ABI wraps.
//!
//! JSON values use the wire format of [`crate::render::to_json`] /
//! [`crate::render::from_json`] (`{"__type__": "Symbol", ...}` and friends
//! for what JSON cannot say).
//!
//! `hiera()` and `alias()` inside interpolated strings are answered by the
//! caller's `lookup` callback, given the key and the interpolation
//! [`Context`]: its `order_override` and its recursion guard
//! ([`Context::seen`]). A host that interpolates the value it finds should
//! pass that context back in (as the gem's own `Backend.lookup` does), so
//! that lookup loops are reported (`Lookup recursion detected in [...]`).
//! The value returned is interpolated once more by the gem's first-token
//! rule, exactly as in the gem.

use super::config::Config;
use super::interpolate::{self, Context, FnLookup, Lookup};
use super::merge::{self, ResolutionType};
use super::sources::{is_bad_source, with_override};
use crate::error::{Error, ErrorKind, Result};
use crate::render::{from_json, to_json};
use crate::value::Value;

/// The callback that answers `hiera('key')` and `alias('key')`:
/// `Ok(None)` is "not found" (the gem's default `nil`).
pub type LookupFn<'a> = dyn FnMut(&str, &Context) -> Result<Option<Value>> + 'a;

/// `Backend.merge_answer(new, old, resolution_type)` without a loaded
/// configuration: a Hash resolution type (`{:behavior => ..., <options>}`)
/// gives the behaviour and options; anything else merges natively, as the
/// gem's default configuration (`:merge_behavior: native`) does.
pub fn merge_answer(new: Value, old: Value, resolution_type: &ResolutionType) -> Result<Value> {
    merge::merge_answer(new, old, resolution_type, &Config::defaults())
}

/// `Backend.merge_answer` with a configuration's `:merge_behavior` and
/// `:deep_merge_options` for non-Hash resolution types.
pub fn merge_answer_with_config(
    new: Value,
    old: Value,
    resolution_type: &ResolutionType,
    config: &Config,
) -> Result<Value> {
    merge::merge_answer(new, old, resolution_type, config)
}

/// `Backend.parse_answer(data, scope, extra_data, context)`.
pub fn parse_answer(
    data: &Value,
    scope: &Value,
    extra_data: &Value,
    context: &Context,
    lookup: &mut LookupFn,
) -> Result<Value> {
    interpolate::parse_answer(data, scope, extra_data, context, &mut FnLookup(lookup))
}

/// `Backend.parse_string(data, scope, extra_data, context)`.
pub fn parse_string(
    data: &Value,
    scope: &Value,
    extra_data: &Value,
    context: &Context,
    lookup: &mut LookupFn,
) -> Result<Value> {
    interpolate::parse_string(data, scope, extra_data, context, &mut FnLookup(lookup))
}

/// `Backend.datasources(scope, order_override, hierarchy)`: `hierarchy`
/// (`None`, `nil` or `false`: `["common"]`) with `order_override` in front, each entry
/// interpolated as a hiera.yaml entry, bad definitions left out.
pub fn datasources(
    hierarchy: Option<&Value>,
    scope: &Value,
    order_override: Option<&Value>,
    lookup: &mut LookupFn,
) -> Result<Vec<Value>> {
    datasources_hosted(hierarchy, scope, order_override, &mut FnLookup(lookup))
}

/// [`datasources`] with a [`Lookup`] host (which may also hold the scope,
/// see [`Lookup::scope_variable`]).
pub fn datasources_hosted(
    hierarchy: Option<&Value>,
    scope: &Value,
    order_override: Option<&Value>,
    host: &mut dyn Lookup,
) -> Result<Vec<Value>> {
    let hierarchy = vec![hierarchy
        .filter(|h| h.is_truthy())
        .cloned()
        .unwrap_or_else(|| Value::from("common"))];
    expand_hosted(hierarchy, scope, order_override, host)
}

/// `Backend.datasources(scope, order_override)` with a configuration's
/// `:hierarchy`.
pub fn datasources_with_config(
    config: &Config,
    scope: &Value,
    order_override: Option<&Value>,
    lookup: &mut LookupFn,
) -> Result<Vec<Value>> {
    expand(config.hierarchy(), scope, order_override, lookup)
}

fn expand(
    hierarchy: Vec<Value>,
    scope: &Value,
    order_override: Option<&Value>,
    lookup: &mut LookupFn,
) -> Result<Vec<Value>> {
    expand_hosted(hierarchy, scope, order_override, &mut FnLookup(lookup))
}

fn expand_hosted(
    hierarchy: Vec<Value>,
    scope: &Value,
    order_override: Option<&Value>,
    host: &mut dyn Lookup,
) -> Result<Vec<Value>> {
    let mut out = Vec::new();
    for entry in with_override(hierarchy, order_override) {
        let ctx = Context::for_config(order_override.cloned());
        let source = interpolate::interpolate(&entry, scope, &Value::empty_hash(), &ctx, host)?;
        if !is_bad_source(&source) {
            out.push(source);
        }
    }
    Ok(out)
}

// ---------------------------------------------------------------------------
// JSON level

fn arg(name: &str, json: &str) -> Result<Value> {
    from_json(json)
        .map_err(|e| Error::new(ErrorKind::InvalidArgument, format!("{name}: {}", e.message)))
}

fn optional_arg(name: &str, json: Option<&str>) -> Result<Option<Value>> {
    match json.map(str::trim) {
        None | Some("") => Ok(None),
        Some(j) => Ok(Some(arg(name, j)?).filter(|v| !v.is_nil())),
    }
}

/// The JSON form of a [`Context`] handed to a JSON `lookup` callback:
/// `{"order_override": <value or null>, "seen": ["hiera('a')", ...]}`,
/// with `"config": true` added when the lookup comes from the
/// interpolation of a hiera.yaml entry (the gem's `is_interpolate_config`).
pub fn context_to_json(context: &Context) -> String {
    let mut m = crate::value::Map::default();
    m.insert(
        "order_override".into(),
        context.order_override.clone().unwrap_or_default(),
    );
    m.insert(
        "seen".into(),
        Value::array(context.seen().into_iter().map(Value::from).collect()),
    );
    if context.is_interpolate_config {
        m.insert("config".into(), Value::Bool(true));
    }
    to_json(&Value::hash(m))
}

/// Reads a context written by [`context_to_json`] (every field optional;
/// `""`/`null` is the empty context) and the optional `extra_data` field.
/// With `"seen"` the context has a recursion guard holding that list (the
/// gem's `:recurse_guard`); without it each string interpolated gets a
/// fresh guard, as for the gem's `recurse_guard: nil`.
pub fn context_from_json(json: Option<&str>) -> Result<(Context, Value)> {
    let Some(v) = optional_arg("context", json)? else {
        return Ok((Context::default(), Value::empty_hash()));
    };
    let h = v.as_hash().ok_or_else(|| {
        Error::new(
            ErrorKind::InvalidArgument,
            "context: expected a JSON object",
        )
    })?;
    let mut seen = None;
    let mut order_override = None;
    let mut extra = Value::empty_hash();
    let mut config = false;
    for (k, v) in h.iter() {
        match k.as_str() {
            Some("order_override") => order_override = Some(v.clone()).filter(|v| !v.is_nil()),
            Some("seen") => {
                let list = v.as_array().ok_or_else(|| {
                    Error::new(
                        ErrorKind::InvalidArgument,
                        "context: seen must be a list of strings",
                    )
                })?;
                seen = Some(
                    list.iter()
                        .map(|s| s.as_str().map(str::to_string))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| {
                            Error::new(
                                ErrorKind::InvalidArgument,
                                "context: seen must be a list of strings",
                            )
                        })?,
                );
            }
            Some("extra_data") => extra = v.clone(),
            Some("config") => config = v.is_truthy(),
            _ => {
                return Err(Error::new(
                    ErrorKind::InvalidArgument,
                    format!("context: unknown field {}", crate::ruby::inspect(k)),
                ))
            }
        }
    }
    let mut ctx = match seen {
        Some(s) => Context::with_seen(s, order_override),
        None => Context::new(order_override),
    };
    ctx.is_interpolate_config = config;
    Ok((ctx, extra))
}

/// A JSON `lookup` callback: `(key, context_json)` to `Ok(Some(value_json))`,
/// `Ok(None)` for not found, or `Err(message)` to make the interpolation
/// fail with that message.
pub type JsonLookupFn<'a> =
    dyn FnMut(&str, &str) -> std::result::Result<Option<String>, String> + 'a;

fn json_lookup<'a, 'b: 'a>(
    lookup: &'a mut JsonLookupFn<'b>,
) -> impl FnMut(&str, &Context) -> Result<Option<Value>> + use<'a, 'b> {
    move |key, ctx| match lookup(key, &context_to_json(ctx)) {
        Ok(None) => Ok(None),
        Ok(Some(json)) => Ok(Some(arg("lookup callback result", &json)?)),
        Err(message) => Err(Error::new(ErrorKind::Lookup, message)),
    }
}

/// [`merge_answer`] on JSON: `resolution_type_json` is `"priority"`,
/// `"array"`, `"hash"` or an object `{"behavior": "deeper",
/// "knockout_prefix": "--", ...}` whose keys are taken as Symbols.
/// Returns the merged value as JSON.
pub fn merge_answer_json(
    new_json: &str,
    old_json: &str,
    resolution_type_json: &str,
) -> Result<String> {
    let new = arg("new", new_json)?;
    let old = arg("old", old_json)?;
    let rt = ResolutionType::from_plain_value(&arg("resolution_type", resolution_type_json)?)?;
    Ok(to_json(&merge_answer(new, old, &rt)?))
}

/// [`parse_answer`] on JSON. `context_json` is `None`, `""` or an object
/// as [`context_from_json`] reads it.
pub fn parse_answer_json(
    data_json: &str,
    scope_json: &str,
    context_json: Option<&str>,
    lookup: &mut JsonLookupFn,
) -> Result<String> {
    let data = arg("data", data_json)?;
    let scope = arg("scope", scope_json)?;
    let (ctx, extra) = context_from_json(context_json)?;
    let mut f = json_lookup(lookup);
    Ok(to_json(&parse_answer(&data, &scope, &extra, &ctx, &mut f)?))
}

/// [`datasources`] on JSON: `hierarchy_json` is a list or a string
/// (`null`/`""`: `["common"]`), `order_override_json` a string, a list,
/// `null` or `""` (none). Returns a JSON list.
pub fn datasources_json(
    hierarchy_json: &str,
    scope_json: &str,
    order_override_json: Option<&str>,
    lookup: &mut JsonLookupFn,
) -> Result<String> {
    let hierarchy = optional_arg("hierarchy", Some(hierarchy_json))?;
    let scope = arg("scope", scope_json)?;
    let order_override = optional_arg("order_override", order_override_json)?;
    let mut f = json_lookup(lookup);
    let list = datasources(hierarchy.as_ref(), &scope, order_override.as_ref(), &mut f)?;
    Ok(to_json(&Value::array(list)))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merge_json() {
        let got = merge_answer_json(
            r#"{"a": {"x": 1}, "l": ["low"]}"#,
            r#"{"a": {"y": 2}, "l": ["high", "--low"]}"#,
            r#"{"behavior": "deeper", "knockout_prefix": "--"}"#,
        )
        .unwrap();
        assert_eq!(got, r#"{"a":{"x":1,"y":2},"l":["high"]}"#);
        assert_eq!(
            merge_answer_json(r#"{"a":1}"#, r#"{"b":2}"#, r#""hash""#).unwrap(),
            r#"{"a":1,"b":2}"#
        );
        assert!(merge_answer_json("{", "{}", "\"hash\"").is_err());
    }

    #[test]
    fn parse_json_with_callback_and_recursion() {
        let calls = std::cell::RefCell::new(Vec::new());
        let mut lookup = |key: &str, ctx: &str| -> std::result::Result<Option<String>, String> {
            calls.borrow_mut().push((key.to_string(), ctx.to_string()));
            match key {
                "k" => Ok(Some(r#""K""#.into())),
                "boom" => Err("host failed".into()),
                _ => Ok(None),
            }
        };
        let got = parse_answer_json(
            r#"["%{hiera('k')}-%{v}", {"%{v}": "%{hiera('missing')}"}]"#,
            r#"{"v": "V"}"#,
            Some(r#"{"order_override": "special"}"#),
            &mut lookup,
        )
        .unwrap();
        assert_eq!(got, r#"["K-V",{"V":""}]"#);
        assert_eq!(
            calls.borrow()[0].1,
            r#"{"order_override":"special","seen":["hiera('k')"]}"#
        );
        let e = parse_answer_json(r#""%{hiera('boom')}""#, "{}", None, &mut lookup).unwrap_err();
        assert_eq!(e.message, "host failed");
        // A chain handed back in is part of the guard.
        let e = parse_answer_json(
            r#""%{hiera('a')}""#,
            "{}",
            Some(r#"{"seen": ["hiera('a')"]}"#),
            &mut lookup,
        )
        .unwrap_err();
        assert_eq!(e.message, "Lookup recursion detected in [hiera('a')]");
    }

    #[test]
    fn datasources_skip_bad_entries() {
        let mut lookup =
            |_: &str, _: &str| -> std::result::Result<Option<String>, String> { Ok(None) };
        let got = datasources_json(
            r#"["nodes/%{host}", "roles/%{missing}", "%{missing}", "/abs", "a//b", "common"]"#,
            r#"{"host": "web01"}"#,
            Some(r#"["first", "second/%{host}"]"#),
            &mut lookup,
        )
        .unwrap();
        assert_eq!(got, r#"["first","second/web01","nodes/web01","common"]"#);
        assert_eq!(
            datasources_json("null", "{}", None, &mut lookup).unwrap(),
            r#"["common"]"#
        );
    }
}
