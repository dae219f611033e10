//! Structured generation of YAML-ish documents: block and flow collections,
//! anchors, aliases and merge keys, tags, every scalar form Psych resolves,
//! odd indentation, unicode, BOMs and control characters. Mostly valid,
//! sometimes not.

use crate::rng::Rng;

/// Plain scalars covering Psych's resolution rules (and near misses).
const PLAIN: &[&str] = &[
    "~",
    "null",
    "Null",
    "NULL",
    "",
    "true",
    "True",
    "TRUE",
    "false",
    "yes",
    "Yes",
    "no",
    "NO",
    "on",
    "Off",
    "y",
    "n",
    "0",
    "-0",
    "+12",
    "-17",
    "0x1F",
    "0x_1f",
    "-0x1f",
    "0o17",
    "017",
    "08",
    "0b1010",
    "-0b11",
    "1_000",
    "1__0",
    "9223372036854775807",
    "9223372036854775808",
    "-9223372036854775809",
    "123456789012345678901234567890",
    "1:20:30",
    "-1:00",
    "190:20:30.15",
    "1.5",
    ".5",
    "-.5",
    "1.",
    "1e3",
    "1E+3",
    "1.0e-3",
    "6.8523015e+5",
    "685.230_15e+03",
    "1_0.5",
    ".inf",
    "-.Inf",
    "+.INF",
    ".nan",
    ".NaN",
    "1e400",
    "-1e400",
    "0.1e-400",
    "2001-12-14",
    "2001-12-14t21:59:43.10-05:00",
    "2001-12-14 21:59:43.10 -5",
    "2002-13-45",
    ":sym",
    ":\"quoted sym\"",
    ":'q'",
    "::",
    ":",
    "plain text",
    "a b  c",
    "http://x/y",
    "a:b",
    "a#b",
    "ключ",
    "🎉",
    "e\u{301}",
    "\u{202e}rtl",
    "\u{85}x",
    "x\u{2028}y",
    "%{facts.os.family}",
    "%{lookup('k')}",
    "0.",
    "-",
    "--",
    "---x",
    "=",
    "<<",
    "1,000",
    "$x",
    "@x",
    "`x",
    "\u{feff}bom",
    "\u{7f}",
];

/// Tags, valid and not.
const TAGS: &[&str] = &[
    "!!str",
    "!!int",
    "!!float",
    "!!bool",
    "!!null",
    "!!binary",
    "!!seq",
    "!!map",
    "!!set",
    "!!omap",
    "!!timestamp",
    "!ruby/object:Foo",
    "!ruby/sym",
    "!ruby/symbol",
    "!ruby/hash:Foo",
    "!ruby/regexp",
    "!ruby/range",
    "!ruby/struct:S",
    "!custom",
    "!",
    "!<tag:yaml.org,2002:str>",
    "!<!bar>",
    "!e!x",
    "!!python/none",
    "!ruby/string:String",
    "!ruby/array:Array",
];

/// Double-quoted escapes.
const ESCAPES: &[&str] = &[
    "\\n",
    "\\t",
    "\\\\",
    "\\\"",
    "\\0",
    "\\a",
    "\\x41",
    "\\x0d",
    "\\u263A",
    "\\U0001F389",
    "\\ud800",
    "\\N",
    "\\_",
    "\\L",
    "\\P",
    "\\ ",
    "\\/",
    "\\e",
    "\\q",
    "\\x",
    "\\u12",
];

/// A YAML document generator.
pub struct Gen<'r> {
    rng: &'r mut Rng,
    out: String,
    anchors: Vec<String>,
    nodes: usize,
}

impl<'r> Gen<'r> {
    /// A generator drawing from `rng`.
    pub fn new(rng: &'r mut Rng) -> Gen<'r> {
        Gen {
            rng,
            out: String::new(),
            anchors: Vec::new(),
            nodes: 0,
        }
    }

    /// A whole document (or several), with optional BOM, directives,
    /// comments and document markers.
    pub fn document(mut self) -> String {
        if self.rng.one_in(30) {
            self.out.push('\u{feff}');
        }
        if self.rng.one_in(20) {
            self.out.push_str(self.rng.word(&[
                "%YAML 1.1\n",
                "%YAML 1.2\n",
                "%TAG !e! tag:example.com,2000:\n",
                "%FOO bar\n",
            ]));
        }
        if self.rng.one_in(3) {
            self.out.push_str("---");
            self.out
                .push_str(if self.rng.one_in(4) { " " } else { "\n" });
        }
        if self.rng.one_in(8) {
            self.out.push_str("# a comment\n");
        }
        let max_depth = self.rng.range(1, 8);
        match self.rng.below(10) {
            0 => self.flow(max_depth),
            1 => {
                let s = self.scalar();
                self.out.push_str(&s);
            }
            2 => self.block_seq(0, max_depth),
            _ => self.block_map(0, max_depth),
        }
        self.out.push('\n');
        if self.rng.one_in(10) {
            self.out.push_str(self.rng.word(&[
                "...\n",
                "---\nsecond: doc\n",
                "--- |\n  text\n",
                "... # end\n",
            ]));
        }
        if self.rng.one_in(25) {
            // A control character or stray byte somewhere.
            let c = *self.rng.pick(&[
                '\u{1}', '\u{7}', '\u{b}', '\u{c}', '\u{1b}', '\u{7f}', '\u{9f}', '\r', '\t',
                '\u{fffe}',
            ]);
            let mut chars: Vec<char> = self.out.chars().collect();
            let at = self.rng.below(chars.len() + 1);
            chars.insert(at, c);
            self.out = chars.into_iter().collect();
        }
        self.out
    }

    fn indent(&mut self, n: usize) {
        // Odd indentation now and then.
        let n = match self.rng.below(40) {
            0 => n + 1,
            1 => n.saturating_sub(1),
            2 => n + 3,
            _ => n,
        };
        if self.rng.one_in(200) {
            self.out.push('\t');
        }
        self.out.push_str(&" ".repeat(n));
    }

    fn step(&mut self) -> usize {
        *self.rng.pick(&[2, 2, 2, 4, 1, 3, 8])
    }

    fn key(&mut self) -> String {
        match self.rng.below(12) {
            0 => self.scalar(),
            1 => "<<".into(),
            2 => format!("'{}'", self.rng.pick(PLAIN).replace('\'', "''")),
            3 => format!("\"{}\"", self.rng.pick(ESCAPES)),
            4 => "? complex".into(),
            5 => format!("{}", self.rng.below(10)),
            6 => format!("k{}::{}", self.rng.below(5), self.rng.below(5)),
            7 => (self.rng.word(&[
                "~", "null", "true", "1.5", ":sym", "ключ", "a.b", "a b", "-", "1",
            ]))
            .into(),
            _ => format!("k{}", self.rng.below(8)),
        }
    }

    /// A scalar in any style (on one line).
    fn scalar(&mut self) -> String {
        let mut s = match self.rng.below(10) {
            0..=3 => (self.rng.word(PLAIN)).to_string(),
            4 => format!("'{}'", self.rng.pick(PLAIN).replace('\'', "''")),
            5 => {
                let mut s = String::from("\"");
                for _ in 0..self.rng.range(0, 4) {
                    if self.rng.one_in(2) {
                        s.push_str(self.rng.word(ESCAPES));
                    } else {
                        s.push_str(&self.rng.pick(PLAIN).replace(['"', '\\'], ""));
                    }
                }
                s.push('"');
                s
            }
            6 => format!(
                "{} {}",
                self.rng.pick(TAGS),
                self.rng
                    .pick(&["12", "\"12\"", "aGVsbG8=", "x", "", "1.5", "yes", "[1, 2]", "{a: 1}"])
            ),
            7 if !self.anchors.is_empty() => format!("*{}", self.rng.pick(&self.anchors).clone()),
            7 => format!("*undefined{}", self.rng.below(3)),
            8 => format!("{}", self.rng.next_u64() as i64 >> self.rng.below(64)),
            _ => format!("v{}", self.rng.below(100)),
        };
        if self.rng.one_in(15) {
            s.push_str(" # comment");
        }
        s
    }

    fn anchor(&mut self) -> String {
        if self.rng.one_in(6) {
            let name = format!("a{}", self.rng.below(6));
            self.anchors.push(name.clone());
            format!("&{name} ")
        } else {
            String::new()
        }
    }

    /// A flow collection or scalar.
    fn flow(&mut self, depth: usize) {
        self.nodes += 1;
        if depth == 0 || self.nodes > 400 || self.rng.one_in(3) {
            let s = self.scalar();
            self.out.push_str(&s);
            return;
        }
        let a = self.anchor();
        self.out.push_str(&a);
        let map = self.rng.one_in(2);
        self.out.push(if map { '{' } else { '[' });
        let n = self.rng.small(5);
        for i in 0..n {
            if i > 0 {
                self.out
                    .push_str(if self.rng.one_in(10) { ",\n" } else { ", " });
            }
            if map {
                let k = self.key();
                self.out.push_str(&k);
                self.out
                    .push_str(if self.rng.one_in(15) { ":" } else { ": " });
            }
            self.flow(depth - 1);
        }
        if self.rng.one_in(12) {
            self.out.push(',');
        }
        if !self.rng.one_in(60) {
            self.out.push(if map { '}' } else { ']' });
        }
    }

    /// A value after `key:` or `- `: inline, or a nested block on the next lines.
    fn value(&mut self, indent: usize, depth: usize) {
        self.nodes += 1;
        let nested = depth > 0 && self.nodes < 400;
        match self.rng.below(10) {
            0..=1 if nested => {
                let a = self.anchor();
                self.out.push(' ');
                self.out.push_str(a.trim_end());
                self.out.push('\n');
                let step = self.step();
                self.block_map(indent + step, depth - 1);
            }
            2 if nested => {
                let a = self.anchor();
                self.out.push(' ');
                self.out.push_str(a.trim_end());
                self.out.push('\n');
                // Sequences may sit at the mapping's own indentation.
                let step = if self.rng.one_in(2) { 0 } else { self.step() };
                self.block_seq(indent + step, depth - 1);
            }
            3 => {
                self.out.push(' ');
                self.flow(depth.min(4));
                self.out.push('\n');
            }
            4 => {
                let header = self
                    .rng
                    .pick(&["|", "|-", "|+", ">", ">-", ">+", "|2", ">1", "|9", "|-1"])
                    .to_string();
                self.out.push(' ');
                self.out.push_str(&header);
                self.out.push('\n');
                let step = self.step();
                for _ in 0..self.rng.range(0, 4) {
                    let extra = if self.rng.one_in(5) { 2 } else { 0 };
                    self.indent(indent + step + extra);
                    let line = self.rng.pick(PLAIN).to_string();
                    self.out.push_str(&line);
                    self.out.push('\n');
                }
            }
            _ => {
                let a = self.anchor();
                let s = self.scalar();
                self.out.push(' ');
                self.out.push_str(&a);
                self.out.push_str(&s);
                self.out.push('\n');
            }
        }
    }

    fn block_map(&mut self, indent: usize, depth: usize) {
        let n = 1 + self.rng.small(6);
        for _ in 0..n {
            self.indent(indent);
            if self.rng.one_in(12) && !self.anchors.is_empty() {
                // A merge key.
                let a = self.rng.pick(&self.anchors).clone();
                let b = self.rng.pick(&self.anchors).clone();
                let m = if self.rng.one_in(2) {
                    format!("<<: *{a}\n")
                } else {
                    format!("<<: [*{a}, *{b}]\n")
                };
                self.out.push_str(&m);
                continue;
            }
            let k = self.key();
            if let Some(rest) = k.strip_prefix("? ") {
                self.out.push_str("? ");
                self.out.push_str(rest);
                self.out.push('\n');
                self.indent(indent);
                self.out.push(':');
            } else {
                self.out.push_str(&k);
                self.out.push(':');
            }
            self.value(indent, depth);
        }
    }

    fn block_seq(&mut self, indent: usize, depth: usize) {
        let n = 1 + self.rng.small(5);
        for _ in 0..n {
            self.indent(indent);
            self.out.push('-');
            if depth > 0 && self.rng.one_in(5) {
                // A mapping inside the item, on the same line.
                self.out.push(' ');
                let k = self.key();
                self.out.push_str(&k);
                self.out.push(':');
                self.value(indent + 2, depth - 1);
            } else {
                self.value(indent, depth);
            }
        }
    }
}
