//! The `json` target: the JSON parser of `json_data` files and the wire
//! decoder of the C ABI (`hiera::render::from_json`), on generated and
//! mutated JSON, deep nesting included.

use crate::input::Input;
use crate::mutator::mutate;
use crate::rng::Rng;
use crate::targets::Verdict;
use crate::{corpus, request};
use std::path::Path;

/// Numbers of every shape Ruby's parser and the wire format meet.
const NUMBERS: &[&str] = &[
    "0",
    "-0",
    "1",
    "-1",
    "007",
    "1.5",
    "-0.0",
    "1e3",
    "1E-3",
    "1e400",
    "-1e400",
    "1e-400",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890123456789",
    "NaN",
    "Infinity",
    "-Infinity",
    "1.",
    ".5",
    "+1",
    "0x10",
    "1_000",
    "2.5e+308",
    "4.9e-324",
];

/// String bodies (inside quotes), escapes and odd characters included.
const STRINGS: &[&str] = &[
    "",
    "a",
    "key",
    "ключ",
    "🎉",
    "\\u0000",
    "\\ud800",
    "\\udc00x",
    "\\ud83c\\udf89",
    "\\n\\t\\r\\b\\f\\/\\\\\\\"",
    "\\x",
    "\\u12",
    "%{lookup('k')}",
    "%{facts.x}",
    "__type__",
    "Hash",
    "Symbol",
    "Float",
    "Binary",
    "Sensitive",
    "aGVsbG8=",
    "====",
    "\u{7f}\u{1}",
    "a.b.c",
    "\t",
];

/// A JSON generator.
struct Gen<'r> {
    rng: &'r mut Rng,
    out: String,
    nodes: usize,
}

impl Gen<'_> {
    fn string(&mut self) {
        self.out.push('"');
        let s = self.rng.word(STRINGS);
        self.out.push_str(s);
        self.out.push('"');
    }

    fn value(&mut self, depth: usize) {
        self.nodes += 1;
        let leaf = depth == 0 || self.nodes > 500;
        match self.rng.below(if leaf { 4 } else { 9 }) {
            0 => self.out.push_str(self.rng.word(NUMBERS)),
            1 => self.string(),
            2 => self
                .out
                .push_str(self.rng.word(&["true", "false", "null", "nul", "tru"])),
            3 => {
                // A wire-typed scalar.
                let (t, v) = *self.rng.pick(&[
                    ("Float", "1"),
                    ("Float", "\"NaN\""),
                    ("Float", "\"-Infinity\""),
                    ("Float", "\"x\""),
                    ("Binary", "\"aGVsbG8=\""),
                    ("Binary", "\"!!\""),
                    ("Symbol", "\"sym\""),
                    ("Symbol", "1"),
                    ("Sensitive", "\"s\""),
                    ("Sensitive", "{\"__type__\":\"Sensitive\",\"value\":1}"),
                    ("Unknown", "1"),
                    ("Hash", "[]"),
                ]);
                self.out
                    .push_str(&format!("{{\"__type__\":\"{t}\",\"value\":{v}}}"));
            }
            4 | 5 => {
                self.out.push('[');
                for i in 0..self.rng.small(5) {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.value(depth - 1);
                }
                self.out.push(']');
            }
            6 => {
                // A wire Hash with entries (any keys).
                self.out.push_str("{\"__type__\":\"Hash\",\"entries\":[");
                for i in 0..self.rng.small(4) {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.out.push('[');
                    self.value(depth - 1);
                    self.out.push(',');
                    self.value(depth - 1);
                    self.out.push(']');
                }
                self.out.push_str("]}");
            }
            _ => {
                self.out.push('{');
                for i in 0..self.rng.small(5) {
                    if i > 0 {
                        self.out.push(',');
                    }
                    self.string();
                    self.out.push(':');
                    self.value(depth - 1);
                }
                self.out.push('}');
            }
        }
        if self.rng.one_in(50) {
            self.out.push_str(
                self.rng
                    .word(&[" ", "\n", ",", "/* c */", "// c\n", "}", "]"]),
            );
        }
    }
}

/// Generates a JSON document.
pub fn generate(rng: &mut Rng) -> Input {
    if rng.one_in(100) {
        let depth = rng.range(400, 200_000);
        let (open, close) = *rng.pick(&[
            ("[", "]"),
            ("{\"a\":", "}"),
            ("{\"__type__\":\"Sensitive\",\"value\":", "}"),
        ]);
        let text = format!("{{\"k\":{}1{}}}", open.repeat(depth), close.repeat(depth));
        return Input::single(
            "data.json",
            text.into_bytes(),
            format!("hostile: JSON nested {depth} levels"),
        );
    }
    let (bytes, note) = match rng.below(4) {
        0 => {
            let mut b = corpus::pick_file(rng, "json");
            let donor = corpus::pick_file(rng, "json");
            mutate(rng, &mut b, &donor);
            (b, "mutated conformance JSON file")
        }
        1 => {
            let mut g = Gen {
                rng,
                out: String::new(),
                nodes: 0,
            };
            g.value(6);
            let mut b = g.out.into_bytes();
            mutate(rng, &mut b, b"{\"a\":[1,2,{\"b\":null}]}");
            (b, "generated JSON, mutated")
        }
        _ => {
            let depth = rng.range(1, 10);
            let mut g = Gen {
                rng,
                out: String::from("{\"k\":"),
                nodes: 0,
            };
            g.value(depth);
            g.out.push('}');
            (g.out.into_bytes(), "generated JSON")
        }
    };
    Input::single("data.json", bytes, note)
}

/// Parses the document as a data file, as wire JSON, and through the C ABI.
pub fn run(input: &Input) -> Verdict {
    let bytes = input.file("data.json").unwrap_or_default();
    if let Ok(map) = hiera::data::parse_json_bytes(bytes, Path::new("/soak/data.json")) {
        let _ = hiera::render::to_json(&hiera::Value::Hash(map));
    }
    let _ = hiera::json::load_bytes(bytes);
    if let Ok(text) = std::str::from_utf8(bytes) {
        if let Ok(v) = hiera::render::from_json(text) {
            let again = hiera::render::to_json(&v);
            let _ = hiera::render::from_json(&again);
            let _ = hiera::yaml::to_yaml(&v);
        }
    }
    request::parse_data("json", bytes)
}
