//! `include/hiera.h` is what cbindgen makes of `src/ffi/` with
//! `cbindgen.toml`, and says what the contract says.
//!
//! After changing the C ABI, regenerate the header with
//! `cargo test --test header -- --ignored regenerate`.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn header_path() -> PathBuf {
    root().join("include/hiera.h")
}

fn generate() -> String {
    let config = cbindgen::Config::from_file(root().join("cbindgen.toml")).expect("cbindgen.toml");
    let bindings = cbindgen::Builder::new()
        .with_config(config)
        .with_src(root().join("src/ffi/mod.rs"))
        .generate()
        .expect("cbindgen generates the header");
    let mut out = Vec::new();
    bindings.write(&mut out);
    String::from_utf8(out).expect("the header is UTF-8")
}

#[test]
fn header_is_up_to_date() {
    let committed = std::fs::read_to_string(header_path()).expect("include/hiera.h exists");
    let fresh = generate();
    if committed != fresh {
        let line = committed
            .lines()
            .zip(fresh.lines())
            .position(|(a, b)| a != b)
            .map_or(0, |i| i + 1);
        panic!(
            "include/hiera.h is out of date (first difference near line {line}); \
             regenerate it with `cargo test --test header -- --ignored regenerate`"
        );
    }
}

#[test]
#[ignore = "writes include/hiera.h"]
fn regenerate() {
    std::fs::write(header_path(), generate()).unwrap();
}

#[test]
fn header_states_the_contract() {
    let h = std::fs::read_to_string(header_path()).unwrap();
    for want in [
        "#ifndef HIERA_H",
        "#define HIERA_H",
        "#ifdef __cplusplus\nextern \"C\" {",
        "typedef enum hiera_status {",
        "HIERA_OK = 0,",
        "HIERA_NOT_FOUND = 1,",
        "HIERA_ERROR = 2,",
        "HIERA_NULL_ARGUMENT = 3,",
        "HIERA_INVALID_ARGUMENT = 4,",
        "HIERA_PANIC = 5,",
        "} hiera_status;",
        "typedef struct hiera hiera;",
        "typedef struct hiera_session hiera_session;",
        "const char *hiera_version(void);",
        "uint32_t hiera_abi_version(void);",
        // cbindgen writes the tags in uses (`enum hiera_status`, `struct
        // hiera`): the same types as the typedef names of the contract.
        "enum hiera_status hiera_open(const char *options_json, struct hiera **out, char **error_json);",
        "void hiera_free(struct hiera *h);",
        "enum hiera_status hiera_session_new(const struct hiera *h,\n",
        "void hiera_session_free(struct hiera_session *s);",
        "enum hiera_status hiera_lookup(const struct hiera_session *s,\n",
        "enum hiera_status hiera_lookup_many(const struct hiera_session *s,\n",
        "enum hiera_status hiera_session_overlay(const struct hiera_session *parent,\n",
        "enum hiera_status hiera_lookup_keys(const struct hiera_session *s,\n",
        "enum hiera_status hiera_lookup_all(const struct hiera_session *s, char **result_json);",
        "void hiera_string_free(char *s);",
    ] {
        assert!(h.contains(want), "include/hiera.h lacks {want:?}");
    }
    // The version macros have the crate's values.
    for (name, value) in [
        ("HIERA_VERSION_MAJOR", env!("CARGO_PKG_VERSION_MAJOR")),
        ("HIERA_VERSION_MINOR", env!("CARGO_PKG_VERSION_MINOR")),
        ("HIERA_VERSION_PATCH", env!("CARGO_PKG_VERSION_PATCH")),
    ] {
        assert!(h.contains(&format!("#define {name} {value}\n")), "{name}");
    }
    // Every declaration has a doc comment right above it.
    let lines: Vec<&str> = h.lines().collect();
    for (i, l) in lines.iter().enumerate() {
        let declares = l.starts_with("enum hiera_status ")
            || l.starts_with("void hiera")
            || l.starts_with("const char *hiera")
            || l.starts_with("uint32_t ")
            || l.starts_with("typedef ")
            || l.starts_with("#define HIERA_");
        if declares && !l.starts_with("#define HIERA_H") {
            assert!(
                i > 0 && lines[i - 1].trim_end().ends_with("*/"),
                "no doc comment above {l:?}"
            );
        }
    }
    // Every documented function states threads and ownership or statuses.
    for name in [
        "hiera_open",
        "hiera_free",
        "hiera_session_new",
        "hiera_session_free",
        "hiera_lookup",
        "hiera_lookup_many",
        "hiera_session_overlay",
        "hiera_lookup_keys",
        "hiera_lookup_all",
        "hiera_string_free",
    ] {
        let at = h.find(&format!(" {name}(")).unwrap();
        let doc_start = h[..at].rfind("/*").unwrap();
        let doc = &h[doc_start..at];
        assert!(doc.contains("Threads:"), "{name}: no Threads: line");
        assert!(doc.contains("Ownership:"), "{name}: no Ownership: line");
    }
}

/// The error kinds the header lists, in order: the lines of its "Error
/// kinds" section (the bindings' tests read the same section).
fn header_kinds(h: &str) -> Vec<String> {
    let start = h
        .find(" * Error kinds (")
        .expect("the header has an Error kinds section");
    h[start..]
        .lines()
        .skip(2)
        .take_while(|l| l.trim() != "*")
        .filter_map(|l| l.strip_prefix(" *   "))
        .filter(|l| !l.starts_with(' '))
        .map(|l| l.split_whitespace().next().unwrap().to_string())
        .collect()
}

#[test]
fn header_lists_every_error_kind() {
    let h = std::fs::read_to_string(header_path()).unwrap();
    let rust: Vec<String> = hiera::ErrorKind::ALL
        .iter()
        .map(|k| k.as_str().to_string())
        .collect();
    assert_eq!(header_kinds(&h), rust);
}
