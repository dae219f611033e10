//! Expansion of Hiera 5 `glob` / `globs` hierarchy locations.
//!
//! Puppet 7.23 (`Puppet::Pops::Lookup::LocationResolver#expand_globs`) does
//!
//! ```ruby
//! Pathname.glob(glob).reject { |path| path.directory? }
//! ```
//!
//! i.e. Ruby 3.1's `Dir.glob(pattern)` with no flags, then every match that
//! `File.directory?` (a `stat(2)`, so symlinks are followed) reports as a
//! directory is dropped. Puppet neither sorts nor de-duplicates the result:
//! the order is exactly the order in which `Dir.glob` reports matches.
//!
//! This module is a port of the matching engine in Ruby 3.1's `dir.c`
//! (`ruby_glob0`, `glob_make_pattern`, `glob_helper`, `ruby_brace_expand`,
//! `fnmatch`, `bracket`), restricted to what `Dir.glob(pattern)` uses on a
//! case-sensitive POSIX file system: `FNM_NOESCAPE`, `FNM_DOTMATCH`,
//! `FNM_CASEFOLD` and `FNM_GLOB_NOSORT` are never set. The observable rules,
//! each checked against `ruby 3.1.2` on real trees:
//!
//! * Brace alternatives are expanded lazily, at the directory where the
//!   pattern component holding them is reached, and every alternative is
//!   globbed in written order. `/d/{zeta,alpha}.yaml` yields zeta's match
//!   first; `/d/*/{b,a}.yaml` yields `d1/b, d1/a, d2/b, d2/a`. A file matched
//!   by two alternatives is reported twice (`/d/{a,a}.yaml`).
//! * After a `**/`, a brace component is matched per directory entry
//!   instead (any alternative matching is enough), so there matches come in
//!   directory order and are not duplicated; an alternative containing `/`
//!   can then never match (Ruby 3.1 behaviour, changed in later Rubies).
//! * Each directory is read completely and its entries are sorted by bytes
//!   (`strcmp`), so `10-x` < `Z` < `a`; the walk is depth first.
//! * `*`, `?` and `[...]` never match a leading `.`; only a pattern starting
//!   with a literal `.` does. A wildcard never matches `..`; it matches `.`
//!   (e.g. `.*`) only in the first directory the expansion reads, so
//!   `/d/.*/x.yaml` reports `/d/./x.yaml`.
//! * Matches are reported as spelled by the pattern (`/d//*.yaml` gives
//!   `/d//a.yaml`); a symlink to a directory is dropped like a directory,
//!   a dangling symlink or an entry that cannot be stat'ed is kept.
//! * `**/` matches zero or more directories, but does not descend into
//!   hidden directories nor into symbolic links to directories; `**` not
//!   followed by `/` is the same as `*`.
//! * `[abc]`, `[a-z]`, `[!a]`, `[^a]`; `[]` matches nothing and `[!]` any one
//!   character; an unterminated `[` matches nothing; an unterminated `{`
//!   makes the whole pattern match nothing.
//! * `\` escapes the next character (outside and inside brackets/braces).
//! * A missing, unreadable (`EACCES`) or non-directory base yields no
//!   match; any other error opening a directory that must be listed (for
//!   example `ELOOP` on a symlink loop) is an error, as Ruby raises
//!   `Errno::*` there.
//! * A range in brackets compared against a file name holding an invalid
//!   UTF-8 sequence raises `ArgumentError` in Ruby; here it is an error too.
//!
//! Safety limits (not in Ruby, which would hang or exhaust memory instead):
//! at most [`MAX_BRACE_ALTERNATIVES`] strings from one brace expansion,
//! brace nesting at most [`MAX_BRACE_NESTING`] deep, at most
//! [`MAX_DEPTH`] nested directory levels, a bounded amount of matching work
//! ([`MAX_WORK`]), and each directory is read at most once per call (listings
//! are cached for the duration of one [`expand`]). Symbolic links are never
//! followed by `**/`, so link loops cannot cause endless walks; a loop
//! reached through explicit components fails with `ELOOP` like in Ruby.

use std::cell::OnceCell;
use std::collections::HashMap;
use std::ffi::OsString;
use std::fmt;
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::path::{Path, PathBuf};
use std::rc::Rc;

/// The most strings one brace expansion may produce.
pub const MAX_BRACE_ALTERNATIVES: u64 = 10_000;
/// The deepest brace nesting accepted (`{a,{b,{c}}}` is 3 deep).
pub const MAX_BRACE_NESTING: usize = 64;
/// The most bytes all strings of one brace expansion may hold together.
pub const MAX_BRACE_BYTES: u64 = 16 * 1024 * 1024;
/// The deepest nesting of path levels the expansion descends into.
pub const MAX_DEPTH: usize = 256;
/// The most elementary steps (entries visited, name matches, stats) one
/// expansion may take.
pub const MAX_WORK: u64 = 20_000_000;

/// Why a glob could not be expanded. The caller wraps it in its own error.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GlobError {
    pub message: String,
}

impl fmt::Display for GlobError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for GlobError {}

/// Expand an absolute pattern the way Puppet's glob location does: Ruby
/// Dir.glob, files only (directories dropped), in Puppet's final order.
///
/// The pattern is used as given (Puppet has already joined it to the
/// datadir with `Pathname#+`). A relative pattern is resolved against the
/// current directory and its matches stay relative, as in Ruby.
pub fn expand(pattern: &str) -> Result<Vec<PathBuf>, GlobError> {
    let matches = dir_glob(pattern)?;
    Ok(matches
        .into_iter()
        .map(|m| PathBuf::from(OsString::from_vec(m)))
        // Pathname#directory? is File.directory?: stat(2), errors => false.
        .filter(|p| !std::fs::metadata(p).map(|md| md.is_dir()).unwrap_or(false))
        .collect())
}

/// Ruby 3.1 `Dir.glob(pattern)` itself: every match, directories included,
/// in Ruby's order (what Puppet's environment.conf does with a modulepath
/// entry holding a wildcard).
pub fn expand_all(pattern: &str) -> Result<Vec<PathBuf>, GlobError> {
    Ok(dir_glob(pattern)?
        .into_iter()
        .map(|m| PathBuf::from(OsString::from_vec(m)))
        .collect())
}

/// Ruby 3.1 `Dir.glob(pattern)` (no flags, sorted), as raw byte strings, in
/// Ruby's order; matches of a pattern ending in `/` (always directories) are
/// left out.
fn dir_glob(pattern: &str) -> Result<Vec<Vec<u8>>, GlobError> {
    let bytes = pattern.as_bytes();
    if bytes.contains(&0) {
        return Err(err(
            pattern,
            "nul-separated glob pattern is deprecated".into(),
        ));
    }
    // Fail early and independently of the file system when the pattern as a
    // whole expands to too many alternatives.
    check_brace_size(pattern, bytes)?;
    let mut g = Globber {
        pattern,
        results: Vec::new(),
        dirs: HashMap::new(),
        expansions: HashMap::new(),
        work: 0,
    };
    g.glob0(bytes)?;
    Ok(g.results)
}

fn err(pattern: &str, what: String) -> GlobError {
    GlobError {
        message: format!("glob pattern '{pattern}': {what}"),
    }
}

// ---------------------------------------------------------------------------
// Patterns (glob_make_pattern)

#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
enum Magic {
    Plain,
    Alpha,
    Brace,
    Magical,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Kind {
    Plain,
    Brace,
    Magical,
    Recursive,
    MatchAll,
    MatchDir,
}

#[derive(Debug)]
struct Comp {
    kind: Kind,
    text: Vec<u8>,
    /// Brace alternatives of `text`, for per-entry matching after `**/`.
    alternatives: OnceCell<Rc<Vec<Vec<u8>>>>,
}

/// A parsed pattern: its components, ending with MatchAll or MatchDir.
type Pattern = Rc<Vec<Comp>>;

/// `struct glob_pattern *`: a position in a parsed pattern; `next` is idx+1.
#[derive(Clone, Debug)]
struct PRef {
    pat: Rc<Vec<Comp>>,
    idx: usize,
}

impl PRef {
    fn comp(&self) -> &Comp {
        &self.pat[self.idx]
    }
    fn next(&self) -> PRef {
        PRef {
            pat: self.pat.clone(),
            idx: self.idx + 1,
        }
    }
}

#[inline]
fn at(s: &[u8], i: usize) -> u8 {
    s.get(i).copied().unwrap_or(0)
}

/// Length of the character at `i` (`rb_enc_mbclen` for UTF-8): the length
/// of a valid UTF-8 sequence, otherwise 1.
fn mbclen(s: &[u8], i: usize) -> usize {
    precise_char(s, i).map(|(_, n)| n).unwrap_or(1)
}

/// The valid UTF-8 character at `i` and its length, if any.
fn precise_char(s: &[u8], i: usize) -> Option<(char, usize)> {
    if i >= s.len() {
        return None;
    }
    let b = s[i];
    if b < 0x80 {
        return Some((b as char, 1));
    }
    let end = (i + 4).min(s.len());
    let window = &s[i..end];
    let valid = match std::str::from_utf8(window) {
        Ok(v) => v,
        Err(e) if e.valid_up_to() > 0 => {
            std::str::from_utf8(&window[..e.valid_up_to()]).unwrap_or("")
        }
        Err(_) => return None,
    };
    let c = valid.chars().next()?;
    Some((c, c.len_utf8()))
}

fn has_magic(s: &[u8]) -> Magic {
    let mut hasalpha = false;
    let mut hasmagical = false;
    let mut p = 0;
    while p < s.len() && s[p] != 0 {
        let c = s[p];
        p += 1;
        match c {
            b'{' => return Magic::Brace,
            b'*' | b'?' | b'[' => hasmagical = true,
            b'\\' => {
                // Skip the escaped character.
                if p >= s.len() {
                    continue;
                }
                p += 1;
            }
            _ => {
                if c.is_ascii_alphabetic() {
                    hasalpha = true;
                }
            }
        }
    }
    if hasmagical {
        Magic::Magical
    } else if hasalpha {
        Magic::Alpha
    } else {
        Magic::Plain
    }
}

/// Index of the `/` ending the component starting at `p` (or the end).
/// A `/` between `[` and `]` or `{` and `}` does not separate (flat, not
/// nested, exactly like Ruby).
fn find_dirsep(s: &[u8], mut p: usize) -> usize {
    let mut open = false;
    loop {
        let c = at(s, p);
        p += 1;
        match c {
            0 => return p - 1,
            b'[' | b'{' => open = true,
            b']' | b'}' => open = false,
            b'/' if !open => return p - 1,
            b'\\' => {
                let c2 = at(s, p);
                p += 1;
                if c2 == 0 {
                    return p - 1;
                }
            }
            _ => {}
        }
    }
}

fn make_pattern(s: &[u8]) -> Rc<Vec<Comp>> {
    let e = s.len();
    let mut list = Vec::new();
    let mut p = 0;
    let mut dirsep = false;
    let mut recursive = false;
    let comp = |kind, text: &[u8]| Comp {
        kind,
        text: text.to_vec(),
        alternatives: OnceCell::new(),
    };
    while p < e && s[p] != 0 {
        if p + 2 < e && s[p] == b'*' && s[p + 1] == b'*' && s[p + 2] == b'/' {
            // Fold continuous RECURSIVEs.
            loop {
                p += 3;
                while at(s, p) == b'/' {
                    p += 1;
                }
                if !(at(s, p) == b'*' && at(s, p + 1) == b'*' && at(s, p + 2) == b'/') {
                    break;
                }
            }
            list.push(comp(Kind::Recursive, b""));
            dirsep = true;
            recursive = true;
        } else {
            let mut m = find_dirsep(s, p);
            let magic = has_magic(&s[p..m]);
            if magic <= Magic::Alpha && !recursive && at(s, m) != 0 {
                // Merge following non-magical components into this one.
                loop {
                    let m2 = find_dirsep(s, m + 1);
                    if has_magic(&s[m + 1..m2]) <= Magic::Alpha && at(s, m2) != 0 {
                        m = m2;
                    } else {
                        break;
                    }
                }
            }
            let kind = match magic {
                Magic::Magical => Kind::Magical,
                Magic::Brace => Kind::Brace,
                Magic::Plain | Magic::Alpha => Kind::Plain,
            };
            list.push(comp(kind, &s[p..m]));
            if at(s, m) != 0 {
                dirsep = true;
                p = m + 1;
            } else {
                dirsep = false;
                p = m;
            }
        }
    }
    list.push(comp(
        if dirsep {
            Kind::MatchDir
        } else {
            Kind::MatchAll
        },
        b"",
    ));
    Rc::new(list)
}

/// `join_path_from_pattern`: the rest of the pattern from `beg`, as text.
fn join_path_from_pattern(beg: &PRef) -> Vec<u8> {
    let mut out: Option<Vec<u8>> = None;
    for c in &beg.pat[beg.idx..] {
        let text: &[u8] = match c.kind {
            Kind::Recursive => b"**",
            Kind::MatchDir => b"",
            Kind::MatchAll => continue,
            _ => &c.text,
        };
        match out.as_mut() {
            None => out = Some(text.to_vec()),
            Some(o) => {
                o.push(b'/');
                o.extend_from_slice(text);
            }
        }
    }
    out.unwrap_or_default()
}

/// `remove_backslashes`.
fn remove_backslashes(s: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        if s[i] == b'\\' {
            i += 1;
            if i >= s.len() {
                break;
            }
        }
        out.push(s[i]);
        i += 1;
    }
    out
}

// ---------------------------------------------------------------------------
// Brace expansion (ruby_brace_expand)

/// The first top-level `{...}` group of `s` under Ruby's scanning rules.
enum Group {
    /// No `{` at all: `s` is a final string.
    None,
    /// A `{` that is never closed: `s` expands to nothing.
    Unclosed,
    /// `lbrace`, `rbrace` indices.
    At(usize, usize),
}

fn first_group(s: &[u8]) -> Group {
    let mut nest = 0usize;
    let mut lbrace = None;
    let mut p = 0;
    while p < s.len() {
        let c = s[p];
        if c == b'{' {
            if nest == 0 {
                lbrace = Some(p);
            }
            nest += 1;
        }
        if c == b'}' && lbrace.is_some() {
            nest -= 1;
            if nest == 0 {
                return Group::At(lbrace.unwrap_or(0), p);
            }
        }
        if c == b'\\' {
            p += 1;
            if p >= s.len() {
                break;
            }
        }
        p += 1;
    }
    if lbrace.is_some() {
        Group::Unclosed
    } else {
        Group::None
    }
}

/// The alternatives of the group `s[l..=r]`, as sub-slices, written order.
fn split_alternatives(s: &[u8], l: usize, r: usize) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut p = l;
    while p < r {
        p += 1;
        let t = p;
        let mut nest = 0isize;
        while p < r && !(s[p] == b',' && nest == 0) {
            match s[p] {
                b'{' => nest += 1,
                b'}' => nest -= 1,
                b'\\' => {
                    p += 1;
                    if p == r {
                        break;
                    }
                }
                _ => {}
            }
            p += 1;
        }
        out.push((t, p));
    }
    out
}

/// Number of strings `s` expands to and their total length, saturating.
/// Brace groups of a string are sequential; alternatives of a group are
/// balanced, so the count of `prefix{A,B}rest` is (|A| + |B|) * |rest|.
fn brace_size(s: &[u8], depth: usize) -> Result<(u64, u64), String> {
    if depth > MAX_BRACE_NESTING {
        return Err(format!("braces nested more than {MAX_BRACE_NESTING} deep"));
    }
    // (count, total length) of the expansion so far.
    let (mut count, mut total) = (1u64, 0u64);
    let mut rest = s;
    loop {
        match first_group(rest) {
            Group::Unclosed => return Ok((0, 0)),
            Group::None => {
                let len = rest.len() as u64;
                total = total.saturating_add(count.saturating_mul(len));
                return Ok((count, total));
            }
            Group::At(l, r) => {
                let prefix = l as u64;
                total = total.saturating_add(count.saturating_mul(prefix));
                let (mut gc, mut gt) = (0u64, 0u64);
                for (a, b) in split_alternatives(rest, l, r) {
                    let (c, t) = brace_size(&rest[a..b], depth + 1)?;
                    gc = gc.saturating_add(c);
                    gt = gt.saturating_add(t);
                }
                // (count, total) x (gc, gt)
                total = total
                    .saturating_mul(gc)
                    .saturating_add(gt.saturating_mul(count));
                count = count.saturating_mul(gc);
                if count == 0 {
                    return Ok((0, 0));
                }
                rest = &rest[r + 1..];
            }
        }
    }
}

fn check_brace_size(pattern: &str, s: &[u8]) -> Result<(u64, u64), GlobError> {
    let (count, total) = brace_size(s, 0).map_err(|m| err(pattern, m))?;
    if count > MAX_BRACE_ALTERNATIVES {
        return Err(err(
            pattern,
            format!("brace expansion yields more than {MAX_BRACE_ALTERNATIVES} alternatives"),
        ));
    }
    if total > MAX_BRACE_BYTES {
        return Err(err(
            pattern,
            format!("brace expansion yields more than {MAX_BRACE_BYTES} bytes"),
        ));
    }
    Ok((count, total))
}

/// All strings `s` expands to, in Ruby's order (first group outermost,
/// alternatives in written order). Sizes must have been checked.
fn brace_expand(s: &[u8]) -> Vec<Vec<u8>> {
    let mut acc: Vec<Vec<u8>> = vec![Vec::new()];
    let mut rest = s;
    loop {
        match first_group(rest) {
            Group::Unclosed => return Vec::new(),
            Group::None => {
                for a in acc.iter_mut() {
                    a.extend_from_slice(rest);
                }
                return acc;
            }
            Group::At(l, r) => {
                let mut alts: Vec<Vec<u8>> = Vec::new();
                for (a, b) in split_alternatives(rest, l, r) {
                    alts.extend(brace_expand(&rest[a..b]));
                }
                let mut next = Vec::with_capacity(acc.len() * alts.len());
                for a in &acc {
                    for alt in &alts {
                        let mut v = Vec::with_capacity(a.len() + l + alt.len());
                        v.extend_from_slice(a);
                        v.extend_from_slice(&rest[..l]);
                        v.extend_from_slice(alt);
                        next.push(v);
                    }
                }
                acc = next;
                if acc.is_empty() {
                    return acc;
                }
                rest = &rest[r + 1..];
            }
        }
    }
}

// ---------------------------------------------------------------------------
// Name matching (fnmatch without FNM_PATHNAME / FNM_DOTMATCH / FNM_NOESCAPE)

const INVALID_UTF8: &str = "invalid byte sequence in UTF-8";

/// A character of a bracket expression at `p`, after the `\` that may
/// escape it: its index and byte length; `None` at the end of the pattern.
fn bracket_char(pat: &[u8], p: usize) -> Option<(usize, usize)> {
    let t = if at(pat, p) == b'\\' { p + 1 } else { p };
    if at(pat, t) == 0 {
        return None;
    }
    Some((t, mbclen(pat, t)))
}

/// The code point of the pattern's character at `t`; a byte that starts no
/// valid UTF-8 sequence stands for itself.
fn pattern_codepoint(pat: &[u8], t: usize) -> u32 {
    precise_char(pat, t)
        .map(|c| c.0 as u32)
        .unwrap_or(at(pat, t) as u32)
}

/// `bracket()`: `p` is just after `[`. Some(index after `]`) on a match.
fn bracket(pat: &[u8], mut p: usize, s: &[u8], si: usize) -> Result<Option<usize>, ()> {
    let pend = pat.len();
    let rem = s.len() - si;
    if p >= pend {
        return Ok(None);
    }
    let mut not = false;
    if pat[p] == b'!' || pat[p] == b'^' {
        not = true;
        p += 1;
    }
    let mut ok = false;
    while at(pat, p) != b']' {
        let Some((t1, r)) = bracket_char(pat, p) else {
            return Ok(None);
        };
        p = t1 + r;
        if p >= pend {
            return Ok(None);
        }
        if at(pat, p) == b'-' && at(pat, p + 1) != b']' {
            let Some((t2, r2)) = bracket_char(pat, p + 1) else {
                return Ok(None);
            };
            p = t2 + r2;
            if ok {
                continue;
            }
            if (r <= rem && pat[t1..t1 + r] == s[si..si + r])
                || (r2 <= rem && pat.get(t2..t2 + r2) == s.get(si..si + r2))
            {
                ok = true;
                continue;
            }
            // rb_enc_codepoint raises on an invalid sequence in the name.
            let c1 = precise_char(s, si).ok_or(())?.0 as u32;
            if c1 < pattern_codepoint(pat, t1) {
                continue;
            }
            if c1 > pattern_codepoint(pat, t2) {
                continue;
            }
        } else {
            if ok {
                continue;
            }
            if r <= rem && pat[t1..t1 + r] == s[si..si + r] {
                ok = true;
                continue;
            }
            continue;
        }
        ok = true;
    }
    Ok(if ok == not { None } else { Some(p + 1) })
}

/// `fnmatch_helper` for one file name. Err(()) when Ruby would raise
/// ArgumentError (invalid UTF-8 in the name hit by a bracket range).
fn fnmatch(pat: &[u8], s: &[u8]) -> Result<bool, ()> {
    let unescape = |p: usize| if at(pat, p) == b'\\' { p + 1 } else { p };
    let mut p = 0usize;
    let mut si = 0usize;
    let mut ptmp: Option<usize> = None;
    let mut stmp = 0usize;

    // Leading period.
    if at(s, 0) == b'.' && at(pat, unescape(0)) != b'.' {
        return Ok(false);
    }
    loop {
        match at(pat, p) {
            b'*' => {
                while at(pat, p) == b'*' {
                    p += 1;
                }
                if at(pat, unescape(p)) == 0 {
                    return Ok(true);
                }
                if at(s, si) == 0 {
                    return Ok(false);
                }
                ptmp = Some(p);
                stmp = si;
                continue;
            }
            b'?' => {
                if at(s, si) == 0 {
                    return Ok(false);
                }
                p += 1;
                si += mbclen(s, si);
                continue;
            }
            b'[' => {
                if at(s, si) == 0 {
                    return Ok(false);
                }
                if let Some(t) = bracket(pat, p + 1, s, si)? {
                    p = t;
                    si += mbclen(s, si);
                    continue;
                }
                // fall through to `failed`
            }
            _ => {
                // ordinary
                p = unescape(p);
                if at(s, si) == 0 {
                    return Ok(at(pat, p) == 0);
                }
                if at(pat, p) != 0 {
                    if let Some((_, r)) = precise_char(pat, p) {
                        if r <= s.len() - si && pat[p..p + r] == s[si..si + r] {
                            p += r;
                            si += r;
                            continue;
                        }
                    }
                }
                // fall through to `failed`
            }
        }
        // failed: try the next position for the last '*'.
        match ptmp {
            Some(pt) => {
                p = pt;
                stmp += mbclen(s, stmp);
                si = stmp;
            }
            None => return Ok(false),
        }
    }
}

// ---------------------------------------------------------------------------
// The walk (ruby_glob0 / glob_helper)

/// `rb_pathtype_t`.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PathType {
    Unknown,
    Noent,
    Directory,
    Symlink,
    /// Regular file or any other existing non-directory, non-symlink.
    Other,
}

fn type_of(ft: std::fs::FileType) -> PathType {
    if ft.is_dir() {
        PathType::Directory
    } else if ft.is_symlink() {
        PathType::Symlink
    } else {
        PathType::Other
    }
}

struct Entry {
    name: Vec<u8>,
    kind: PathType,
}

type Listing = Result<Option<Rc<Vec<Entry>>>, GlobError>;

struct Globber<'a> {
    pattern: &'a str,
    results: Vec<Vec<u8>>,
    /// Directory listings read during this expansion (None: ignored error).
    dirs: HashMap<Vec<u8>, Listing>,
    /// Brace expansions of pattern remainders, parsed.
    expansions: HashMap<Vec<u8>, Rc<Vec<Pattern>>>,
    work: u64,
}

const ENOENT: i32 = 2;
const EACCES: i32 = 13;
const ENOTDIR: i32 = 20;

fn os_path(p: &[u8]) -> &Path {
    Path::new(std::ffi::OsStr::from_bytes(if p.is_empty() {
        b"."
    } else {
        p
    }))
}

impl<'a> Globber<'a> {
    fn tick(&mut self, n: u64) -> Result<(), GlobError> {
        self.work += n;
        if self.work > MAX_WORK {
            return Err(err(
                self.pattern,
                format!("expansion needs more than {MAX_WORK} matching steps"),
            ));
        }
        Ok(())
    }

    fn fnmatch(&mut self, pat: &[u8], name: &[u8]) -> Result<bool, GlobError> {
        self.tick(1)?;
        fnmatch(pat, name).map_err(|()| err(self.pattern, INVALID_UTF8.to_string()))
    }

    /// Expansions of a brace string, with the size limits applied.
    fn expansions_of(&mut self, s: &[u8]) -> Result<Vec<Vec<u8>>, GlobError> {
        let (count, _) = check_brace_size(self.pattern, s)?;
        if count == 0 {
            // An unclosed `{`: nothing (and no partial expansion is built).
            return Ok(Vec::new());
        }
        self.tick(count)?;
        Ok(brace_expand(s))
    }

    fn lstat(&mut self, path: &[u8]) -> Result<PathType, GlobError> {
        self.tick(1)?;
        Ok(std::fs::symlink_metadata(os_path(path))
            .map(|m| type_of(m.file_type()))
            .unwrap_or(PathType::Noent))
    }

    fn stat(&mut self, path: &[u8]) -> Result<PathType, GlobError> {
        self.tick(1)?;
        Ok(std::fs::metadata(os_path(path))
            .map(|m| type_of(m.file_type()))
            .unwrap_or(PathType::Noent))
    }

    /// Sorted entries of a directory, `.` included and `..` left out (Ruby
    /// always skips it). None when Ruby ignores the failure to open it.
    fn read_dir(&mut self, path: &[u8]) -> Listing {
        if let Some(l) = self.dirs.get(path) {
            return l.clone();
        }
        let listing = self.read_dir_uncached(path);
        self.dirs.insert(path.to_vec(), listing.clone());
        listing
    }

    fn read_dir_uncached(&mut self, path: &[u8]) -> Listing {
        let rd = match std::fs::read_dir(os_path(path)) {
            Ok(rd) => rd,
            Err(e) => {
                return match e.raw_os_error() {
                    // Ruby ignores these silently (EACCES with a warning).
                    Some(ENOENT) | Some(ENOTDIR) | Some(EACCES) => Ok(None),
                    _ => {
                        // Errno::XXX: "<strerror> - <path>"
                        let text = e.to_string();
                        let text = match text.find(" (os error") {
                            Some(i) => text[..i].to_string(),
                            None => text,
                        };
                        Err(err(
                            self.pattern,
                            format!("{} - {}", text, String::from_utf8_lossy(path)),
                        ))
                    }
                };
            }
        };
        let mut entries = vec![Entry {
            name: b".".to_vec(),
            kind: PathType::Directory,
        }];
        for ent in rd {
            // readdir(3) returning NULL on error simply ends the listing.
            let Ok(ent) = ent else { break };
            self.tick(1)?;
            let kind = ent.file_type().map(type_of).unwrap_or(PathType::Unknown);
            entries.push(Entry {
                name: ent.file_name().into_vec(),
                kind,
            });
        }
        entries.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Some(Rc::new(entries)))
    }

    fn emit(&mut self, path: &[u8]) {
        self.results.push(path.to_vec());
    }

    /// `ruby_glob0` with no base directory.
    fn glob0(&mut self, path: &[u8]) -> Result<(), GlobError> {
        if at(path, 0) == b'{' {
            for e in self.expansions_of(path)? {
                self.glob0(&e)?;
            }
            return Ok(());
        }
        let root = usize::from(at(path, 0) == b'/');
        let list = make_pattern(&path[root..]);
        let beg = [PRef { pat: list, idx: 0 }];
        self.helper(&path[..root], false, PathType::Unknown, &beg, false, 0)
    }

    fn join(path: &[u8], dirsep: bool, name: &[u8]) -> Vec<u8> {
        let mut buf = Vec::with_capacity(path.len() + 1 + name.len());
        buf.extend_from_slice(path);
        if dirsep {
            buf.push(b'/');
        }
        buf.extend_from_slice(name);
        buf
    }

    /// `glob_helper`. `skipdot` is FNM_GLOB_SKIPDOT: set below the first
    /// directory this expansion reads.
    fn helper(
        &mut self,
        path: &[u8],
        dirsep: bool,
        mut pathtype: PathType,
        list: &[PRef],
        skipdot: bool,
        depth: usize,
    ) -> Result<(), GlobError> {
        if depth > MAX_DEPTH {
            return Err(err(
                self.pattern,
                format!("expansion descends more than {MAX_DEPTH} levels"),
            ));
        }
        let (mut plain, mut brace, mut magical, mut recursive) = (false, false, false, false);
        let (mut match_all, mut match_dir) = (false, false);
        for cur in list {
            let mut kind = cur.comp().kind;
            if kind == Kind::Recursive {
                recursive = true;
                kind = cur.next().comp().kind;
            }
            match kind {
                Kind::Plain => plain = true,
                // Ruby 3.1: braces after `**/` are matched entry by entry.
                Kind::Brace => brace |= !recursive,
                Kind::Magical => magical = true,
                Kind::MatchAll => match_all = true,
                Kind::MatchDir => match_dir = true,
                // Continuous RECURSIVEs are folded by make_pattern.
                Kind::Recursive => {}
            }
        }

        if brace {
            let text = join_path_from_pattern(&list[0]);
            let pats = match self.expansions.get(&text) {
                Some(p) => p.clone(),
                None => {
                    let pats: Vec<_> = self
                        .expansions_of(&text)?
                        .iter()
                        .map(|e| make_pattern(e))
                        .collect();
                    let pats = Rc::new(pats);
                    self.expansions.insert(text, pats.clone());
                    pats
                }
            };
            for pat in pats.iter() {
                let beg = [PRef {
                    pat: pat.clone(),
                    idx: 0,
                }];
                self.helper(path, dirsep, pathtype, &beg, skipdot, depth + 1)?;
            }
            return Ok(());
        }

        if !path.is_empty() {
            if match_all && pathtype == PathType::Unknown {
                pathtype = self.lstat(path)?;
            }
            if match_dir && matches!(pathtype, PathType::Unknown | PathType::Symlink) {
                pathtype = self.stat(path)?;
            }
            if match_all && pathtype != PathType::Noent {
                self.emit(path);
            }
            // A MATCH_DIR match (`path/`) is a directory: Puppet drops it,
            // so it is not reported at all.
        }

        if pathtype == PathType::Noent {
            return Ok(());
        }

        if magical || recursive {
            let Some(entries) = self.read_dir(path)? else {
                return Ok(());
            };
            for ent in entries.iter() {
                self.tick(1)?;
                let name = &ent.name[..];
                let mut new_pathtype = PathType::Unknown;
                let mut dotfile = 0;
                if name[0] == b'.' {
                    dotfile += 1;
                    if name.len() == 1 {
                        // Skip `.` when recursing, and below the first level.
                        if recursive || skipdot {
                            continue;
                        }
                        dotfile += 1;
                        new_pathtype = PathType::Directory;
                    }
                }
                let buf = Self::join(path, dirsep, name);
                if ent.kind != PathType::Unknown {
                    new_pathtype = ent.kind;
                }
                if recursive && dotfile < 1 && new_pathtype == PathType::Unknown {
                    new_pathtype = self.lstat(&buf)?;
                }

                let mut new_list: Vec<PRef> = Vec::with_capacity(list.len() * 2);
                for cur in list {
                    let mut p = cur.clone();
                    if p.comp().kind == Kind::Recursive {
                        // Real directories only: symbolic links are not followed.
                        if new_pathtype == PathType::Directory && dotfile < 1 {
                            new_list.push(p.clone());
                        }
                        p = p.next(); // zero directories
                    }
                    match p.comp().kind {
                        Kind::Brace => {
                            let alts = self.alternatives(&p)?;
                            for alt in alts.iter() {
                                if self.fnmatch(alt, name)? {
                                    new_list.push(p.next());
                                    break;
                                }
                            }
                        }
                        Kind::Plain | Kind::Magical if self.fnmatch(&p.comp().text, name)? => {
                            new_list.push(p.next());
                        }
                        _ => {}
                    }
                }
                if !new_list.is_empty() {
                    self.helper(&buf, true, new_pathtype, &new_list, true, depth + 1)?;
                }
            }
        } else if plain {
            let mut copy: Vec<Option<PRef>> = list
                .iter()
                .map(|c| {
                    if c.comp().kind == Kind::Plain {
                        Some(c.clone())
                    } else {
                        None
                    }
                })
                .collect();
            for i in 0..copy.len() {
                let Some(cur) = copy[i].clone() else { continue };
                let name = remove_backslashes(&cur.comp().text);
                let mut new_list = vec![cur.next()];
                for slot in copy.iter_mut().skip(i + 1) {
                    if let Some(c2) = slot {
                        let text = c2.comp().text.clone();
                        if self.fnmatch(&text, &name)? {
                            new_list.push(c2.next());
                            *slot = None;
                        }
                    }
                }
                let buf = Self::join(path, dirsep, &name);
                self.helper(&buf, true, PathType::Unknown, &new_list, skipdot, depth + 1)?;
            }
        }
        Ok(())
    }

    fn alternatives(&mut self, p: &PRef) -> Result<Rc<Vec<Vec<u8>>>, GlobError> {
        if let Some(a) = p.comp().alternatives.get() {
            return Ok(a.clone());
        }
        let alts = Rc::new(self.expansions_of(&p.comp().text)?);
        let _ = p.comp().alternatives.set(alts.clone());
        Ok(alts)
    }
}

#[cfg(test)]
mod tests {
    //! Expected values were recorded by running Ruby 3.1.2 on the same trees:
    //! `Pathname.glob(pattern).reject(&:directory?)` (what Puppet 7.23 does).
    use super::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::time::{Duration, Instant};

    struct TempTree {
        root: PathBuf,
    }

    impl TempTree {
        fn new(tag: &str) -> TempTree {
            static COUNTER: AtomicUsize = AtomicUsize::new(0);
            let nanos = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map(|d| d.subsec_nanos())
                .unwrap_or(0);
            let root = std::env::temp_dir().join(format!(
                "libhiera-glob-{}-{}-{}-{}",
                tag,
                std::process::id(),
                COUNTER.fetch_add(1, Ordering::SeqCst),
                nanos
            ));
            std::fs::create_dir_all(&root).unwrap();
            TempTree { root }
        }
        fn file(&self, rel: &str) {
            let p = self.root.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, "k: v\n").unwrap();
        }
        fn dir(&self, rel: &str) {
            std::fs::create_dir_all(self.root.join(rel)).unwrap();
        }
        fn link(&self, rel: &str, target: &str) {
            std::os::unix::fs::symlink(target, self.root.join(rel)).unwrap();
        }
        fn pat(&self, rel: &str) -> String {
            format!("{}/{}", self.root.display(), rel)
        }
        /// Expansion of `root/rel`, as paths relative to root.
        fn glob(&self, rel: &str) -> Result<Vec<String>, GlobError> {
            let prefix = format!("{}/", self.root.display());
            expand(&self.pat(rel)).map(|v| {
                v.iter()
                    .map(|p| {
                        let s = p.to_string_lossy().into_owned();
                        s.strip_prefix(&prefix).map(str::to_string).unwrap_or(s)
                    })
                    .collect()
            })
        }
        fn ok(&self, rel: &str) -> Vec<String> {
            match self.glob(rel) {
                Ok(v) => v,
                Err(e) => panic!("{rel}: unexpected error {e}"),
            }
        }
    }

    impl Drop for TempTree {
        fn drop(&mut self) {
            let _ = std::fs::remove_dir_all(&self.root);
        }
    }

    /// The tree the Ruby expectations were recorded on.
    fn tree() -> TempTree {
        let t = TempTree::new("tree");
        for f in [
            "10-x.yaml",
            "Z.yaml",
            "a.yaml",
            "b.yaml",
            ".hidden.yaml",
            "common.yaml",
            "dir.yaml/inner.yaml",
            "zeta/a.yaml",
            "zeta/b.yaml",
            "alpha/a.yaml",
            "alpha/b.yaml",
            "sub/a.yaml",
            "sub/deep/a.yaml",
            "sub/deep/deeper/a.yaml",
            ".hid/a.yaml",
            "br[x].yaml",
            "a,b.yaml",
        ] {
            t.file(f);
        }
        t.link("linkdir", "sub");
        t.link("linkfile.yaml", "a.yaml");
        t.link("broken.yaml", "nowhere");
        t.link("loop", "loop");
        t.link("self", ".");
        t
    }

    fn v(items: &[&str]) -> Vec<String> {
        items.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn byte_order_and_directories_dropped() {
        let t = tree();
        // `10-x` < `Z` < `a`; dir.yaml (a directory) dropped; .hidden.yaml not
        // matched by `*`; the dangling symlink is kept (not a directory).
        assert_eq!(
            t.ok("*.yaml"),
            v(&[
                "10-x.yaml",
                "Z.yaml",
                "a,b.yaml",
                "a.yaml",
                "b.yaml",
                "br[x].yaml",
                "broken.yaml",
                "common.yaml",
                "linkfile.yaml"
            ])
        );
        assert_eq!(
            t.ok("**.yaml"),
            t.ok("*.yaml"),
            "`**` not followed by `/` is `*`"
        );
        assert_eq!(t.ok("?.yaml"), v(&["Z.yaml", "a.yaml", "b.yaml"]));
        assert_eq!(
            t.ok("*/"),
            Vec::<String>::new(),
            "a trailing / only matches directories"
        );
        assert_eq!(t.ok("**/"), Vec::<String>::new());
    }

    #[test]
    fn brace_alternatives_keep_written_order() {
        let t = tree();
        assert_eq!(
            t.ok("{zeta,alpha}/*.yaml"),
            v(&["zeta/a.yaml", "zeta/b.yaml", "alpha/a.yaml", "alpha/b.yaml"])
        );
        assert_eq!(
            t.ok("{alpha,zeta}/*.yaml"),
            v(&["alpha/a.yaml", "alpha/b.yaml", "zeta/a.yaml", "zeta/b.yaml"])
        );
        assert_eq!(
            t.ok("{zeta/b,alpha/a}.yaml"),
            v(&["zeta/b.yaml", "alpha/a.yaml"])
        );
        assert_eq!(t.ok("{a\\,b,Z}.yaml"), v(&["a,b.yaml", "Z.yaml"]));
        assert_eq!(
            t.ok("{,sub/}{b,a}.yaml"),
            v(&["b.yaml", "a.yaml", "sub/a.yaml"])
        );
    }

    #[test]
    fn braces_expand_in_each_directory() {
        let t = tree();
        // Lazy expansion: per matched directory, b before a. `*` follows
        // symbolic links (linkdir, self); `loop` is not a directory.
        assert_eq!(
            t.ok("*/{b,a}.yaml"),
            v(&[
                "alpha/b.yaml",
                "alpha/a.yaml",
                "linkdir/a.yaml",
                "self/b.yaml",
                "self/a.yaml",
                "sub/a.yaml",
                "zeta/b.yaml",
                "zeta/a.yaml"
            ])
        );
    }

    #[test]
    fn duplicates_are_kept_as_ruby_reports_them() {
        let t = tree();
        assert_eq!(t.ok("{a,a}.yaml"), v(&["a.yaml", "a.yaml"]));
        // After `**/` braces are matched per entry: no duplicates.
        assert_eq!(
            t.ok("**/{a,a}.yaml"),
            v(&[
                "a.yaml",
                "alpha/a.yaml",
                "sub/a.yaml",
                "sub/deep/a.yaml",
                "sub/deep/deeper/a.yaml",
                "zeta/a.yaml"
            ])
        );
        // ... and an alternative holding `/` never matches there (Ruby 3.1).
        assert_eq!(t.ok("**/{a,zeta/b}.yaml"), t.ok("**/a.yaml"));
    }

    #[test]
    fn double_star() {
        let t = tree();
        // Zero directories first; hidden directories and symlinked
        // directories are not descended into.
        assert_eq!(
            t.ok("**/a.yaml"),
            v(&[
                "a.yaml",
                "alpha/a.yaml",
                "sub/a.yaml",
                "sub/deep/a.yaml",
                "sub/deep/deeper/a.yaml",
                "zeta/a.yaml"
            ])
        );
        assert_eq!(
            t.ok("**/*"),
            v(&[
                "10-x.yaml",
                "Z.yaml",
                "a,b.yaml",
                "a.yaml",
                "alpha/a.yaml",
                "alpha/b.yaml",
                "b.yaml",
                "br[x].yaml",
                "broken.yaml",
                "common.yaml",
                "dir.yaml/inner.yaml",
                "linkfile.yaml",
                "loop",
                "sub/a.yaml",
                "sub/deep/a.yaml",
                "sub/deep/deeper/a.yaml",
                "zeta/a.yaml",
                "zeta/b.yaml"
            ])
        );
        // A symlinked base is fine; only links *below* `**` are not followed.
        assert_eq!(
            t.ok("{sub,linkdir}/**/a.yaml"),
            v(&[
                "sub/a.yaml",
                "sub/deep/a.yaml",
                "sub/deep/deeper/a.yaml",
                "linkdir/a.yaml",
                "linkdir/deep/a.yaml",
                "linkdir/deep/deeper/a.yaml"
            ])
        );
        assert_eq!(t.ok("linkdir/*/a.yaml"), v(&["linkdir/deep/a.yaml"]));
        assert_eq!(
            t.ok("**/[ab].yaml"),
            v(&[
                "a.yaml",
                "alpha/a.yaml",
                "alpha/b.yaml",
                "b.yaml",
                "sub/a.yaml",
                "sub/deep/a.yaml",
                "sub/deep/deeper/a.yaml",
                "zeta/a.yaml",
                "zeta/b.yaml"
            ])
        );
    }

    #[test]
    fn classes_and_escapes() {
        let t = tree();
        assert_eq!(
            t.ok("[a-c]*"),
            v(&[
                "a,b.yaml",
                "a.yaml",
                "b.yaml",
                "br[x].yaml",
                "broken.yaml",
                "common.yaml"
            ])
        );
        assert_eq!(t.ok("[!a-z]*"), v(&["10-x.yaml", "Z.yaml"]));
        assert_eq!(t.ok("[^.]*.yaml"), t.ok("*.yaml"));
        assert_eq!(t.ok("br\\[x].yaml"), v(&["br[x].yaml"]));
        assert_eq!(t.ok("a\\,b.yaml"), v(&["a,b.yaml"]));
        assert_eq!(t.ok("br[x].yaml"), Vec::<String>::new(), "[x] is a class");
        assert_eq!(
            t.ok("[abc"),
            Vec::<String>::new(),
            "unterminated [ matches nothing"
        );
    }

    #[test]
    fn missing_or_odd_bases_give_nothing() {
        let t = tree();
        let none = Vec::<String>::new();
        assert_eq!(t.ok("nonexistent/**/*.yaml"), none);
        assert_eq!(t.ok("nonexistent/a.yaml"), none);
        assert_eq!(t.ok("a.yaml/*"), none);
        assert_eq!(t.ok("{a.yaml"), none, "an unclosed brace matches nothing");
        assert_eq!(
            expand("/nonexistent-libhiera-dir/*/x.yaml").unwrap(),
            Vec::<PathBuf>::new()
        );
    }

    #[test]
    fn dot_entries() {
        let t = tree();
        // `.` is matched by `.*` in the first directory read; `..` never.
        assert_eq!(t.ok(".*/a.yaml"), v(&["./a.yaml", ".hid/a.yaml"]));
        assert_eq!(t.ok(".*"), v(&[".hidden.yaml"]));
        t.file("sub/deep/.x.yaml");
        // `.` below the first directory read is skipped (Ruby: `sub/deep/.`
        // is not reported for `sub/*/.*`, but is for `sub/deep/.*`).
        assert_eq!(t.ok("sub/*/.*"), v(&["sub/deep/.x.yaml"]));
        assert_eq!(t.ok("sub/deep/.*"), v(&["sub/deep/.x.yaml"]));
        // Like Ruby, `*` reaching the `loop` symlink and listing it fails.
        assert!(t.glob("*/.*").is_err());
    }

    #[test]
    fn symlink_loops_do_not_hang() {
        let t = tree();
        // Ruby raises Errno::ELOOP when it has to list the loop.
        let e = t.glob("loop/*").unwrap_err();
        assert!(e.message.contains("/loop"), "{}", e.message);
        assert!(e.message.contains(&t.pat("loop/*")), "{}", e.message);
        assert!(
            t.glob("*/**/a.yaml").is_err(),
            "`*` reaches `loop`, `**/` lists it"
        );
        // Plain components through links are just looked up.
        assert_eq!(t.ok("self/self/a.yaml"), v(&["self/self/a.yaml"]));
        assert_eq!(t.ok("loop/a.yaml"), Vec::<String>::new());
    }

    #[test]
    fn brace_bomb_fails_fast() {
        let t = tree();
        let start = Instant::now();
        let bomb = t.pat(&"{a,b}".repeat(40));
        let e = expand(&bomb).unwrap_err();
        assert!(e.message.contains(&bomb), "{}", e.message);
        assert!(e.message.contains("10000"), "{}", e.message);
        // Hidden behind `**/` and an unclosed brace (whole pattern expands to
        // nothing, the component alone to 2^30): still refused.
        let e = expand(&t.pat(&format!("**/{}/{{", "{a,b}".repeat(30)))).unwrap_err();
        assert!(e.message.contains("10000"), "{}", e.message);
        let e = expand(&t.pat(&format!("{}a{}", "{".repeat(1000), "}".repeat(1000)))).unwrap_err();
        assert!(e.message.contains("nested"), "{}", e.message);
        // A big but allowed expansion works.
        let many: Vec<String> = (0..9999).map(|i| format!("n{i}")).collect();
        let r = t.ok(&format!("{{{},a}}.yaml", many.join(",")));
        assert_eq!(r, v(&["a.yaml"]));
        assert!(
            start.elapsed() < Duration::from_secs(5),
            "took {:?}",
            start.elapsed()
        );
    }

    #[test]
    fn depth_is_capped() {
        let t = TempTree::new("deep");
        let mut rel = String::new();
        for _ in 0..100 {
            rel.push_str("d/");
        }
        t.file(&format!("{rel}f.yaml"));
        assert_eq!(t.ok("**/f.yaml"), v(&[&format!("{rel}f.yaml")]));
        let t = TempTree::new("deeper");
        let rel = "d/".repeat(MAX_DEPTH + 20);
        t.dir(&rel);
        t.file(&format!("{rel}f.yaml"));
        let e = t.glob("**/f.yaml").unwrap_err();
        assert!(e.message.contains("levels"), "{}", e.message);
    }

    #[test]
    fn invalid_utf8_names() {
        use std::os::unix::ffi::OsStrExt;
        let t = TempTree::new("utf8");
        t.file("b");
        let bad = std::ffi::OsStr::from_bytes(b"\xffb");
        std::fs::write(t.root.join(bad), "k: v\n").unwrap();
        t.file("caf\u{e9}.yaml");
        // `?` and `*` step over an invalid byte ...
        assert_eq!(expand(&t.pat("?b")).unwrap(), vec![t.root.join(bad)]);
        assert_eq!(t.ok("caf?.yaml"), v(&["caf\u{e9}.yaml"]));
        assert_eq!(t.ok("caf[\u{e0}-\u{ea}].yaml"), v(&["caf\u{e9}.yaml"]));
        // ... but a range compared with it raises ArgumentError in Ruby.
        let e = t.glob("[a-z]*").unwrap_err();
        assert!(
            e.message.contains("invalid byte sequence in UTF-8"),
            "{}",
            e.message
        );
    }

    #[test]
    fn nul_in_pattern_is_an_error() {
        assert!(expand("/tmp/a\0b").is_err());
    }

    #[test]
    fn unreadable_directories_give_nothing() {
        use std::os::unix::fs::PermissionsExt;
        let t = TempTree::new("perm");
        t.file("noperm/f.yaml");
        t.file("ok/f.yaml");
        let noperm = t.root.join("noperm");
        std::fs::set_permissions(&noperm, std::fs::Permissions::from_mode(0o000)).unwrap();
        let can_read = std::fs::read_dir(&noperm).is_ok(); // root reads anyway
        if !can_read {
            assert_eq!(t.ok("noperm/*"), Vec::<String>::new());
            assert_eq!(t.ok("*/f.yaml"), v(&["ok/f.yaml"]));
            assert_eq!(t.ok("**/f.yaml"), v(&["ok/f.yaml"]));
        }
        std::fs::set_permissions(&noperm, std::fs::Permissions::from_mode(0o755)).unwrap();
    }

    #[test]
    fn brace_size_and_expansion() {
        assert_eq!(brace_expand(b"a{b,c{d,e}}f{g,h}"), {
            let x: Vec<Vec<u8>> = ["abfg", "abfh", "acdfg", "acdfh", "acefg", "acefh"]
                .iter()
                .map(|s| s.as_bytes().to_vec())
                .collect();
            x
        });
        assert_eq!(brace_size(b"a{b,c{d,e}}f{g,h}", 0).unwrap().0, 6);
        assert_eq!(brace_size(b"{a,b}{", 0).unwrap().0, 0);
        assert_eq!(brace_expand(b"x\\{a,b}"), vec![b"x\\{a,b}".to_vec()]);
        assert_eq!(brace_expand(b"{}x"), vec![b"x".to_vec()]);
        assert_eq!(
            brace_expand(b"a}{b,c}"),
            vec![b"a}b".to_vec(), b"a}c".to_vec()]
        );
    }

    #[test]
    fn fnmatch_rules() {
        let m = |p: &str, s: &str| fnmatch(p.as_bytes(), s.as_bytes()).unwrap();
        assert!(m("*", "abc"));
        assert!(!m("*", ".abc"));
        assert!(m(".*", ".abc"));
        assert!(m("\\.*", ".abc"));
        assert!(!m("?abc", ".abc"));
        assert!(!m("[.]abc", ".abc"));
        assert!(m("[!a]", "b"));
        assert!(m("[^a]", "b"));
        assert!(!m("[!a]", "a"));
        assert!(!m("[]", "a"));
        assert!(m("[!]", "a"));
        assert!(m("[\\]]", "]"));
        assert!(m("a\\*", "a*"));
        assert!(!m("a\\*", "ab"));
        assert!(m("*a*b*c", "xaxbxc"));
        assert!(!m("[abc", "a"));
    }
}
