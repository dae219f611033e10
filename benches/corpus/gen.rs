//! The benchmark corpus of issue 7: a realistic Puppet control repo,
//! deterministic from a seed and a scale factor.
//!
//! Shared by the `hiera-corpus` binary (`benches/corpus/main.rs`), the
//! criterion benches (`benches/lookup.rs`), the compare driver
//! (`benches/compare_rust.rs`) and the tests (`tests/corpus.rs`), which all
//! include this file with `#[path]`.
//!
//! Layout written by [`Corpus::write`] under the output directory:
//!
//! ```text
//! hiera.yaml                               global layer (v5): global/nodes/<certname>.yaml, global/common.yaml
//! global/...                               global data
//! environments/production/hiera.yaml       environment layer (v5), 10 levels (see ENV_HIERA)
//! environments/production/data/...         environment data
//! environments/production/modules/<m>/hiera.yaml, data/...   module layer (~50 modules at scale 1)
//! nodes/<certname>.json                    facts of the nodes the workload runs for (50)
//! workload.jsonl                           the lookups of one compile, in the CLI's --batch request format
//! environments/production/manifests/...    site.pp, role::bench, the profile and foreign-module classes
//! environments/production/modules/<m>/manifests/...   the module classes of the workload (see build_manifests)
//! corpus.json                              seed, scale, statistics and the benches' probe keys
//! ```
//!
//! Only plain YAML is generated: double-quoted strings, integers, booleans,
//! quarter floats, arrays of scalars and hashes with lower-case string keys,
//! so that every value means the same to Psych and to libhiera's loader.
//! Interpolation uses facts and trusted data that every node has, and
//! `lookup`/`hiera` only name `site::` scalars that the environment's
//! common.yaml always defines (never recursive); `alias` only names
//! `site::*_list` arrays and stands for array-typed values.
//!
//! No transcendental float maths: the random streams (splitmix64) and the
//! heavy-tailed key counts (a quantile table) give the same corpus on any
//! machine.

#![allow(dead_code)]

use hiera::render::to_json;
use hiera::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

/// The environment the corpus lives in.
pub const ENVIRONMENT: &str = "production";

// ---------------------------------------------------------------- random

#[path = "rng.rs"]
mod rng;
pub use rng::Rng;

#[path = "shape.rs"]
mod shape;
// Not every includer of this file uses both.
#[allow(unused_imports)]
pub use shape::{Shape, PRESETS};

/// Keys per data file: a heavy-tailed distribution given by its quantiles
/// (median 2, p90 15), interpolated linearly.
const KEYS_PER_FILE: [(f64, f64); 11] = [
    (0.00, 1.0),
    (0.35, 1.0),
    (0.50, 2.0),
    (0.65, 3.0),
    (0.75, 5.0),
    (0.85, 10.0),
    (0.90, 15.0),
    (0.95, 30.0),
    (0.98, 60.0),
    (0.995, 120.0),
    (1.00, 250.0),
];

fn keys_per_file(rng: &mut Rng) -> usize {
    let u = rng.unit();
    for w in KEYS_PER_FILE.windows(2) {
        let ((u0, k0), (u1, k1)) = (w[0], w[1]);
        if u < u1 {
            let k = k0 + (k1 - k0) * (u - u0) / (u1 - u0);
            return k.round().max(1.0) as usize;
        }
    }
    250
}

fn scaled(n: usize, scale: f64) -> usize {
    ((n as f64 * scale).round() as usize).max(1)
}

// ---------------------------------------------------------------- names

const MODULES: [&str; 50] = [
    "ntp",
    "ssh",
    "sudo",
    "apache",
    "nginx",
    "haproxy",
    "mysql",
    "postgresql",
    "redis",
    "memcached",
    "rabbitmq",
    "kafka",
    "zookeeper",
    "elasticsearch",
    "logstash",
    "grafana",
    "prometheus",
    "consul",
    "vault",
    "docker",
    "kubernetes",
    "etcd",
    "java",
    "tomcat",
    "jenkins",
    "python",
    "nodejs",
    "php",
    "postfix",
    "bind",
    "nfs",
    "samba",
    "sssd",
    "firewalld",
    "selinux",
    "auditd",
    "rsyslog",
    "logrotate",
    "cron",
    "limits",
    "sysctl",
    "chrony",
    "snmp",
    "zabbix",
    "telegraf",
    "filebeat",
    "mongodb",
    "keepalived",
    "squid",
    "lvm",
];

/// Modules a compile uses that the control repo does not ship (no module
/// data: the module layer answers "Module not found").
const FOREIGN_MODULES: [&str; 8] = [
    "stdlib",
    "concat",
    "archive",
    "inifile",
    "vcsrepo",
    "translate",
    "augeas",
    "puppet_agent",
];

const SUBCLASSES: [&str; 10] = [
    "install",
    "config",
    "service",
    "repo",
    "server",
    "client",
    "backup",
    "monitoring",
    "tls",
    "users",
];

const PARAMS: [&str; 48] = [
    "ensure",
    "package_name",
    "package_ensure",
    "service_name",
    "service_ensure",
    "service_enable",
    "config_file",
    "config_dir",
    "port",
    "bind_address",
    "user",
    "group",
    "manage_repo",
    "repo_url",
    "version",
    "log_level",
    "log_dir",
    "max_connections",
    "timeout",
    "servers",
    "options",
    "settings_hash",
    "extra_config",
    "packages",
    "purge",
    "restart_on_change",
    "tls_enable",
    "tls_cert",
    "tls_key",
    "ca_file",
    "listen",
    "workers",
    "memory_ratio",
    "data_dir",
    "backup_enable",
    "backup_schedule",
    "monitoring_enable",
    "allowed_hosts",
    "admin_users",
    "env_vars",
    "limits",
    "proxy",
    "mirror",
    "cache_ratio",
    "retries",
    "manage_user",
    "hosts",
    "labels",
];

const PROFILES: [&str; 40] = [
    "base",
    "web",
    "db",
    "cache",
    "lb",
    "monitoring",
    "logging",
    "backup",
    "security",
    "accounts",
    "firewall",
    "dns",
    "mail",
    "ci",
    "app",
    "queue",
    "search",
    "storage",
    "proxy",
    "vpn",
    "metrics",
    "tracing",
    "k8s_node",
    "k8s_master",
    "bastion",
    "ldap",
    "build",
    "artifact",
    "registry",
    "scheduler",
    "batch",
    "etl",
    "api",
    "frontend",
    "auth",
    "billing",
    "notify",
    "reporting",
    "analytics",
    "motd",
];

const ROLES: [&str; 40] = [
    "web",
    "api",
    "db",
    "cache",
    "lb",
    "mq",
    "search",
    "monitor",
    "log",
    "build",
    "ci",
    "bastion",
    "dns",
    "mail",
    "proxy",
    "storage",
    "backup",
    "vpn",
    "k8s_master",
    "k8s_worker",
    "etl",
    "batch",
    "frontend",
    "auth",
    "billing",
    "registry",
    "artifact",
    "ldap",
    "scheduler",
    "analytics",
    "reporting",
    "gateway",
    "edge",
    "worker",
    "cron",
    "vault",
    "consul",
    "kafka",
    "zk",
    "nfs",
];

const TIERS: [&str; 4] = ["prod", "staging", "qa", "dev"];

const WORDS: [&str; 40] = [
    "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet",
    "kilo", "lima", "mike", "november", "oscar", "papa", "quebec", "romeo", "sierra", "tango",
    "uniform", "victor", "whiskey", "xray", "yankee", "zulu", "amber", "birch", "cedar", "dune",
    "ember", "fjord", "grove", "harbor", "island", "jade", "knoll", "lagoon", "mesa", "nectar",
];

const USERS: [&str; 16] = [
    "alice", "bob", "carol", "dave", "erin", "frank", "grace", "heidi", "ivan", "judy", "mallory",
    "niaj", "olivia", "peggy", "rupert", "sybil",
];

const GROUPS: [&str; 8] = [
    "wheel", "adm", "dev", "ops", "dba", "docker", "audit", "backup",
];

/// (family, name, releases)
const OSES: [(&str, &str, &[&str]); 3] = [
    ("RedHat", "CentOS", &["7", "8", "9"]),
    ("Debian", "Ubuntu", &["10", "11", "12", "20.04", "22.04"]),
    ("Suse", "SLES", &["12", "15"]),
];

const SITE_STRINGS: [(&str, &str); 12] = [
    ("site::domain", "example.com"),
    ("site::org_name", "Example Corp"),
    ("site::proxy_host", "proxy.example.com"),
    ("site::smtp_relay", "smtp.example.com"),
    ("site::syslog_server", "syslog.example.com"),
    ("site::ldap_base", "dc=example,dc=com"),
    ("site::admin_email", "ops@example.com"),
    ("site::timezone", "UTC"),
    ("site::repo_mirror", "https://mirror.example.com"),
    ("site::ca_bundle", "/etc/pki/tls/certs/ca-bundle.crt"),
    (
        "site::monitoring_endpoint",
        "https://metrics.example.com/api/v1/push",
    ),
    ("site::log_level", "info"),
];

const SITE_INTS: [(&str, i64); 4] = [
    ("site::proxy_port", 3128),
    ("site::syslog_port", 514),
    ("site::uid_min", 1000),
    ("site::ssh_port", 22),
];

const SITE_LISTS: [&str; 5] = [
    "site::ntp_servers_list",
    "site::dns_servers_list",
    "site::admin_users_list",
    "site::mirror_hosts_list",
    "site::search_domains_list",
];

/// Site keys the datacenter files override (never with function calls).
const DC_OVERRIDES: [&str; 4] = [
    "site::syslog_server",
    "site::proxy_host",
    "site::ntp_servers_list",
    "site::dns_servers_list",
];

// ---------------------------------------------------------------- keys

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    Str,
    Int,
    Bool,
    Float,
    StrList,
    /// A flat hash of strings (merged with `hash`).
    Flat,
    /// A nested hash following a template (merged with `deep`).
    Tree(TNode),
}

/// A nested hash template: the same shape at every level of the hierarchy,
/// so that deep merges and dotted keys mean something.
#[derive(Clone, Debug, PartialEq)]
enum TNode {
    Leaf(LeafKind),
    Branch(Vec<(String, TNode)>),
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum LeafKind {
    Str,
    Int,
    Bool,
    List,
}

#[derive(Clone, Debug)]
struct KeyDef {
    name: String,
    kind: Kind,
}

impl KeyDef {
    fn is_stringish(&self) -> bool {
        matches!(self.kind, Kind::Str | Kind::StrList)
    }
}

struct Class {
    name: String,
    params: Vec<usize>,
}

struct Module {
    name: String,
    classes: Vec<Class>,
}

struct Universe {
    keys: Vec<KeyDef>,
    index: BTreeMap<String, usize>,
    modules: Vec<Module>,
    profiles: Vec<Class>,
    foreign: Vec<Class>,
    /// Module params and profile params, in popularity order.
    overridable: Vec<usize>,
    site_scalars: Vec<usize>,
    site_lists: Vec<usize>,
}

impl Universe {
    fn add(&mut self, name: String, kind: Kind) -> usize {
        if let Some(&i) = self.index.get(&name) {
            return i;
        }
        let i = self.keys.len();
        self.index.insert(name.clone(), i);
        self.keys.push(KeyDef { name, kind });
        i
    }
}

fn param_kind(rng: &mut Rng, param: &str) -> Kind {
    match param {
        "service_enable" | "manage_repo" | "purge" | "restart_on_change" | "tls_enable"
        | "backup_enable" | "monitoring_enable" | "manage_user" => Kind::Bool,
        "port" | "max_connections" | "timeout" | "workers" | "retries" => Kind::Int,
        "memory_ratio" | "cache_ratio" => Kind::Float,
        "servers" | "packages" | "allowed_hosts" | "admin_users" | "listen" | "hosts" => {
            Kind::StrList
        }
        "options" | "env_vars" | "labels" => Kind::Flat,
        "settings_hash" | "extra_config" | "limits" => {
            let depth = 1 + rng.below(3);
            Kind::Tree(template(rng, depth, 0))
        }
        _ => Kind::Str,
    }
}

/// A template whose deepest branch is `depth` hashes deep.
fn template(rng: &mut Rng, depth: usize, level: usize) -> TNode {
    if depth == 0 {
        return TNode::Leaf(*rng.pick(&[
            LeafKind::Str,
            LeafKind::Str,
            LeafKind::Int,
            LeafKind::Bool,
            LeafKind::List,
        ]));
    }
    let width = if level == 0 {
        rng.range(3, 6)
    } else {
        rng.range(2, 4)
    };
    let deep_child = rng.below(width);
    let mut names: Vec<&str> = WORDS.to_vec();
    rng.shuffle(&mut names);
    let children = (0..width)
        .map(|i| {
            let child_depth = if i == deep_child {
                depth - 1
            } else if depth > 1 && rng.chance(0.3) {
                rng.below(depth.min(3))
            } else {
                0
            };
            (names[i].to_string(), template(rng, child_depth, level + 1))
        })
        .collect();
    TNode::Branch(children)
}

fn build_universe(rng: &mut Rng, scale: f64, shape: &Shape) -> Universe {
    let mut u = Universe {
        keys: Vec::new(),
        index: BTreeMap::new(),
        modules: Vec::new(),
        profiles: Vec::new(),
        foreign: Vec::new(),
        overridable: Vec::new(),
        site_scalars: Vec::new(),
        site_lists: Vec::new(),
    };
    // site:: keys: the targets of interpolation functions.
    for (k, _) in SITE_STRINGS {
        let i = u.add(k.to_string(), Kind::Str);
        u.site_scalars.push(i);
    }
    for (k, _) in SITE_INTS {
        let i = u.add(k.to_string(), Kind::Int);
        u.site_scalars.push(i);
    }
    for k in SITE_LISTS {
        let i = u.add(k.to_string(), Kind::StrList);
        u.site_lists.push(i);
    }
    for n in 0..scaled(40, scale) {
        let kind = if n % 3 == 0 { Kind::Int } else { Kind::Str };
        let i = u.add(format!("site::setting_{n:03}"), kind);
        u.site_scalars.push(i);
    }
    // Modules and their classes' parameters.
    let n_modules = ((50.0 * shape.modules * scale).round() as usize).max(1);
    for m in 0..n_modules {
        let base = MODULES[m % MODULES.len()];
        let name = if m < MODULES.len() {
            base.to_string()
        } else {
            format!("{base}_{}", m / MODULES.len() + 1)
        };
        let mut classes = Vec::new();
        let mut subs: Vec<&str> = SUBCLASSES.to_vec();
        rng.shuffle(&mut subs);
        let n_classes = rng.range(3, 7);
        for c in 0..n_classes {
            let cname = if c == 0 {
                name.clone()
            } else {
                format!("{name}::{}", subs[c - 1])
            };
            let mut params: Vec<&str> = PARAMS.to_vec();
            rng.shuffle(&mut params);
            let n_params = rng.range(3, 12);
            let ids = params[..n_params]
                .iter()
                .map(|p| {
                    let kind = param_kind(rng, p);
                    u.add(format!("{cname}::{p}"), kind)
                })
                .collect();
            classes.push(Class {
                name: cname,
                params: ids,
            });
        }
        u.modules.push(Module { name, classes });
    }
    // Profiles: environment-level classes.
    let n_profiles = scaled(40, scale);
    for p in 0..n_profiles {
        let base = PROFILES[p % PROFILES.len()];
        let name = if p < PROFILES.len() {
            format!("profile::{base}")
        } else {
            format!("profile::{base}_{}", p / PROFILES.len() + 1)
        };
        let mut params: Vec<&str> = PARAMS.to_vec();
        rng.shuffle(&mut params);
        let n_params = rng.range(3, 9);
        let mut ids: Vec<usize> = params[..n_params]
            .iter()
            .map(|q| {
                let kind = param_kind(rng, q);
                u.add(format!("{name}::{q}"), kind)
            })
            .collect();
        // `settings`: deep merged through the `^profile::.*::settings$` option.
        let depth = 1 + rng.below(3);
        ids.push(u.add(
            format!("{name}::settings"),
            Kind::Tree(template(rng, depth, 0)),
        ));
        // Some profiles have deep configuration trees (up to 10 hashes deep).
        if p % 4 == 0 {
            let depth = *rng.pick(&[4, 5, 6, 7, 8, 9, 10]);
            ids.push(u.add(
                format!("{name}::config"),
                Kind::Tree(template(rng, depth, 0)),
            ));
        }
        u.profiles.push(Class { name, params: ids });
    }
    // The special keys.
    let special = |u: &mut Universe, class: &str, param: &str, kind: Kind| {
        let i = u.add(format!("{class}::{param}"), kind);
        if let Some(c) = u.profiles.iter_mut().find(|c| c.name == class) {
            if !c.params.contains(&i) {
                c.params.push(i);
            }
        }
        i
    };
    special(&mut u, "profile::base", "packages", Kind::StrList);
    special(
        &mut u,
        "profile::accounts",
        "users",
        Kind::Tree(TNode::Leaf(LeafKind::Str)),
    );
    special(&mut u, "profile::firewall", "rules", Kind::Flat);
    special(&mut u, "profile::motd", "banner", Kind::Str);
    special(
        &mut u,
        "profile::app",
        "config",
        Kind::Tree(template(rng, 10, 0)),
    );
    u.add(
        "profile::bench::tuning".into(),
        Kind::Tree(TNode::Leaf(LeafKind::Str)),
    );
    // Foreign modules (APL misses through a missing module).
    for m in FOREIGN_MODULES {
        for sub in ["", "::params", "::setup"] {
            let cname = format!("{m}{sub}");
            let mut params: Vec<&str> = PARAMS.to_vec();
            rng.shuffle(&mut params);
            let ids = params[..rng.range(2, 6)]
                .iter()
                .map(|q| {
                    let kind = param_kind(rng, q);
                    u.add(format!("{cname}::{q}"), kind)
                })
                .collect();
            u.foreign.push(Class {
                name: cname,
                params: ids,
            });
        }
    }
    // Popularity order of the keys files override.
    let mut over: Vec<usize> = u
        .modules
        .iter()
        .flat_map(|m| m.classes.iter().flat_map(|c| c.params.iter().copied()))
        .collect();
    over.extend(u.profiles.iter().flat_map(|c| c.params.iter().copied()));
    over.retain(|&i| !is_special(&u.keys[i].name));
    rng.shuffle(&mut over);
    u.overridable = over;
    u
}

fn is_special(name: &str) -> bool {
    matches!(
        name,
        "profile::accounts::users" | "profile::bench::tuning" | "profile::motd::banner"
    )
}

// ---------------------------------------------------------------- values

fn word(rng: &mut Rng) -> &'static str {
    WORDS[rng.below(WORDS.len())]
}

fn scalar_leaf(rng: &mut Rng, kind: LeafKind) -> Value {
    match kind {
        LeafKind::Str => Value::from(format!("{}-{}", word(rng), rng.below(100))),
        LeafKind::Int => Value::Int(rng.below(10_000) as i64),
        LeafKind::Bool => Value::Bool(rng.chance(0.5)),
        LeafKind::List => Value::array(
            (0..rng.range(1, 4))
                .map(|_| Value::from(word(rng)))
                .collect(),
        ),
    }
}

fn instance(rng: &mut Rng, t: &TNode, level: usize) -> Value {
    match t {
        TNode::Leaf(k) => scalar_leaf(rng, *k),
        TNode::Branch(children) => {
            let mut m = Map::default();
            // The deepest child is always there (so every value reaches the
            // template's depth); the others are there at random, the first
            // levels more often than deeper ones.
            let deepest = children.iter().map(|(_, c)| tdepth(c)).max().unwrap_or(0);
            for (name, child) in children {
                let p = if level == 0 { 0.8 } else { 0.65 };
                if tdepth(child) == deepest || rng.chance(p) {
                    m.insert(Value::from(name.as_str()), instance(rng, child, level + 1));
                }
            }
            if m.is_empty() {
                let (name, child) = &children[0];
                m.insert(Value::from(name.as_str()), instance(rng, child, level + 1));
            }
            Value::hash(m)
        }
    }
}

fn tdepth(t: &TNode) -> usize {
    match t {
        TNode::Leaf(_) => 0,
        TNode::Branch(c) => 1 + c.iter().map(|(_, x)| tdepth(x)).max().unwrap_or(0),
    }
}

/// Every path through a template (to a branch or a leaf), with whether it
/// ends on a leaf.
fn template_paths(t: &TNode, prefix: &mut Vec<String>, out: &mut Vec<Vec<String>>) {
    if let TNode::Branch(children) = t {
        for (name, child) in children {
            prefix.push(name.clone());
            out.push(prefix.clone());
            template_paths(child, prefix, out);
            prefix.pop();
        }
    }
}

fn plain_value(rng: &mut Rng, key: &KeyDef) -> Value {
    match &key.kind {
        Kind::Str => {
            let leaf = key.name.rsplit("::").next().unwrap_or("value");
            match leaf {
                "ensure" | "package_ensure" => {
                    Value::from(*rng.pick(&["present", "latest", "installed", "absent"]))
                }
                "service_ensure" => Value::from(*rng.pick(&["running", "stopped"])),
                "log_level" => Value::from(*rng.pick(&["debug", "info", "warn", "error"])),
                "version" => Value::from(format!(
                    "{}.{}.{}",
                    rng.below(10),
                    rng.below(20),
                    rng.below(40)
                )),
                "config_file" | "config_dir" | "log_dir" | "data_dir" | "tls_cert" | "tls_key"
                | "ca_file" => Value::from(format!("/srv/{}/{}", word(rng), leaf)),
                _ => Value::from(format!("{}-{}", word(rng), rng.below(1000))),
            }
        }
        Kind::Int => Value::Int(rng.range(1, 65_000) as i64),
        Kind::Bool => Value::Bool(rng.chance(0.5)),
        Kind::Float => Value::Float(rng.range(1, 40) as f64 / 4.0),
        Kind::StrList => {
            let n = rng.range(1, 6);
            Value::array(
                (0..n)
                    .map(|_| Value::from(format!("{}.example.com", word(rng))))
                    .collect(),
            )
        }
        Kind::Flat => {
            let mut m = Map::default();
            for _ in 0..rng.range(1, 6) {
                m.insert(
                    Value::from(word(rng)),
                    Value::from(format!("{}", rng.below(1000))),
                );
            }
            Value::hash(m)
        }
        Kind::Tree(t) => {
            if key.name == "profile::accounts::users" {
                accounts(rng, false)
            } else if key.name == "profile::bench::tuning" {
                bench_tuning(rng, 0)
            } else {
                instance(rng, t, 0)
            }
        }
    }
}

/// `profile::accounts::users`: user => {uid, shell, groups}; with
/// `knockout`, some groups are knocked out (`--wheel`) for the deep merge
/// with `knockout_prefix: '--'` that lookup_options configures.
fn accounts(rng: &mut Rng, knockout: bool) -> Value {
    let mut m = Map::default();
    let mut users: Vec<&str> = USERS.to_vec();
    rng.shuffle(&mut users);
    for u in &users[..rng.range(2, 6)] {
        let mut e = Map::default();
        e.insert(
            "uid".into(),
            Value::Int(1000 + USERS.iter().position(|x| x == u).unwrap() as i64),
        );
        if rng.chance(0.5) {
            e.insert(
                "shell".into(),
                Value::from(*rng.pick(&["/bin/bash", "/bin/zsh", "/sbin/nologin"])),
            );
        }
        let mut groups: Vec<Value> = Vec::new();
        for _ in 0..rng.range(1, 3) {
            let g = *rng.pick(&GROUPS);
            if knockout && rng.chance(0.4) {
                groups.push(Value::from(format!("--{g}")));
            } else {
                groups.push(Value::from(g));
            }
        }
        e.insert("groups".into(), Value::array(groups));
        m.insert(Value::from(*u), Value::hash(e));
    }
    Value::hash(m)
}

/// The deep merge benchmark's hash: 100 keys (of 150 names, so levels
/// overlap), one in four a nested hash two levels deep.
pub fn bench_tuning(rng: &mut Rng, level: usize) -> Value {
    let mut names: Vec<usize> = (0..150).collect();
    if level > 0 {
        rng.shuffle(&mut names);
    }
    let mut picked: Vec<usize> = names[..100].to_vec();
    picked.sort_unstable();
    let mut m = Map::default();
    for i in picked {
        let v = if i % 4 == 0 {
            let mut inner = Map::default();
            inner.insert("enabled".into(), Value::Bool(rng.chance(0.5)));
            inner.insert("weight".into(), Value::Int(rng.below(100) as i64));
            let mut limits = Map::default();
            limits.insert("soft".into(), Value::Int(rng.below(1000) as i64));
            limits.insert("hard".into(), Value::Int(1000 + rng.below(1000) as i64));
            inner.insert("limits".into(), Value::hash(limits));
            inner.insert(
                "tags".into(),
                Value::array(vec![
                    Value::from(word(rng)),
                    Value::from(format!("level{level}")),
                ]),
            );
            Value::hash(inner)
        } else if i % 4 == 1 {
            Value::Int(rng.below(100_000) as i64)
        } else {
            Value::from(format!("{}-{level}", word(rng)))
        };
        m.insert(Value::from(format!("k{i:03}")), v);
    }
    Value::hash(m)
}

const VAR_TEMPLATES: [&str; 10] = [
    "%{trusted.certname}",
    "/srv/%{facts.app}/data",
    "%{::datacenter}-%{facts.zone}",
    "%{facts.networking.ip}",
    "%{facts.os.family}-%{facts.os.release.major}",
    "%{hostname}.%{domain}",
    "%{facts.role}-%{facts.tier}",
    "team-%{facts.team}@example.com",
    "workers-%{facts.processors.count}",
    "%{trusted.hostname}.%{::datacenter}.internal",
];

fn var_string(rng: &mut Rng) -> String {
    rng.pick(&VAR_TEMPLATES).to_string()
}

fn site_string_target(rng: &mut Rng, u: &Universe) -> String {
    // Only the fixed site scalars: always in the environment's common.yaml.
    let i = rng.below(SITE_STRINGS.len() + SITE_INTS.len());
    u.keys[u.site_scalars[i]].name.clone()
}

fn func_string(rng: &mut Rng, u: &Universe) -> String {
    let t = site_string_target(rng, u);
    match rng.below(6) {
        0 => format!("%{{lookup('{t}')}}"),
        1 => format!("%{{hiera('{t}')}}"),
        2 => format!("{}.%{{lookup('site::domain')}}", word(rng)),
        3 => format!(
            "http://%{{hiera('site::proxy_host')}}:%{{lookup('site::proxy_port')}}/{}",
            word(rng)
        ),
        4 => format!("%{{scope('datacenter')}}: %{{lookup(\"{t}\")}}"),
        _ => format!("100%{{literal('%')}} %{{lookup('{t}')}} on %{{facts.os.name}}"),
    }
}

/// An interpolated value for a string-ish key: variables only, or (with
/// `func`) function calls.
fn interpolated_value(rng: &mut Rng, u: &Universe, key: &KeyDef, func: bool) -> Value {
    match key.kind {
        Kind::StrList => {
            if func && rng.chance(0.35) {
                let t = u.keys[*rng.pick(&u.site_lists)].name.clone();
                return Value::from(format!("%{{alias('{t}')}}"));
            }
            let s = if func {
                func_string(rng, u)
            } else {
                var_string(rng)
            };
            Value::array(vec![
                Value::from(s),
                Value::from(format!("{}.example.com", word(rng))),
            ])
        }
        _ => Value::from(if func {
            func_string(rng, u)
        } else {
            var_string(rng)
        }),
    }
}

// ---------------------------------------------------------------- files

/// One YAML data file being built.
struct DataFile {
    path: String,
    entries: Map,
    interpolated: bool,
    functions: bool,
}

impl DataFile {
    fn new(path: String) -> DataFile {
        DataFile {
            path,
            entries: Map::default(),
            interpolated: false,
            functions: false,
        }
    }

    fn has(&self, key: &str) -> bool {
        self.entries.contains_key(&Value::from(key))
    }

    fn set(&mut self, key: &str, v: Value) {
        self.entries.insert(Value::from(key), v);
    }
}

/// Where a data file sits, which decides what it may hold.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Place {
    Global,
    Env,
    EnvCommon,
    Datacenter,
    Role,
    RoleTier,
    Module(usize),
}

/// Fills a file with `n` keys: overridable keys by popularity (or the
/// module's own params), and interpolation in about 12% of the files.
fn fill(
    rng: &mut Rng,
    u: &Universe,
    f: &mut DataFile,
    n: usize,
    place: Place,
    interp: &mut BTreeSet<usize>,
) {
    let pool: Vec<usize> = match place {
        Place::Module(m) => u.modules[m]
            .classes
            .iter()
            .flat_map(|c| c.params.iter().copied())
            .collect(),
        _ => u.overridable.clone(),
    };
    let n = n.min(pool.len());
    let mut chosen: Vec<usize> = Vec::new();
    let mut guard = 0;
    while chosen.len() < n && guard < n * 20 {
        guard += 1;
        let i = match place {
            Place::Module(_) => pool[rng.below(pool.len())],
            _ => pool[rng.skewed(pool.len())],
        };
        if !chosen.contains(&i) && !f.has(&u.keys[i].name) {
            chosen.push(i);
        }
    }
    let with_interp = rng.chance(0.12);
    let with_func = with_interp && rng.chance(0.5);
    if with_interp {
        // 1 to 3 interpolated values; add a string key when none was chosen.
        let mut targets: Vec<usize> = chosen
            .iter()
            .copied()
            .filter(|&i| u.keys[i].is_stringish())
            .collect();
        if targets.is_empty() {
            let candidates: Vec<usize> = pool
                .iter()
                .copied()
                .filter(|&i| u.keys[i].is_stringish() && !chosen.contains(&i))
                .collect();
            if !candidates.is_empty() {
                let i = *rng.pick(&candidates);
                chosen.push(i);
                targets.push(i);
            }
        }
        targets.truncate(rng.range(1, 3));
        for (j, &i) in targets.iter().enumerate() {
            let func = with_func && (j == 0 || rng.chance(0.5));
            let v = interpolated_value(rng, u, &u.keys[i], func);
            f.set(&u.keys[i].name, v);
            interp.insert(i);
        }
        f.interpolated = !targets.is_empty();
        f.functions = with_func && !targets.is_empty();
    }
    for i in chosen {
        let k = &u.keys[i];
        if !f.has(&k.name) {
            let v = plain_value(rng, k);
            f.set(&k.name, v);
        }
    }
}

// ---------------------------------------------------------------- YAML

fn plain_key_ok(k: &str) -> bool {
    let mut chars = k.chars();
    matches!(chars.next(), Some('a'..='z'))
        && k.chars()
            .all(|c| matches!(c, 'a'..='z' | '0'..='9' | '_' | ':'))
        && !k.ends_with(':')
        && !matches!(
            k,
            "yes" | "no" | "on" | "off" | "true" | "false" | "null" | "y" | "n"
        )
}

fn yaml_quoted(s: &str, out: &mut String) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn yaml_key(k: &Value, out: &mut String) {
    let s = k.as_str().expect("string keys only");
    if plain_key_ok(s) {
        out.push_str(s);
    } else {
        out.push('\'');
        out.push_str(&s.replace('\'', "''"));
        out.push('\'');
    }
}

fn yaml_scalar(v: &Value, out: &mut String) {
    match v {
        Value::Nil => out.push('~'),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => {
            let s = format!("{f:?}");
            out.push_str(&s);
        }
        Value::String(s) => yaml_quoted(s, out),
        other => panic!("not a generated scalar: {other:?}"),
    }
}

fn yaml_map(m: &Map, indent: usize, out: &mut String) {
    for (k, v) in m.iter() {
        for _ in 0..indent {
            out.push(' ');
        }
        yaml_key(k, out);
        out.push(':');
        yaml_value(v, indent, out);
    }
}

fn yaml_value(v: &Value, indent: usize, out: &mut String) {
    match v {
        Value::Hash(h) if h.is_empty() => out.push_str(" {}\n"),
        Value::Hash(h) => {
            out.push('\n');
            yaml_map(h, indent + 2, out);
        }
        Value::Array(a) if a.is_empty() => out.push_str(" []\n"),
        Value::Array(a) => {
            out.push('\n');
            for e in a.iter() {
                for _ in 0..indent + 2 {
                    out.push(' ');
                }
                out.push_str("- ");
                yaml_scalar(e, out);
                out.push('\n');
            }
        }
        s => {
            out.push(' ');
            yaml_scalar(s, out);
            out.push('\n');
        }
    }
}

/// A YAML document for a data hash, as the generator writes it.
pub fn to_yaml_doc(m: &Map) -> String {
    let mut out = String::from("---\n");
    yaml_map(m, 0, &mut out);
    out
}

// ---------------------------------------------------------------- nodes

/// A node the workload runs for.
#[derive(Clone, Debug)]
pub struct Node {
    pub certname: String,
    pub facts: Map,
}

#[derive(Clone, Debug)]
struct HostSpec {
    certname: String,
    role: usize,
    tier: usize,
    dc: usize,
    zone: usize,
    os: usize,
    release: usize,
    team: usize,
    app: usize,
    netzone: usize,
    vlan: usize,
}

struct Dims {
    roles: Vec<String>,
    dcs: Vec<String>,
    zones_per_dc: usize,
    teams: Vec<String>,
    apps: Vec<String>,
    netzones: Vec<String>,
    vlans: usize,
}

fn random_host(rng: &mut Rng, d: &Dims, serial: usize) -> HostSpec {
    let role = rng.below(d.roles.len());
    let tier = *rng.pick(&[0, 0, 0, 1, 1, 2, 3]);
    let dc = rng.below(d.dcs.len());
    let os = *rng.pick(&[0, 0, 1, 1, 1, 2]);
    let release = rng.below(OSES[os].2.len());
    let certname = format!(
        "{}-{}{:04}.{}.example.com",
        d.roles[role].replace('_', "-"),
        TIERS[tier],
        serial,
        d.dcs[dc]
    );
    HostSpec {
        certname,
        role,
        tier,
        dc,
        zone: rng.below(d.zones_per_dc),
        os,
        release,
        team: rng.below(d.teams.len()),
        app: rng.below(d.apps.len()),
        netzone: rng.below(d.netzones.len()),
        vlan: rng.below(d.vlans),
    }
}

fn facts_for(rng: &mut Rng, h: &HostSpec, d: &Dims) -> Map {
    let (family, osname, releases) = OSES[h.os];
    let major = releases[h.release];
    let (host, domain) = h.certname.split_once('.').unwrap();
    let ip = format!(
        "10.{}.{}.{}",
        h.dc * 16 + h.netzone % 16,
        rng.below(250) + 1,
        rng.below(250) + 2
    );
    let hm = |pairs: Vec<(&str, Value)>| {
        let mut m = Map::default();
        for (k, v) in pairs {
            m.insert(Value::from(k), v);
        }
        Value::hash(m)
    };
    let cpus = *rng.pick(&[2i64, 4, 8, 16, 32]);
    let mut f = Map::default();
    let mut put = |k: &str, v: Value| {
        f.insert(Value::from(k), v);
    };
    put("clientcert", h.certname.as_str().into());
    put("fqdn", h.certname.as_str().into());
    put("hostname", host.into());
    put("domain", domain.into());
    put("role", d.roles[h.role].as_str().into());
    put("tier", TIERS[h.tier].into());
    put("datacenter", d.dcs[h.dc].as_str().into());
    put("zone", format!("zone{}", h.zone).into());
    put("team", d.teams[h.team].as_str().into());
    put("app", d.apps[h.app].as_str().into());
    put("network_zone", d.netzones[h.netzone].as_str().into());
    put("vlan", format!("vlan{}", 100 + h.vlan).into());
    put(
        "os",
        hm(vec![
            ("name", osname.into()),
            ("family", family.into()),
            ("architecture", "x86_64".into()),
            (
                "release",
                hm(vec![
                    ("major", major.into()),
                    ("minor", "1".into()),
                    ("full", format!("{major}.1").into()),
                ]),
            ),
            (
                "selinux",
                hm(vec![("enabled", Value::Bool(family == "RedHat"))]),
            ),
        ]),
    );
    put("kernel", "Linux".into());
    put(
        "kernelrelease",
        format!("5.{}.0-{}", rng.below(20), rng.below(100)).into(),
    );
    put(
        "processors",
        hm(vec![
            ("count", Value::Int(cpus)),
            ("physicalcount", Value::Int(1)),
        ]),
    );
    put(
        "memory",
        hm(vec![(
            "system",
            hm(vec![
                ("total_bytes", Value::Int(cpus * 4 * 1024 * 1024 * 1024)),
                ("total", format!("{}.00 GiB", cpus * 4).into()),
            ]),
        )]),
    );
    put(
        "networking",
        hm(vec![
            ("fqdn", h.certname.as_str().into()),
            ("hostname", host.into()),
            ("domain", domain.into()),
            ("ip", ip.as_str().into()),
            (
                "mac",
                format!(
                    "52:54:00:{:02x}:{:02x}:{:02x}",
                    rng.below(256),
                    rng.below(256),
                    rng.below(256)
                )
                .into(),
            ),
            ("primary", "eth0".into()),
            (
                "interfaces",
                hm(vec![(
                    "eth0",
                    hm(vec![("ip", ip.as_str().into()), ("mtu", Value::Int(1500))]),
                )]),
            ),
        ]),
    );
    put("virtual", "kvm".into());
    put("is_virtual", Value::Bool(true));
    put("timezone", "UTC".into());
    put("uptime_days", Value::Int(rng.below(400) as i64));
    put("puppetversion", "7.23.0".into());
    put(
        "path",
        "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin".into(),
    );
    f
}

// ---------------------------------------------------------------- corpus

/// Keys the benches use, chosen by the generator.
#[derive(Clone, Debug, Default)]
pub struct Probes {
    /// A module parameter found only in the environment's common.yaml (a hit
    /// after searching every level).
    pub hit: String,
    /// A module parameter of an existing module that no file defines.
    pub miss: String,
    /// A dotted key into a nested hash of the environment's common.yaml.
    pub dotted: String,
    /// A key whose common.yaml value interpolates facts, trusted data and a
    /// `lookup`.
    pub interpolated: String,
    /// The 100-key hash defined at three levels for every node (common,
    /// role, datacenter).
    pub deep: String,
}

/// Counts for the summary.
#[derive(Clone, Debug, Default)]
pub struct Stats {
    pub data_files: usize,
    pub config_files: usize,
    pub yaml_bytes: usize,
    pub keys: usize,
    pub keys_median: usize,
    pub keys_p90: usize,
    pub keys_max: usize,
    pub common_keys: usize,
    pub files_interpolated: usize,
    pub files_functions: usize,
    pub levels: usize,
    pub modules: usize,
    pub max_depth: usize,
    pub node_files: usize,
    pub workload: usize,
    pub workload_kinds: BTreeMap<String, usize>,
}

/// A generated corpus, in memory.
pub struct Corpus {
    pub seed: u64,
    pub scale: f64,
    pub shape: Shape,
    /// Every file, by path relative to the corpus root (sorted).
    pub files: BTreeMap<String, String>,
    /// The data files' paths (YAML), relative to the root.
    pub data_files: Vec<String>,
    pub nodes: Vec<Node>,
    /// The workload: request objects in the `--batch` format.
    pub workload: Vec<Value>,
    pub probes: Probes,
    pub stats: Stats,
}

const ENV_HIERA: &str = r#"---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "Per-node data"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Role and tier"
    path: "roles/%{facts.role}/%{facts.tier}.yaml"
  - name: "Role"
    path: "roles/%{facts.role}.yaml"
  - name: "Datacenter zone"
    path: "datacenters/%{::datacenter}/%{facts.zone}.yaml"
  - name: "Datacenter"
    path: "datacenters/%{::datacenter}.yaml"
  - name: "OS release"
    path: "os/%{facts.os.family}/%{facts.os.release.major}.yaml"
  - name: "OS family"
    path: "os/%{facts.os.family}.yaml"
  - name: "Teams and applications"
    paths:
      - "teams/%{facts.team}.yaml"
      - "apps/%{facts.app}.yaml"
  - name: "Network"
    paths:
      - "networks/%{facts.network_zone}/%{facts.vlan}.yaml"
      - "networks/%{facts.network_zone}.yaml"
  - name: "Common"
    path: "common.yaml"
"#;

const ENV_LEVELS: usize = 10;

const GLOBAL_HIERA: &str = r#"---
version: 5
defaults:
  datadir: global
  data_hash: yaml_data
hierarchy:
  - name: "Global per-node overrides"
    path: "nodes/%{trusted.certname}.yaml"
  - name: "Global common"
    path: "common.yaml"
"#;

const MODULE_HIERA: &str = r#"---
version: 5
defaults:
  datadir: data
  data_hash: yaml_data
hierarchy:
  - name: "OS family"
    path: "os/%{facts.os.family}.yaml"
  - name: "Common"
    path: "common.yaml"
"#;

/// The environment's hiera.yaml with `n` levels (see [`shape::kept_levels`];
/// 10 is [`ENV_HIERA`] itself).
fn env_hiera(n: usize) -> String {
    if n == ENV_LEVELS {
        return ENV_HIERA.to_string();
    }
    let (head, levels) = ENV_HIERA.split_once("  - name:").unwrap();
    let blocks: Vec<String> = format!("  - name:{levels}").split_inclusive('\n').fold(
        Vec::new(),
        |mut acc: Vec<String>, line| {
            if line.starts_with("  - name:") || acc.is_empty() {
                acc.push(String::new());
            }
            acc.last_mut().unwrap().push_str(line);
            acc
        },
    );
    let mut out = head.to_string();
    for &l in &shape::kept_levels(n) {
        if l == ENV_LEVELS - 1 {
            for e in 0..n.saturating_sub(ENV_LEVELS) {
                let fact = if e % 2 == 0 { "team" } else { "app" };
                out.push_str(&format!(
                    "  - name: \"Extra level {e}\"\n    path: \"extra{e}/{fact}/%{{facts.{fact}}}.yaml\"\n"
                ));
            }
        }
        out.push_str(&blocks[l]);
    }
    out
}

/// A module's hiera.yaml with `n` levels (2 is [`MODULE_HIERA`]).
fn module_hiera(n: usize) -> String {
    let mut out = String::from(
        "---\nversion: 5\ndefaults:\n  datadir: data\n  data_hash: yaml_data\nhierarchy:\n",
    );
    if n >= 4 {
        out.push_str("  - name: \"Role\"\n    path: \"roles/%{facts.role}.yaml\"\n");
    }
    if n >= 3 {
        out.push_str(
            "  - name: \"OS release\"\n    path: \"os/%{facts.os.family}/%{facts.os.release.major}.yaml\"\n",
        );
    }
    if n >= 2 {
        out.push_str("  - name: \"OS family\"\n    path: \"os/%{facts.os.family}.yaml\"\n");
    }
    out.push_str("  - name: \"Common\"\n    path: \"common.yaml\"\n");
    if n == 2 {
        debug_assert_eq!(out, MODULE_HIERA);
    }
    out
}

/// Replaces shares of the workload's automatic parameter lookups (see
/// [`Shape`]): misses (a parameter of the same class that no file defines),
/// dotted keys, merges and interpolated keys (copies of the workload's own
/// requests of those kinds). Nothing changes for the default shape.
fn reshape_workload(
    rng: &mut Rng,
    shape: &Shape,
    defined: &BTreeSet<String>,
    workload: &mut [(Value, String)],
    kinds: &mut BTreeMap<String, usize>,
) {
    let shares = [
        ("miss", shape.misses),
        ("dotted", shape.dotted),
        ("merge", shape.merges),
        ("interpolated", shape.interpolated),
    ];
    if shares.iter().all(|(_, s)| *s == 0.0) {
        return;
    }
    let pool = |pred: &dyn Fn(&str) -> bool| -> Vec<(Value, String)> {
        workload.iter().filter(|(_, k)| pred(k)).cloned().collect()
    };
    let dotted = pool(&|k| k == "dotted");
    let merges = pool(&|k| k.starts_with("merge_"));
    let interpolated = pool(&|k| k == "interpolated");
    let mut n_miss = 0usize;
    for (request, kind) in workload.iter_mut() {
        if kind != "apl" {
            continue;
        }
        let x = rng.unit();
        let mut acc = 0.0;
        let mut chosen = None;
        for (name, share) in shares {
            acc += share;
            if x < acc {
                chosen = Some(name);
                break;
            }
        }
        let new = match chosen {
            None => continue,
            Some("miss") => {
                let key = request
                    .get("key")
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                let class = key.rsplit_once("::").map_or(key, |(c, _)| c);
                let mut name = format!("{class}::unset_{n_miss}");
                while defined.contains(&name) {
                    n_miss += 1;
                    name = format!("{class}::unset_{n_miss}");
                }
                n_miss += 1;
                (req(&name), "apl_miss".to_string())
            }
            Some("dotted") if !dotted.is_empty() => dotted[rng.below(dotted.len())].clone(),
            Some("merge") if !merges.is_empty() => merges[rng.below(merges.len())].clone(),
            Some("interpolated") if !interpolated.is_empty() => {
                interpolated[rng.below(interpolated.len())].clone()
            }
            Some(_) => continue,
        };
        *kinds.get_mut("apl").unwrap() -= 1;
        *kinds.entry(new.1.clone()).or_default() += 1;
        *request = new.0;
        *kind = new.1;
    }
}

fn map_of(pairs: Vec<(&str, Value)>) -> Value {
    let mut m = Map::default();
    for (k, v) in pairs {
        m.insert(Value::from(k), v);
    }
    Value::hash(m)
}

fn merge_opt(strategy: &str) -> Value {
    map_of(vec![("merge", Value::from(strategy))])
}

impl Corpus {
    /// Generates the corpus for `seed` and `scale` (1.0 = issue 7's spec).
    pub fn generate(seed: u64, scale: f64) -> Corpus {
        Corpus::generate_shaped(seed, scale, &Shape::default())
    }

    /// Generates a corpus of another shape (see [`Shape`]); the default
    /// shape gives what [`Corpus::generate`] gives.
    pub fn generate_shaped(seed: u64, scale: f64, shape: &Shape) -> Corpus {
        assert!(scale > 0.0, "scale must be positive");
        let mut root = Rng::new(seed);
        // The shape's own draws (none for the default shape).
        // Not a fork of `root`, which would change the default shape's draws.
        let mut srng = Rng::new(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ 0x5348_4150_4500);
        let mut rng = root.fork("universe");
        let u = build_universe(&mut rng, scale, shape);

        let dims = {
            let n_roles = scaled(40, scale);
            let roles = (0..n_roles)
                .map(|i| {
                    if i < ROLES.len() {
                        ROLES[i].to_string()
                    } else {
                        format!("{}_{}", ROLES[i % ROLES.len()], i / ROLES.len() + 1)
                    }
                })
                .collect();
            let dcs = (0..scaled(8, scale))
                .map(|i| format!("dc{}", i + 1))
                .collect();
            let name = |prefix: &str, i: usize| {
                let suffix = if i >= WORDS.len() {
                    format!("{}", i / WORDS.len())
                } else {
                    String::new()
                };
                format!("{prefix}{}{suffix}", WORDS[i % WORDS.len()])
            };
            let teams = (0..scaled(30, scale)).map(|i| name("team_", i)).collect();
            let apps = (0..scaled(120, scale)).map(|i| name("app_", i)).collect();
            let netzones = (0..scaled(20, scale)).map(|i| name("net_", i)).collect();
            Dims {
                roles,
                dcs,
                zones_per_dc: 4,
                teams,
                apps,
                netzones,
                vlans: 5,
            }
        };

        let mut files: BTreeMap<String, String> = BTreeMap::new();
        let mut data: Vec<DataFile> = Vec::new();
        let mut interp_keys: BTreeSet<usize> = BTreeSet::new();
        let mut rng = root.fork("data");
        let env = format!("environments/{ENVIRONMENT}");

        // Hosts of the fleet: node files exist for them.
        let mut hosts_rng = root.fork("hosts");
        let fleet: Vec<HostSpec> = (0..((900.0 * shape.node_files * scale).round() as usize)
            .max(1))
            .map(|i| random_host(&mut hosts_rng, &dims, i))
            .collect();

        // -- environment layer
        let simple = |rng: &mut Rng, path: String, place: Place, interp: &mut BTreeSet<usize>| {
            let mut f = DataFile::new(path);
            let n = shape.file_keys(keys_per_file(rng));
            fill(rng, &u, &mut f, n, place, interp);
            f
        };
        for h in &fleet {
            data.push(simple(
                &mut rng,
                format!("{env}/data/nodes/{}.yaml", h.certname),
                Place::Env,
                &mut interp_keys,
            ));
        }
        for (ri, role) in dims.roles.iter().enumerate() {
            let mut f = simple(
                &mut rng,
                format!("{env}/data/roles/{role}.yaml"),
                Place::Role,
                &mut interp_keys,
            );
            // Every role sets its own share of the 100-key tuning hash and its
            // profiles' settings.
            f.set("profile::bench::tuning", bench_tuning(&mut rng, 1));
            let p = &u.profiles[ri % u.profiles.len()];
            let settings = &u.keys[*p
                .params
                .iter()
                .find(|&&i| u.keys[i].name.ends_with("::settings"))
                .unwrap()];
            let v = plain_value(&mut rng, settings);
            f.set(&settings.name, v);
            data.push(f);
            for tier in TIERS {
                if rng.chance(0.55) {
                    let mut f = simple(
                        &mut rng,
                        format!("{env}/data/roles/{role}/{tier}.yaml"),
                        Place::RoleTier,
                        &mut interp_keys,
                    );
                    if rng.chance(0.5) {
                        f.set("profile::accounts::users", accounts(&mut rng, true));
                    }
                    if rng.chance(0.3) {
                        f.set(
                            "profile::base::packages",
                            Value::array(vec![
                                Value::from(format!("--{}", word(&mut rng))),
                                Value::from(format!("{role}-tools")),
                            ]),
                        );
                    }
                    data.push(f);
                }
            }
        }
        for dc in &dims.dcs {
            let mut f = simple(
                &mut rng,
                format!("{env}/data/datacenters/{dc}.yaml"),
                Place::Datacenter,
                &mut interp_keys,
            );
            f.set("profile::bench::tuning", bench_tuning(&mut rng, 2));
            for k in DC_OVERRIDES {
                if rng.chance(0.7) {
                    let v = match k {
                        "site::syslog_server" => Value::from(format!("syslog.{dc}.example.com")),
                        "site::proxy_host" => Value::from(format!("proxy.{dc}.example.com")),
                        _ => Value::array(
                            (1..=rng.range(2, 3))
                                .map(|i| Value::from(format!("ns{i}.{dc}.example.com")))
                                .collect(),
                        ),
                    };
                    f.set(k, v);
                }
            }
            if rng.chance(0.5) {
                f.set("profile::accounts::users", accounts(&mut rng, false));
            }
            data.push(f);
            for z in 0..dims.zones_per_dc {
                if rng.chance(0.75) {
                    data.push(simple(
                        &mut rng,
                        format!("{env}/data/datacenters/{dc}/zone{z}.yaml"),
                        Place::Env,
                        &mut interp_keys,
                    ));
                }
            }
        }
        for (family, _, releases) in OSES {
            let mut f = simple(
                &mut rng,
                format!("{env}/data/os/{family}.yaml"),
                Place::Env,
                &mut interp_keys,
            );
            f.set(
                "profile::base::packages",
                Value::array(vec![
                    Value::from(format!("{}-release", family.to_lowercase())),
                    Value::from("vim"),
                ]),
            );
            data.push(f);
            for r in releases {
                data.push(simple(
                    &mut rng,
                    format!("{env}/data/os/{family}/{r}.yaml"),
                    Place::Env,
                    &mut interp_keys,
                ));
            }
        }
        for t in &dims.teams {
            data.push(simple(
                &mut rng,
                format!("{env}/data/teams/{t}.yaml"),
                Place::Env,
                &mut interp_keys,
            ));
        }
        for a in &dims.apps {
            data.push(simple(
                &mut rng,
                format!("{env}/data/apps/{a}.yaml"),
                Place::Env,
                &mut interp_keys,
            ));
        }
        for nz in &dims.netzones {
            data.push(simple(
                &mut rng,
                format!("{env}/data/networks/{nz}.yaml"),
                Place::Env,
                &mut interp_keys,
            ));
            for v in 0..dims.vlans {
                if rng.chance(0.5) {
                    data.push(simple(
                        &mut rng,
                        format!("{env}/data/networks/{nz}/vlan{}.yaml", 100 + v),
                        Place::Env,
                        &mut interp_keys,
                    ));
                }
            }
        }

        // The compile's modules: chosen now, since common.yaml holds fewer of
        // their parameters (most automatic parameter lookups miss).
        let mut wl_rng = root.fork("workload-modules");
        let mut module_order: Vec<usize> = (0..u.modules.len()).collect();
        wl_rng.shuffle(&mut module_order);

        // The environment's common.yaml: 750+ keys.
        let mut common = DataFile::new(format!("{env}/data/common.yaml"));
        {
            let mut lo = Map::default();
            lo.insert("^profile::.*::settings$".into(), merge_opt("deep"));
            lo.insert("^site::.*_list$".into(), merge_opt("unique"));
            lo.insert("profile::base::packages".into(), merge_opt("unique"));
            lo.insert("profile::firewall::rules".into(), merge_opt("hash"));
            lo.insert(
                "profile::accounts::users".into(),
                map_of(vec![(
                    "merge",
                    map_of(vec![
                        ("strategy", "deep".into()),
                        ("knockout_prefix", "--".into()),
                    ]),
                )]),
            );
            lo.insert(
                "profile::app::config".into(),
                map_of(vec![(
                    "merge",
                    map_of(vec![
                        ("strategy", "deep".into()),
                        ("sort_merged_arrays", Value::Bool(true)),
                    ]),
                )]),
            );
            common.set("lookup_options", Value::hash(lo));
        }
        for (k, v) in SITE_STRINGS {
            common.set(k, v.into());
        }
        for (k, v) in SITE_INTS {
            common.set(k, Value::Int(v));
        }
        for &i in u.site_scalars.iter().chain(&u.site_lists) {
            let k = &u.keys[i];
            if !common.has(&k.name) {
                let v = plain_value(&mut rng, k);
                common.set(&k.name, v);
            }
        }
        common.set("profile::bench::tuning", bench_tuning(&mut rng, 0));
        common.set("profile::accounts::users", accounts(&mut rng, false));
        common.set(
            "profile::motd::banner",
            Value::from("Welcome to %{trusted.certname} (%{facts.os.name} %{facts.os.release.full}, %{facts.role}/%{facts.tier}) in %{::datacenter}, run by %{lookup('site::org_name')}"),
        );
        let app_config = u.index["profile::app::config"];
        common.set(
            "profile::app::config",
            plain_value(&mut rng, &u.keys[app_config]),
        );
        common.interpolated = true;
        common.functions = true;
        let target_common = ((750.0 * shape.common_keys * scale).round() as usize).max(1);
        // Profile params: most of them; then module params, fewer for the
        // compile's modules.
        for p in &u.profiles {
            for &i in &p.params {
                if !common.has(&u.keys[i].name) && rng.chance(0.7) {
                    let v = plain_value(&mut rng, &u.keys[i]);
                    common.set(&u.keys[i].name, v);
                }
            }
        }
        let compile_modules: BTreeSet<usize> = module_order[..module_order.len() * 7 / 10]
            .iter()
            .copied()
            .collect();
        let mut module_params: Vec<(usize, usize)> = Vec::new();
        for (mi, m) in u.modules.iter().enumerate() {
            for c in &m.classes {
                for &i in &c.params {
                    module_params.push((mi, i));
                }
            }
        }
        rng.shuffle(&mut module_params);
        for &(mi, i) in &module_params {
            if common.entries.len() >= target_common {
                break;
            }
            let p = if compile_modules.contains(&mi) {
                0.04
            } else {
                0.9
            };
            if !common.has(&u.keys[i].name) && rng.chance(p) {
                let v = if u.keys[i].is_stringish() && rng.chance(0.06) {
                    let func = rng.chance(0.5);
                    interp_keys.insert(i);
                    interpolated_value(&mut rng, &u, &u.keys[i], func)
                } else {
                    plain_value(&mut rng, &u.keys[i])
                };
                common.set(&u.keys[i].name, v);
            }
        }
        if shape.common_keys > 1.0 {
            // A large common.yaml: settings no class reads, up to the target.
            let mut n = 0;
            while common.entries.len() < target_common {
                let v = match n % 4 {
                    0 => Value::Int(srng.range(1, 100_000) as i64),
                    1 => Value::from(format!("{}-{}", word(&mut srng), word(&mut srng))),
                    2 => Value::array(vec![
                        Value::from(word(&mut srng)),
                        Value::from(word(&mut srng)),
                    ]),
                    _ => map_of(vec![
                        ("enabled", Value::Bool(srng.chance(0.5))),
                        ("name", word(&mut srng).into()),
                    ]),
                };
                common.set(&format!("site::bulk::setting_{n:05}"), v);
                n += 1;
            }
        }
        data.push(common);

        // -- levels beyond issue 7's ten (before common)
        let extra_levels = shape.env_levels.saturating_sub(ENV_LEVELS);
        for l in 0..extra_levels {
            let (fact, values) = if l % 2 == 0 {
                ("team", &dims.teams)
            } else {
                ("app", &dims.apps)
            };
            for v in values {
                if srng.chance(0.6) {
                    let mut f = DataFile::new(format!("{env}/data/extra{l}/{fact}/{v}.yaml"));
                    let n = shape.file_keys(keys_per_file(&mut srng));
                    fill(&mut srng, &u, &mut f, n, Place::Env, &mut interp_keys);
                    data.push(f);
                }
            }
        }
        // -- levels left out
        if shape.env_levels < ENV_LEVELS {
            let kept = shape::kept_levels(shape.env_levels);
            let prefix = format!("{env}/data/");
            data.retain(|f| match f.path.strip_prefix(&prefix) {
                Some(rel) => kept.iter().any(|&l| shape::in_level(rel, l)),
                None => true,
            });
        }

        // -- global layer
        let mut gcommon = DataFile::new("global/common.yaml".into());
        gcommon.set("site::org_name", "Example Corporation".into());
        gcommon.set("site::timezone", "Etc/UTC".into());
        gcommon.set(
            "lookup_options",
            // `labels` parameters are flat hashes everywhere.
            map_of(vec![(
                "^.*::labels$",
                map_of(vec![("merge", "hash".into())]),
            )]),
        );
        let n = keys_per_file(&mut rng).max(10);
        fill(
            &mut rng,
            &u,
            &mut gcommon,
            n,
            Place::Global,
            &mut interp_keys,
        );
        data.push(gcommon);
        let mut gnodes: Vec<&HostSpec> = fleet.iter().collect();
        rng.shuffle(&mut gnodes);
        for h in gnodes.iter().take(scaled(25, scale)) {
            data.push(simple(
                &mut rng,
                format!("global/nodes/{}.yaml", h.certname),
                Place::Global,
                &mut interp_keys,
            ));
        }

        // -- module layer
        for (mi, m) in u.modules.iter().enumerate() {
            let dir = format!("{env}/modules/{}", m.name);
            files.insert(
                format!("{dir}/hiera.yaml"),
                module_hiera(shape.module_levels),
            );
            let mut f = DataFile::new(format!("{dir}/data/common.yaml"));
            let n = shape.file_keys(keys_per_file(&mut rng)).max(2);
            fill(&mut rng, &u, &mut f, n, Place::Module(mi), &mut interp_keys);
            // Module lookup_options: a literal key and a pattern, both in the
            // module's namespace.
            if mi % 2 == 0 {
                let params: Vec<usize> = m
                    .classes
                    .iter()
                    .flat_map(|c| c.params.iter().copied())
                    .collect();
                let mut lo = Map::default();
                if let Some(&i) = params.iter().find(|&&i| u.keys[i].kind == Kind::Flat) {
                    lo.insert(Value::from(u.keys[i].name.as_str()), merge_opt("hash"));
                }
                lo.insert(
                    Value::from(format!("^{}::.*::(packages|servers)$", m.name)),
                    merge_opt("unique"),
                );
                f.entries.insert("lookup_options".into(), Value::hash(lo));
            }
            data.push(f);
            for (family, _, _) in OSES {
                if rng.chance(0.6) {
                    data.push(simple(
                        &mut rng,
                        format!("{dir}/data/os/{family}.yaml"),
                        Place::Module(mi),
                        &mut interp_keys,
                    ));
                }
            }
            if shape.module_levels >= 3 {
                for (family, _, releases) in OSES {
                    for r in releases {
                        if srng.chance(0.3) {
                            data.push(simple(
                                &mut srng,
                                format!("{dir}/data/os/{family}/{r}.yaml"),
                                Place::Module(mi),
                                &mut interp_keys,
                            ));
                        }
                    }
                }
            }
            if shape.module_levels >= 4 {
                for role in &dims.roles {
                    if srng.chance(0.15) {
                        data.push(simple(
                            &mut srng,
                            format!("{dir}/data/roles/{role}.yaml"),
                            Place::Module(mi),
                            &mut interp_keys,
                        ));
                    }
                }
            }
        }
        if shape.module_levels == 1 {
            // Common only: the OS family files are not in the hierarchy.
            let modules = format!("{env}/modules/");
            data.retain(|f| !(f.path.starts_with(&modules) && f.path.contains("/data/os/")));
        }

        // -- configs and data to text
        files.insert("hiera.yaml".into(), GLOBAL_HIERA.to_string());
        files.insert(format!("{env}/hiera.yaml"), env_hiera(shape.env_levels));
        let mut stats = Stats {
            config_files: 2 + u.modules.len(),
            levels: shape.env_levels,
            modules: u.modules.len(),
            ..Default::default()
        };
        let mut counts: Vec<usize> = Vec::new();
        let mut data_files = Vec::new();
        // What each key holds where, for the workload (dotted paths).
        let mut defined: BTreeSet<String> = BTreeSet::new();
        for f in &data {
            let text = to_yaml_doc(&f.entries);
            stats.yaml_bytes += text.len();
            let n = f
                .entries
                .keys()
                .filter(|k| k.as_str() != Some("lookup_options"))
                .count();
            counts.push(n);
            stats.keys += n;
            stats.files_interpolated += f.interpolated as usize;
            stats.files_functions += f.functions as usize;
            stats.max_depth = stats
                .max_depth
                .max(f.entries.values().map(hash_depth).max().unwrap_or(0));
            if f.path.ends_with(&format!("{env}/data/common.yaml")) {
                stats.common_keys = n;
            }
            for k in f.entries.keys() {
                defined.insert(k.as_str().unwrap().to_string());
            }
            data_files.push(f.path.clone());
            files.insert(f.path.clone(), text);
        }
        stats.data_files = data.len();
        counts.sort_unstable();
        stats.keys_median = counts[counts.len() / 2];
        stats.keys_p90 = counts[counts.len() * 9 / 10];
        stats.keys_max = *counts.last().unwrap();

        // -- nodes: a few from the fleet (they have node files), most new.
        let mut nrng = root.fork("nodes");
        let mut nodes = Vec::new();
        let mut seen = BTreeSet::new();
        let mut serial = 5000;
        while nodes.len() < 50 {
            let h = if nrng.chance(0.16) {
                fleet[nrng.below(fleet.len())].clone()
            } else {
                serial += 1;
                random_host(&mut nrng, &dims, serial)
            };
            if seen.insert(h.certname.clone()) {
                let facts = facts_for(&mut nrng, &h, &dims);
                nodes.push(Node {
                    certname: h.certname.clone(),
                    facts,
                });
            }
        }
        for n in &nodes {
            files.insert(
                format!("nodes/{}.json", n.certname),
                to_json(&Value::hash(n.facts.clone())) + "\n",
            );
        }
        stats.node_files = nodes.len();

        // -- the workload of one compile
        let common_doc = data
            .iter()
            .find(|f| f.path == format!("{env}/data/common.yaml"))
            .unwrap();
        let mut wrng = root.fork("workload");
        // Keys interpolated in a common.yaml (environment or module): every
        // node sees those values.
        let broad: Vec<String> = data
            .iter()
            .filter(|f| f.path.ends_with("/common.yaml"))
            .flat_map(|f| {
                f.entries
                    .iter()
                    .filter(|(_, v)| has_interpolation(v))
                    .map(|(k, _)| k.as_str().unwrap().to_string())
            })
            .filter(|k| k != "lookup_options")
            .collect();
        let (mut workload, mut kinds, probes) = build_workload(
            &mut wrng,
            &u,
            &module_order,
            &defined,
            &interp_keys,
            &broad,
            common_doc,
        );
        reshape_workload(&mut srng, shape, &defined, &mut workload, &mut kinds);
        let mut wl_text = String::new();
        let mut kinds_text = String::new();
        for (r, k) in &workload {
            wl_text.push_str(&to_json(r));
            wl_text.push('\n');
            kinds_text.push_str(k);
            kinds_text.push('\n');
        }
        files.insert("workload.jsonl".into(), wl_text);
        // The kind of each request (apl, dotted, merge_deep, ...), line by line.
        files.insert("workload-kinds.txt".into(), kinds_text);
        // Manifests compiling the workload (no random draws: the other
        // outputs are the same as without them).
        files.extend(build_manifests(&workload, &u));
        let workload: Vec<Value> = workload.into_iter().map(|(r, _)| r).collect();
        stats.workload = workload.len();
        stats.workload_kinds = kinds;

        let mut c = Corpus {
            seed,
            scale,
            shape: shape.clone(),
            files,
            data_files,
            nodes,
            workload,
            probes,
            stats,
        };
        let summary = c.summary_json();
        c.files.insert("corpus.json".into(), summary);
        c
    }

    /// Writes every file under `dir` (created; existing files are replaced).
    pub fn write(&self, dir: &Path) -> std::io::Result<()> {
        for (rel, text) in &self.files {
            let p = dir.join(rel);
            if let Some(parent) = p.parent() {
                std::fs::create_dir_all(parent)?;
            }
            std::fs::write(&p, text)?;
        }
        Ok(())
    }

    /// The data files' text, in path order (for the YAML throughput bench).
    pub fn data_texts(&self) -> Vec<&str> {
        self.data_files
            .iter()
            .map(|p| self.files[p].as_str())
            .collect()
    }

    /// The scope of node `i`, as the compare drivers and the CLI build it.
    pub fn scope(&self, i: usize) -> Map {
        let n = &self.nodes[i];
        hiera::scope::scope_from_facts(&n.facts, Some(&n.certname), ENVIRONMENT)
    }

    /// Options opening the corpus written at `dir`.
    pub fn options(dir: &Path) -> hiera::Options {
        hiera::Options {
            hiera_config: dir.join("hiera.yaml"),
            environmentpath: dir.join("environments"),
            environment: ENVIRONMENT.into(),
            ..Default::default()
        }
    }

    fn summary_json(&self) -> String {
        let s = &self.stats;
        let mut kinds = Map::default();
        for (k, v) in &s.workload_kinds {
            kinds.insert(Value::from(k.as_str()), Value::Int(*v as i64));
        }
        let int = |n: usize| Value::Int(n as i64);
        let v = map_of(vec![
            ("seed", Value::Int(self.seed as i64)),
            ("scale", Value::Float(self.scale)),
            ("shape", self.shape.describe().into()),
            ("environment", ENVIRONMENT.into()),
            ("data_files", int(s.data_files)),
            ("config_files", int(s.config_files)),
            ("yaml_bytes", int(s.yaml_bytes)),
            ("keys", int(s.keys)),
            ("keys_per_file_median", int(s.keys_median)),
            ("keys_per_file_p90", int(s.keys_p90)),
            ("keys_per_file_max", int(s.keys_max)),
            ("common_keys", int(s.common_keys)),
            ("files_interpolated", int(s.files_interpolated)),
            ("files_with_functions", int(s.files_functions)),
            ("levels", int(s.levels)),
            ("modules", int(s.modules)),
            ("max_hash_depth", int(s.max_depth)),
            ("nodes", int(s.node_files)),
            ("workload", int(s.workload)),
            ("workload_kinds", Value::hash(kinds)),
            (
                "probes",
                map_of(vec![
                    ("hit", self.probes.hit.as_str().into()),
                    ("miss", self.probes.miss.as_str().into()),
                    ("dotted", self.probes.dotted.as_str().into()),
                    ("interpolated", self.probes.interpolated.as_str().into()),
                    ("deep", self.probes.deep.as_str().into()),
                ]),
            ),
        ]);
        hiera::render::to_json_pretty(&v) + "\n"
    }

    /// A human summary.
    pub fn summary(&self) -> String {
        let s = &self.stats;
        let pct = |a: usize| 100.0 * a as f64 / s.data_files as f64;
        let kinds: Vec<String> = s
            .workload_kinds
            .iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        format!(
            "corpus seed {} scale {}: {} data files ({:.1} MB of YAML) + {} hiera.yaml, {} keys\n\
             keys per file: median {}, p90 {}, max {}; environment common.yaml {} keys\n\
             interpolation in {} files ({:.1}%), function calls in {} ({:.1}%); hashes up to {} deep\n\
             {} environment levels, {} modules, {} nodes; workload {} lookups ({})",
            self.seed,
            self.scale,
            s.data_files,
            s.yaml_bytes as f64 / 1e6,
            s.config_files,
            s.keys,
            s.keys_median,
            s.keys_p90,
            s.keys_max,
            s.common_keys,
            s.files_interpolated,
            pct(s.files_interpolated),
            s.files_functions,
            pct(s.files_functions),
            s.max_depth,
            s.levels,
            s.modules,
            s.node_files,
            s.workload,
            kinds.join(", ")
        )
    }
}

fn has_interpolation(v: &Value) -> bool {
    match v {
        Value::String(s) => s.contains("%{"),
        Value::Array(a) => a.iter().any(has_interpolation),
        Value::Hash(h) => h.values().any(has_interpolation),
        _ => false,
    }
}

fn hash_depth(v: &Value) -> usize {
    match v {
        Value::Hash(h) => 1 + h.values().map(hash_depth).max().unwrap_or(0),
        Value::Array(a) => a.iter().map(hash_depth).max().unwrap_or(0),
        _ => 0,
    }
}

fn req(key: &str) -> Value {
    map_of(vec![("key", key.into())])
}

fn req_merge(key: &str, merge: Value) -> Value {
    map_of(vec![("key", key.into()), ("merge", merge)])
}

/// The lookups of one compile: automatic parameter lookups class by class
/// (most of them misses), with explicit merges, dotted keys, interpolated
/// keys, defaults and multi-key lookups mixed in.
fn build_workload(
    rng: &mut Rng,
    u: &Universe,
    module_order: &[usize],
    defined: &BTreeSet<String>,
    interp: &BTreeSet<usize>,
    broad: &[String],
    common: &DataFile,
) -> (Vec<(Value, String)>, BTreeMap<String, usize>, Probes) {
    let mut kinds: BTreeMap<String, usize> = BTreeMap::new();
    // The kind of each explicit request, in order, and the counts.
    let mut extra_kinds: Vec<String> = Vec::new();
    fn note(kinds: &mut BTreeMap<String, usize>, list: &mut Vec<String>, k: &str) {
        *kinds.entry(k.to_string()).or_default() += 1;
        list.push(k.to_string());
    }

    // Automatic parameter lookups: ~10 profiles, the compile's modules until
    // ~800, foreign modules.
    let mut apl: Vec<Value> = Vec::new();
    let mut profiles: Vec<usize> = (0..u.profiles.len()).collect();
    rng.shuffle(&mut profiles);
    let mut chosen_profiles: Vec<usize> = profiles[..10.min(profiles.len())].to_vec();
    for must in [
        "profile::base",
        "profile::accounts",
        "profile::motd",
        "profile::app",
        "profile::firewall",
    ] {
        if let Some(p) = u.profiles.iter().position(|c| c.name == must) {
            if !chosen_profiles.contains(&p) {
                chosen_profiles.push(p);
            }
        }
    }
    let mut classes: Vec<&Class> = Vec::new();
    for &p in &chosen_profiles {
        classes.push(&u.profiles[p]);
    }
    for c in &u.foreign {
        if rng.chance(0.6) {
            classes.push(c);
        }
    }
    let apl_target = 820;
    let mut n_apl: usize = classes.iter().map(|c| c.params.len()).sum();
    for &m in module_order {
        if n_apl >= apl_target {
            break;
        }
        for c in &u.modules[m].classes {
            classes.push(c);
            n_apl += c.params.len();
        }
    }
    rng.shuffle(&mut classes);
    for c in &classes {
        for &i in &c.params {
            apl.push(req(&u.keys[i].name));
            *kinds.entry("apl".to_string()).or_default() += 1;
        }
    }
    let apl_keys: BTreeSet<String> = apl
        .iter()
        .map(|r| r.get("key").unwrap().as_str().unwrap().to_string())
        .collect();

    // Explicit lookups.
    let mut extra: Vec<Value> = Vec::new();
    let all_keys = |f: &dyn Fn(&KeyDef) -> bool| -> Vec<usize> {
        (0..u.keys.len())
            .filter(|&i| f(&u.keys[i]) && defined.contains(&u.keys[i].name))
            .collect()
    };
    let lists = all_keys(&|k| k.kind == Kind::StrList);
    let flats = all_keys(&|k| k.kind == Kind::Flat);
    let trees = all_keys(&|k| matches!(k.kind, Kind::Tree(_)) && !is_special(&k.name));
    for _ in 0..20 {
        extra.push(req_merge(&u.keys[*rng.pick(&lists)].name, "unique".into()));
        note(&mut kinds, &mut extra_kinds, "merge_unique");
    }
    for _ in 0..12 {
        extra.push(req_merge(&u.keys[*rng.pick(&flats)].name, "hash".into()));
        note(&mut kinds, &mut extra_kinds, "merge_hash");
    }
    for _ in 0..16 {
        extra.push(req_merge(&u.keys[*rng.pick(&trees)].name, "deep".into()));
        note(&mut kinds, &mut extra_kinds, "merge_deep");
    }
    for _ in 0..4 {
        extra.push(req_merge("profile::bench::tuning", "deep".into()));
        note(&mut kinds, &mut extra_kinds, "merge_deep");
    }
    for _ in 0..3 {
        extra.push(req_merge(
            "profile::accounts::users",
            map_of(vec![
                ("strategy", "deep".into()),
                ("knockout_prefix", "--".into()),
                ("merge_hash_arrays", Value::Bool(false)),
            ]),
        ));
        extra.push(req_merge(
            "profile::base::packages",
            map_of(vec![
                ("strategy", "deep".into()),
                ("knockout_prefix", "--".into()),
            ]),
        ));
        note(&mut kinds, &mut extra_kinds, "merge_knockout");
        note(&mut kinds, &mut extra_kinds, "merge_knockout");
    }
    // Dotted keys: paths through the nested-hash templates (some to missing
    // sub keys), array indexes, flat hash entries.
    let mut probe_dotted = String::new();
    for n in 0..60 {
        let i = *rng.pick(&trees);
        let Kind::Tree(t) = &u.keys[i].kind else {
            unreachable!()
        };
        let mut paths = Vec::new();
        template_paths(t, &mut Vec::new(), &mut paths);
        let path = rng.pick(&paths).join(".");
        let key = format!("{}.{path}", u.keys[i].name);
        extra.push(req(&key));
        note(&mut kinds, &mut extra_kinds, "dotted");
        if n % 10 == 0 {
            extra.push(req(&format!(
                "{}.{}",
                u.keys[*rng.pick(&lists)].name,
                rng.below(2)
            )));
            note(&mut kinds, &mut extra_kinds, "dotted");
        }
    }
    // The probe: the deepest path present in common.yaml's profile::app::config.
    if let Some(v) = common.entries.get(&Value::from("profile::app::config")) {
        let mut path = Vec::new();
        let mut cur = v;
        while let Value::Hash(h) = cur {
            let (k, next) = h.iter().max_by_key(|(_, x)| hash_depth(x)).unwrap();
            path.push(k.as_str().unwrap().to_string());
            cur = next;
        }
        probe_dotted = format!("profile::app::config.{}", path.join("."));
        extra.push(req(&probe_dotted));
        note(&mut kinds, &mut extra_kinds, "dotted");
    }
    // Keys that hold interpolated values somewhere.
    let interp_list: Vec<usize> = interp.iter().copied().collect();
    for n in 0..60 {
        if n % 2 == 0 && !broad.is_empty() {
            extra.push(req(&broad[rng.below(broad.len())]));
        } else {
            extra.push(req(&u.keys[*rng.pick(&interp_list)].name));
        }
        note(&mut kinds, &mut extra_kinds, "interpolated");
    }
    extra.push(req("profile::motd::banner"));
    note(&mut kinds, &mut extra_kinds, "interpolated");
    for k in SITE_LISTS {
        extra.push(req(k));
        note(&mut kinds, &mut extra_kinds, "interpolated");
    }
    // Defaults and multi-key lookups.
    for n in 0..15 {
        let k = format!("profile::{}::{}", word(rng), PARAMS[n % PARAMS.len()]);
        let default = match n % 3 {
            0 => Value::from(word(rng)),
            1 => Value::Int(n as i64),
            _ => Value::array(vec![Value::from(word(rng))]),
        };
        extra.push(map_of(vec![
            ("key", k.as_str().into()),
            ("default", default),
        ]));
        note(&mut kinds, &mut extra_kinds, "default");
    }
    for _ in 0..10 {
        let a = &u.keys[u.overridable[rng.below(u.overridable.len())]].name;
        let b = &u.keys[u.overridable[rng.skewed(u.overridable.len())]].name;
        extra.push(map_of(vec![(
            "key",
            Value::array(vec![a.as_str().into(), b.as_str().into()]),
        )]));
        note(&mut kinds, &mut extra_kinds, "multi_key");
    }

    // Mix the explicit lookups into the APL stream.
    let mut workload: Vec<(Value, String)> =
        apl.into_iter().map(|r| (r, "apl".to_string())).collect();
    for (r, k) in extra.into_iter().zip(extra_kinds) {
        let at = rng.below(workload.len() + 1);
        workload.insert(at, (r, k));
    }

    // Probes for the benches.
    let common_keys: BTreeSet<&str> = common.entries.keys().filter_map(|k| k.as_str()).collect();
    let mut hit = String::new();
    let mut miss = String::new();
    for &m in module_order {
        for c in &u.modules[m].classes {
            for &i in &c.params {
                let name = u.keys[i].name.as_str();
                if hit.is_empty()
                    && common_keys.contains(name)
                    && apl_keys.contains(name)
                    && !interp.contains(&i)
                {
                    hit = name.to_string();
                }
                if miss.is_empty() && !defined.contains(name) && apl_keys.contains(name) {
                    miss = name.to_string();
                }
            }
        }
    }
    let probes = Probes {
        hit,
        miss,
        dotted: probe_dotted,
        interpolated: "profile::motd::banner".into(),
        deep: "profile::bench::tuning".into(),
    };
    (workload, kinds, probes)
}

/// A Puppet literal for a request's value (strings, integers, booleans,
/// arrays, hashes).
fn pp_literal(v: &Value, out: &mut String) {
    match v {
        Value::Nil => out.push_str("undef"),
        Value::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Value::Int(i) => out.push_str(&i.to_string()),
        Value::Float(f) => out.push_str(&format!("{f:?}")),
        Value::String(s) => {
            out.push('\'');
            for c in s.chars() {
                if c == '\\' || c == '\'' {
                    out.push('\\');
                }
                out.push(c);
            }
            out.push('\'');
        }
        Value::Array(a) => {
            out.push('[');
            for (i, e) in a.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                pp_literal(e, out);
            }
            out.push(']');
        }
        Value::Hash(h) => {
            out.push('{');
            for (i, (k, e)) in h.iter().enumerate() {
                if i > 0 {
                    out.push_str(", ");
                }
                pp_literal(k, out);
                out.push_str(" => ");
                pp_literal(e, out);
            }
            out.push('}');
        }
        other => panic!("not a request value: {other:?}"),
    }
}

/// One class of the generated manifests.
#[derive(Default)]
struct PpClass {
    params: Vec<String>,
    /// Explicit lookups: the `lookup()` call's options hash.
    lookups: Vec<String>,
    includes: Vec<String>,
}

/// The manifests that make a catalog compile do (roughly) the workload:
/// every class whose parameters the workload looks up (`apl` requests,
/// `<class>::<param>`) is a class with those parameters (`Any`, default
/// undef), found by automatic parameter lookup; every other request is an
/// explicit `lookup()` (the hash form, with its merge and default; a request
/// without a default gets `undef`, so that a miss is not an error) in the
/// class whose parameters precede it in the workload. Each class puts what
/// it got into a `notify` resource's message, so that the catalogs of two
/// engines can be compared.
///
/// The include tree follows the workload's order: `node default` includes
/// `role::bench`, which includes the profiles (`profile::*`); a module class
/// is included by the last profile before it (or by the role). Classes of
/// the repo's modules are in their module (`modules/<m>/manifests/`);
/// profiles and the classes of modules the repo does not have are in the
/// environment's `manifests/`, so that no module directory is added (the
/// module layer of their lookups stays "module not found").
fn build_manifests(workload: &[(Value, String)], u: &Universe) -> BTreeMap<String, String> {
    let env = format!("environments/{ENVIRONMENT}");
    let repo_modules: BTreeSet<&str> = u.modules.iter().map(|m| m.name.as_str()).collect();
    let mut order: Vec<String> = Vec::new();
    let mut classes: BTreeMap<String, PpClass> = BTreeMap::new();
    let role = "role::bench".to_string();
    classes.insert(role.clone(), PpClass::default());
    let mut current = role.clone();
    let mut profile = role.clone();
    for (r, kind) in workload {
        if kind == "apl" {
            let key = r.get("key").and_then(Value::as_str).unwrap();
            let (class, param) = key.rsplit_once("::").unwrap();
            if !classes.contains_key(class) {
                order.push(class.to_string());
                let parent = if class.starts_with("profile::") {
                    profile = class.to_string();
                    role.clone()
                } else {
                    profile.clone()
                };
                classes
                    .get_mut(&parent)
                    .unwrap()
                    .includes
                    .push(class.to_string());
                classes.insert(class.to_string(), PpClass::default());
            }
            classes
                .get_mut(class)
                .unwrap()
                .params
                .push(param.to_string());
            current = class.to_string();
        } else {
            let mut call = String::from("{ 'name' => ");
            pp_literal(r.get("key").unwrap(), &mut call);
            if let Some(m) = r.get("merge") {
                call.push_str(", 'merge' => ");
                pp_literal(m, &mut call);
            }
            call.push_str(", 'default_value' => ");
            pp_literal(r.get("default").unwrap_or(&Value::Nil), &mut call);
            call.push_str(" }");
            classes.get_mut(&current).unwrap().lookups.push(call);
        }
    }

    let mut files: BTreeMap<String, String> = BTreeMap::new();
    let mut in_env: BTreeMap<&str, String> = BTreeMap::new();
    for name in std::iter::once(&role).chain(&order) {
        let c = &classes[name];
        let mut t = String::new();
        t.push_str(&format!(
            "# {} automatic parameter lookup(s), {} explicit lookup(s).\nclass {name}",
            c.params.len(),
            c.lookups.len()
        ));
        if !c.params.is_empty() {
            t.push_str(" (\n");
            for p in &c.params {
                t.push_str(&format!("  Any ${p} = undef,\n"));
            }
            t.push(')');
        }
        t.push_str(" {\n");
        for i in &c.includes {
            t.push_str(&format!("  include {i}\n"));
        }
        for (i, l) in c.lookups.iter().enumerate() {
            t.push_str(&format!("  $lookup_{i} = lookup({l})\n"));
        }
        if !c.params.is_empty() || !c.lookups.is_empty() {
            t.push_str(&format!("  notify {{ '{name}':\n    message => {{\n"));
            for p in &c.params {
                t.push_str(&format!("      '{p}' => ${p},\n"));
            }
            for i in 0..c.lookups.len() {
                t.push_str(&format!("      'lookup_{i}' => $lookup_{i},\n"));
            }
            t.push_str("    },\n  }\n");
        }
        t.push_str("}\n");
        let module = name.split("::").next().unwrap();
        if repo_modules.contains(module) {
            let mut segs: Vec<&str> = name.split("::").skip(1).collect();
            if segs.is_empty() {
                segs.push("init");
            }
            files.insert(
                format!("{env}/modules/{module}/manifests/{}.pp", segs.join("/")),
                t,
            );
        } else {
            let file = match module {
                "role" => "role.pp",
                "profile" => "profiles.pp",
                _ => "foreign.pp",
            };
            let text = in_env.entry(file).or_default();
            if !text.is_empty() {
                text.push('\n');
            }
            text.push_str(&t);
        }
    }
    for (file, text) in in_env {
        files.insert(format!("{env}/manifests/{file}"), text);
    }
    files.insert(
        format!("{env}/manifests/site.pp"),
        "# The generated catalog: one role for every node.\nnode default {\n  include role::bench\n}\n".into(),
    );
    files
}
