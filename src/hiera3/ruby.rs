//! The small pieces of Ruby behaviour only Hiera 3 leans on: `File.join`,
//! `String#to_i` and reading a file with a UTF-8 byte order mark. Ruby's
//! error wording is in [`crate::ruby::errors`].

use crate::error::{Error, ErrorKind};

/// `File.join(dir, name)` for a name that does not start with `/`: one `/`
/// between the two unless `dir` already ends with one (`File.join("", "x")`
/// is `/x`).
pub fn file_join(dir: &str, name: &str) -> String {
    if dir.ends_with('/') {
        format!("{dir}{name}")
    } else {
        format!("{dir}/{name}")
    }
}

/// `String#to_i`: leading whitespace, an optional sign, then digits (single
/// underscores allowed between them); anything else ends the number. `None`
/// when the value does not fit in an `i64` (Ruby would make a Bignum).
pub fn to_i(s: &str) -> Option<i64> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (neg, rest) = match t.as_bytes().first() {
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let mut n: i64 = 0;
    let mut prev_digit = false;
    let bytes = rest.as_bytes();
    for (i, &b) in bytes.iter().enumerate() {
        if b.is_ascii_digit() {
            n = n.checked_mul(10)?.checked_add((b - b'0') as i64)?;
            prev_digit = true;
        } else if b == b'_' && prev_digit && bytes.get(i + 1).is_some_and(u8::is_ascii_digit) {
            prev_digit = false;
        } else {
            break;
        }
    }
    Some(if neg { -n } else { n })
}

/// `File.read(path, encoding: 'BOM|UTF-8')` (also what `YAML.load_file`
/// does): the bytes without a leading byte order mark, or Ruby's errno
/// message naming the path as the gem built it (`shown`), e.g. `Is a
/// directory @ io_fillbuf - fd:5 data/x.yaml` (the descriptor is this
/// process's).
pub fn read_bom_utf8(fs_path: &std::path::Path, shown: &str) -> Result<Vec<u8>, Error> {
    use std::io::Read;
    let errno = |e: &std::io::Error| match e.kind() {
        std::io::ErrorKind::NotFound => "No such file or directory".to_string(),
        std::io::ErrorKind::PermissionDenied => "Permission denied".to_string(),
        _ if e.raw_os_error() == Some(libc::EISDIR) => "Is a directory".to_string(),
        _ => {
            let m = e.to_string();
            m.split(" (os error").next().unwrap_or(&m).to_string()
        }
    };
    let mut f = std::fs::File::open(fs_path).map_err(|e| {
        Error::new(
            ErrorKind::Io,
            format!("{} @ rb_sysopen - {shown}", errno(&e)),
        )
    })?;
    let mut bytes = Vec::new();
    if let Err(e) = f.read_to_end(&mut bytes) {
        #[cfg(unix)]
        let fd = std::os::unix::io::AsRawFd::as_raw_fd(&f);
        #[cfg(not(unix))]
        let fd = 0;
        return Err(Error::new(
            ErrorKind::Io,
            format!("{} @ io_fillbuf - fd:{fd} {shown}", errno(&e)),
        ));
    }
    if bytes.starts_with(b"\xEF\xBB\xBF") {
        bytes.drain(..3);
    }
    Ok(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_join_like_ruby() {
        assert_eq!(file_join("data", "x.yaml"), "data/x.yaml");
        assert_eq!(file_join("data/", "x.yaml"), "data/x.yaml");
        assert_eq!(file_join("data//", "x.yaml"), "data//x.yaml");
        assert_eq!(file_join("", "x.yaml"), "/x.yaml");
    }

    #[test]
    fn to_i_like_ruby() {
        assert_eq!(to_i("12"), Some(12));
        assert_eq!(to_i(" 12\n3"), Some(12));
        assert_eq!(to_i("x\n12"), Some(0));
        assert_eq!(to_i("-1\n5"), Some(-1));
        assert_eq!(to_i("1_000"), Some(1000));
        assert_eq!(to_i("1__0"), Some(1));
        assert_eq!(to_i("007"), Some(7));
        assert_eq!(to_i("99999999999999999999999"), None);
    }
}
