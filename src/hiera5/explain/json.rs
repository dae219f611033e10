//! The explanation as Puppet's JSON tree: `Explainer#to_hash` of Puppet
//! 7.23 (`puppet/pops/lookup/explainer.rb`) rendered by Puppet's JSON
//! format, as `puppet lookup --explain --render-as json` prints it.
//!
//! The nodes are the ones the text is printed from; each node's kind and
//! fields are read from the event it records (its header, its lines).
//! Every node is an object with, in this order, `branches` (its children,
//! when any), `key`, `value` (found and merged values), `event`, `texts`,
//! `type` and the fields of its type (`name`, `configuration_path`,
//! `module`, `original_path`, `path`, `expression`, `merge`, `options`...).
//! A merge of one branch is that branch; the root of one branch is that
//! branch; texts at the root (the final error) are not part of the tree.

use super::{Item, Kind, Node};
use crate::value::{Map, Value};

/// The compact JSON of the tree whose root is `root`.
pub(super) fn render(root: &Node) -> String {
    crate::render::to_json(&to_hash(root))
}

/// A JSON object under construction (keys are Strings, in insertion order).
#[derive(Default)]
struct Obj(Map);

impl Obj {
    fn set(&mut self, k: &str, v: Value) {
        self.0.insert(Value::from(k), v);
    }
    fn done(self) -> Value {
        Value::hash(self.0)
    }
}

/// What a node's header says it is.
enum Head<'a> {
    Top(&'a str),
    Provider {
        name: &'a str,
        module: Option<&'a str>,
    },
    Location {
        uri: bool,
        at: &'a str,
    },
    Module {
        event: &'static str,
    },
    Interpolate(&'a str),
    SubKey,
    InvalidKey(&'a str),
    Scope(&'a str),
}

/// The text between `prefix"` and the closing `"` that ends `s`.
fn quoted<'a>(s: &'a str, prefix: &str) -> Option<&'a str> {
    s.strip_prefix(prefix)?.strip_prefix('"')?.strip_suffix('"')
}

fn head(h: &str) -> Head<'_> {
    if let Some(k) = quoted(h, "Searching for ") {
        return Head::Top(k);
    }
    if h.starts_with("Global Data Provider")
        || h.starts_with("Environment Data Provider")
        || h.starts_with("Hierarchy entry \"")
        || h.starts_with("Deprecated API function \"")
    {
        return Head::Provider {
            name: h,
            module: None,
        };
    }
    if let Some(rest) = h.strip_prefix("Module \"") {
        if let Some((m, tail)) = rest.split_once('"') {
            if tail.starts_with(" Data Provider") {
                return Head::Provider {
                    name: h,
                    module: Some(m),
                };
            }
            if tail == " not found" {
                return Head::Module {
                    event: "module_not_found",
                };
            }
        }
    }
    if h.starts_with("Module data provider for module \"") && h.ends_with("\" not found") {
        return Head::Module {
            event: "module_provider_not_found",
        };
    }
    if let Some(p) = quoted(h, "Path ") {
        return Head::Location { uri: false, at: p };
    }
    if let Some(u) = quoted(h, "URI ") {
        return Head::Location { uri: true, at: u };
    }
    if let Some(e) = quoted(h, "Interpolation on ") {
        return Head::Interpolate(e);
    }
    if h.starts_with("Sub key: \"") {
        return Head::SubKey;
    }
    if let Some(k) = quoted(h, "Invalid key ") {
        return Head::InvalidKey(k);
    }
    Head::Scope(h)
}

/// The outcome fields every tree node has (`ExplainTreeNode#to_hash`).
#[derive(Default)]
struct Outcome {
    key: Option<String>,
    value: Option<Value>,
    event: Option<&'static str>,
    texts: Vec<String>,
}

impl Outcome {
    /// Reads a line of the node; `false` when the line is not an outcome.
    fn line(&mut self, line: &str) -> bool {
        if let Some(k) = quoted(line, "No such key: ") {
            self.key = Some(k.to_string());
            self.event = Some("not_found");
        } else if line == "Path not found" || line == "URI not found" {
            self.event = Some("location_not_found");
        } else {
            return false;
        }
        true
    }

    /// Reads a value line (`Found key: "k" value: `).
    fn found(&mut self, prefix: &str, v: &Value) -> bool {
        match prefix
            .strip_prefix("Found key: \"")
            .and_then(|p| p.strip_suffix("\" value: "))
        {
            Some(k) => {
                self.key = Some(k.to_string());
                self.value = Some(puppet_json(v));
                self.event = Some("found");
                true
            }
            None => false,
        }
    }

    /// Writes `branches`, `key`, `value`, `event`, `texts` and `type`.
    fn write(self, o: &mut Obj, branches: Vec<Value>, ty: &str) {
        if !branches.is_empty() {
            o.set("branches", Value::array(branches));
        }
        if let Some(k) = self.key {
            o.set("key", Value::from(k.as_str()));
        }
        if let Some(v) = self.value {
            o.set("value", v);
        }
        if let Some(e) = self.event {
            o.set("event", Value::from(e));
        }
        if !self.texts.is_empty() {
            let texts = self.texts.iter().map(|t| Value::from(t.as_str())).collect();
            o.set("texts", Value::array(texts));
        }
        o.set("type", Value::from(ty));
    }
}

fn merge_source() -> Value {
    let mut o = Obj::default();
    o.set("type", Value::from("merge_source"));
    o.set("merge_source", Value::from("lookup_options"));
    o.done()
}

/// A node's branches: its child nodes and merge-source events, in order.
fn branches(items: &[Item]) -> Vec<Value> {
    items
        .iter()
        .filter_map(|i| match i {
            Item::Node(n) => Some(to_hash(n)),
            Item::Line(l) if l == "Using merge options from \"lookup_options\" hash" => {
                Some(merge_source())
            }
            _ => None,
        })
        .collect()
}

fn to_hash(node: &Node) -> Value {
    crate::stack::grow(|| match &node.kind {
        // Puppet's `Explainer#to_hash`: one branch is that branch.
        Kind::Root => {
            let mut b = branches(&node.items);
            if b.len() == 1 {
                return b.remove(0);
            }
            let mut o = Obj::default();
            if !b.is_empty() {
                o.set("branches", Value::array(b));
            }
            o.done()
        }
        Kind::Merge {
            name,
            options,
            result,
        } => {
            let mut b = branches(&node.items);
            if b.len() == 1 {
                return b.remove(0);
            }
            let mut o = Obj::default();
            let outcome = Outcome {
                value: result.as_ref().map(puppet_json),
                event: result.as_ref().map(|_| "result"),
                ..Outcome::default()
            };
            outcome.write(&mut o, b, "merge");
            o.set("merge", Value::from(*name));
            if let Some(opts) = options {
                o.set("options", puppet_json(&Value::hash(opts.clone())));
            }
            o.done()
        }
        Kind::Plain(header) => plain(header, &node.items),
    })
}

fn plain(header: &str, items: &[Item]) -> Value {
    let head = head(header);
    let mut o = Obj::default();
    let mut out = Outcome::default();
    let mut config = None;
    let mut original = None;
    // A sub key's outcomes are segment nodes of their own (Puppet's
    // `ExplainKeySegment`), among its other branches.
    let sub_key = matches!(head, Head::SubKey);
    let mut b = Vec::new();
    for item in items {
        match item {
            Item::Node(n) => b.push(to_hash(n)),
            Item::Line(l) if l == "Using merge options from \"lookup_options\" hash" => {
                b.push(merge_source())
            }
            Item::Line(l) if sub_key => {
                let mut seg = Outcome::default();
                if !seg.line(l) {
                    out.texts.push(l.clone());
                    continue;
                }
                let mut s = Obj::default();
                seg.write(&mut s, Vec::new(), "segment");
                b.push(s.done());
            }
            Item::Value(p, v) if sub_key => {
                let mut seg = Outcome::default();
                if seg.found(p, v) {
                    let mut s = Obj::default();
                    seg.write(&mut s, Vec::new(), "segment");
                    b.push(s.done());
                }
            }
            Item::Line(l) => {
                if let Some(p) = quoted(l, "Using configuration ") {
                    config = Some(p.to_string());
                } else if let Some(p) = quoted(l, "Original path: ") {
                    original = Some(p.to_string());
                } else if let Some(p) = quoted(l, "Original uri: ") {
                    original = Some(p.to_string());
                } else if !out.line(l) {
                    out.texts.push(l.clone());
                }
            }
            Item::Value(p, v) => {
                out.found(p, v);
            }
            Item::Text(t) => out.texts.push(t.clone()),
        }
    }
    match head {
        Head::Top(k) => {
            out.key = Some(k.to_string());
            out.write(&mut o, b, "root");
        }
        Head::Provider { name, module } => {
            out.write(&mut o, b, "data_provider");
            o.set("name", Value::from(name));
            if let Some(c) = config {
                o.set("configuration_path", Value::from(c.as_str()));
            }
            if let Some(m) = module {
                o.set("module", Value::from(m));
            }
        }
        Head::Location { uri, at } => {
            out.write(&mut o, b, if uri { "uri" } else { "path" });
            let (orig, here) = if uri {
                ("original_uri", "uri")
            } else {
                ("original_path", "path")
            };
            o.set(
                orig,
                original.map_or(Value::Nil, |p| Value::from(p.as_str())),
            );
            o.set(here, Value::from(at));
        }
        Head::Module { event } => {
            out.event = Some(event);
            out.write(&mut o, b, "module");
        }
        Head::Interpolate(e) => {
            out.write(&mut o, b, "interpolate");
            o.set("expression", Value::from(e));
        }
        Head::SubKey => out.write(&mut o, b, "sub_key"),
        Head::InvalidKey(k) => {
            out.key = Some(k.to_string());
            out.write(&mut o, b, "invalid_key");
        }
        Head::Scope(name) => {
            out.write(&mut o, b, "scope");
            o.set("name", Value::from(name));
        }
    }
    o.done()
}

/// A value as Puppet's JSON format writes the Ruby object: Symbols as
/// their names, Hash keys that are not Strings as their `to_s`.
fn puppet_json(v: &Value) -> Value {
    crate::stack::grow(|| match v {
        Value::Symbol(s) => Value::from(&**s),
        Value::Array(a) => Value::array(a.iter().map(puppet_json).collect()),
        Value::Hash(h) => {
            let mut m = Map::default();
            for (k, x) in h.iter() {
                let key = match k {
                    Value::String(_) => k.clone(),
                    other => {
                        let mut s = String::new();
                        crate::ruby::to_s(&puppet_json(other), &mut s);
                        Value::from(s.as_str())
                    }
                };
                m.insert(key, puppet_json(x));
            }
            Value::hash(m)
        }
        other => other.clone(),
    })
}
