//! The data files that contributed to a lookup's answer, read from its
//! explanation (`hiera-lookup --all --sources`): every location (`Path`
//! or `URI` node) with a `Found key` event, in search order, each once.
//! The `Searching for "lookup_options"` subtrees are left out (options
//! change how values merge, they are not values); interpolations inside
//! found values are searches of their own in the tree and count.

use super::{Item, Kind, Node};

/// The found locations under `root`, deduplicated, in order.
pub(super) fn found_locations(root: &Node) -> Vec<String> {
    let mut out = Vec::new();
    walk(root, &mut out);
    out
}

fn walk(node: &Node, out: &mut Vec<String>) {
    crate::stack::grow(|| {
        if let Kind::Plain(h) = &node.kind {
            if h == "Searching for \"lookup_options\"" {
                return;
            }
            let at = h
                .strip_prefix("Path \"")
                .or_else(|| h.strip_prefix("URI \""))
                .and_then(|r| r.strip_suffix('"'));
            if let Some(at) = at {
                let found = node
                    .items
                    .iter()
                    .any(|i| matches!(i, Item::Value(p, _) if p.starts_with("Found key: ")));
                if found && !out.iter().any(|o| o == at) {
                    out.push(at.to_string());
                }
            }
        }
        for i in &node.items {
            if let Item::Node(n) = i {
                walk(n, out);
            }
        }
    })
}
