//! The Ruby `deep_merge` gem as an oracle for the deep merge tests: the
//! options' JSON coding and one run of `tests/support/deep_merge_oracle.rb`
//! over a batch of cases (single merges, or chains of merges as Puppet's
//! deep strategy does them).

use super::wire::encode;
use hiera::deep_merge::DeepMergeOptions;
use hiera::value::Value;
use serde_json::{json, Value as Json};

/// The options as the oracle reads them.
pub fn encode_opts(o: &DeepMergeOptions) -> Json {
    json!({
        "preserve_unmergeables": o.preserve_unmergeables,
        "knockout_prefix": o.knockout_prefix,
        "overwrite_arrays": o.overwrite_arrays,
        "sort_merged_arrays": o.sort_merged_arrays,
        "unpack_arrays": o.unpack_arrays,
        "merge_hash_arrays": o.merge_hash_arrays,
        "extend_existing_arrays": o.extend_existing_arrays,
    })
}

/// `DeepMerge.deep_merge!(source, dest, opts)` for each `(source, dest,
/// opts)` case, run by the oracle script in one Ruby process: one answer per
/// case, in order, `{"ok": value}` or `{"error": {"class": .., "message":
/// ..}}`. `tag` names the temporary directory the cases are written to.
/// Fails the test when Ruby fails or answers a different number of cases.
pub fn run<'a>(
    tag: &str,
    cases: impl IntoIterator<Item = (&'a Value, &'a Value, &'a DeepMergeOptions)>,
) -> Vec<Json> {
    run_lines(
        tag,
        cases.into_iter().map(|(source, dest, opts)| {
            json!({"source": encode(source), "dest": encode(dest), "opts": encode_opts(opts)})
        }),
    )
}

/// For each `(values, opts)` case, the chain of merges Puppet's deep merge
/// strategy does over a lookup's found values (highest priority first):
/// `memo = values[0]`, then `memo = DeepMerge.deep_merge!(memo,
/// deep_clone(v), opts)` for each later `v`. Answers as [`run`]'s; the first
/// error ends a chain.
pub fn run_chains<'a>(
    tag: &str,
    cases: impl IntoIterator<Item = (&'a [Value], &'a DeepMergeOptions)>,
) -> Vec<Json> {
    run_lines(
        tag,
        cases.into_iter().map(|(values, opts)| {
            json!({"chain": values.iter().map(encode).collect::<Vec<_>>(), "opts": encode_opts(opts)})
        }),
    )
}

/// One run of the deep_merge oracle over the JSON cases `lines`.
fn run_lines(tag: &str, lines: impl Iterator<Item = Json>) -> Vec<Json> {
    super::run_ruby_oracle("deep_merge_oracle.rb", tag, lines)
}
