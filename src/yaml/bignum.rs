//! Integers of any size for YAML's integer scalars (decimal, binary, octal,
//! hexadecimal, sexagesimal): parsed in linear time into base 10^9 limbs.

#[allow(unused_imports)]
use super::{loader::*, patch::*, scalar::*, *};

/// A non-negative integer of any size, in base 10^9 limbs (least
/// significant first): enough arithmetic for YAML's integers.
pub(crate) struct Big(Vec<u32>);

pub(crate) const LIMB: u64 = 1_000_000_000;

impl Big {
    pub(crate) fn from_digits(digits: &[u8], radix: u32) -> Big {
        if radix == 10 {
            // Decimal digits group into limbs directly: linear, whatever
            // the length (a data file may hold a scalar of a million digits).
            let limbs = digits
                .rchunks(9)
                .map(|chunk| chunk.iter().fold(0u32, |n, &d| n * 10 + d as u32))
                .collect();
            return Big(limbs);
        }
        // Other radixes: as many digits per step as fit in a u32 multiplier
        // (quadratic, so their length is bounded: MAX_NONDECIMAL_DIGITS).
        let per_step = match radix {
            2 => 31,
            8 => 10,
            16 => 7,
            _ => 1,
        };
        let mut b = Big(vec![0]);
        for chunk in digits.chunks(per_step) {
            b.mul_small(radix.pow(chunk.len() as u32));
            b.add_small(chunk.iter().fold(0u32, |n, &d| n * radix + d as u32));
        }
        b
    }

    pub(crate) fn mul_small(&mut self, m: u32) {
        let mut carry = 0u64;
        for limb in self.0.iter_mut() {
            let v = *limb as u64 * m as u64 + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        while carry > 0 {
            self.0.push((carry % LIMB) as u32);
            carry /= LIMB;
        }
    }

    pub(crate) fn add_small(&mut self, a: u32) {
        let mut carry = a as u64;
        for limb in self.0.iter_mut() {
            if carry == 0 {
                return;
            }
            let v = *limb as u64 + carry;
            *limb = (v % LIMB) as u32;
            carry = v / LIMB;
        }
        if carry > 0 {
            self.0.push(carry as u32);
        }
    }

    /// Subtracts `a`, which must not exceed the value.
    pub(crate) fn sub_small(&mut self, a: u32) {
        let mut borrow = a as u64;
        for limb in self.0.iter_mut() {
            if borrow == 0 {
                return;
            }
            let v = *limb as u64;
            if v >= borrow {
                *limb = (v - borrow) as u32;
                borrow = 0;
            } else {
                *limb = (v + LIMB - borrow % LIMB) as u32;
                borrow = borrow / LIMB + 1;
            }
        }
    }

    pub(crate) fn is_zero(&self) -> bool {
        self.0.iter().all(|l| *l == 0)
    }

    pub(crate) fn into_value(self, negative: bool) -> Value {
        let mut limbs = self.0;
        while limbs.len() > 1 && limbs.last() == Some(&0) {
            limbs.pop();
        }
        let mut s = String::new();
        if negative && !(limbs.len() == 1 && limbs[0] == 0) {
            s.push('-');
        }
        s.push_str(&limbs.last().copied().unwrap_or(0).to_string());
        for l in limbs.iter().rev().skip(1) {
            s.push_str(&format!("{:09}", l));
        }
        match s.parse::<i64>() {
            Ok(i) => Value::Int(i),
            Err(_) => Value::BigInt(s.into()),
        }
    }
}
