//! Timespan's `new` for `convert_to`, and Timestamp's from a number of
//! seconds: Puppet's `Time::Timespan` built from seconds (Integer or
//! Float), from fields (`{days, hours, minutes, seconds, milliseconds,
//! microseconds, nanoseconds, negative}`), or parsed from a String with
//! Puppet's default formats (`Timespan::Format::DEFAULTS`), and printed as
//! Puppet prints it (`%D-%H:%M:%S.%-N`). Values are `Value::Rich` with the
//! type's name and that text, as the recorder renders them.

use crate::value::Value;
use std::sync::Arc;

const NSECS_PER_SEC: i128 = 1_000_000_000;

/// The default formats Puppet tries, in order, when parsing a Timespan.
const DEFAULT_FORMATS: [&str; 8] = [
    "%D-%H:%M:%S.%-N",
    "%H:%M:%S.%-N",
    "%M:%S.%-N",
    "%S.%-N",
    "%D-%H:%M:%S",
    "%H:%M:%S",
    "%D-%H:%M",
    "%S",
];

/// `Timespan.new(value, args...)`: `Err` carries Puppet's message (without
/// the `convert_to` prefix).
pub(crate) fn new_timespan(value: &Value, args: &[Value]) -> Result<Value, String> {
    let nsecs = match (value, args) {
        (Value::Int(_) | Value::Float(_) | Value::BigInt(_), []) => seconds(value)?,
        (Value::String(s), []) if !s.is_empty() => parse_default(s)?,
        (Value::String(s), [f]) if !s.is_empty() && formats_arg(f).is_some() => {
            let (formats, list) = formats_arg(f).unwrap_or_default();
            parse_formats(s, &formats, list)?
        }
        (Value::Hash(h), []) if h.keys().all(|k| matches!(k, Value::String(_))) => {
            let get = |k: &str| h.get(&Value::from(k));
            match (get("string"), get("format")) {
                (Some(Value::String(s)), None) if !s.is_empty() && h.len() == 1 => {
                    parse_default(s)?
                }
                (Some(Value::String(s)), Some(f)) if !s.is_empty() && h.len() == 2 => {
                    let (formats, list) = formats_arg(f).ok_or_else(|| unsupported(value, args))?;
                    parse_formats(s, &formats, list)?
                }
                (Some(_), _) => return Err(unsupported(value, args)),
                (None, _) => fields(h).ok_or_else(|| unsupported(value, args))?,
            }
        }
        _ => return Err(unsupported(value, args)),
    };
    Ok(timespan(nsecs))
}

/// `Timestamp.new(seconds)` for an Integer or Float number of seconds
/// since the epoch; `None` for any other call.
pub(crate) fn timestamp_of_seconds(value: &Value, args: &[Value]) -> Option<Result<Value, String>> {
    if !args.is_empty() || !matches!(value, Value::Int(_) | Value::Float(_)) {
        return None;
    }
    Some(seconds(value).map(timestamp_value))
}

/// `Timestamp.new(string, format, timezone?)` and `Timestamp.new({string,
/// format?, timezone?})`: Puppet's `Timestamp.parse` with the formats
/// given (a String, or an Array tried in order), read as Ruby's
/// `DateTime._strptime` reads the directives `%Y %m %d %H %M %S %F %T %N
/// %L %z %Z %%`; `None` for the calls this module leaves to the caller (a
/// String without arguments) or does not know (another directive).
pub(crate) fn timestamp_with_format(
    value: &Value,
    args: &[Value],
) -> Option<Result<Value, String>> {
    let (s, format, zone) = match (value, args) {
        (Value::String(s), [f]) => (s.to_string(), f.clone(), None),
        (Value::String(s), [f, Value::String(z)]) => {
            (s.to_string(), f.clone(), Some(z.to_string()))
        }
        (Value::Hash(h), []) => {
            let get = |k: &str| h.get(&Value::from(k));
            let Some(Value::String(s)) = get("string") else {
                return None;
            };
            if h.len()
                > 1 + usize::from(get("format").is_some()) + usize::from(get("timezone").is_some())
            {
                return None;
            }
            let zone = match get("timezone") {
                None => None,
                Some(Value::String(z)) => Some(z.to_string()),
                Some(_) => return None,
            };
            (
                s.to_string(),
                get("format").cloned().unwrap_or(Value::Nil),
                zone,
            )
        }
        _ => return None,
    };
    let zone = zone.filter(|z| !z.is_empty());
    let formats: Vec<String> = match &format {
        Value::String(f) if f.chars().count() >= 2 => vec![f.to_string()],
        Value::Array(a) if !a.is_empty() => {
            let mut v = Vec::new();
            for f in a.iter() {
                match f {
                    Value::String(f) if f.chars().count() >= 2 => v.push(f.to_string()),
                    _ => return None,
                }
            }
            v
        }
        // Puppet's defaults: without the zone designator when a timezone is given.
        Value::Nil => {
            let wo_tz = ["%FT%T.%N", "%FT%T", "%F %T.%N", "%F %T", "%F"];
            let with_tz = [
                "%FT%T.%N %Z",
                "%FT%T %Z",
                "%F %T.%N %Z",
                "%F %T %Z",
                "%F %Z",
            ];
            let mut v: Vec<String> = Vec::new();
            if zone.is_none() {
                v.extend(with_tz.iter().map(|f| f.to_string()));
            }
            v.extend(wo_tz.iter().map(|f| f.to_string()));
            v
        }
        _ => return None,
    };
    let list = !matches!(format, Value::String(_));
    let mut parsed = None;
    for f in &formats {
        match strptime(&s, f)? {
            // In a list, a format that read a zone is passed over when a
            // timezone is given (a single format errs below instead).
            Some(p) if !(list && zone.is_some() && p.zone.is_some()) => {
                parsed = Some(p);
                break;
            }
            _ => {}
        }
    }
    let Some(p) = parsed else {
        return Some(Err(if list {
            format!(
                "Unable to parse '{s}' using any of the formats {}",
                formats.join(", ")
            )
        } else {
            format!("Unable to parse '{s}' using format '{}'", formats[0])
        }));
    };
    if zone.is_some() && p.zone.is_some() {
        return Some(Err("Using a Timezone designator in format specification is mutually exclusive to providing an explicit timezone argument".into()));
    }
    let offset = match zone.as_deref().or(p.zone.as_deref()) {
        None => 0,
        Some(z) => match zone_offset(z) {
            Some(o) => o,
            None => return Some(Err(format!("Illegal timezone '{z}'"))),
        },
    };
    if !(1..=12).contains(&p.mon) || !(1..=31).contains(&p.mday) {
        return Some(Err("argument out of range".into()));
    }
    let days = crate::hiera5::convert::days_from_civil(p.year, p.mon, p.mday);
    let secs =
        days as i128 * 86_400 + (p.hour * 3600 + p.min * 60 + p.sec) as i128 - offset as i128;
    Some(Ok(timestamp_value(secs * NSECS_PER_SEC + p.nanos as i128)))
}

/// What `DateTime._strptime` read (the fields this module knows).
struct Parsed {
    year: i64,
    mon: i64,
    mday: i64,
    hour: i64,
    min: i64,
    sec: i64,
    nanos: i64,
    zone: Option<String>,
}

/// `DateTime._strptime(s, format)`: `Some(None)` when it does not match
/// (or leaves text over), `None` when the format has a directive this
/// module does not read.
fn strptime(s: &str, format: &str) -> Option<Option<Parsed>> {
    let format = format.replace("%F", "%Y-%m-%d").replace("%T", "%H:%M:%S");
    let b = s.as_bytes();
    let f = format.as_bytes();
    let mut p = Parsed {
        year: 1970,
        mon: 1,
        mday: 1,
        hour: 0,
        min: 0,
        sec: 0,
        nanos: 0,
        zone: None,
    };
    let (mut i, mut j) = (0usize, 0usize);
    let digits = |i: &mut usize, max: usize| -> Option<i64> {
        let start = *i;
        while *i < b.len() && *i - start < max && b[*i].is_ascii_digit() {
            *i += 1;
        }
        if *i == start {
            None
        } else {
            s[start..*i].parse().ok()
        }
    };
    while j < f.len() {
        if f[j] == b'%' && j + 1 < f.len() {
            let d = f[j + 1];
            j += 2;
            let ok = match d {
                b'Y' => {
                    let neg = b.get(i) == Some(&b'-');
                    if matches!(b.get(i), Some(b'-' | b'+')) {
                        i += 1;
                    }
                    // Followed by another number directive: at most 4 digits.
                    let max = if f.get(j) == Some(&b'%') {
                        4
                    } else {
                        usize::MAX
                    };
                    digits(&mut i, max).map(|y| p.year = if neg { -y } else { y })
                }
                b'm' => digits(&mut i, 2)
                    .filter(|m| (1..=12).contains(m))
                    .map(|m| p.mon = m),
                b'd' => digits(&mut i, 2)
                    .filter(|d| (1..=31).contains(d))
                    .map(|d| p.mday = d),
                b'H' => digits(&mut i, 2)
                    .filter(|h| (0..=24).contains(h))
                    .map(|h| p.hour = h),
                b'M' => digits(&mut i, 2)
                    .filter(|m| (0..=59).contains(m))
                    .map(|m| p.min = m),
                b'S' => digits(&mut i, 2)
                    .filter(|s| (0..=60).contains(s))
                    .map(|s| p.sec = s),
                b'N' | b'L' => {
                    let start = i;
                    while i < b.len() && b[i].is_ascii_digit() {
                        i += 1;
                    }
                    if i == start {
                        None
                    } else {
                        let frac: String = s[start..i]
                            .chars()
                            .chain(std::iter::repeat('0'))
                            .take(9)
                            .collect();
                        frac.parse().ok().map(|n| p.nanos = n)
                    }
                }
                b'z' | b'Z' => {
                    let start = i;
                    if s[i..].starts_with("UTC")
                        || s[i..].starts_with("utc")
                        || s[i..].starts_with("GMT")
                    {
                        i += 3;
                    } else if b.get(i) == Some(&b'Z') {
                        i += 1;
                    } else if matches!(b.get(i), Some(b'+' | b'-')) {
                        i += 1;
                        while i < b.len() && (b[i].is_ascii_digit() || b[i] == b':') {
                            i += 1;
                        }
                    }
                    if i == start {
                        None
                    } else {
                        p.zone = Some(s[start..i].to_string());
                        Some(())
                    }
                }
                b'%' => (b.get(i) == Some(&b'%')).then(|| i += 1),
                _ => return None,
            };
            if ok.is_none() {
                return Some(None);
            }
        } else if f[j].is_ascii_whitespace() {
            while i < b.len() && b[i].is_ascii_whitespace() {
                i += 1;
            }
            j += 1;
        } else {
            if b.get(i) != Some(&f[j]) {
                return Some(None);
            }
            i += 1;
            j += 1;
        }
    }
    Some((i == b.len()).then_some(p))
}

/// The formats Puppet's `Timestamp.parse` tries by default.
pub(crate) const TIMESTAMP_DEFAULT_FORMATS: &str =
    "%FT%T.%N %Z, %FT%T %Z, %F %T.%N %Z, %F %T %Z, %F %Z, %FT%T.%N, %FT%T, %F %T.%N, %F %T, %F";

/// The error of a call no signature of Timestamp's `new` takes, worded
/// for a single argument that is neither a number, a String nor a Hash.
pub(crate) fn timestamp_unsupported(value: &Value) -> String {
    let got = crate::hiera5::ptype::infer_type(value);
    format!(
        "The function 'new_timestamp' was called with arguments it does not accept. It expects one of:\n  \
         ()\n    rejected: expects no arguments, got 1\n  \
         (Variant[Integer, Float] seconds)\n    rejected: parameter 'seconds' expects a value of type Integer or Float, got {got}\n  \
         (String[1] string, Formats = Variant[String[2], Array[String[2], 1]] format?, String[1] timezone?)\n    rejected: parameter 'string' expects a String value, got {got}\n  \
         (Struct[{{'string' => String[1], Optional['format'] => Formats, Optional['timezone'] => String[1]}}] hash_arg)\n    rejected: parameter 'hash_arg' expects a Struct value, got {got}"
    )
}

/// A zone's offset from UTC in seconds, as `DateTime._strptime(z, '%z')`
/// reads it: `UTC`, `GMT`, `Z`, `+hh`, `+hhmm`, `+hh:mm`.
fn zone_offset(z: &str) -> Option<i64> {
    match z {
        "UTC" | "utc" | "GMT" | "gmt" | "Z" | "z" => return Some(0),
        _ => {}
    }
    let sign = match z.as_bytes().first()? {
        b'+' => 1,
        b'-' => -1,
        _ => return None,
    };
    let rest = z[1..].replace(':', "");
    if rest.is_empty() || rest.len() > 4 || !rest.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    let (h, m) = if rest.len() <= 2 {
        (rest.parse::<i64>().ok()?, 0)
    } else {
        (
            rest[..rest.len() - 2].parse::<i64>().ok()?,
            rest[rest.len() - 2..].parse::<i64>().ok()?,
        )
    };
    Some(sign * (h * 3600 + m * 60))
}

/// A Timestamp value from nanoseconds since the epoch, printed as Puppet's
/// `Timestamp#to_s` does.
fn timestamp_value(ns: i128) -> Value {
    Value::Rich(Arc::new(("Timestamp".into(), timestamp_text(ns))))
}

/// A Timestamp of `ns` since the epoch as Puppet prints it
/// (`%FT%T.%N %Z`, UTC).
pub(crate) fn timestamp_text(ns: i128) -> String {
    let secs = ns.div_euclid(NSECS_PER_SEC);
    let frac = ns.rem_euclid(NSECS_PER_SEC);
    let days = secs.div_euclid(86400) as i64;
    let rem = secs.rem_euclid(86400) as i64;
    let (y, m, d) = crate::hiera5::convert::civil_from_days(days);
    format!(
        "{y:04}-{m:02}-{d:02}T{:02}:{:02}:{:02}.{frac:09} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

/// A number of seconds in nanoseconds, as `(seconds * NSECS_PER_SEC).to_i`.
fn seconds(v: &Value) -> Result<i128, String> {
    match v {
        Value::Int(n) => Ok(*n as i128 * NSECS_PER_SEC),
        Value::Float(f) if f.is_finite() => {
            let ns = (f * 1e9).trunc();
            if ns.abs() < 1e37 {
                Ok(ns as i128)
            } else {
                Err("Timespan out of range".into())
            }
        }
        Value::Float(f) => Err(if f.is_nan() {
            "NaN".to_string()
        } else if *f > 0.0 {
            "Infinity".to_string()
        } else {
            "-Infinity".to_string()
        }),
        _ => Err("Timespan out of range".into()),
    }
}

/// `Timespan.from_fields_hash`: every given field an Integer (else `None`).
fn fields(h: &crate::value::Map) -> Option<i128> {
    const UNITS: [(&str, i128); 7] = [
        ("days", 86_400 * NSECS_PER_SEC),
        ("hours", 3_600 * NSECS_PER_SEC),
        ("minutes", 60 * NSECS_PER_SEC),
        ("seconds", NSECS_PER_SEC),
        ("milliseconds", 1_000_000),
        ("microseconds", 1_000),
        ("nanoseconds", 1),
    ];
    let mut negative = false;
    let mut ns: i128 = 0;
    for (k, v) in h.iter() {
        let Value::String(k) = k else { return None };
        if &**k == "negative" {
            match v {
                Value::Bool(b) => negative = *b,
                _ => return None,
            }
            continue;
        }
        let unit = UNITS.iter().find(|(name, _)| *name == &**k)?.1;
        let Value::Int(n) = v else { return None };
        ns = ns.checked_add((*n as i128).checked_mul(unit)?)?;
    }
    Some(if negative { -ns } else { ns })
}

/// One segment of a Timespan format: a literal, or a number of a unit
/// (Puppet's `Timespan::Format` segments).
#[derive(Clone, Debug)]
enum Seg {
    Lit(String),
    Num {
        /// Nanoseconds per unit; 0 for the fractions (`%L`, `%N`).
        unit: i128,
        /// `Some('0')` (the default), `None` (`-`) or `Some(' ')` (`_`).
        pad: Option<char>,
        width: Option<usize>,
        default_width: usize,
        /// The format's highest unit: any number of digits.
        total: bool,
    },
}

/// Puppet's `FormatParser#internal_parse` of a Timespan format; `None`
/// for a bad format specifier.
fn segments(format: &str) -> Option<Vec<Seg>> {
    let mut out: Vec<Seg> = Vec::new();
    let mut chars = format.chars().peekable();
    // (ordinal, index) of the highest unit's first segment.
    let mut highest: Option<(u8, usize)> = None;
    while let Some(c) = chars.next() {
        if c != '%' {
            match out.last_mut() {
                Some(Seg::Lit(l)) => l.push(c),
                _ => out.push(Seg::Lit(c.to_string())),
            }
            continue;
        }
        let mut pad = Some('0');
        let mut width: Option<usize> = None;
        let mut first = true;
        loop {
            let d = chars.next()?;
            let (ord, unit, dw) = match d {
                '%' if first => {
                    match out.last_mut() {
                        Some(Seg::Lit(l)) => l.push('%'),
                        _ => out.push(Seg::Lit("%".into())),
                    }
                    break;
                }
                '-' if first => {
                    pad = None;
                    first = false;
                    continue;
                }
                '_' if first => {
                    pad = Some(' ');
                    first = false;
                    continue;
                }
                '0' if first => {
                    first = false;
                    continue;
                }
                '0'..='9' => {
                    width = Some(width.unwrap_or(0) * 10 + (d as usize - '0' as usize));
                    first = false;
                    continue;
                }
                'D' => (5, 86_400 * NSECS_PER_SEC, 1),
                'H' => (4, 3_600 * NSECS_PER_SEC, 2),
                'M' => (3, 60 * NSECS_PER_SEC, 2),
                'S' => (2, NSECS_PER_SEC, 2),
                'L' => (1, 0, 3),
                'N' => (0, 0, 9),
                _ => return None,
            };
            if highest.is_none_or(|(h, _)| ord > h) {
                highest = Some((ord, out.len()));
            }
            out.push(Seg::Num {
                unit,
                pad,
                width,
                default_width: dw,
                total: false,
            });
            break;
        }
    }
    if let Some((_, i)) = highest {
        if let Seg::Num { total, .. } = &mut out[i] {
            *total = true;
        }
    }
    Some(out)
}

/// The lengths (longest first) a segment's group may take at `rest`.
fn group_lengths(seg: &Seg, rest: &[u8]) -> Vec<usize> {
    let Seg::Num {
        pad,
        width,
        default_width,
        total,
        ..
    } = seg
    else {
        return Vec::new();
    };
    let digit = |c: u8| c.is_ascii_digit();
    let digit_or_space = |c: u8| c.is_ascii_digit() || c.is_ascii_whitespace();
    let run = |f: &dyn Fn(u8) -> bool| rest.iter().take_while(|c| f(**c)).count();
    let (min, max, space) = match (width, pad) {
        (None, Some(' ')) if *total => {
            // \s*([0-9]+)
            let ws = rest.iter().take_while(|c| c.is_ascii_whitespace()).count();
            let d = rest[ws..].iter().take_while(|c| c.is_ascii_digit()).count();
            return if d == 0 {
                Vec::new()
            } else {
                (1..=d).rev().map(|n| ws + n).collect()
            };
        }
        (None, Some(' ')) => (1, *default_width, true),
        (None, _) if *total => (1, usize::MAX, false),
        (None, _) => (1, *default_width, false),
        (Some(w), None) => (1, *w, false),
        (Some(w), Some('0')) => (*w, *w, false),
        (Some(w), _) => (*w, *w, true),
    };
    let avail = if space {
        run(&digit_or_space)
    } else {
        run(&digit)
    };
    let max = max.min(avail);
    if max < min {
        return Vec::new();
    }
    (min..=max).rev().collect()
}

/// Matches `b[i..]` against `segs` (with backtracking, as the Regexp
/// Puppet builds): the nanoseconds, or `None`.
fn match_segments(segs: &[Seg], b: &[u8], i: usize) -> Option<i128> {
    let Some((seg, rest)) = segs.split_first() else {
        return (i == b.len()).then_some(0);
    };
    match seg {
        Seg::Lit(l) => {
            let l = l.as_bytes();
            if b[i..].starts_with(l) {
                match_segments(rest, b, i + l.len())
            } else {
                None
            }
        }
        Seg::Num { unit, .. } => {
            for n in group_lengths(seg, &b[i..]) {
                let Some(tail) = match_segments(rest, b, i + n) else {
                    continue;
                };
                // group.lstrip!, then digits only.
                let g = std::str::from_utf8(&b[i..i + n]).ok()?.trim_start();
                if g.is_empty() || !g.bytes().all(|c| c.is_ascii_digit()) {
                    return None;
                }
                let v: i128 = g.parse().ok()?;
                let ns = if *unit == 0 {
                    let len = g.len();
                    if len >= 9 {
                        v
                    } else {
                        v * 10i128.pow((9 - len) as u32)
                    }
                } else {
                    v.checked_mul(*unit)?
                };
                return ns.checked_add(tail);
            }
            None
        }
    }
}

/// `Timespan.parse(s, format)` with one format: the nanoseconds or `None`.
fn parse_with(s: &str, format: &str) -> Option<i128> {
    let segs = segments(format)?;
    let b = s.as_bytes();
    let start = usize::from(b.first() == Some(&b'-'));
    let ns = match_segments(&segs, b, start)?;
    Some(if s.starts_with('-') { -ns } else { ns })
}

/// `Timespan.parse(s, formats)`: the first format that matches, or
/// Puppet's message.
fn parse_formats(s: &str, formats: &[String], list: bool) -> Result<i128, String> {
    formats
        .iter()
        .find_map(|f| parse_with(s, f))
        .ok_or_else(|| {
            if list {
                format!(
                    "Unable to parse '{s}' using any of the formats {}",
                    formats.join(", ")
                )
            } else {
                format!("Unable to parse '{s}' using format '{}'", formats[0])
            }
        })
}

fn parse_default(s: &str) -> Result<i128, String> {
    let formats: Vec<String> = DEFAULT_FORMATS.iter().map(|f| f.to_string()).collect();
    parse_formats(s, &formats, true)
}

/// A `Formats` argument (`Variant[String[2], Array[String[2], 1]]`): the
/// formats and whether it was an Array; `None` when it is not one.
fn formats_arg(v: &Value) -> Option<(Vec<String>, bool)> {
    let one = |v: &Value| match v {
        Value::String(f) if f.chars().count() >= 2 => Some(f.to_string()),
        _ => None,
    };
    match v {
        Value::String(_) => Some((vec![one(v)?], false)),
        Value::Array(a) if !a.is_empty() => {
            Some((a.iter().map(one).collect::<Option<Vec<_>>>()?, true))
        }
        _ => None,
    }
}

/// A Timespan value printed as Puppet's `Timespan#to_s` does.
fn timespan(nsecs: i128) -> Value {
    Value::Rich(Arc::new(("Timespan".into(), timespan_text(nsecs))))
}

/// A Timespan of `nsecs` as Puppet prints it (`%D-%H:%M:%S.%-N`).
pub(crate) fn timespan_text(nsecs: i128) -> String {
    let total = nsecs.abs();
    let secs = total / NSECS_PER_SEC;
    let frac = total % NSECS_PER_SEC;
    // `%-N`: the fraction's digits without trailing zeroes (Puppet strips
    // them from the number, so 1000 ns prints as 1).
    let mut f = frac.to_string();
    while f.len() > 1 && f.ends_with('0') {
        f.pop();
    }
    format!(
        "{}{}-{:02}:{:02}:{:02}.{f}",
        if nsecs < 0 { "-" } else { "" },
        secs / 86_400,
        secs / 3_600 % 24,
        secs / 60 % 60,
        secs % 60
    )
}

/// The error of a call no signature of Timespan's `new` takes (Puppet's
/// `describe_signatures`, worded for a single argument that is neither a
/// number, a String nor a Hash).
fn unsupported(value: &Value, args: &[Value]) -> String {
    let got = crate::hiera5::ptype::infer_type(value);
    let n = args.len() + 1;
    let fields = "Struct[{Optional['negative'] => Boolean, Optional['days'] => Integer, Optional['hours'] => Integer, Optional['minutes'] => Integer, Optional['seconds'] => Integer, Optional['milliseconds'] => Integer, Optional['microseconds'] => Integer, Optional['nanoseconds'] => Integer}]";
    format!(
        "The function 'new_timespan' was called with arguments it does not accept. It expects one of:\n  \
         (Variant[Integer, Float] seconds)\n    rejected: parameter 'seconds' expects a value of type Integer or Float, got {got}\n  \
         (String[1] string, Formats = Variant[String[2], Array[String[2], 1]] format?)\n    rejected: parameter 'string' expects a String value, got {got}\n  \
         (Integer days, Integer hours, Integer minutes, Integer seconds, Integer milliseconds?, Integer microseconds?, Integer nanoseconds?)\n    rejected: expects between 4 and 7 arguments, got {n}\n  \
         (Struct[{{'string' => String[1], Optional['format'] => Formats}}] hash_arg)\n    rejected: parameter 'hash_arg' expects a Struct value, got {got}\n  \
         ({fields} hash_arg)\n    rejected: parameter 'hash_arg' expects a Struct value, got {got}"
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn text(v: Value) -> String {
        match v {
            Value::Rich(r) => r.1.clone(),
            other => panic!("not a Timespan: {other:?}"),
        }
    }

    #[test]
    fn printing() {
        assert_eq!(text(timespan(3 * NSECS_PER_SEC)), "0-00:00:03.0");
        assert_eq!(text(timespan(4_500_000_000)), "0-00:00:04.5");
        assert_eq!(text(timespan(-90_061 * NSECS_PER_SEC)), "-1-01:01:01.0");
        assert_eq!(text(timespan(1_000)), "0-00:00:00.1");
    }

    #[test]
    fn parsing_default_formats() {
        assert_eq!(
            parse_default("1-02:03:04").unwrap(),
            (93_784) * NSECS_PER_SEC
        );
        assert_eq!(parse_default("4.5").unwrap(), 4_500_000_000);
        assert_eq!(
            parse_default("-1-00:00:01.5").unwrap(),
            -(86_401_500_000_000)
        );
        assert!(parse_default("02:03").is_err());
        assert!(parse_default("1 day").is_err());
    }
}
