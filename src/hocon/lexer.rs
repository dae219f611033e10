//! The HOCON tokenizer, as ruby-hocon 1.3.1's `Tokenizer` splits text:
//! whitespace between two simple values becomes unquoted text (it is part
//! of a value concatenation), other whitespace is ignored; `true`, `false`
//! and `null` are recognized as soon as their letters are read; numbers are
//! read with Ruby's `Integer()` / `Float()` rules ([`super::number`]).

use super::number::{parse_number, Number};

/// What a token is.
#[derive(Clone, Debug, PartialEq)]
pub enum Tok {
    /// End of input.
    Eof,
    /// A newline.
    Newline,
    /// `,`
    Comma,
    /// `:`
    Colon,
    /// `=`
    Equals,
    /// `+=`
    PlusEquals,
    /// `{`
    OpenCurly,
    /// `}`
    CloseCurly,
    /// `[`
    OpenSquare,
    /// `]`
    CloseSquare,
    /// A quoted (or triple-quoted) string: its value.
    Quoted(String),
    /// Unquoted text (whitespace between simple values included).
    Unquoted(String),
    /// A number: its value and original text.
    Number(Number, String),
    /// `true` / `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// `${...}` / `${?...}`: whether optional, and the tokens inside.
    Subst(bool, Vec<Token>),
    /// Whitespace that is not part of a value.
    Ignored,
    /// A `#` or `//` comment.
    Comment,
    /// A problem found by the tokenizer: what was seen, and the message.
    Problem(String, String),
}

/// A token and the line it was read on.
#[derive(Clone, Debug, PartialEq)]
pub struct Token {
    /// The token.
    pub tok: Tok,
    /// Its 1-based line.
    pub line: usize,
}

impl Tok {
    /// Whether ruby-hocon counts the token as a simple value (for the
    /// whitespace rule).
    fn simple(&self) -> bool {
        matches!(
            self,
            Tok::Quoted(_)
                | Tok::Unquoted(_)
                | Tok::Number(..)
                | Tok::Bool(_)
                | Tok::Null
                | Tok::Subst(..)
        )
    }

    /// The token as ruby-hocon's messages quote it (`Token#to_s`).
    pub fn describe(&self) -> String {
        match self {
            Tok::Eof => "end of file".into(),
            Tok::Newline => "'\\n'".into(),
            Tok::Comma => "','".into(),
            Tok::Colon => "':'".into(),
            Tok::Equals => "'='".into(),
            Tok::PlusEquals => "'+='".into(),
            Tok::OpenCurly => "'{'".into(),
            Tok::CloseCurly => "'}'".into(),
            Tok::OpenSquare => "'['".into(),
            Tok::CloseSquare => "']'".into(),
            Tok::Quoted(s) => format!("'{s}' (QUOTED)"),
            Tok::Unquoted(s) => format!("'{s}'"),
            Tok::Number(_, t) => format!("'{t}' (NUMBER)"),
            Tok::Bool(b) => format!("'{b}' (BOOLEAN)"),
            Tok::Null => "'null' (NULL)".into(),
            Tok::Subst(opt, _) => format!("'${{{}...}}'", if *opt { "?" } else { "" }),
            Tok::Ignored => "' '".into(),
            Tok::Comment => "'#'".into(),
            Tok::Problem(what, msg) => format!("'{what}' ({msg})"),
        }
    }
}

const NOT_IN_UNQUOTED_TEXT: &str = "$\"{}[]:=,+#`^?!@*&\\";

/// Ruby's `/[[:space:]]/` (ruby-hocon's `ConfigImplUtil.whitespace?`): the
/// Unicode White_Space property.
pub fn is_whitespace(c: char) -> bool {
    c.is_whitespace()
}

struct Lexer<'a> {
    chars: std::iter::Peekable<std::str::Chars<'a>>,
    back: Vec<Option<char>>,
    line: usize,
}

impl Lexer<'_> {
    fn next(&mut self) -> Option<char> {
        match self.back.pop() {
            Some(c) => c,
            None => self.chars.next(),
        }
    }

    fn put_back(&mut self, c: Option<char>) {
        self.back.push(c);
    }

    fn peek(&mut self) -> Option<char> {
        let c = self.next();
        self.put_back(c);
        c
    }

    fn start_of_comment(&mut self, c: char) -> bool {
        match c {
            '#' => true,
            '/' => {
                let n = self.next();
                self.put_back(n);
                n == Some('/')
            }
            _ => false,
        }
    }

    /// The next token, and the whitespace (not newlines) before it.
    fn raw(&mut self, ws: &mut String) -> Result<Token, Token> {
        let c = loop {
            match self.next() {
                Some(c) if c != '\n' && is_whitespace(c) => ws.push(c),
                other => break other,
            }
        };
        let line = self.line;
        let tok = |tok| Token { tok, line };
        let Some(c) = c else {
            return Ok(tok(Tok::Eof));
        };
        if c == '\n' {
            self.line += 1;
            return Ok(tok(Tok::Newline));
        }
        if self.start_of_comment(c) {
            if c == '/' {
                self.next();
            }
            while let Some(d) = self.next() {
                if d == '\n' {
                    self.put_back(Some(d));
                    break;
                }
            }
            return Ok(tok(Tok::Comment));
        }
        let problem = |what: &str, msg: String| {
            Err(Token {
                tok: Tok::Problem(what.to_string(), msg),
                line,
            })
        };
        Ok(tok(match c {
            '"' => return self.quoted(line),
            '$' => return self.substitution(line),
            ':' => Tok::Colon,
            ',' => Tok::Comma,
            '=' => Tok::Equals,
            '{' => Tok::OpenCurly,
            '}' => Tok::CloseCurly,
            '[' => Tok::OpenSquare,
            ']' => Tok::CloseSquare,
            '+' => {
                let n = self.next();
                if n != Some('=') {
                    let s = n.map(String::from).unwrap_or_else(|| "-1".into());
                    return problem(
                        &s,
                        format!("'+' not followed by =, '{s}' not allowed after '+'"),
                    );
                }
                Tok::PlusEquals
            }
            c if "0123456789-".contains(c) => {
                let mut s = String::from(c);
                loop {
                    match self.next() {
                        Some(d) if "0123456789eE+-.".contains(d) => s.push(d),
                        other => {
                            self.put_back(other);
                            break;
                        }
                    }
                }
                match parse_number(&s) {
                    Some(n) => Tok::Number(n, s),
                    None => {
                        if let Some(u) = s.chars().find(|u| NOT_IN_UNQUOTED_TEXT.contains(*u)) {
                            return problem(
                                &u.to_string(),
                                format!("Reserved character '{u}'is not allowed outside quotes"),
                            );
                        }
                        Tok::Unquoted(s)
                    }
                }
            }
            c if NOT_IN_UNQUOTED_TEXT.contains(c) => {
                return problem(
                    &c.to_string(),
                    format!("Reserved character '{c}' is not allowed outside quotes"),
                )
            }
            c => {
                self.put_back(Some(c));
                self.unquoted()
            }
        }))
    }

    fn unquoted(&mut self) -> Tok {
        let mut s = String::new();
        let mut n = 0usize;
        loop {
            let c = self.next();
            match c {
                Some(c)
                    if !NOT_IN_UNQUOTED_TEXT.contains(c)
                        && !is_whitespace(c)
                        && !self.start_of_comment(c) =>
                {
                    s.push(c);
                    n += 1;
                }
                other => {
                    self.put_back(other);
                    return Tok::Unquoted(s);
                }
            }
            if n == 4 && s == "true" {
                return Tok::Bool(true);
            } else if n == 4 && s == "null" {
                return Tok::Null;
            } else if n == 5 && s == "false" {
                return Tok::Bool(false);
            }
        }
    }

    fn quoted(&mut self, line: usize) -> Result<Token, Token> {
        let problem = |what: &str, msg: &str, line| {
            Err(Token {
                tok: Tok::Problem(what.to_string(), msg.to_string()),
                line,
            })
        };
        let mut s = String::new();
        loop {
            let Some(c) = self.next() else {
                return problem(
                    "-1",
                    "End of input but string quote was still open",
                    self.line,
                );
            };
            match c {
                '"' => break,
                '\\' => {
                    let Some(e) = self.next() else {
                        return problem(
                            "",
                            "End of input but backslash in string had nothing after it",
                            self.line,
                        );
                    };
                    match e {
                        '"' => s.push('"'),
                        '\\' => s.push('\\'),
                        '/' => s.push('/'),
                        'b' => s.push('\u{8}'),
                        'f' => s.push('\u{c}'),
                        'n' => s.push('\n'),
                        'r' => s.push('\r'),
                        't' => s.push('\t'),
                        'u' => {
                            let mut hex = String::new();
                            for _ in 0..4 {
                                match self.next() {
                                    Some(h) => hex.push(h),
                                    None => {
                                        return problem(
                                            "-1",
                                            "End of input but expecting 4 hex digits for \\uXXXX escape",
                                            self.line,
                                        )
                                    }
                                }
                            }
                            // Ruby's String#hex: the leading hex digits, 0 if none.
                            let digits: String =
                                hex.chars().take_while(|h| h.is_ascii_hexdigit()).collect();
                            let code = u32::from_str_radix(&digits, 16).unwrap_or(0);
                            match char::from_u32(code) {
                                Some(ch) => s.push(ch),
                                None => {
                                    return problem(
                                        &hex,
                                        &format!("Malformed hex digits after \\u escape in string: '{hex}'"),
                                        self.line,
                                    )
                                }
                            }
                        }
                        other => {
                            return problem(
                                "",
                                &format!("backslash followed by '{other}', this is not a valid escape sequence (quoted strings use JSON escaping, so use double-backslash \\\\ for literal backslash)"),
                                self.line,
                            )
                        }
                    }
                }
                c if c.is_control() => {
                    return problem(
                        &c.to_string(),
                        &format!("JSON does not allow unescaped {c} in quoted strings, use a backslash escape"),
                        self.line,
                    )
                }
                c => s.push(c),
            }
        }
        if s.is_empty() && self.peek() == Some('"') {
            self.next();
            return self.triple(line);
        }
        Ok(Token {
            tok: Tok::Quoted(s),
            line,
        })
    }

    fn triple(&mut self, line: usize) -> Result<Token, Token> {
        let mut s = String::new();
        let mut quotes = 0;
        loop {
            let c = self.next();
            if c == Some('"') {
                quotes += 1;
            } else if quotes >= 3 {
                s.truncate(s.len() - 3);
                self.put_back(c);
                break;
            } else {
                quotes = 0;
                match c {
                    None => {
                        return Err(Token {
                            tok: Tok::Problem(
                                "-1".into(),
                                "End of input but triple-quoted string was still open".into(),
                            ),
                            line: self.line,
                        })
                    }
                    Some('\n') => self.line += 1,
                    _ => {}
                }
            }
            if let Some(c) = c {
                s.push(c);
            }
        }
        Ok(Token {
            tok: Tok::Quoted(s),
            line,
        })
    }

    fn substitution(&mut self, line: usize) -> Result<Token, Token> {
        let c = self.next();
        if c != Some('{') {
            let s = c.map(String::from).unwrap_or_else(|| "-1".into());
            return Err(Token {
                tok: Tok::Problem(
                    s.clone(),
                    format!("'$' not followed by {{, '{s}' not allowed after '$'"),
                ),
                line,
            });
        }
        let optional = if self.peek() == Some('?') {
            self.next();
            true
        } else {
            false
        };
        let mut saver = Saver::default();
        let mut expr = Vec::new();
        loop {
            let mut ws = String::new();
            let t = self.raw(&mut ws)?;
            match t.tok {
                Tok::CloseCurly => break,
                Tok::Eof => {
                    return Err(Token {
                        tok: Tok::Problem(
                            "end of file".into(),
                            "Substitution ${ was not closed with a }".into(),
                        ),
                        line: self.line,
                    })
                }
                _ => {
                    if let Some(w) = saver.check(&t.tok, ws, t.line) {
                        expr.push(w);
                    }
                    expr.push(t);
                }
            }
        }
        Ok(Token {
            tok: Tok::Subst(optional, expr),
            line,
        })
    }
}

/// ruby-hocon's `WhitespaceSaver`.
#[derive(Default)]
struct Saver {
    last_simple: bool,
}

impl Saver {
    fn check(&mut self, t: &Tok, ws: String, line: usize) -> Option<Token> {
        let simple = t.simple();
        let out = (!ws.is_empty()).then_some(Token {
            tok: if self.last_simple && simple {
                Tok::Unquoted(ws)
            } else {
                Tok::Ignored
            },
            line,
        });
        self.last_simple = simple;
        out
    }
}

/// Splits `text` into tokens, ending with [`Tok::Eof`]. A problem ends the
/// stream with a [`Tok::Problem`] token (the parser reports it where it
/// meets it, as ruby-hocon does).
pub fn tokenize(text: &str) -> Vec<Token> {
    let mut lx = Lexer {
        chars: text.chars().peekable(),
        back: Vec::new(),
        line: 1,
    };
    let mut saver = Saver::default();
    let mut out = Vec::new();
    loop {
        let mut ws = String::new();
        match lx.raw(&mut ws) {
            Ok(t) => {
                let eof = t.tok == Tok::Eof;
                if let Some(w) = saver.check(&t.tok, ws, t.line) {
                    out.push(w);
                }
                out.push(t);
                if eof {
                    return out;
                }
            }
            Err(p) => {
                if let Some(w) = saver.check(&p.tok, ws, p.line) {
                    out.push(w);
                }
                out.push(p);
                return out;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn toks(s: &str) -> Vec<Tok> {
        tokenize(s).into_iter().map(|t| t.tok).collect()
    }

    #[test]
    fn whitespace_between_simple_values_is_text() {
        assert_eq!(
            toks("a = foo  bar"),
            vec![
                Tok::Unquoted("a".into()),
                Tok::Ignored,
                Tok::Equals,
                Tok::Ignored,
                Tok::Unquoted("foo".into()),
                Tok::Unquoted("  ".into()),
                Tok::Unquoted("bar".into()),
                Tok::Eof
            ]
        );
    }

    #[test]
    fn keywords_numbers_and_comments() {
        assert_eq!(
            toks("truex")[..2],
            [Tok::Bool(true), Tok::Unquoted("x".into())]
        );
        assert_eq!(toks("yes"), vec![Tok::Unquoted("yes".into()), Tok::Eof]);
        assert_eq!(toks("08"), vec![Tok::Unquoted("08".into()), Tok::Eof]);
        assert_eq!(
            toks("010"),
            vec![Tok::Number(Number::Int(8), "010".into()), Tok::Eof]
        );
        assert_eq!(
            toks("# c\n// d"),
            vec![Tok::Comment, Tok::Newline, Tok::Comment, Tok::Eof]
        );
        assert_eq!(toks("a/b")[0], Tok::Unquoted("a/b".into()));
    }

    #[test]
    fn strings() {
        assert_eq!(toks(r#""a\n\u0041""#)[0], Tok::Quoted("a\nA".into()));
        assert_eq!(
            toks("\"\"\"x \"y\" \n\"\"\"\"")[0],
            Tok::Quoted("x \"y\" \n\"".into())
        );
        assert!(matches!(toks("\"open")[0], Tok::Problem(..)));
        assert!(matches!(toks("a = 1 ^").last(), Some(Tok::Problem(..))));
    }

    #[test]
    fn substitutions() {
        let t = toks("${?a.b}");
        let Tok::Subst(true, inner) = &t[0] else {
            panic!("{t:?}")
        };
        assert_eq!(inner[0].tok, Tok::Unquoted("a.b".into()));
        assert!(matches!(toks("${a")[0], Tok::Problem(..)));
    }
}
