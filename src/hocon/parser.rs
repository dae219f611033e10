//! The HOCON document parser: ruby-hocon's `ConfigDocumentParser` (the
//! syntax, and its messages) and `ConfigParser` (path expressions, `+=`,
//! duplicate keys, includes) in one pass, into an unresolved [`Node`].

use super::lexer::{tokenize, Tok, Token};
use super::merge::{concatenate, with_fallback};
use super::{HoconError, Node, Obj, Subst, MAX_DEPTH};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// ruby-hocon's `MAX_INCLUDE_DEPTH`.
pub const MAX_INCLUDE_DEPTH: usize = 50;

struct Parser<'a> {
    toks: Vec<Token>,
    pos: usize,
    origin: &'a Rc<str>,
    /// The file being parsed, when it is an included file (its plain
    /// includes are relative to it).
    file: Option<&'a Path>,
    includes: usize,
    ids: &'a mut usize,
    /// Reads the files `include file(...)` names.
    reader: &'a mut dyn super::IncludeReader,
    /// The enclosing fields' paths (for `+=` and includes).
    path_stack: Vec<Vec<String>>,
    /// How many lists enclose the current value.
    array_count: usize,
    depth: usize,
}

/// Parses one document into its root object. `file` is the included
/// file's path (`None` for the file Puppet handed over as a String),
/// `includes` how deep in includes it is, `ids` the counter that gives
/// substitutions their identity, `reader` what reads included files.
pub fn parse_document(
    text: &str,
    origin: &Rc<str>,
    file: Option<&Path>,
    includes: usize,
    ids: &mut usize,
    reader: &mut dyn super::IncludeReader,
) -> Result<Obj, HoconError> {
    let mut p = Parser {
        toks: tokenize(text),
        pos: 0,
        origin,
        file,
        includes,
        ids,
        reader,
        path_stack: Vec::new(),
        array_count: 0,
        depth: 0,
    };
    p.document()
}

fn is_value(t: &Tok) -> bool {
    matches!(
        t,
        Tok::Quoted(_) | Tok::Number(..) | Tok::Bool(_) | Tok::Null | Tok::Unquoted(_)
    )
}

fn unquoted_ws(t: &Tok) -> bool {
    matches!(t, Tok::Unquoted(s) if s.chars().all(super::lexer::is_whitespace))
}

/// `add_quote_suggestion` as ruby-hocon calls it (it never knows the
/// previous field's name).
fn quote_suggestion(bad: &Tok, message: String) -> String {
    if *bad == Tok::Eof {
        message
    } else {
        format!(
            "{message} (if you intended {} to be part of a key or string value, try enclosing the key or value in double quotes",
            bad.describe()
        )
    }
}

impl Parser<'_> {
    fn next(&mut self) -> Token {
        let t = self.toks[self.pos.min(self.toks.len() - 1)].clone();
        if self.pos < self.toks.len() {
            self.pos += 1;
        }
        t
    }

    fn back(&mut self) {
        self.pos -= 1;
    }

    fn err(&self, line: usize, message: impl Into<String>) -> HoconError {
        HoconError::at(self.origin, line, message)
    }

    /// The line the parser is at (the last token read).
    fn line(&self) -> usize {
        self.toks[self.pos.saturating_sub(1).min(self.toks.len() - 1)].line
    }

    /// `next_token_collecting_whitespace`.
    fn next_collecting(&mut self) -> Token {
        loop {
            let t = self.next();
            match t.tok {
                Tok::Ignored | Tok::Newline | Tok::Comment => {}
                ref u if unquoted_ws(u) => {}
                _ => return t,
            }
        }
    }

    /// `check_element_separator`: a comma, or a newline.
    fn element_separator(&mut self) -> bool {
        let mut saw_newline = false;
        loop {
            let t = self.next();
            match t.tok {
                Tok::Ignored | Tok::Comment => {}
                ref u if unquoted_ws(u) => {}
                Tok::Newline => saw_newline = true,
                Tok::Comma => return true,
                _ => {
                    self.back();
                    return saw_newline;
                }
            }
        }
    }

    fn enter(&mut self, line: usize) -> Result<(), HoconError> {
        self.depth += 1;
        if self.depth > MAX_DEPTH {
            return Err(self.err(line, format!("values nested more than {MAX_DEPTH} deep")));
        }
        Ok(())
    }

    fn document(&mut self) -> Result<Obj, HoconError> {
        let t = self.next_collecting();
        let root = match t.tok {
            Tok::OpenCurly | Tok::OpenSquare => {
                let v = self.value(t)?;
                let t = self.next_collecting();
                if t.tok != Tok::Eof {
                    return Err(self.err(
                        t.line,
                        format!(
                            "Document has trailing tokens after first object or array: {}",
                            t.tok.describe()
                        ),
                    ));
                }
                v
            }
            _ => {
                self.back();
                Node::Obj(self.object(false)?)
            }
        };
        match root {
            Node::Obj(o) => Ok(o),
            _ => Err(self.err(1, " has type LIST rather than object at file root")),
        }
    }

    fn value(&mut self, t: Token) -> Result<Node, HoconError> {
        match t.tok {
            Tok::OpenCurly => {
                self.enter(t.line)?;
                let o = crate::stack::grow(|| self.object(true));
                self.depth -= 1;
                Ok(Node::Obj(o?))
            }
            Tok::OpenSquare => {
                self.enter(t.line)?;
                let l = crate::stack::grow(|| self.array());
                self.depth -= 1;
                l
            }
            Tok::Subst(optional, expr) => self.substitution(optional, &expr, t.line),
            Tok::Quoted(s) => Ok(Node::Str(s, false)),
            Tok::Unquoted(s) => Ok(Node::Str(s, true)),
            Tok::Number(n, text) => Ok(Node::Num(n, text)),
            Tok::Bool(b) => Ok(Node::Bool(b)),
            Tok::Null => Ok(Node::Null),
            other => Err(self.err(
                t.line,
                quote_suggestion(
                    &other,
                    format!(
                        "Expecting a value but got wrong token: {}",
                        other.describe()
                    ),
                ),
            )),
        }
    }

    fn substitution(
        &mut self,
        optional: bool,
        expr: &[Token],
        line: usize,
    ) -> Result<Node, HoconError> {
        let path = self.path_expression(expr, line)?;
        *self.ids += 1;
        Ok(Node::Ref(Rc::new(Subst {
            id: *self.ids,
            path,
            prefix: 0,
            optional,
            origin: self.origin.clone(),
            line,
        })))
    }

    /// `PathParser.parse_path_expression`: quoted strings are one element
    /// each, other text is split at `.`.
    fn path_expression(&self, expr: &[Token], line: usize) -> Result<Vec<String>, HoconError> {
        if expr.is_empty() {
            return Err(self.err(line, "Expecting a field name or path here, but got nothing"));
        }
        // Each element: its text, and whether it may be empty.
        let mut buf: Vec<(String, bool)> = vec![(String::new(), false)];
        for t in expr {
            match &t.tok {
                Tok::Ignored => {}
                Tok::Quoted(s) => {
                    let cur = buf.last_mut().expect("never empty");
                    cur.0.push_str(s);
                    if cur.0.is_empty() {
                        cur.1 = true;
                    }
                }
                other => {
                    let text = match other {
                        Tok::Unquoted(s) => s.clone(),
                        Tok::Number(_, text) => text.clone(),
                        Tok::Bool(b) => b.to_string(),
                        Tok::Null => "null".to_string(),
                        other => {
                            return Err(self.err(
                                t.line,
                                format!(
                                    "Token not allowed in path expression: {} (you can double-quote this token if you really want it here)",
                                    other.describe()
                                ),
                            ))
                        }
                    };
                    let mut parts = text.split('.');
                    buf.last_mut()
                        .expect("never empty")
                        .0
                        .push_str(parts.next().unwrap_or(""));
                    for part in parts {
                        buf.push((part.to_string(), false));
                    }
                }
            }
        }
        if buf
            .iter()
            .any(|(s, can_be_empty)| s.is_empty() && !can_be_empty)
        {
            return Err(self.err(
                line,
                "path has a leading, trailing, or two adjacent period '.' (use quoted \"\" empty string if you want an empty element)",
            ));
        }
        Ok(buf.into_iter().map(|(s, _)| s).collect())
    }

    /// `consolidate_values`: the values after a separator, up to the end
    /// of the line, as one value (a concatenation when there are several).
    fn consolidated(&mut self) -> Result<Option<Node>, HoconError> {
        let mut t = self.next_collecting();
        let start = self.pos - 1;
        let mut values = Vec::new();
        let mut end = start;
        loop {
            match t.tok {
                Tok::Ignored => {}
                Tok::Quoted(_)
                | Tok::Unquoted(_)
                | Tok::Number(..)
                | Tok::Bool(_)
                | Tok::Null
                | Tok::Subst(..)
                | Tok::OpenCurly
                | Tok::OpenSquare => {
                    values.push(self.value(t)?);
                    end = self.pos;
                }
                _ => break,
            }
            t = self.next();
        }
        self.pos = end;
        match values.len() {
            0 => Ok(None),
            1 => Ok(values.pop()),
            _ => {
                let line = self.line();
                concatenate(values)
                    .map_err(|m| self.err(line, m))
                    .map(|v| v.or(Some(Node::Str(String::new(), false))))
            }
        }
    }

    fn array(&mut self) -> Result<Node, HoconError> {
        self.array_count += 1;
        let mut out = Vec::new();
        let r = self.array_items(&mut out);
        self.array_count -= 1;
        r.map(|()| Node::List(out))
    }

    fn array_items(&mut self, out: &mut Vec<Node>) -> Result<(), HoconError> {
        let starts_value =
            |t: &Tok| is_value(t) || matches!(t, Tok::OpenCurly | Tok::OpenSquare | Tok::Subst(..));
        match self.consolidated()? {
            Some(v) => out.push(v),
            None => {
                let t = self.next_collecting();
                if t.tok == Tok::CloseSquare {
                    return Ok(());
                } else if starts_value(&t.tok) {
                    let v = self.value(t)?;
                    out.push(v);
                } else {
                    let d = t.tok.describe();
                    return Err(self.err(t.line, format!("List should have ] or a first element after the open [, instead had token: {d} (if you want {d} to be part of a string value, then double-quote it)")));
                }
            }
        }
        loop {
            if !self.element_separator() {
                let t = self.next_collecting();
                if t.tok == Tok::CloseSquare {
                    return Ok(());
                }
                let d = t.tok.describe();
                return Err(self.err(t.line, format!("List should have ended with ] or had a comma, instead had token: {d} (if you want {d} to be part of a string value, then double-quote it)")));
            }
            match self.consolidated()? {
                Some(v) => out.push(v),
                None => {
                    let t = self.next_collecting();
                    if starts_value(&t.tok) {
                        let v = self.value(t)?;
                        out.push(v);
                    } else if t.tok == Tok::CloseSquare {
                        self.back();
                    } else {
                        let d = t.tok.describe();
                        return Err(self.err(t.line, format!("List should have had new element after a comma, instead had token: {d} (if you want the comma or {d} to be part of a string value, then double-quote it)")));
                    }
                }
            }
        }
    }

    /// A field's key: the value and unquoted tokens up to the separator.
    fn key(&mut self, first: Token) -> Result<Vec<String>, HoconError> {
        let mut expr = Vec::new();
        let mut t = first;
        while is_value(&t.tok) {
            expr.push(t);
            t = self.next();
        }
        if expr.is_empty() {
            return Err(self.err(
                t.line,
                format!(
                    "expecting a close brace or a field name here, got {}",
                    t.tok.describe()
                ),
            ));
        }
        self.back();
        let line = expr[0].line;
        self.path_expression(&expr, line)
    }

    fn object(&mut self, had_open: bool) -> Result<Obj, HoconError> {
        let mut values = Obj::new();
        loop {
            let t = self.next_collecting();
            match &t.tok {
                Tok::CloseCurly => {
                    if !had_open {
                        return Err(self.err(
                            t.line,
                            quote_suggestion(
                                &t.tok,
                                "unbalanced close brace '}' with no open brace".into(),
                            ),
                        ));
                    }
                    return Ok(values);
                }
                Tok::Eof if !had_open => return Ok(values),
                Tok::Unquoted(s) if s == "include" => self.include(&mut values)?,
                _ => self.field(t, &mut values)?,
            }
            if !self.element_separator() {
                let t = self.next_collecting();
                match t.tok {
                    Tok::CloseCurly if had_open => return Ok(values),
                    Tok::CloseCurly => {
                        return Err(self.err(
                            t.line,
                            quote_suggestion(
                                &t.tok,
                                "unbalanced close brace '}' with no open brace".into(),
                            ),
                        ))
                    }
                    Tok::Eof if !had_open => return Ok(values),
                    ref other => {
                        return Err(self.err(
                            t.line,
                            quote_suggestion(
                                other,
                                format!(
                                    "Expecting close brace }} or a comma, got {}",
                                    other.describe()
                                ),
                            ),
                        ))
                    }
                }
            }
        }
    }

    fn field(&mut self, first: Token, values: &mut Obj) -> Result<(), HoconError> {
        let path = self.key(first)?;
        let after = self.next_collecting();
        let after_line = after.line;
        let plus = after.tok == Tok::PlusEquals;
        self.path_stack.push(path.clone());
        if plus && self.array_count > 0 {
            return Err(self.err(after.line, "Due to current limitations of the config parser, += does not work nested inside a list. += expands to a ${} substitution and the path in ${} cannot currently refer to list elements. You might be able to move the += outside of the list and then refer to it from inside the list with ${}."));
        }
        if plus {
            self.array_count += 1;
        }
        let value = match after.tok {
            Tok::OpenCurly => self.value(after),
            Tok::Colon | Tok::Equals | Tok::PlusEquals => match self.consolidated() {
                Ok(Some(v)) => Ok(v),
                Ok(None) => {
                    let t = self.next_collecting();
                    self.value(t)
                }
                Err(e) => Err(e),
            },
            ref other => Err(self.err(
                after.line,
                quote_suggestion(
                    other,
                    format!(
                        "Key '{}' may not be followed by token: {}",
                        super::render_path(&path),
                        other.describe()
                    ),
                ),
            )),
        };
        if plus {
            self.array_count -= 1;
        }
        let mut value = value?;
        if plus {
            let full: Vec<String> = self.path_stack.iter().flatten().cloned().collect();
            *self.ids += 1;
            let previous = Node::Ref(Rc::new(Subst {
                id: *self.ids,
                path: full,
                prefix: 0,
                optional: true,
                origin: self.origin.clone(),
                line: after_line,
            }));
            value = Node::Concat(vec![previous, Node::List(vec![value])]);
        }
        self.path_stack.pop();
        let (key, rest) = path.split_first().expect("paths are never empty");
        if !rest.is_empty() {
            for k in rest.iter().rev() {
                let mut o = Obj::new();
                o.insert(k.clone(), value);
                value = Node::Obj(o);
            }
        }
        match values.get_mut(key) {
            Some(existing) => {
                let old = std::mem::replace(existing, Node::Null);
                *existing = with_fallback(value, old);
            }
            None => {
                values.insert(key.clone(), value);
            }
        }
        Ok(())
    }

    fn include(&mut self, values: &mut Obj) -> Result<(), HoconError> {
        let t = self.next_collecting();
        let (kind, name) = match t.tok {
            Tok::Unquoted(ref k) if k == "file(" || k == "classpath(" || k == "url(" => {
                let kind = k.clone();
                let n = self.next_collecting();
                let Tok::Quoted(name) = n.tok else {
                    return Err(self.err(n.line, format!("expecting a quoted string inside file(), classpath(), or url(), rather than: {}", n.tok.describe())));
                };
                let c = self.next_collecting();
                if c.tok != Tok::Unquoted(")".into()) {
                    return Err(self.err(
                        c.line,
                        format!(
                            "expecting a close parentheses ')' here, not: {}",
                            c.tok.describe()
                        ),
                    ));
                }
                (kind, name)
            }
            Tok::Unquoted(_) => {
                return Err(self.err(t.line, format!("expecting include parameter to be quoted filename, file(), classpath(), or url(). No spaces are allowed before the open paren. Not expecting: {}", t.tok.describe())));
            }
            Tok::Quoted(name) => (String::new(), name),
            other => {
                return Err(self.err(
                    t.line,
                    format!(
                        "include keyword is not followed by a quoted string, but by: {}",
                        other.describe()
                    ),
                ));
            }
        };
        let line = t.line;
        let included = match kind.as_str() {
            "file(" => self.include_file(Path::new(&name), line)?,
            "url(" => {
                return Err(self.err(
                    line,
                    format!("include url() is not supported by libhiera: {name}"),
                ));
            }
            // A class-path resource: ruby-hocon finds none.
            "classpath(" => Obj::new(),
            _ => match self.file.and_then(Path::parent) {
                Some(dir) if !Path::new(&name).is_absolute() => {
                    self.include_file(&dir.join(&name), line)?
                }
                Some(_) => self.include_file(Path::new(&name), line)?,
                None => Obj::new(),
            },
        };
        if self.array_count > 0 && contains_refs(&included) {
            return Err(self.err(line, "Due to current limitations of the config parser, when an include statement is nested inside a list value, ${} substitutions inside the included file cannot be resolved correctly. Either move the include outside of the list value or remove the ${} statements from the included file."));
        }
        let prefix: Vec<String> = self.path_stack.iter().flatten().cloned().collect();
        for (k, v) in included {
            let v = if prefix.is_empty() {
                v
            } else {
                relativize(v, &prefix, self.ids)
            };
            match values.get_mut(&k) {
                Some(existing) => {
                    let old = std::mem::replace(existing, Node::Null);
                    *existing = with_fallback(v, old);
                }
                None => {
                    values.insert(k, v);
                }
            }
        }
        Ok(())
    }

    /// `parse_file_any_syntax`: the file, or when it has no known
    /// extension its `.conf` and `.json` siblings; a missing file includes
    /// nothing.
    fn include_file(&mut self, path: &Path, line: usize) -> Result<Obj, HoconError> {
        if self.includes + 1 > MAX_INCLUDE_DEPTH {
            return Err(self.err(line, format!("include statements nested more than {MAX_INCLUDE_DEPTH} times, you probably have a cycle in your includes.")));
        }
        let known = matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("conf" | "json" | "properties")
        );
        let candidates: Vec<PathBuf> = if known {
            vec![path.to_path_buf()]
        } else {
            let with = |ext: &str| {
                let mut p = path.as_os_str().to_os_string();
                p.push(ext);
                PathBuf::from(p)
            };
            vec![with(".conf"), with(".json")]
        };
        let mut out: Option<Obj> = None;
        for c in candidates {
            let text = match self.reader.read(&c) {
                Ok(Some(text)) => text,
                Ok(None) => continue,
                Err(message) => return Err(self.err(line, message)),
            };
            let origin: Rc<str> = Rc::from(c.display().to_string());
            let (includes, ids, reader) = (self.includes + 1, &mut *self.ids, &mut *self.reader);
            let o = crate::stack::grow(|| {
                parse_document(&text, &origin, Some(&c), includes, ids, reader)
            })?;
            // The .conf file wins over the .json one.
            out = Some(match out {
                None => o,
                Some(first) => match with_fallback(Node::Obj(first), Node::Obj(o)) {
                    Node::Obj(m) => m,
                    _ => unreachable!("objects merge into an object"),
                },
            });
        }
        Ok(out.unwrap_or_default())
    }
}

fn contains_refs(o: &Obj) -> bool {
    fn any(n: &Node) -> bool {
        match n {
            Node::Obj(o) => o.values().any(|v| crate::stack::grow(|| any(v))),
            Node::List(l) | Node::Concat(l) | Node::Merge(l) => {
                l.iter().any(|v| crate::stack::grow(|| any(v)))
            }
            Node::Ref(_) => true,
            _ => false,
        }
    }
    o.values().any(any)
}

/// `relativized(prefix)`: an included value's substitutions, looked up
/// under the field that included it first.
fn relativize(n: Node, prefix: &[String], ids: &mut usize) -> Node {
    match n {
        Node::Ref(r) => {
            *ids += 1;
            let mut path = prefix.to_vec();
            path.extend(r.path.iter().cloned());
            Node::Ref(Rc::new(Subst {
                id: *ids,
                path,
                prefix: r.prefix + prefix.len(),
                optional: r.optional,
                origin: r.origin.clone(),
                line: r.line,
            }))
        }
        Node::Obj(o) => Node::Obj(
            o.into_iter()
                .map(|(k, v)| (k, crate::stack::grow(|| relativize(v, prefix, ids))))
                .collect(),
        ),
        Node::List(l) => Node::List(l.into_iter().map(|v| relativize(v, prefix, ids)).collect()),
        Node::Concat(l) => {
            Node::Concat(l.into_iter().map(|v| relativize(v, prefix, ids)).collect())
        }
        Node::Merge(l) => Node::Merge(l.into_iter().map(|v| relativize(v, prefix, ids)).collect()),
        other => other,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(s: &str) -> Result<Obj, HoconError> {
        let origin: Rc<str> = Rc::from("String");
        parse_document(s, &origin, None, 0, &mut 0, &mut crate::hocon::FsReader)
    }

    #[test]
    fn paths_build_nested_objects_and_keep_first_positions() {
        let o = parse("b=1\nx.y.z = 1\nx.y.w = 2\nb=3").unwrap();
        assert_eq!(o.keys().collect::<Vec<_>>(), ["b", "x"]);
        let Node::Obj(x) = &o["x"] else { panic!() };
        let Node::Obj(y) = &x["y"] else { panic!() };
        assert_eq!(y.keys().collect::<Vec<_>>(), ["w", "z"]);
    }

    #[test]
    fn quoted_keys_and_separators() {
        let o = parse("\"ntp::servers\" : [a, b]\nc { d = 1 }\ne += 1").unwrap();
        assert_eq!(o.keys().collect::<Vec<_>>(), ["ntp::servers", "c", "e"]);
        assert!(matches!(o["e"], Node::Concat(_)));
    }

    #[test]
    fn syntax_errors() {
        let e = parse("a = [1\nb=2").unwrap_err();
        assert_eq!(e.line, Some(2));
        assert!(e
            .message
            .starts_with("List should have ended with ] or had a comma, instead had token: '='"));
        let e = parse("a { b = 1").unwrap_err();
        assert_eq!(
            e.message,
            "Expecting close brace } or a comma, got end of file"
        );
        let e = parse("a=1,,b=2").unwrap_err();
        assert_eq!(
            e.message,
            "expecting a close brace or a field name here, got ','"
        );
    }

    #[test]
    fn deep_nesting_is_an_error() {
        let s = format!("a = {}{}", "[".repeat(5000), "]".repeat(5000));
        let e = parse(&s).unwrap_err();
        assert!(e.message.contains("nested more than"), "{}", e.message);
    }

    /// What Puppet 7.23 answered for these includes (recorded with the
    /// oracle, the case root as working directory): file() relative to the
    /// working directory, a plain include in an included file relative to
    /// it, `.json` for an extension-less name, relativized substitutions.
    #[test]
    fn file_includes() {
        let dir = std::env::temp_dir().join(format!("hocon-inc-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let w = |n: &str, t: &str| std::fs::write(dir.join(n), t).unwrap();
        w(
            "main.conf",
            "from_main = 1\ninclude \"sibling.conf\"\nshared { main = true }",
        );
        w(
            "sibling.conf",
            "from_sibling = 2, shared { sibling = true }",
        );
        w("noext.json", "{\"from_json\": 4}");
        w("sub.conf", "inner = 5, ref = ${inner}");
        let d = dir.display();
        let text = format!(
            "include file(\"{d}/main.conf\")\ninclude file(\"{d}/missing.conf\")\ninclude file(\"{d}/noext\")\nnested {{ include file(\"{d}/sub.conf\") }}\nlocal = 1"
        );
        let v = super::super::parse_str(&text).unwrap();
        assert_eq!(
            crate::render::to_json(&v),
            r#"{"from_main":1,"from_sibling":2,"shared":{"main":true,"sibling":true},"from_json":4,"nested":{"inner":5,"ref":5},"local":1}"#
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn include_loops_stop() {
        let dir = std::env::temp_dir().join(format!("hocon-loop-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let f = dir.join("a.conf");
        std::fs::write(&f, "include \"a.conf\"\nx = 1").unwrap();
        let e = parse(&format!("include file(\"{}\")", f.display())).unwrap_err();
        assert!(
            e.message.contains("nested more than 50 times"),
            "{}",
            e.message
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
