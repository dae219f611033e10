//! Where every key's answer came from (`hiera-lookup --all --sources`):
//! for each key [`Session::lookup_all`] finds, the data files whose values
//! went into the answer, read from the key's explanation
//! ([`crate::Explanation::sources`]): each location where the key (or a key
//! its interpolations look up) was found, in search order; the files only
//! searched, and the lookup_options search, are left out.
//!
//! The shape printed: `{"values": {KEY: VALUE, ...}, "sources": {KEY:
//! [PATH, ...], ...}}`, both sorted by key, the same keys in both.

use crate::error::Result;
use crate::hiera5::all_keys::{lookup_name, AllAnswers};
use crate::value::{Map, Value};
use crate::{LookupRequest, Session};

/// Every key's answer and the files it came from.
#[derive(Debug, Default)]
pub struct AllSources {
    /// The answers (as [`Session::lookup_all`] gives them).
    pub answers: AllAnswers,
    /// Per found key, sorted by key: the paths (or URIs) that contributed.
    pub sources: Vec<(String, Vec<String>)>,
}

impl AllSources {
    /// `{"values": {...}, "sources": {KEY: [PATH, ...]}}`.
    pub fn to_value(&self) -> Value {
        let mut sources = Map::default();
        for (k, paths) in &self.sources {
            let list = paths.iter().map(|p| Value::from(p.as_str())).collect();
            sources.insert(Value::from(k.as_str()), Value::array(list));
        }
        let mut m = Map::default();
        m.insert(Value::from("values"), self.answers.values_hash());
        m.insert(Value::from("sources"), Value::hash(sources));
        Value::hash(m)
    }
}

impl Session {
    /// [`Session::lookup_all`] with, per found key, the files its answer
    /// came from (one explained lookup per key). May be called from any
    /// thread that may use the session.
    pub fn lookup_all_sources(&self) -> Result<AllSources> {
        let answers = self.lookup_all()?;
        let mut sources = Vec::with_capacity(answers.values.len());
        for (key, _) in &answers.values {
            let Some(name) = lookup_name(key) else {
                continue;
            };
            let req = LookupRequest {
                keys: vec![name],
                ..Default::default()
            };
            let (_, ex) = self.explanation(&req, false);
            sources.push((key.clone(), ex.sources()));
        }
        Ok(AllSources { answers, sources })
    }
}
