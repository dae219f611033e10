//! YAML as Psych reads it: the table of documents recorded from Ruby 3.1 /
//! Psych 4.0.3 / libyaml 0.2.5 (`tests/psych/cases.json`: pairs of the
//! document and what `Psych.safe_load(yaml, permitted_classes: [Symbol],
//! aliases: true)` returned, written as [`canon`] writes values, errors as
//! `E:` and the message without `(<unknown>): `), and the loader's own
//! behaviours and limits.

use hiera::yaml::{load, YamlOptions, MAX_DEPTH};
use hiera::{ErrorKind, Value};
use std::path::Path;

/// A value as text: `nil`, `true`, `i:12`, `f:<IEEE bits in hex>`,
/// `s:text`, `b:<hex>` (bytes), `y:symbol`, `[..]`, `{k=>v,..}`; non-ASCII
/// as `\u{..}`. The Ruby side of the recorded table printed the same.
fn canon(v: &Value) -> String {
    fn esc(s: &str) -> String {
        let mut out = String::new();
        for c in s.chars() {
            if c == '"' || c == '\\' {
                out.push('\\');
                out.push(c);
            } else if (' '..='~').contains(&c) {
                out.push(c);
            } else {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
        }
        out
    }
    match v {
        Value::Nil => "nil".into(),
        Value::Bool(b) => b.to_string(),
        Value::Int(i) => format!("i:{}", i),
        Value::BigInt(s) => format!("i:{}", s),
        Value::Float(f) => format!("f:{:016x}", f.to_bits()),
        Value::Symbol(s) => format!("y:{}", esc(s)),
        Value::String(s) => format!("s:{}", esc(s)),
        Value::Bytes(b) => format!(
            "b:{}",
            b.iter().map(|x| format!("{:02x}", x)).collect::<String>()
        ),
        Value::Array(a) => format!("[{}]", a.iter().map(canon).collect::<Vec<_>>().join(",")),
        Value::Hash(h) => {
            format!(
                "{{{}}}",
                h.iter()
                    .map(|(k, v)| format!("{}=>{}", canon(k), canon(v)))
                    .collect::<Vec<_>>()
                    .join(",")
            )
        }
        other => format!("?:{:?}", other),
    }
}

fn run_with(src: &str, opts: &YamlOptions) -> String {
    match load(src, opts) {
        Ok(None) => "nil".into(),
        Ok(Some(v)) => canon(&v),
        Err(e) => format!("E:{}", e.message),
    }
}

fn run(src: &str) -> String {
    run_with(src, &YamlOptions::default())
}

#[test]
fn aliases_disabled_fail_like_psych_4_load() {
    // Psych.safe_load(..., aliases: false) and Psych 4's YAML.load say this.
    let opts = YamlOptions {
        aliases: false,
        ..Default::default()
    };
    assert_eq!(
        run_with("a: &x 1\nb: *x\nc: *y\n", &opts),
        "E:Unknown alias: x"
    );
    assert_eq!(
        run_with("a: &x [1]\nb: 2\n", &opts),
        "{s:a=>[i:1],s:b=>i:2}"
    );
    let e = load("a: &x 1\nb: *x\n", &opts).unwrap_err();
    assert!(!e.has_path());
}

#[test]
fn alias_expansion_is_limited() {
    // Psych has no limit; a billion laughs must not expand without bound.
    let mut src = String::from("a0: &a0 [x, x, x, x, x, x, x, x, x, x]\n");
    for i in 1..10 {
        src.push_str(&format!(
            "a{}: &a{} [{}]\n",
            i,
            i,
            vec![format!("*a{}", i - 1); 10].join(", ")
        ));
    }
    let e = load(&src, &YamlOptions::default()).unwrap_err();
    assert!(e.message.starts_with("Too many aliases"), "{}", e.message);
    let small = YamlOptions {
        max_alias_expansion: 3,
        ..Default::default()
    };
    assert_eq!(
        run_with("a: &a [1, 2]\nb: *a\n", &small),
        "{s:a=>[i:1,i:2],s:b=>[i:1,i:2]}"
    );
    assert!(run_with("a: &a [1, 2]\nb: *a\nc: *a\n", &small).starts_with("E:Too many aliases"));
}

#[test]
fn deep_nesting_is_an_error_not_a_crash() {
    let flow = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
    assert!(run(&flow).starts_with("E:stack level too deep"));
    let block = format!("{}x\n", "- ".repeat(100_000));
    assert!(run(&block).starts_with("E:stack level too deep"));
    let mut map = String::new();
    for i in 0..(MAX_DEPTH + 5) {
        map.push_str(&" ".repeat(i));
        map.push_str("a:\n");
    }
    assert!(run(&map).starts_with("E:stack level too deep"));
    // Psych loads ~1,300 nested sequences; so does this.
    let ok = format!("{}x\n", "- ".repeat(1_300));
    assert!(load(&ok, &YamlOptions::default()).unwrap().is_some());
}

#[test]
fn empty_and_multiple_documents() {
    for src in [
        "",
        "\n\n",
        "# c\n",
        "---\n",
        "--- ~\n",
        "~\n",
        "null\n",
        "---\n...\n",
    ] {
        assert_eq!(load(src, &YamlOptions::default()), Ok(None), "{:?}", src);
    }
    // Only the first document is read (Psych.safe_load).
    assert_eq!(run("--- a\n--- b\n"), "s:a");
    assert_eq!(run("a: 1\n---\n]]]\n"), "{s:a=>i:1}");
}

#[test]
fn byte_order_mark() {
    // Psych, given the text of a file read as plain UTF-8 (as Puppet reads
    // data files): the mark is skipped but counts as a column.
    assert_eq!(run("\u{feff}a: 1\n"), "{s:a=>i:1}");
    assert_eq!(
        run("\u{feff}---\na: 1\n"),
        "E:mapping values are not allowed in this context at line 2 column 2"
    );
}

#[test]
fn values() {
    let v = load(
        "a: !!binary /w==\nb: 123456789012345678901234567890\nc: -0x8000000000000001\n",
        &YamlOptions::default(),
    )
    .unwrap()
    .unwrap();
    assert_eq!(v.get("a"), Some(&Value::Bytes(vec![0xff].into())));
    assert_eq!(
        v.get("b"),
        Some(&Value::BigInt("123456789012345678901234567890".into()))
    );
    assert_eq!(
        v.get("c"),
        Some(&Value::BigInt("-9223372036854775809".into()))
    );
}

#[test]
fn errors_as_puppet_reports_them() {
    let path = Path::new("/x/y.yaml");
    let e = load("a: [1, 2\n", &YamlOptions::default()).unwrap_err();
    assert_eq!(e.line, Some(1));
    let err = e.to_error(path);
    assert_eq!(
        err.message,
        "Unable to parse (/x/y.yaml): did not find expected ',' or ']' while parsing a flow sequence at line 1 column 4"
    );
    assert_eq!(err.kind, ErrorKind::Parse);
    let e = load("x: 1\na: 2001-01-01\n", &YamlOptions::default()).unwrap_err();
    assert_eq!(e.line, Some(2));
    assert_eq!(
        e.to_error(path).message,
        "Unable to parse (/x/y.yaml): Tried to load unspecified class: Date"
    );
    let e = load("a: !!float x\n", &YamlOptions::default()).unwrap_err();
    assert_eq!(
        e.to_error(path).message,
        "Unable to parse invalid value for Float(): \"x\""
    );
}

#[test]
fn many_tabs_after_colons_parse_quickly() {
    let src: String = (0..5_000)
        .map(|i| format!("key{}:\tvalue{}\n", i, i))
        .collect();
    let t = std::time::Instant::now();
    let v = load(&src, &YamlOptions::default()).unwrap().unwrap();
    assert_eq!(v.as_hash().unwrap().len(), 5_000);
    assert_eq!(v.get("key42"), Some(&Value::string("value42")));
    assert!(t.elapsed().as_secs() < 20);
}

#[test]
fn known_differences() {
    // Psych builds a recursive structure here, which no Value can be.
    assert!(run("&a [1, *a]\n").starts_with("E:Recursive alias not supported"));
    // libyaml takes U+2028 for a line break (and fails); saphyr does not.
    assert_eq!(run("a: x\u{2028}y\n"), "{s:a=>s:x\\u{2028}y}");
}

#[test]
fn repairs_are_bounded() {
    // Found by the soak runner: each repair re-parses the document, and a
    // mutated 1 MiB file needed about 9,600 of them (544 s).
    let dashes = format!("k: [{}]\n", "-, ".repeat(20_000));
    let v = load(&dashes, &YamlOptions::default()).unwrap().unwrap();
    let k = v.get("k").unwrap().as_array().unwrap();
    assert_eq!(k.len(), 20_000);
    assert!(k.iter().all(|x| x.as_str() == Some("-")));
    let quoted: String = (0..200).map(|i| format!("k{i}: \"a\nb\"\n")).collect();
    let v = load(&quoted, &YamlOptions::default()).unwrap().unwrap();
    assert_eq!(v.get("k199"), Some(&Value::from("a b")));
    let many: String = (0..20_000).map(|i| format!("k{i}: \"a\nb\"\n")).collect();
    let e = load(&many, &YamlOptions::default()).unwrap_err();
    assert!(
        e.to_string()
            .starts_with("document too complex to parse (it needs more than 31 repairs"),
        "{e}"
    );
    // Found by the soak runner: each of 1,677 repairs of an 87 KB document
    // (lines under a deep flow mapping) took 12 ms.
    let mut flow = format!("k:\n  {}\n", "{a: ".repeat(150));
    flow.push_str(&"k7: \n   \n".repeat(9_000));
    let e = load(&flow, &YamlOptions::default()).unwrap_err();
    assert!(
        e.to_string().starts_with("document too complex to parse"),
        "{e}"
    );
}

#[test]
fn results_match_psych() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/psych/cases.json");
    let table: Vec<(String, String)> =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    assert!(table.len() > 800, "{path} holds {} cases", table.len());
    let mut wrong = Vec::new();
    for (src, want) in &table {
        let got = run(src);
        if got != *want {
            wrong.push(format!("{src:?}\n  psych: {want}\n  here:  {got}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} differ:\n{}",
        wrong.len(),
        table.len(),
        wrong.join("\n")
    );
}
