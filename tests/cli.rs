//! The `hiera-lookup` CLI contract: values, exit codes, scope files and
//! batch mode, on the README's example (whose expected.json is Puppet's).

use hiera::render::{from_json, to_json};
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

fn example() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("examples")
}

fn cli() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"));
    c.current_dir(example());
    c.args([
        "--hiera_config",
        "hiera.yaml",
        "--environmentpath",
        "environments",
        "--environment",
        "production",
    ]);
    c
}

fn expected() -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(example().join("expected.json")).unwrap())
        .unwrap()
}

#[test]
fn facts_file_gives_puppets_answers_and_exit_codes() {
    let exp = expected();
    for r in exp["results"].as_array().unwrap() {
        let key = r["key"].as_str().unwrap();
        let out = cli()
            .args([
                "--facts",
                "facts.yaml",
                "--node",
                "web01.example.com",
                "--render-as",
                "json",
                key,
            ])
            .output()
            .unwrap();
        if let Some(v) = r.get("value") {
            assert_eq!(
                out.status.code(),
                Some(0),
                "{key}: {}",
                String::from_utf8_lossy(&out.stderr)
            );
            let got = from_json(&String::from_utf8(out.stdout).unwrap()).unwrap();
            let want = from_json(&v.to_string()).unwrap();
            assert_eq!(to_json(&got), to_json(&want), "{key}");
        } else {
            assert_eq!(out.status.code(), Some(1), "{key} should be not found");
            assert!(out.stdout.is_empty());
        }
    }
}

#[test]
fn scope_file_and_errors() {
    let exp = expected();
    let dir = std::env::temp_dir().join(format!("libhiera-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let scope = dir.join("scope.json");
    std::fs::write(&scope, exp["scope"].to_string()).unwrap();
    let out = cli()
        .args([
            "--scope",
            scope.to_str().unwrap(),
            "--render-as",
            "s",
            "motd",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        "Welcome to web01.example.com, managed by Puppet"
    );
    // Several keys: the first found wins.
    let out = cli()
        .args([
            "--scope",
            scope.to_str().unwrap(),
            "--render-as",
            "json",
            "nope",
            "ntp::service_name",
        ])
        .output()
        .unwrap();
    assert_eq!(
        String::from_utf8(out.stdout).unwrap().trim_end(),
        "\"ntpsec\""
    );
    // A default is returned when nothing is found.
    let out = cli()
        .args([
            "--scope",
            scope.to_str().unwrap(),
            "--render-as",
            "json",
            "--default",
            "[1]",
            "nope",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    // An invalid merge is an error: exit 2, message on stderr, nothing on stdout.
    let out = cli().args(["--merge", "bogus", "motd"]).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--merge"));
    let out = cli()
        .args(["--merge", "{\"strategy\":\"bogus\"}", "motd"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Unknown merge strategy: 'bogus'"));
    // Deep merge options on the command line.
    let out = cli()
        .args([
            "--scope",
            scope.to_str().unwrap(),
            "--merge",
            "deep",
            "--sort-merged-arrays",
            "--render-as",
            "json",
            "profile::base::packages",
        ])
        .output()
        .unwrap();
    let v = from_json(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(
        to_json(&v),
        r#"["apt-transport-https","curl","nginx","vim"]"#
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn batch_mode_speaks_one_json_object_per_line() {
    let mut child = cli()
        .args([
            "--facts",
            "facts.yaml",
            "--node",
            "web01.example.com",
            "--batch",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(
            b"{\"key\":\"ntp::service_name\"}\n{\"key\":\"nope\"}\n{\"key\":\"nope\",\"default\":null}\n{\"key\":\"motd\",\"merge\":\"bogus\"}\nnot json\n{\"key\":\"x\",\"bogus\":1}\n{\"key\":\"profile::base::packages\",\"merge\":{\"strategy\":\"deep\",\"sort_merged_arrays\":true}}\n{\"key\":\"motd\",\"override\":{\"motd\":\"over\"}}\n",
        )
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let lines: Vec<String> = String::from_utf8(out.stdout)
        .unwrap()
        .lines()
        .map(str::to_string)
        .collect();
    assert_eq!(lines.len(), 8, "{lines:?}");
    assert_eq!(lines[0], r#"{"value":"ntpsec"}"#);
    assert_eq!(lines[1], r#"{"not_found":true}"#);
    assert_eq!(lines[2], r#"{"value":null}"#);
    assert!(
        lines[3].starts_with(
            r#"{"error":{"kind":"invalid_argument","message":"Unknown merge strategy: 'bogus'""#
        ),
        "{}",
        lines[3]
    );
    assert!(
        lines[4].starts_with(r#"{"error":{"kind":"invalid_argument""#),
        "{}",
        lines[4]
    );
    assert!(
        lines[5].contains("unknown request field 'bogus'"),
        "{}",
        lines[5]
    );
    assert_eq!(
        lines[6],
        r#"{"value":["apt-transport-https","curl","nginx","vim"]}"#
    );
    assert_eq!(lines[7], r#"{"value":"over"}"#);
}

#[test]
fn explain_names_layers_and_paths() {
    let out = cli()
        .args([
            "--facts",
            "facts.yaml",
            "--node",
            "web01.example.com",
            "--explain",
            "ntp::service_name",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0));
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(
        text.contains("Searching for \"ntp::service_name\""),
        "{text}"
    );
    assert!(
        text.contains("Module \"ntp\" Data Provider (hiera configuration version 5)"),
        "{text}"
    );
    assert!(
        text.contains("Found key: \"ntp::service_name\" value: \"ntpsec\""),
        "{text}"
    );
    assert!(
        text.contains("Original path: \"%{facts.os.family}.yaml\""),
        "{text}"
    );
    assert!(
        text.starts_with("Searching for \"lookup_options\""),
        "{text}"
    );
}

#[test]
fn strict_modes_for_undefined_variables() {
    let dir = std::env::temp_dir().join(format!("libhiera-cli-strict-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("data")).unwrap();
    std::fs::write(dir.join("hiera.yaml"), "version: 5\n").unwrap();
    std::fs::write(dir.join("data/common.yaml"), "k: \"[%{nope}]\"\n").unwrap();
    let run_with = |args: &[&str]| {
        Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
            .current_dir(&dir)
            .args(args)
            .args(["--render-as", "s", "k"])
            .output()
            .unwrap()
    };
    let run = |strict: &str| run_with(&["--strict", strict]);
    // Puppet 7's default is warning, Puppet 8's error; a given --strict wins.
    assert_eq!(
        String::from_utf8_lossy(&run_with(&[]).stdout).trim_end(),
        "[]"
    );
    let out = run_with(&["--puppet", "8"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Undefined variable 'nope'; "));
    assert_eq!(
        String::from_utf8_lossy(&run_with(&["--puppet", "8", "--strict", "off"]).stdout).trim_end(),
        "[]"
    );
    let out = run_with(&["--puppet", "9"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--puppet takes 7 or 8, not '9'"));
    let out = run("warning");
    assert_eq!(String::from_utf8_lossy(&out.stdout).trim_end(), "[]");
    assert!(String::from_utf8_lossy(&out.stderr).contains("Warning: Undefined variable 'nope'"));
    let out = run("off");
    assert_eq!(out.status.code(), Some(0));
    assert!(out.stderr.is_empty());
    let out = run("error");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("Undefined variable 'nope'"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn basemodulepath_and_modulepath_flags() {
    let case = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/conformance/modulepath/two_base_directories");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
            .current_dir(&case)
            .args(args)
            .output()
            .unwrap();
        (
            out.status.code(),
            String::from_utf8(out.stdout)
                .unwrap()
                .trim_end()
                .to_string(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    // No base directories by default.
    assert_eq!(run(&["--render-as", "s", "alpha::where"]).0, Some(1));
    // Relative directories from the working directory, in order: the first wins.
    assert_eq!(
        run(&[
            "--basemodulepath",
            "base1:base2",
            "--render-as",
            "s",
            "beta::where"
        ])
        .1,
        "base2"
    );
    assert_eq!(
        run(&[
            "--basemodulepath=base1:base2",
            "--render-as",
            "s",
            "gamma::where"
        ])
        .1,
        "base1"
    );
    assert_eq!(
        run(&[
            "--basemodulepath",
            "base2:base1",
            "--render-as",
            "s",
            "gamma::where"
        ])
        .1,
        "base2"
    );
    // --modulepath is the whole list (the environment's modules are not in it).
    assert_eq!(
        run(&["--modulepath", "base2", "--render-as", "s", "gamma::where"]).1,
        "base2"
    );
    assert_eq!(
        run(&[
            "--modulepath",
            "base2",
            "--basemodulepath",
            "base1",
            "alpha::where"
        ])
        .0,
        Some(1)
    );
    // Explain names the module's configuration where it was found.
    let (code, text, _) = run(&[
        "--basemodulepath",
        "base1:base2",
        "--explain",
        "gamma::where",
    ]);
    assert_eq!(code, Some(0));
    let config = case.join("base1/gamma/hiera.yaml");
    assert!(
        text.contains(&format!("Using configuration \"{}\"", config.display())),
        "{text}"
    );
    assert!(!text.contains("base2"), "{text}");
    let (_, text, _) = run(&["--basemodulepath", "base1", "--explain", "beta::where"]);
    assert!(text.contains("Module \"beta\" not found"), "{text}");
}

#[test]
fn an_environment_conf_puppet_cannot_read_fails() {
    let dir = std::env::temp_dir().join(format!("libhiera-cli-envconf-{}", std::process::id()));
    std::fs::create_dir_all(dir.join("environments/production")).unwrap();
    std::fs::write(
        dir.join("environments/production/environment.conf"),
        "modulepath = modules:${basemodulepath}\n",
    )
    .unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_hiera-lookup"))
        .current_dir(&dir)
        .args(["k"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(
        String::from_utf8_lossy(&out.stderr)
            .contains("Could not parse 'modules:${basemodulepath}'"),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    std::fs::remove_dir_all(&dir).unwrap();
}
