//! `--diff BASE`: the configuration as given compared with the same
//! configuration under BASE, for one node or a fleet; the comparison and
//! grouping are the library's ([`hiera::diff`]), the rendering is here.
//!
//! Exit status: 0 no change, 1 changes, 2 an error (a configuration that
//! cannot be opened, a facts file that cannot be read, a node whose keys
//! cannot be listed on either side, as when a side's hiera.yaml is broken,
//! whether keys are given or `--all`; reported, and the other nodes still
//! compared).

use crate::args::Args;
use crate::fleet::{file_node_name, node_session};
use crate::{fail, pool, progress::Progress};
use hiera::diff::{node_diff, Answer, Group, Groups, KeyChange};
use hiera::facts_file::{list_facts_files, read_facts_file};
use hiera::render::json_string;
use hiera::{Hiera, Options, Session};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::Arc;

/// A node that could not be compared.
struct NodeError {
    node: String,
    file: Option<PathBuf>,
    message: String,
}

/// `options` with every relative path resolved inside `base`: the global
/// hiera.yaml, the environmentpath, the basemodulepath and modulepath
/// directories (an empty entry, the working directory, is `base`) and the
/// working directory when one is given. Absolute paths are kept.
pub fn rebase(options: &Options, base: &Path) -> Options {
    let inside = |p: &Path| {
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            base.join(p)
        }
    };
    let mut o = options.clone();
    o.hiera_config = inside(&options.hiera_config);
    o.environmentpath = inside(&options.environmentpath);
    o.basemodulepath = options.basemodulepath.iter().map(|p| inside(p)).collect();
    o.modulepath = options
        .modulepath
        .as_ref()
        .map(|m| m.iter().map(|p| inside(p)).collect());
    o.working_directory = options.working_directory.as_deref().map(inside);
    o
}

/// Runs `--diff BASE` (with `--fleet DIR` when given, else the node of the
/// usual scope options).
pub fn run(a: &Args, head: Arc<Hiera>, base_dir: &Path, scope: Option<hiera::Map>) -> ExitCode {
    if !base_dir.is_dir() {
        return fail(format!("--diff: {} is not a directory", base_dir.display()));
    }
    let base = match Hiera::open(rebase(&a.options, base_dir)) {
        Ok(h) => Arc::new(h),
        Err(e) => return fail(format!("--diff {}: {e}", base_dir.display())),
    };
    let keys = (!a.all).then_some(&a.keys[..]);
    let examples = match a.format.as_str() {
        "json" => usize::MAX,
        "markdown" => 3,
        _ => 5,
    };
    let mut groups = Groups::new(examples);
    let mut errors: Vec<NodeError> = Vec::new();
    if let Some(dir) = &a.fleet {
        let files = match list_facts_files(dir) {
            Ok(f) => f,
            Err(e) => return fail(e),
        };
        let env = a.options.environment.as_str();
        let mut progress = Progress::new(files.len());
        pool::run(
            &files,
            pool::threads(),
            |path| {
                let node = read_facts_file(path).map_err(|e| NodeError {
                    node: file_node_name(path),
                    file: Some(path.clone()),
                    message: e.to_string(),
                })?;
                let (b, h) = (
                    node_session(&base, &node, env),
                    node_session(&head, &node, env),
                );
                node_diff(&b, &h, keys)
                    .map(|c| (node.certname.clone(), c))
                    .map_err(|e| NodeError {
                        node: node.certname.clone(),
                        file: Some(path.clone()),
                        message: e.to_string(),
                    })
            },
            |r: Result<(String, Vec<KeyChange>), NodeError>| {
                progress.tick();
                match r {
                    Ok((node, changes)) => groups.add(&node, changes),
                    Err(e) => errors.push(e),
                }
                true
            },
        );
        progress.finish();
    } else {
        let scope = scope.unwrap_or_default();
        let node = single_node_name(a, &scope);
        let (b, h) = (Session::new(base, scope.clone()), Session::new(head, scope));
        match node_diff(&b, &h, keys) {
            Ok(changes) => groups.add(&node, changes),
            Err(e) => errors.push(NodeError {
                node,
                file: None,
                message: e.to_string(),
            }),
        }
    }
    let text = match a.format.as_str() {
        "json" => render_json(&groups, &errors),
        "markdown" => render_markdown(&groups, &errors),
        _ => render_text(&groups, &errors),
    };
    crate::print_value(text.trim_end());
    if !errors.is_empty() {
        ExitCode::from(2)
    } else if groups.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

/// The node of a single-node diff: `trusted.certname` of its scope, else
/// `--node`, else `node`.
fn single_node_name(a: &Args, scope: &hiera::Map) -> String {
    scope
        .get(&hiera::Value::from("trusted"))
        .and_then(|t| t.as_hash())
        .and_then(|t| t.get(&hiera::Value::from("certname")))
        .and_then(|c| c.as_str())
        .map(str::to_string)
        .or_else(|| a.node.clone())
        .unwrap_or_else(|| "node".into())
}

/// One answer in text: the value's JSON, `(not found)`, or `(error) MESSAGE`.
fn answer_text(a: &Answer) -> String {
    match a {
        Answer::Found(json) => json.clone(),
        Answer::NotFound => "(not found)".into(),
        Answer::Error(m) => format!("(error) {m}"),
    }
}

fn plural(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

fn summary(groups: &Groups, errors: &[NodeError]) -> String {
    let mut s = format!(
        "{}: {} with changes, {}",
        plural(groups.nodes() + errors.len(), "node", "nodes"),
        groups.changed_nodes(),
        plural(groups.len(), "group of changes", "groups of changes"),
    );
    if !errors.is_empty() {
        s.push_str(&format!(", {} not compared", errors.len()));
    }
    s
}

fn examples_text(g: &Group) -> String {
    let mut s = g.nodes.join(", ");
    if g.count > g.nodes.len() {
        s.push_str(&format!(", ... ({} more)", g.count - g.nodes.len()));
    }
    s
}

fn render_text(groups: &Groups, errors: &[NodeError]) -> String {
    let mut out = summary(groups, errors);
    out.push('\n');
    for g in groups.sorted() {
        let c = &g.change;
        out.push_str(&format!(
            "\n{} {} on {}: {}\n  - {}\n  + {}\n",
            c.key,
            c.kind.as_str(),
            plural(g.count, "node", "nodes"),
            examples_text(&g),
            answer_text(&c.before),
            answer_text(&c.after),
        ));
    }
    for e in errors {
        out.push_str(&format!("\nError: {}: {}\n", e.node, e.message));
    }
    out
}

/// A value cut to `max` characters for a PR comment.
fn cut(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_string();
    }
    let mut t: String = s.chars().take(max).collect();
    t.push('…');
    t
}

/// Text as a Markdown table cell: a code span, `|` escaped, one line.
fn md_code(s: &str) -> String {
    let s = cut(s, 120).replace('|', "\\|").replace(['\n', '\r'], " ");
    let ticks = if s.contains('`') { "`` " } else { "`" };
    let close = if s.contains('`') { " ``" } else { "`" };
    format!("{ticks}{s}{close}")
}

/// The most groups a Markdown report lists (the rest are counted).
const MD_GROUPS: usize = 50;

fn render_markdown(groups: &Groups, errors: &[NodeError]) -> String {
    let sorted = groups.sorted();
    let mut out = format!("### Hiera changes\n\n{}\n", summary(groups, errors));
    if !sorted.is_empty() {
        out.push_str(
            "\n| Key | Change | Nodes | Before | After | Examples |\n|---|---|---:|---|---|---|\n",
        );
        for g in sorted.iter().take(MD_GROUPS) {
            let c = &g.change;
            out.push_str(&format!(
                "| {} | {} | {} | {} | {} | {} |\n",
                md_code(&c.key),
                c.kind.as_str(),
                g.count,
                md_code(&answer_text(&c.before)),
                md_code(&answer_text(&c.after)),
                examples_text(g).replace('|', "\\|"),
            ));
        }
        if sorted.len() > MD_GROUPS {
            out.push_str(&format!(
                "\n…and {} more (run `hiera-lookup --diff` for all of them).\n",
                plural(sorted.len() - MD_GROUPS, "group", "groups")
            ));
        }
    }
    if !errors.is_empty() {
        out.push_str(&format!(
            "\n**{} not compared:**\n\n",
            plural(errors.len(), "node", "nodes")
        ));
        for e in errors.iter().take(10) {
            out.push_str(&format!(
                "- {}: {}\n",
                md_code(&e.node),
                md_code(&e.message)
            ));
        }
        if errors.len() > 10 {
            out.push_str(&format!("- …and {} more\n", errors.len() - 10));
        }
    }
    out
}

/// An answer as a JSON object: `{"status":"found","value":V}`,
/// `{"status":"not_found"}` or `{"status":"error","message":M}`.
fn answer_json(a: &Answer, out: &mut String) {
    match a {
        Answer::Found(json) => {
            out.push_str("{\"status\":\"found\",\"value\":");
            out.push_str(json);
            out.push('}');
        }
        Answer::NotFound => out.push_str("{\"status\":\"not_found\"}"),
        Answer::Error(m) => {
            out.push_str("{\"status\":\"error\",\"message\":");
            json_string(m, out);
            out.push('}');
        }
    }
}

fn render_json(groups: &Groups, errors: &[NodeError]) -> String {
    let mut out = format!(
        "{{\"nodes\":{},\"changed_nodes\":{},\"groups\":[",
        groups.nodes() + errors.len(),
        groups.changed_nodes()
    );
    for (i, g) in groups.sorted().iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"key\":");
        json_string(&g.change.key, &mut out);
        out.push_str(&format!(
            ",\"change\":\"{}\",\"count\":{},\"before\":",
            g.change.kind.as_str(),
            g.count
        ));
        answer_json(&g.change.before, &mut out);
        out.push_str(",\"after\":");
        answer_json(&g.change.after, &mut out);
        out.push_str(",\"nodes\":[");
        for (j, n) in g.nodes.iter().enumerate() {
            if j > 0 {
                out.push(',');
            }
            json_string(n, &mut out);
        }
        out.push_str("]}");
    }
    out.push_str("],\"errors\":[");
    for (i, e) in errors.iter().enumerate() {
        if i > 0 {
            out.push(',');
        }
        out.push_str("{\"node\":");
        json_string(&e.node, &mut out);
        if let Some(f) = &e.file {
            out.push_str(",\"file\":");
            json_string(&f.to_string_lossy(), &mut out);
        }
        out.push_str(",\"error\":");
        json_string(&e.message, &mut out);
        out.push('}');
    }
    out.push_str("]}");
    out
}
