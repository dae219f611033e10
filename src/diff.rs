//! What a data change does to a node's answers (`hiera-lookup --diff`).
//!
//! One node is looked up twice, through two sessions: `base` (the
//! configuration before the change, e.g. another checkout) and `head` (the
//! configuration as given). Every key asked ([`node_diff`]: the keys given,
//! or every key of both sides as [`Session::all_keys`] lists them) is
//! answered on both sides as an [`Answer`], and a key whose answer differs
//! is a [`KeyChange`] of one [`ChangeKind`]. Answers are compared as their
//! wire JSON ([`crate::render::to_json`]), so a Hash whose keys were
//! reordered is a change (Puppet's answers are ordered), and a key moved
//! from one hierarchy level to another with the same answer is no change.
//! A key that fails on both sides is no change (its message may name a file
//! of either checkout).
//!
//! [`Groups`] gathers the changes of many nodes by key, kind and the two
//! answers, so that "312 nodes change `ntp::servers` from A to B" is one
//! group; it keeps a count and the names of the first nodes of each group,
//! so memory grows with the number of distinct changes, not of nodes.
//!
//! Pure data and functions; any thread may call them. A [`Groups`] is
//! filled by one thread (merge per-thread ones with [`Groups::absorb`]).

use crate::error::Result;
use crate::hiera5::all_keys::lookup_name;
use crate::render::to_json;
use crate::value::{Map, Value};
use crate::Session;
use std::collections::{BTreeSet, HashMap};

/// One side's answer for one key.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Answer {
    /// Found: the answer's wire JSON ([`crate::render::to_json`]).
    Found(String),
    /// Not found.
    NotFound,
    /// The lookup failed: the error message.
    Error(String),
}

impl Answer {
    /// The answer of `lookup(name)` in `session` (`name` as `lookup()`
    /// takes it: a dotted name digs).
    pub fn of(session: &Session, name: &str) -> Answer {
        match session.lookup_key(name) {
            Ok(Some(v)) => Answer::Found(to_json(&redact(&v))),
            Ok(None) => Answer::NotFound,
            Err(e) => Answer::Error(e.to_string()),
        }
    }
}

/// `v` with every `Sensitive` value replaced by the String Puppet shows for
/// it (`Sensitive [value redacted]`), so that a diff never prints a secret.
/// Two different secrets then compare equal: a change of a Sensitive
/// value alone is not reported.
pub fn redact(v: &Value) -> Value {
    match v {
        Value::Sensitive(_) => Value::from("Sensitive [value redacted]"),
        Value::Array(a) => {
            if !a.iter().any(has_sensitive) {
                return v.clone();
            }
            Value::array(a.iter().map(redact).collect())
        }
        Value::Hash(h) => {
            if !h.values().any(has_sensitive) {
                return v.clone();
            }
            let mut m = Map::with_capacity(h.len());
            for (k, x) in h.iter() {
                m.insert(k.clone(), redact(x));
            }
            Value::hash(m)
        }
        _ => v.clone(),
    }
}

fn has_sensitive(v: &Value) -> bool {
    match v {
        Value::Sensitive(_) => true,
        Value::Array(a) => a.iter().any(has_sensitive),
        Value::Hash(h) => h.values().any(has_sensitive),
        _ => false,
    }
}

/// How one key's answer changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ChangeKind {
    /// Not found before, found now.
    Added,
    /// Found before, not found now.
    Removed,
    /// Found on both sides, with different answers.
    Changed,
    /// Found or not found before, an error now.
    NowError,
    /// An error before, found or not found now.
    Fixed,
}

impl ChangeKind {
    /// The kind's name in output: `added`, `removed`, `changed`, `error`, `fixed`.
    pub fn as_str(self) -> &'static str {
        match self {
            ChangeKind::Added => "added",
            ChangeKind::Removed => "removed",
            ChangeKind::Changed => "changed",
            ChangeKind::NowError => "error",
            ChangeKind::Fixed => "fixed",
        }
    }
}

/// The change between two answers of one key; `None` when they are the
/// same (or both errors).
pub fn compare(before: &Answer, after: &Answer) -> Option<ChangeKind> {
    use Answer::*;
    match (before, after) {
        (Error(_), Error(_)) | (NotFound, NotFound) => None,
        (Found(a), Found(b)) if a == b => None,
        (Found(_), Found(_)) => Some(ChangeKind::Changed),
        (NotFound, Found(_)) => Some(ChangeKind::Added),
        (Found(_), NotFound) => Some(ChangeKind::Removed),
        (_, Error(_)) => Some(ChangeKind::NowError),
        (Error(_), _) => Some(ChangeKind::Fixed),
    }
}

/// One key whose answer differs on one node.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct KeyChange {
    /// The key (as a data file names it).
    pub key: String,
    /// How it changed.
    pub kind: ChangeKind,
    /// The answer before (in `base`).
    pub before: Answer,
    /// The answer now (in `head`).
    pub after: Answer,
}

/// Every key of one node whose answer differs between `base` and `head`,
/// in the order of the keys (sorted when every key is compared). `keys`: the keys to compare (as `lookup()` takes them), or `None` for every key of
/// either side ([`Session::all_keys`] of both, their union). Errors: only
/// an error listing the keys (a configuration or data file of the global
/// or environment layer that cannot be read), with keys given too (a side
/// where one of them fails is then listed, once): a broken hiera.yaml on
/// either side fails the node whatever keys are asked; a key's own error
/// is an answer.
pub fn node_diff(
    base: &Session,
    head: &Session,
    keys: Option<&[String]>,
) -> Result<Vec<KeyChange>> {
    let keys_given = keys.is_some();
    // (the key shown, the name looked up)
    let keys: Vec<(String, String)> = match keys {
        Some(k) => k.iter().map(|k| (k.clone(), k.clone())).collect(),
        None => {
            let mut all: BTreeSet<String> = base.all_keys()?.into_iter().collect();
            all.extend(head.all_keys()?);
            all.into_iter()
                .filter_map(|k| lookup_name(&k).map(|n| (k, n)))
                .collect()
        }
    };
    // Whether each side's keys were listed (base, head): with keys given,
    // a side where a key fails is listed once, so that a side whose keys
    // cannot be listed (its hiera.yaml, or a data file of the global or
    // environment layer, cannot be read) fails the node as it does with
    // every key, instead of making each key an `error` change.
    let mut listed = [!keys_given, !keys_given];
    let mut changes = Vec::new();
    for (key, name) in keys {
        let before = Answer::of(base, &name);
        let after = Answer::of(head, &name);
        for (side, answer, session) in [(0, &before, base), (1, &after, head)] {
            if matches!(answer, Answer::Error(_)) && !listed[side] {
                session.all_keys()?;
                listed[side] = true;
            }
        }
        if let Some(kind) = compare(&before, &after) {
            changes.push(KeyChange {
                key,
                kind,
                before,
                after,
            });
        }
    }
    Ok(changes)
}

/// Nodes that share one change: the same key, kind and answers.
#[derive(Clone, Debug)]
pub struct Group {
    /// The change every node of the group has.
    pub change: KeyChange,
    /// How many nodes have it.
    pub count: usize,
    /// The first nodes that have it by name (at most [`Groups::examples`]),
    /// sorted: the same whatever order the nodes were added in.
    pub nodes: Vec<String>,
}

/// The changes of many nodes, grouped (see the module documentation).
#[derive(Debug)]
pub struct Groups {
    /// How many node names each group keeps (the count is always exact).
    pub examples: usize,
    groups: HashMap<KeyChange, (usize, Vec<String>)>,
    nodes: usize,
    changed_nodes: usize,
}

impl Groups {
    /// No nodes yet; each group keeps the names of its first `examples` nodes.
    pub fn new(examples: usize) -> Groups {
        Groups {
            examples,
            groups: HashMap::new(),
            nodes: 0,
            changed_nodes: 0,
        }
    }

    /// Adds one node and its changes (as [`node_diff`] returns them).
    pub fn add(&mut self, node: &str, changes: Vec<KeyChange>) {
        self.nodes += 1;
        if !changes.is_empty() {
            self.changed_nodes += 1;
        }
        for c in changes {
            let (count, nodes) = self.groups.entry(c).or_default();
            *count += 1;
            keep_example(nodes, self.examples, node);
        }
    }

    /// Adds every node of `other` (its example names after this one's).
    pub fn absorb(&mut self, other: Groups) {
        self.nodes += other.nodes;
        self.changed_nodes += other.changed_nodes;
        for (c, (n, names)) in other.groups {
            let (count, nodes) = self.groups.entry(c).or_default();
            *count += n;
            for name in names {
                keep_example(nodes, self.examples, &name);
            }
        }
    }

    /// How many nodes were added.
    pub fn nodes(&self) -> usize {
        self.nodes
    }

    /// How many of them have at least one change.
    pub fn changed_nodes(&self) -> usize {
        self.changed_nodes
    }

    /// How many groups there are.
    pub fn len(&self) -> usize {
        self.groups.len()
    }

    /// Whether no node has a change.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// The groups, the largest first; equal counts by key, kind and answers.
    /// Example node names are sorted.
    pub fn sorted(&self) -> Vec<Group> {
        let mut out: Vec<Group> = self
            .groups
            .iter()
            .map(|(c, (count, nodes))| {
                let mut nodes = nodes.clone();
                nodes.sort();
                Group {
                    change: c.clone(),
                    count: *count,
                    nodes,
                }
            })
            .collect();
        out.sort_by(|a, b| {
            b.count
                .cmp(&a.count)
                .then_with(|| a.change.key.cmp(&b.change.key))
                .then_with(|| a.change.kind.cmp(&b.change.kind))
                .then_with(|| answer_order(&a.change.before).cmp(&answer_order(&b.change.before)))
                .then_with(|| answer_order(&a.change.after).cmp(&answer_order(&b.change.after)))
        });
        out
    }
}

/// Keeps `node` among the `max` smallest names of `nodes`.
fn keep_example(nodes: &mut Vec<String>, max: usize, node: &str) {
    if nodes.len() < max {
        nodes.push(node.to_string());
        return;
    }
    if let Some(largest) = nodes.iter_mut().max() {
        if node < largest.as_str() {
            *largest = node.to_string();
        }
    }
}

fn answer_order(a: &Answer) -> (u8, &str) {
    match a {
        Answer::NotFound => (0, ""),
        Answer::Found(s) => (1, s),
        Answer::Error(s) => (2, s),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(s: &str) -> Answer {
        Answer::Found(s.to_string())
    }

    #[test]
    fn compare_every_pair() {
        let e = Answer::Error("boom".into());
        let e2 = Answer::Error("other".into());
        assert_eq!(compare(&found("1"), &found("1")), None);
        assert_eq!(compare(&found("1"), &found("2")), Some(ChangeKind::Changed));
        assert_eq!(
            compare(&Answer::NotFound, &found("1")),
            Some(ChangeKind::Added)
        );
        assert_eq!(
            compare(&found("1"), &Answer::NotFound),
            Some(ChangeKind::Removed)
        );
        assert_eq!(compare(&found("1"), &e), Some(ChangeKind::NowError));
        assert_eq!(compare(&Answer::NotFound, &e), Some(ChangeKind::NowError));
        assert_eq!(compare(&e, &found("1")), Some(ChangeKind::Fixed));
        assert_eq!(compare(&e, &Answer::NotFound), Some(ChangeKind::Fixed));
        assert_eq!(compare(&e, &e2), None);
        assert_eq!(compare(&Answer::NotFound, &Answer::NotFound), None);
    }

    #[test]
    fn hash_order_is_part_of_the_answer() {
        let mut a = Map::default();
        a.insert("x".into(), Value::from(1i64));
        a.insert("y".into(), Value::from(2i64));
        let mut b = Map::default();
        b.insert("y".into(), Value::from(2i64));
        b.insert("x".into(), Value::from(1i64));
        let (a, b) = (Value::hash(a), Value::hash(b));
        assert_eq!(a, b, "Value equality ignores order");
        assert_eq!(
            compare(&found(&to_json(&a)), &found(&to_json(&b))),
            Some(ChangeKind::Changed)
        );
    }

    #[test]
    fn sensitive_values_are_never_shown() {
        let secret = Value::Sensitive(std::sync::Arc::new(Value::from("hunter2")));
        let v = Value::array(vec![Value::from(1i64), secret]);
        let shown = to_json(&redact(&v));
        assert!(!shown.contains("hunter2"), "{shown}");
        assert!(shown.contains("Sensitive [value redacted]"), "{shown}");
    }

    fn change(key: &str, kind: ChangeKind, a: &str, b: &str) -> KeyChange {
        KeyChange {
            key: key.into(),
            kind,
            before: found(a),
            after: found(b),
        }
    }

    #[test]
    fn groups_count_every_node_and_keep_a_few_names() {
        let mut g = Groups::new(2);
        for n in ["n3", "n1", "n2"] {
            g.add(
                n,
                vec![change(
                    "ntp::servers",
                    ChangeKind::Changed,
                    "[\"a\"]",
                    "[\"b\"]",
                )],
            );
        }
        g.add(
            "n4",
            vec![change(
                "ntp::servers",
                ChangeKind::Changed,
                "[\"a\"]",
                "[\"c\"]",
            )],
        );
        g.add("n5", vec![]);
        let mut other = Groups::new(2);
        other.add(
            "n9",
            vec![change(
                "ntp::servers",
                ChangeKind::Changed,
                "[\"a\"]",
                "[\"c\"]",
            )],
        );
        other.add(
            "n8",
            vec![change(
                "ntp::servers",
                ChangeKind::Changed,
                "[\"a\"]",
                "[\"c\"]",
            )],
        );
        g.absorb(other);
        assert_eq!(g.nodes(), 7);
        assert_eq!(g.changed_nodes(), 6);
        let s = g.sorted();
        assert_eq!(s.len(), 2);
        assert_eq!(s[0].count, 3);
        assert_eq!(s[0].change.after, found("[\"b\"]"));
        assert_eq!(s[0].nodes, ["n1", "n2"], "the first two by name");
        assert_eq!(s[1].count, 3);
        assert_eq!(s[1].nodes, ["n4", "n8"]);
        assert!(!g.is_empty());
        assert!(Groups::new(1).is_empty());
    }
}
