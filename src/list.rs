//! [`List`]: the elements of an Array value.
//!
//! One reference-counted allocation of the elements behind one thin pointer
//! (`SharedSlice`, in `src/shared_slice.rs`): cloning a list is a count
//! increment, and a change copies the elements first when another value
//! shares them (copy on write, as `Arc::make_mut`). Issue 18: an Array of
//! the file cache was a `triomphe::Arc` (24 bytes) of a boxed slice, two
//! allocations; it is now one, 16 bytes smaller. Built from a `Vec`
//! (`List::from`) and taken back as one (`into_vec`: moved out when not
//! shared). It dereferences to the slice (mutably: copied first if shared);
//! [`List::push`], the one growing operation (deep merge's rare
//! `extend_existing_arrays`), reallocates to the new length.
//!
//! It drops on a grown stack segment when the thread's stack runs low
//! ([`crate::stack::grow`]), so that dropping an Array nested as deep as the
//! YAML loader allows cannot overflow a host thread's stack.

use crate::shared_slice::{Handle, SharedSlice};
use crate::value::Value;
use std::ops::{Deref, DerefMut};

/// The elements of an Array value (see the module documentation).
#[derive(Clone, Default)]
pub struct List(SharedSlice<Value>);

impl List {
    /// The elements, taken out of the list (moved when no other value
    /// shares them, else cloned).
    pub fn into_vec(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0).into_vec()
    }

    /// Appends `value` (reallocating the elements to the new length: a
    /// list has no spare room).
    pub fn push(&mut self, value: Value) {
        let mut v = std::mem::take(&mut self.0).into_vec();
        v.push(value);
        self.0 = SharedSlice::from_vec(v);
    }

    /// Whether `a` and `b` share their elements (two empty lists do).
    #[inline]
    pub fn ptr_eq(a: &List, b: &List) -> bool {
        SharedSlice::ptr_eq(&a.0, &b.0)
    }

    /// The address of the elements (0 when empty): an identity while the
    /// list lives.
    #[inline]
    pub fn addr(&self) -> usize {
        self.0.addr()
    }

    /// Whether no other value shares the elements (a change then needs no
    /// copy).
    #[inline]
    pub fn is_unique(&self) -> bool {
        self.0.is_unique()
    }

    /// How many values share the elements (1 when empty).
    pub fn strong_count(&self) -> usize {
        self.0.strong_count()
    }
}

impl Drop for List {
    fn drop(&mut self) {
        if self.0.is_unique() && self.0.len() != 0 {
            let elements = std::mem::take(&mut self.0);
            crate::stack::grow(move || drop(elements));
        }
    }
}

impl Deref for List {
    type Target = [Value];
    #[inline]
    fn deref(&self) -> &[Value] {
        self.0.as_slice()
    }
}

/// The elements to change: copied first when another value shares them.
impl DerefMut for List {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Value] {
        self.0.make_mut()
    }
}

impl List {
    /// The List of `items` from `start` on, moved out of `items` (which
    /// keeps the rest, and its buffer): see [`SharedSlice::take_from`].
    pub(crate) fn take_from(items: &mut Vec<Value>, start: usize) -> List {
        List(SharedSlice::take_from(items, start))
    }
}

impl From<Vec<Value>> for List {
    #[inline]
    fn from(v: Vec<Value>) -> List {
        List(SharedSlice::from_vec(v))
    }
}

impl PartialEq for List {
    fn eq(&self, other: &List) -> bool {
        **self == **other
    }
}

impl Eq for List {}

impl std::hash::Hash for List {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl std::fmt::Debug for List {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        (**self).fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_one_pointer() {
        assert_eq!(std::mem::size_of::<List>(), 8);
        assert_eq!(std::mem::size_of::<Value>(), 16);
    }

    #[test]
    fn a_deep_array_drops_on_a_small_stack() {
        let mut v = Value::from("leaf");
        for _ in 0..100_000 {
            v = Value::array(vec![v]);
        }
        std::thread::Builder::new()
            .stack_size(128 * 1024)
            .spawn(move || drop(v))
            .unwrap()
            .join()
            .unwrap();
    }

    /// Lists built from `Vec`s (of 0 to 20 elements, with spare room or
    /// not), pushed to, changed in place, cloned and taken back hold what
    /// the `Vec`s do (a property test against `Vec`, 2,000 random cases).
    #[test]
    fn a_list_holds_what_a_vec_does() {
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        let mut next = |n: usize| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % n as u64) as usize
        };
        for _ in 0..2000 {
            let len = next(21);
            let mut model: Vec<Value> = Vec::with_capacity(len + next(8));
            for _ in 0..len {
                model.push(Value::Int(next(1000) as i64));
            }
            let mut list = List::from(model.clone());
            assert_eq!(&list[..], &model[..]);
            for _ in 0..next(12) {
                let x = Value::from(format!("pushed {}", next(1000)));
                list.push(x.clone());
                model.push(x);
                assert_eq!(&list[..], &model[..]);
            }
            if !model.is_empty() {
                let i = next(model.len());
                let x = Value::Int(-(next(1000) as i64));
                list[i] = x.clone();
                model[i] = x;
            }
            assert_eq!(&list[..], &model[..]);
            assert_eq!(list.clone(), List::from(model.clone()));
            assert_eq!(list.into_vec(), model);
        }
    }
}
