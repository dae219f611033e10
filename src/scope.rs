//! Building a Puppet top scope from facts, the way a compile does.

use crate::value::{Map, Value};

/// The top-scope variables Puppet has for a node with these facts: each
/// fact as a variable, then `environment`, `trusted`, `server_facts`,
/// `facts`, `module_name`, `title` and `name`, in Puppet's order.
///
/// With `certname` the trusted data is what a puppetserver builds for an
/// authenticated agent (`authenticated: remote`); without it, Puppet's local
/// fallback (`authenticated: local`, certname from the `clientcert` fact).
pub fn scope_from_facts(facts: &Map, certname: Option<&str>, environment: &str) -> Map {
    let mut scope = Map::with_capacity(facts.len() + 8);
    let mut clean = Map::with_capacity(facts.len());
    for (k, v) in facts.iter() {
        // Puppet sanitizes a nil fact to "".
        let v = if v.is_nil() {
            Value::from("")
        } else {
            v.clone()
        };
        clean.insert(k.clone(), v.clone());
        scope.insert(k.clone(), v);
    }
    scope.insert("environment".into(), environment.into());
    let mut trusted = Map::default();
    let (auth, cert) = match certname {
        Some(c) => ("remote", Value::from(c)),
        None => (
            "local",
            facts
                .get(&Value::from("clientcert"))
                .cloned()
                .unwrap_or(Value::Nil),
        ),
    };
    trusted.insert("authenticated".into(), auth.into());
    trusted.insert("certname".into(), cert.clone());
    trusted.insert("extensions".into(), Value::empty_hash());
    let (host, domain) = match cert.as_str() {
        Some(c) => match c.split_once('.') {
            Some((h, d)) => (Value::from(h), Value::from(d)),
            None => (Value::from(c), Value::Nil),
        },
        None => (Value::Nil, Value::Nil),
    };
    trusted.insert("hostname".into(), host);
    trusted.insert("domain".into(), domain);
    trusted.insert("external".into(), Value::empty_hash());
    scope.insert("trusted".into(), Value::hash(trusted));
    scope.insert("server_facts".into(), Value::empty_hash());
    scope.insert("facts".into(), Value::hash(clean));
    scope.insert("module_name".into(), "".into());
    scope.insert("title".into(), "main".into());
    scope.insert("name".into(), "main".into());
    scope
}
