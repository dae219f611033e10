//! The JSON request and response objects spoken by the CLI's `--batch` mode
//! and by the C ABI.
//!
//! Request: `{"key": "k" | ["k1", "k2"], "merge": "deep" | {...},
//! "default": V, "default_values_hash": {...}, "override": {...},
//! "explain": false}`. Only `key` is required; unknown fields are an error.
//! Values use the wire format of [`crate::render`] (`__type__` objects).
//!
//! Response: `{"value": V}`, `{"not_found": true}` or
//! `{"error": {"kind": K, "message": M, "file": F, "line": N}}`.

use crate::error::{Error, ErrorKind};
use crate::hiera5::lookup::{LookupRequest, Session};
use crate::render::to_json;
use crate::value::{Map, Value};

/// A request decoded from JSON, with its flags.
#[derive(Clone, Debug, Default)]
pub struct Request {
    /// The lookup itself.
    pub lookup: LookupRequest,
    /// Whether an explanation was asked for.
    pub explain: bool,
}

fn invalid(msg: impl Into<String>) -> Error {
    Error::new(ErrorKind::InvalidArgument, msg)
}

/// Decodes a request object from already-decoded JSON.
pub fn request_from_value(v: &Value) -> Result<Request, Error> {
    let Value::Hash(h) = v else {
        return Err(invalid("a request must be a JSON object"));
    };
    let mut req = Request::default();
    let mut has_key = false;
    for (k, v) in h.iter() {
        let Some(name) = k.as_str() else {
            return Err(invalid("request field names must be strings"));
        };
        match name {
            "key" => {
                has_key = true;
                req.lookup.keys = match v {
                    Value::String(s) => vec![s.to_string()],
                    Value::Array(a) if !a.is_empty() => a
                        .iter()
                        .map(|x| {
                            x.as_str().map(str::to_string).ok_or_else(|| {
                                invalid("'key' must be a string or a non-empty array of strings")
                            })
                        })
                        .collect::<Result<_, _>>()?,
                    _ => {
                        return Err(invalid(
                            "'key' must be a string or a non-empty array of strings",
                        ))
                    }
                }
            }
            "merge" => {
                if !v.is_nil() {
                    req.lookup.merge = Some(v.clone())
                }
            }
            "default" => req.lookup.default = Some(v.clone()),
            "default_values_hash" => req.lookup.default_values_hash = hash_field(name, v)?,
            "override" => req.lookup.override_values = hash_field(name, v)?,
            "local_variables" => req.lookup.local_variables = string_list(name, v)?,
            "known_variables" => match v {
                Value::Nil => {}
                Value::Int(n) if *n >= 0 => {
                    req.lookup.known_variables = Some(usize::try_from(*n).unwrap_or(usize::MAX))
                }
                _ => return Err(invalid("'known_variables' must be a non-negative integer")),
            },
            "hiera3_variables" => match v {
                Value::Nil => {}
                _ => req.lookup.hiera3_variables = Some(hash_field(name, v)?),
            },
            "explain" => match v {
                Value::Bool(b) => req.explain = *b,
                Value::Nil => {}
                _ => return Err(invalid("'explain' must be a boolean")),
            },
            other => return Err(invalid(format!("unknown request field '{other}'"))),
        }
    }
    if !has_key {
        return Err(invalid("a request needs a 'key'"));
    }
    Ok(req)
}

fn string_list(name: &str, v: &Value) -> Result<Vec<String>, Error> {
    match v {
        Value::Nil => Ok(Vec::new()),
        Value::Array(a) => a
            .iter()
            .map(|x| x.as_str().map(str::to_string))
            .collect::<Option<_>>()
            .ok_or_else(|| invalid(format!("'{name}' must be an array of strings"))),
        _ => Err(invalid(format!("'{name}' must be an array of strings"))),
    }
}

fn hash_field(name: &str, v: &Value) -> Result<Map, Error> {
    match v {
        Value::Hash(h) => Ok(h.clone()),
        Value::Nil => Ok(Map::default()),
        _ => Err(invalid(format!("'{name}' must be an object"))),
    }
}

/// Decodes a request from JSON text: strict JSON (RFC 8259), read by
/// [`crate::wire::parse_request`] (errors name the input as `request`).
pub fn parse_request(text: &str) -> Result<Request, Error> {
    crate::wire::parse_request(text, "request")
}

/// Encodes an error object `{"kind", "message", "file"?, "line"?}`.
pub fn error_json(e: &Error) -> String {
    error_json_explained(e, None)
}

/// Encodes an error object, with the explanation of the lookup that failed
/// (`"explain": TEXT`) when there is one.
pub fn error_json_explained(e: &Error, explanation: Option<&str>) -> String {
    let mut s = String::from("{\"kind\":");
    s.push_str(&to_json(&Value::from(e.kind.as_str())));
    s.push_str(",\"message\":");
    s.push_str(&to_json(&Value::from(e.message.as_str())));
    if let Some(f) = &e.file {
        s.push_str(",\"file\":");
        s.push_str(&to_json(&Value::from(f.to_string_lossy().as_ref())));
    }
    if let Some(l) = e.line {
        s.push_str(&format!(",\"line\":{l}"));
    }
    if let Some(x) = explanation {
        s.push_str(",\"explain\":");
        s.push_str(&to_json(&Value::from(x)));
    }
    s.push('}');
    s
}

/// Encodes a response object for one lookup outcome.
pub fn response_json(outcome: &Result<Option<Value>, Error>, explanation: Option<&str>) -> String {
    let mut s = String::new();
    push_response_json(outcome, explanation, &mut s);
    s
}

/// Appends the response object of [`response_json`] to `out` (an entry of a
/// batch's array, written in place).
pub fn push_response_json(
    outcome: &Result<Option<Value>, Error>,
    explanation: Option<&str>,
    out: &mut String,
) {
    match outcome {
        Ok(Some(v)) => {
            out.push_str("{\"value\":");
            crate::render::push_json(v, out);
        }
        Ok(None) => out.push_str("{\"not_found\":true"),
        Err(e) => {
            out.push_str("{\"error\":");
            out.push_str(&error_json(e));
        }
    }
    if let Some(x) = explanation {
        out.push_str(",\"explain\":");
        crate::render::json_string(x, out);
    }
    out.push('}');
}

/// The response object for one decoded request, looked up (and explained,
/// when it asks for that) in `session`: a line of `--batch` output, an entry
/// of `hiera_lookup_many`'s array.
pub fn respond(session: &Session, req: &Request) -> String {
    if req.explain {
        let (outcome, text) = session.explain(&req.lookup);
        response_json(&outcome, Some(&text))
    } else {
        response_json(&session.lookup(&req.lookup), None)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_requests() {
        let r = parse_request(r#"{"key":["a","b"],"merge":"deep","default":null,"explain":true}"#)
            .unwrap();
        assert_eq!(r.lookup.keys, vec!["a", "b"]);
        assert_eq!(r.lookup.merge, Some(Value::from("deep")));
        assert_eq!(r.lookup.default, Some(Value::Nil));
        assert!(r.explain);
        assert!(parse_request(r#"{"key":"a","bogus":1}"#)
            .unwrap_err()
            .message
            .contains("unknown request field 'bogus'"));
        assert!(parse_request(r#"{"merge":"deep"}"#).is_err());
        assert!(parse_request(r#"{"key":"a""#).is_err());
    }

    #[test]
    fn encodes_responses() {
        assert_eq!(
            response_json(&Ok(Some(Value::Int(1))), None),
            r#"{"value":1}"#
        );
        assert_eq!(response_json(&Ok(None), None), r#"{"not_found":true}"#);
        let e = Error::new(ErrorKind::Lookup, "boom");
        assert_eq!(
            response_json(&Err(e), None),
            r#"{"error":{"kind":"lookup","message":"boom"}}"#
        );
    }
}
