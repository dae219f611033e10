//! Merging and concatenation, as ruby-hocon does them: `with_fallback`
//! (objects merged key by key, the higher one's keys first; any other
//! resolved value wins outright; unresolved values wait in a delayed
//! merge) and `ConfigConcatenation.consolidate` (adjacent strings, lists
//! and objects joined).

use super::number::Number;
use super::Node;

/// `high.with_fallback(low)`.
pub fn with_fallback(high: Node, low: Node) -> Node {
    match high {
        Node::Obj(mut h) => match low {
            Node::Obj(l) => {
                for (k, lv) in l {
                    match h.get_mut(&k) {
                        Some(hv) => {
                            let v = std::mem::replace(hv, Node::Null);
                            *hv = crate::stack::grow(|| with_fallback(v, lv));
                        }
                        None => {
                            h.insert(k, lv);
                        }
                    }
                }
                Node::Obj(h)
            }
            l if l.unmergeable() => Node::Merge(stack_with(Node::Obj(h), l)),
            _ => Node::Obj(h),
        },
        Node::Ref(_) | Node::Concat(_) => Node::Merge(stack_with(high, low)),
        Node::Merge(mut stack) => {
            if stack.last().is_some_and(ignores_fallbacks) {
                return Node::Merge(stack);
            }
            match low {
                Node::Merge(more) => stack.extend(more),
                other => stack.push(other),
            }
            Node::Merge(stack)
        }
        other => other,
    }
}

/// Whether a value in a merge stack hides everything below it.
fn ignores_fallbacks(n: &Node) -> bool {
    !matches!(n, Node::Obj(_)) && !n.unmergeable()
}

fn stack_with(high: Node, low: Node) -> Vec<Node> {
    let mut stack = vec![high];
    match low {
        Node::Merge(more) => stack.extend(more),
        other => stack.push(other),
    }
    stack
}

/// A value's text in a string concatenation (`transform_to_string`):
/// `None` for objects and lists.
pub fn concat_text(n: &Node) -> Option<String> {
    match n {
        Node::Str(s, _) => Some(s.clone()),
        Node::Num(_, text) => Some(text.clone()),
        Node::Bool(b) => Some(b.to_string()),
        Node::Null => Some("null".into()),
        _ => None,
    }
}

/// A value as ruby-hocon's `to_s` shows it in messages.
pub fn describe(n: &Node) -> String {
    match n {
        Node::Str(s, false) => format!("Quoted({})", json_string(s)),
        Node::Str(s, true) => format!("Unquoted({})", json_string(s)),
        Node::Num(Number::Float(_), t) => format!("ConfigDouble({t})"),
        Node::Num(_, t) => format!("ConfigInt({t})"),
        Node::Bool(b) => format!("ConfigBoolean({b})"),
        Node::Null => "ConfigNull(null)".into(),
        Node::List(_) => format!("SimpleConfigList({})", concise(n)),
        Node::Obj(_) => format!("SimpleConfigObject({})", concise(n)),
        Node::Ref(r) => format!("ConfigReference({})", r.expr()),
        Node::Concat(_) => "ConfigConcatenation".into(),
        Node::Merge(_) => "ConfigDelayedMerge".into(),
    }
}

fn json_string(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    crate::render::json_string(s, &mut out);
    out
}

/// ruby-hocon's concise rendering (JSON without spaces).
fn concise(n: &Node) -> String {
    match n {
        Node::Obj(o) => {
            let parts: Vec<String> = o
                .iter()
                .map(|(k, v)| format!("{}:{}", json_string(k), crate::stack::grow(|| concise(v))))
                .collect();
            format!("{{{}}}", parts.join(","))
        }
        Node::List(l) => {
            let parts: Vec<String> = l
                .iter()
                .map(|v| crate::stack::grow(|| concise(v)))
                .collect();
            format!("[{}]", parts.join(","))
        }
        Node::Str(s, _) => json_string(s),
        Node::Ref(r) => r.expr(),
        other => concat_text(other).unwrap_or_default(),
    }
}

/// Whether a value is whitespace-only unquoted text (dropped after a list
/// or an object in a concatenation).
fn ignored_whitespace(n: &Node) -> bool {
    matches!(n, Node::Str(s, true) if s.chars().all(super::lexer::is_whitespace))
}

/// `ConfigConcatenation.join`: appends `right` to `builder`, joining it
/// with the last value when they combine.
fn join(builder: &mut Vec<Node>, right: Node) -> Result<(), String> {
    let Some(left) = builder.pop() else {
        builder.push(right);
        return Ok(());
    };
    let joined = match (left, right) {
        (Node::Obj(l), Node::Obj(r)) => with_fallback(Node::Obj(r), Node::Obj(l)),
        (Node::List(mut l), Node::List(r)) => {
            l.extend(r);
            Node::List(l)
        }
        (left @ (Node::List(_) | Node::Obj(_)), right) if ignored_whitespace(&right) => left,
        (left, right) if left.unmergeable() || right.unmergeable() => {
            builder.push(left);
            builder.push(right);
            return Ok(());
        }
        (left, right) => match (concat_text(&left), concat_text(&right)) {
            (Some(a), Some(b)) => Node::Str(a + &b, false),
            _ => {
                return Err(format!(
                    "Cannot concatenate object or list with a non-object-or-list, {} and {} are not compatible",
                    describe(&left),
                    describe(&right)
                ))
            }
        },
    };
    builder.push(joined);
    Ok(())
}

/// `ConfigConcatenation.consolidate`: joins what can be joined.
pub fn consolidate(pieces: Vec<Node>) -> Result<Vec<Node>, String> {
    if pieces.len() < 2 {
        return Ok(pieces);
    }
    let mut out = Vec::with_capacity(pieces.len());
    for p in pieces {
        match p {
            Node::Concat(inner) => {
                for q in inner {
                    join(&mut out, q)?;
                }
            }
            other => join(&mut out, other)?,
        }
    }
    Ok(out)
}

/// `ConfigConcatenation.concatenate`: one value, a concatenation of what
/// is left unjoined, or nothing.
pub fn concatenate(pieces: Vec<Node>) -> Result<Option<Node>, String> {
    let mut c = consolidate(pieces)?;
    Ok(match c.len() {
        0 => None,
        1 => c.pop(),
        _ => Some(Node::Concat(c)),
    })
}

#[cfg(test)]
mod tests {
    use super::super::Obj;
    use super::*;

    fn obj(pairs: &[(&str, i64)]) -> Node {
        let mut o = Obj::new();
        for (k, v) in pairs {
            o.insert(k.to_string(), Node::Num(Number::Int(*v), v.to_string()));
        }
        Node::Obj(o)
    }

    #[test]
    fn objects_merge_with_the_higher_keys_first() {
        let m = with_fallback(obj(&[("w", 2)]), obj(&[("z", 1), ("w", 0)]));
        assert_eq!(m, obj(&[("w", 2), ("z", 1)]));
        assert_eq!(with_fallback(Node::Null, obj(&[("a", 1)])), Node::Null);
    }

    #[test]
    fn concatenation() {
        let s = |t: &str| Node::Str(t.into(), true);
        assert_eq!(
            concatenate(vec![s("a"), s(" "), Node::Bool(true)]).unwrap(),
            Some(Node::Str("a true".into(), false))
        );
        assert_eq!(
            concatenate(vec![obj(&[("x", 1)]), obj(&[("y", 2)])]).unwrap(),
            Some(obj(&[("y", 2), ("x", 1)]))
        );
        let e = concatenate(vec![Node::Str("x".into(), false), Node::List(vec![])]).unwrap_err();
        assert!(e.contains("Quoted(\"x\") and SimpleConfigList([])"), "{e}");
    }
}
