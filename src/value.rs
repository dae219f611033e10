//! The data model: the values Hiera reads, merges and returns.
//!
//! A [`Value`] mirrors the Ruby objects Puppet works with: `nil`, booleans,
//! Integers of any size, Floats, Strings (UTF-8, or raw bytes), Symbols,
//! ordered Hashes whose keys may be any value, Arrays and `Sensitive`.
//!
//! A `Value` is 16 bytes. Short Strings (up to 8 bytes, most keys) are
//! stored in place and long ones behind one thin reference-counted pointer
//! (see [`Str`]); containers are reference counted, one thin pointer each
//! ([`List`], [`Map`]). Cloning a value out of the file cache therefore
//! costs at most a reference-count increment, never a deep copy. A merge
//! that changes a container copies it on write (as `Arc::make_mut`). The rarer strings (big Integers' digits, Symbols, raw
//! bytes) are behind one pointer as well, to keep the size.
//!
//! Equality and hashing follow Ruby's `eql?`: `1` and `1.0` are different
//! keys and different array elements; floats compare by bit pattern, except
//! that `0.0` and `-0.0` are equal (Ruby's `0.0.eql?(-0.0)`, same `hash`).

use std::hash::{Hash, Hasher};
use std::sync::Arc;

pub use crate::list::List;
pub use crate::map::Map;
pub use crate::string::Str;
pub use arcstr::ArcStr;

/// A Hiera value.
#[derive(Clone, Debug, Default)]
pub enum Value {
    /// Ruby `nil` (Puppet `undef`).
    #[default]
    Nil,
    /// `true` / `false`.
    Bool(bool),
    /// An Integer that fits in 64 bits.
    Int(i64),
    /// An Integer beyond 64 bits, kept exactly as its decimal digits
    /// (optional leading `-`, no leading zeros).
    BigInt(ArcStr),
    /// A Float.
    Float(f64),
    /// A valid UTF-8 String.
    String(Str),
    /// A String that is not valid UTF-8 (e.g. from YAML `!!binary`).
    Bytes(Arc<Vec<u8>>),
    /// A Ruby Symbol (YAML `:sym` values); Puppet rejects these when looked up.
    Symbol(ArcStr),
    /// An Array.
    Array(List),
    /// A Hash, in insertion order.
    Hash(Map),
    /// A `Sensitive` wrapper (from `convert_to: Sensitive`).
    Sensitive(Arc<Value>),
    /// Another Puppet rich data value (from `convert_to`): its type name
    /// (`SemVer`, `Timestamp`, ...) and Puppet's string form of it.
    Rich(Arc<(String, String)>),
}

impl Value {
    /// A String value.
    pub fn string(s: impl Into<Str>) -> Value {
        Value::String(s.into())
    }

    /// An Array value.
    pub fn array(v: Vec<Value>) -> Value {
        Value::Array(List::from(v))
    }

    /// A Hash value.
    pub fn hash(m: Map) -> Value {
        Value::Hash(m)
    }

    /// An empty Hash.
    pub fn empty_hash() -> Value {
        Value::Hash(Map::default())
    }

    /// `true` for `nil`.
    pub fn is_nil(&self) -> bool {
        matches!(self, Value::Nil)
    }

    /// The string slice of a UTF-8 String value.
    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    /// The text of a String or a Symbol.
    pub fn string_or_symbol(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            Value::Symbol(s) => Some(s),
            _ => None,
        }
    }

    /// The map of a Hash value.
    pub fn as_hash(&self) -> Option<&Map> {
        match self {
            Value::Hash(h) => Some(h),
            _ => None,
        }
    }

    /// The elements of an Array value.
    pub fn as_array(&self) -> Option<&[Value]> {
        match self {
            Value::Array(a) => Some(a),
            _ => None,
        }
    }

    /// Ruby truthiness: everything but `nil` and `false` is true.
    pub fn is_truthy(&self) -> bool {
        !matches!(self, Value::Nil | Value::Bool(false))
    }

    /// The Ruby class name of the value (`String`, `Array`, `Hash`,
    /// `Integer`, `Float`, `TrueClass`, `FalseClass`, `NilClass`, `Symbol`).
    pub fn ruby_class(&self) -> &'static str {
        match self {
            Value::Nil => "NilClass",
            Value::Bool(true) => "TrueClass",
            Value::Bool(false) => "FalseClass",
            Value::Int(_) | Value::BigInt(_) => "Integer",
            Value::Float(_) => "Float",
            Value::String(_) | Value::Bytes(_) => "String",
            Value::Symbol(_) => "Symbol",
            Value::Array(_) => "Array",
            Value::Hash(_) => "Hash",
            Value::Sensitive(_) => "Puppet::Pops::Types::PSensitiveType::Sensitive",
            Value::Rich(_) => "Object",
        }
    }

    /// Looks up a String key in a Hash value.
    pub fn get(&self, key: &str) -> Option<&Value> {
        self.as_hash()?.get(&Key(key))
    }
}

impl Value {
    /// A stable small number per variant, used for hashing (so that a
    /// borrowed [`Key`] hashes like an owned String value).
    fn tag(&self) -> u8 {
        match self {
            Value::Nil => 0,
            Value::Bool(_) => 1,
            Value::Int(_) => 2,
            Value::BigInt(_) => 3,
            Value::Float(_) => 4,
            Value::String(_) => STRING_TAG,
            Value::Bytes(_) => 6,
            Value::Symbol(_) => 7,
            Value::Array(_) => 8,
            Value::Hash(_) => 9,
            Value::Sensitive(_) => 10,
            Value::Rich(_) => 11,
        }
    }
}

const STRING_TAG: u8 = 5;

/// A borrowed String key: looks up a [`Map`] without allocating a
/// [`Value`] (`map.get(&Key("name"))`).
#[derive(Clone, Copy, Debug)]
pub struct Key<'a>(pub &'a str);

impl Hash for Key<'_> {
    #[inline]
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u8(STRING_TAG);
        Str::hash_bytes(self.0.as_bytes(), state);
    }
}

impl indexmap::Equivalent<Value> for Key<'_> {
    #[inline]
    fn equivalent(&self, key: &Value) -> bool {
        matches!(key, Value::String(s) if s.as_bytes() == self.0.as_bytes())
    }
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::String(Str::new(s))
    }
}

impl From<String> for Value {
    fn from(s: String) -> Value {
        Value::String(Str::from(s))
    }
}

impl From<i64> for Value {
    fn from(i: i64) -> Value {
        Value::Int(i)
    }
}

impl From<bool> for Value {
    fn from(b: bool) -> Value {
        Value::Bool(b)
    }
}

impl Value {
    /// A copy of a hash key: [`Clone::clone`] with the usual case, a String,
    /// inlined (a copy made in place, where the call returned it through
    /// the stack and the caller read it back before it was stored, stalled).
    #[inline]
    pub(crate) fn clone_key(&self) -> Value {
        match self {
            Value::String(s) => Value::String(s.clone()),
            other => other.clone(),
        }
    }
}

impl Value {
    /// Whether `self` and `other` are the same value in every way a
    /// rendering or a type check could tell apart: [`Value::eq`] (Ruby's
    /// `==`) without its leniencies, so the same variant, Floats by their
    /// bits (`-0.0` is not `0.0`), and Hashes with their keys in the same
    /// order (`{a=>1,b=>2}` interpolates otherwise than `{b=>2,a=>1}`).
    /// For memos keyed on values that may be interpolated.
    pub(crate) fn identical(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Float(a), Float(b)) => a.to_bits() == b.to_bits(),
            (Array(a), Array(b)) => {
                List::ptr_eq(a, b)
                    || (a.len() == b.len()
                        && crate::stack::grow(|| {
                            a.iter().zip(b.iter()).all(|(x, y)| x.identical(y))
                        }))
            }
            (Hash(a), Hash(b)) => {
                Map::ptr_eq(a, b)
                    || (a.len() == b.len()
                        && crate::stack::grow(|| {
                            a.iter()
                                .zip(b.iter())
                                .all(|((k, v), (l, w))| k.identical(l) && v.identical(w))
                        }))
            }
            _ => std::mem::discriminant(self) == std::mem::discriminant(other) && self == other,
        }
    }
}

impl PartialEq for Value {
    #[inline]
    fn eq(&self, other: &Value) -> bool {
        if let (Value::String(a), Value::String(b)) = (self, other) {
            // The common case, hash keys, inlined where keys are compared.
            return a == b;
        }
        self.eq_not_both_strings(other)
    }
}

impl Value {
    /// [`Value::eq`] past its inlined case of two Strings.
    #[inline(never)]
    fn eq_not_both_strings(&self, other: &Value) -> bool {
        use Value::*;
        match (self, other) {
            (Nil, Nil) => true,
            (Bool(a), Bool(b)) => a == b,
            (Int(a), Int(b)) => a == b,
            (BigInt(a), BigInt(b)) => a == b,
            (Float(a), Float(b)) => a.to_bits() == b.to_bits() || (*a == 0.0 && *b == 0.0),
            (String(a), String(b)) => a == b,
            (Bytes(a), Bytes(b)) => a == b,
            (Symbol(a), Symbol(b)) => a == b,
            (Array(a), Array(b)) => {
                List::ptr_eq(a, b) || (a.len() == b.len() && crate::stack::grow(|| a == b))
            }
            (Hash(a), Hash(b)) => {
                Map::ptr_eq(a, b)
                    || (a.len() == b.len()
                        && crate::stack::grow(|| {
                            a.iter().all(|(k, v)| b.get(k).is_some_and(|w| v == w))
                        }))
            }
            (Sensitive(a), Sensitive(b)) => Arc::ptr_eq(a, b),
            (Rich(a), Rich(b)) => a == b,
            _ => false,
        }
    }
}

impl Eq for Value {}

impl Hash for Value {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u8(self.tag());
        match self {
            Value::Nil => {}
            Value::Bool(b) => b.hash(state),
            Value::Int(i) => i.hash(state),
            Value::String(s) => Str::hash_bytes(s.as_bytes(), state),
            Value::BigInt(s) | Value::Symbol(s) => s.as_str().hash(state),
            // `-0.0` hashes as `0.0`, which it equals.
            Value::Float(f) => (if *f == 0.0 { 0.0f64 } else { *f }).to_bits().hash(state),
            Value::Bytes(b) => b.hash(state),
            Value::Array(a) => {
                a.len().hash(state);
                crate::stack::grow(|| {
                    for v in a.iter() {
                        v.hash(state);
                    }
                })
            }
            // Ruby hashes of hashes are order independent: hash only the size.
            Value::Hash(h) => h.len().hash(state),
            Value::Sensitive(v) => (Arc::as_ptr(v) as usize).hash(state),
            Value::Rich(r) => r.hash(state),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_is_two_words() {
        // The file cache's size and the merges' speed depend on it.
        assert_eq!(std::mem::size_of::<Value>(), 16);
        assert_eq!(std::mem::size_of::<(Value, Value)>(), 32);
    }

    #[test]
    fn integer_and_float_keys_are_distinct() {
        let mut m = Map::default();
        m.insert(Value::Int(1), Value::from("int"));
        m.insert(Value::Float(1.0), Value::from("float"));
        assert_eq!(m.len(), 2);
        assert_eq!(m.get(&Value::Int(1)), Some(&Value::from("int")));
    }

    /// As in Ruby, where `0.0.eql?(-0.0)`: one key, one array element (the
    /// deep_merge gem's `dest | source` keeps `[0.0]`).
    #[test]
    fn zero_and_negative_zero_are_one_key() {
        let mut m = Map::default();
        m.insert(Value::Float(0.0), Value::from("zero"));
        m.insert(Value::Float(-0.0), Value::from("negative zero"));
        assert_eq!(m.len(), 1);
        assert_eq!(
            m.get_index(0),
            Some((&Value::Float(0.0), &Value::from("negative zero")))
        );
        assert!(
            m.get_index(0)
                .is_some_and(|(k, _)| matches!(k, Value::Float(f) if f.is_sign_positive())),
            "the first key is kept"
        );
        assert_ne!(Value::Float(1.0), Value::Float(-1.0));
        assert_ne!(Value::Float(0.0), Value::Int(0));
    }

    #[test]
    fn borrowed_keys_find_string_keys() {
        let mut m = Map::default();
        m.insert("a".into(), Value::Int(1));
        m.insert(Value::Int(5), Value::Int(2));
        assert_eq!(m.get(&Key("a")), Some(&Value::Int(1)));
        assert_eq!(m.get(&Key("5")), None);
    }

    #[test]
    fn hash_equality_ignores_order() {
        let mut a = Map::default();
        a.insert("x".into(), Value::Int(1));
        a.insert("y".into(), Value::Int(2));
        let mut b = Map::default();
        b.insert("y".into(), Value::Int(2));
        b.insert("x".into(), Value::Int(1));
        assert_eq!(Value::hash(a), Value::hash(b));
    }
}
