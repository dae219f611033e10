//! The loader: saphyr's events to values, as Psych's `ToRuby` visitor builds
//! them (anchors and aliases, `<<` merge keys, tags, limits), with positions
//! and libyaml's error wording.

#[allow(unused_imports)]
use super::{bignum::*, patch::*, scalar::*, *};

// ---------------------------------------------------------------------------
// Positions in the source
// ---------------------------------------------------------------------------

/// A position: char index, 1-based line, 0-based column (saphyr's markers).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pos {
    idx: usize,
    line: usize,
    col: usize,
}

impl Pos {
    fn start(span: &Span) -> Pos {
        Pos {
            idx: span.start.index(),
            line: span.start.line(),
            col: span.start.col(),
        }
    }
    fn end(span: &Span) -> Pos {
        Pos {
            idx: span.end.index(),
            line: span.end.line(),
            col: span.end.col(),
        }
    }
}

pub(crate) fn is_break(c: char) -> bool {
    c == '\n' || c == '\r'
}

pub(crate) fn is_blank(c: char) -> bool {
    c == ' ' || c == '\t'
}

// ---------------------------------------------------------------------------
// The loader: events to values
// ---------------------------------------------------------------------------

pub(crate) const CANNOT_START: &str =
    "found character that cannot start any token while scanning for the next token";

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum NodeKind {
    Scalar,
    Alias,
    Sequence,
    Mapping,
}

/// How a mapping becomes a value (by its tag), as Psych's `ToRuby` does it.
pub(crate) enum MapMode {
    /// A Hash, with `<<` merge keys.
    Hash,
    /// A `!str`/`!!str` mapping: the value of its `str` key, and whether it
    /// has other keys (set as instance variables of the string).
    Str(Option<Value>, bool),
    /// `!ruby/hash-with-ivars`: the entries of its `elements` mapping.
    Ivars,
}

pub(crate) enum Body {
    Seq(Vec<Value>),
    /// An `!!omap` sequence: each child gives the pair (its first child, its
    /// last child).
    Omap(Map),
    /// A child collection of an `!!omap` sequence.
    OmapPair {
        first: Option<Value>,
        last: Option<Value>,
    },
    Map {
        map: Map,
        key: Option<(Value, bool)>,
        mode: MapMode,
    },
}

pub(crate) struct Frame {
    body: Body,
    seq: bool,
    anchor: usize,
    flow: bool,
    /// A single-pair mapping inside a flow sequence (`[a: 1]`).
    pair: bool,
    /// libyaml's context mark for errors inside this collection: the `[` or
    /// `{`, the first key of a block mapping, the first `-` of a block
    /// sequence.
    mark: Pos,
    /// The column of a block collection's keys or dashes (libyaml's indent).
    indent: isize,
    /// Nodes in this collection with aliases expanded (for the alias limit).
    size: usize,
    /// Child nodes read so far (keys and values count separately).
    children: usize,
}

pub(crate) enum Anchor {
    /// A collection still being read: an alias to it would be recursive.
    Open,
    Done(Value, usize),
}

/// A Ruby exception raised by Psych while converting the parsed tree.
pub(crate) enum Fail {
    /// `Psych::DisallowedClass`.
    Disallowed(String),
    /// Any other error, with Ruby's message.
    Message(String),
}

impl Fail {
    fn message(self) -> String {
        match self {
            Fail::Disallowed(c) => format!("Tried to load unspecified class: {}", c),
            Fail::Message(m) => m,
        }
    }
}

pub(crate) fn step(chars: &[char], p: Pos) -> Pos {
    let c = chars[p.idx];
    if c == '\n' || (c == '\r' && chars.get(p.idx + 1) != Some(&'\n')) {
        Pos {
            idx: p.idx + 1,
            line: p.line + 1,
            col: 0,
        }
    } else {
        Pos {
            idx: p.idx + 1,
            line: p.line,
            col: p.col + 1,
        }
    }
}

pub(crate) fn is_token_error(info: &str) -> bool {
    info.starts_with("unexpected character")
        || info == "mapping values are not allowed in this context"
        || info == "block sequence entries are not allowed in this context"
        || info == "mapping keys are not allowed in this context"
        || info.starts_with("while scanning")
        || info.starts_with("while parsing a quoted scalar")
        || info.starts_with("while parsing a tag")
}

pub(crate) struct Loader<'a> {
    chars: &'a [char],
    opts: &'a YamlOptions,
    has_tabs: bool,
    stack: Vec<Frame>,
    anchors: HashMap<usize, Anchor>,
    alias_nodes: usize,
    /// The first conversion error, reported once the document has parsed.
    failure: Option<Failure>,
    /// Characters standing in for others in the source: (stand-in, original).
    stand_ins: &'a [(char, char)],
    /// Tabs blanked on a guess (sorted), and those that turned out to be in
    /// a scalar.
    guesses: &'a [usize],
    pub(crate) bad_guesses: Vec<usize>,
    /// The root value, and whether it is a block collection.
    root: Option<(Value, bool)>,
    /// The position up to which the source was checked for tabs.
    cur: Pos,
    /// libyaml's `simple_key_allowed` at `cur`: a tab there is an error.
    ska: bool,
    /// The last token was a plain scalar in block context: its start and
    /// indentation (libyaml goes on scanning whitespace as part of it).
    plain: Option<(Pos, isize)>,
    /// The end of the last event.
    last_end: Pos,
    /// A patch to make before parsing again, found while handling an event.
    retry: Option<Fix>,
}

impl<'a> Loader<'a> {
    pub(crate) fn new(
        chars: &'a [char],
        opts: &'a YamlOptions,
        stand_ins: &'a [(char, char)],
        failure: Option<Failure>,
        guesses: &'a [usize],
    ) -> Loader<'a> {
        let origin = Pos {
            idx: 0,
            line: 1,
            col: 0,
        };
        Loader {
            chars,
            opts,
            has_tabs: chars.contains(&'\t'),
            stack: Vec::new(),
            anchors: HashMap::new(),
            alias_nodes: 0,
            failure,
            stand_ins,
            guesses,
            bad_guesses: Vec::new(),
            root: None,
            cur: origin,
            ska: true,
            plain: None,
            last_end: origin,
            retry: None,
        }
    }

    pub(crate) fn run(&mut self, source: &str) -> Outcome {
        let first = self.next_token(self.cur);
        if first.col == 0
            && self.chars.get(first.idx) == Some(&'.')
            && self.document_marker(first.idx)
        {
            // libyaml takes a leading `...` for the content of a document.
            return Outcome::Failed(at_line_col(
                "did not find expected node content while parsing a block node",
                first.line,
                first.col,
            ));
        }
        let mut parser = Parser::new_from_str(source);
        loop {
            let (event, span) = match parser.next_event() {
                None => break,
                Some(Ok(x)) => x,
                Some(Err(e)) => return self.scan_error(&e),
            };
            match self.event(event, span) {
                Ok(true) => break,
                Ok(false) => {}
                Err(e) => {
                    if let Some(fix) = self.retry.take() {
                        return Outcome::Retry(fix, e, self.failure.take());
                    }
                    return Outcome::Failed(e);
                }
            }
            if self.root.is_some() {
                if let Err(e) = self.after_root(&mut parser) {
                    return Outcome::Failed(e);
                }
                break;
            }
        }
        if let Some((_, e)) = self.failure.take() {
            return Outcome::Failed(e);
        }
        match self.root.take() {
            Some((Value::Nil, _)) | None => Outcome::Done(None),
            Some((v, _)) => Outcome::Done(Some(v)),
        }
    }

    /// The root node is complete: libyaml reads one more token to see that
    /// the document ended (for a block collection it already has); nothing
    /// after it is read.
    fn after_root(
        &mut self,
        parser: &mut Parser<'_, saphyr_parser::StrInput<'_>>,
    ) -> Result<(), YamlError> {
        let block_root = self.root.as_ref().is_some_and(|r| r.1);
        let from = if self.cur.idx >= self.last_end.idx {
            self.cur
        } else {
            self.last_end
        };
        let next = self.next_token(from);
        self.gap(next, false, -1, false)?;
        if block_root {
            return Ok(());
        }
        if let Some(Err(e)) = parser.next_event() {
            let m = e.marker();
            if m.index() == next.idx && is_token_error(e.info()) {
                let pos = Pos {
                    idx: m.index(),
                    line: m.line(),
                    col: m.col(),
                };
                return Err(self.translate(e.info(), pos));
            }
        }
        Ok(())
    }

    /// The innermost block indentation (libyaml's `parser->indent`).
    fn block_indent(&self) -> isize {
        self.stack
            .iter()
            .rev()
            .find(|f| !f.flow)
            .map_or(-1, |f| f.indent)
    }

    fn in_flow(&self) -> bool {
        self.stack.last().is_some_and(|f| f.flow)
    }

    fn fail(&mut self, fail: Fail, at: Pos) {
        let key = (at.line, at.col);
        if self.failure.as_ref().is_none_or(|f| key < f.0) {
            self.failure = Some((key, YamlError::new(fail.message(), Some(at.line))));
        }
    }

    fn advance_to(&mut self, p: Pos) {
        if p.idx > self.cur.idx {
            self.cur = p;
        }
    }

    /// Handles one event; `Ok(true)` ends the document.
    fn event(&mut self, event: Event<'_>, span: Span) -> Result<bool, YamlError> {
        let start = Pos::start(&span);
        let end = Pos::end(&span);
        match event {
            Event::StreamStart | Event::Nothing => {}
            Event::StreamEnd | Event::DocumentEnd => return Ok(true),
            Event::DocumentStart(explicit) => {
                if explicit {
                    self.gap(start, false, -1, false)?;
                    self.advance_to(end);
                    self.ska = false;
                }
            }
            Event::Alias(id) => self.alias(id, start, end)?,
            Event::Scalar(text, style, anchor, tag) => {
                let flow = self.in_flow();
                let block_scalar = matches!(style, ScalarStyle::Literal | ScalarStyle::Folded);
                let indent = self.block_indent();
                let header = self.gap(start, flow, indent, block_scalar)?;
                if anchor != 0 {
                    self.check_anchor(start)?;
                }
                if text.is_empty() && style == ScalarStyle::Plain && anchor == 0 && tag.is_none() {
                    // libyaml needs a key before a `:` in a block mapping (an
                    // empty key takes an explicit `?`).
                    if let Some(f) = self.stack.last() {
                        if !f.flow && matches!(f.body, Body::Map { key: None, .. }) {
                            let t = self.next_token(self.last_end);
                            if self.chars.get(t.idx) == Some(&':') {
                                return Err(self.state_error(t));
                            }
                        }
                    }
                }
                if flow && style == ScalarStyle::Plain {
                    self.check_flow_plain(start, &text)?;
                }
                if !block_scalar && (style != ScalarStyle::Plain || flow) {
                    self.check_multiline_key(start, end)?;
                }
                if block_scalar && !flow && self.has_tabs {
                    if let Some(h) = header.or_else(|| self.find_block_header(start)) {
                        let after = self.block_scalar_tabs(h, indent)?;
                        self.advance_to(after);
                    }
                }
                self.advance_to(end);
                self.plain = None;
                self.ska = block_scalar;
                if style == ScalarStyle::Plain && !text.is_empty() && !flow {
                    self.plain = Some((start, indent + 1));
                }
                if !self.guesses.is_empty() {
                    let from = self.guesses.partition_point(|g| *g < start.idx);
                    for g in &self.guesses[from..] {
                        if *g >= end.idx {
                            break;
                        }
                        self.bad_guesses.push(*g);
                    }
                }
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                let str_tag = tag.as_deref() == Some("tag:yaml.org,2002:str");
                let mut text = text;
                for &(stand_in, original) in self.stand_ins {
                    if text.contains(stand_in) {
                        text = text.replace(stand_in, &original.to_string()).into();
                    }
                }
                let value = match resolve_scalar(&text, style, tag.as_deref()) {
                    Ok(v) => v,
                    Err(f) => {
                        self.fail(f, start);
                        Value::Nil
                    }
                };
                self.add(value, NodeKind::Scalar, str_tag, 1, anchor, false);
            }
            Event::SequenceStart(anchor, tag) => {
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                self.start_collection(true, anchor, tag, start, end)?;
            }
            Event::MappingStart(anchor, tag) => {
                let tag = tag.map(|t| format!("{}{}", t.handle, t.suffix));
                self.start_collection(false, anchor, tag, start, end)?;
            }
            Event::SequenceEnd | Event::MappingEnd => self.end_collection(start, end)?,
        }
        if end.idx > self.last_end.idx {
            self.last_end = end;
        }
        Ok(false)
    }

    fn alias(&mut self, id: usize, start: Pos, end: Pos) -> Result<(), YamlError> {
        let flow = self.in_flow();
        self.gap(start, flow, self.block_indent(), false)?;
        let from = (start.idx + 1).min(self.chars.len());
        let name: String = self.chars[from..end.idx.clamp(from, self.chars.len())]
            .iter()
            .collect();
        check_anchor_name(&name, start, "alias")?;
        self.advance_to(end);
        self.ska = false;
        self.plain = None;
        if !self.opts.aliases {
            // Psych 4's YAML.load (NoAliasRuby).
            self.fail(Fail::Message(format!("Unknown alias: {}", name)), start);
            self.add(Value::Nil, NodeKind::Alias, false, 1, 0, false);
            return Ok(());
        }
        match self.anchors.get(&id) {
            Some(Anchor::Done(v, size)) => {
                let (v, size) = (v.clone(), *size);
                self.alias_nodes = self.alias_nodes.saturating_add(size);
                if self.alias_nodes > self.opts.max_alias_expansion {
                    return Err(YamlError::new(
                        format!(
                            "Too many aliases: expanding them would exceed {} nodes (alias *{} at line {} column {})",
                            self.opts.max_alias_expansion,
                            name,
                            start.line,
                            start.col + 1
                        ),
                        Some(start.line),
                    ));
                }
                self.add(v, NodeKind::Alias, false, size, 0, false);
            }
            Some(Anchor::Open) => {
                // Psych would build a recursive structure; values here cannot be.
                self.fail(
                    Fail::Message(format!(
                        "Recursive alias not supported: *{} refers to a collection that contains it (line {} column {})",
                        name,
                        start.line,
                        start.col + 1
                    )),
                    start,
                );
                self.add(Value::Nil, NodeKind::Alias, false, 1, 0, false);
            }
            None => {
                // An anchor defined on a node Psych never converts (inside an
                // !!omap entry).
                self.fail(Fail::Message(format!("Unknown alias: {}", name)), start);
                self.add(Value::Nil, NodeKind::Alias, false, 1, 0, false);
            }
        }
        Ok(())
    }

    fn start_collection(
        &mut self,
        seq: bool,
        anchor: usize,
        tag: Option<String>,
        start: Pos,
        end: Pos,
    ) -> Result<(), YamlError> {
        let parent_flow = self.in_flow();
        let open = if seq { '[' } else { '{' };
        let mut b = end.idx.min(self.chars.len());
        while b > start.idx && is_blank(self.chars[b - 1]) {
            b -= 1;
        }
        let bracket = b > start.idx && self.chars[b - 1] == open;
        // A block collection's span ends at its first key or dash: the
        // properties and line breaks before it are checked for tabs too.
        let upto = if bracket {
            Pos {
                idx: b - 1,
                line: end.line,
                col: end.col.saturating_sub(end.idx - (b - 1)),
            }
        } else {
            end
        };
        self.gap(upto, parent_flow, self.block_indent(), false)?;
        if anchor != 0 {
            self.check_anchor(start)?;
        }
        if self.stack.len() >= MAX_DEPTH {
            return Err(YamlError::new(
                format!(
                    "stack level too deep (collections nested more than {} levels) at line {} column {}",
                    MAX_DEPTH,
                    start.line,
                    start.col + 1
                ),
                Some(start.line),
            ));
        }
        let flow = parent_flow || bracket;
        let pair = parent_flow && !bracket && !seq;
        // A block sequence's span may end at its first entry rather than at
        // the `-`: libyaml's indentation is the dash's column.
        let mut upto = upto;
        if !flow && seq && self.chars.get(end.idx) != Some(&'-') {
            let mut d = end.idx.min(self.chars.len());
            while d > 0 && is_blank(self.chars[d - 1]) {
                d -= 1;
            }
            if d > 0 && self.chars[d - 1] == '-' {
                let back = end.idx - (d - 1);
                if back <= end.col {
                    upto = Pos {
                        idx: d - 1,
                        line: end.line,
                        col: end.col - back,
                    };
                }
            }
        }
        let indent = if flow {
            self.block_indent()
        } else {
            upto.col as isize
        };
        let parent_omap = matches!(
            self.stack.last(),
            Some(Frame {
                body: Body::Omap(_),
                ..
            })
        );
        let body = if parent_omap {
            Body::OmapPair {
                first: None,
                last: None,
            }
        } else if seq {
            match sequence_mode(tag.as_deref()) {
                Ok(true) => Body::Omap(Map::default()),
                Ok(false) => Body::Seq(Vec::new()),
                Err(f) => {
                    self.fail(f, start);
                    Body::Seq(Vec::new())
                }
            }
        } else {
            let mode = match mapping_mode(tag.as_deref()) {
                Ok(m) => m,
                Err(f) => {
                    self.fail(f, start);
                    MapMode::Hash
                }
            };
            Body::Map {
                map: Map::default(),
                key: None,
                mode,
            }
        };
        // Psych never converts an !!omap entry itself, so its anchor stays
        // unknown.
        let anchor = if parent_omap { 0 } else { anchor };
        if anchor != 0 {
            self.anchors.insert(anchor, Anchor::Open);
        }
        self.stack.push(Frame {
            body,
            seq,
            anchor,
            flow,
            pair,
            mark: upto,
            indent,
            size: 1,
            children: 0,
        });
        self.advance_to(end);
        self.plain = None;
        if bracket {
            self.ska = true;
        }
        Ok(())
    }

    fn end_collection(&mut self, start: Pos, end: Pos) -> Result<(), YamlError> {
        let flow = self.in_flow();
        self.gap(start, flow, self.block_indent(), false)?;
        let Some(frame) = self.stack.pop() else {
            return Ok(());
        };
        self.advance_to(end);
        if frame.flow && !frame.pair {
            self.ska = false;
            self.plain = None;
        }
        let block = !frame.flow;
        let (value, kind) = match frame.body {
            Body::Seq(items) => (Value::array(items), NodeKind::Sequence),
            Body::Omap(map) => (Value::hash(map), NodeKind::Sequence),
            Body::OmapPair { first, last } => {
                match (first, last) {
                    (Some(k), Some(v)) => {
                        if let Some(Frame {
                            body: Body::Omap(map),
                            size,
                            ..
                        }) = self.stack.last_mut()
                        {
                            *size = size.saturating_add(frame.size);
                            map.insert(k, v);
                        }
                    }
                    _ => self.fail(
                        Fail::Message(
                            "undefined method `visit_NilClass' for Psych::Visitors::ToRuby".into(),
                        ),
                        start,
                    ),
                }
                return Ok(());
            }
            Body::Map { map, mode, .. } => match mode {
                MapMode::Hash | MapMode::Ivars => (Value::hash(map), NodeKind::Mapping),
                MapMode::Str(None, true) => {
                    self.fail(
                        Fail::Message("can't modify frozen NilClass: nil".into()),
                        frame.mark,
                    );
                    (Value::Nil, NodeKind::Mapping)
                }
                MapMode::Str(s, _) => (s.unwrap_or(Value::Nil), NodeKind::Mapping),
            },
        };
        self.add(value, kind, false, frame.size, frame.anchor, block);
        Ok(())
    }

    /// Adds a complete node to its parent (or makes it the root).
    fn add(
        &mut self,
        value: Value,
        kind: NodeKind,
        str_tag: bool,
        size: usize,
        anchor: usize,
        block: bool,
    ) {
        if anchor != 0 {
            self.anchors
                .insert(anchor, Anchor::Done(value.clone(), size));
        }
        let Some(frame) = self.stack.last_mut() else {
            self.root = Some((value, block));
            return;
        };
        frame.size = frame.size.saturating_add(size);
        frame.children += 1;
        let mut failure = None;
        match &mut frame.body {
            Body::Seq(items) => items.push(value),
            Body::Omap(_) => failure = Some("undefined method `first' for nil:NilClass"),
            Body::OmapPair { first, last } => {
                if first.is_none() {
                    *first = Some(value.clone());
                }
                *last = Some(value);
            }
            Body::Map { map, key, mode } => match key.take() {
                None => *key = Some((value, str_tag)),
                Some((k, k_str)) => match mode {
                    MapMode::Hash => insert_pair(map, k, k_str, value, kind),
                    MapMode::Str(s, others) => {
                        if k.as_str() == Some("str") {
                            *s = Some(value);
                        } else {
                            *others = true;
                        }
                    }
                    MapMode::Ivars => {
                        if k.as_str() == Some("elements") {
                            match (&value, kind) {
                                (Value::Hash(h), NodeKind::Mapping) => {
                                    for (a, b) in h.iter() {
                                        map.insert(a.clone(), b.clone());
                                    }
                                }
                                _ => {
                                    failure = Some("undefined method `each_slice' for nil:NilClass")
                                }
                            }
                        }
                    }
                },
            },
        }
        if let Some(f) = failure {
            self.fail(Fail::Message(f.into()), self.last_end);
        }
    }

    // -- tabs ---------------------------------------------------------------

    /// Checks the source between the last token and `to` for tabs libyaml
    /// rejects (saphyr accepts them): a tab where a token could start in block
    /// context (indentation, after `- `, `? `, or the `:` of an explicit key),
    /// and a tab in the indentation of a plain scalar's continuation lines.
    /// With `stop_at_header`, returns the position of a block scalar header.
    fn gap(
        &mut self,
        to: Pos,
        flow: bool,
        indent: isize,
        stop_at_header: bool,
    ) -> Result<Option<Pos>, YamlError> {
        let to = if to.idx > self.chars.len() {
            Pos {
                idx: self.chars.len(),
                ..to
            }
        } else {
            to
        };
        if !self.has_tabs || to.idx <= self.cur.idx {
            return Ok(None);
        }
        if flow {
            self.plain = None;
            self.cur = to;
            return Ok(None);
        }
        let chars = self.chars;
        let mut p = self.cur;
        if let Some((start, pindent)) = self.plain.take() {
            let mut leading = false;
            while p.idx < to.idx {
                let c = chars[p.idx];
                if c == '\t' && leading && (p.col as isize) < pindent {
                    return Err(at_line_col(
                        "found a tab character that violates indentation while scanning a plain scalar",
                        start.line,
                        start.col,
                    ));
                }
                if is_break(c) {
                    leading = true;
                } else if !is_blank(c) {
                    break;
                }
                p = step(chars, p);
            }
            if leading {
                self.ska = true;
            }
        }
        while p.idx < to.idx {
            let c = chars[p.idx];
            let blankz_next = chars
                .get(p.idx + 1)
                .is_none_or(|n| is_blank(*n) || is_break(*n));
            if is_break(c) {
                p = step(chars, p);
                self.ska = true;
            } else if c == ' ' {
                p = step(chars, p);
            } else if c == '\t' {
                if self.ska {
                    return Err(at_line_col(CANNOT_START, p.line, p.col));
                }
                p = step(chars, p);
            } else if c == '#' {
                while p.idx < chars.len() && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
            } else if p.col == 0 && self.document_marker(p.idx) {
                for _ in 0..3 {
                    p = step(chars, p);
                }
                self.ska = false;
            } else if (c == '-' || c == '?') && blankz_next {
                p = step(chars, p);
                self.ska = true;
            } else if c == ':' && blankz_next {
                let complex = self.line_prefix_blank(p.idx);
                p = step(chars, p);
                self.ska = complex;
            } else if (c == '|' || c == '>') && stop_at_header {
                self.cur = p;
                return Ok(Some(p));
            } else if c == '|' || c == '>' {
                // A block scalar saphyr has not reported yet.
                p = self.block_scalar_tabs(p, indent)?;
                self.ska = true;
            } else if c == '\'' || c == '"' || c == '[' || c == '{' {
                // A quoted scalar or flow collection saphyr has not reported
                // yet: no tab rules inside.
                p = self.skip_flow_token(p);
                self.ska = false;
            } else {
                while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
                self.ska = false;
            }
        }
        self.cur = if p.idx > to.idx { p } else { to };
        Ok(None)
    }

    /// Skips a quoted scalar or a flow collection starting at `p`.
    fn skip_flow_token(&self, mut p: Pos) -> Pos {
        let chars = self.chars;
        let mut depth = 0usize;
        let mut quote: Option<char> = None;
        while p.idx < chars.len() {
            let c = chars[p.idx];
            match quote {
                Some(q) => {
                    if q == '"' && c == '\\' {
                        p = step(chars, p);
                    } else if c == q {
                        if q == '\'' && chars.get(p.idx + 1) == Some(&'\'') {
                            p = step(chars, p);
                        } else {
                            quote = None;
                            if depth == 0 {
                                return step(chars, p);
                            }
                        }
                    }
                }
                None => match c {
                    '\'' | '"' => quote = Some(c),
                    '[' | '{' => depth += 1,
                    ']' | '}' => {
                        depth = depth.saturating_sub(1);
                        if depth == 0 {
                            return step(chars, p);
                        }
                    }
                    '#' if p.idx > 0
                        && (is_blank(chars[p.idx - 1]) || is_break(chars[p.idx - 1])) =>
                    {
                        while p.idx < chars.len() && !is_break(chars[p.idx]) {
                            p = step(chars, p);
                        }
                        continue;
                    }
                    _ => {}
                },
            }
            if p.idx < chars.len() {
                p = step(chars, p);
            }
        }
        p
    }

    fn document_marker(&self, i: usize) -> bool {
        let c = self.chars;
        i + 2 < c.len()
            && ((c[i] == '-' && c[i + 1] == '-' && c[i + 2] == '-')
                || (c[i] == '.' && c[i + 1] == '.' && c[i + 2] == '.'))
            && c.get(i + 3).is_none_or(|n| is_blank(*n) || is_break(*n))
    }

    /// Whether only blanks precede char `i` on its line.
    fn line_prefix_blank(&self, i: usize) -> bool {
        let mut j = i;
        while j > 0 {
            let c = self.chars[j - 1];
            if is_break(c) {
                return true;
            }
            if !is_blank(c) {
                return false;
            }
            j -= 1;
        }
        true
    }

    /// The start of the next token at or after `p`: blanks, line breaks and
    /// comments skipped.
    fn next_token(&self, mut p: Pos) -> Pos {
        let chars = self.chars;
        while p.idx < chars.len() {
            let c = chars[p.idx];
            if c == '#' {
                while p.idx < chars.len() && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
            } else if is_blank(c) || is_break(c) {
                p = step(chars, p);
            } else {
                break;
            }
        }
        p
    }

    /// The start of the next node's content: like [`Self::next_token`], also
    /// past `:`, `-`, `?` indicators and properties.
    fn next_node_token(&self, mut p: Pos) -> Pos {
        let chars = self.chars;
        loop {
            p = self.next_token(p);
            match chars.get(p.idx) {
                Some(':' | '-' | '?')
                    if chars
                        .get(p.idx + 1)
                        .is_none_or(|c| is_blank(*c) || is_break(*c)) =>
                {
                    p = step(chars, p);
                }
                Some('&' | '!') => {
                    while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx])
                    {
                        p = step(chars, p);
                    }
                }
                _ => return p,
            }
        }
    }

    /// The `|` or `>` of a block scalar whose event starts at its properties.
    fn find_block_header(&self, from: Pos) -> Option<Pos> {
        let chars = self.chars;
        let mut p = from;
        while p.idx < chars.len() {
            let c = chars[p.idx];
            if c == '|' || c == '>' {
                return Some(p);
            }
            if c == '&' || c == '!' {
                while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
            } else if c == '#' {
                while p.idx < chars.len() && !is_break(chars[p.idx]) {
                    p = step(chars, p);
                }
            } else if is_blank(c) || is_break(c) {
                p = step(chars, p);
            } else {
                return None;
            }
        }
        None
    }

    /// Walks a block scalar from its header as libyaml does, rejecting a tab
    /// in its indentation; returns where the scalar ends.
    fn block_scalar_tabs(&self, header: Pos, parent_indent: isize) -> Result<Pos, YamlError> {
        let chars = self.chars;
        let err = || {
            at_line_col(
                "found a tab character where an indentation space is expected while scanning a block scalar",
                header.line,
                header.col,
            )
        };
        let mut p = step(chars, header);
        let mut increment = 0usize;
        for _ in 0..2 {
            match chars.get(p.idx) {
                Some('+') | Some('-') => p = step(chars, p),
                Some(d @ '1'..='9') => {
                    increment = d.to_digit(10).unwrap_or(0) as usize;
                    p = step(chars, p);
                }
                _ => break,
            }
        }
        while p.idx < chars.len() && !is_break(chars[p.idx]) {
            p = step(chars, p);
        }
        if p.idx >= chars.len() {
            return Ok(p);
        }
        p = step(chars, p);
        let mut indent = if increment > 0 {
            if parent_indent >= 0 {
                parent_indent as usize + increment
            } else {
                increment
            }
        } else {
            0
        };
        // Leading empty lines and the first content line (auto-detection).
        let mut max_indent = 0;
        loop {
            while p.idx < chars.len() && chars[p.idx] == ' ' && (indent == 0 || p.col < indent) {
                p = step(chars, p);
            }
            max_indent = max_indent.max(p.col);
            if p.idx >= chars.len() {
                return Ok(p);
            }
            let c = chars[p.idx];
            if c == '\t' && (indent == 0 || p.col < indent) {
                return Err(err());
            }
            if !is_break(c) {
                break;
            }
            p = step(chars, p);
        }
        if indent == 0 {
            indent = max_indent.max((parent_indent + 1).max(1) as usize);
        }
        loop {
            if p.idx >= chars.len() || p.col < indent {
                return Ok(p);
            }
            while p.idx < chars.len() && !is_break(chars[p.idx]) {
                p = step(chars, p);
            }
            if p.idx >= chars.len() {
                return Ok(p);
            }
            p = step(chars, p);
            loop {
                while p.idx < chars.len() && chars[p.idx] == ' ' && p.col < indent {
                    p = step(chars, p);
                }
                if p.idx >= chars.len() {
                    return Ok(p);
                }
                let c = chars[p.idx];
                if c == '\t' && p.col < indent {
                    return Err(err());
                }
                if !is_break(c) {
                    break;
                }
                p = step(chars, p);
            }
        }
    }

    /// libyaml's simple keys cannot span a line break, and libyaml counts
    /// U+0085, U+2028 and U+2029 as line breaks too: an implicit mapping key
    /// (quoted, or plain in flow context) holding one is an error where
    /// saphyr reads a key. The message depends on where the key is: inside a
    /// flow mapping or a flow sequence's single pair, the collection was not
    /// closed; as a later key of a block mapping, the simple key had no `:`;
    /// as the first key of a block mapping, the `:` after it is a value
    /// indicator out of place.
    fn check_multiline_key(&self, start: Pos, end: Pos) -> Result<(), YamlError> {
        let chars = self.chars;
        let breaks = |c: &char| matches!(c, '\n' | '\r' | '\u{85}' | '\u{2028}' | '\u{2029}');
        let Some(f) = self.stack.last() else {
            return Ok(());
        };
        let awaiting_key = matches!(f.body, Body::Map { key: None, .. });
        let end_idx = end.idx.min(chars.len());
        if !awaiting_key || start.idx >= end_idx || !chars[start.idx..end_idx].iter().any(breaks) {
            return Ok(());
        }
        let mut b = start.idx;
        while b > 0 && (is_blank(chars[b - 1]) || breaks(&chars[b - 1])) {
            b -= 1;
        }
        if b > 0 && chars[b - 1] == '?' {
            return Ok(());
        }
        if f.flow {
            let seq = self.stack.len().checked_sub(2).map(|i| &self.stack[i]);
            return Err(match seq {
                Some(s) if f.pair => at_line_col(
                    "did not find expected ',' or ']' while parsing a flow sequence",
                    s.mark.line,
                    s.mark.col,
                ),
                _ => at_line_col(
                    "did not find expected ',' or '}' while parsing a flow mapping",
                    f.mark.line,
                    f.mark.col,
                ),
            });
        }
        if f.children > 0 {
            return Err(at_line_col(
                "could not find expected ':' while scanning a simple key",
                start.line,
                start.col,
            ));
        }
        // The `:` after the key, where libyaml's line count puts it.
        let mut colon = end_idx;
        while colon < chars.len() && is_blank(chars[colon]) {
            colon += 1;
        }
        let (mut line, mut col) = (1, 0);
        let mut i = 0;
        while i < colon {
            if chars[i] == '\r' && chars.get(i + 1) == Some(&'\n') {
                i += 1;
            }
            if breaks(&chars[i]) {
                line += 1;
                col = 0;
            } else {
                col += 1;
            }
            i += 1;
        }
        Err(at_line_col(
            "mapping values are not allowed in this context",
            line,
            col,
        ))
    }

    /// In flow context libyaml reads `:` and `?` as indicators wherever they
    /// start a token, and `|`, `>` cannot start one: saphyr takes them for
    /// the start of a plain scalar.
    fn check_flow_plain(&mut self, start: Pos, text: &str) -> Result<(), YamlError> {
        let chars = self.chars;
        let (is_key, is_value, in_seq) = match self.stack.last() {
            Some(Frame {
                body: Body::Map { key, .. },
                ..
            }) => (key.is_none(), key.is_some(), false),
            Some(f) => (false, false, f.seq),
            None => (false, false, false),
        };
        let mut p = start;
        let mut props = false;
        // Skip properties.
        while matches!(chars.get(p.idx), Some('&' | '!')) {
            props = true;
            if chars[p.idx] == '!' {
                // libyaml wants a blank (or `,`) after a tag in flow context.
                let mut q = p.idx;
                while q < chars.len()
                    && !is_blank(chars[q])
                    && !is_break(chars[q])
                    && !",[]{}".contains(chars[q])
                {
                    q += 1;
                }
                if matches!(chars.get(q), Some(']' | '}' | '[' | '{')) {
                    return Err(at_line_col(
                        "did not find expected whitespace or line break while scanning a tag",
                        p.line,
                        p.col,
                    ));
                }
            }
            while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx]) {
                p = step(chars, p);
            }
            while p.idx < chars.len() && (is_blank(chars[p.idx]) || is_break(chars[p.idx])) {
                p = step(chars, p);
            }
        }
        let first = chars.get(p.idx).copied();
        let Some(c) = first else { return Ok(()) };
        if text.is_empty() {
            // An empty key before `:` ("{: x}", "[: x]").
            let mut b = p.idx;
            while b > 0 && (is_blank(chars[b - 1]) || is_break(chars[b - 1])) {
                b -= 1;
            }
            let explicit = b > 0 && chars[b - 1] == '?';
            if c == ':' && is_key && !props && !explicit {
                return Err(at_line_col(
                    "did not find expected node content while parsing a flow node",
                    p.line,
                    p.col,
                ));
            }
            return Ok(());
        }
        if !text.starts_with(c) {
            return Ok(());
        }
        let blank_next = chars
            .get(p.idx + 1)
            .is_none_or(|n| is_blank(*n) || is_break(*n));
        let insert_space = |this: &mut Self| {
            this.retry = Some(Fix::Indent(p.idx + 1, 1));
            Err(at_line_col(
                "did not find expected node content while parsing a flow node",
                p.line,
                p.col,
            ))
        };
        match c {
            // `[&a :x]` is an anchored empty key with the value `x`.
            ':' if props && !blank_next => insert_space(self),
            ':' => Err(at_line_col(
                "did not find expected node content while parsing a flow node",
                p.line,
                p.col,
            )),
            '?' if is_value => Err(at_line_col(
                "did not find expected node content while parsing a flow node",
                p.line,
                p.col,
            )),
            '?' if text == "?" && in_seq => Err(self.state_error(p)),
            '?' if !blank_next => insert_space(self),
            '|' | '>' => Err(at_line_col(CANNOT_START, p.line, p.col)),
            '-' if chars
                .get(p.idx + 1)
                .is_none_or(|n| is_blank(*n) || is_break(*n)) =>
            {
                Err(at_line_col(
                    "did not find expected node content while parsing a flow node",
                    p.line,
                    p.col,
                ))
            }
            _ => Ok(()),
        }
    }

    /// The end of the stream as libyaml marks it: on a new line when the last
    /// line has no line break.
    fn end_mark(&self, p: Pos) -> Pos {
        if p.idx >= self.chars.len() && p.col != 0 {
            Pos {
                idx: p.idx,
                line: p.line + 1,
                col: 0,
            }
        } else {
            p
        }
    }

    // -- anchors ------------------------------------------------------------

    /// Checks the anchor among the properties starting at `start`.
    fn check_anchor(&self, start: Pos) -> Result<(), YamlError> {
        let chars = self.chars;
        let mut p = start;
        for _ in 0..2 {
            match chars.get(p.idx) {
                Some('&') => {
                    let from = p.idx + 1;
                    let mut to = from;
                    while to < chars.len()
                        && !is_blank(chars[to])
                        && !is_break(chars[to])
                        && !",[]{}".contains(chars[to])
                    {
                        to += 1;
                    }
                    let name: String = chars[from..to].iter().collect();
                    return check_anchor_name(&name, p, "anchor");
                }
                Some('!') => {
                    while p.idx < chars.len() && !is_blank(chars[p.idx]) && !is_break(chars[p.idx])
                    {
                        p = step(chars, p);
                    }
                    while p.idx < chars.len() && (is_blank(chars[p.idx]) || is_break(chars[p.idx]))
                    {
                        p = step(chars, p);
                    }
                }
                _ => return Ok(()),
            }
        }
        Ok(())
    }

    // -- syntax errors ------------------------------------------------------

    fn scan_error(&mut self, e: &ScanError) -> Outcome {
        let m = e.marker();
        let pos = Pos {
            idx: m.index(),
            line: m.line(),
            col: m.col(),
        };
        let info = e.info();
        // A tab libyaml rejects before the point saphyr stopped comes first.
        let flow = self.in_flow();
        if let Err(t) = self.gap(pos, flow, self.block_indent(), false) {
            return Outcome::Failed(t);
        }
        let chars = self.chars;
        match info {
            "':' must be followed by a valid YAML whitespace" => {
                // libyaml allows tabs after the `:` of a simple key.
                let mut colon = pos.idx.min(chars.len());
                while colon > 0 && is_blank(chars[colon - 1]) {
                    colon -= 1;
                }
                let tab = self.tab_near(pos);
                let fallback = at_line_col(CANNOT_START, tab.line, tab.col);
                if colon == 0 || chars[colon - 1] != ':' || self.line_prefix_blank(colon - 1) {
                    return Outcome::Failed(fallback);
                }
                Outcome::Retry(Fix::Blank(colon, pos.idx), fallback, None)
            }
            "comments must be separated from other tokens by whitespace" => {
                // libyaml reads `'x'#c` as a scalar and a comment.
                let mut eol = pos.idx;
                while eol < chars.len() && !is_break(chars[eol]) {
                    eol += 1;
                }
                Outcome::Retry(Fix::Blank(pos.idx, eol), self.state_error(pos), None)
            }
            "invalid indentation in flow construct" | "invalid indentation" if self.flow_at(info, pos) => {
                // libyaml ignores indentation inside flow collections.
                let target = self.flow_target_indent().max(pos.col + 1);
                let line_start = pos.idx - pos.col.min(pos.idx);
                Outcome::Retry(Fix::Indent(line_start, target - pos.col), self.state_error(pos), None)
            }
            "tab cannot be used as indentation"
                if {
                    let t = self.next_node_token(self.last_end);
                    matches!(chars.get(t.idx), Some('\'' | '"')) && t.idx < pos.idx && self.quoted_indent_fix(t).is_some()
                } =>
            {
                // A tab in the leading blanks of a quoted scalar's line: libyaml
                // does not mind.
                let t = self.next_node_token(self.last_end);
                match self.quoted_indent_fix(t) {
                    Some(fix) => Outcome::Retry(fix, self.translate(info, pos), None),
                    None => Outcome::Failed(self.translate(info, pos)),
                }
            }
            "invalid indentation in quoted scalar" => match self.quoted_indent_fix(pos) {
                Some(fix) => Outcome::Retry(fix, self.state_error(pos), None),
                None => Outcome::Failed(self.state_error(pos)),
            },
            "invalid trailing content after double-quoted scalar"
                if chars.get(pos.idx) == Some(&':')
                    && chars.get(pos.idx + 1).is_none_or(|c| is_blank(*c) || is_break(*c)) =>
            {
                // A quoted scalar over several lines cannot be a key.
                Outcome::Failed(at_line_col("mapping values are not allowed in this context", pos.line, pos.col))
            }
            "misplaced bracket"
            | "invalid trailing content after double-quoted scalar"
            | "did not find expected <document start>"
            | "invalid content after document end marker"
                if self.stack.is_empty() && self.root.is_none() =>
            {
                // Content after the root node, which Psych never reads.
                let from = if self.cur.idx >= self.last_end.idx { self.cur } else { self.last_end };
                if self.next_token(from).idx >= pos.idx {
                    return Outcome::Failed(at_line_col(
                        "did not find expected node content while parsing a block node",
                        pos.line,
                        pos.col,
                    ));
                }
                Outcome::Retry(Fix::Truncate(pos.idx), self.state_error(pos), None)
            }
            "while parsing node, found unknown anchor" => {
                let from = (pos.idx + 1).min(chars.len());
                let mut to = from;
                while to < chars.len() && !is_blank(chars[to]) && !is_break(chars[to]) && !",[]{}".contains(chars[to]) {
                    to += 1;
                }
                let name: String = chars[from..to].iter().collect();
                if let Err(e) = check_anchor_name(&name, pos, "alias") {
                    return Outcome::Failed(e);
                }
                // Psych reports it after parsing the whole document: go on
                // with a null in its place.
                self.fail(Fail::Message(format!("Unknown alias: {}", name)), pos);
                let failure = self.failure.take();
                let fallback = failure.as_ref().map(|f| f.1.clone()).unwrap_or_else(|| self.state_error(pos));
                Outcome::Retry(Fix::Null(pos.idx, to), fallback, failure)
            }
            "plain scalar cannot start with '-' followed by ,[]{}" if chars.get(pos.idx) == Some(&'-') => {
                Outcome::Retry(Fix::Dash(pos.idx), self.state_error(pos), None)
            }
            "recursion limit exceeded" => Outcome::Failed(YamlError::new(
                format!(
                    "stack level too deep (flow collections nested more than 255 levels) at line {} column {}",
                    pos.line,
                    pos.col + 1
                ),
                Some(pos.line),
            )),
            _ => Outcome::Failed(self.translate(info, pos)),
        }
    }

    /// Whether saphyr's indentation error at `pos` is inside a flow
    /// collection (possibly one whose start was not reported yet).
    fn flow_at(&self, info: &str, pos: Pos) -> bool {
        info == "invalid indentation in flow construct" || self.in_flow() || {
            let to = pos.idx.min(self.chars.len());
            self.chars[self.last_end.idx.min(to)..to]
                .iter()
                .any(|c| *c == '[' || *c == '{')
        }
    }

    /// A column at which a line inside the innermost flow collections is
    /// indented enough for saphyr.
    fn flow_target_indent(&self) -> usize {
        let outer = self
            .stack
            .iter()
            .find(|f| f.flow)
            .map_or(0, |f| f.mark.col + 1);
        outer.max((self.block_indent() + 1).max(0) as usize)
    }

    /// Indents the first under-indented continuation line of the quoted
    /// scalar starting at `start` (libyaml does not mind).
    fn quoted_indent_fix(&self, start: Pos) -> Option<Fix> {
        let chars = self.chars;
        let quote = *chars.get(start.idx)?;
        if quote != '\'' && quote != '"' {
            return None;
        }
        let target = start.col.max((self.block_indent() + 1).max(0) as usize);
        let mut i = start.idx + 1;
        while i < chars.len() {
            let c = chars[i];
            if c == quote {
                if quote == '\'' && chars.get(i + 1) == Some(&'\'') {
                    i += 2;
                    continue;
                }
                return None;
            }
            if c == '\\' && quote == '"' {
                i += 2;
                continue;
            }
            if is_break(c) {
                let line_start = if c == '\r' && chars.get(i + 1) == Some(&'\n') {
                    i + 2
                } else {
                    i + 1
                };
                let mut j = line_start;
                while j < chars.len() && chars[j] == ' ' {
                    j += 1;
                }
                let col = j - line_start;
                let mut k = j;
                while k < chars.len() && is_blank(chars[k]) {
                    k += 1;
                }
                if k < chars.len() && !is_break(chars[k]) && col < target {
                    if col == 0 && (self.document_marker(j)) {
                        return None;
                    }
                    return Some(Fix::Indent(line_start, target - col));
                }
                i = line_start;
                continue;
            }
            i += 1;
        }
        None
    }

    /// The tab a saphyr tab error is about: the first tab in the indentation
    /// of the line, else the last one before `pos` on it.
    fn tab_near(&self, pos: Pos) -> Pos {
        let chars = self.chars;
        let line_start = pos.idx.saturating_sub(pos.col).min(chars.len());
        let mut j = line_start;
        while j < chars.len() && is_blank(chars[j]) {
            if chars[j] == '\t' {
                return Pos {
                    idx: j,
                    line: pos.line,
                    col: j - line_start,
                };
            }
            j += 1;
        }
        let mut j = pos.idx.min(chars.len());
        while j > line_start {
            j -= 1;
            if chars[j] == '\t' {
                return Pos {
                    idx: j,
                    line: pos.line,
                    col: j - line_start,
                };
            }
        }
        pos
    }

    /// libyaml's message for a syntax error saphyr reported as `info` at `pos`.
    fn translate(&self, info: &str, pos: Pos) -> YamlError {
        let here = |problem: &str| at_line_col(problem, pos.line, pos.col);
        if info.starts_with("unexpected character") {
            return here(CANNOT_START);
        }
        match info {
            "mapping values are not allowed in this context"
            | "block sequence entries are not allowed in this context"
            | "mapping keys are not allowed in this context" => here(info),
            "tabs disallowed within this context (block indentation)"
            | "tabs disallowed in this context"
            | "tab cannot be used as indentation"
            | "'-' must be followed by a valid YAML whitespace"
            | "a block scalar content cannot start with a tab"
            | "':' must be followed by a valid YAML whitespace" => {
                let t = self.tab_near(pos);
                at_line_col(CANNOT_START, t.line, t.col)
            }
            "simple key expect ':'" => {
                let k = self.next_token(self.last_end);
                at_line_col("could not find expected ':' while scanning a simple key", k.line, k.col)
            }
            "the handle wasn't declared" => here("found undefined tag handle while parsing a node"),
            "duplicate version directive" => at_line_col("found duplicate %YAML directive", 1, 0),
            "the TAG directive must only be given at most once per handle in the same document" => {
                at_line_col("found duplicate %TAG directive", 1, 0)
            }
            "while parsing a node, did not find expected node content" => {
                if self.in_flow() {
                    here("did not find expected node content while parsing a flow node")
                } else {
                    here("did not find expected node content while parsing a block node")
                }
            }
            "while scanning a plain scalar, found a tab" => {
                here("found a tab character that violates indentation while scanning a plain scalar")
            }
            "while parsing a quoted scalar, did not find expected hexadecimal number" => {
                here("did not find expected hexdecimal number while parsing a quoted scalar")
            }
            "while scanning an anchor or alias, did not find expected alphabetic or numeric character" => {
                if self.chars.get(pos.idx) == Some(&'*') {
                    here("did not find expected alphabetic or numeric character while scanning an alias")
                } else {
                    here("did not find expected alphabetic or numeric character while scanning an anchor")
                }
            }
            "while scanning a verbatim tag, did not find the expected '>'" => {
                here("did not find the expected '>' while scanning a tag")
            }
            _ => {
                let structural = [
                    "while parsing a flow sequence",
                    "while parsing a flow mapping",
                    "while parsing a block mapping",
                    "while parsing a block collection",
                ];
                if info.starts_with("while ") && !structural.iter().any(|s| info.starts_with(s)) {
                    if let Some((context, problem)) = info.split_once(", ") {
                        let context = match context {
                            "while scanning a YAML directive" => "while scanning a %YAML directive",
                            "while scanning TAG" => "while scanning a %TAG directive",
                            c => c,
                        };
                        return here(&format!("{} {}", problem, context));
                    }
                }
                self.state_error(pos)
            }
        }
    }

    /// libyaml's parser error for an unexpected token inside the innermost
    /// collection (or at the top).
    fn state_error(&self, pos: Pos) -> YamlError {
        // After `key:`, `- ` or `? ` in block context libyaml wants a node.
        if !self.in_flow() && pos.idx <= self.chars.len() {
            let mut t = pos.idx;
            while t > 0 && (is_blank(self.chars[t - 1]) || is_break(self.chars[t - 1])) {
                t -= 1;
            }
            let indicator = t > 0
                && t < pos.idx
                && match (self.chars[t - 1], self.stack.last()) {
                    (':' | '?', Some(f)) => !f.seq,
                    ('-', Some(f)) => {
                        f.seq
                            && (t < 2 || is_blank(self.chars[t - 2]) || is_break(self.chars[t - 2]))
                    }
                    _ => false,
                };
            let at_value = self.chars.get(pos.idx) == Some(&':')
                && self
                    .chars
                    .get(pos.idx + 1)
                    .is_none_or(|c| is_blank(*c) || is_break(*c));
            if indicator && at_value {
                // `? : x`: the `:` starts a mapping inside the key.
                return at_line_col(
                    "did not find expected key while parsing a block mapping",
                    pos.line,
                    pos.col,
                );
            }
            if indicator {
                return at_line_col(
                    "did not find expected node content while parsing a block node",
                    pos.line,
                    pos.col,
                );
            }
        }
        // In a flow collection libyaml wants a node after `[`, `{`, `,` and a
        // key's `:`, and a `,` or the closing bracket after a node.
        if let Some(f) = self.stack.last().filter(|f| f.flow) {
            let t = self.next_token(self.last_end);
            let c = self.chars.get(t.idx).copied();
            let awaiting_value = matches!(f.body, Body::Map { key: Some(_), .. });
            let node_at = if f.children == 0 && !f.pair {
                Some(t)
            } else if c == Some(',') || (c == Some(':') && (awaiting_value || f.pair)) {
                Some(self.next_token(step(self.chars, t)))
            } else {
                None
            };
            if let Some(np) = node_at {
                let n = self.chars.get(np.idx).copied();
                let closes = (n == Some(']') && f.seq) || (n == Some('}') && !f.seq && !f.pair);
                let closes = closes || (f.pair && n == Some(']'));
                if !closes && np.idx >= pos.idx.min(self.chars.len()) {
                    let np = self.end_mark(np);
                    return at_line_col(
                        "did not find expected node content while parsing a flow node",
                        np.line,
                        np.col,
                    );
                }
            }
        }
        for i in (0..self.stack.len()).rev() {
            let f = &self.stack[i];
            if f.pair {
                continue;
            }
            if !f.flow && f.seq && i > 0 {
                // An indentless sequence (`a:\n- b`) has no context of its own.
                let p = &self.stack[i - 1];
                if !p.flow && !p.seq && p.indent == f.indent {
                    continue;
                }
            }
            let message = match (f.flow, f.seq) {
                (true, true) => "did not find expected ',' or ']' while parsing a flow sequence",
                (true, false) => "did not find expected ',' or '}' while parsing a flow mapping",
                (false, false) => "did not find expected key while parsing a block mapping",
                (false, true) => {
                    "did not find expected '-' indicator while parsing a block collection"
                }
            };
            return at_line_col(message, f.mark.line, f.mark.col);
        }
        at_line_col(
            "did not find expected node content while parsing a block node",
            pos.line,
            pos.col,
        )
    }
}

/// libyaml's anchor names: `[0-9A-Za-z_-]+`.
pub(crate) fn check_anchor_name(name: &str, at: Pos, what: &str) -> Result<(), YamlError> {
    if name.is_empty()
        || !name
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err(at_line_col(
            &format!(
                "did not find expected alphabetic or numeric character while scanning an {}",
                what
            ),
            at.line,
            at.col,
        ));
    }
    Ok(())
}

/// Stores a `key: value` pair as Psych's `revive_hash` does: `<<` (unless
/// tagged `!!str`) merges a mapping, or a sequence of mappings (earlier ones
/// win), into the hash, overwriting keys already there; anything else is
/// stored under the key `<<`. A repeated key keeps its first position and
/// takes the last value.
pub(crate) fn insert_pair(
    map: &mut Map,
    key: Value,
    key_str_tag: bool,
    value: Value,
    kind: NodeKind,
) {
    if !key_str_tag && key.as_str() == Some("<<") {
        match (kind, &value) {
            (NodeKind::Alias | NodeKind::Mapping, Value::Hash(h)) => {
                for (k, v) in h.iter() {
                    map.insert(k.clone(), v.clone());
                }
                return;
            }
            (NodeKind::Sequence, Value::Array(items))
                if items.iter().all(|i| matches!(i, Value::Hash(_))) =>
            {
                let mut merged = Map::default();
                for item in items.iter().rev() {
                    if let Value::Hash(h) = item {
                        for (k, v) in h.iter() {
                            merged.insert(k.clone(), v.clone());
                        }
                    }
                }
                for (k, v) in merged {
                    map.insert(k, v);
                }
                return;
            }
            _ => {}
        }
    }
    map.insert(key, value);
}

/// The kind of sequence a tag makes: `Ok(true)` for an `!!omap`.
pub(crate) fn sequence_mode(tag: Option<&str>) -> Result<bool, Fail> {
    let Some(tag) = tag else { return Ok(false) };
    if tag == "!omap" || tag == "tag:yaml.org,2002:omap" {
        return Ok(true);
    }
    if let Some(name) = tag
        .strip_prefix("!seq:")
        .or_else(|| tag.strip_prefix("!ruby/array:"))
    {
        return Err(class_fail(name));
    }
    Ok(false)
}

/// `resolve_class(name).allocate` in Psych: a class that is not permitted, or
/// `nil` for an empty name.
pub(crate) fn class_fail(name: &str) -> Fail {
    if name.is_empty() {
        Fail::Message("undefined method `allocate' for nil:NilClass".into())
    } else {
        Fail::Disallowed(name.into())
    }
}

/// How a tagged mapping is converted (Psych's `visit_Psych_Nodes_Mapping`).
pub(crate) fn mapping_mode(tag: Option<&str>) -> Result<MapMode, Fail> {
    let Some(tag) = tag else {
        return Ok(MapMode::Hash);
    };
    if let Some(rest) = tag.strip_prefix("!ruby/struct") {
        let name = rest.strip_prefix(':').unwrap_or(rest);
        return Err(Fail::Disallowed(
            if name.is_empty() { "Struct" } else { name }.into(),
        ));
    }
    if let Some(rest) = tag.strip_prefix("!ruby/object") {
        let name = rest.strip_prefix(':').unwrap_or(rest);
        return match name {
            "Hash" => Ok(MapMode::Hash),
            "" => Err(Fail::Disallowed("Object".into())),
            n => Err(Fail::Disallowed(n.into())),
        };
    }
    if tag == "tag:yaml.org,2002:str" {
        return Ok(MapMode::Str(None, false));
    }
    if let Some(rest) = tag
        .strip_prefix("!str")
        .or_else(|| tag.strip_prefix("!ruby/string"))
    {
        if rest.is_empty() || rest == ":" {
            return Ok(MapMode::Str(None, false));
        }
        if let Some(name) = rest.strip_prefix(':') {
            return Err(Fail::Disallowed(name.into()));
        }
    }
    if let Some(name) = tag.strip_prefix("!ruby/array:") {
        return Err(class_fail(name));
    }
    if tag == "!ruby/range" {
        return Err(Fail::Disallowed("Range".into()));
    }
    if let Some(rest) = tag.strip_prefix("!ruby/exception") {
        let name = rest.strip_prefix(':').unwrap_or(rest);
        return Err(Fail::Disallowed(
            if name.is_empty() { "Exception" } else { name }.into(),
        ));
    }
    if tag == "!set" || tag == "tag:yaml.org,2002:set" {
        return Err(Fail::Disallowed("Psych::Set".into()));
    }
    if let Some(rest) = tag.strip_prefix("!ruby/hash-with-ivars") {
        if rest.is_empty() {
            return Ok(MapMode::Ivars);
        }
        if let Some(name) = rest.strip_prefix(':') {
            return Err(class_fail(name));
        }
    }
    if let Some(name) = tag
        .strip_prefix("!map:")
        .or_else(|| tag.strip_prefix("!ruby/hash:"))
    {
        return Err(class_fail(name));
    }
    if tag == "!omap" || tag == "tag:yaml.org,2002:omap" {
        return Err(Fail::Disallowed("Psych::Omap".into()));
    }
    if let Some(name) = tag.strip_prefix("!ruby/marshalable:") {
        return Err(class_fail(name));
    }
    Ok(MapMode::Hash)
}
