//! `to_yaml` as Ruby 3.1 writes it: Psych 4.0.3's YAMLTree (which scalars
//! to quote, and how) and libyaml 0.2.5's emitter (styles, indentation,
//! line folding).
//!
//! Known differences from Ruby: no anchors/aliases (`&1`/`*1`) for
//! containers that Ruby would see as the same object twice, and a
//! `Sensitive` is written as the string `Sensitive [value redacted]` (what
//! `puppet lookup` shows).

use crate::ruby::{base64, float_to_s, SENSITIVE_TEXT};
use crate::value::Value;

// ---------------------------------------------------------------------------
// YAML (Psych 4.0.3 YAMLTree + libyaml 0.2.5 emitter)
// ---------------------------------------------------------------------------

/// Ruby's `value.to_yaml`: a `---` document as Psych writes it, ending in
/// a newline.
pub fn to_yaml(v: &Value) -> String {
    let node = yaml_node(v);
    let mut e = Emitter::new();
    e.document(&node);
    e.out
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    Any,
    Plain,
    Single,
    Double,
    Literal,
}

struct Scalar {
    value: String,
    tag: Option<&'static str>,
    plain_implicit: bool,
    quoted_implicit: bool,
    style: Style,
}

enum Node {
    Scalar(Scalar),
    Seq(Vec<Node>),
    Map(Vec<(Node, Node)>),
}

fn plain_scalar(value: String) -> Node {
    Node::Scalar(Scalar {
        value,
        tag: None,
        plain_implicit: true,
        quoted_implicit: false,
        style: Style::Any,
    })
}

/// Psych's `YAMLTree` visitor: the events Ruby's `to_yaml` emits.
fn yaml_node(v: &Value) -> Node {
    crate::stack::grow(|| match v {
        Value::Nil => Node::Scalar(Scalar {
            value: String::new(),
            tag: Some("tag:yaml.org,2002:null"),
            plain_implicit: true,
            quoted_implicit: false,
            style: Style::Any,
        }),
        Value::Bool(b) => plain_scalar(b.to_string()),
        Value::Int(i) => plain_scalar(i.to_string()),
        Value::BigInt(s) => plain_scalar(s.to_string()),
        Value::Float(f) => plain_scalar(if f.is_nan() {
            ".nan".into()
        } else if f.is_infinite() {
            if *f > 0.0 {
                ".inf".into()
            } else {
                "-.inf".into()
            }
        } else {
            float_to_s(*f)
        }),
        Value::String(s) => string_node(s),
        Value::Bytes(b) => match std::str::from_utf8(b) {
            Ok(s) => string_node(s),
            Err(_) => Node::Scalar(Scalar {
                value: base64::encode(b),
                tag: Some("!binary"),
                plain_implicit: false,
                quoted_implicit: false,
                style: Style::Literal,
            }),
        },
        Value::Symbol(s) if s.is_empty() => Node::Scalar(Scalar {
            value: String::new(),
            tag: Some("!ruby/symbol"),
            plain_implicit: false,
            quoted_implicit: false,
            style: Style::Any,
        }),
        Value::Symbol(s) => plain_scalar(format!(":{}", s)),
        Value::Sensitive(_) => string_node(SENSITIVE_TEXT),
        Value::Rich(r) => string_node(&r.1),
        Value::Array(a) => Node::Seq(a.iter().map(yaml_node).collect()),
        Value::Hash(h) => Node::Map(
            h.iter()
                .map(|(k, x)| (yaml_node(k), yaml_node(x)))
                .collect(),
        ),
    })
}

/// Psych's `visit_String` for a UTF-8 string.
fn string_node(s: &str) -> Node {
    let mut tag = None;
    let mut quoted_implicit = true;
    let mut plain_implicit = true;
    let style = if has_inner_newline(s) {
        Style::Literal
    } else if s == "<<" {
        tag = Some("tag:yaml.org,2002:str");
        plain_implicit = false;
        quoted_implicit = false;
        Style::Single
    } else if s == "y" || s == "n" || nonword_line(s) {
        Style::Double
    } else if s.contains('\n') {
        // Only a trailing newline: the emitter quotes it whatever the
        // scalar scanner would say.
        Style::Plain
    } else if !super::scalar::tokenizes_as_string(s) || octal_with_8_or_9(s) {
        Style::Single
    } else {
        Style::Plain
    };
    Node::Scalar(Scalar {
        value: s.to_string(),
        tag,
        plain_implicit,
        quoted_implicit,
        style,
    })
}

/// `s =~ /\n(?!\Z)/`: a newline that is not the last character nor the
/// first of a final `\n\n`.
fn has_inner_newline(s: &str) -> bool {
    let b = s.as_bytes();
    let n = b.len();
    b.iter()
        .enumerate()
        .any(|(i, &c)| c == b'\n' && !(i + 1 == n || (i + 2 == n && b[i + 1] == b'\n')))
}

/// `s =~ /^[^[:word:]][^"]*$/` with Ruby's line anchors.
fn nonword_line(s: &str) -> bool {
    let chars: Vec<char> = s.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let at_line_start = i == 0 || chars[i - 1] == '\n';
        if at_line_start && !crate::ruby::unicode::word(chars[i]) {
            // [^"]* then $ (end of string or before a newline).
            let mut j = i + 1;
            loop {
                if j == chars.len() || chars[j] == '\n' {
                    return true;
                }
                if chars[j] == '"' {
                    break;
                }
                j += 1;
            }
        }
        i += 1;
    }
    false
}

/// `/\A0[0-7]*[89]/`
fn octal_with_8_or_9(s: &str) -> bool {
    let b = s.as_bytes();
    if b.first() != Some(&b'0') {
        return false;
    }
    let rest = &b[1..];
    let k = rest
        .iter()
        .take_while(|c| (b'0'..=b'7').contains(c))
        .count();
    matches!(rest.get(k), Some(b'8' | b'9'))
}

// --- libyaml emitter --------------------------------------------------------

const BEST_INDENT: i32 = 2;
const BEST_WIDTH: usize = 80;

#[derive(Default)]
struct Analysis {
    length: usize,
    multiline: bool,
    flow_plain_allowed: bool,
    block_plain_allowed: bool,
    single_quoted_allowed: bool,
    block_allowed: bool,
}

#[derive(Default, Clone)]
struct TagData {
    handle: Option<&'static str>,
    suffix: Option<String>,
}

fn yaml_printable(c: char) -> bool {
    let n = c as u32;
    n == 0x0A
        || (0x20..=0x7E).contains(&n)
        || (0xA0..=0xD7FF).contains(&n)
        || ((0xE000..=0xFFFD).contains(&n) && n != 0xFEFF)
}

fn yaml_break(c: char) -> bool {
    matches!(c, '\r' | '\n' | '\u{85}' | '\u{2028}' | '\u{2029}')
}

fn yaml_blankz(c: Option<char>) -> bool {
    match c {
        None | Some('\0') => true,
        Some(c) => c == ' ' || c == '\t' || yaml_break(c),
    }
}

fn analyze_tag(tag: &str) -> TagData {
    const DIRECTIVES: [(&str, &str); 2] = [("!", "!"), ("!!", "tag:yaml.org,2002:")];
    for (handle, prefix) in DIRECTIVES {
        if prefix.len() < tag.len() && tag.starts_with(prefix) {
            return TagData {
                handle: Some(handle),
                suffix: Some(tag[prefix.len()..].to_string()),
            };
        }
    }
    TagData {
        handle: None,
        suffix: Some(tag.to_string()),
    }
}

fn analyze_scalar(value: &str) -> Analysis {
    let mut a = Analysis {
        length: value.len(),
        ..Analysis::default()
    };
    if value.is_empty() {
        a.block_plain_allowed = true;
        a.single_quoted_allowed = true;
        return a;
    }
    let (mut block_ind, mut flow_ind) = (false, false);
    if value.starts_with("---") || value.starts_with("...") {
        block_ind = true;
        flow_ind = true;
    }
    let chars: Vec<char> = value.chars().collect();
    let (mut line_breaks, mut special) = (false, false);
    let (mut leading_space, mut leading_break, mut trailing_space, mut trailing_break) =
        (false, false, false, false);
    let (mut break_space, mut space_break) = (false, false);
    let mut preceded_by_ws = true;
    let mut followed_by_ws = yaml_blankz(chars.get(1).copied());
    let (mut prev_space, mut prev_break) = (false, false);
    for (i, &c) in chars.iter().enumerate() {
        let first = i == 0;
        let last = i + 1 == chars.len();
        if first {
            if "#,[]{}&*!|>'\"%@`".contains(c) {
                flow_ind = true;
                block_ind = true;
            }
            if c == '?' || c == ':' {
                flow_ind = true;
                if followed_by_ws {
                    block_ind = true;
                }
            }
            if c == '-' && followed_by_ws {
                flow_ind = true;
                block_ind = true;
            }
        } else {
            if ",?[]{}".contains(c) {
                flow_ind = true;
            }
            if c == ':' {
                flow_ind = true;
                if followed_by_ws {
                    block_ind = true;
                }
            }
            if c == '#' && preceded_by_ws {
                flow_ind = true;
                block_ind = true;
            }
        }
        if !yaml_printable(c) {
            special = true;
        }
        if yaml_break(c) {
            line_breaks = true;
        }
        if c == ' ' {
            leading_space |= first;
            trailing_space |= last;
            break_space |= prev_break;
            prev_space = true;
            prev_break = false;
        } else if yaml_break(c) {
            leading_break |= first;
            trailing_break |= last;
            space_break |= prev_space;
            prev_space = false;
            prev_break = true;
        } else {
            prev_space = false;
            prev_break = false;
        }
        preceded_by_ws = yaml_blankz(Some(c));
        if !last {
            followed_by_ws = yaml_blankz(chars.get(i + 2).copied());
        }
    }
    a.multiline = line_breaks;
    a.flow_plain_allowed = true;
    a.block_plain_allowed = true;
    a.single_quoted_allowed = true;
    a.block_allowed = true;
    if leading_space || leading_break || trailing_space || trailing_break {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if trailing_space {
        a.block_allowed = false;
    }
    if break_space {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
    }
    if space_break || special {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
        a.single_quoted_allowed = false;
        a.block_allowed = false;
    }
    if line_breaks {
        a.flow_plain_allowed = false;
        a.block_plain_allowed = false;
    }
    if flow_ind {
        a.flow_plain_allowed = false;
    }
    if block_ind {
        a.block_plain_allowed = false;
    }
    a
}

fn scalar_tag(s: &Scalar) -> TagData {
    match s.tag {
        Some(t) if !s.plain_implicit && !s.quoted_implicit => analyze_tag(t),
        _ => TagData::default(),
    }
}

struct Emitter {
    out: String,
    indent: i32,
    indents: Vec<i32>,
    flow_level: usize,
    column: usize,
    whitespace: bool,
    indention: bool,
    open_ended: u8,
    mapping_context: bool,
    simple_key_context: bool,
}

impl Emitter {
    fn new() -> Emitter {
        Emitter {
            out: String::new(),
            indent: -1,
            indents: Vec::new(),
            flow_level: 0,
            column: 0,
            whitespace: true,
            indention: true,
            open_ended: 0,
            mapping_context: false,
            simple_key_context: false,
        }
    }

    fn document(&mut self, root: &Node) {
        self.write_indent();
        self.write_indicator("---", true, false, false);
        self.open_ended = 0;
        self.node(root, false, false);
        // DOCUMENT-END (implicit)
        self.write_indent();
        if self.open_ended == 0 {
            self.open_ended = 1;
        }
        // STREAM-END
        if self.open_ended == 2 {
            self.write_indicator("...", true, false, false);
            self.open_ended = 0;
            self.write_indent();
        }
    }

    fn put(&mut self, c: char) {
        self.out.push(c);
        self.column += 1;
    }

    fn put_break(&mut self) {
        self.out.push('\n');
        self.column = 0;
    }

    fn write_break(&mut self, c: char) {
        if c == '\n' {
            self.put_break();
        } else {
            self.out.push(c);
            self.column = 0;
        }
    }

    fn increase_indent(&mut self, flow: bool, indentless: bool) {
        self.indents.push(self.indent);
        if self.indent < 0 {
            self.indent = if flow { BEST_INDENT } else { 0 };
        } else if !indentless {
            self.indent += BEST_INDENT;
        }
    }

    fn pop_indent(&mut self) {
        self.indent = self.indents.pop().expect("indent stack");
    }

    fn write_indent(&mut self) {
        let indent = self.indent.max(0) as usize;
        if !self.indention || self.column > indent || (self.column == indent && !self.whitespace) {
            self.put_break();
        }
        while self.column < indent {
            self.put(' ');
        }
        self.whitespace = true;
        self.indention = true;
    }

    fn write_indicator(&mut self, ind: &str, need_ws: bool, is_ws: bool, is_indention: bool) {
        if need_ws && !self.whitespace {
            self.put(' ');
        }
        for c in ind.chars() {
            self.put(c);
        }
        self.whitespace = is_ws;
        self.indention = self.indention && is_indention;
    }

    fn node(&mut self, node: &Node, mapping: bool, simple_key: bool) {
        crate::stack::grow(|| {
            self.mapping_context = mapping;
            self.simple_key_context = simple_key;
            match node {
                Node::Scalar(s) => self.scalar(s),
                Node::Seq(items) => {
                    if self.flow_level > 0 || items.is_empty() {
                        self.flow_sequence(items);
                    } else {
                        self.block_sequence(items);
                    }
                }
                Node::Map(pairs) => {
                    if self.flow_level > 0 || pairs.is_empty() {
                        self.flow_mapping(pairs);
                    } else {
                        self.block_mapping(pairs);
                    }
                }
            }
        })
    }

    fn check_simple_key(node: &Node) -> bool {
        match node {
            Node::Scalar(s) => {
                let a = analyze_scalar(&s.value);
                if a.multiline {
                    return false;
                }
                let t = scalar_tag(s);
                let len = t.handle.map_or(0, str::len)
                    + t.suffix.as_ref().map_or(0, String::len)
                    + a.length;
                len <= 128
            }
            Node::Seq(items) => items.is_empty(),
            Node::Map(pairs) => pairs.is_empty(),
        }
    }

    fn flow_sequence(&mut self, items: &[Node]) {
        self.write_indicator("[", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, item) in items.iter().enumerate() {
            if i > 0 {
                self.write_indicator(",", false, false, false);
            }
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            self.node(item, false, false);
        }
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator("]", false, false, false);
    }

    fn flow_mapping(&mut self, pairs: &[(Node, Node)]) {
        self.write_indicator("{", true, true, false);
        self.increase_indent(true, false);
        self.flow_level += 1;
        for (i, (k, v)) in pairs.iter().enumerate() {
            if i > 0 {
                self.write_indicator(",", false, false, false);
            }
            if self.column > BEST_WIDTH {
                self.write_indent();
            }
            if Self::check_simple_key(k) {
                self.node(k, true, true);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, false);
                self.node(k, true, false);
                if self.column > BEST_WIDTH {
                    self.write_indent();
                }
                self.write_indicator(":", true, false, false);
            }
            self.node(v, true, false);
        }
        self.flow_level -= 1;
        self.pop_indent();
        self.write_indicator("}", false, false, false);
    }

    fn block_sequence(&mut self, items: &[Node]) {
        let indentless = self.mapping_context && !self.indention;
        self.increase_indent(false, indentless);
        for item in items {
            self.write_indent();
            self.write_indicator("-", true, false, true);
            self.node(item, false, false);
        }
        self.pop_indent();
    }

    fn block_mapping(&mut self, pairs: &[(Node, Node)]) {
        self.increase_indent(false, false);
        for (k, v) in pairs {
            self.write_indent();
            if Self::check_simple_key(k) {
                self.node(k, true, true);
                self.write_indicator(":", false, false, false);
            } else {
                self.write_indicator("?", true, false, true);
                self.node(k, true, false);
                self.write_indent();
                self.write_indicator(":", true, false, true);
            }
            self.node(v, true, false);
        }
        self.pop_indent();
    }

    fn scalar(&mut self, s: &Scalar) {
        let a = analyze_scalar(&s.value);
        let mut tag = scalar_tag(s);
        // yaml_emitter_select_scalar_style
        let no_tag = tag.handle.is_none() && tag.suffix.is_none();
        let mut style = if s.style == Style::Any {
            Style::Plain
        } else {
            s.style
        };
        if self.simple_key_context && a.multiline {
            style = Style::Double;
        }
        if style == Style::Plain {
            if (self.flow_level > 0 && !a.flow_plain_allowed)
                || (self.flow_level == 0 && !a.block_plain_allowed)
            {
                style = Style::Single;
            }
            if a.length == 0 && (self.flow_level > 0 || self.simple_key_context) {
                style = Style::Single;
            }
            if no_tag && !s.plain_implicit {
                style = Style::Single;
            }
        }
        if style == Style::Single && !a.single_quoted_allowed {
            style = Style::Double;
        }
        if style == Style::Literal
            && (!a.block_allowed || self.flow_level > 0 || self.simple_key_context)
        {
            style = Style::Double;
        }
        if no_tag && !s.quoted_implicit && style != Style::Plain {
            tag.handle = Some("!");
        }
        self.process_tag(&tag);
        self.increase_indent(true, false);
        let allow_breaks = !self.simple_key_context;
        match style {
            Style::Plain => self.write_plain(&s.value, allow_breaks),
            Style::Single => self.write_single(&s.value, allow_breaks),
            Style::Double => self.write_double(&s.value, allow_breaks),
            _ => self.write_literal(&s.value),
        }
        self.pop_indent();
    }

    fn process_tag(&mut self, tag: &TagData) {
        match (tag.handle, &tag.suffix) {
            (None, None) => {}
            (Some(handle), suffix) => {
                if !self.whitespace {
                    self.put(' ');
                }
                for c in handle.chars() {
                    self.put(c);
                }
                self.whitespace = false;
                self.indention = false;
                if let Some(suffix) = suffix {
                    self.write_tag_content(suffix);
                }
            }
            (None, Some(suffix)) => {
                self.write_indicator("!<", true, false, false);
                self.write_tag_content(suffix);
                self.write_indicator(">", false, false, false);
            }
        }
    }

    fn write_tag_content(&mut self, value: &str) {
        for c in value.chars() {
            if c.is_ascii_alphanumeric() || "-_;/?:@&=+$,.~*'()[]".contains(c) {
                self.put(c);
            } else {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    self.put('%');
                    for d in [b >> 4, b & 0xF] {
                        self.put(
                            char::from_digit(u32::from(d), 16)
                                .unwrap()
                                .to_ascii_uppercase(),
                        );
                    }
                }
            }
        }
        self.whitespace = false;
        self.indention = false;
    }

    fn write_plain(&mut self, value: &str, allow_breaks: bool) {
        if !self.whitespace && (!value.is_empty() || self.flow_level > 0) {
            self.put(' ');
        }
        self.write_flow_text(value, allow_breaks, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_single(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("'", true, false, false);
        if self.write_flow_text(value, allow_breaks, true) {
            self.write_indent();
        }
        self.write_indicator("'", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    /// The text of a plain or a single-quoted scalar, the loop libyaml's
    /// `yaml_emitter_write_plain_scalar` and `_single_quoted` share: a
    /// space past the best width (not one of a run of spaces) may become a
    /// line break, and a line break is written twice when it starts a run
    /// of them. In single quotes a `'` is doubled and neither the first nor
    /// the last character breaks the line. Whether the text ended in line
    /// breaks.
    fn write_flow_text(&mut self, value: &str, allow_breaks: bool, single_quoted: bool) -> bool {
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let (mut spaces, mut breaks) = (false, false);
        for (i, &c) in chars.iter().enumerate() {
            if c == ' ' {
                if allow_breaks
                    && !spaces
                    && self.column > BEST_WIDTH
                    && (!single_quoted || (i != 0 && i != n - 1))
                    && chars.get(i + 1) != Some(&' ')
                {
                    self.write_indent();
                } else {
                    self.put(c);
                }
                spaces = true;
            } else if yaml_break(c) {
                if !breaks && c == '\n' {
                    self.put_break();
                }
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                if single_quoted && c == '\'' {
                    self.put('\'');
                }
                self.put(c);
                self.indention = false;
                spaces = false;
                breaks = false;
            }
        }
        breaks
    }

    fn write_double(&mut self, value: &str, allow_breaks: bool) {
        self.write_indicator("\"", true, false, false);
        let chars: Vec<char> = value.chars().collect();
        let n = chars.len();
        let mut spaces = false;
        for (i, &c) in chars.iter().enumerate() {
            if !yaml_printable(c) || c == '\u{FEFF}' || yaml_break(c) || c == '"' || c == '\\' {
                self.put('\\');
                let code = c as u32;
                let short = match code {
                    0x00 => Some('0'),
                    0x07 => Some('a'),
                    0x08 => Some('b'),
                    0x09 => Some('t'),
                    0x0A => Some('n'),
                    0x0B => Some('v'),
                    0x0C => Some('f'),
                    0x0D => Some('r'),
                    0x1B => Some('e'),
                    0x22 => Some('"'),
                    0x5C => Some('\\'),
                    0x85 => Some('N'),
                    0xA0 => Some('_'),
                    0x2028 => Some('L'),
                    0x2029 => Some('P'),
                    _ => None,
                };
                match short {
                    Some(e) => self.put(e),
                    None => {
                        let (letter, width) = if code <= 0xFF {
                            ('x', 2)
                        } else if code <= 0xFFFF {
                            ('u', 4)
                        } else {
                            ('U', 8)
                        };
                        self.put(letter);
                        for ch in format!("{:0w$X}", code, w = width).chars() {
                            self.put(ch);
                        }
                    }
                }
                spaces = false;
            } else if c == ' ' {
                if allow_breaks && !spaces && self.column > BEST_WIDTH && i != 0 && i != n - 1 {
                    self.write_indent();
                    if chars.get(i + 1) == Some(&' ') {
                        self.put('\\');
                    }
                } else {
                    self.put(c);
                }
                spaces = true;
            } else {
                self.put(c);
                spaces = false;
            }
        }
        self.write_indicator("\"", false, false, false);
        self.whitespace = false;
        self.indention = false;
    }

    fn write_literal(&mut self, value: &str) {
        self.write_indicator("|", true, false, false);
        // yaml_emitter_write_block_scalar_hints
        let chars: Vec<char> = value.chars().collect();
        if chars.first().is_some_and(|&c| c == ' ' || yaml_break(c)) {
            self.write_indicator(&BEST_INDENT.to_string(), false, false, false);
        }
        self.open_ended = 0;
        let chomp = match chars.len() {
            0 => Some("-"),
            n if !yaml_break(chars[n - 1]) => Some("-"),
            1 => {
                self.open_ended = 2;
                Some("+")
            }
            n if yaml_break(chars[n - 2]) => {
                self.open_ended = 2;
                Some("+")
            }
            _ => None,
        };
        if let Some(ch) = chomp {
            self.write_indicator(ch, false, false, false);
        }
        self.put_break();
        self.indention = true;
        self.whitespace = true;
        let mut breaks = true;
        for &c in &chars {
            if yaml_break(c) {
                self.write_break(c);
                self.indention = true;
                breaks = true;
            } else {
                if breaks {
                    self.write_indent();
                }
                self.put(c);
                self.indention = false;
                breaks = false;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::from_json;

    fn v(wire: &str) -> Value {
        from_json(wire).unwrap_or_else(|e| panic!("{wire}: {e}"))
    }

    #[test]
    fn to_yaml_matches_ruby() {
        let cases: &[(&str, &str)] = &[
            ("{\"a\":[1,\"x\"],\"b\":null}", "---\na:\n- 1\n- x\nb:\n"),
            ("\"x\"", "--- x\n"),
            ("null", "---\n"),
            ("[null,1]", "---\n-\n- 1\n"),
            ("{\"a\":{},\"b\":[]}", "---\na: {}\nb: []\n"),
            ("[[]]", "---\n- []\n"),
            ("\"yes\"", "--- 'yes'\n"),
            ("\"no\"", "--- 'no'\n"),
            ("\"~\"", "--- \"~\"\n"),
            ("\"\"", "--- ''\n"),
            ("\" \"", "--- \" \"\n"),
            ("\"123\"", "--- '123'\n"),
            ("\"1e3\"", "--- 1e3\n"),
            ("\"0o17\"", "--- 0o17\n"),
            ("\"017\"", "--- '017'\n"),
            ("\"0789\"", "--- '0789'\n"),
            ("\"+1\"", "--- \"+1\"\n"),
            ("\".5\"", "--- \".5\"\n"),
            ("\"1.\"", "--- '1.'\n"),
            ("\"NaN\"", "--- NaN\n"),
            ("\"y\"", "--- \"y\"\n"),
            ("\"Y\"", "--- Y\n"),
            ("\"a: b\"", "--- 'a: b'\n"),
            ("\"a:b\"", "--- a:b\n"),
            ("\"a #b\"", "--- 'a #b'\n"),
            ("\"#a\"", "--- \"#a\"\n"),
            ("\"- a\"", "--- \"- a\"\n"),
            ("\"---\"", "--- \"---\"\n"),
            ("\"a:\"", "--- 'a:'\n"),
            ("\"[a]\"", "--- \"[a]\"\n"),
            ("\"a, b\"", "--- a, b\n"),
            ("\"'a'\"", "--- \"'a'\"\n"),
            ("\"\\\"a\\\"\"", "--- '\"a\"'\n"),
            ("\" a\"", "--- \" a\"\n"),
            ("\"a \"", "--- 'a '\n"),
            ("\"a\\nb\"", "--- |-\n  a\n  b\n"),
            ("\"a\\n\"", "--- 'a\n\n  '\n"),
            ("\"a\\nb\\n\"", "--- |\n  a\n  b\n"),
            ("\"\\na\"", "--- |2-\n\n  a\n"),
            ("\"a\\n\\nb\\n\\n\"", "--- |+\n  a\n\n  b\n\n...\n"),
            ("\"a\\n\\n\"", "--- \"a\\n\\n\"\n"),
            ("\"  lead\\nx\"", "--- |2-\n    lead\n  x\n"),
            ("\"trail \\nx\"", "--- \"trail \\nx\"\n"),
            ("\"a\\tb\"", "--- \"a\\tb\"\n"),
            ("\"é\"", "--- é\n"),
            ("\"😀\"", "--- \"\\U0001F600\"\n"),
            ("\"a\u{85}b\"", "--- \"a\\Nb\"\n"),
            ("\"\u{feff}x\"", "--- \"\\uFEFFx\"\n"),
            ("\"<<\"", "--- !!str '<<'\n"),
            ("{\"__type__\":\"Symbol\",\"value\":\"sym\"}", "--- :sym\n"),
            ("{\"__type__\":\"Symbol\",\"value\":\"a: b\"}", "--- ! ':a: b'\n"),
            ("{\"__type__\":\"Symbol\",\"value\":\"\"}", "--- !ruby/symbol\n"),
            ("1.5", "--- 1.5\n"),
            ("-0.0", "--- -0.0\n"),
            ("1.0e+20", "--- 1.0e+20\n"),
            ("{\"__type__\":\"Float\",\"value\":\"Infinity\"}", "--- .inf\n"),
            ("{\"__type__\":\"Float\",\"value\":\"NaN\"}", "--- .nan\n"),
            ("12345678901234567890", "--- 12345678901234567890\n"),
            ("[1,[2,[3]]]", "---\n- 1\n- - 2\n  - - 3\n"),
            ("{\"a\":{\"b\":{\"c\":1}}}", "---\na:\n  b:\n    c: 1\n"),
            ("[{\"a\":1,\"b\":2}]", "---\n- a: 1\n  b: 2\n"),
            ("{\"__type__\":\"Hash\",\"entries\":[[1,2],[null,3],[true,4],[1.5,5],[[1],6],[{\"x\":1},7],[[],8]]}", "---\n1: 2\n! '': 3\ntrue: 4\n1.5: 5\n? - 1\n: 6\n? x: 1\n: 7\n[]: 8\n"),
            ("{\"kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\":1}", "---\n? kkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkkk\n: 1\n"),
            ("{\"a\\nb\":1}", "---\n? |-\n  a\n  b\n: 1\n"),
            ("\"word word word word word word word word word word word word word word word word word word word word word word word word word word word word word word\"", "--- word word word word word word word word word word word word word word word word\n  word word word word word word word word word word word word word word\n"),
            ("{\"key\":\"v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v \"}", "---\nkey: 'v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v v\n  v v v v v v v v v v v v '\n"),
            ("\"2001-02-03\"", "--- '2001-02-03'\n"),
            ("\"2001-02-30\"", "--- 2001-02-30\n"),
            ("\"1500-02-29\"", "--- '1500-02-29'\n"),
            ("\"2001-01-01 10:00:00\"", "--- '2001-01-01 10:00:00'\n"),
            ("\"2001-13-01 10:00:00\"", "--- 2001-13-01 10:00:00\n"),
            ("\"12:30\"", "--- '12:30'\n"),
            ("\"1_000\"", "--- '1_000'\n"),
            ("\"0b101\"", "--- '0b101'\n"),
            ("\"0x1F\"", "--- '0x1F'\n"),
            ("\".inf\"", "--- \".inf\"\n"),
            ("{\"__type__\":\"Binary\",\"value\":\"//4=\"}", "--- !binary |-\n  //4=\n"),
            ("[\"- item - item - item - item - item - item - item - item - item - item - item - item - item - item - item \"]", "---\n- \"- item - item - item - item - item - item - item - item - item - item - item -\n  item - item - item - item \"\n"),
            ("\"x\\n\\n\"", "--- \"x\\n\\n\"\n"),
            ("{\"__type__\":\"Sensitive\",\"value\":1}", "--- Sensitive [value redacted]\n"),
        ];
        for (wire, want) in cases {
            assert_eq!(to_yaml(&v(wire)), *want, "{wire}");
        }
    }
}
