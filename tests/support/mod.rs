//! Shared by the conformance tests: reading recorded cases and running
//! their queries through the engine.
#![allow(dead_code)]

pub mod deep_merge_oracle;
pub mod wire;

use hiera::{LookupRequest, Map, Options, Strict, Value};
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// What a query gave (or should give).
#[derive(Debug)]
pub enum Outcome {
    Value(Value),
    NotFound,
    Error(String),
}

/// One recorded query.
pub struct CaseQuery {
    pub key: String,
    pub merge: Option<Value>,
    pub default: Option<Value>,
    pub resolution_type: Option<Value>,
    pub order_override: Option<Value>,
    pub expected: Outcome,
}

/// One recorded case.
pub struct Case {
    pub dir: PathBuf,
    pub engine: String,
    pub environment: String,
    pub settings: CaseSettings,
    /// The Puppet the case was recorded from (7; the Puppet 8 tree sets 8).
    pub puppet: u8,
    pub scope: Map,
    pub queries: Vec<CaseQuery>,
    /// The functions the case's Puppet 4 data providers call (see
    /// [`host_functions`]).
    pub host_functions: Vec<String>,
}

/// The functions a case's Puppet 4 `function` data providers call
/// (`environment::data`, `<module>::data`): its `host_functions.txt`, one
/// name per line. Puppet ran them when it recorded the case; an engine
/// without a host that runs them must instead fail those queries with
/// Puppet's error for a function it cannot find
/// ([`host_function_error`]). The hand-off, inside Puppet, runs them.
pub fn host_functions(dir: &Path) -> Vec<String> {
    std::fs::read_to_string(dir.join("host_functions.txt"))
        .map(|t| {
            t.lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect()
        })
        .unwrap_or_default()
}

/// Whether `message` is the error of a case without the host its data
/// providers' functions need: exactly `Unable to find 'v4_data_hash'
/// function named 'F'` for one of `functions`.
pub fn host_function_error(functions: &[String], message: &str) -> bool {
    functions
        .iter()
        .any(|f| message == format!("Unable to find 'v4_data_hash' function named '{f}'"))
}

/// A case's `settings:` (the Puppet settings the oracle set for it).
#[derive(Debug, Default)]
pub struct CaseSettings {
    /// `basemodulepath`: directories relative to the case root (here joined to it).
    pub basemodulepath: Vec<PathBuf>,
    /// `strict` (`None`: the Puppet version's default).
    pub strict: Option<Strict>,
}

/// Reads a case's `settings:` mapping; an unknown setting is an error.
fn case_settings(case: &Value, dir: &Path) -> Result<CaseSettings, String> {
    let mut settings = CaseSettings::default();
    let Some(fields) = case.get("settings") else {
        return Ok(settings);
    };
    let fields = fields.as_hash().ok_or("settings is not a mapping")?;
    for (name, v) in fields.iter() {
        match name.as_str() {
            Some("basemodulepath") => {
                let dirs = v
                    .as_array()
                    .ok_or("settings.basemodulepath is not a list")?;
                for d in dirs.iter() {
                    settings.basemodulepath.push(
                        dir.join(
                            d.as_str()
                                .ok_or("settings.basemodulepath holds a non-string")?,
                        ),
                    );
                }
            }
            Some("strict") => {
                settings.strict = Some(match v.as_str() {
                    Some("off") => Strict::Off,
                    Some("warning") => Strict::Warning,
                    Some("error") => Strict::Error,
                    _ => {
                        return Err(format!(
                            "settings.strict must be off, warning or error, not {v:?}"
                        ))
                    }
                })
            }
            other => return Err(format!("unknown setting {other:?}")),
        }
    }
    Ok(settings)
}

pub fn find_cases(dir: &Path, out: &mut Vec<PathBuf>) {
    if dir.join("case.yaml").is_file() && dir.join("expected.json").is_file() {
        out.push(dir.to_path_buf());
        return;
    }
    if let Ok(rd) = std::fs::read_dir(dir) {
        for e in rd.flatten() {
            if e.file_type().map(|t| t.is_dir()).unwrap_or(false) {
                find_cases(&e.path(), out);
            }
        }
    }
}

fn json_value(v: &serde_json::Value) -> Value {
    hiera::render::from_json(&serde_json::to_string(v).unwrap())
        .expect("expected.json value decodes")
}

pub fn load_case(dir: &Path) -> Result<Case, String> {
    let text = std::fs::read_to_string(dir.join("case.yaml")).map_err(|e| e.to_string())?;
    let case = hiera::yaml::load(&text, &Default::default())
        .map_err(|e| e.message)?
        .unwrap_or_default();
    let expected: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(dir.join("expected.json")).map_err(|e| e.to_string())?,
    )
    .map_err(|e| e.to_string())?;
    let engine = case
        .get("engine")
        .and_then(Value::as_str)
        .unwrap_or("hiera5")
        .to_string();
    let environment = case
        .get("environment")
        .and_then(Value::as_str)
        .unwrap_or("production")
        .to_string();
    let settings = case_settings(&case, dir)?;
    let scope = match json_value(&expected["scope"]) {
        Value::Hash(h) => h,
        _ => Map::default(),
    };
    let results = expected["results"].as_array().ok_or("no results")?;
    let qs = case
        .get("queries")
        .and_then(Value::as_array)
        .ok_or("no queries")?;
    if qs.len() != results.len() {
        return Err("queries and results differ in length".into());
    }
    let mut queries = Vec::new();
    for (q, r) in qs.iter().zip(results) {
        let h = q.as_hash().ok_or("query is not a hash")?;
        let get = |k: &str| h.get(&Value::from(k)).cloned();
        let expected = if let Some(v) = r.get("value") {
            Outcome::Value(json_value(v))
        } else if r.get("not_found").is_some() {
            Outcome::NotFound
        } else {
            Outcome::Error(r["error"].as_str().unwrap_or("").to_string())
        };
        queries.push(CaseQuery {
            key: get("key")
                .and_then(|k| k.as_str().map(str::to_string))
                .ok_or("query without key")?,
            merge: get("merge"),
            default: get("default"),
            resolution_type: get("resolution_type"),
            order_override: get("order_override"),
            expected,
        });
    }
    Ok(Case {
        dir: dir.to_path_buf(),
        engine,
        environment,
        settings,
        puppet: 7,
        scope,
        queries,
        host_functions: host_functions(dir),
    })
}

pub fn engine_supported(engine: &str) -> bool {
    engine == "hiera5" || engine == "hiera3"
}

/// The engine options a recorded case was recorded with: its hiera.yaml,
/// environments, environment, basemodulepath, `strict` and Puppet version.
pub fn case_options(case: &Case) -> Options {
    Options {
        hiera_config: case.dir.join("hiera.yaml"),
        environmentpath: case.dir.join("environments"),
        environment: case.environment.clone(),
        basemodulepath: case.settings.basemodulepath.clone(),
        strict: case.settings.strict,
        puppet: case.puppet,
        ..Default::default()
    }
}

/// A query's lookup request: its key, merge and default.
pub fn case_request(q: &CaseQuery) -> LookupRequest {
    LookupRequest {
        keys: vec![q.key.clone()],
        merge: q.merge.clone(),
        default: q.default.clone(),
        ..Default::default()
    }
}

/// A lookup's result as one comparable line.
pub fn outcome_text(r: &hiera::Result<Option<Value>>) -> String {
    match r {
        Ok(Some(v)) => format!("value {}", hiera::render::to_json(v)),
        Ok(None) => "not found".into(),
        Err(e) => format!("error {:?}: {}", e.kind, e.message),
    }
}

/// The names a session numbered, as a host learns them through
/// `Host::scope_variable` (the Puppet hand-off's `known_variables`).
#[derive(Default)]
pub struct KnownNames(std::sync::Mutex<Vec<Option<String>>>);

impl KnownNames {
    /// Learns that the session numbers `name` as `index`.
    pub fn learn(&self, name: &str, index: usize) {
        let mut known = self.0.lock().unwrap();
        if known.len() <= index {
            known.resize(index + 1, None);
        }
        known[index] = Some(name.to_string());
    }

    /// How many names, from the first, it knows.
    pub fn checked(&self) -> usize {
        self.0
            .lock()
            .unwrap()
            .iter()
            .take_while(|n| n.is_some())
            .count()
    }

    /// Of the names it checked, those for which `own` holds.
    pub fn locals(&self, own: impl Fn(&str) -> bool) -> Vec<String> {
        self.0
            .lock()
            .unwrap()
            .iter()
            .map_while(|n| n.clone())
            .filter(|n| own(n))
            .collect()
    }
}

/// Runs one query of a case the way the oracle did: a fresh engine state.
pub fn run_query(case: &Case, q: &CaseQuery) -> Outcome {
    run_query_with(case, q, false)
}

/// [`run_query`], with `Options::confine` as given (Hiera 5 cases).
pub fn run_query_with(case: &Case, q: &CaseQuery, confine: bool) -> Outcome {
    if case.engine == "hiera3" {
        return run_hiera3_query(case, q);
    }
    let opts = Options {
        confine,
        // The recorder runs each case with its root as working directory.
        working_directory: Some(case.dir.clone()),
        ..case_options(case)
    };
    let h = match hiera::Hiera::open(opts) {
        Ok(h) => Arc::new(h),
        Err(e) => return Outcome::Error(e.message),
    };
    let session = hiera::Session::new(h, case.scope.clone());
    let req = case_request(q);
    let outcome = |r: hiera::Result<Option<hiera::Value>>| match r {
        Ok(Some(v)) => Outcome::Value(v),
        Ok(None) => Outcome::NotFound,
        Err(e) => Outcome::Error(e.message),
    };
    let first = outcome(session.lookup(&req));
    // The same request again on the now warm session, without its finished
    // results: what the session's caches (and its quick path for plain
    // keys) answer must be what the first, cold lookup answered.
    session.forget_results();
    let again = outcome(session.lookup(&req));
    if format!("{again:?}") != format!("{first:?}") {
        return Outcome::Error(format!(
            "a second lookup on the same session gave {again:?}, the first {first:?}"
        ));
    }
    first
}

/// Rewrites absolute paths under the case directory as the recorder does.
pub fn relativize(msg: &str, dir: &Path) -> String {
    let d = dir.display().to_string();
    msg.replace(&format!("{d}/"), "").replace(&d, ".")
}

/// A hiera3 query as the oracle runs it: `Hiera.new(config:
/// '<case>/hiera.yaml')` with the case root as working directory (given to
/// the engine, not set on the test process), a fresh backend state, the
/// recorded scope, and the query's resolution type and order_override.
fn run_hiera3_query(case: &Case, q: &CaseQuery) -> Outcome {
    use hiera::hiera3::{Hiera3, ResolutionType};
    let rt = match q
        .resolution_type
        .as_ref()
        .map(ResolutionType::from_plain_value)
        .transpose()
    {
        Ok(rt) => rt.unwrap_or(ResolutionType::Priority),
        Err(e) => return Outcome::Error(e.message),
    };
    let h = match Hiera3::open(&case.dir.join("hiera.yaml"), Some(&case.dir)) {
        Ok(h) => h,
        Err(e) => return Outcome::Error(e.message),
    };
    let scope = Value::hash(case.scope.clone());
    match h.lookup(
        &q.key,
        q.default.as_ref(),
        &scope,
        q.order_override.as_ref(),
        &rt,
    ) {
        Ok(Some(v)) => Outcome::Value(v),
        Ok(None) => Outcome::NotFound,
        Err(e) => Outcome::Error(e.message),
    }
}

/// Caps this test process's address space at 3 GiB, so that an input that
/// escaped libhiera's limits aborts the test instead of exhausting the
/// machine.
pub fn limit_memory() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let cap = 3u64 << 30;
        let limit = libc::rlimit {
            rlim_cur: cap,
            rlim_max: libc::RLIM_INFINITY,
        };
        // SAFETY: setrlimit reads the struct it is given.
        assert_eq!(unsafe { libc::setrlimit(libc::RLIMIT_AS, &limit) }, 0);
    });
}

/// One run of the Ruby oracle `tests/support/<script>` over the JSON cases
/// `lines` (one answer per line, in order). `tag` names the temporary
/// directory the cases are written to. Fails the test when Ruby fails or
/// answers a different number of cases.
pub fn run_ruby_oracle(
    script: &str,
    tag: &str,
    lines: impl Iterator<Item = serde_json::Value>,
) -> Vec<serde_json::Value> {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let dir = std::env::temp_dir().join(format!("libhiera-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let input = dir.join("cases.jsonl");
    let mut count = 0;
    {
        let mut f = std::io::BufWriter::new(std::fs::File::create(&input).unwrap());
        for line in lines {
            writeln!(f, "{line}").unwrap();
            count += 1;
        }
    }
    let script = format!("{}/tests/support/{script}", env!("CARGO_MANIFEST_DIR"));
    let out = Command::new("ruby")
        .arg(&script)
        .stdin(Stdio::from(std::fs::File::open(&input).unwrap()))
        .output()
        .unwrap_or_else(|e| panic!("run the oracle {script}: {e}"));
    let _ = std::fs::remove_dir_all(&dir);
    assert!(
        out.status.success(),
        "the oracle {script} failed: {}: {}",
        out.status,
        String::from_utf8_lossy(&out.stderr)
    );
    let results: Vec<serde_json::Value> = String::from_utf8(out.stdout)
        .expect("oracle output is UTF-8")
        .lines()
        .map(|l| serde_json::from_str(l).expect("oracle JSON"))
        .collect();
    assert_eq!(
        results.len(),
        count,
        "the oracle answered a different number of cases"
    );
    results
}

/// `hiera-lookup`'s options for the example control repo (`examples/`), run
/// from that directory: its hiera.yaml, environments and facts.
pub const EXAMPLE_REPO_ARGS: [&str; 6] = [
    "--hiera_config",
    "hiera.yaml",
    "--environmentpath",
    "environments",
    "--facts",
    "facts.yaml",
];

/// A scratch directory `<tmp>/libhiera-<prefix>-<pid>-<name>`, emptied, with
/// `files` (relative path, text) written into it.
pub fn scratch(prefix: &str, name: &str, files: &[(&str, &str)]) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("libhiera-{prefix}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    for (path, text) in files {
        let p = dir.join(path);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }
    dir
}
