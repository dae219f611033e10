//! Shared by the differential tests: a small seeded PRNG, the nested
//! values their generators draw from it, and the JSON
//! coding the Ruby oracles speak (`{"__type__": "Hash", "entries": ...}`,
//! `{"__type__": "Symbol", "name": ...}`, `{"__type__": "Bytes", "hex": ...}`).

use hiera::value::{Map, Value};
use serde_json::{json, Value as Json};
use std::sync::Arc;

#[path = "../../benches/corpus/rng.rs"]
mod splitmix;

/// The differential tests' draws from splitmix64 (the corpus generator's
/// stream, started from a raw state): `below` takes the whole output
/// modulo `n`, where the corpus's drops the low 11 bits first.
pub struct Rng(splitmix::Rng);

impl Rng {
    pub fn from_state(state: u64) -> Rng {
        Rng(splitmix::Rng::from_state(state))
    }
    pub fn next(&mut self) -> u64 {
        self.0.next_u64()
    }
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
    /// True with probability `num / den`.
    pub fn chance(&mut self, num: usize, den: usize) -> bool {
        self.below(den) < num
    }
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
    /// Fisher-Yates, from the last element down.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            items.swap(i, self.below(i + 1));
        }
    }
}

/// The nested values of the differential tests' generators: each gives
/// its own keys, scalars and arrays, and hashes and values of any kind are
/// drawn from them in one way.
pub trait ValueGen {
    fn rng(&mut self) -> &mut Rng;
    fn key(&mut self) -> Value;
    fn scalar(&mut self) -> Value;
    fn array(&mut self, depth: usize) -> Value;

    /// Up to four entries, their values at most `depth` deep.
    fn hash(&mut self, depth: usize) -> Value {
        let len = self.rng().below(5);
        let mut map = Map::default();
        for _ in 0..len {
            let k = self.key();
            let v = self.value(depth);
            map.insert(k, v);
        }
        Value::hash(map)
    }

    /// A scalar at depth 0; else a hash (4 in 10), an array (3 in 10) or a
    /// scalar.
    fn value(&mut self, depth: usize) -> Value {
        if depth == 0 {
            return self.scalar();
        }
        match self.rng().below(10) {
            0..=3 => self.hash(depth - 1),
            4..=6 => self.array(depth - 1),
            _ => self.scalar(),
        }
    }
}

pub fn encode(v: &Value) -> Json {
    match v {
        Value::Nil => Json::Null,
        Value::Bool(b) => Json::Bool(*b),
        Value::Int(i) => json!(i),
        Value::BigInt(s) => serde_json::from_str(s).expect("big integer"),
        Value::Float(f) => Json::Number(serde_json::Number::from_f64(*f).expect("finite float")),
        Value::String(s) => Json::String(s.to_string()),
        Value::Bytes(b) => json!({"__type__": "Bytes", "hex": hex(b)}),
        Value::Symbol(s) => json!({"__type__": "Symbol", "name": s.to_string()}),
        Value::Array(a) => Json::Array(a.iter().map(encode).collect()),
        Value::Hash(h) => json!({
            "__type__": "Hash",
            "entries": h.iter().map(|(k, v)| json!([encode(k), encode(v)])).collect::<Vec<_>>(),
        }),
        Value::Sensitive(_) | Value::Rich(_) => {
            panic!("Sensitive and rich values are not generated")
        }
    }
}

pub fn decode(j: &Json) -> Value {
    match j {
        Json::Null => Value::Nil,
        Json::Bool(b) => Value::Bool(*b),
        Json::Number(n) => {
            let repr = n.to_string();
            if repr.contains(['.', 'e', 'E']) {
                Value::Float(repr.parse().expect("float"))
            } else if let Ok(i) = repr.parse::<i64>() {
                Value::Int(i)
            } else {
                Value::BigInt(hiera::value::ArcStr::from(repr.as_str()))
            }
        }
        Json::String(s) => Value::from(s.as_str()),
        Json::Array(a) => Value::array(a.iter().map(decode).collect()),
        Json::Object(o) => match o.get("__type__").and_then(Json::as_str) {
            Some("Hash") => {
                let mut map = Map::default();
                for entry in o["entries"].as_array().expect("entries") {
                    map.insert(decode(&entry[0]), decode(&entry[1]));
                }
                Value::hash(map)
            }
            Some("Symbol") => {
                Value::Symbol(hiera::value::ArcStr::from(o["name"].as_str().unwrap()))
            }
            Some("Bytes") => Value::Bytes(Arc::from(unhex(o["hex"].as_str().unwrap()))),
            _ => panic!("unexpected object from the oracle: {j}"),
        },
    }
}

pub fn hex(b: &[u8]) -> String {
    b.iter().map(|x| format!("{x:02x}")).collect()
}

pub fn unhex(s: &str) -> Vec<u8> {
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).unwrap())
        .collect()
}

/// Exact equality: same types, same key order, floats by bits.
pub fn same(a: &Value, b: &Value) -> bool {
    match (a, b) {
        (Value::Hash(x), Value::Hash(y)) => {
            x.len() == y.len()
                && x.iter()
                    .zip(y.iter())
                    .all(|((k1, v1), (k2, v2))| same(k1, k2) && same(v1, v2))
        }
        (Value::Array(x), Value::Array(y)) => {
            x.len() == y.len() && x.iter().zip(y.iter()).all(|(p, q)| same(p, q))
        }
        _ => a == b,
    }
}
