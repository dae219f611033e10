//! Hiera 3: the standalone hiera 3.10 gem (`Hiera.new(config:
//! ...).lookup(key, default, scope, order_override, resolution_type)`),
//! reproduced with its quirks, and the helpers custom backends call.
//!
//! ```no_run
//! use hiera::hiera3::{Hiera3, ResolutionType};
//! use hiera::{Map, Value};
//! let h = Hiera3::open("hiera.yaml".as_ref(), None)?;
//! let mut scope = Map::default();
//! scope.insert("clientcert".into(), "web01".into());
//! let v = h.lookup("ntp::servers", None, &Value::hash(scope), None, &ResolutionType::Array)?;
//! # Ok::<(), hiera::Error>(())
//! ```
//!
//! Modules: [`config`] (hiera.yaml), [`sources`] (the hierarchy and data
//! files), [`backend`] (file cache, YAML/JSON reading), [`key`] (dotted
//! keys), [`interpolate`] (`%{...}` and `parse_answer`), [`merge`]
//! (resolution types, `merge_answer`), [`lookup`] (the engine) and
//! [`helpers`] (the standalone helpers, also at the JSON level).

pub mod backend;
pub mod config;
pub mod helpers;
pub mod interpolate;
pub mod key;
pub mod lookup;
pub mod merge;
pub mod ruby;
pub mod sources;

pub use backend::BackendKind;
pub use config::Config;
pub use interpolate::Context;
pub use lookup::Hiera3;
pub use merge::{ResolutionType, Strategy};
