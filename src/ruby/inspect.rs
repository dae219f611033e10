//! Ruby 3.1's `to_s` and `inspect` of the values Hiera handles: what
//! string interpolation, `Array#join`, error messages and `--explain` show.

use super::float::float_to_s;
use super::unicode::printable as ruby_printable;
use crate::value::{Map, Value};

/// The text of `Sensitive#to_s` in Puppet.
pub const SENSITIVE_TEXT: &str = "Sensitive [value redacted]";

/// Ruby's `to_s` of a value, as string interpolation uses it: Strings as
/// they are, `nil` as nothing, numbers and booleans as Ruby prints them,
/// a Symbol as its name, Arrays and Hashes as `inspect`, a Sensitive as
/// `Sensitive [value redacted]`.
pub fn to_s(v: &Value, out: &mut String) {
    match v {
        Value::Nil => {}
        Value::String(s) => out.push_str(s),
        Value::Symbol(s) => out.push_str(s),
        Value::Bytes(b) => out.push_str(&String::from_utf8_lossy(b)),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::BigInt(s) => out.push_str(s),
        Value::Float(f) => out.push_str(&float_to_s(*f)),
        Value::Array(_) | Value::Hash(_) => inspect_into(v, out),
        Value::Sensitive(_) => out.push_str(SENSITIVE_TEXT),
        Value::Rich(r) => out.push_str(&r.1),
    }
}

/// Ruby 3.1's `inspect`: `["a", 1, nil]`, `{"k"=>"v", :s=>1.5}`, `:sym`,
/// strings double-quoted with Ruby's escapes, `#<Sensitive [value redacted]>`.
pub fn inspect_into(v: &Value, out: &mut String) {
    match v {
        Value::Nil => out.push_str("nil"),
        Value::String(s) => inspect_str(s, out),
        Value::Bytes(b) => inspect_binary(b, out),
        Value::Symbol(s) => inspect_symbol(s, out),
        Value::Rich(r) => out.push_str(&r.1),
        Value::Sensitive(_) => {
            out.push_str("#<");
            out.push_str(SENSITIVE_TEXT);
            out.push('>');
        }
        Value::Array(a) => write_array(a, out, inspect_into),
        Value::Hash(h) => write_hash(h, "=>", out, inspect_into),
        other => to_s(other, out),
    }
}

/// `[x, y]`, each element written by `item`: an Array as Ruby's `inspect`
/// and Puppet's `String()` write it.
pub(crate) fn write_array(
    a: &[Value],
    out: &mut String,
    mut item: impl FnMut(&Value, &mut String),
) {
    crate::stack::grow(|| {
        out.push('[');
        for (i, x) in a.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            item(x, out);
        }
        out.push(']');
    })
}

/// `{k<arrow>v, ...}`, each key and value written by `item`: a Hash as
/// Ruby's `inspect` (arrow `=>`) and Puppet's `String()` (` => `) write it.
pub(crate) fn write_hash(
    h: &Map,
    arrow: &str,
    out: &mut String,
    mut item: impl FnMut(&Value, &mut String),
) {
    crate::stack::grow(|| {
        out.push('{');
        for (i, (k, x)) in h.iter().enumerate() {
            if i > 0 {
                out.push_str(", ");
            }
            item(k, out);
            out.push_str(arrow);
            item(x, out);
        }
        out.push('}');
    })
}

/// The `inspect` text of a value as a new String.
pub fn inspect(v: &Value) -> String {
    let mut s = String::new();
    inspect_into(v, &mut s);
    s
}

fn special_escape(c: u32) -> Option<&'static str> {
    Some(match c {
        0x0A => "\\n",
        0x0D => "\\r",
        0x09 => "\\t",
        0x0C => "\\f",
        0x0B => "\\v",
        0x08 => "\\b",
        0x07 => "\\a",
        0x1B => "\\e",
        _ => return None,
    })
}

/// `String#inspect` of a UTF-8 string.
pub fn inspect_str(s: &str, out: &mut String) {
    inspect_chars(s, false, out);
}

/// `ascii_x`: escape other controls as `\xNN` (a US-ASCII string, as an
/// ASCII-only Symbol's name is) rather than `\uNNNN`.
fn inspect_chars(s: &str, ascii_x: bool, out: &mut String) {
    out.push('"');
    let mut it = s.chars().peekable();
    while let Some(c) = it.next() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '#' if matches!(it.peek(), Some('{' | '$' | '@')) => out.push_str("\\#"),
            c => {
                let n = c as u32;
                if let Some(e) = special_escape(n) {
                    out.push_str(e);
                } else if ruby_printable(c) {
                    out.push(c);
                } else if ascii_x && n < 0x80 {
                    out.push_str(&format!("\\x{:02X}", n));
                } else if n < 0x10000 {
                    out.push_str(&format!("\\u{:04X}", n));
                } else {
                    out.push_str(&format!("\\u{{{:X}}}", n));
                }
            }
        }
    }
    out.push('"');
}

/// `String#inspect` of a binary (ASCII-8BIT) string.
fn inspect_binary(b: &[u8], out: &mut String) {
    out.push('"');
    for (i, &c) in b.iter().enumerate() {
        match c {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'#' if matches!(b.get(i + 1), Some(b'{' | b'$' | b'@')) => out.push_str("\\#"),
            _ => {
                if let Some(e) = special_escape(u32::from(c)) {
                    out.push_str(e);
                } else if (0x20..0x7F).contains(&c) {
                    out.push(c as char);
                } else {
                    out.push_str(&format!("\\x{:02X}", c));
                }
            }
        }
    }
    out.push('"');
}

/// Which kind of name `rb_enc_symname_type` found.
#[derive(Clone, Copy, PartialEq)]
enum SymType {
    Local,
    Const,
    Global,
    Instance,
    Class,
    Attrset,
    Junk,
}

/// `[a-zA-Z0-9_]` or any non-ASCII byte (Ruby's `is_identchar`).
fn ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || !b.is_ascii()
}

/// Ruby's `is_special_global_name` (the name after `$`): one punctuation
/// character, `-` and one identifier character, or digits.
fn special_global(rest: &[u8]) -> bool {
    const PUNCT: &[u8] = b"~*$?!@/\\;,.=:<>\"&`'+0";
    match rest.first() {
        None => false,
        Some(c) if PUNCT.contains(c) => rest.len() == 1,
        Some(b'-') => {
            // One identifier character (a whole UTF-8 character), nothing after.
            let tail = &rest[1..];
            let n = std::str::from_utf8(tail)
                .ok()
                .and_then(|t| t.chars().next())
                .map_or(1, char::len_utf8);
            !tail.is_empty() && ident_byte(tail[0]) && tail.len() == n
        }
        Some(c) if c.is_ascii_digit() => rest.iter().all(u8::is_ascii_digit),
        Some(_) => false,
    }
}

/// Ruby 3.1's `rb_enc_symname_type` with the attrset rule of the parser
/// (`IDSET_ATTRSET_FOR_SYNTAX`: only local and constant names take `=`):
/// `None` where Ruby answers -1. Bytes past the end read as NUL, as they do
/// in Ruby's NUL-terminated strings.
fn symname_type(name: &[u8]) -> Option<SymType> {
    let e = name.len();
    if e == 0 {
        return None;
    }
    let at = |i: usize| name.get(i).copied().unwrap_or(0);
    let mut m = 0;
    let mut ty = SymType::Junk;
    let mut goto_id = false;
    match name[0] {
        0 => return None,
        b'$' => {
            ty = SymType::Global;
            if special_global(&name[1..]) {
                return Some(ty);
            }
            m = 1;
            goto_id = true;
        }
        b'@' => {
            ty = SymType::Instance;
            m = 1;
            if at(1) == b'@' {
                m = 2;
                ty = SymType::Class;
            }
            goto_id = true;
        }
        b'<' => {
            m = 1;
            match at(1) {
                b'<' => m = 2,
                b'=' => {
                    m = 2;
                    if at(2) == b'>' {
                        m = 3;
                    }
                }
                _ => {}
            }
        }
        b'>' => {
            m = 1;
            if matches!(at(1), b'>' | b'=') {
                m = 2;
            }
        }
        b'=' => match at(1) {
            b'~' => m = 2,
            b'=' => m = if at(2) == b'=' { 3 } else { 2 },
            _ => return None,
        },
        b'*' => m = if at(1) == b'*' { 2 } else { 1 },
        b'+' | b'-' => m = if at(1) == b'@' { 2 } else { 1 },
        b'|' | b'^' | b'&' | b'/' | b'%' | b'~' | b'`' => m = 1,
        b'[' => {
            if at(1) != b']' {
                goto_id = true;
            } else {
                m = if at(2) == b'=' { 3 } else { 2 };
            }
        }
        b'!' => {
            if e == 1 {
                return Some(SymType::Junk);
            }
            match at(1) {
                b'=' | b'~' => m = 2,
                // The parser's attrset set leaves out junk names.
                _ => return None,
            }
        }
        c => {
            ty = if c.is_ascii_uppercase() {
                SymType::Const
            } else {
                SymType::Local
            };
            goto_id = true;
        }
    }
    if goto_id {
        let c = at(m);
        if m >= e || (c != b'_' && !c.is_ascii_alphabetic() && c.is_ascii()) {
            if e > 1
                && name[e - 1] == b'='
                && symname_type(&name[..e - 1]) != Some(SymType::Attrset)
            {
                return Some(SymType::Attrset);
            }
            return None;
        }
        while m < e && ident_byte(name[m]) {
            m += 1;
        }
        if m < e {
            let attrset_allowed = |t: SymType| matches!(t, SymType::Local | SymType::Const);
            match name[m] {
                b'!' | b'?' => {
                    if matches!(ty, SymType::Global | SymType::Class | SymType::Instance) {
                        return None;
                    }
                    ty = SymType::Junk;
                    m += 1;
                    if !(m + 1 < e || at(m) != b'=') {
                        if !attrset_allowed(ty) {
                            return None;
                        }
                        ty = SymType::Attrset;
                        m += 1;
                    }
                }
                b'=' => {
                    if !attrset_allowed(ty) {
                        return None;
                    }
                    ty = SymType::Attrset;
                    m += 1;
                }
                _ => {}
            }
        }
    }
    (m == e).then_some(ty)
}

/// Whether `:name` needs no quotes (Ruby's `rb_str_symname_p`): a name by
/// `rb_enc_symname_type`, no NUL, every character printable.
fn symbol_is_simple(name: &str) -> bool {
    symname_type(name.as_bytes()).is_some()
        && !name.contains('\0')
        && name.chars().all(ruby_printable)
}

/// `Symbol#inspect`.
fn inspect_symbol(name: &str, out: &mut String) {
    out.push(':');
    if symbol_is_simple(name) {
        out.push_str(name);
    } else {
        inspect_chars(name, name.is_ascii(), out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::render::from_json;
    use crate::value::Value;

    fn v(wire: &str) -> Value {
        from_json(wire).unwrap_or_else(|e| panic!("{wire}: {e}"))
    }

    /// `render` gives, for each wire value of `cases`, the text Ruby printed.
    fn assert_renders(cases: &[(&str, &str)], render: impl Fn(&Value) -> String) {
        for (wire, want) in cases {
            assert_eq!(render(&v(wire)), *want, "{wire}");
        }
    }

    /// `p value` on Ruby 3.1.2 for the value the wire JSON describes.
    #[test]
    fn inspect_matches_ruby() {
        let cases: &[(&str, &str)] = &[
            ("[\"a\",1,true,null,1.5]", "[\"a\", 1, true, nil, 1.5]"),
            ("{\"k\":\"v\",\"n\":2,\"nested\":{\"x\":[1]}}", "{\"k\"=>\"v\", \"n\"=>2, \"nested\"=>{\"x\"=>[1]}}"),
            ("{\"__type__\":\"Hash\",\"entries\":[[{\"__type__\":\"Symbol\",\"value\":\"a\"},1],[1,{\"__type__\":\"Symbol\",\"value\":\"b\"}],[null,[]],[2.5,{}]]}", "{:a=>1, 1=>:b, nil=>[], 2.5=>{}}"),
            ("{\"__type__\":\"Symbol\",\"value\":\"sym\"}", ":sym"),
            ("{\"__type__\":\"Symbol\",\"value\":\"foo bar\"}", ":\"foo bar\""),
            ("{\"__type__\":\"Symbol\",\"value\":\"a?\"}", ":a?"),
            ("{\"__type__\":\"Symbol\",\"value\":\"a=\"}", ":a="),
            ("{\"__type__\":\"Symbol\",\"value\":\"@iv\"}", ":@iv"),
            ("{\"__type__\":\"Symbol\",\"value\":\"$1\"}", ":$1"),
            ("{\"__type__\":\"Symbol\",\"value\":\"\"}", ":\"\""),
            ("{\"__type__\":\"Symbol\",\"value\":\"[]=\"}", ":[]="),
            ("{\"__type__\":\"Symbol\",\"value\":\"a\\u0000\"}", ":\"a\\x00\""),
            ("\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\u0007\\b\\t\\n\\u000b\\f\\r\\u000e\\u000f\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001a\\u001b\\u001c\\u001d\\u001e\\u001f !\\\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\u{7f}\"", "\"\\u0000\\u0001\\u0002\\u0003\\u0004\\u0005\\u0006\\a\\b\\t\\n\\v\\f\\r\\u000E\\u000F\\u0010\\u0011\\u0012\\u0013\\u0014\\u0015\\u0016\\u0017\\u0018\\u0019\\u001A\\e\\u001C\\u001D\\u001E\\u001F !\\\"\\#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\\\]^_`abcdefghijklmnopqrstuvwxyz{|}~\\u007F\""),
            ("\"#{x} #$y #@z #a #\"", "\"\\#{x} \\#$y \\#@z #a #\""),
            ("\"é日本\u{a0}\u{2028}\u{feff}\u{85}\u{ad}😀\u{10ffff}\u{378}\"", "\"é日本\u{a0}\\u2028\u{feff}\u{85}\u{ad}😀\\u{10FFFF}\\u0378\""),
            ("{\"__type__\":\"Binary\",\"value\":\"//57Cg==\"}", "\"\\xFF\\xFE{\\n\""),
            ("12345678901234567890123", "12345678901234567890123"),
            ("-0.0", "-0.0"),
            ("1.0e+20", "1.0e+20"),
            ("{\"__type__\":\"Float\",\"value\":\"Infinity\"}", "Infinity"),
            ("{\"__type__\":\"Float\",\"value\":\"-Infinity\"}", "-Infinity"),
            ("{\"__type__\":\"Float\",\"value\":\"NaN\"}", "NaN"),
            ("{\"__type__\":\"Sensitive\",\"value\":1}", "#<Sensitive [value redacted]>"),
        ];
        assert_renders(cases, inspect);
    }

    /// `puts value.to_s` on Ruby 3.1.2.
    #[test]
    fn to_s_matches_ruby() {
        let cases: &[(&str, &str)] = &[
            ("null", ""),
            ("\"str\"", "str"),
            ("42", "42"),
            ("1.0e-05", "1.0e-05"),
            ("true", "true"),
            ("{\"__type__\":\"Symbol\",\"value\":\"sym\"}", "sym"),
            ("[1,\"a\"]", "[1, \"a\"]"),
            ("{\"a\":null}", "{\"a\"=>nil}"),
            (
                "{\"__type__\":\"Sensitive\",\"value\":\"x\"}",
                "Sensitive [value redacted]",
            ),
        ];
        assert_renders(cases, |v| {
            let mut s = String::new();
            to_s(v, &mut s);
            s
        });
    }

    /// `print value.to_yaml` on Ruby 3.1.2 (Psych 4.0.3, libyaml 0.2.5).
    /// tests/conformance/libhiera/interpolation/non_string_rendering.
    #[test]
    fn interpolated_values_render_like_puppet() {
        let arr = v(r#"[1,2.5,"two",true,null,["nested",[]],{"k":"v"}]"#);
        let mut s = String::new();
        to_s(&arr, &mut s);
        assert_eq!(
            s,
            r#"[1, 2.5, "two", true, nil, ["nested", []], {"k"=>"v"}]"#
        );
        let tricky = v(
            r##"["quote\"d","back\\slash","new\nline","tab\t","ünï €","bell\u0007","\u007f","#{x}","esc\u001b"]"##,
        );
        let mut s = String::new();
        to_s(&tricky, &mut s);
        assert_eq!(
            s,
            r##"["quote\"d", "back\\slash", "new\nline", "tab\t", "ünï €", "bell\a", "\u007F", "\#{x}", "esc\e"]"##
        );
    }
}
