//! The `request` target: the C ABI, called as a host would call it, with
//! generated and mutated options, scope and request JSON over a generated
//! repo: `hiera_open`, `hiera_session_new`, `hiera_lookup`,
//! `hiera_lookup_key`, `hiera_lookup_many`, `hiera_parse_data` and the
//! `hiera3_*` functions (with host callbacks), NULL arguments included.
//! Every returned string is freed with `hiera_string_free`; any
//! `HIERA_PANIC` is a finding.
//!
//! Files: the repo (see [`crate::repo`]), `options.json` (paths under the
//! placeholder [`DIR`]), `scope.json`, `requests.jsonl` (one request per
//! line, raw), `keys.txt` (one key per line, raw bytes), `many.json`, and
//! `calls/NN-FUNCTION/I`: argument I of a call (absent: NULL).

use crate::input::{Input, DIR};
use crate::mutator::mutate;
use crate::repo::Builder;
use crate::rng::Rng;
use crate::targets::Verdict;
use crate::tree::Node;
use hiera::ffi::hiera3::{
    hiera3_answer, hiera3_answer_error, hiera3_answer_seen, hiera3_answer_value,
    hiera3_datasources, hiera3_free, hiera3_host, hiera3_lookup, hiera3_merge_answer, hiera3_open,
    hiera3_parse_answer, hiera3_parse_string,
};
use hiera::ffi::session::{
    hiera_lookup, hiera_lookup_key, hiera_lookup_many, hiera_session_free, hiera_session_new,
};
use hiera::ffi::{
    data::hiera_parse_data, hiera::hiera_free, hiera::hiera_open, hiera_status,
    string::hiera_string_free,
};
use std::collections::BTreeMap;
use std::ffi::{c_char, c_void, CStr, CString};
use std::path::Path;
use std::ptr::{null, null_mut};

/// Wire JSON values for the hiera3 helpers.
const VALUES: &[&str] = &[
    "null",
    "1",
    "\"s\"",
    "[1,2]",
    "{\"a\":1}",
    "{\"a\":{\"b\":[1]}}",
    "[\"--a\",\"b\"]",
    "{\"--a\":null}",
    "{\"__type__\":\"Symbol\",\"value\":\"x\"}",
    "\"%{hiera('k')}\"",
    "\"%{alias('k')}\"",
    "\"%{scope('x')}%{::y}\"",
    "\"%{literal('%')}\"",
    "{\"k\":\"%{x}\"}",
    "[\"%{hiera('a')}\",{\"%{b}\":1}]",
    "\"%{\"",
    "\"%{calling_module}\"",
];

/// Resolution types for `hiera3_merge_answer`.
const RESOLUTIONS: &[&str] = &[
    "null", "\"priority\"", "\"array\"", "\"hash\"", "{\"__type__\":\"Symbol\",\"value\":\"hash\"}",
    "{\"__type__\":\"Hash\",\"entries\":[[{\"__type__\":\"Symbol\",\"value\":\"behavior\"},\"deeper\"],[{\"__type__\":\"Symbol\",\"value\":\"knockout_prefix\"},\"--\"]]}",
    "{\"behavior\":\"deep\"}", "5", "\"bogus\"",
];

/// Generates the repo, the JSON the host passes, and helper calls.
pub fn generate(rng: &mut Rng) -> Input {
    let mut b = Builder::new(rng);
    b.layers();
    let n = b.rng.range(1, 8);
    b.requests(n);
    let mut options = vec![
        (
            "hiera_config".to_string(),
            Node::s(format!("{DIR}/hiera.yaml")),
        ),
        (
            "environmentpath".to_string(),
            Node::s(format!("{DIR}/environments")),
        ),
    ];
    if b.rng.one_in(4) {
        options.push((
            "environment".into(),
            Node::s(b.rng.word(&["production", "bad name", "../x", "", "Prod"])),
        ));
    }
    if b.rng.one_in(3) {
        options.push((
            "strict".into(),
            Node::s(b.rng.word(&["off", "warning", "error", "bogus"])),
        ));
    }
    if b.rng.one_in(20) {
        options.push(("unknown".into(), Node::Int(1)));
    }
    let mut options = Node::Map(options).to_json().into_bytes();
    if b.rng.one_in(10) {
        mutate(b.rng, &mut options, b"{\"strict\":\"off\"}");
    }
    b.input.add("options.json", options);
    for name in ["scope.json", "requests.jsonl"] {
        if b.rng.one_in(5) {
            let mut bytes = b.input.file(name).unwrap_or_default().to_vec();
            mutate(b.rng, &mut bytes, b"{\"key\":\"k0\",\"merge\":\"deep\"}");
            b.input.add(name, bytes);
        }
    }
    let lines: Vec<String> = b
        .input
        .text("requests.jsonl")
        .lines()
        .map(str::to_string)
        .collect();
    let mut many = format!("[{}]", lines.join(",")).into_bytes();
    if b.rng.one_in(5) {
        mutate(b.rng, &mut many, b"[{\"key\":\"k0\"}]");
    }
    b.input.add("many.json", many);
    let mut keys = Vec::new();
    for _ in 0..b.rng.range(1, 6) {
        let mut k = b.rng.pick(&b.keys).clone().into_bytes();
        if b.rng.one_in(4) {
            mutate(b.rng, &mut k, b"k0.a.0");
            k.retain(|c| *c != b'\n');
        }
        keys.extend_from_slice(&k);
        keys.push(b'\n');
    }
    b.input.add("keys.txt", keys);
    for i in 0..b.rng.small(6) {
        helper_call(&mut b, i);
    }
    b.input.note = "C ABI calls over a generated repo".into();
    b.input
}

/// Adds one hiera3 helper (or parse_data) call's arguments.
fn helper_call(b: &mut Builder, i: usize) {
    let f = b.rng.word(&[
        "merge_answer",
        "parse_answer",
        "parse_string",
        "datasources",
        "parse_data",
        "hiera3_lookup",
    ]);
    let args: Vec<Option<Vec<u8>>> = match f {
        "merge_answer" => vec![
            value(b.rng),
            value(b.rng),
            Some(b.rng.pick(RESOLUTIONS).as_bytes().to_vec()),
            maybe(b.rng, "{}"),
        ],
        "parse_answer" | "parse_string" => vec![
            value(b.rng),
            maybe(
                b.rng,
                "{\"x\":\"X\",\"y\":{\"z\":1},\"calling_module\":\"m\"}",
            ),
            maybe(
                b.rng,
                "{\"order_override\":null,\"seen\":[\"hiera('a')\"],\"extra_data\":{\"x\":1}}",
            ),
            maybe(b.rng, "host"),
        ],
        "datasources" => vec![
            Some(
                b.rng
                    .pick(&[
                        "[\"common\",\"%{x}\",\"/abs\",\"a//b\",\"%{hiera('k')}\"]",
                        "null",
                        "false",
                        "\"one\"",
                        "[1]",
                    ])
                    .as_bytes()
                    .to_vec(),
            ),
            maybe(b.rng, "{\"x\":\"X\"}"),
            maybe(b.rng, "[\"over\",\"%{x}\"]"),
            maybe(b.rng, "host"),
        ],
        "parse_data" => {
            let data = b.value(3);
            vec![
                Some(
                    b.rng
                        .pick(&["yaml", "json", "toml", ""])
                        .as_bytes()
                        .to_vec(),
                ),
                Some(b"/x/data".to_vec()),
                Some(data.to_json().into_bytes()),
            ]
        }
        _ => vec![
            Some(
                format!("{{\"config_file\":\"{DIR}/hiera3.yaml\",\"cwd\":\"{DIR}\"}}").into_bytes(),
            ),
            Some(
                format!(
                    "{{\"key\":\"{}\",\"scope\":{{\"x\":\"X\"}},\"resolution_type\":{}}}",
                    b.rng.pick(&b.keys),
                    b.rng.pick(RESOLUTIONS)
                )
                .into_bytes(),
            ),
            maybe(b.rng, "host"),
        ],
    };
    if f == "hiera3_lookup" {
        let cfg = ":backends: [yaml, json]\n:hierarchy: [\"%{x}\", common]\n:yaml:\n  :datadir: data\n:json:\n  :datadir: data\n";
        b.input.add("hiera3.yaml", cfg);
    }
    for (j, a) in args.into_iter().enumerate() {
        if let Some(mut bytes) = a {
            if b.rng.one_in(8) {
                mutate(b.rng, &mut bytes, b"{\"a\":[1]}");
            }
            b.input.add(format!("calls/{i:02}-{f}/{j}"), bytes);
        }
    }
}

fn value(rng: &mut Rng) -> Option<Vec<u8>> {
    Some(rng.pick(VALUES).as_bytes().to_vec())
}

fn maybe(rng: &mut Rng, s: &str) -> Option<Vec<u8>> {
    (!rng.one_in(3)).then(|| s.as_bytes().to_vec())
}

/// A C string of `bytes` up to the first NUL (what a C host would pass).
fn c(bytes: &[u8]) -> CString {
    let end = bytes.iter().position(|b| *b == 0).unwrap_or(bytes.len());
    CString::new(&bytes[..end]).unwrap_or_default()
}

/// Collects the statuses of C ABI calls: the first `HIERA_PANIC` wins.
struct Calls(Verdict);

impl Calls {
    fn check(&mut self, name: &str, status: hiera_status) {
        if status == hiera_status::HIERA_PANIC && matches!(self.0, Verdict::Ok) {
            self.0 = Verdict::PanicStatus(name.to_string());
        }
    }
}

/// Frees a string libhiera returned (NULL is fine).
fn free(s: *mut c_char) {
    // SAFETY: `s` is NULL or a string libhiera returned and nobody freed.
    unsafe { hiera_string_free(s) }
}

/// `hiera_parse_data` on `bytes` (shared with the yaml and json targets).
pub fn parse_data(format: &str, bytes: &[u8]) -> Verdict {
    let mut calls = Calls(Verdict::Ok);
    let (format, path) = (c(format.as_bytes()), c(b"/soak/data"));
    let mut out = null_mut();
    // SAFETY: valid C strings, `bytes` readable for its length, `out` writable.
    let st = unsafe {
        hiera_parse_data(
            format.as_ptr(),
            path.as_ptr(),
            bytes.as_ptr(),
            bytes.len(),
            &mut out,
        )
    };
    calls.check("hiera_parse_data", st);
    free(out);
    calls.0
}

/// The host's `lookup` callback: answers from the key's first byte.
unsafe extern "C" fn host_lookup(
    _: *mut c_void,
    key: *const c_char,
    _context: *const c_char,
    answer: *mut hiera3_answer,
) {
    // SAFETY: libhiera passes a NUL-terminated key and a live answer.
    let first = unsafe { CStr::from_ptr(key) }
        .to_bytes()
        .first()
        .copied()
        .unwrap_or(0);
    let v = c(VALUES[first as usize % VALUES.len()].as_bytes());
    // SAFETY: `answer` is the running callback's; the strings are valid.
    unsafe {
        match first % 4 {
            0 => drop(hiera3_answer_error(answer, c(b"host failure").as_ptr())),
            1 => {}
            2 => {
                hiera3_answer_value(answer, v.as_ptr());
                hiera3_answer_seen(answer, c(b"[\"hiera('x')\"]").as_ptr());
            }
            _ => drop(hiera3_answer_value(answer, v.as_ptr())),
        }
    }
}

/// The host's `scope` callback: knows variables whose name is short.
unsafe extern "C" fn host_scope(_: *mut c_void, name: *const c_char, answer: *mut hiera3_answer) {
    // SAFETY: libhiera passes a NUL-terminated name and a live answer.
    let len = unsafe { CStr::from_ptr(name) }.to_bytes().len();
    if len < 3 {
        // SAFETY: as above.
        unsafe { hiera3_answer_value(answer, c(b"\"v\"").as_ptr()) };
    }
}

/// Runs the C ABI calls of an input.
pub fn run(input: &Input, dir: &Path) -> Verdict {
    if let Err(e) = input.write_to(dir) {
        eprintln!("soak: writing the input: {e}");
    }
    let dir_text = dir.display().to_string();
    let with_dir = |name: &str| c(input.text(name).replace(DIR, &dir_text).as_bytes());
    let mut calls = Calls(Verdict::Ok);
    sessions(input, &with_dir("options.json"), &mut calls);
    helpers(input, &dir_text, &mut calls);
    calls.0
}

/// Opens the repo, makes a session and runs the lookups.
fn sessions(input: &Input, options: &CStr, calls: &mut Calls) {
    let (mut h, mut err) = (null_mut(), null_mut());
    // SAFETY: valid C string and out-pointers.
    calls.check("hiera_open", unsafe {
        hiera_open(options.as_ptr(), &mut h, &mut err)
    });
    free(err);
    if h.is_null() {
        return;
    }
    let (mut s, mut err) = (null_mut(), null_mut());
    let scope = c(input.file("scope.json").unwrap_or_default());
    // SAFETY: `h` is live; valid C string and out-pointers.
    calls.check("hiera_session_new", unsafe {
        hiera_session_new(h, scope.as_ptr(), &mut s, &mut err)
    });
    free(err);
    if s.is_null() {
        let mut err = null_mut();
        // SAFETY: as above.
        calls.check("hiera_session_new", unsafe {
            hiera_session_new(h, c(b"{}").as_ptr(), &mut s, &mut err)
        });
        free(err);
    }
    // The configuration may go first: the session keeps it alive.
    // SAFETY: `h` is live and not used again.
    unsafe { hiera_free(h) };
    if s.is_null() {
        return;
    }
    let mut out = null_mut();
    for line in input
        .file("requests.jsonl")
        .unwrap_or_default()
        .split(|b| *b == b'\n')
    {
        // SAFETY: `s` is live; valid C string; `out` writable.
        calls.check("hiera_lookup", unsafe {
            hiera_lookup(s, c(line).as_ptr(), &mut out)
        });
        free(std::mem::replace(&mut out, null_mut()));
    }
    for key in input
        .file("keys.txt")
        .unwrap_or_default()
        .split(|b| *b == b'\n')
    {
        // SAFETY: `key` is readable for its length; `out` writable.
        calls.check("hiera_lookup_key", unsafe {
            hiera_lookup_key(s, key.as_ptr().cast(), key.len(), &mut out)
        });
        free(std::mem::replace(&mut out, null_mut()));
    }
    let many = c(input.file("many.json").unwrap_or_default());
    // SAFETY: as above.
    calls.check("hiera_lookup_many", unsafe {
        hiera_lookup_many(s, many.as_ptr(), &mut out)
    });
    free(std::mem::replace(&mut out, null_mut()));
    // NULL arguments are refused, never dereferenced.
    // SAFETY: NULL is allowed for every pointer argument.
    unsafe {
        calls.check(
            "hiera_lookup(NULL request)",
            hiera_lookup(s, null(), &mut out),
        );
        calls.check(
            "hiera_lookup_key(NULL key)",
            hiera_lookup_key(s, null(), 3, &mut out),
        );
        calls.check(
            "hiera_lookup_many(NULL result)",
            hiera_lookup_many(s, many.as_ptr(), null_mut()),
        );
        calls.check(
            "hiera_lookup(NULL session)",
            hiera_lookup(null_mut(), many.as_ptr(), &mut out),
        );
        hiera_session_free(s);
    }
}

/// Runs the `calls/` of an input.
fn helpers(input: &Input, dir: &str, calls: &mut Calls) {
    let mut by_call: BTreeMap<&str, Vec<Option<CString>>> = BTreeMap::new();
    for (name, bytes) in &input.files {
        let Some(rest) = name.strip_prefix("calls/") else {
            continue;
        };
        let Some((call, arg)) = rest.split_once('/') else {
            continue;
        };
        let Ok(arg) = arg.parse::<usize>() else {
            continue;
        };
        let args = by_call.entry(call).or_default();
        if args.len() <= arg {
            args.resize(arg + 1, None);
        }
        args[arg] = Some(c(String::from_utf8_lossy(bytes)
            .replace(DIR, dir)
            .as_bytes()));
    }
    let host = hiera3_host {
        user_data: null_mut(),
        lookup: Some(host_lookup),
        scope: Some(host_scope),
    };
    for (call, mut args) in by_call {
        args.resize(4, None);
        let p = |i: usize| args[i].as_ref().map_or(null(), |s| s.as_ptr());
        let host_arg = |i: usize| {
            if args[i].is_some() {
                &host as *const hiera3_host
            } else {
                null()
            }
        };
        let function = call.split_once('-').map_or(call, |(_, f)| f);
        let (mut r, mut g) = (null_mut(), null_mut());
        // SAFETY: every pointer is NULL or a valid C string; `host` holds
        // callbacks that keep their contract; the out-pointers are writable.
        let status = unsafe {
            match function {
                "merge_answer" => hiera3_merge_answer(p(0), p(1), p(2), p(3), &mut r),
                "parse_answer" => {
                    hiera3_parse_answer(p(0), p(1), p(2), host_arg(3), &mut r, &mut g)
                }
                "parse_string" => {
                    hiera3_parse_string(p(0), p(1), p(2), host_arg(3), &mut r, &mut g)
                }
                "datasources" => hiera3_datasources(p(0), p(1), p(2), host_arg(3), &mut r),
                "parse_data" => {
                    let bytes = args[2].as_ref().map_or(&[][..], |s| s.to_bytes());
                    hiera_parse_data(p(0), p(1), bytes.as_ptr(), bytes.len(), &mut r)
                }
                _ => {
                    let mut h = null_mut();
                    let st = hiera3_open(p(0), &mut h, &mut r);
                    if !h.is_null() {
                        calls.check("hiera3_open", st);
                        let st = hiera3_lookup(h, p(1), host_arg(2), &mut r, &mut g);
                        hiera3_free(h);
                        st
                    } else {
                        st
                    }
                }
            }
        };
        calls.check(function, status);
        free(r);
        free(g);
    }
}
