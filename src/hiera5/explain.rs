//! The explanation of a lookup, as `puppet lookup --explain` prints it.
//!
//! The search builds a tree (providers, hierarchy entries, paths, merges,
//! outcomes); rendering happens at the end because a merge node with a
//! single branch is replaced by that branch, which changes indentation.
//! The finished tree is an [`Explanation`]: Puppet's text, or Puppet's JSON
//! tree (`--render-as json`, the `json` child module), from the same nodes.

mod json;
mod sources;

use crate::ruby::inspect_into;
use crate::value::{Map, Value};

enum Item {
    Line(String),
    Value(String, Value),
    Node(Node),
    /// A function's `context.explain` text: Puppet prints a node's texts
    /// after everything else in it (`dump_texts` after the outcome).
    Text(String),
}

enum Kind {
    Root,
    Plain(String),
    Merge {
        name: &'static str,
        options: Option<Map>,
        result: Option<Value>,
    },
}

struct Node {
    kind: Kind,
    items: Vec<Item>,
}

/// An explanation being built.
pub(crate) struct Explainer {
    stack: Vec<Node>,
}

impl Default for Explainer {
    fn default() -> Explainer {
        Explainer {
            stack: vec![Node {
                kind: Kind::Root,
                items: Vec::new(),
            }],
        }
    }
}

impl Explainer {
    fn top(&mut self) -> &mut Node {
        self.stack
            .last_mut()
            .expect("the root node is never popped")
    }

    /// Opens a node whose first line is `header`.
    pub(crate) fn push(&mut self, header: String) {
        self.stack.push(Node {
            kind: Kind::Plain(header),
            items: Vec::new(),
        });
    }

    /// Opens a merge node.
    pub(crate) fn push_merge(&mut self, name: &'static str, options: &Map) {
        let options = if options.is_empty() {
            None
        } else {
            Some(options.clone())
        };
        self.stack.push(Node {
            kind: Kind::Merge {
                name,
                options,
                result: None,
            },
            items: Vec::new(),
        });
    }

    /// Records the merged result of the open merge node.
    pub(crate) fn result(&mut self, v: &Value) {
        if let Kind::Merge { result, .. } = &mut self.top().kind {
            *result = Some(v.clone());
        }
    }

    /// Closes the open node.
    pub(crate) fn pop(&mut self) {
        if self.stack.len() > 1 {
            let node = self.stack.pop().expect("checked");
            self.top().items.push(Item::Node(node));
        }
    }

    /// Adds a line to the open node.
    pub(crate) fn line(&mut self, text: String) {
        self.top().items.push(Item::Line(text));
    }

    /// Adds a text to the open node (a function's `context.explain`),
    /// printed after the rest of the node, as Puppet prints texts.
    pub(crate) fn text(&mut self, text: String) {
        self.top().items.push(Item::Text(text));
    }

    /// Adds `prefix` followed by a value in Puppet's explain layout.
    pub(crate) fn value(&mut self, prefix: String, v: &Value) {
        self.top().items.push(Item::Value(prefix, v.clone()));
    }

    /// The finished explanation (open nodes closed).
    pub(crate) fn finish(mut self) -> Explanation {
        while self.stack.len() > 1 {
            self.pop();
        }
        Explanation {
            root: self.stack.pop().expect("root"),
        }
    }

    /// The text of the explanation.
    #[cfg(test)]
    fn render(self) -> String {
        self.finish().text()
    }
}

/// A finished explanation of one lookup, as `puppet lookup --explain`
/// builds it: rendered as Puppet's text ([`Explanation::text`]) or as
/// Puppet's JSON tree ([`Explanation::to_json`], `--render-as json`).
/// Owned by the caller; plain data, any thread may use it.
pub struct Explanation {
    root: Node,
}

impl Explanation {
    /// The text `puppet lookup --explain` prints (one line per event,
    /// two spaces of indentation per level, ending with a newline when
    /// not empty).
    pub fn text(&self) -> String {
        let mut out = String::new();
        render_items(&self.root.items, 0, &mut out);
        out
    }

    /// The JSON `puppet lookup --explain --render-as json` prints: Puppet's
    /// `Explainer#to_hash` (nodes with `branches`, `key`, `value`, `event`,
    /// `texts`, `type` and the node's own fields, in that order), compact,
    /// without a trailing newline.
    pub fn to_json(&self) -> String {
        json::render(&self.root)
    }

    /// The data files (paths, or URIs) where the lookup found a value that
    /// went into its answer, in the order of the search, each once: the
    /// locations with a `Found key` event, interpolated lookups included,
    /// the search for `lookup_options` left out.
    pub fn sources(&self) -> Vec<String> {
        sources::found_locations(&self.root)
    }
}

fn indent(out: &mut String, level: usize) {
    for _ in 0..level {
        out.push_str("  ");
    }
}

/// A node's items at `level`: its texts last.
fn render_items(items: &[Item], level: usize, out: &mut String) {
    items
        .iter()
        .filter(|i| !matches!(i, Item::Text(_)))
        .chain(items.iter().filter(|i| matches!(i, Item::Text(_))))
        .for_each(|i| render_item(i, level, out));
}

fn render_item(item: &Item, level: usize, out: &mut String) {
    match item {
        Item::Line(t) | Item::Text(t) => {
            indent(out, level);
            out.push_str(t);
            out.push('\n');
        }
        Item::Value(prefix, v) => {
            indent(out, level);
            out.push_str(prefix);
            explain_value(v, level * 2, out);
            out.push('\n');
        }
        Item::Node(n) => render_node(n, level, out),
    }
}

fn render_node(node: &Node, level: usize, out: &mut String) {
    match &node.kind {
        Kind::Root => render_items(&node.items, level, out),
        Kind::Plain(header) => {
            indent(out, level);
            out.push_str(header);
            out.push('\n');
            render_items(&node.items, level + 1, out);
        }
        Kind::Merge {
            name,
            options,
            result,
        } => {
            let branches: Vec<&Item> = node
                .items
                .iter()
                .filter(|i| matches!(i, Item::Node(_)))
                .collect();
            match branches.len() {
                0 => {}
                // A merge of one branch is just that branch.
                1 => render_item(branches[0], level, out),
                _ => {
                    indent(out, level);
                    out.push_str("Merge strategy ");
                    out.push_str(name);
                    out.push('\n');
                    if let Some(o) = options {
                        indent(out, level + 1);
                        out.push_str("Options: ");
                        explain_value(&Value::hash(o.clone()), (level + 1) * 2, out);
                        out.push('\n');
                    }
                    branches.iter().for_each(|b| render_item(b, level + 1, out));
                    if let Some(v) = result {
                        indent(out, level + 1);
                        out.push_str("Merged result: ");
                        explain_value(v, (level + 1) * 2, out);
                        out.push('\n');
                    }
                }
            }
        }
    }
}

/// The value text of `puppet lookup --explain` (Puppet's
/// `ExplainTreeNode#dump_value`): containers one entry per line, each
/// indented two more spaces than `indent`, `"k" => v` pairs joined by
/// `,\n`, the closing bracket at `indent`; anything else as `inspect`.
pub(crate) fn explain_value(v: &Value, indent: usize, out: &mut String) {
    crate::stack::grow(|| {
        let pad = |n: usize, out: &mut String| out.extend(std::iter::repeat_n(' ', n));
        match v {
            Value::Hash(h) => {
                out.push('{');
                if !h.is_empty() {
                    let inner = indent + 2;
                    for (i, (k, x)) in h.iter().enumerate() {
                        out.push_str(if i == 0 { "\n" } else { ",\n" });
                        pad(inner, out);
                        explain_value(k, inner, out);
                        out.push_str(" => ");
                        explain_value(x, inner, out);
                    }
                    out.push('\n');
                    pad(indent, out);
                }
                out.push('}');
            }
            Value::Array(a) => {
                out.push('[');
                if !a.is_empty() {
                    let inner = indent + 2;
                    for (i, x) in a.iter().enumerate() {
                        out.push_str(if i == 0 { "\n" } else { ",\n" });
                        pad(inner, out);
                        explain_value(x, inner, out);
                    }
                    out.push('\n');
                    pad(indent, out);
                }
                out.push(']');
            }
            other => inspect_into(other, out),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn single_branch_merges_collapse() {
        let mut e = Explainer::default();
        e.push("Searching for \"k\"".into());
        e.push_merge("deep", &Map::default());
        e.push("Global Data Provider".into());
        e.line("No such key: \"k\"".into());
        e.pop();
        e.pop();
        e.pop();
        assert_eq!(
            e.render(),
            "Searching for \"k\"\n  Global Data Provider\n    No such key: \"k\"\n"
        );
    }

    #[test]
    fn texts_come_after_the_outcome() {
        let mut e = Explainer::default();
        e.push("Hierarchy entry \"vault\"".into());
        e.text("read the vault".into());
        e.line("Found key: \"k\" value: 1".into());
        e.pop();
        assert_eq!(
            e.render(),
            "Hierarchy entry \"vault\"\n  Found key: \"k\" value: 1\n  read the vault\n"
        );
    }

    #[test]
    fn merges_show_strategy_and_result() {
        let mut e = Explainer::default();
        e.push_merge("unique", &Map::default());
        for p in ["a", "b"] {
            e.push(format!("Path \"{p}\""));
            e.pop();
        }
        e.result(&Value::array(vec![Value::Int(1)]));
        e.pop();
        assert_eq!(
            e.render(),
            "Merge strategy unique\n  Path \"a\"\n  Path \"b\"\n  Merged result: [\n    1\n  ]\n"
        );
    }

    fn v(wire: &str) -> Value {
        crate::render::from_json(wire).unwrap()
    }

    #[test]
    fn explain_value_matches_puppet_dump_value() {
        let mut out = String::new();
        explain_value(&v(r#"{"k":"v","nested":{"x":[1]}}"#), 8, &mut out);
        assert_eq!(
            out,
            "{\n          \"k\" => \"v\",\n          \"nested\" => {\n            \"x\" => [\n              1\n            ]\n          }\n        }"
        );
        // Ruby: Puppet's dump_value with indent '  ' for
        // {[1, "a"]=>{}, nil=>[], "f"=>1.0e+20, :s=>false}.
        let mut out = String::new();
        explain_value(
            &v(
                r#"{"__type__":"Hash","entries":[[[1,"a"],{}],[null,[]],["f",1.0e+20],[{"__type__":"Symbol","value":"s"},false]]}"#,
            ),
            2,
            &mut out,
        );
        assert_eq!(
            out,
            "{\n    [\n      1,\n      \"a\"\n    ] => {},\n    nil => [],\n    \"f\" => 1.0e+20,\n    :s => false\n  }"
        );
        let mut out = String::new();
        explain_value(&v(r#""str""#), 0, &mut out);
        assert_eq!(out, "\"str\"");
    }

    #[test]
    fn json_tree_has_puppets_fields_and_order() {
        let mut e = Explainer::default();
        e.push("Searching for \"k.a\"".into());
        e.push("Hierarchy entry \"x\"".into());
        e.push("Path \"/d/c.yaml\"".into());
        e.line("Original path: \"c.yaml\"".into());
        e.value("Found key: \"k\" value: ".into(), &v(r#"{"a":1}"#));
        e.text("a note".into());
        e.pop();
        e.pop();
        e.push("Sub key: \"a\"".into());
        e.value("Found key: \"a\" value: ".into(), &Value::Int(1));
        e.pop();
        e.pop();
        e.line("an error at the root".into());
        assert_eq!(
            e.finish().to_json(),
            concat!(
                r#"{"branches":[{"branches":[{"key":"k","value":{"a":1},"event":"found","texts":["a note"],"#,
                r#""type":"path","original_path":"c.yaml","path":"/d/c.yaml"}],"type":"data_provider","#,
                r#""name":"Hierarchy entry \"x\""},{"branches":[{"key":"a","value":1,"event":"found","#,
                r#""type":"segment"}],"type":"sub_key"}],"key":"k.a","type":"root"}"#
            )
        );
    }
}
