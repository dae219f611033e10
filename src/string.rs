//! [`Str`]: the text of a String [`Value`](crate::Value), immutable and
//! cheap to copy.
//!
//! Most strings Hiera handles are short: hash keys (`port`, `ensure`,
//! `limits`), class parameters, small values. A `Str` of up to
//! [`INLINE`] bytes is stored in place, so copying it (as every merge and
//! every answer does) touches no reference count and no other memory, and
//! it costs no allocation. A longer one is a reference-counted heap string
//! behind one thin pointer (a `SharedStr` of `crate::shared_slice`: a
//! 32-bit count, the length and the bytes in one allocation). Either way a
//! `Str` is 16 bytes, so that a [`Value`](crate::Value) is 16 bytes too.
//!
//! Equality, ordering and hashing are those of the text (`str`'s), whichever
//! way it is stored.

use crate::shared_slice::SharedStr;
use std::borrow::Borrow;
use std::cmp::Ordering;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

/// Strings of up to this many bytes are stored in place.
pub const INLINE: usize = 8;

/// An immutable UTF-8 string, stored in place when short (see the module).
#[derive(Clone)]
pub struct Str(Repr);

#[derive(Clone)]
enum Repr {
    Inline(Inline),
    Heap(SharedStr),
}

/// A string stored in place: its length, then its bytes, zero after the
/// end. The length's unused values tell a [`Value`](crate::Value)'s other
/// variants and a heap string apart (which keeps both 16 bytes).
///
/// The length is a whole word, so that a String is laid out as every other
/// `Value` is, a tag word and a payload word, and is moved as two words.
/// With a one-byte length and 15 bytes of text, the compiler moved the
/// 15 bytes in overlapping pieces through the stack, and reading them back
/// whole stalled the processor: deep merges took 9% longer and lookups 4-6%.
#[derive(Clone, Copy)]
#[repr(C)]
struct Inline {
    len: Len,
    bytes: [u8; INLINE],
}

/// The length of a string stored in place, 0 to [`INLINE`].
#[derive(Clone, Copy, PartialEq, Eq)]
#[repr(u64)]
enum Len {
    L0,
    L1,
    L2,
    L3,
    L4,
    L5,
    L6,
    L7,
    L8,
}

const LENS: [Len; INLINE + 1] = [
    Len::L0,
    Len::L1,
    Len::L2,
    Len::L3,
    Len::L4,
    Len::L5,
    Len::L6,
    Len::L7,
    Len::L8,
];

impl Inline {
    fn as_bytes(&self) -> &[u8] {
        &self.bytes[..self.len as usize]
    }

    /// The bytes as one word (compared as one load).
    fn word(&self) -> u64 {
        u64::from_ne_bytes(self.bytes)
    }
}

impl Str {
    /// A `Str` of `s`'s text.
    pub fn new(s: &str) -> Str {
        if s.len() <= INLINE {
            let mut bytes = [0u8; INLINE];
            bytes[..s.len()].copy_from_slice(s.as_bytes());
            Str(Repr::Inline(Inline {
                len: LENS[s.len()],
                bytes,
            }))
        } else {
            Str(Repr::Heap(SharedStr::new(s)))
        }
    }

    /// The empty string.
    pub const fn empty() -> Str {
        Str(Repr::Inline(Inline {
            len: Len::L0,
            bytes: [0; INLINE],
        }))
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            // Made from a `str` by `new`: always valid UTF-8.
            Repr::Inline(i) => std::str::from_utf8(i.as_bytes()).unwrap_or_default(),
            Repr::Heap(s) => s.as_str(),
        }
    }

    /// The text's bytes.
    pub fn as_bytes(&self) -> &[u8] {
        match &self.0 {
            Repr::Inline(i) => i.as_bytes(),
            Repr::Heap(s) => s.as_str().as_bytes(),
        }
    }

    /// `true` when both are the same heap string (a copy of one `Str`); short
    /// strings, stored in place, are never the same object.
    pub fn ptr_eq(a: &Str, b: &Str) -> bool {
        matches!((&a.0, &b.0), (Repr::Heap(x), Repr::Heap(y)) if SharedStr::ptr_eq(x, y))
    }

    /// `true` when the text is stored on the heap (longer than [`INLINE`]).
    pub fn is_heap(&self) -> bool {
        matches!(self.0, Repr::Heap(_))
    }

    /// The heap string, when the text is stored on the heap.
    pub(crate) fn heap(&self) -> Option<&SharedStr> {
        match &self.0 {
            Repr::Heap(s) => Some(s),
            Repr::Inline(_) => None,
        }
    }

    /// A `Str` sharing `s` (stored in place instead when it is short).
    pub(crate) fn from_shared(s: &SharedStr) -> Str {
        if s.as_str().len() <= INLINE {
            Str::new(s.as_str())
        } else {
            Str(Repr::Heap(s.clone()))
        }
    }

    /// How many `Str`s share this heap string (1 for a string stored in
    /// place, which is never shared).
    pub fn strong_count(&self) -> usize {
        match &self.0 {
            Repr::Heap(s) => s.strong_count(),
            Repr::Inline(_) => 1,
        }
    }
}

impl Default for Str {
    fn default() -> Str {
        Str::empty()
    }
}

impl Deref for Str {
    type Target = str;
    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Str {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<[u8]> for Str {
    fn as_ref(&self) -> &[u8] {
        self.as_bytes()
    }
}

impl Borrow<str> for Str {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl PartialEq for Str {
    #[inline]
    fn eq(&self, other: &Str) -> bool {
        match (&self.0, &other.0) {
            // The unused bytes of a string stored in place are zero: the
            // lengths and the bytes compare as two words (no call).
            (Repr::Inline(a), Repr::Inline(b)) => a.len == b.len && a.word() == b.word(),
            (Repr::Heap(a), Repr::Heap(b)) => {
                SharedStr::ptr_eq(a, b) || a.as_str().as_bytes() == b.as_str().as_bytes()
            }
            // A string on the heap is longer than any stored in place.
            _ => false,
        }
    }
}

impl Eq for Str {}

impl PartialEq<str> for Str {
    fn eq(&self, other: &str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialEq<&str> for Str {
    fn eq(&self, other: &&str) -> bool {
        self.as_bytes() == other.as_bytes()
    }
}

impl PartialOrd for Str {
    fn partial_cmp(&self, other: &Str) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

/// `str`'s order: by bytes.
impl Ord for Str {
    fn cmp(&self, other: &Str) -> Ordering {
        self.as_bytes().cmp(other.as_bytes())
    }
}

impl Str {
    /// Feeds the text to `state` as `str`'s `Hash` does with the default
    /// `Hasher::write_str`, without checking the UTF-8 of a string stored in
    /// place: for the `Hash` of [`Value`](crate::Value) and
    /// [`Key`](crate::Key), which only need to agree with each other.
    pub fn hash_bytes<H: Hasher>(bytes: &[u8], state: &mut H) {
        state.write(bytes);
        state.write_u8(0xff);
    }
}

/// Hashes as the `str` (so that a `&str` finds a `Str` in a set).
impl Hash for Str {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state)
    }
}

impl std::fmt::Debug for Str {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        std::fmt::Debug::fmt(self.as_str(), f)
    }
}

impl std::fmt::Display for Str {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl From<&str> for Str {
    fn from(s: &str) -> Str {
        Str::new(s)
    }
}

impl From<&String> for Str {
    fn from(s: &String) -> Str {
        Str::new(s)
    }
}

impl From<String> for Str {
    fn from(s: String) -> Str {
        if s.len() <= INLINE {
            Str::new(&s)
        } else {
            Str(Repr::Heap(SharedStr::new(&s)))
        }
    }
}

impl From<Box<str>> for Str {
    fn from(s: Box<str>) -> Str {
        Str::new(&s)
    }
}

impl From<Arc<str>> for Str {
    fn from(s: Arc<str>) -> Str {
        Str::new(&s)
    }
}

impl From<&Arc<str>> for Str {
    fn from(s: &Arc<str>) -> Str {
        Str::new(s)
    }
}

impl From<std::borrow::Cow<'_, str>> for Str {
    fn from(s: std::borrow::Cow<'_, str>) -> Str {
        Str::new(&s)
    }
}

impl From<char> for Str {
    fn from(c: char) -> Str {
        Str::new(c.encode_utf8(&mut [0; 4]))
    }
}

impl From<Str> for String {
    fn from(s: Str) -> String {
        s.as_str().to_string()
    }
}

impl From<Str> for Arc<str> {
    fn from(s: Str) -> Arc<str> {
        Arc::from(s.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn short_and_long_strings_compare_hash_and_order_as_their_text() {
        let texts = [
            "",
            "a",
            "port",
            "eight!!!",
            "nine bytes",
            "exactly14bytes",
            "fifteen bytes!!",
            "sixteen bytes!!!",
            "a longer string than fifteen bytes",
            "ünïcödé ✓",
        ];
        for a in texts {
            let s = Str::new(a);
            assert_eq!(s.as_str(), a);
            assert_eq!(s.is_heap(), a.len() > INLINE, "{a:?}");
            assert_eq!(Str::from(a.to_string()), s);
            let mut set = HashSet::new();
            set.insert(s.clone());
            assert!(set.contains(a), "a &str finds {a:?}");
            for b in texts {
                assert_eq!(Str::new(a) == Str::new(b), a == b);
                assert_eq!(Str::new(a).cmp(&Str::new(b)), a.cmp(b));
            }
        }
        let long = Str::new("a longer string than fifteen bytes");
        assert!(Str::ptr_eq(&long, &long.clone()));
        assert!(!Str::ptr_eq(&long, &Str::new(&long)));
    }

    #[test]
    fn a_str_is_two_words() {
        assert_eq!(std::mem::size_of::<Str>(), 16);
    }
}
