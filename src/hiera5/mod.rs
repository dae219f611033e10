//! The Hiera 5 engine: what is Hiera 5's own (and Puppet's `lookup()`
//! around it), beside [`crate::hiera3`], the Hiera 3 engine. The modules
//! both engines share (values, YAML, JSON, deep_merge, Ruby's rules, the
//! file cache, the C ABI) stay at the crate's root.
//!
//! - [`config`]: hiera.yaml (versions 5, 4 and 3 as Puppet reads them).
//! - [`lookup`]: [`Hiera`](lookup::Hiera), [`Session`](lookup::Session) and
//!   the search through the global, environment and module layers.
//! - [`glob`], [`modulepath`], [`data_provider`]: where data is found.
//! - [`key`], [`merge`], [`interpolate`]: dotted keys, merge strategies,
//!   `%{...}` interpolation.
//! - [`convert`], [`ptype`] (and the private `convert_type`, `string_format`,
//!   `key_options`): lookup_options' `convert_to` and Puppet's types.
//! - [`all_keys`], [`all_sources`], [`known_variables`], [`explain`],
//!   [`lookup_type`]: every key of a node and the files behind each answer,
//!   the variables a session has read, `--explain` (text and Puppet's JSON),
//!   `--type`.

pub mod all_keys;
pub mod all_sources;
pub mod config;
pub mod convert;
mod convert_numeric;
mod convert_time;
mod convert_type;
pub mod data_provider;
pub mod explain;
pub mod glob;
pub mod interpolate;
pub mod key;
mod key_options;
pub mod known_variables;
pub mod lookup;
pub mod lookup_type;
pub mod merge;
pub mod modulepath;
pub mod ptype;
mod ptype_general;
mod string_format;
