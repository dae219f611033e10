//! Psych's scalar rules, written once: `ToRuby#deserialize` for tagged and
//! quoted scalars and `ScalarScanner#tokenize` for plain ones (what the
//! loader reads and what the emitter must quote).

#[allow(unused_imports)]
use super::{bignum::*, loader::*, patch::*, *};

// ---------------------------------------------------------------------------
// Scalars: Psych's ToRuby#deserialize and ScalarScanner#tokenize
// ---------------------------------------------------------------------------

/// Converts a scalar as Psych's `ToRuby#deserialize`. `tag` is the resolved
/// tag (`tag:yaml.org,2002:int` for `!!int`, `!foo` for a local tag).
pub(crate) fn resolve_scalar(
    text: &str,
    style: ScalarStyle,
    tag: Option<&str>,
) -> Result<Value, Fail> {
    let Some(tag) = tag else {
        // Only plain scalars are resolved; quoted and block scalars are strings.
        return if style == ScalarStyle::Plain {
            tokenize(text)
        } else {
            Ok(Value::string(text))
        };
    };
    // A tagged scalar is resolved whatever its style: `!!int '12'` is 12.
    match tag {
        "!binary" | "tag:yaml.org,2002:binary" => {
            Ok(bytes_value(crate::ruby::base64::unpack_m(text.as_bytes())))
        }
        "tag:yaml.org,2002:str" => Ok(Value::string(text)),
        "!ruby/object:BigDecimal" => Err(Fail::Disallowed("BigDecimal".into())),
        "!ruby/object:DateTime" => Err(Fail::Disallowed("DateTime".into())),
        // Psych returns an Encoding object, which no Value can hold.
        "!ruby/encoding" => Err(Fail::Message(format!(
            "Unsupported YAML tag !ruby/encoding (value {:?})",
            text
        ))),
        "!ruby/object:Complex" => Err(Fail::Disallowed("Complex".into())),
        "!ruby/object:Rational" => Err(Fail::Disallowed("Rational".into())),
        "!ruby/class" | "!ruby/module" => {
            if text.is_empty() {
                Ok(Value::Nil)
            } else {
                Err(Fail::Disallowed(text.into()))
            }
        }
        "tag:yaml.org,2002:float" | "!float" => ruby_float(tokenize(text)?),
        "!ruby/regexp" => Err(Fail::Disallowed("Regexp".into())),
        "!ruby/range" => Err(Fail::Disallowed("Range".into())),
        _ => {
            if let Some(rest) = tag
                .strip_prefix("!str")
                .or_else(|| tag.strip_prefix("!ruby/string"))
            {
                if rest.is_empty() || rest == ":" {
                    return Ok(Value::string(text));
                }
                if let Some(name) = rest.strip_prefix(':') {
                    return Err(Fail::Disallowed(name.into()));
                }
            }
            if tag.starts_with("!ruby/sym") {
                return Ok(Value::Symbol(text.into()));
            }
            // Every other tag (`!!int`, `!!bool`, `!!null`, `!!timestamp`,
            // `!foo`, `!`) resolves the text like an untagged plain scalar.
            tokenize(text)
        }
    }
}

pub(crate) fn bytes_value(bytes: Vec<u8>) -> Value {
    match String::from_utf8(bytes) {
        Ok(s) => Value::string(s),
        Err(e) => Value::Bytes(e.into_bytes().into()),
    }
}

/// Ruby's `Float()` of a converted scalar (for `!!float`).
pub(crate) fn ruby_float(v: Value) -> Result<Value, Fail> {
    match v {
        Value::Float(f) => Ok(Value::Float(f)),
        Value::Int(i) => Ok(Value::Float(i as f64)),
        Value::BigInt(s) => Ok(Value::Float(s.parse::<f64>().unwrap_or(f64::NAN))),
        Value::String(s) => match crate::ruby::float::parse(&s) {
            Some(f) => Ok(Value::Float(f)),
            None => Err(Fail::Message(format!(
                "invalid value for Float(): {}",
                ruby_inspect(&s)
            ))),
        },
        Value::Nil => Err(Fail::Message("can't convert nil into Float".into())),
        Value::Bool(b) => Err(Fail::Message(format!("can't convert {} into Float", b))),
        other => Err(Fail::Message(format!(
            "can't convert {} into Float",
            other.ruby_class()
        ))),
    }
}

/// Ruby's `String#inspect` for the strings in error messages.
pub(crate) fn ruby_inspect(s: &str) -> String {
    let mut out = String::new();
    crate::ruby::inspect_str(s, &mut out);
    out
}

/// Psych's `ScalarScanner#tokenize`: the Ruby object a plain scalar denotes.
pub(crate) fn tokenize(s: &str) -> Result<Value, Fail> {
    Ok(tokenize_or_text(s)?.unwrap_or_else(|| Value::string(s)))
}

/// [`tokenize`], with `Ok(None)` for "the String `s` itself" (the caller
/// builds it, or finds it already built: the file cache's interner).
pub(crate) fn tokenize_or_text(s: &str) -> Result<Option<Value>, Fail> {
    if string_by_first_byte(s) {
        return Ok(None);
    }
    if let Some(n) = plain_decimal(s) {
        return Ok(Some(Value::Int(n)));
    }
    tokenize_general(s)
}

/// The value of `s` when it is a plain decimal that fits in 64 bits: 1 to
/// 18 ASCII digits, with no leading `0` (which would make it octal). Psych
/// reads it as that Integer, as [`tokenize_general`] does after its checks
/// for times, dates, special floats, symbols, sexagesimals and floats, none
/// of which such a scalar can be (a first compile resolves many numbers).
fn plain_decimal(s: &str) -> Option<i64> {
    let b = s.as_bytes();
    if b.is_empty() || b.len() > 18 || (b[0] == b'0' && b.len() > 1) {
        return None;
    }
    b.iter().try_fold(0i64, |n, &c| {
        c.is_ascii_digit().then(|| n * 10 + i64::from(c - b'0'))
    })
}

/// Whether [`tokenize_general`] certainly leaves `s` a String, by its first
/// byte alone: an ASCII letter other than the first letters of Psych's null
/// and boolean words (`null`, `yes`/`true`/`on`, `no`/`false`/`off`), or one
/// of the other ASCII characters of Psych's string class but `~`. Such a
/// scalar "looks like a string" (`/^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|\/\\~;=]+/`
/// matches at its first character), and its first line starts with a
/// character no null or boolean word starts with: a String whatever its
/// length (a first compile resolves most of its scalars here, without the
/// general checks' passes over the text).
pub(crate) fn string_by_first_byte(s: &str) -> bool {
    match s.as_bytes().first() {
        Some(&c) if c.is_ascii_alphabetic() => !matches!(
            c,
            b'y' | b't' | b'o' | b'n' | b'f' | b'Y' | b'T' | b'O' | b'N' | b'F'
        ),
        Some(&c) => matches!(
            c,
            b'_' | b'!'
                | b'@'
                | b'#'
                | b'$'
                | b'%'
                | b'^'
                | b'&'
                | b'*'
                | b'('
                | b')'
                | b'{'
                | b'}'
                | b'<'
                | b'>'
                | b'|'
                | b'/'
                | b'\\'
                | b';'
                | b'='
                | b' '
                | b'\t'
                | b'\n'
                | b'\x0b'
                | b'\x0c'
                | b'\r'
        ),
        None => false,
    }
}

/// [`tokenize_or_text`] without its first-byte shortcut: Psych's checks in
/// their order.
pub(crate) fn tokenize_general(s: &str) -> Result<Option<Value>, Fail> {
    if s.is_empty() {
        return Ok(Some(Value::Nil));
    }
    // Ruby's regexps here use `^`/`$`, which match at every line.
    if looks_like_string(s) || s.contains('\n') {
        // More than five characters (counting at most six).
        if s.chars().nth(5).is_some() {
            return Ok(None);
        }
        let lines: Vec<&str> = s.split('\n').collect();
        let last = lines.len() - 1;
        let other_start = lines
            .iter()
            .enumerate()
            .any(|(i, l)| match l.chars().next() {
                Some(c) => !matches!(
                    c,
                    'y' | 't' | 'o' | 'n' | 'f' | 'Y' | 'T' | 'O' | 'N' | 'F' | '~'
                ),
                None => i != last,
            });
        if other_start {
            return Ok(None);
        }
        let any_line = |words: &[&str]| lines.iter().any(|l| words.iter().any(|w| folds_to(l, w)));
        if s == "~" || any_line(&["null"]) {
            return Ok(Some(Value::Nil));
        }
        if any_line(&["yes", "true", "on"]) {
            return Ok(Some(Value::Bool(true)));
        }
        if any_line(&["no", "false", "off"]) {
            return Ok(Some(Value::Bool(false)));
        }
        return Ok(None);
    }
    if is_time(s) {
        return Err(Fail::Disallowed("Time".into()));
    }
    if is_date(s) {
        return Err(Fail::Disallowed("Date".into()));
    }
    // `.inf`, `+.inf`, `-.inf` and `.nan` in any case (only ASCII letters
    // fold into their letters, so they are at most 5 bytes).
    if s.len() <= 5 && s.contains('.') {
        let folded = fold_case(s);
        if folded == ".inf" || folded == "+.inf" {
            return Ok(Some(Value::Float(f64::INFINITY)));
        }
        if folded == "-.inf" {
            return Ok(Some(Value::Float(f64::NEG_INFINITY)));
        }
        if folded == ".nan" {
            return Ok(Some(Value::Float(f64::NAN)));
        }
    }
    if let Some(rest) = s.strip_prefix(':') {
        if !rest.is_empty() {
            return Ok(Some(Value::Symbol(symbol_name(rest).into())));
        }
    }
    if let Some(v) = sexagesimal(s) {
        return Ok(Some(v));
    }
    if is_float(s) {
        if matches!(s, "." | "+." | "-.") {
            return Ok(None);
        }
        // gsub(/[,_]|\.([Ee]|$)/, '\1')
        let chars: Vec<char> = s.chars().collect();
        let mut cleaned = String::new();
        for (i, &c) in chars.iter().enumerate() {
            match c {
                ',' | '_' => {}
                '.' if matches!(chars.get(i + 1), None | Some('e' | 'E')) => {}
                c => cleaned.push(c),
            }
        }
        return match crate::ruby::float::parse(&cleaned) {
            Some(f) => Ok(Some(Value::Float(f))),
            None => Err(Fail::Message(format!(
                "invalid value for Float(): {}",
                ruby_inspect(&cleaned)
            ))),
        };
    }
    if is_integer(s) {
        let cleaned: String = s.chars().filter(|c| *c != ',' && *c != '_').collect();
        let unsigned = cleaned.trim_start_matches(['-', '+']);
        if unsigned.len() > MAX_NONDECIMAL_DIGITS && unsigned.len() > 1 && unsigned.starts_with('0')
        {
            return Err(Fail::Message(format!(
                "integer too large: {} characters in base 2, 8 or 16 (libhiera reads at most {MAX_NONDECIMAL_DIGITS})",
                unsigned.len()
            )));
        }
        return ruby_integer(&cleaned).map(Some).ok_or_else(|| {
            Fail::Message(format!(
                "invalid value for Integer(): {}",
                ruby_inspect(&cleaned)
            ))
        });
    }
    Ok(None)
}

/// Ruby's case folding as far as it matters for Psych's `/i` regexps over
/// ASCII words: ASCII letters, and the few other characters that fold into
/// them (`ſ` is `s`, the Kelvin sign is `k`, `ﬀ` is `ff`, ...).
pub(crate) fn fold_case(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            'A'..='Z' => out.push(c.to_ascii_lowercase()),
            '\u{17f}' => out.push('s'),
            '\u{212a}' => out.push('k'),
            '\u{fb00}' => out.push_str("ff"),
            '\u{fb01}' => out.push_str("fi"),
            '\u{fb02}' => out.push_str("fl"),
            '\u{fb03}' => out.push_str("ffi"),
            '\u{fb04}' => out.push_str("ffl"),
            '\u{fb05}' | '\u{fb06}' => out.push_str("st"),
            c => out.push(c),
        }
    }
    out
}

/// Whether `s` case-folds ([`fold_case`]) to `word`, a lowercase ASCII
/// word: ASCII text compared in place, anything else folded first (a
/// first compile asks this of every short plain scalar, several times).
fn folds_to(s: &str, word: &str) -> bool {
    if s.is_ascii() {
        s.eq_ignore_ascii_case(word)
    } else {
        fold_case(s) == word
    }
}

/// `/^[^\d.:-]?[[:alpha:]_\s!@#$%\^&*(){}<>|\/\\~;=]+/`: Psych's test for
/// "certainly a string (unless it is a short boolean or null)".
pub(crate) fn looks_like_string(s: &str) -> bool {
    fn class(c: char) -> bool {
        c.is_alphabetic()
            || "_!@#$%^&*(){}<>|/\\~;=".contains(c)
            || matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r')
    }
    let mut it = s.chars();
    let Some(c0) = it.next() else { return false };
    if class(c0) {
        return true;
    }
    if c0.is_ascii_digit() || matches!(c0, '.' | ':' | '-') {
        return false;
    }
    it.next().is_some_and(class)
}

/// The name of a `:symbol` scalar (`rest` follows the colon).
pub(crate) fn symbol_name(rest: &str) -> &str {
    // /^:(["'])(.*)\1/ takes the text up to the last matching quote.
    let mut it = rest.chars();
    if let Some(q @ ('"' | '\'')) = it.next() {
        let inner = &rest[1..];
        if let Some(j) = inner.rfind(q) {
            let name = &inner[..j];
            return name.strip_prefix(':').unwrap_or(name);
        }
    }
    rest
}

/// Counts the ASCII digits of `b` from `i`.
pub(crate) fn digit_run(b: &[u8], i: usize) -> usize {
    b[i.min(b.len())..]
        .iter()
        .take_while(|c| c.is_ascii_digit())
        .count()
}

/// Psych's TIME regexp:
/// `^-?\d{4}-\d{1,2}-\d{1,2}(?:[Tt]|\s+)\d{1,2}:\d\d:\d\d(?:\.\d*)?(?:\s*(?:Z|[-+]\d{1,2}:?(?:\d\d)?))?$`
pub(crate) fn is_time(s: &str) -> bool {
    time_token(s.as_bytes()).is_some()
}

/// Psych's date regexp: `^\d{4}-(?:1[012]|0\d|\d)-(?:[12]\d|3[01]|0\d|\d)$`.
pub(crate) fn is_date(s: &str) -> bool {
    date_token(s.as_bytes()).is_some()
}

/// Whether Psych's `ScalarScanner#tokenize`, with every class allowed (as
/// `to_yaml`'s `YAMLTree` runs it), leaves `s` (no newline in it) a String:
/// a Time or Date that does not parse stays a String.
pub(crate) fn tokenizes_as_string(s: &str) -> bool {
    match tokenize(s) {
        Ok(Value::String(_)) => true,
        Err(Fail::Disallowed(_)) => {
            let b = s.as_bytes();
            !(time_token(b).or_else(|| date_token(b)).unwrap_or(true))
        }
        _ => false,
    }
}

pub(crate) fn all_digits(s: &[u8]) -> bool {
    s.iter().all(u8::is_ascii_digit)
}

pub(crate) fn ruby_space(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\n' | '\u{b}' | '\u{c}' | '\r')
}

pub(crate) fn digits_at(b: &[u8], i: usize, min: usize, max: usize) -> Option<(u32, usize)> {
    let n = b[i.min(b.len())..]
        .iter()
        .take(max)
        .take_while(|c| c.is_ascii_digit())
        .count();
    if n < min {
        return None;
    }
    let v = std::str::from_utf8(&b[i..i + n]).ok()?.parse().ok()?;
    Some((v, i + n))
}

/// [`digits_at`] followed by the byte `sep`: the number and the index
/// after `sep`.
pub(crate) fn digits_then(
    b: &[u8],
    i: usize,
    min: usize,
    max: usize,
    sep: u8,
) -> Option<(u32, usize)> {
    let (v, j) = digits_at(b, i, min, max)?;
    (b.get(j) == Some(&sep)).then_some((v, j + 1))
}

/// Psych's TIME pattern; `Some(valid)` when it matches, `valid` being
/// whether `parse_time` succeeds (Ruby's `Time.utc`/`Time.new` accept the
/// fields).
pub(crate) fn time_token(b: &[u8]) -> Option<bool> {
    let mut i = 0;
    if b.first() == Some(&b'-') {
        i = 1;
    }
    let (_, j) = digits_then(b, i, 4, 4, b'-')?;
    let (mon, j) = digits_then(b, j, 1, 2, b'-')?;
    let (day, mut j) = digits_at(b, j, 1, 2)?;
    match b.get(j) {
        Some(b'T' | b't') => j += 1,
        Some(&c) if ruby_space(c as char) => {
            while b.get(j).is_some_and(|&c| ruby_space(c as char)) {
                j += 1;
            }
        }
        _ => return None,
    }
    let (hour, j) = digits_then(b, j, 1, 2, b':')?;
    let (min, j) = digits_then(b, j, 2, 2, b':')?;
    let (sec, mut j) = digits_at(b, j, 2, 2)?;
    if b.get(j) == Some(&b'.') {
        j += 1;
        while b.get(j).is_some_and(u8::is_ascii_digit) {
            j += 1;
        }
    }
    let mut offset: Option<i64> = None;
    if j < b.len() {
        let mut k = j;
        while b.get(k).is_some_and(|&c| ruby_space(c as char)) {
            k += 1;
        }
        match b.get(k) {
            Some(b'Z') if k + 1 == b.len() => {}
            Some(&sign @ (b'+' | b'-')) => {
                let tz = &b[k + 1..];
                let (h, m) = match tz.iter().position(|&c| c == b':') {
                    Some(p) => {
                        let (l, r) = (&tz[..p], &tz[p + 1..]);
                        if l.is_empty()
                            || l.len() > 2
                            || !all_digits(l)
                            || !(r.is_empty() || r.len() == 2)
                            || !all_digits(r)
                        {
                            return None;
                        }
                        (l, r)
                    }
                    None => {
                        if tz.is_empty() || tz.len() > 4 || !all_digits(tz) {
                            return None;
                        }
                        let hl = tz.len().min(2);
                        (&tz[..hl], &tz[hl..])
                    }
                };
                let num = |d: &[u8]| -> i64 {
                    std::str::from_utf8(d)
                        .ok()
                        .and_then(|s| s.parse().ok())
                        .unwrap_or(0)
                };
                let hours = num(h);
                let mins = num(m);
                let mut off = hours * 3600;
                if sign == b'-' {
                    off = -off;
                }
                off += if off < 0 { -mins * 60 } else { mins * 60 };
                offset = Some(off);
            }
            _ => return None,
        }
    }
    let fields_ok = (1..=12).contains(&mon)
        && (1..=31).contains(&day)
        && min <= 59
        && sec <= 60
        && (hour < 24 || (hour == 24 && min == 0 && sec == 0));
    let offset_ok = offset.is_none_or(|o| o.abs() < 86_400);
    Some(fields_ok && offset_ok)
}

/// Psych's date pattern; `Some(valid)` when it matches, `valid` being
/// whether `Date.strptime(s, '%Y-%m-%d')` accepts it (Julian calendar
/// before 1582-10-15).
pub(crate) fn date_token(b: &[u8]) -> Option<bool> {
    if b.len() < 8 || !all_digits(&b[..4]) || b[4] != b'-' {
        return None;
    }
    let rest = &b[5..];
    let dash = rest.iter().position(|&c| c == b'-')?;
    let (m, d) = (&rest[..dash], &rest[dash + 1..]);
    if m.is_empty()
        || m.len() > 2
        || !all_digits(m)
        || d.is_empty()
        || d.len() > 2
        || !all_digits(d)
    {
        return None;
    }
    let num = |x: &[u8]| -> u32 { std::str::from_utf8(x).unwrap().parse().unwrap() };
    let (year, mon, day) = (num(&b[..4]) as i64, num(m), num(d));
    // (1[012]|0\d|\d) and ([12]\d|3[01]|0\d|\d)
    if m.len() == 2 && m[0] != b'0' && !(m[0] == b'1' && mon <= 12) {
        return None;
    }
    if d.len() == 2
        && !(d[0] == b'0' || d[0] == b'1' || d[0] == b'2' || (d[0] == b'3' && day <= 31))
    {
        return None;
    }
    if mon == 0 || mon > 12 || day == 0 {
        return Some(false);
    }
    let julian = (year, mon, day) < (1582, 10, 15);
    if year == 1582 && mon == 10 && (5..=14).contains(&day) {
        return Some(false);
    }
    let leap = if julian {
        year % 4 == 0
    } else {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    };
    let dim = match mon {
        2 => {
            if leap {
                29
            } else {
                28
            }
        }
        4 | 6 | 9 | 11 => 30,
        _ => 31,
    };
    Some(day <= dim)
}

/// Psych's sexagesimal numbers: `^[-+]?[0-9][0-9_]*(:[0-5]?[0-9]){1,2}$` is
/// an Integer, and with `\.[0-9_]*` at the end a Float. The first part counts
/// hours (`1:20` is 4800, `1:20:30` is 4830).
pub(crate) fn sexagesimal(s: &str) -> Option<Value> {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    if !b.get(i).is_some_and(|c| c.is_ascii_digit()) {
        return None;
    }
    while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_') {
        i += 1;
    }
    let first_end = i;
    let mut groups = 0;
    while groups < 2 && b.get(i) == Some(&b':') {
        let n = digit_run(b, i + 1);
        let len = if n >= 2 && b[i + 1] <= b'5' {
            2
        } else if n >= 1 {
            1
        } else {
            return None;
        };
        i += 1 + len;
        groups += 1;
    }
    if groups == 0 {
        return None;
    }
    let parts: Vec<&str> = s.split(':').collect();
    if i == b.len() {
        // Integer: Σ part.to_i * 60 ** |e - 2|
        let (negative, digits) = ruby_to_i_digits(&s[..first_end]);
        let mut big = Big::from_digits(&digits, 10);
        big.mul_small(3600);
        let rest: u32 = if parts.len() == 3 {
            parts[1].parse::<u32>().ok()? * 60 + parts[2].parse::<u32>().ok()?
        } else {
            parts[1].parse::<u32>().ok()? * 60
        };
        if negative && !big.is_zero() {
            big.sub_small(rest);
            return Some(big.into_value(true));
        }
        big.add_small(rest);
        return Some(big.into_value(false));
    }
    if b.get(i) == Some(&b'.') && b[i + 1..].iter().all(|c| c.is_ascii_digit() || *c == b'_') {
        let mut total = 0f64;
        let n = parts.len() as i32;
        for (e, part) in parts.iter().enumerate() {
            total += ruby_to_f(part) * 60f64.powi((e as i32 - 2).abs().min(n + 2));
        }
        return Some(Value::Float(total));
    }
    None
}

/// `String#to_i` of `[-+]?[0-9][0-9_]*`: the sign and the digits up to the
/// first character that is not a digit or a single underscore between digits.
pub(crate) fn ruby_to_i_digits(s: &str) -> (bool, Vec<u8>) {
    let b = s.as_bytes();
    let mut i = 0;
    let mut negative = false;
    if matches!(b.first(), Some(b'+' | b'-')) {
        negative = b[0] == b'-';
        i = 1;
    }
    let mut digits = Vec::new();
    while i < b.len() {
        if b[i].is_ascii_digit() {
            digits.push(b[i] - b'0');
            i += 1;
        } else if b[i] == b'_'
            && !digits.is_empty()
            && b.get(i + 1).is_some_and(|c| c.is_ascii_digit())
        {
            i += 1;
        } else {
            break;
        }
    }
    (negative, digits)
}

/// `String#to_f` (lenient) of the parts of a sexagesimal float.
pub(crate) fn ruby_to_f(s: &str) -> f64 {
    let b = s.as_bytes();
    let mut i = 0;
    let mut out = String::new();
    if matches!(b.first(), Some(b'+' | b'-')) {
        out.push(b[0] as char);
        i = 1;
    }
    let run = |i: &mut usize, out: &mut String| {
        let mut n = 0;
        while *i < b.len() {
            if b[*i].is_ascii_digit() {
                out.push(b[*i] as char);
                n += 1;
                *i += 1;
            } else if b[*i] == b'_' && n > 0 && b.get(*i + 1).is_some_and(|c| c.is_ascii_digit()) {
                *i += 1;
            } else {
                break;
            }
        }
        n
    };
    if run(&mut i, &mut out) == 0 {
        out.push('0');
    }
    if b.get(i) == Some(&b'.') && b.get(i + 1).is_some_and(|c| c.is_ascii_digit()) {
        i += 1;
        out.push('.');
        run(&mut i, &mut out);
    }
    out.parse::<f64>().unwrap_or(0.0)
}

/// Psych's FLOAT regexp: `^[-+]?([0-9][0-9_,]*)?\.[0-9]*([eE][-+][0-9]+)?$`.
pub(crate) fn is_float(s: &str) -> bool {
    let b = s.as_bytes();
    let mut i = 0;
    if matches!(b.first(), Some(b'+' | b'-')) {
        i += 1;
    }
    if b.get(i).is_some_and(|c| c.is_ascii_digit()) {
        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b'_' || b[i] == b',') {
            i += 1;
        }
    }
    if b.get(i) != Some(&b'.') {
        return false;
    }
    i += 1;
    i += digit_run(b, i);
    if i == b.len() {
        return true;
    }
    if matches!(b[i], b'e' | b'E') && matches!(b.get(i + 1), Some(b'+' | b'-')) {
        let n = digit_run(b, i + 2);
        return n > 0 && i + 2 + n == b.len();
    }
    false
}

/// Psych's INTEGER regexp (binary, octal, decimal with `,`/`_` between
/// digits, hexadecimal).
pub(crate) fn is_integer(s: &str) -> bool {
    let b = s.as_bytes();
    let body = if matches!(b.first(), Some(b'+' | b'-')) {
        &b[1..]
    } else {
        b
    };
    let all = |r: &[u8], f: &dyn Fn(u8) -> bool| {
        !r.is_empty() && r.iter().all(|c| f(*c) || *c == b'_' || *c == b',')
    };
    if let Some(r) = body.strip_prefix(b"0b") {
        if all(r, &|c| c == b'0' || c == b'1') {
            return true;
        }
    }
    if let Some(r) = body.strip_prefix(b"0") {
        if all(r, &|c| (b'0'..=b'7').contains(&c)) || r.is_empty() {
            return true;
        }
    }
    if body.first().is_some_and(|c| (b'1'..=b'9').contains(c)) {
        let mut i = 1;
        let mut ok = true;
        while i < body.len() {
            if body[i].is_ascii_digit() {
                i += 1;
            } else if (body[i] == b',' || body[i] == b'_')
                && body.get(i + 1).is_some_and(|c| c.is_ascii_digit())
            {
                i += 2;
            } else {
                ok = false;
                break;
            }
        }
        if ok {
            return true;
        }
    }
    if let Some(r) = body.strip_prefix(b"0x") {
        if all(r, &|c| c.is_ascii_hexdigit()) {
            return true;
        }
    }
    false
}

/// Ruby's `Integer(string)` for the cleaned text of an INTEGER match.
pub(crate) fn ruby_integer(s: &str) -> Option<Value> {
    let (negative, body) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    let (radix, digits) = if let Some(r) = body.strip_prefix("0b") {
        (2, r)
    } else if let Some(r) = body.strip_prefix("0x") {
        (16, r)
    } else if body.len() > 1 && body.starts_with('0') {
        (8, &body[1..])
    } else {
        (10, body)
    };
    if digits.is_empty() {
        return None;
    }
    // Most integers fit in 64 bits: no arbitrary-precision arithmetic.
    let fits = match radix {
        2 => 62,
        8 => 20,
        10 => 18,
        _ => 15,
    };
    if digits.len() <= fits && digits.bytes().all(|c| c.is_ascii_alphanumeric()) {
        return i64::from_str_radix(digits, radix)
            .ok()
            .map(|n| Value::Int(if negative { -n } else { n }));
    }
    big_integer(negative, digits, radix)
}

/// [`ruby_integer`] of any size: `digits` (no sign, no prefix) in `radix`.
pub(crate) fn big_integer(negative: bool, digits: &str, radix: u32) -> Option<Value> {
    let digits: Option<Vec<u8>> = digits
        .chars()
        .map(|c| c.to_digit(radix).map(|d| d as u8))
        .collect();
    Some(Big::from_digits(&digits?, radix).into_value(negative))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The first-byte shortcut says "a String" only where Psych's general
    /// checks say so too: scalars of every first character (ASCII, the
    /// characters folding into the null and boolean words, digits, signs)
    /// followed by pieces of those words, numbers, times and symbols; both
    /// sides of the shortcut are met many times, and where it refuses the
    /// general checks answer (Strings and other values alike).
    #[test]
    fn first_byte_strings_are_tokenize_strings() {
        let mut rnd = crate::map::tests::below(0x5ca1a5);
        let mut firsts: Vec<String> = (0u8..0x80).map(|c| (c as char).to_string()).collect();
        firsts.extend(
            [
                "\u{17f}", "\u{212a}", "\u{fb00}", "\u{e9}", "\u{3b1}", "\u{85}", "\u{a0}",
            ]
            .map(String::from),
        );
        let pieces = [
            "ull",
            "ULL",
            "es",
            "ES",
            "rue",
            "n",
            "N",
            "o",
            "alse",
            "ff",
            "FF",
            "0",
            "1",
            "9",
            "12",
            ".",
            ":",
            "-",
            "+",
            "_",
            ",",
            "e",
            "E",
            "inf",
            "nan",
            "x",
            "b",
            "\n",
            " ",
            "\t",
            "~",
            "2001-01-01",
            " 12:00:00",
            "T",
            "Z",
            "#",
            "a",
            "\u{17f}",
            "\u{212a}",
            "\u{e9}",
            "'",
            "\"",
        ];
        let (mut took, mut refused, mut refused_strings) = (0, 0, 0);
        for _ in 0..200_000 {
            // Half the time a start of a value other than a String, and
            // fewer pieces after it.
            let valued = rnd(2) == 0;
            let mut s = if valued {
                let starts = [
                    "y",
                    "Y",
                    "t",
                    "T",
                    "o",
                    "O",
                    "n",
                    "N",
                    "f",
                    "F",
                    "~",
                    "0",
                    "1",
                    "-",
                    "+",
                    ".",
                    ":",
                    "2001-01-01",
                    "0x",
                    "0b",
                    "1_0",
                    "1,0",
                    "-.",
                    "+.",
                ];
                starts[rnd(starts.len() as u64) as usize].to_string()
            } else {
                firsts[rnd(firsts.len() as u64) as usize].clone()
            };
            for _ in 0..rnd(if valued { 3 } else { 8 }) {
                s.push_str(pieces[rnd(pieces.len() as u64) as usize]);
            }
            let general = tokenize_general(&s);
            let fast = tokenize_or_text(&s);
            assert_eq!(
                format!("{:?}", fast.ok()),
                format!("{:?}", general.as_ref().ok()),
                "{s:?}"
            );
            if string_by_first_byte(&s) {
                assert!(matches!(general, Ok(None)), "{s:?}: {:?}", general.ok());
                took += 1;
            } else {
                refused += 1;
                refused_strings += matches!(general, Ok(None)) as usize;
            }
        }
        assert!(took > 20_000 && refused > 50_000, "{took} {refused}");
        assert!(
            refused_strings > 10_000 && refused - refused_strings > 10_000,
            "{refused_strings} of {refused}"
        );
        // And every first byte with nothing after it, or a word after it.
        for c in 0u8..0x80 {
            for tail in ["", "ull", "es", "rue", "n", "alse", "ff", "1", ".5", ":00"] {
                let s = format!("{}{tail}", c as char);
                if string_by_first_byte(&s) {
                    assert!(matches!(tokenize_general(&s), Ok(None)), "{s:?}");
                }
            }
        }
    }

    /// `folds_to` answers as folding then comparing does, for ASCII text in
    /// every case mix and for the characters that fold into ASCII letters.
    /// The plain-decimal shortcut answers only where the general checks
    /// give the same Integer: digit strings of every length to 20, with and
    /// without a leading `0` (octal, or not a number), and numbers with a
    /// sign, a `_`, a `,`, a `.` or a `:` in them, which it leaves alone.
    #[test]
    fn plain_decimals_are_tokenize_integers() {
        let mut rnd = crate::map::tests::below(0xdec1);
        let mut answered = 0;
        for len in 1..=20usize {
            for _ in 0..200 {
                let mut s: String = (0..len).map(|_| char::from(b'0' + rnd(10) as u8)).collect();
                if rnd(4) == 0 {
                    let at = rnd(len as u64 + 1) as usize;
                    s.insert(
                        at,
                        ['-', '+', '_', ',', '.', ':', '0', 'e'][rnd(8) as usize],
                    );
                }
                let general = tokenize_general(&s);
                match plain_decimal(&s) {
                    Some(n) => {
                        answered += 1;
                        assert!(
                            matches!(general, Ok(Some(Value::Int(m))) if m == n),
                            "{s:?}"
                        );
                    }
                    None => assert!(
                        !s.bytes().all(|c| c.is_ascii_digit())
                            || s.len() > 18
                            || (s.len() > 1 && s.starts_with('0')),
                        "{s:?} refused"
                    ),
                }
            }
        }
        assert!(answered > 1000, "{answered}");
    }

    #[test]
    fn folds_to_is_fold_case_then_equal() {
        let words = ["null", "yes", "true", "on", "no", "false", "off"];
        let mut rnd = crate::map::tests::below(0xf01d);
        let pieces = [
            "n", "N", "u", "U", "l", "L", "y", "Y", "e", "E", "s", "S", "t", "T", "r", "R", "o",
            "O", "f", "F", "a", "A", "\u{17f}", "\u{212a}", "\u{fb00}", "\u{fb01}", "\u{fb02}",
            "\u{fb05}", "~", "1", " ", "\u{e9}",
        ];
        let mut texts: Vec<String> = words.iter().map(|w| w.to_string()).collect();
        texts.extend(
            [
                "YES",
                "yEs",
                "ye\u{17f}",
                "\u{fb00}",
                "o\u{fb00}",
                "nuLL",
                "",
                "Ye",
            ]
            .map(String::from),
        );
        for _ in 0..20_000 {
            let n = 1 + rnd(5) as usize;
            texts.push(
                (0..n)
                    .map(|_| pieces[rnd(pieces.len() as u64) as usize])
                    .collect(),
            );
        }
        for t in &texts {
            for w in words {
                assert_eq!(folds_to(t, w), fold_case(t) == w, "{t:?} {w}");
            }
        }
        assert!(
            folds_to("ye\u{17f}", "yes")
                && folds_to("o\u{fb00}", "off")
                && folds_to("TRUE", "true")
        );
    }

    /// The 64-bit fast path of `ruby_integer` gives what the arbitrary
    /// precision path gives, up to the longest digit runs it takes.
    #[test]
    fn integers_that_fit_in_64_bits_read_as_big_ones_do() {
        let mut rnd = crate::map::tests::below(0x1a7e);
        for _ in 0..20_000 {
            let (prefix, radix, alphabet, longest) = *[
                ("0b", 2, "01", 62),
                ("0", 8, "012345678", 20),
                ("", 10, "0123456789", 18),
                ("0x", 16, "0123456789abcdefABCDEFg", 15),
            ]
            .get(rnd(4) as usize)
            .unwrap();
            let len = 1 + rnd(longest as u64 + 2) as usize;
            let digits: String = (0..len)
                .map(|_| alphabet.as_bytes()[rnd(alphabet.len() as u64) as usize] as char)
                .collect();
            let digits = if radix == 10 {
                digits.trim_start_matches('0').to_string() + "1"
            } else {
                digits
            };
            let negative = rnd(2) == 0;
            let text = format!("{}{prefix}{digits}", if negative { "-" } else { "" });
            assert_eq!(
                format!("{:?}", ruby_integer(&text)),
                format!("{:?}", big_integer(negative, &digits, radix)),
                "{text}"
            );
        }
    }

    #[test]
    fn huge_integers_load_in_linear_time_or_are_refused() {
        // Found by the soak runner: a scalar of 811 KB of digits took seconds.
        let digits = "5".repeat(1_000_000);
        let v = load(&format!("k: {digits}\n"), &YamlOptions::default())
            .unwrap()
            .unwrap();
        assert!(matches!(v.get("k"), Some(Value::BigInt(d)) if d.as_str() == digits));
        let v = load(&format!("k: -{digits}\n"), &YamlOptions::default())
            .unwrap()
            .unwrap();
        assert!(
            matches!(v.get("k"), Some(Value::BigInt(d)) if d.len() == digits.len() + 1 && d.starts_with('-'))
        );
        let octal = format!("k: 0{}\n", "7".repeat(MAX_NONDECIMAL_DIGITS + 1));
        let e = load(&octal, &YamlOptions::default()).unwrap_err();
        assert!(
            e.to_string()
                .contains("integer too large: 100002 characters in base 2, 8 or 16"),
            "{e}"
        );
        let hex = format!("k: 0x{}\n", "f".repeat(20_000));
        let v = load(&hex, &YamlOptions::default()).unwrap().unwrap();
        assert!(
            matches!(v.get("k"), Some(Value::BigInt(d)) if d.len() == 24_083),
            "{:.20?}",
            v.get("k")
        );
    }
}
