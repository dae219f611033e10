//! The `interpolation` target: a small repo whose data strings are full of
//! random `%{...}` tokens (`lookup()`, `hiera()`, `alias()`, `literal()`,
//! `scope()`, variables, facts, nested and dotted keys), so that keys chain
//! into each other and into cycles; lookups of every key.

use crate::hostile;
use crate::input::Input;
use crate::repo::Builder;
use crate::rng::Rng;
use crate::tree::Node;

/// Generates the repo and its requests.
pub fn generate(rng: &mut Rng) -> Input {
    let mut b = Builder::new(rng);
    b.interpolation_heavy = true;
    b.input
        .add("strict", b.rng.word(&["warning", "off", "error"]));
    if b.rng.one_in(100) {
        let (data, key, note) = hostile::interpolation_data(b.rng);
        b.input.add(
            "hiera.yaml",
            "version: 5\nhierarchy:\n  - name: common\n    path: common.yaml\n",
        );
        b.input.add("data/common.yaml", data);
        b.input.add(
            "requests.jsonl",
            format!("{{\"key\":\"{key}\"}}\n{{\"key\":\"{key}\",\"explain\":true}}\n"),
        );
        b.input.note = note;
        return b.input;
    }
    b.keys
        .extend(["dotted.key", "c0", "c1", "c2", "c3"].map(String::from));
    // Two levels: the second one's path is interpolated too.
    let second = if b.rng.one_in(3) {
        b.token()
    } else {
        "%{facts.os.family}".into()
    };
    let hiera = Node::map([
        ("version", Node::Int(5)),
        (
            "hierarchy",
            Node::Seq(vec![
                Node::map([
                    ("name", Node::s("by token")),
                    ("path", Node::s(format!("{second}.yaml"))),
                ]),
                Node::map([
                    ("name", Node::s("common")),
                    ("path", Node::s("common.yaml")),
                ]),
            ]),
        ),
    ]);
    b.input.add("hiera.yaml", hiera.to_yaml());
    for file in ["common", "Debian"] {
        let keys = b.keys.clone();
        let mut m = Vec::new();
        for k in keys {
            if file == "common" || b.rng.one_in(3) {
                let depth = b.rng.small(3);
                m.push((k, b.value(depth)));
            }
        }
        if b.rng.one_in(5) {
            let k = b.rng.pick(&b.keys).clone();
            m.push((
                "lookup_options".into(),
                Node::map([(k, Node::map([("merge", b.merge())]))]),
            ));
        }
        b.input
            .add(format!("data/{file}.yaml"), Node::Map(m).to_yaml());
    }
    let n = b.rng.range(2, 10);
    b.requests(n);
    b.input.note = "generated repo with interpolation".into();
    b.input
}
