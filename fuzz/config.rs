//! The `config` target: hiera.yaml files of versions 3, 4 and 5, valid-ish
//! and not (unknown keys, wrong types, odd paths and globs, interpolation
//! everywhere), parsed for every layer, loaded as a Hiera 3 configuration,
//! then used for lookups.

use crate::input::Input;
use crate::mutator::mutate;
use crate::repo::Builder;
use crate::rng::Rng;
use crate::session;
use crate::targets::Verdict;
use crate::tree::Node;
use hiera::hiera5::config::{HieraConfig, LayerKind};
use std::path::Path;

/// Generates a hiera.yaml (and a little data to look up through it).
pub fn generate(rng: &mut Rng) -> Input {
    let mut b = Builder::new(rng);
    let cfg = match b.rng.below(4) {
        0 => v3(&mut b),
        1 => v4(&mut b),
        _ => v5(&mut b),
    };
    let mut text = cfg.to_yaml().into_bytes();
    let mut note = "generated hiera.yaml".to_string();
    if b.rng.one_in(4) {
        let donor = crate::corpus::pick_file(b.rng, "yaml");
        mutate(b.rng, &mut text, &donor);
        note.push_str(", mutated");
    }
    b.input.add("hiera.yaml", text);
    for f in [
        "data/common.yaml",
        "data/Debian.yaml",
        "data/nodes/db01.yaml",
        "other/common.yaml",
        "data/common.json",
    ] {
        let json = f.ends_with(".json");
        let data = Node::map([
            ("k0", b.value(2)),
            ("k1", b.value(1)),
            ("prof::a", b.value(1)),
        ]);
        b.input
            .add(f, if json { data.to_json() } else { data.to_yaml() });
    }
    b.requests(3);
    b.input.note = note;
    b.input
}

/// A value for a path-like field: paths, globs, interpolation, junk.
fn path(b: &mut Builder) -> Node {
    match b.rng.below(12) {
        0 => Node::s(format!("{}.yaml", b.token())),
        1 => Node::s("{a,b,{c,d{e,f}}}/**/*.yaml".repeat(b.rng.range(1, 4))),
        2 => Node::Seq(vec![Node::s("common.yaml"), Node::Int(1)]),
        3 => Node::Int(7),
        4 => Node::Null,
        5 => Node::s(b.rng.word(&[
            "",
            "/",
            "/abs/common.yaml",
            "../common.yaml",
            "a//b.yaml",
            "%{facts.os.family}",
            "[a-",
        ])),
        6 => Node::s("nodes/%{trusted.certname}.yaml"),
        _ => Node::s(b.rng.word(&[
            "common.yaml",
            "common",
            "%{facts.os.family}.yaml",
            "*.yaml",
            "**/*.yaml",
        ])),
    }
}

/// A random extra entry, maybe an unknown or mistyped key.
fn junk(b: &mut Builder) -> (String, Node) {
    let k = b.rng.word(&[
        "bogus",
        "options",
        "datadir",
        "name",
        "uri",
        "uris",
        "lookup_key",
        "data_dig",
        "hiera3_backend",
        "v4_data_hash",
        "plan_hierarchy",
    ]);
    let v = match b.rng.below(4) {
        0 => Node::Null,
        1 => Node::Int(1),
        2 => Node::map([("path", Node::s("x"))]),
        _ => Node::s(
            b.rng
                .word(&["x", "", "eyaml_lookup_key", "data", "%{::role}"]),
        ),
    };
    (k.to_string(), v)
}

fn v5_entry(b: &mut Builder, i: usize) -> Node {
    let mut m = Vec::new();
    if !b.rng.one_in(15) {
        m.push((
            "name".to_string(),
            if b.rng.one_in(20) {
                Node::s("dup")
            } else {
                Node::s(format!("level {i}"))
            },
        ));
    }
    let loc = b.rng.word(&[
        "path",
        "paths",
        "glob",
        "globs",
        "mapped_paths",
        "uri",
        "uris",
        "",
        "path",
    ]);
    let v = match loc {
        "paths" | "globs" | "uris" => Node::Seq((0..b.rng.small(3)).map(|_| path(b)).collect()),
        "mapped_paths" => Node::Seq(
            vec![Node::s("facts.list"), Node::s("item"), path(b)]
                .into_iter()
                .take(b.rng.range(0, 4))
                .collect(),
        ),
        _ => path(b),
    };
    if !loc.is_empty() {
        m.push((loc.to_string(), v));
    }
    if b.rng.one_in(2) {
        let f = b.rng.word(&[
            "data_hash",
            "data_hash",
            "lookup_key",
            "data_dig",
            "hiera3_backend",
        ]);
        let name = b.rng.word(&[
            "yaml_data",
            "json_data",
            "hocon_data",
            "eyaml_lookup_key",
            "nope",
            "",
        ]);
        m.push((f.to_string(), Node::s(name)));
    }
    if b.rng.one_in(3) {
        m.push(("datadir".into(), path(b)));
    }
    if b.rng.one_in(8) {
        m.push((
            "options".into(),
            Node::map([(b.rng.word(&["path", "x", "datadir"]), Node::s("y"))]),
        ));
    }
    if b.rng.one_in(8) {
        m.push(junk(b));
    }
    Node::Map(m)
}

fn v5(b: &mut Builder) -> Node {
    let mut m = vec![(
        "version".to_string(),
        b.rng
            .pick(&[
                Node::Int(5),
                Node::Int(5),
                Node::Int(5),
                Node::s("5"),
                Node::Float(5.0),
                Node::Int(6),
                Node::Null,
            ])
            .clone(),
    )];
    if b.rng.one_in(3) {
        let mut d = vec![("datadir".to_string(), path(b))];
        if b.rng.one_in(2) {
            d.push((
                "data_hash".into(),
                Node::s(b.rng.word(&["yaml_data", "json_data", "bogus"])),
            ));
        }
        if b.rng.one_in(6) {
            d.push(junk(b));
        }
        m.push(("defaults".into(), Node::Map(d)));
    }
    let n = b.rng.small(6);
    let entries = (0..n).map(|i| v5_entry(b, i)).collect();
    m.push((
        "hierarchy".into(),
        if b.rng.one_in(20) {
            Node::s("not a list")
        } else {
            Node::Seq(entries)
        },
    ));
    if b.rng.one_in(6) {
        let e = v5_entry(b, 99);
        m.push(("default_hierarchy".into(), Node::Seq(vec![e])));
    }
    if b.rng.one_in(10) {
        m.push(junk(b));
    }
    Node::Map(m)
}

fn v4(b: &mut Builder) -> Node {
    let n = b.rng.small(4);
    let entries = (0..n)
        .map(|i| {
            let mut e = vec![
                ("name".to_string(), Node::s(format!("l{i}"))),
                (
                    "backend".to_string(),
                    Node::s(b.rng.word(&["yaml", "json", "hocon", ""])),
                ),
            ];
            let p = path(b);
            e.push((b.rng.pick(&["path", "paths", "datadir"]).to_string(), p));
            if b.rng.one_in(6) {
                e.push(junk(b));
            }
            Node::Map(e)
        })
        .collect();
    Node::map([
        ("version", Node::Int(4)),
        ("datadir", path(b)),
        ("hierarchy", Node::Seq(entries)),
    ])
}

fn v3(b: &mut Builder) -> Node {
    let backends = match b.rng.below(4) {
        0 => Node::s("yaml"),
        1 => Node::Seq(vec![Node::s("json"), Node::s("yaml")]),
        2 => Node::Seq(vec![Node::s("bogus")]),
        _ => Node::Seq(vec![Node::s("yaml")]),
    };
    let hierarchy = Node::Seq((0..b.rng.small(4)).map(|_| path(b)).collect());
    let mut m = vec![
        (":backends".to_string(), backends),
        (":hierarchy".to_string(), hierarchy),
    ];
    m.push((":yaml".into(), Node::map([(":datadir", path(b))])));
    if b.rng.one_in(2) {
        m.push((":json".into(), Node::map([(":datadir", path(b))])));
    }
    if b.rng.one_in(2) {
        m.push((
            ":merge_behavior".into(),
            Node::s(b.rng.word(&["native", "deep", "deeper", "bogus"])),
        ));
    }
    if b.rng.one_in(3) {
        m.push((
            ":deep_merge_options".into(),
            Node::map([
                (":knockout_prefix", Node::s("--")),
                (":sort_merged_arrays", Node::Bool(true)),
            ]),
        ));
    }
    if b.rng.one_in(4) {
        m.push((
            "version".into(),
            b.rng
                .pick(&[Node::Int(3), Node::s("3"), Node::Null])
                .clone(),
        ));
    }
    if b.rng.one_in(6) {
        m.push((":logger".into(), Node::s("console")));
    }
    Node::Map(m)
}

/// Parses the file for every layer, as Hiera 3, then looks up through it.
pub fn run(input: &Input, dir: &Path) -> Verdict {
    let text = String::from_utf8_lossy(input.file("hiera.yaml").unwrap_or_default()).into_owned();
    let path = dir.join("hiera.yaml");
    for layer in [LayerKind::Global, LayerKind::Environment, LayerKind::Module] {
        let _ = HieraConfig::parse(&text, &path, layer);
    }
    session::run(input, dir);
    let _ = hiera::hiera3::Config::load(&path, Some(dir));
    if let Ok(h) = hiera::hiera3::Hiera3::open(&path, Some(dir)) {
        let scope = hiera::Value::hash(session::scope(input));
        for key in ["k0", "k1", "prof::a", "nope"] {
            let _ = h.lookup(
                key,
                None,
                &scope,
                None,
                &hiera::hiera3::ResolutionType::Priority,
            );
        }
    }
    Verdict::Ok
}
