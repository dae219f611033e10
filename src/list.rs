//! [`List`]: the elements of an Array value.
//!
//! A `Vec<Value>` that drops on a grown stack segment when the thread's
//! stack runs low ([`crate::stack::grow`]), so that dropping an Array nested
//! as deep as the YAML loader allows cannot overflow a host thread's stack.
//! It dereferences to the `Vec`.

use crate::value::Value;
use std::ops::{Deref, DerefMut};

/// The elements of an Array value (see the module documentation).
#[derive(Clone, Default, PartialEq, Eq, Hash)]
pub struct List(Vec<Value>);

impl List {
    /// The elements, taken out of the list.
    pub fn into_vec(mut self) -> Vec<Value> {
        std::mem::take(&mut self.0)
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
    type Target = Vec<Value>;
    #[inline]
    fn deref(&self) -> &Vec<Value> {
        &self.0
    }
}

impl DerefMut for List {
    #[inline]
    fn deref_mut(&mut self) -> &mut Vec<Value> {
        &mut self.0
    }
}

impl From<Vec<Value>> for List {
    #[inline]
    fn from(v: Vec<Value>) -> List {
        List(v)
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
}
