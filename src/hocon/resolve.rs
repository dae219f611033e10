//! Resolution, as ruby-hocon's `ResolveContext` does it, and unwrapping
//! into a [`Value`].
//!
//! A substitution looks its path up from the root (then, for one that an
//! include relativized, without the include's prefix; then, for a one-
//! element path, in the environment). A value in a delayed merge that is a
//! substitution or a concatenation sees its own path as the merge of the
//! values below it (a self-reference), or as undefined when there are
//! none. Resolving a substitution that is already being resolved is a
//! cycle: the innermost substitution being resolved fails with ruby-hocon's
//! message (or is undefined when it is optional).

use super::merge::{consolidate, with_fallback};
use super::number::Number;
use super::{HoconError, Node, Obj, Subst, MAX_DEPTH, MAX_RESOLVE_STEPS};
use crate::map::Map;
use crate::value::Value;
use std::collections::HashMap;
use std::rc::Rc;

enum Fail {
    /// A cycle: the trace of substitutions being resolved.
    Cycle(String),
    Error(HoconError),
}

type R<T> = Result<T, Fail>;

struct Resolver<'a> {
    root: &'a Obj,
    origin: &'a Rc<str>,
    memo: HashMap<Vec<String>, Option<Node>>,
    /// Paths that stand for the rest of a delayed merge while one of its
    /// values is resolved (the latest first to match).
    replacements: Vec<(Vec<String>, Option<Node>)>,
    refs: Vec<Rc<Subst>>,
    steps: usize,
    depth: usize,
}

/// Resolves a parsed document and unwraps it into its Hash.
pub fn resolve_root(root: Obj, origin: &Rc<str>) -> Result<Value, HoconError> {
    let mut r = Resolver {
        root: &root,
        origin,
        memo: HashMap::new(),
        replacements: Vec::new(),
        refs: Vec::new(),
        steps: 0,
        depth: 0,
    };
    let resolved = match r.object(&root, Some(&[]), true) {
        Ok(o) => o,
        Err(Fail::Error(e)) => return Err(e),
        // Every cycle is caught by the substitution that met it.
        Err(Fail::Cycle(trace)) => {
            return Err(HoconError::at(
                origin,
                1,
                format!("cycle of substitutions involving {trace}"),
            ))
        }
    };
    unwrap(&Node::Obj(resolved), origin)
}

/// A resolved value as a [`Value`] (ruby-hocon's `unwrapped`).
fn unwrap(n: &Node, origin: &Rc<str>) -> Result<Value, HoconError> {
    Ok(match n {
        Node::Obj(o) => {
            let mut m = Map::with_capacity(o.len());
            for (k, v) in o {
                m.insert(
                    Value::from(k.as_str()),
                    crate::stack::grow(|| unwrap(v, origin))?,
                );
            }
            Value::Hash(m)
        }
        Node::List(l) => {
            let items = l
                .iter()
                .map(|v| crate::stack::grow(|| unwrap(v, origin)))
                .collect::<Result<Vec<_>, _>>()?;
            Value::Array(crate::list::List::from(items))
        }
        Node::Str(s, _) => Value::from(s.as_str()),
        Node::Num(Number::Int(i), _) => Value::Int(*i),
        Node::Num(Number::Big(s), _) => Value::BigInt(s.as_str().into()),
        Node::Num(Number::Float(f), text) => {
            if !f.is_finite() {
                // Ruby's `to_i` of an infinite Float (FloatDomainError).
                return Err(HoconError::at(origin, 1, format!("Infinity ({text})")));
            }
            Value::Float(*f)
        }
        Node::Bool(b) => Value::Bool(*b),
        Node::Null => Value::Nil,
        Node::Ref(_) | Node::Concat(_) | Node::Merge(_) => {
            return Err(HoconError::at(origin, 1, "value was not resolved"))
        }
    })
}

/// Merges two resolved values (`with_fallback` of resolved values).
fn merged(high: Node, low: Node) -> Node {
    with_fallback(high, low)
}

impl Resolver<'_> {
    fn step(&mut self, line: usize) -> R<()> {
        self.steps += 1;
        if self.steps > MAX_RESOLVE_STEPS {
            return Err(Fail::Error(HoconError::at(
                self.origin,
                line,
                format!("resolving substitutions took more than {MAX_RESOLVE_STEPS} steps"),
            )));
        }
        Ok(())
    }

    fn object(&mut self, o: &Obj, path: Option<&[String]>, rooted: bool) -> R<Obj> {
        let mut out = Obj::with_capacity(o.len());
        for (k, v) in o {
            let child: Option<Vec<String>> = path.map(|p| {
                let mut c = p.to_vec();
                c.push(k.clone());
                c
            });
            if let Some(r) = self.value(v, child.as_deref(), rooted)? {
                out.insert(k.clone(), r);
            }
        }
        Ok(out)
    }

    /// Resolves `n`, which sits at `path` (when it is a field's value);
    /// `rooted` when it is the root tree's own node there (then the
    /// result is remembered). `None`: undefined.
    fn value(&mut self, n: &Node, path: Option<&[String]>, rooted: bool) -> R<Option<Node>> {
        let memo_key = (rooted && self.replacements.is_empty())
            .then_some(path)
            .flatten()
            .filter(|_| {
                !matches!(
                    n,
                    Node::Str(..) | Node::Num(..) | Node::Bool(_) | Node::Null
                )
            });
        if let Some(k) = memo_key {
            if let Some(v) = self.memo.get(k) {
                return Ok(v.clone());
            }
        }
        self.step(1)?;
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            self.depth -= 1;
            return Err(Fail::Error(HoconError::at(
                self.origin,
                1,
                format!("substitutions nested more than {MAX_DEPTH} deep"),
            )));
        }
        let r = crate::stack::grow(|| self.value_inner(n, path, rooted));
        self.depth -= 1;
        let r = r?;
        if let Some(k) = memo_key {
            self.memo.insert(k.to_vec(), r.clone());
        }
        Ok(r)
    }

    fn value_inner(&mut self, n: &Node, path: Option<&[String]>, rooted: bool) -> R<Option<Node>> {
        match n {
            Node::Obj(o) => Ok(Some(Node::Obj(self.object(o, path, rooted)?))),
            Node::List(l) => {
                let mut out = Vec::with_capacity(l.len());
                for v in l {
                    if let Some(r) = self.value(v, None, false)? {
                        out.push(r);
                    }
                }
                Ok(Some(Node::List(out)))
            }
            Node::Ref(s) => self.substitution(s),
            Node::Concat(pieces) => {
                let mut resolved = Vec::with_capacity(pieces.len());
                for p in pieces {
                    if let Some(r) = self.value(p, None, false)? {
                        resolved.push(r);
                    }
                }
                let line = pieces
                    .iter()
                    .find_map(|p| match p {
                        Node::Ref(s) => Some(s.line),
                        _ => None,
                    })
                    .unwrap_or(1);
                let mut joined = consolidate(resolved)
                    .map_err(|m| Fail::Error(HoconError::at(self.origin, line, m)))?;
                Ok(match joined.len() {
                    0 => None,
                    _ => Some(joined.swap_remove(0)),
                })
            }
            Node::Merge(stack) => {
                let mut out: Option<Node> = None;
                for (i, elem) in stack.iter().enumerate() {
                    let r = match path {
                        Some(p) if elem.unmergeable() => {
                            let rest = &stack[i + 1..];
                            let remainder = match rest.len() {
                                0 => None,
                                1 => Some(rest[0].clone()),
                                _ => Some(Node::Merge(rest.to_vec())),
                            };
                            self.replacements.push((p.to_vec(), remainder));
                            let r = self.value(elem, path, false);
                            self.replacements.pop();
                            r?
                        }
                        _ => self.value(elem, path, false)?,
                    };
                    if let Some(r) = r {
                        out = Some(match out {
                            None => r,
                            Some(m) => merged(m, r),
                        });
                    }
                }
                Ok(out)
            }
            other => Ok(Some(other.clone())),
        }
    }

    fn substitution(&mut self, s: &Rc<Subst>) -> R<Option<Node>> {
        if self.refs.iter().any(|r| r.id == s.id) {
            let mut trace: Vec<String> = self.refs.iter().map(|r| r.expr()).collect();
            trace.push(s.expr());
            return Err(Fail::Cycle(trace.join(", ")));
        }
        self.refs.push(s.clone());
        let mut found = self.lookup(&s.path);
        if matches!(found, Ok(None)) && s.prefix > 0 {
            found = self.lookup(&s.path[s.prefix..]);
        }
        self.refs.pop();
        match found {
            Ok(Some(v)) => Ok(Some(v)),
            Ok(None) => {
                let unprefixed = &s.path[s.prefix..];
                if unprefixed.len() == 1 {
                    if let Ok(v) = std::env::var(&unprefixed[0]) {
                        return Ok(Some(Node::Str(v, false)));
                    }
                }
                if s.optional {
                    Ok(None)
                } else {
                    Err(Fail::Error(HoconError::at(
                        &s.origin,
                        s.line,
                        format!("Could not resolve substitution to a value: {}", s.expr()),
                    )))
                }
            }
            Err(Fail::Cycle(trace)) => {
                if s.optional {
                    Ok(None)
                } else {
                    Err(Fail::Error(HoconError::at(
                        &s.origin,
                        s.line,
                        format!(
                            "Could not resolve substitution to a value: {} was part of a cycle of substitutions involving {}",
                            s.expr(),
                            trace
                        ),
                    )))
                }
            }
            Err(e) => Err(e),
        }
    }

    /// The resolved value at `path` from the root, `None` when there is
    /// none.
    fn lookup(&mut self, path: &[String]) -> R<Option<Node>> {
        let root: &Obj = self.root;
        let mut cur = Cur::Root(root);
        let mut rooted = true;
        for i in 0..path.len() {
            let prefix = &path[..=i];
            let replaced = self
                .replacements
                .iter()
                .rev()
                .find(|(p, _)| p.as_slice() == prefix)
                .map(|(_, v)| v.clone());
            let child = match replaced {
                Some(None) => return Ok(None),
                Some(Some(n)) => {
                    rooted = false;
                    Child::Owned(n)
                }
                None => match &cur {
                    Cur::Root(o) => match o.get(&path[i]) {
                        Some(n) => Child::Root(n),
                        None => return Ok(None),
                    },
                    Cur::Owned(o) => match o.get(&path[i]) {
                        Some(n) => Child::Owned(n.clone()),
                        None => return Ok(None),
                    },
                },
            };
            if i + 1 == path.len() {
                return self.value(child.node(), Some(prefix), rooted);
            }
            cur = match child {
                Child::Root(Node::Obj(o)) => Cur::Root(o),
                Child::Owned(Node::Obj(o)) => Cur::Owned(o),
                c if c.node().unmergeable() => {
                    let r = self.value(c.node(), Some(prefix), rooted)?;
                    rooted = false;
                    match r {
                        Some(Node::Obj(o)) => Cur::Owned(o),
                        _ => return Ok(None),
                    }
                }
                _ => return Ok(None),
            };
        }
        Ok(None)
    }
}

/// Where a lookup is: in the root tree, or in a value made on the way.
enum Cur<'a> {
    Root(&'a Obj),
    Owned(Obj),
}

/// A value a lookup reached.
enum Child<'a> {
    Root(&'a Node),
    Owned(Node),
}

impl Child<'_> {
    fn node(&self) -> &Node {
        match self {
            Child::Root(n) => n,
            Child::Owned(n) => n,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::parse_str;
    use crate::value::Value;

    fn json(s: &str) -> String {
        match parse_str(s) {
            Ok(v) => crate::render::to_json(&v),
            Err(e) => format!("ERR {e}"),
        }
    }

    #[test]
    fn substitutions_and_self_references() {
        assert_eq!(
            json("a = [1]\nb = ${a} [2]\nc = ${a}[2]"),
            r#"{"a":[1],"b":[1,2],"c":[1,2]}"#
        );
        assert_eq!(json("a = [0]\na += 1"), r#"{"a":[0,1]}"#);
        assert_eq!(json("a += 1"), r#"{"a":[1]}"#);
        assert_eq!(json("a = ${?a} [1]"), r#"{"a":[1]}"#);
        assert_eq!(json("a = ${?a}"), "{}");
        assert_eq!(
            json("a = 1\na = ${b}\nb = {x = 1}"),
            r#"{"a":{"x":1},"b":{"x":1}}"#
        );
        assert_eq!(json("x = ${a} \na = 1"), r#"{"x":1,"a":1}"#);
        assert_eq!(
            json("d = {x=1} {y=2}\ne = ${d} {z=1}"),
            r#"{"d":{"y":2,"x":1},"e":{"z":1,"y":2,"x":1}}"#
        );
        assert_eq!(
            json("a=${?NOPE_X}\nb=[${?NOPE_X}, 1]\nc={x=${?NOPE}}\nd = ${?NOPE} foo"),
            r#"{"b":[1],"c":{},"d":" foo"}"#
        );
    }

    #[test]
    fn cycles_are_errors() {
        assert_eq!(
            json("a = ${b}\nb = ${a}"),
            "ERR String: 2: Could not resolve substitution to a value: ${a} was part of a cycle of substitutions involving ${b}, ${a}, ${b}"
        );
        assert_eq!(
            json("a = ${a}"),
            "ERR String: 1: Could not resolve substitution to a value: ${a} was part of a cycle of substitutions involving ${a}, ${a}"
        );
    }

    #[test]
    fn values() {
        assert_eq!(
            json("x = 1.5\ny = 1.0 x\nz = true x\nw = null x\nv = ${x} y\nu = foo    bar // c\ns = \"a\"  \"b\"\ne = 1E2\nn = -0.0\nk = 5 ${x}"),
            r#"{"x":1.5,"y":"1.0 x","z":"true x","w":"null x","v":"1.5 y","u":"foo    bar","s":"a  b","e":100,"n":0,"k":"5 1.5"}"#
        );
        let v = parse_str("big = 12345678901234567890123\ni = 010\nhex = 0x10\nt = yes").unwrap();
        let Value::Hash(h) = v else { panic!() };
        assert_eq!(
            h.get(&Value::from("big")),
            Some(&Value::BigInt("12345678901234567890123".into()))
        );
        assert_eq!(h.get(&Value::from("i")), Some(&Value::Int(8)));
        assert_eq!(h.get(&Value::from("hex")), Some(&Value::from("0x10")));
        assert_eq!(h.get(&Value::from("t")), Some(&Value::from("yes")));
    }

    #[test]
    fn environment_variables() {
        let path = std::env::var("PATH").unwrap_or_default();
        let v = parse_str("p = ${PATH}").unwrap();
        let Value::Hash(h) = v else { panic!() };
        assert_eq!(h.get(&Value::from("p")), Some(&Value::from(path.as_str())));
    }

    #[test]
    fn hostile_chains_are_bounded() {
        let mut s = String::new();
        for i in 0..3000 {
            s.push_str(&format!("k{i} = ${{k{}}}\n", i + 1));
        }
        s.push_str("k3000 = 1\n");
        let e = parse_str(&s).unwrap_err();
        assert!(e.message.contains("nested more than"), "{}", e.message);
    }
}
