//! Differential test of `hiera::ruby` (Ruby's rules written once) against
//! the real Ruby: `inspect` and `to_s` of generated values, strings and
//! symbols; `Float#to_s` of random doubles; `Float()` of generated
//! strings; `pack('m0')` and `unpack('m')`; `<=>`, `==` and `Array#sort`;
//! `to_yaml` (Psych's scalar rules and libyaml's emitter).
//! The oracle is `tests/support/ruby_rules_oracle.rb`; every answer must be
//! Ruby's exactly.
//!
//! Needs `ruby` with `json` (`scripts/test-all` installs it).

mod support;

use hiera::value::{ArcStr, Map, Value};
use serde_json::{json, Value as Json};
use support::wire::{decode, encode, hex, same, unhex, Rng};

const SEED: u64 = 0x5EED_4B1B_0000_0017;

/// Characters the generated strings are made of: ASCII (controls, quotes,
/// `#{`), C1 controls (U+0085), unassigned (U+0378), separators (U+2028),
/// combining marks, format characters, private use, noncharacters, emoji.
const CHARS: &[char] = &[
    'a',
    'Z',
    '0',
    '_',
    ' ',
    '"',
    '\'',
    '\\',
    '#',
    '{',
    '$',
    '@',
    '}',
    '\n',
    '\t',
    '\r',
    '\x00',
    '\x07',
    '\x08',
    '\x0b',
    '\x0c',
    '\x1b',
    '\x7f',
    '\u{80}',
    '\u{85}',
    '\u{9f}',
    '\u{a0}',
    '\u{ad}',
    'é',
    'ß',
    '\u{300}',
    '\u{378}',
    '\u{37f}',
    '\u{5c8}',
    '\u{61c}',
    '\u{200b}',
    '\u{200d}',
    '\u{2028}',
    '\u{2029}',
    '\u{202e}',
    '\u{3000}',
    '€',
    '日',
    '\u{e000}',
    '\u{fdd0}',
    '\u{feff}',
    '\u{fffd}',
    '\u{fffe}',
    '\u{1f600}',
    '\u{1f3fb}',
    '\u{e0001}',
    '\u{f0000}',
    '\u{10fffd}',
    '\u{10ffff}',
    '?',
    '!',
    '=',
    '+',
    '-',
    '*',
    '[',
    ']',
    '<',
    '>',
];

const SYMBOL_NAMES: &[&str] = &[
    "a", "foo", "foo?", "foo!", "foo=", "Foo", "_x", "@a", "@@a", "$a", "$-w", "$1", "$0", "$~",
    "+", "-@", "[]", "[]=", "<=>", "===", "=~", "!", "!=", "a b", "1a", "@1", "é", "a-b", "?",
    "foo?=", "", "\u{85}", "a\u{378}",
];

/// Strings Psych's scalar rules read as something else (or nearly so).
#[rustfmt::skip]
const SCALAR_LIKE: &[&str] = &[
    "yes", "No", "ON", "off", "~", "null", "Null", "true", "1", "-1", "0o17", "017", "019",
    "0b101", "0x1F", "1_000", "1,000", "1:20", "1:20:30.5", "-1:61", ".inf", "-.Inf", ".NaN",
    "1.5", "1.", ".5", "1e3", "1.0e+3", ":sym", ":", "2001-02-03", "2001-02-30", "2001-2-3",
    "1582-10-10", "2001-12-14t21:59:43.10-05:00", "2001-12-14 21:59:43.10 -5",
    "2001-13-14 21:59:43", "12:30:45", "=", "<<", "- a", "a: b", "#c", "@x", "`x", "!x", "&a",
    "*a", "? x", "%x", "|", ">", "'q'", "\"q\"", " lead", "trail ", "a\nb", "", "-", "---",
    "...", "a #b", "y", "n", "Y", "N", "1e", "+1", "+.5", "0.", "00", "0", "-0", "1__0",
];

fn string(rng: &mut Rng) -> String {
    if rng.chance(1, 4) {
        return rng.pick(SCALAR_LIKE).to_string();
    }
    let len = rng.below(7);
    (0..len).map(|_| *rng.pick(CHARS)).collect()
}

fn symbol(rng: &mut Rng) -> Value {
    let name = if rng.chance(1, 2) {
        rng.pick(SYMBOL_NAMES).to_string()
    } else {
        string(rng)
    };
    Value::Symbol(ArcStr::from(name.as_str()))
}

fn float(rng: &mut Rng) -> f64 {
    match rng.below(4) {
        0 => f64::from_bits(rng.next()),
        1 => (rng.next() % 2_000_001) as f64 / 1000.0 - 1000.0,
        2 => 10f64.powi(rng.below(40) as i32 - 20) * (1.0 + rng.below(9) as f64),
        _ => *rng.pick(&[0.0, -0.0, 1e15, 1e16, 0.1, 1e-5, 1e-4, 5e-324]),
    }
}

fn scalar(rng: &mut Rng) -> Value {
    match rng.below(9) {
        0 => Value::Nil,
        1 => Value::Bool(rng.chance(1, 2)),
        2 => Value::Int(rng.next() as i64 >> rng.below(64)),
        3 => Value::BigInt(ArcStr::from(
            format!("-{}0000000000000000000", 1 + rng.below(99)).as_str(),
        )),
        4 => {
            let f = float(rng);
            Value::Float(if f.is_finite() { f } else { 1.5 })
        }
        5 => symbol(rng),
        // Binary Strings that are not UTF-8: an ASCII-only one equals the
        // UTF-8 String of the same text in Ruby (and would collide as a key).
        6 => {
            let mut b: Vec<u8> = (0..rng.below(4)).map(|_| rng.next() as u8).collect();
            b.push(0x80 | rng.next() as u8);
            // Bytes the engine holds are never valid UTF-8 (the YAML loader
            // makes those Strings).
            if std::str::from_utf8(&b).is_ok() {
                b.push(0xFF);
            }
            Value::Bytes(std::sync::Arc::new(b))
        }
        _ => Value::from(string(rng).as_str()),
    }
}

fn value(rng: &mut Rng, depth: usize) -> Value {
    if depth == 0 || rng.chance(1, 2) {
        return scalar(rng);
    }
    if rng.chance(1, 2) {
        Value::array((0..rng.below(4)).map(|_| value(rng, depth - 1)).collect())
    } else {
        let mut m = Map::default();
        for _ in 0..rng.below(4) {
            m.insert(scalar(rng), value(rng, depth - 1));
        }
        Value::hash(m)
    }
}

fn has_bytes(v: &Value) -> bool {
    match v {
        Value::Bytes(_) => true,
        Value::Array(a) => a.iter().any(has_bytes),
        Value::Hash(h) => h.iter().any(|(k, x)| has_bytes(k) || has_bytes(x)),
        _ => false,
    }
}

/// A value for `<=>` and `sort`: numbers and strings of one or both kinds.
fn comparable(rng: &mut Rng) -> Value {
    match rng.below(6) {
        0 => Value::Int(rng.below(7) as i64 - 3),
        1 => Value::Float(*rng.pick(&[-1.5, 0.0, 2.0, 1e20, 3.0])),
        2 => Value::BigInt(ArcStr::from("100000000000000000000")),
        3 => Value::from(*rng.pick(&["a", "b", "B", "é", "", "a\u{0}"])),
        4 => Value::Nil,
        _ => Value::array(vec![Value::Int(rng.below(3) as i64)]),
    }
}

/// One generated question for Ruby, and the answer `hiera::ruby` gives.
fn case(rng: &mut Rng) -> (Json, Json) {
    match rng.below(10) {
        9 => {
            let v = value(rng, 3);
            (
                json!({"op": "to_yaml", "v": encode(&v)}),
                json!(hiera::yaml::to_yaml(&v)),
            )
        }
        0 | 1 => {
            let v = value(rng, 3);
            (
                json!({"op": "inspect", "v": encode(&v)}),
                json!(hiera::ruby::inspect(&v)),
            )
        }
        2 => {
            let mut v = value(rng, 2);
            if has_bytes(&v) {
                // A binary String's to_s is its bytes, not text: not compared.
                v = Value::from(string(rng).as_str());
            }
            let mut s = String::new();
            hiera::ruby::to_s(&v, &mut s);
            (json!({"op": "to_s", "v": encode(&v)}), json!(s))
        }
        3 => {
            let f = float(rng);
            let bits = hex(&f.to_bits().to_be_bytes());
            (
                json!({"op": "float", "hex": bits}),
                json!(hiera::ruby::float_to_s(f)),
            )
        }
        4 => {
            let pieces = [
                "1", "0", "_", ".", "e", "-", "+", " ", "x", "0x", "E", "5", "\n", "a", "p", "A",
            ];
            let s: String = (0..rng.below(8)).map(|_| *rng.pick(&pieces)).collect();
            let got = hiera::ruby::float::parse(&s).map(|f| hex(&f.to_bits().to_be_bytes()));
            (json!({"op": "parse", "s": s}), json!(got))
        }
        5 => {
            let b: Vec<u8> = (0..rng.below(10)).map(|_| rng.next() as u8).collect();
            (
                json!({"op": "encode64", "hex": hex(&b)}),
                json!(hiera::ruby::base64::encode(&b)),
            )
        }
        6 => {
            let alphabet = [
                "Q", "U", "J", "D", "R", "A", "=", " ", "\n", "!", "+", "/", "z",
            ];
            let s: String = (0..rng.below(12)).map(|_| *rng.pick(&alphabet)).collect();
            let got = hex(&hiera::ruby::base64::unpack_m(s.as_bytes()));
            (json!({"op": "unpack_m", "s": s}), json!(got))
        }
        7 => {
            let (a, b) = (comparable(rng), comparable(rng));
            let cmp = hiera::ruby::compare::spaceship(&a, &b).map(|o| o as i8);
            let eq = hiera::ruby::compare::equal(&a, &b);
            if rng.chance(1, 2) {
                (
                    json!({"op": "cmp", "a": encode(&a), "b": encode(&b)}),
                    json!(cmp),
                )
            } else {
                (
                    json!({"op": "eq", "a": encode(&a), "b": encode(&b)}),
                    json!(eq),
                )
            }
        }
        _ => {
            let mut items: Vec<Value> = (0..rng.below(6)).map(|_| comparable(rng)).collect();
            let v = encode(&Value::array(items.clone()));
            let got = match hiera::ruby::compare::sort(&mut items) {
                // Compared as values (serde_json and Ruby spell 1e20 differently).
                Ok(()) => json!({"ok": encode(&Value::array(items))}),
                Err(e) => json!({"error": e.message}),
            };
            (json!({"op": "sort", "v": v}), got)
        }
    }
}

#[test]
fn ruby_rules_match_ruby() {
    let mut rng = Rng::from_state(SEED);
    let cases: Vec<(Json, Json)> = (0..20000).map(|_| case(&mut rng)).collect();
    let answers = support::run_ruby_oracle(
        "ruby_rules_oracle.rb",
        "ruby-rules",
        cases.iter().map(|(q, _)| q.clone()),
    );
    let mut failures = Vec::new();
    let mut per_op = std::collections::BTreeMap::<String, usize>::new();
    for ((question, ours), ruby) in cases.iter().zip(&answers) {
        *per_op
            .entry(question["op"].as_str().unwrap().to_string())
            .or_default() += 1;
        let agree = match (ours.get("ok"), ruby.get("ok")) {
            (Some(a), Some(b)) => same(&decode(a), &decode(b)),
            _ => ours == ruby,
        };
        if !agree {
            failures.push(format!("{question}\n  ruby: {ruby}\n  ours: {ours}"));
        }
    }
    eprintln!(
        "ruby rules: {} cases {per_op:?}, {} differ",
        cases.len(),
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} of {} answers differ from Ruby's; the first:\n{}",
        failures.len(),
        cases.len(),
        failures
            .iter()
            .take(15)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn unhex_round_trips() {
    // The oracle's hex coding, which every byte comparison above relies on.
    assert_eq!(unhex(&hex(&[0, 0x7f, 0xff])), vec![0, 0x7f, 0xff]);
}
