//! Ruby's `Float#to_s` (and `Float#inspect`, the same text) and `Float()`
//! of a String.

/// Ruby's `Float#to_s` (and `inspect`): the shortest digits that read back
/// as the same double; fixed notation when the decimal exponent allows
/// (`100.0`, `0.0001`, `1234567890123456.8`), else `1.0e+16`, `1.0e-05`;
/// always a fractional digit; `-0.0`, `Infinity`, `-Infinity`, `NaN`.
pub fn float_to_s(f: f64) -> String {
    if f.is_nan() {
        return "NaN".into();
    }
    if f.is_infinite() {
        return if f > 0.0 {
            "Infinity".into()
        } else {
            "-Infinity".into()
        };
    }
    if f == 0.0 {
        return if f.is_sign_negative() {
            "-0.0".into()
        } else {
            "0.0".into()
        };
    }
    let (digits, exp) = shortest_digits(f.abs());
    let digs = digits.len() as i32;
    let decpt = exp + 1; // digits before the decimal point
    let mut out = String::new();
    if f < 0.0 {
        out.push('-');
    }
    if decpt > 0 && decpt < digs {
        // 123.45 (at most 17 digits, so decpt <= 16)
        out.push_str(&digits[..decpt as usize]);
        out.push('.');
        out.push_str(&digits[decpt as usize..]);
    } else if decpt > 0 && decpt <= 15 {
        // 1500.0
        out.push_str(&digits);
        for _ in digs..decpt {
            out.push('0');
        }
        out.push_str(".0");
    } else if decpt <= 0 && decpt > -4 {
        // 0.00012
        out.push_str("0.");
        for _ in decpt..0 {
            out.push('0');
        }
        out.push_str(&digits);
    } else {
        out.push_str(&digits[..1]);
        out.push('.');
        if digs > 1 {
            out.push_str(&digits[1..]);
        } else {
            out.push('0');
        }
        let e = decpt - 1;
        out.push('e');
        out.push(if e < 0 { '-' } else { '+' });
        out.push_str(&format!("{:02}", e.abs()));
    }
    out
}

/// Splits Rust's `{:e}` text into significant digits and exponent.
fn sci_parts(sci: &str) -> (String, i32) {
    let (mant, exp) = sci.split_once('e').expect("exponent");
    (
        mant.chars().filter(|c| *c != '.').collect(),
        exp.parse().expect("exponent digits"),
    )
}

/// The shortest round-trip digits of a positive finite `f` and the decimal
/// exponent of the first one, as Ruby's `dtoa` mode 0 chooses them: when
/// two shortest candidates are exactly as close to `f`, the one ending in
/// an even digit (Rust's formatter rounds such ties up).
fn shortest_digits(f: f64) -> (String, i32) {
    let (digits, exp) = sci_parts(&format!("{:e}", f));
    let n = digits.len();
    let last = digits.as_bytes()[n - 1] - b'0';
    // A tie needs a spacing of candidates as fine as the double's own, and
    // an even neighbour that reads back as `f` too.
    if n < 16 || last & 1 == 0 {
        return (digits, exp);
    }
    let neighbour_reads_back = |delta: i8| {
        let mut d = digits.clone().into_bytes();
        d[n - 1] = (d[n - 1] as i8 + delta) as u8;
        let text = format!(
            "{}.{}e{}",
            d[0] as char,
            std::str::from_utf8(&d[1..]).expect("digits"),
            exp
        );
        text.parse::<f64>().ok() == Some(f)
    };
    if !neighbour_reads_back(-1) && (last == 9 || !neighbour_reads_back(1)) {
        return (digits, exp);
    }
    // The exact value, trailing zeros dropped (800 digits hold any double).
    let (exact, exact_exp) = sci_parts(&format!("{:.800e}", f));
    let exact = exact.trim_end_matches('0');
    if exact_exp != exp || exact.len() != n + 1 || !exact.ends_with('5') {
        return (digits, exp);
    }
    let prefix = &exact[..n];
    let mut candidate = digits.clone().into_bytes();
    if prefix == digits && last < 9 {
        candidate[n - 1] += 1; // exactly D.5: D+1 is the even neighbour
    } else if prefix.as_bytes()[..n - 1] == candidate[..n - 1]
        && prefix.as_bytes()[n - 1] + 1 == candidate[n - 1]
    {
        candidate[n - 1] -= 1; // exactly (D-1).5
    } else {
        return (digits, exp);
    }
    let candidate = String::from_utf8(candidate).expect("digits");
    let text = format!("{}.{}e{}", &candidate[..1], &candidate[1..], exp);
    if text.parse::<f64>().ok() == Some(f) {
        (candidate, exp)
    } else {
        (digits, exp)
    }
}

/// Ruby's strict `Float(string)`: optional surrounding whitespace, sign,
/// digits with single underscores between them, a fraction needing digits on
/// both sides of the dot (or none before it), an exponent, or a hexadecimal
/// `0x` number (a fraction only with a binary `p` exponent).
pub fn parse(s: &str) -> Option<f64> {
    if s.contains('\0') {
        return None;
    }
    let t = s.trim_matches(|c| matches!(c, ' ' | '\t' | '\n' | '\x0b' | '\x0c' | '\r'));
    let b = t.as_bytes();
    let mut i = 0;
    let mut out = String::new();
    let mut negative = false;
    if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
        negative = b[i] == b'-';
        out.push(b[i] as char);
        i += 1;
    }
    fn digits(b: &[u8], i: &mut usize, out: &mut String, hex: bool) -> usize {
        let is_digit = |c: u8| {
            if hex {
                c.is_ascii_hexdigit()
            } else {
                c.is_ascii_digit()
            }
        };
        let mut n = 0;
        while *i < b.len() {
            if is_digit(b[*i]) {
                out.push(b[*i] as char);
                n += 1;
                *i += 1;
            } else if b[*i] == b'_' && n > 0 && *i + 1 < b.len() && is_digit(b[*i + 1]) {
                *i += 1;
            } else {
                break;
            }
        }
        n
    }
    if b.len() >= i + 2 && b[i] == b'0' && (b[i + 1] == b'x' || b[i + 1] == b'X') {
        i += 2;
        // Hexadecimal digits; `_` only between two decimal digits.
        let mut mantissa = String::new();
        while i < b.len() {
            if b[i].is_ascii_hexdigit() {
                mantissa.push(b[i] as char);
                i += 1;
            } else if b[i] == b'_'
                && i > 0
                && b[i - 1].is_ascii_digit()
                && b.get(i + 1).is_some_and(u8::is_ascii_digit)
            {
                i += 1;
            } else {
                break;
            }
        }
        let int = mantissa.len();
        // A fraction: hexadecimal digits, no `_`, and then an exponent.
        let mut frac_digits = String::new();
        if i < b.len() && b[i] == b'.' {
            i += 1;
            while i < b.len() && b[i].is_ascii_hexdigit() {
                frac_digits.push(b[i] as char);
                i += 1;
            }
            if frac_digits.is_empty() || !matches!(b.get(i), Some(b'p' | b'P')) {
                return None;
            }
        }
        if int == 0 {
            return None;
        }
        if int == 0 && frac_digits.is_empty() {
            return None;
        }
        let mut exp: i32 = 0;
        if i < b.len() && (b[i] == b'p' || b[i] == b'P') {
            i += 1;
            let mut e = String::new();
            if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
                e.push(b[i] as char);
                i += 1;
            }
            if digits(b, &mut i, &mut e, false) == 0 {
                return None;
            }
            exp = e.parse::<i32>().unwrap_or(if e.starts_with('-') {
                -100_000
            } else {
                100_000
            });
        }
        if i != b.len() {
            return None;
        }
        let mut v = 0f64;
        for c in mantissa.chars() {
            v = v * 16.0 + c.to_digit(16).unwrap_or(0) as f64;
        }
        let mut scale = 1.0 / 16.0;
        for c in frac_digits.chars() {
            v += c.to_digit(16).unwrap_or(0) as f64 * scale;
            scale /= 16.0;
        }
        let v = v * 2f64.powi(exp);
        return Some(if negative { -v } else { v });
    }
    let int = digits(b, &mut i, &mut out, false);
    if int == 0 {
        out.push('0');
    }
    let mut frac = 0;
    if i < b.len() && b[i] == b'.' {
        i += 1;
        out.push('.');
        frac = digits(b, &mut i, &mut out, false);
        if frac == 0 {
            return None;
        }
    }
    if int == 0 && frac == 0 {
        return None;
    }
    if i < b.len() && (b[i] == b'e' || b[i] == b'E') {
        i += 1;
        out.push('e');
        if i < b.len() && (b[i] == b'+' || b[i] == b'-') {
            out.push(b[i] as char);
            i += 1;
        }
        if digits(b, &mut i, &mut out, false) == 0 {
            return None;
        }
    }
    if i != b.len() {
        return None;
    }
    out.parse::<f64>().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `p 1e15, 1e16, ...` etc. on Ruby 3.1.2.
    #[test]
    fn ruby_float_matches_ruby() {
        let cases: &[(f64, &str)] = &[
            (1e15, "1.0e+15"),
            (1e16, "1.0e+16"),
            (123456789012345.6, "123456789012345.6"),
            (1234567890123456.7, "1234567890123456.8"),
            (9999999999999998.0, "9.999999999999998e+15"),
            (1e-4, "0.0001"),
            (0.00009999, "9.999e-05"),
            (1e-5, "1.0e-05"),
            (1.0e20, "1.0e+20"),
            (1.5e300, "1.5e+300"),
            (-0.0, "-0.0"),
            (0.0, "0.0"),
            (2.5e-10, "2.5e-10"),
            (100.0, "100.0"),
            (12345678901234567.0, "1.2345678901234568e+16"),
            (5e-324, "5.0e-324"),
            (1.7976931348623157e308, "1.7976931348623157e+308"),
            (0.1 + 0.2, "0.30000000000000004"),
            (1e22, "1.0e+22"),
            (1e23, "1.0e+23"),
            (1e14, "100000000000000.0"),
            (999999999999999.0, "999999999999999.0"),
            (123456789012345.0, "123456789012345.0"),
            (1234567890123456.0, "1.234567890123456e+15"),
            (100000000000000.5, "100000000000000.5"),
            (1000000000000000.5, "1000000000000000.5"),
            (0.001, "0.001"),
            (0.00012345, "0.00012345"),
            (12.0, "12.0"),
            (1.5, "1.5"),
            (2.5e-300, "2.5e-300"),
            (0.0012345, "0.0012345"),
            (123456789.0, "123456789.0"),
            (-1500.0, "-1500.0"),
            (f64::NAN, "NaN"),
            (f64::INFINITY, "Infinity"),
            (f64::NEG_INFINITY, "-Infinity"),
            // Exact ties between two shortest candidates: Ruby takes the even digit.
            (f64::from_bits(0x4310852d41591235), "1162507260937357.2"),
            (f64::from_bits(0x42d6ac4715d375e8), "99716731194839.62"),
            (f64::from_bits(0xc31eca82f0904d2d), "-2166728257966923.2"),
        ];
        for (f, want) in cases {
            assert_eq!(float_to_s(*f), *want, "{:e}", f);
        }
    }
}
