//! `String.new(value, format)`: Puppet's `StringConverter` (Puppet 7.23
//! `pops/types/string_converter.rb`) with one format string given, as
//! `convert_to: [String, '%x']` in lookup_options asks for it, over the
//! values lookup data carries (Integer, Float, String, Boolean, Undef,
//! Array, Hash, nested), including the `Kernel.format` rules it relies on
//! (Ruby's two's complement `..f01` for negative `%x`, `Inf`, `%a`, ...).
//!
//! Errors are Puppet's messages (the caller prefixes "The convert_to
//! lookup_option for key '...' raised error: "); what libhiera does not
//! implement (pretty-printed containers `%#a`, a Hash of formats, rare
//! flag combinations) is a clear error naming the format, never a silent
//! answer.

use crate::value::Value;

type R<T> = std::result::Result<T, String>;

/// The `Formats` parameter type of `String.new`, as Puppet prints it.
const FORMATS_TYPE: &str = concat!(
    "Formats = Variant[Default, String[1], TypeMap = Hash[Type, Variant[Format = Pattern[",
    r"/^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/",
    "], ContainerFormat = Struct[{Optional['format'] => Format = Pattern[",
    r"/^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/",
    "], Optional['separator'] => String, Optional['separator2'] => String, ",
    "Optional['string_formats'] => Hash[Type, Format = Pattern[",
    r"/^%([\s\[+#0{<(|-]*)([1-9][0-9]*)?(?:\.([0-9]+))?([a-zA-Z])$/",
    "]]}]]]]"
);

/// A parsed format: `%<flags><width>.<prec><letter>`.
#[derive(Clone, Debug)]
struct Format {
    orig: String,
    letter: char,
    left: bool,
    alt: bool,
    plus: bool,
    space: bool,
    zero: bool,
    delim: Option<char>,
    width: Option<usize>,
    prec: Option<usize>,
}

const FLAG_CHARS: &str = " [+#0{<(|-";

fn not_valid(fmt: &str) -> String {
    format!("The format '{fmt}' is not a valid format on the form '%<flags><width>.<prec><format>'")
}

fn parse_format(fmt: &str) -> R<Format> {
    // Ruby's `^...$` would match one line of a multi-line string.
    if fmt.contains('\n') {
        return Err(format!(
            "libhiera does not support a multi-line String format '{fmt}'"
        ));
    }
    let bytes = fmt.as_bytes();
    if bytes.first() != Some(&b'%') {
        return Err(not_valid(fmt));
    }
    let mut i = 1;
    let mut flags = Vec::new();
    while i < bytes.len() && (FLAG_CHARS.as_bytes().contains(&bytes[i]) || bytes[i] == b'\t') {
        flags.push(bytes[i] as char);
        i += 1;
    }
    // Ruby's `\s` also takes tabs, vertical tabs, form feeds, CRs.
    while i < bytes.len() && matches!(bytes[i], b'\t' | 0x0b | 0x0c | b'\r') {
        flags.push(bytes[i] as char);
        i += 1;
    }
    let num = |i: &mut usize| {
        let start = *i;
        while *i < bytes.len() && bytes[*i].is_ascii_digit() {
            *i += 1;
        }
        &fmt[start..*i]
    };
    let w = num(&mut i);
    if w.starts_with('0') {
        return Err(not_valid(fmt));
    }
    let mut prec = None;
    if i < bytes.len() && bytes[i] == b'.' {
        i += 1;
        let p = num(&mut i);
        if p.is_empty() {
            return Err(not_valid(fmt));
        }
        prec = Some(p.parse::<usize>().map_err(|_| not_valid(fmt))?);
    }
    if i + 1 != bytes.len() || !bytes[i].is_ascii_alphabetic() {
        return Err(not_valid(fmt));
    }
    let width = if w.is_empty() {
        None
    } else {
        Some(w.parse::<usize>().map_err(|_| not_valid(fmt))?)
    };
    let mut seen = flags.clone();
    seen.sort_unstable();
    seen.dedup();
    if seen.len() != flags.len() {
        return Err(format!("The same flag can only be used once, got '{fmt}'"));
    }
    let delims: Vec<char> = flags
        .iter()
        .copied()
        .filter(|c| "[{(<|".contains(*c))
        .collect();
    if delims.len() > 1 {
        return Err(format!(
            "Only one of the delimiters [ {{ ( < | can be given in the format flags, got '{fmt}'"
        ));
    }
    // Widths and precisions beyond this are a memory hazard, not a format.
    if width.unwrap_or(0) > 4096 || prec.unwrap_or(0) > 4096 {
        return Err(format!(
            "libhiera does not support a width or precision above 4096 in the String format '{fmt}'"
        ));
    }
    Ok(Format {
        orig: fmt.to_string(),
        letter: bytes[i] as char,
        left: flags.contains(&'-'),
        alt: flags.contains(&'#'),
        plus: flags.contains(&'+'),
        space: flags.contains(&' '),
        zero: flags.contains(&'0'),
        delim: delims.first().copied(),
        width,
        prec,
    })
}

fn illegal(type_name: &str, f: &Format, expected: &str) -> String {
    format!(
        "Illegal format '{}' specified for value of {type_name} type - expected one of the characters '{expected}'",
        f.letter
    )
}

fn unsupported(f: &Format, what: &str) -> String {
    format!(
        "libhiera does not support the String format '{}' {what}",
        f.orig
    )
}

/// `String.new(value, args...)` with `args` as `convert_to` gives them.
pub fn string_new(value: &Value, args: &[Value]) -> R<String> {
    let fmt = match args {
        [Value::String(s)] if !s.is_empty() => s.to_string(),
        [Value::Hash(_) | Value::Array(_)] => {
            return Err(format!(
                "libhiera supports only a format string as String's convert_to argument, got {}",
                crate::ruby::inspect(&args[0])
            ))
        }
        [other] => {
            let got = match other {
                Value::String(_) => "String",
                Value::Int(_) | Value::BigInt(_) => "Integer",
                Value::Float(_) => "Float",
                Value::Bool(_) => "Boolean",
                Value::Nil => "Undef",
                _ => {
                    return Err(format!(
                        "libhiera supports only a format string as String's convert_to argument, got {}",
                        crate::ruby::inspect(other)
                    ))
                }
            };
            return Err(format!(
                "'new_string' parameter 'string_formats' expects a {FORMATS_TYPE} value, got {got}"
            ));
        }
        _ => {
            return Err(format!(
                "'new_string' expects between 1 and 2 arguments, got {}",
                args.len() + 1
            ))
        }
    };
    let f = parse_format(&fmt)?;
    crate::stack::grow(|| top(value, &f))
}

/// Puppet's `StringConverter::Indentation`: how deep a container is, whether
/// it is the first in its parent, and whether it pretty-prints (`%#a`).
#[derive(Clone, Copy)]
struct Ind {
    level: usize,
    first: bool,
    indenting: bool,
}

impl Ind {
    fn subsequent(self) -> Ind {
        Ind {
            first: false,
            ..self
        }
    }
    fn indenting(self, on: bool) -> Ind {
        Ind {
            indenting: on,
            ..self
        }
    }
    fn increase(self, on: bool) -> Ind {
        Ind {
            level: self.level + 1,
            first: true,
            indenting: on,
        }
    }
    fn breaks(self) -> bool {
        self.indenting && self.level > 0 && !self.first
    }
    fn padding(self) -> String {
        " ".repeat(2 * self.level)
    }
}

const TOP: Ind = Ind {
    level: 0,
    first: true,
    indenting: false,
};

/// The formats in force for containers (the user's one replaces its type's
/// default); other elements always use `%p`.
#[derive(Clone, Copy)]
struct Formats<'a> {
    array: Option<&'a Format>,
    hash: Option<&'a Format>,
}

/// The value given with a string format: the format applies to its type.
fn top(v: &Value, f: &Format) -> R<String> {
    match v {
        Value::Array(a) => array(
            a,
            f,
            Formats {
                array: Some(f),
                hash: None,
            },
            TOP,
        ),
        Value::Hash(h) => hash(
            h,
            f,
            Formats {
                array: None,
                hash: Some(f),
            },
            TOP,
        ),
        other => scalar(other, f),
    }
}

fn is_container(v: &Value) -> bool {
    matches!(v, Value::Array(_) | Value::Hash(_))
}

/// An element of a container: containers with the format in force for
/// their type, anything else with `%p`.
fn element(v: &Value, fm: Formats, ind: Ind) -> R<String> {
    crate::stack::grow(|| match v {
        Value::Array(a) => match fm.array {
            Some(f) => array(a, f, fm, ind),
            None => array(a, &default_fmt('a'), fm, ind),
        },
        Value::Hash(h) => match fm.hash {
            Some(f) => hash(h, f, fm, ind),
            None => hash(h, &default_fmt('h'), fm, ind),
        },
        other => scalar(other, &default_fmt('p')),
    })
}

fn default_fmt(letter: char) -> Format {
    parse_format(&format!("%{letter}")).expect("a one-letter format parses")
}

fn delimiters(f: &Format, default: (&'static str, &'static str)) -> (&'static str, &'static str) {
    match f.delim {
        Some('[') => ("[", "]"),
        Some('{') => ("{", "}"),
        Some('(') => ("(", ")"),
        Some('<') => ("<", ">"),
        Some('|') => ("|", "|"),
        _ if f.space => ("", ""),
        _ => default,
    }
}

/// Ruby's `rstrip!`.
fn rstrip(buf: &mut String) {
    let n = buf
        .trim_end_matches(|c: char| c.is_ascii_whitespace() || c == '\0')
        .len();
    buf.truncate(n);
}

/// `string_PArrayType`.
fn array(a: &[Value], f: &Format, fm: Formats, ind: Ind) -> R<String> {
    if !matches!(f.letter, 'a' | 's' | 'p') {
        return Err(illegal("Array", f, "asp"));
    }
    let (open, close) = delimiters(f, ("[", "]"));
    let ind = ind.indenting(f.alt || ind.indenting);
    let mut buf = String::new();
    if ind.breaks() {
        buf.push('\n');
        buf.push_str(&ind.padding());
    }
    buf.push_str(open);
    let mut children = ind.increase(f.alt);
    let mut mapped = Vec::with_capacity(a.len());
    for v in a {
        if children.first {
            children = children.subsequent();
        }
        mapped.push(element(v, fm, children)?);
    }
    let sz_break = match f.width {
        Some(w) if f.alt => {
            let mut widest = vec![0usize];
            for (v, m) in a.iter().zip(&mapped) {
                if is_container(v) {
                    widest.push(0);
                } else if let Some(last) = widest.last_mut() {
                    *last += m.chars().count();
                }
            }
            widest.into_iter().max().unwrap_or(0) > w
        }
        _ => false,
    };
    let mut children = ind.increase(f.alt);
    for (i, (v, str_val)) in a.iter().zip(&mapped).enumerate() {
        if children.first {
            children = children.subsequent();
            if sz_break && !is_container(v) {
                buf.push(' ');
            }
        } else {
            buf.push_str(", ");
            if (sz_break && !is_container(v))
                || (f.alt && i > 0 && is_container(&a[i - 1]) && !is_container(v))
            {
                if !buf.ends_with('\n') {
                    rstrip(&mut buf);
                }
                buf.push('\n');
                buf.push_str(&children.padding());
            }
        }
        if buf.ends_with(' ') && str_val.starts_with('\n') {
            rstrip(&mut buf);
        }
        buf.push_str(str_val);
    }
    buf.push_str(close);
    Ok(buf)
}

/// `string_PHashType`.
fn hash(h: &crate::map::Map, f: &Format, fm: Formats, ind: Ind) -> R<String> {
    match f.letter {
        'a' => {
            // `val.to_a`, formatted with the Array format in force.
            let pairs: Vec<Value> = h
                .iter()
                .map(|(k, v)| Value::Array(vec![k.clone(), v.clone()].into()))
                .collect();
            let af = fm.array.cloned().unwrap_or_else(|| default_fmt('a'));
            array(&pairs, &af, fm, ind)
        }
        'h' | 's' | 'p' => {
            let (open, close) = delimiters(f, ("{", "}"));
            let sep = if f.alt { ",\n" } else { ", " };
            let ind = ind.indenting(f.alt || ind.indenting);
            let mut buf = String::new();
            if ind.breaks() {
                buf.push('\n');
                buf.push_str(&ind.padding());
            }
            let children = ind.increase(false);
            let (cond_break, padding) = if f.alt {
                ("\n", children.padding())
            } else {
                ("", String::new())
            };
            buf.push_str(open);
            buf.push_str(cond_break);
            for (i, (k, v)) in h.iter().enumerate() {
                if i > 0 {
                    buf.push_str(sep);
                }
                buf.push_str(&padding);
                buf.push_str(&element(k, fm, children)?);
                buf.push_str(" => ");
                buf.push_str(&element(v, fm, children)?);
            }
            if f.alt {
                buf.push_str(cond_break);
                buf.push_str(&ind.padding());
            }
            buf.push_str(close);
            Ok(buf)
        }
        _ => Err(illegal("Hash", f, "hasp")),
    }
}

fn scalar(v: &Value, f: &Format) -> R<String> {
    match v {
        Value::Nil => undef(f),
        Value::Bool(b) => boolean(*b, f),
        Value::Int(i) => integer(*i as i128, f),
        Value::BigInt(s) => match s.parse::<i128>() {
            Ok(i) => integer(i, f),
            Err(_) => Err(unsupported(f, "for an Integer beyond 128 bits")),
        },
        // No format type matches NaN (its Float range is empty): `%s`.
        Value::Float(x) if x.is_nan() => Ok("NaN".into()),
        Value::Float(x) => float(*x, f),
        Value::String(s) => string(s, f),
        _ => Err(unsupported(
            f,
            &format!(
                "for a value of type {}",
                crate::hiera5::ptype::infer_type(v)
            ),
        )),
    }
}

/// `apply_string_flags`: only `-`, width and precision, as `%s`.
fn string_flags(f: &Format, s: &str) -> String {
    pad_str(s, f.left, f.width, f.prec)
}

/// Ruby `format('%-W.Ps', s)`: precision cuts, width pads (in characters).
fn pad_str(s: &str, left: bool, width: Option<usize>, prec: Option<usize>) -> String {
    let cut: String = match prec {
        Some(p) => s.chars().take(p).collect(),
        None => s.to_string(),
    };
    pad(cut, left, width)
}

fn pad(s: String, left: bool, width: Option<usize>) -> String {
    let n = s.chars().count();
    match width {
        Some(w) if w > n => {
            let fill = " ".repeat(w - n);
            if left {
                s + &fill
            } else {
                fill + &s
            }
        }
        _ => s,
    }
}

/// `Kernel.format(orig, str)` for a `%s`-like conversion: the delimiter
/// flags are Ruby format errors; `+`, ` `, `0`, `#` do nothing to `%s`.
fn kernel_s(f: &Format, s: &str) -> R<String> {
    ruby_flag_errors(f)?;
    Ok(pad_str(s, f.left, f.width, f.prec))
}

/// The errors `Kernel.format` raises for Puppet's delimiter flags.
fn ruby_flag_errors(f: &Format) -> R<()> {
    match f.delim {
        None => Ok(()),
        Some('<' | '{') => Err("malformed name - unmatched parenthesis".into()),
        Some(c) => Err(format!("malformed format string - %{c}")),
    }
}

fn undef(f: &Format) -> R<String> {
    let s = match f.letter {
        'n' => {
            if f.alt {
                "null"
            } else {
                "nil"
            }
        }
        'u' => {
            if f.alt {
                "undefined"
            } else {
                "undef"
            }
        }
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' | 'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => "NaN",
        'v' => "n/a",
        'V' => "N/A",
        's' => {
            if f.alt {
                "\"\""
            } else {
                ""
            }
        }
        'p' => {
            if f.alt {
                "\"undef\""
            } else {
                "undef"
            }
        }
        _ => return Err(illegal("Undef", f, "nudxXobBeEfgGaAvVsp")),
    };
    Ok(string_flags(f, s))
}

fn boolean(b: bool, f: &Format) -> R<String> {
    let word = |t: &str, fl: &str| {
        let s = if b { t } else { fl };
        if f.alt {
            s[..1].to_string()
        } else {
            s.to_string()
        }
    };
    match f.letter {
        't' => Ok(string_flags(f, &word("true", "false"))),
        'T' => Ok(string_flags(f, &word("True", "False"))),
        'y' => Ok(string_flags(f, &word("yes", "no"))),
        'Y' => Ok(string_flags(f, &word("Yes", "No"))),
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' => integer(b as i128, f),
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => float(if b { 1.0 } else { 0.0 }, f),
        's' | 'p' => Ok(string_flags(f, if b { "true" } else { "false" })),
        _ => Err(illegal("Boolean", f, "tTyYdxXobBeEfgGaAsp")),
    }
}

fn integer(i: i128, f: &Format) -> R<String> {
    match f.letter {
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' => kernel_int(i, f),
        'p' => kernel_s(f, &i.to_string()),
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => kernel_float(i as f64, f),
        'c' => {
            let c = u32::try_from(i)
                .ok()
                .and_then(char::from_u32)
                .ok_or_else(|| {
                    if i > i64::MAX as i128 || i < i64::MIN as i128 {
                        "bignum too big to convert into `long'".to_string()
                    } else if (0xD800..0xE000).contains(&i) {
                        unsupported(f, "for a UTF-16 surrogate code point")
                    } else {
                        "pack(U): value out of range".to_string()
                    }
                })?;
            let s = if f.alt {
                format!("\"{c}\"")
            } else {
                c.to_string()
            };
            kernel_s(f, &s)
        }
        's' => {
            let s = i.to_string();
            // `%#s` becomes `%#p`: the digits inspected.
            kernel_s(f, &if f.alt { format!("\"{s}\"") } else { s })
        }
        _ => Err(illegal("Integer", f, "dxXobBeEfgGaAspc")),
    }
}

fn float(x: f64, f: &Format) -> R<String> {
    match f.letter {
        'd' | 'x' | 'X' | 'o' | 'b' | 'B' => {
            if x.is_infinite() {
                return Err(if x > 0.0 { "Infinity" } else { "-Infinity" }.into());
            }
            let t = x.trunc();
            if t.abs() >= 1.0e38 {
                return Err(unsupported(f, "for a Float beyond 128-bit integers"));
            }
            kernel_int(t as i128, f)
        }
        'e' | 'E' | 'f' | 'g' | 'G' | 'a' | 'A' => kernel_float(x, f),
        'p' => kernel_s(f, &crate::ruby::float_to_s(x)),
        's' => {
            let s = crate::ruby::float_to_s(x);
            kernel_s(f, &if f.alt { format!("\"{s}\"") } else { s })
        }
        _ => Err(illegal("Float", f, "dxXobBeEfgGaAsp")),
    }
}

fn string(s: &str, f: &Format) -> R<String> {
    let quoted = |v: &str| string_flags(f, &puppet_quote(v, false));
    let conv = |v: String| {
        if f.alt {
            Ok(quoted(&v))
        } else {
            kernel_s(f, &v)
        }
    };
    match f.letter {
        's' => kernel_s(f, s),
        'p' => Ok(string_flags(f, &puppet_quote(s, f.alt))),
        'c' => conv(capitalize(s)),
        'C' => {
            let mut parts: Vec<&str> = s.split("::").collect();
            // Ruby's `split` drops trailing empty fields.
            while parts.last() == Some(&"") {
                parts.pop();
            }
            conv(
                parts
                    .iter()
                    .map(|p| capitalize(p))
                    .collect::<Vec<_>>()
                    .join("::"),
            )
        }
        'u' => conv(s.to_uppercase()),
        'd' => conv(s.to_lowercase()),
        't' => conv(
            s.trim_matches(|c: char| c.is_ascii_whitespace() || c == '\0')
                .to_string(),
        ),
        _ => Err(illegal("String", f, "cCudspt")),
    }
}

fn capitalize(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(c) => c
            .to_uppercase()
            .chain(chars.flat_map(char::to_lowercase))
            .collect(),
        None => String::new(),
    }
}

/// Puppet's `puppet_quote`: single quotes unless a control character asks
/// for double quotes (or `double` does).
pub(crate) fn puppet_quote(s: &str, double: bool) -> String {
    if double || s.chars().any(|c| (c as u32) < 0x20) {
        let mut out = String::from("\"");
        for c in s.chars() {
            match c {
                '\t' => out.push_str("\\t"),
                '\n' => out.push_str("\\n"),
                '\r' => out.push_str("\\r"),
                '"' => out.push_str("\\\""),
                '$' => out.push_str("\\$"),
                '\\' => out.push_str("\\\\"),
                c if (c as u32) < 0x20 => out.push_str(&format!("\\u{{{:X}}}", c as u32)),
                c => out.push(c),
            }
        }
        out.push('"');
        return out;
    }
    let mut out = String::from("'");
    let mut escaped = false;
    for c in s.chars() {
        if escaped {
            out.push('\\');
            out.push(c);
            escaped = false;
        } else if c == '\'' {
            out.push_str("\\'");
        } else if c == '\\' {
            escaped = true;
        } else {
            out.push(c);
        }
    }
    if escaped {
        out.push('\\');
    }
    out.push('\'');
    out
}

/// Sign text for a number: `-`, or `+` / ` ` when the flags ask.
fn sign(neg: bool, f: &Format) -> &'static str {
    if neg {
        "-"
    } else if f.plus {
        "+"
    } else if f.space {
        " "
    } else {
        ""
    }
}

/// Lays out sign + prefix + body in the width: left, zero-padded or right.
fn layout(sign: &str, prefix: &str, body: &str, f: &Format, zero_ok: bool) -> String {
    let len = sign.len() + prefix.len() + body.chars().count();
    match f.width {
        Some(w) if w > len => {
            let n = w - len;
            if f.left {
                format!("{sign}{prefix}{body}{}", " ".repeat(n))
            } else if f.zero && zero_ok {
                format!("{sign}{prefix}{}{body}", "0".repeat(n))
            } else {
                format!("{}{sign}{prefix}{body}", " ".repeat(n))
            }
        }
        _ => format!("{sign}{prefix}{body}"),
    }
}

/// `Kernel.format` of an Integer with `d x X o b B`.
fn kernel_int(i: i128, f: &Format) -> R<String> {
    ruby_flag_errors(f)?;
    let base: u32 = match f.letter {
        'd' => 10,
        'x' | 'X' => 16,
        'o' => 8,
        _ => 2,
    };
    let upper = f.letter == 'X';
    let digits = |n: u128| {
        let s = to_base(n, base);
        if upper {
            s.to_uppercase()
        } else {
            s
        }
    };
    let explicit_sign = f.plus || f.space;
    let neg = i < 0;
    if neg && base != 10 && !explicit_sign {
        // Ruby writes a negative number in two's complement: `..f01`. A
        // precision, or else a zero flag with a width (not left-justified),
        // is the length the `..` and its digits fill with the base's
        // highest digit: `%.8x` -> `..ffff01`, `%#010x` -> `0x..ffff01`.
        let abs = i.unsigned_abs();
        let mut k: u32 = 1;
        while (base as u128).checked_pow(k).is_some_and(|p| p < abs) {
            k += 1;
        }
        let modulus = (base as u128)
            .checked_pow(k + 1)
            .ok_or_else(|| unsupported(f, "for a negative number this large"))?;
        let max = std::char::from_digit(base - 1, base).unwrap_or('1');
        let s = digits(modulus - abs);
        let max_c = if upper { max.to_ascii_uppercase() } else { max };
        let rest = s.trim_start_matches(max_c);
        let prefix = if f.alt && base != 8 {
            alt_prefix(f.letter)
        } else {
            ""
        };
        let natural = 3 + rest.chars().count();
        let fill_to = match (f.prec, f.width) {
            (Some(p), _) => p,
            (None, Some(w)) if f.zero && !f.left => w.saturating_sub(prefix.len()),
            _ => 0,
        };
        let fill = max_c
            .to_string()
            .repeat(1 + fill_to.saturating_sub(natural));
        return Ok(layout("", prefix, &format!("..{fill}{rest}"), f, false));
    }
    let abs = i.unsigned_abs();
    let mut body = digits(abs);
    if let Some(p) = f.prec {
        if body.len() < p {
            body = "0".repeat(p - body.len()) + &body;
        }
    }
    let prefix = if f.alt && abs != 0 {
        if base == 8 {
            if body.starts_with('0') {
                ""
            } else {
                "0"
            }
        } else {
            alt_prefix(f.letter)
        }
    } else {
        ""
    };
    Ok(layout(sign(neg, f), prefix, &body, f, f.prec.is_none()))
}

fn alt_prefix(letter: char) -> &'static str {
    match letter {
        'x' => "0x",
        'X' => "0X",
        'b' => "0b",
        'B' => "0B",
        _ => "",
    }
}

fn to_base(mut n: u128, base: u32) -> String {
    if n == 0 {
        return "0".into();
    }
    let mut out = Vec::new();
    while n > 0 {
        let d = (n % base as u128) as u32;
        out.push(std::char::from_digit(d, base).unwrap_or('?'));
        n /= base as u128;
    }
    out.iter().rev().collect()
}

/// `Kernel.format` of a Float with `e E f g G a A`.
fn kernel_float(x: f64, f: &Format) -> R<String> {
    ruby_flag_errors(f)?;
    let neg = x.is_sign_negative() && !x.is_nan();
    let s = sign(neg, f);
    if x.is_infinite() {
        return Ok(layout(s, "", "Inf", f, false));
    }
    let a = x.abs();
    let upper = f.letter.is_ascii_uppercase();
    let body = match f.letter.to_ascii_lowercase() {
        'f' => {
            let mut b = format!("{:.*}", f.prec.unwrap_or(6), a);
            if f.alt && !b.contains('.') {
                b.push('.');
            }
            b
        }
        'e' => exp_form(a, f.prec.unwrap_or(6), f.alt),
        'g' => g_form(a, f.prec.unwrap_or(6), f.alt),
        _ => {
            if f.prec.is_some() {
                return Err(unsupported(f, "(a precision with %a)"));
            }
            let mut b = hex_float(a).ok_or_else(|| unsupported(f, "for a subnormal Float"))?;
            // `#`: the point is always written (`0x1.p+0`).
            if f.alt && !b.contains('.') {
                if let Some(p) = b.find('p') {
                    b.insert(p, '.');
                }
            }
            b
        }
    };
    let body = if upper { body.to_uppercase() } else { body };
    Ok(layout(s, "", &body, f, true))
}

/// C's `%.Pe` of a non-negative finite number: `d.ddde+XX`.
fn exp_form(a: f64, prec: usize, alt: bool) -> String {
    let rust = format!("{:.*e}", prec, a);
    let (mant, exp) = rust.split_once('e').unwrap_or((&rust, "0"));
    let exp: i32 = exp.parse().unwrap_or(0);
    let mut mant = mant.to_string();
    if alt && !mant.contains('.') {
        mant.push('.');
    }
    format!("{mant}e{}{:02}", if exp < 0 { '-' } else { '+' }, exp.abs())
}

/// C's `%.Pg`: `%e` or `%f` by the exponent, trailing zeros dropped
/// (kept with `#`).
fn g_form(a: f64, prec: usize, alt: bool) -> String {
    let p = prec.max(1);
    let e_text = format!("{:.*e}", p - 1, a);
    let x: i32 = e_text
        .split_once('e')
        .and_then(|(_, e)| e.parse().ok())
        .unwrap_or(0);
    let mut out = if x < -4 || x >= p as i32 {
        exp_form(a, p - 1, alt)
    } else {
        let mut s = format!("{:.*}", (p as i32 - 1 - x).max(0) as usize, a);
        if alt && !s.contains('.') {
            s.push('.');
        }
        s
    };
    if !alt {
        let (mant, exp) = match out.find('e') {
            Some(i) => (out[..i].to_string(), out[i..].to_string()),
            None => (out.clone(), String::new()),
        };
        let mant = if mant.contains('.') {
            mant.trim_end_matches('0').trim_end_matches('.').to_string()
        } else {
            mant
        };
        out = mant + &exp;
    }
    out
}

/// C's `%a` of a non-negative finite normal number (or zero).
fn hex_float(a: f64) -> Option<String> {
    if a == 0.0 {
        return Some("0x0p+0".into());
    }
    let bits = a.to_bits();
    let exp = ((bits >> 52) & 0x7ff) as i32;
    if exp == 0 {
        return None;
    }
    let mant = bits & ((1u64 << 52) - 1);
    let hex = format!("{mant:013x}");
    let hex = hex.trim_end_matches('0');
    let e = exp - 1023;
    let dot = if hex.is_empty() {
        String::new()
    } else {
        format!(".{hex}")
    };
    Some(format!(
        "0x1{dot}p{}{}",
        if e < 0 { '-' } else { '+' },
        e.abs()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fmt(v: Value, f: &str) -> R<String> {
        string_new(&v, &[Value::from(f)])
    }

    #[test]
    fn hex_floats_keep_the_point_with_alt() {
        // Ruby's format("%#a", ...).
        assert_eq!(fmt(Value::Float(1.0), "%#a").unwrap(), "0x1.p+0");
        assert_eq!(fmt(Value::Float(0.0), "%#a").unwrap(), "0x0.p+0");
        assert_eq!(fmt(Value::Float(1.5), "%#a").unwrap(), "0x1.8p+0");
        assert_eq!(fmt(Value::Float(2.0), "%#A").unwrap(), "0X1.P+1");
        assert_eq!(fmt(Value::Float(1.0), "%#10a").unwrap(), "   0x1.p+0");
        assert_eq!(fmt(Value::Float(1.0), "%a").unwrap(), "0x1p+0");
    }

    #[test]
    fn integers_in_ruby_bases() {
        assert_eq!(fmt(Value::Int(255), "%#x").unwrap(), "0xff");
        assert_eq!(fmt(Value::Int(-255), "%x").unwrap(), "..f01");
        assert_eq!(fmt(Value::Int(-255), "%o").unwrap(), "..7401");
        assert_eq!(fmt(Value::Int(-255), "%#b").unwrap(), "0b..100000001");
        assert_eq!(fmt(Value::Int(-1), "%x").unwrap(), "..f");
        assert_eq!(fmt(Value::Int(-255), "%+x").unwrap(), "-ff");
        assert_eq!(fmt(Value::Int(-255), "%05d").unwrap(), "-0255");
        assert_eq!(fmt(Value::Int(255), "%c").unwrap(), "\u{ff}");
    }

    /// Negative numbers filled to a precision or a zero-padded width, as
    /// Ruby 3.1's `format` fills them (checked with `ruby -e`).
    #[test]
    fn negative_numbers_fill_with_the_highest_digit() {
        for (f, v, want) in [
            ("%08b", -42, "..1010110"),
            ("%012b", -42, "..1111010110"),
            ("%#010x", -255, "0x..ffff01"),
            ("%010o", -9, "..77777767"),
            ("%.10b", -5, "..11111011"),
            ("%-08b", -42, "..1010110"),
            ("%08x", -1, "..ffffff"),
            ("%.3x", -255, "..f01"),
            ("%.8x", -255, "..ffff01"),
            ("%12.8x", -255, "    ..ffff01"),
            ("%012.8x", -255, "    ..ffff01"),
            ("%#.8o", -9, "..777767"),
            ("%#010o", -9, "..77777767"),
            ("%.2b", -1, "..1"),
            ("%04b", -1, "..11"),
            ("%-012x", -255, "..f01       "),
            ("%#.2x", -255, "0x..f01"),
        ] {
            assert_eq!(fmt(Value::Int(v), f).unwrap(), want, "{f} of {v}");
        }
    }

    #[test]
    fn floats_as_c_prints_them() {
        assert_eq!(fmt(Value::Float(1.5), "%.2e").unwrap(), "1.50e+00");
        assert_eq!(fmt(Value::Float(1.25e-7), "%g").unwrap(), "1.25e-07");
        assert_eq!(fmt(Value::Float(1.0e20), "%G").unwrap(), "1E+20");
        assert_eq!(fmt(Value::Float(255.0), "%a").unwrap(), "0x1.fep+7");
        assert_eq!(
            fmt(Value::Float(f64::INFINITY), "%-+8.3f").unwrap(),
            "+Inf    "
        );
        assert_eq!(fmt(Value::Float(1.5), "%#.0f").unwrap(), "2.");
        assert_eq!(
            fmt(Value::Float(f64::INFINITY), "%d").unwrap_err(),
            "Infinity"
        );
    }

    #[test]
    fn bad_and_unsupported_formats_are_errors() {
        assert!(fmt(Value::Int(1), "abc")
            .unwrap_err()
            .contains("is not a valid format"));
        assert!(fmt(Value::Int(1), "%--d")
            .unwrap_err()
            .contains("same flag"));
        assert_eq!(
            fmt(Value::from("x"), "%x").unwrap_err(),
            "Illegal format 'x' specified for value of String type - expected one of the characters 'cCudspt'"
        );
        let hash_arg = string_new(&Value::Int(1), &[Value::Hash(Default::default())]).unwrap_err();
        assert!(hash_arg.contains("libhiera supports only"), "{hash_arg}");
        let empty = fmt(Value::Int(1), "").unwrap_err();
        assert!(empty.ends_with("value, got String"), "{empty}");
    }
}
