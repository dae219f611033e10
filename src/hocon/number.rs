//! Numbers as ruby-hocon 1.3.1 reads them: the token's text through Ruby's
//! `Integer()` (a leading `0` means octal) or, when it has `.`, `e` or `E`,
//! `Float()`; a Float that is a whole number becomes an Integer
//! (`ConfigNumber.new_number`: `1.0` and `1e3` are `1` and `1000`).

/// A number's value.
#[derive(Clone, Debug, PartialEq)]
pub enum Number {
    /// An Integer that fits in 64 bits.
    Int(i64),
    /// A larger Integer: its decimal digits (optional leading `-`).
    Big(String),
    /// A Float.
    Float(f64),
}

/// Ruby's `Integer(s)` for the characters a HOCON number token can hold
/// (digits, `-`, `+`, `.`, `e`, `E`): `None` where Ruby raises.
fn ruby_integer(s: &str) -> Option<Number> {
    let (neg, digits) = match s.as_bytes().first() {
        Some(b'-') => (true, &s[1..]),
        Some(b'+') => (false, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let radix = if digits.len() > 1 && digits.starts_with('0') {
        if !digits.bytes().all(|b| b < b'8') {
            return None;
        }
        8
    } else {
        10
    };
    match i64::from_str_radix(digits, radix) {
        Ok(v) => Some(Number::Int(if neg { -v } else { v })),
        Err(_) if radix == 10 => {
            let t = digits.trim_start_matches('0');
            Some(Number::Big(format!("{}{}", if neg { "-" } else { "" }, t)))
        }
        Err(_) => {
            // A huge octal literal: convert digit by digit in decimal.
            let mut dec: Vec<u8> = vec![0];
            for b in digits.bytes() {
                let mut carry = u32::from(b - b'0');
                for d in dec.iter_mut() {
                    let v = u32::from(*d) * 8 + carry;
                    *d = (v % 10) as u8;
                    carry = v / 10;
                }
                while carry > 0 {
                    dec.push((carry % 10) as u8);
                    carry /= 10;
                }
            }
            let t: String = dec.iter().rev().map(|d| (b'0' + d) as char).collect();
            Some(Number::Big(format!("{}{}", if neg { "-" } else { "" }, t)))
        }
    }
}

/// A whole Float as ruby-hocon keeps it: an Integer (Ruby's `to_i`).
fn whole(f: f64) -> Option<Number> {
    if !f.is_finite() || f.fract() != 0.0 {
        return None;
    }
    if f.abs() < 9.2e18 {
        return Some(Number::Int(f as i64));
    }
    Some(Number::Big(format!("{f:.0}")))
}

/// The number a token's text reads as, `None` when Ruby's conversion
/// raises (the text is then unquoted text). An infinite Float (`1e400`)
/// is `Some(Float(inf))`: ruby-hocon fails on it (`FloatDomainError`) and
/// the parser reports that.
pub fn parse_number(s: &str) -> Option<Number> {
    if s.contains(['.', 'e', 'E']) {
        let f = crate::ruby::float::parse(s)?;
        Some(whole(f).unwrap_or(Number::Float(f)))
    } else {
        ruby_integer(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn integers() {
        assert_eq!(parse_number("42"), Some(Number::Int(42)));
        assert_eq!(parse_number("-010"), Some(Number::Int(-8)));
        assert_eq!(parse_number("00"), Some(Number::Int(0)));
        assert_eq!(parse_number("08"), None);
        assert_eq!(parse_number("-"), None);
        assert_eq!(parse_number("1-2"), None);
        assert_eq!(
            parse_number("12345678901234567890123"),
            Some(Number::Big("12345678901234567890123".into()))
        );
    }

    #[test]
    fn floats() {
        assert_eq!(parse_number("1.5"), Some(Number::Float(1.5)));
        assert_eq!(parse_number("-.5"), Some(Number::Float(-0.5)));
        assert_eq!(parse_number("1.0"), Some(Number::Int(1)));
        assert_eq!(parse_number("1e3"), Some(Number::Int(1000)));
        assert_eq!(parse_number("-0.0"), Some(Number::Int(0)));
        assert_eq!(
            parse_number("1e20"),
            Some(Number::Big("100000000000000000000".into()))
        );
        assert_eq!(parse_number("5."), None);
        assert_eq!(parse_number("1.e5"), None);
        assert_eq!(parse_number("1.5.5"), None);
        assert_eq!(parse_number("1e"), None);
    }
}
