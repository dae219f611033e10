//! The `repo` target: well-formed control repos (a v5 global layer, an
//! environment layer, module layers; path, paths, glob, globs and
//! mapped_paths levels; yaml_data and json_data; lookup_options with every
//! merge, knockout prefixes, `^regexp` keys and convert_to) and random
//! lookups with every merge strategy, defaults and explanations.
//!
//! [`Builder`] is shared with the interpolation, config and request
//! targets. A repo's input holds `hiera.yaml`, `data/`, `environments/`,
//! `scope.json` and `requests.jsonl` (one C ABI request per line).

use crate::hostile;
use crate::input::Input;
use crate::rng::Rng;
use crate::tree::Node;

/// The module of the module layer.
pub const MODULE: &str = "mod1";

/// A scope: certname, os family, role, list items.
struct Scope {
    certname: &'static str,
    family: &'static str,
    role: &'static str,
    items: Vec<&'static str>,
}

/// Builds a repo into an [`Input`].
pub struct Builder<'r> {
    /// The random source.
    pub rng: &'r mut Rng,
    /// The input being built.
    pub input: Input,
    /// Keys that data defines (and requests ask for).
    pub keys: Vec<String>,
    /// When set, data strings are full of `%{...}` tokens.
    pub interpolation_heavy: bool,
    scope: Scope,
}

impl<'r> Builder<'r> {
    /// A builder with a random scope, written to `scope.json`.
    pub fn new(rng: &'r mut Rng) -> Builder<'r> {
        let scope = Scope {
            certname: rng.word(&["web01.example.com", "db01", "", "a/b", "..", "x%{y}"]),
            family: rng.word(&["Debian", "RedHat", "", "Debian/../x"]),
            role: rng.word(&["web", "db", "role with space", "ключ"]),
            items: (0..rng.small(3)).map(|i| ["a", "b", "c"][i]).collect(),
        };
        let keys = [
            "k0", "k1", "k2", "k3", "prof::a", "prof::b", "h", "arr", "mod1::x", "mod1::y",
        ]
        .iter()
        .map(|k| k.to_string())
        .collect();
        let mut b = Builder {
            rng,
            input: Input::default(),
            keys,
            interpolation_heavy: false,
            scope,
        };
        let scope = b.scope_node();
        b.input.add("scope.json", scope.to_json());
        b
    }

    fn scope_node(&mut self) -> Node {
        let s = &self.scope;
        let os = Node::map([
            ("family", Node::s(s.family)),
            ("release", Node::map([("major", Node::s("12"))])),
        ]);
        let items = Node::Seq(s.items.iter().map(|i| Node::s(*i)).collect());
        let facts = Node::map([
            ("os", os),
            ("role", Node::s(s.role)),
            ("list", items.clone()),
            ("count", Node::Int(3)),
            ("flag", Node::Bool(true)),
            ("nothing", Node::Null),
        ]);
        let trusted = Node::map([
            ("certname", Node::s(s.certname)),
            ("authenticated", Node::s("remote")),
            ("extensions", Node::map([("pp_role", Node::s(s.role))])),
        ]);
        Node::map([
            ("facts", facts),
            ("trusted", trusted),
            ("role", Node::s(s.role)),
            ("list", items),
            ("environment", Node::s("production")),
            ("empty", Node::s("")),
        ])
    }

    /// A random interpolation token, mostly meaningful.
    pub fn token(&mut self) -> String {
        let k = self.rng.pick(&self.keys).clone();
        let body = match self.rng.below(22) {
            0..=3 => format!("lookup('{k}')"),
            4 => format!("lookup(\"{k}.0\")"),
            5 => format!("lookup('{k}.a.b')"),
            6 => format!("hiera('{k}')"),
            7 | 8 => format!("alias('{k}')"),
            9 => format!("literal('{}')", self.rng.pick(&["%", "%{x}", "", "'"])),
            10 => format!(
                "scope('{}')",
                self.rng
                    .pick(&["role", "facts", "trusted.certname", "nope"])
            ),
            11 => (self.rng.word(&[
                "role",
                "::role",
                "facts.os.family",
                "trusted.certname",
                "facts.list.0",
                "facts.list.9",
            ]))
            .into(),
            12 => (self.rng.word(&[
                "facts.os",
                "facts",
                "empty",
                "undefined_var",
                "::",
                "facts.os.release.major",
            ]))
            .into(),
            13 => (self.rng.word(&[
                "",
                " ",
                "lookup()",
                "lookup('a', 'b')",
                "unknown('x')",
                "lookup(k0)",
                "lookup('')",
            ]))
            .into(),
            14 => format!(" lookup( '{k}' ) "),
            15 => format!(
                "lookup('%{{{}}}')",
                self.rng.pick(&["role", "facts.os.family"])
            ),
            16 => format!("'{k}'"),
            17 => format!("\"{k}\""),
            18 => format!("facts.\"os\".family{}", self.rng.pick(&["", ".x", "."])),
            19 => format!("{k}.0"),
            20 => (self.rng.word(&[
                "lookup('k0'",
                "alias('k1')x",
                "literal(%)",
                "scope(\"role\")",
            ]))
            .into(),
            _ => format!("lookup('{k}')"),
        };
        match self.rng.below(30) {
            0 => format!("%{{{body}"),
            1 => format!("%%{{{body}}}"),
            2 => format!("\\%{{{body}}}"),
            _ => format!("%{{{body}}}"),
        }
    }

    /// A string, with `%{...}` tokens often in heavy mode.
    fn string(&mut self) -> String {
        let heavy = self.interpolation_heavy;
        if !heavy && !self.rng.one_in(6) {
            return (self.rng.word(&[
                "v", "value", "--v", "--", "x y", "ключ", "", "1", "true", "a.b",
            ]))
            .into();
        }
        let mut s = String::new();
        for _ in 0..self.rng.range(1, if heavy { 4 } else { 2 }) {
            if self.rng.one_in(3) {
                s.push_str(self.rng.word(&["pre-", "-", " ", "x", "%", "}"]));
            }
            let t = self.token();
            s.push_str(&t);
        }
        s
    }

    /// A random data value of at most `depth` levels.
    pub fn value(&mut self, depth: usize) -> Node {
        let leaf = depth == 0;
        match self.rng.below(if leaf { 6 } else { 10 }) {
            0..=2 => Node::Str(self.string()),
            3 => Node::Int(*self.rng.pick(&[0, 1, -1, 42, i64::MAX, i64::MIN])),
            4 => self
                .rng
                .pick(&[
                    Node::Bool(true),
                    Node::Bool(false),
                    Node::Null,
                    Node::Float(1.5),
                    Node::Float(-0.0),
                ])
                .clone(),
            5 => Node::s(format!("--{}", self.rng.pick(&["a", "b", "k0", ""]))),
            6 | 7 => {
                let n = self.rng.small(4);
                Node::Seq((0..n).map(|_| self.value(depth - 1)).collect())
            }
            _ => {
                let n = self.rng.small(4);
                Node::Map(
                    (0..n)
                        .map(|_| {
                            let k = (self
                                .rng
                                .word(&["a", "b", "c", "--a", "--b", "0", "x.y", "k0"]))
                            .to_string();
                            (k, self.value(depth - 1))
                        })
                        .collect(),
                )
            }
        }
    }

    /// A merge: a strategy name, a hash with options, or something invalid.
    pub fn merge(&mut self) -> Node {
        match self.rng.below(10) {
            0 => Node::s("first"),
            1 => Node::s("unique"),
            2 => Node::s("hash"),
            3 => Node::s("deep"),
            4 | 5 => {
                let mut m = vec![(
                    "strategy".to_string(),
                    Node::s(self.rng.word(&["deep", "hash", "unique", "first"])),
                )];
                if self.rng.one_in(2) {
                    m.push((
                        "knockout_prefix".into(),
                        Node::s(self.rng.word(&["--", "-", "", "x"])),
                    ));
                }
                for opt in [
                    "merge_hash_arrays",
                    "sort_merged_arrays",
                    "preserve_unmergeables",
                    "unpack_arrays",
                ] {
                    if self.rng.one_in(3) {
                        m.push((opt.into(), Node::Bool(self.rng.one_in(2))));
                    }
                }
                Node::Map(m)
            }
            6 => Node::map([("strategy", Node::s("bogus"))]),
            7 => Node::s(self.rng.word(&["Deep", "native", "deeper", ""])),
            8 => Node::Int(5),
            _ => Node::Null,
        }
    }

    /// lookup_options for a layer whose keys are `keys`.
    fn lookup_options(&mut self, keys: &[String]) -> Node {
        let mut m = Vec::new();
        for _ in 0..self.rng.small(5) {
            let k = match self.rng.below(5) {
                0 => format!(
                    "^{}",
                    self.rng.pick(&[
                        "prof::.*",
                        "k[0-9]",
                        "mod1::.*",
                        "(",
                        "k\\d+$",
                        "[[:alpha:]]+"
                    ])
                ),
                _ => self.rng.pick(keys).clone(),
            };
            let opts = match self.rng.below(8) {
                0 => Node::map([(
                    "convert_to",
                    Node::s(self.rng.word(&[
                        "Sensitive",
                        "Array",
                        "Hash",
                        "String",
                        "Boolean",
                        "Integer",
                    ])),
                )]),
                1 => Node::map([(
                    "convert_to",
                    Node::Seq(vec![
                        Node::s(self.rng.word(&["Array", "Hash", "SemVer", "Timestamp"])),
                        Node::Bool(true),
                    ]),
                )]),
                2 => Node::map([("merge", Node::s("bogus"))]),
                3 => Node::s("not a hash"),
                _ => Node::map([("merge", self.merge())]),
            };
            m.push((k, opts));
        }
        Node::Map(m)
    }

    /// A data file's content for the given keys (YAML or JSON).
    fn data_file(&mut self, keys: &[String], json: bool) -> Vec<u8> {
        let mut m = Vec::new();
        for _ in 0..self.rng.range(1, 8) {
            let k = self.rng.pick(keys).clone();
            let depth = self.rng.range(0, 4);
            m.push((k, self.value(depth)));
        }
        if self.rng.one_in(4) {
            m.push(("lookup_options".into(), self.lookup_options(keys)));
        }
        let node = Node::Map(m);
        if json {
            node.to_json().into_bytes()
        } else {
            node.to_yaml().into_bytes()
        }
    }

    /// A hierarchy level: its hiera.yaml entry, and the data files (without
    /// extension, relative to the datadir) it may read.
    fn level(&mut self, i: usize) -> (Node, Vec<String>) {
        let s = &self.scope;
        let (key, template, files): (&str, Node, Vec<String>) = match self.rng.below(9) {
            0 => (
                "path",
                Node::s("nodes/%{trusted.certname}.EXT"),
                vec![format!("nodes/{}", s.certname)],
            ),
            1 => (
                "path",
                Node::s("os/%{facts.os.family}.EXT"),
                vec![format!("os/{}", s.family)],
            ),
            2 => (
                "path",
                Node::s("role/%{::role}.EXT"),
                vec![format!("role/{}", s.role)],
            ),
            3 => (
                "paths",
                Node::Seq(vec![
                    Node::s("role/%{facts.role}.EXT"),
                    Node::s("%{facts.nothing}/x.EXT"),
                    Node::s("common.EXT"),
                ]),
                vec![format!("role/{}", s.role), "common".into()],
            ),
            4 => (
                "glob",
                Node::s("groups/*.EXT"),
                vec!["groups/a".into(), "groups/b".into()],
            ),
            5 => (
                "globs",
                Node::Seq(vec![
                    Node::s("groups/{a,b}*.EXT"),
                    Node::s("**/common.EXT"),
                    Node::s("["),
                ]),
                vec!["groups/a".into(), "deep/er/common".into()],
            ),
            6 => (
                "mapped_paths",
                Node::Seq(vec![
                    Node::s("facts.list"),
                    Node::s("item"),
                    Node::s("list/%{item}.EXT"),
                ]),
                s.items.iter().map(|i| format!("list/{i}")).collect(),
            ),
            _ => ("path", Node::s("common.EXT"), vec!["common".into()]),
        };
        let json = self.rng.one_in(4);
        let ext = if json { "json" } else { "yaml" };
        let fix = |n: &Node| match n {
            Node::Str(t) => Node::s(t.replace("EXT", ext)),
            other => other.clone(),
        };
        let template = match &template {
            Node::Seq(v) => Node::Seq(v.iter().map(fix).collect()),
            other => fix(other),
        };
        let mut entry = vec![
            ("name".to_string(), Node::s(format!("level {i}"))),
            (key.to_string(), template),
        ];
        if json || self.rng.one_in(3) {
            entry.push((
                "data_hash".into(),
                Node::s(if json { "json_data" } else { "yaml_data" }),
            ));
        }
        if self.rng.one_in(10) {
            entry.push(("options".into(), Node::map([("opt", Node::s("x"))])));
        }
        (
            Node::Map(entry),
            files.into_iter().map(|f| format!("{f}.{ext}")).collect(),
        )
    }

    /// A layer: `hiera.yaml` at `root` and data under `root/data` for `keys`.
    pub fn layer(&mut self, root: &str, keys: &[String]) {
        let mut hierarchy = Vec::new();
        let levels = self.rng.range(1, 5);
        for i in 0..levels {
            let (entry, files) = self.level(i);
            hierarchy.push(entry);
            for f in files {
                if !self.rng.one_in(5) {
                    let content = self.data_file(keys, f.ends_with(".json"));
                    self.input.add(format!("{root}data/{f}"), content);
                }
            }
        }
        let mut cfg = vec![("version".to_string(), Node::Int(5))];
        if self.rng.one_in(3) {
            cfg.push((
                "defaults".into(),
                Node::map([
                    ("datadir", Node::s("data")),
                    ("data_hash", Node::s("yaml_data")),
                ]),
            ));
        }
        cfg.push(("hierarchy".into(), Node::Seq(hierarchy)));
        self.input
            .add(format!("{root}hiera.yaml"), Node::Map(cfg).to_yaml());
    }

    /// The global, environment and module layers.
    pub fn layers(&mut self) {
        let plain: Vec<String> = self
            .keys
            .iter()
            .filter(|k| !k.starts_with("mod1::"))
            .cloned()
            .collect();
        let module: Vec<String> = self
            .keys
            .iter()
            .filter(|k| k.starts_with("mod1::"))
            .cloned()
            .collect();
        self.layer("", &plain);
        if self.rng.one_in(2) {
            self.layer("environments/production/", &plain);
        }
        if self.rng.one_in(2) {
            self.layer(
                &format!("environments/production/modules/{MODULE}/"),
                &module,
            );
        }
    }

    /// A key to ask for: a data key, a dotted key into it, or an odd one.
    fn request_key(&mut self) -> String {
        let k = self.rng.pick(&self.keys).clone();
        match self.rng.below(10) {
            0 => format!("{k}.0"),
            1 => format!("{k}.a"),
            2 => format!("{k}.'a'.b"),
            3 => (self.rng.word(&[
                "lookup_options",
                "",
                "nope",
                "mod1::nope",
                "::k0",
                "k0.",
                ".k0",
                "k0..a",
                "\"k0\"",
            ]))
            .into(),
            _ => k,
        }
    }

    /// Adds `n` random requests to `requests.jsonl`.
    pub fn requests(&mut self, n: usize) {
        let mut lines = String::new();
        for _ in 0..n {
            let key = if self.rng.one_in(6) {
                Node::Seq(
                    (0..self.rng.range(1, 3))
                        .map(|_| Node::s(self.request_key()))
                        .collect(),
                )
            } else {
                Node::s(self.request_key())
            };
            let mut m = vec![("key".to_string(), key)];
            if self.rng.one_in(2) {
                m.push(("merge".into(), self.merge()));
            }
            if self.rng.one_in(4) {
                m.push(("default".into(), self.value(2)));
            }
            if self.rng.one_in(8) {
                let k = self.request_key();
                m.push((
                    "default_values_hash".into(),
                    Node::map([(k, self.value(1))]),
                ));
            }
            if self.rng.one_in(8) {
                let k = self.request_key();
                m.push(("override".into(), Node::map([(k, self.value(1))])));
            }
            if self.rng.one_in(3) {
                m.push(("explain".into(), Node::Bool(true)));
            }
            lines.push_str(&Node::Map(m).to_json());
            lines.push('\n');
        }
        self.input.add("requests.jsonl", lines);
    }

    /// Adds hostile data to the global layer's `data/common.yaml` (and
    /// `data/nodes/...` for deep merges), with a request for it; returns
    /// what it is.
    pub fn hostile(&mut self) -> String {
        let (data, key, note, merge) = if self.rng.one_in(2) {
            let depth = self.rng.range(1000, 1500);
            let a = hostile::deep_block("deep", depth, "leaf: a");
            let b = hostile::deep_block("deep", depth, "other: b");
            self.input
                .add(format!("data/nodes/{}.yaml", self.scope.certname), b);
            (
                a,
                "deep".to_string(),
                format!("hostile: two levels nested {depth} deep, deep-merged"),
                true,
            )
        } else {
            let (d, k, n) = hostile::interpolation_data(self.rng);
            (d, k, n, false)
        };
        let hierarchy = "version: 5\nhierarchy:\n  - name: nodes\n    path: nodes/%{trusted.certname}.yaml\n  - name: common\n    path: common.yaml\n";
        self.input.add("hiera.yaml", hierarchy);
        self.input.add("data/common.yaml", data);
        let merge = if merge { ",\"merge\":\"deep\"" } else { "" };
        self.input.add(
            "requests.jsonl",
            format!(
                "{{\"key\":\"{key}\"{merge}}}\n{{\"key\":\"{key}\",\"explain\":true{merge}}}\n"
            ),
        );
        note
    }
}

/// Generates a control repo and requests.
pub fn generate(rng: &mut Rng) -> Input {
    let mut b = Builder::new(rng);
    if b.rng.one_in(150) {
        let note = b.hostile();
        b.input.note = note;
        return b.input;
    }
    b.layers();
    let n = b.rng.range(1, 12);
    b.requests(n);
    b.input.note = "generated control repo".into();
    b.input
}
