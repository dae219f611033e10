//! eyaml_lookup_key beyond the recorded cases (tests/conformance/libhiera/eyaml):
//! answered without the host, keys read once per configuration and from an
//! environment variable, key material never in an error, an unknown
//! encryptor, and hostile blocks (errors, never panics).

use hiera::host::{Host, HostCall, HostRef, Warning};
use hiera::{Hiera, LookupRequest, Map, Options, Session, Value};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

/// The recorded case whose keys and blocks these tests reuse.
fn values_case() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/libhiera/eyaml/values")
}

/// The `whole` block of the recorded case (the encrypted "s3cr3t").
fn secret_block() -> String {
    let text = std::fs::read_to_string(values_case().join("data/secrets.eyaml")).unwrap();
    let line = text.lines().find(|l| l.starts_with("whole: ")).unwrap();
    line["whole: ".len()..].to_string()
}

/// A scratch repository with the case's keys under `keys/`, a hiera.yaml
/// with one eyaml level (`options` as given, YAML), and `data/secrets.eyaml`.
fn repo(name: &str, options: &str, data: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("libhiera-eyaml-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::create_dir_all(dir.join("keys")).unwrap();
    for k in ["private_key.pkcs7.pem", "public_key.pkcs7.pem"] {
        std::fs::copy(values_case().join("keys").join(k), dir.join("keys").join(k)).unwrap();
    }
    std::fs::write(
        dir.join("hiera.yaml"),
        format!("version: 5\nhierarchy:\n  - name: secrets\n    lookup_key: eyaml_lookup_key\n    path: secrets.eyaml\n    options: {options}\n"),
    )
    .unwrap();
    std::fs::write(dir.join("data/secrets.eyaml"), data).unwrap();
    dir
}

const KEYS: &str =
    "{pkcs7_private_key: keys/private_key.pkcs7.pem, pkcs7_public_key: keys/public_key.pkcs7.pem}";

/// A host that counts the functions it is asked to run (and runs none).
#[derive(Default)]
struct Counting(AtomicUsize);

impl Host for Counting {
    fn call(&self, _call: &HostCall<'_>) -> hiera::Result<Option<Value>> {
        self.0.fetch_add(1, Ordering::Relaxed);
        Ok(None)
    }
    fn warn(&self, _warning: &Warning) {}
}

fn open(dir: &Path, host: Option<HostRef>) -> Arc<Hiera> {
    Arc::new(
        Hiera::open(Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.join("environments"),
            working_directory: Some(dir.to_path_buf()),
            host,
            ..Default::default()
        })
        .unwrap(),
    )
}

fn lookup(h: &Arc<Hiera>, key: &str) -> hiera::Result<Option<Value>> {
    Session::new(Arc::clone(h), Map::default()).lookup(&LookupRequest::key(key))
}

#[test]
fn eyaml_levels_never_call_the_host() {
    let host = Arc::new(Counting::default());
    let h = open(&values_case(), Some(HostRef(host.clone())));
    assert_eq!(lookup(&h, "whole").unwrap(), Some(Value::from("s3cr3t")));
    assert_eq!(lookup(&h, "missing").unwrap(), None);
    assert_eq!(host.0.load(Ordering::Relaxed), 0, "the host ran a function");
}

#[test]
fn keys_are_read_once_per_configuration() {
    let dir = repo(
        "once",
        KEYS,
        &format!("a: {}\nb: {}\n", secret_block(), secret_block()),
    );
    let h = open(&dir, None);
    assert_eq!(lookup(&h, "a").unwrap(), Some(Value::from("s3cr3t")));
    std::fs::remove_dir_all(dir.join("keys")).unwrap();
    // A new session of the same configuration still has the keys.
    assert_eq!(lookup(&h, "b").unwrap(), Some(Value::from("s3cr3t")));
    // A new configuration reads them again, and finds none.
    let e = lookup(&open(&dir, None), "b").unwrap_err();
    assert!(
        e.message
            .contains("No such file or directory @ rb_sysopen - keys/private_key.pkcs7.pem"),
        "{}",
        e.message
    );
}

#[test]
fn the_private_key_can_come_from_an_environment_variable() {
    let pem = std::fs::read_to_string(values_case().join("keys/private_key.pkcs7.pem")).unwrap();
    let var = format!("LIBHIERA_EYAML_TEST_KEY_{}", std::process::id());
    std::env::set_var(&var, pem);
    let dir = repo(
        "env",
        &format!(
            "{{pkcs7_private_key_env_var: {var}, pkcs7_public_key: keys/public_key.pkcs7.pem}}"
        ),
        &format!("a: {}\n", secret_block()),
    );
    std::fs::remove_file(dir.join("keys/private_key.pkcs7.pem")).unwrap();
    assert_eq!(
        lookup(&open(&dir, None), "a").unwrap(),
        Some(Value::from("s3cr3t"))
    );
}

#[test]
fn key_material_never_appears_in_an_error() {
    let marker = "MIIEowIBAAKCAQEAthisisnotakeyLIBHIERAMARKER";
    let dir = repo(
        "leak",
        KEYS,
        &format!("a: {}\nb: \"ENC[PKCS7,QUJD]\"\n", secret_block()),
    );
    let private = std::fs::read_to_string(dir.join("keys/private_key.pkcs7.pem")).unwrap();
    // A bad block with good keys: nothing of the key in the message.
    let e = lookup(&open(&dir, None), "b").unwrap_err();
    assert!(
        e.message
            .contains("Could not parse the PKCS7: no start line"),
        "{}",
        e.message
    );
    for line in private.lines().filter(|l| !l.starts_with("-----")) {
        assert!(!e.message.contains(line), "key text in {}", e.message);
    }
    // A key file that is not a key: its text is not shown either.
    std::fs::write(
        dir.join("keys/private_key.pkcs7.pem"),
        format!("-----BEGIN RSA PRIVATE KEY-----\n{marker}\n-----END RSA PRIVATE KEY-----\n"),
    )
    .unwrap();
    let e = lookup(&open(&dir, None), "a").unwrap_err();
    assert!(
        e.message.contains("Neither PUB key nor PRIV key"),
        "{}",
        e.message
    );
    assert!(!e.message.contains(marker), "{}", e.message);
}

#[test]
fn an_unknown_encryptor_is_hiera_eyamls_load_error() {
    let dir = repo(
        "gpg",
        KEYS,
        "a: \"x ENC[GPG,QUJD]\"\nb: \"ENC[pkcs7,QUJD]\"\n",
    );
    let h = open(&dir, None);
    let e = lookup(&h, "a").unwrap_err();
    assert_eq!(
        e.message,
        "cannot load such file -- hiera/backend/eyaml/encryptors/gpg"
    );
    // The encryptor name is case-insensitive.
    let e = lookup(&h, "b").unwrap_err();
    assert!(
        e.message
            .ends_with("Error was Could not parse the PKCS7: no start line"),
        "{}",
        e.message
    );
}

#[test]
fn hostile_blocks_are_errors_not_panics() {
    let huge = "A".repeat(4 << 20);
    // DER nested far deeper than any parser's stack should follow.
    let deep: Vec<u8> = std::iter::repeat_n([0x30u8, 0x80], 100_000)
        .flatten()
        .collect();
    let deep = base64(&deep);
    let mut many = String::new();
    for _ in 0..10_000 {
        many.push_str("ENC[PKCS7,QUJD]");
    }
    let nested = format!("{}{}{}", "ENC[".repeat(10_000), "QUJD", "]".repeat(10_000));
    let data = format!(
        "huge: \"ENC[PKCS7,{huge}]\"\ndeep: \"ENC[PKCS7,{deep}]\"\nmany: \"{many}\"\nnested: \"{nested}\"\nspaces: \"ENC[PKCS7,{}]\"\n",
        " ".repeat(100_000)
    );
    let dir = repo("hostile", KEYS, &data);
    let h = open(&dir, None);
    for key in ["huge", "deep", "many", "nested"] {
        let e = lookup(&h, key).unwrap_err();
        assert!(
            e.message.contains("hiera-eyaml backend error decrypting"),
            "{key}: {}",
            &e.message[..200.min(e.message.len())]
        );
    }
    // Only spaces: decode64 gives nothing, which does not parse.
    let e = lookup(&h, "spaces").unwrap_err();
    assert!(e
        .message
        .ends_with("Could not parse the PKCS7: no start line"));
}

/// Standard base64 (test data only).
fn base64(bytes: &[u8]) -> String {
    const A: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::new();
    for c in bytes.chunks(3) {
        let n = (c[0] as u32) << 16
            | (*c.get(1).unwrap_or(&0) as u32) << 8
            | *c.get(2).unwrap_or(&0) as u32;
        for i in 0..4 {
            if i <= c.len() {
                out.push(A[(n >> (18 - 6 * i)) as usize & 63] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// A block encrypted for another key: OpenSSL decrypts its content with a
/// random key and, about one time in 256, hands back the garbage that key
/// happens to decrypt to. libhiera's answer is "bad decrypt" every time
/// (with the old behaviour, 1,500 tries pass by chance about 0.3 % of runs).
#[test]
fn a_block_for_another_key_is_always_bad_decrypt() {
    let case =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/conformance/libhiera/eyaml/bad_blocks");
    let h = open(&case, None);
    for attempt in 0..1500 {
        match lookup(&h, "other_key") {
            Err(e) => assert!(
                e.to_string().ends_with("Error was bad decrypt"),
                "attempt {attempt}: {e}"
            ),
            Ok(v) => panic!("attempt {attempt}: a value {v:?}"),
        }
    }
}
