//! A small value tree for generated data, with YAML (block style) and JSON
//! writers: the generators build what they mean, then write it.

/// A generated value.
#[derive(Clone, Debug)]
pub enum Node {
    /// A string (always quoted when written).
    Str(String),
    /// An integer.
    Int(i64),
    /// A float.
    Float(f64),
    /// A boolean.
    Bool(bool),
    /// Null.
    Null,
    /// A sequence.
    Seq(Vec<Node>),
    /// A mapping with string keys, in order.
    Map(Vec<(String, Node)>),
}

impl Node {
    /// A string node.
    pub fn s(s: impl Into<String>) -> Node {
        Node::Str(s.into())
    }

    /// A mapping node from pairs.
    pub fn map<K: Into<String>>(pairs: impl IntoIterator<Item = (K, Node)>) -> Node {
        Node::Map(pairs.into_iter().map(|(k, v)| (k.into(), v)).collect())
    }

    /// Written as a YAML document (block style).
    pub fn to_yaml(&self) -> String {
        let mut out = String::new();
        match self {
            Node::Map(m) if !m.is_empty() => block_map(m, 0, &mut out),
            Node::Seq(s) if !s.is_empty() => block_seq(s, 0, &mut out),
            other => {
                flow(other, &mut out);
                out.push('\n');
            }
        }
        out
    }

    /// Written as JSON.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        json(self, &mut out);
        out
    }
}

/// A double-quoted string, valid both in YAML and JSON.
fn quoted(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if (c as u32) < 0x20 || c == '\u{7f}' => {
                out.push_str(&format!("\\u{:04x}", c as u32))
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

fn float(f: f64, out: &mut String) {
    if f.is_finite() {
        out.push_str(&format!("{f:?}"));
    } else {
        out.push('0');
    }
}

fn flow(n: &Node, out: &mut String) {
    match n {
        Node::Str(s) => quoted(s, out),
        Node::Int(i) => out.push_str(&i.to_string()),
        Node::Float(f) => float(*f, out),
        Node::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Node::Null => out.push('~'),
        Node::Seq(s) => {
            out.push('[');
            for (i, v) in s.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                flow(v, out);
            }
            out.push(']');
        }
        Node::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                quoted(k, out);
                out.push_str(": ");
                flow(v, out);
            }
            out.push('}');
        }
    }
}

fn block_value(v: &Node, indent: usize, out: &mut String) {
    match v {
        Node::Map(m) if !m.is_empty() => {
            out.push('\n');
            block_map(m, indent + 2, out);
        }
        Node::Seq(s) if !s.is_empty() => {
            out.push('\n');
            block_seq(s, indent + 2, out);
        }
        other => {
            out.push(' ');
            flow(other, out);
            out.push('\n');
        }
    }
}

fn block_map(m: &[(String, Node)], indent: usize, out: &mut String) {
    for (k, v) in m {
        out.push_str(&" ".repeat(indent));
        quoted(k, out);
        out.push(':');
        block_value(v, indent, out);
    }
}

fn block_seq(s: &[Node], indent: usize, out: &mut String) {
    for v in s {
        out.push_str(&" ".repeat(indent));
        out.push('-');
        block_value(v, indent, out);
    }
}

fn json(n: &Node, out: &mut String) {
    match n {
        Node::Null => out.push_str("null"),
        Node::Seq(s) => {
            out.push('[');
            for (i, v) in s.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                json(v, out);
            }
            out.push(']');
        }
        Node::Map(m) => {
            out.push('{');
            for (i, (k, v)) in m.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                quoted(k, out);
                out.push(':');
                json(v, out);
            }
            out.push('}');
        }
        other => flow(other, out),
    }
}
