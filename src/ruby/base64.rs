//! Base64 as Ruby writes and reads it: `pack('m0')` and a strict reader
//! for the wire format, and `unpack('m')` (`Base64.decode64`), the lenient
//! reader Psych's `!!binary` and hiera-eyaml use.

const B64: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Standard base64 with padding and no line breaks (Ruby's `pack('m0')`).
pub fn encode(data: &[u8]) -> String {
    let mut out = String::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk[0],
            *chunk.get(1).unwrap_or(&0),
            *chunk.get(2).unwrap_or(&0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        out.push(B64[(n >> 18) as usize & 63] as char);
        out.push(B64[(n >> 12) as usize & 63] as char);
        out.push(if chunk.len() > 1 {
            B64[(n >> 6) as usize & 63] as char
        } else {
            '='
        });
        out.push(if chunk.len() > 2 {
            B64[n as usize & 63] as char
        } else {
            '='
        });
    }
    out
}

/// Decodes standard base64; whitespace is ignored, padding is optional.
pub fn decode_strict(text: &str) -> Option<Vec<u8>> {
    let mut out = Vec::with_capacity(text.len() / 4 * 3);
    let mut acc = 0u32;
    let mut bits = 0u32;
    let mut padding = false;
    for c in text.bytes() {
        let v = match c {
            b'A'..=b'Z' => c - b'A',
            b'a'..=b'z' => c - b'a' + 26,
            b'0'..=b'9' => c - b'0' + 52,
            b'+' => 62,
            b'/' => 63,
            b'=' => {
                padding = true;
                continue;
            }
            b' ' | b'\n' | b'\r' | b'\t' => continue,
            _ => return None,
        };
        if padding {
            return None;
        }
        acc = (acc << 6) | u32::from(v);
        bits += 6;
        if bits >= 8 {
            bits -= 8;
            out.push((acc >> bits) as u8);
            acc &= (1 << bits) - 1;
        }
    }
    Some(out)
}

/// Ruby's `Base64.decode64` (`unpack1('m')`): characters outside the
/// alphabet are skipped; `=` is skipped in the first two places of a
/// quantum and ends the decoding in the last two; a partial quantum at
/// the end gives the bytes it holds.
pub fn unpack_m(b: &[u8]) -> Vec<u8> {
    fn val(c: u8) -> Option<u8> {
        match c {
            b'A'..=b'Z' => Some(c - b'A'),
            b'a'..=b'z' => Some(c - b'a' + 26),
            b'0'..=b'9' => Some(c - b'0' + 52),
            b'+' => Some(62),
            b'/' => Some(63),
            _ => None,
        }
    }
    let mut out = Vec::with_capacity(b.len() / 4 * 3 + 2);
    let mut i = 0;
    let (mut a, mut bb, mut c): (Option<u8>, Option<u8>, Option<u8>);
    loop {
        (a, bb, c) = (None, None, None);
        // The first two places skip anything outside the alphabet, `=` too.
        while i < b.len() && val(b[i]).is_none() {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        a = val(b[i]);
        i += 1;
        while i < b.len() && val(b[i]).is_none() {
            i += 1;
        }
        if i >= b.len() {
            break;
        }
        bb = val(b[i]);
        i += 1;
        // The last two stop at `=`.
        while i < b.len() && val(b[i]).is_none() && b[i] != b'=' {
            i += 1;
        }
        if i >= b.len() || b[i] == b'=' {
            break;
        }
        c = val(b[i]);
        i += 1;
        while i < b.len() && val(b[i]).is_none() && b[i] != b'=' {
            i += 1;
        }
        if i >= b.len() || b[i] == b'=' {
            break;
        }
        let d = val(b[i]).unwrap_or(0);
        i += 1;
        let (a1, b1, c1) = (a.unwrap_or(0), bb.unwrap_or(0), c.unwrap_or(0));
        out.push((a1 << 2) | (b1 >> 4));
        out.push((b1 << 4) | (c1 >> 2));
        out.push((c1 << 6) | d);
    }
    if let (Some(a), Some(b1)) = (a, bb) {
        out.push((a << 2) | (b1 >> 4));
        if let Some(c) = c {
            out.push((b1 << 4) | (c >> 2));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_round_trips() {
        for (raw, enc) in [
            ("", ""),
            ("f", "Zg=="),
            ("fo", "Zm8="),
            ("foo", "Zm9v"),
            ("foobar", "Zm9vYmFy"),
        ] {
            assert_eq!(encode(raw.as_bytes()), enc);
            assert_eq!(decode_strict(enc).unwrap(), raw.as_bytes());
        }
        assert_eq!(decode_strict("Zm9v\nYmFy").unwrap(), b"foobar");
        assert!(decode_strict("Zm9v!").is_none());
    }

    #[test]
    fn unpack_m_is_rubys() {
        // Each pair checked with `ruby -rbase64 -e 'p Base64.decode64(s)'`.
        for (s, want) in [
            ("QQ==QUJD", &b"A"[..]),
            ("=QQ", b"A"),
            ("QUJ", b"AB"),
            ("QU", b"A"),
            ("Q", b""),
            ("QQ=", b"A"),
            ("QUJDRA", b"ABCD"),
            ("Q=UJD", b"ABC"),
            ("QU=JD", b"A"),
            ("QUJ=D", b"AB"),
            ("QUJD=RUY", b"ABCEF"),
            ("Q U\nJ D", b"ABC"),
            ("QUJD====QUJD", b"ABCABC"),
            ("====", b""),
            ("QQ!!==", b"A"),
            ("Q!Q", b"A"),
        ] {
            assert_eq!(unpack_m(s.as_bytes()), want, "{s}");
        }
    }
}
