//! [`List`]: the elements of an Array value.
//!
//! A boxed slice of values (16 bytes, so that an Array's `Shared<List>`
//! allocation is 24 bytes where a `Vec`'s was 32: issue 18, one per Array of
//! the file cache), built from a `Vec` (`List::from`, which trims the
//! `Vec`'s spare room) and taken back as one (`into_vec`). It dereferences
//! to the slice; [`List::push`], the one growing operation (deep merge's
//! rare `extend_existing_arrays`), reallocates to the new length.
//!
//! It drops on a grown stack segment when the thread's stack runs low
//! ([`crate::stack::grow`]), so that dropping an Array nested as deep as the
//! YAML loader allows cannot overflow a host thread's stack.

use crate::value::Value;
use std::ops::{Deref, DerefMut};

/// The elements of an Array value (see the module documentation).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct List(Box<[Value]>);

impl List {
    /// The elements, taken out of the list.
    pub fn into_vec(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0).into_vec()
    }

    /// Appends `value` (reallocating the elements to the new length: a
    /// list has no spare room).
    pub fn push(&mut self, value: Value) {
        let mut v = std::mem::take(&mut self.0).into_vec();
        v.push(value);
        self.0 = v.into_boxed_slice();
    }
}

impl Drop for List {
    fn drop(&mut self) {
        if !self.0.is_empty() {
            let elements = std::mem::take(&mut self.0);
            crate::stack::grow(move || drop(elements));
        }
    }
}

impl Deref for List {
    type Target = [Value];
    #[inline]
    fn deref(&self) -> &[Value] {
        &self.0
    }
}

impl DerefMut for List {
    #[inline]
    fn deref_mut(&mut self) -> &mut [Value] {
        &mut self.0
    }
}

impl From<Vec<Value>> for List {
    #[inline]
    fn from(v: Vec<Value>) -> List {
        List(v.into_boxed_slice())
    }
}

impl std::fmt::Debug for List {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.0.fmt(f)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_list_is_16_bytes_and_an_arrays_allocation_24() {
        assert_eq!(std::mem::size_of::<List>(), 16);
        // triomphe's count, then the list.
        assert_eq!(std::mem::size_of::<(usize, List)>(), 24);
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
