//! The part of Go's expression syntax a corpus line can use.
//!
//! Go reads each value line with `go/parser.ParseExpr` and then looks at the
//! tree. Only one shape of tree is ever accepted: a call whose callee is an
//! identifier, `[]byte` or `math.X`, with one argument that is a literal or
//! an identifier, perhaps behind one unary operator, perhaps followed by
//! `...` and a trailing comma. So instead of a Go parser this module has a
//! Go *lexer* (literal syntax, escapes, comments, illegal characters, as
//! `go/scanner` checks them) and a parser for that one shape; anything else
//! is refused, and that matches Go's verdict because Go refuses it too.
//! `custom("name", []byte("…"))`, our extension, is parsed here as well.

/// Kinds of literal, as `go/token` names them.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum LitKind {
    Int,
    Float,
    Imag,
    Char,
    String,
}

/// Unary operators Go's parser builds a `UnaryExpr` from.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum UnOp {
    Sub,
    Add,
    Not,
    Xor,
    And,
    Tilde,
    Arrow,
}

impl UnOp {
    pub fn as_str(self) -> &'static str {
        match self {
            UnOp::Sub => "-",
            UnOp::Add => "+",
            UnOp::Not => "!",
            UnOp::Xor => "^",
            UnOp::And => "&",
            UnOp::Tilde => "~",
            UnOp::Arrow => "<-",
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Tok<'a> {
    Ident(&'a str),
    Lit(LitKind, &'a str),
    LParen,
    RParen,
    LBrack,
    RBrack,
    Comma,
    Period,
    Ellipsis,
    Unary(UnOp),
    /// Any other Go token (`*`, `;`, `+=`, `{`…): never part of a value.
    Other(&'a str),
    Eof,
}

impl Tok<'_> {
    fn describe(&self) -> String {
        match self {
            Tok::Ident(s) | Tok::Lit(_, s) | Tok::Other(s) => format!("{s:?}"),
            Tok::LParen => "'('".into(),
            Tok::RParen => "')'".into(),
            Tok::LBrack => "'['".into(),
            Tok::RBrack => "']'".into(),
            Tok::Comma => "','".into(),
            Tok::Period => "'.'".into(),
            Tok::Ellipsis => "'...'".into(),
            Tok::Unary(op) => format!("'{}'", op.as_str()),
            Tok::Eof => "end of line".into(),
        }
    }
}

/// A lexing or parsing failure, with Go's 1-based column.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SyntaxError {
    pub col: usize,
    pub msg: String,
}

type PResult<T> = Result<T, SyntaxError>;

fn err<T>(offset: usize, msg: impl Into<String>) -> PResult<T> {
    Err(SyntaxError {
        col: offset + 1,
        msg: msg.into(),
    })
}

struct Lexer<'a> {
    src: &'a str,
    pos: usize,
}

fn is_ident_start(c: u8) -> bool {
    c.is_ascii_alphabetic() || c == b'_'
}

fn is_ident_char(c: u8) -> bool {
    c.is_ascii_alphanumeric() || c == b'_'
}

fn digit_val(c: u8) -> u32 {
    match c {
        b'0'..=b'9' => (c - b'0') as u32,
        b'a'..=b'f' => (c - b'a' + 10) as u32,
        b'A'..=b'F' => (c - b'A' + 10) as u32,
        _ => 16,
    }
}

impl<'a> Lexer<'a> {
    fn peek(&self) -> Option<u8> {
        self.src.as_bytes().get(self.pos).copied()
    }
    fn peek_at(&self, n: usize) -> Option<u8> {
        self.src.as_bytes().get(self.pos + n).copied()
    }

    fn skip_space_and_comments(&mut self) -> PResult<()> {
        loop {
            match self.peek() {
                Some(b' ' | b'\t' | b'\r') => self.pos += 1,
                Some(b'/') if self.peek_at(1) == Some(b'/') => {
                    self.pos = self.src.len();
                }
                Some(b'/') if self.peek_at(1) == Some(b'*') => {
                    let start = self.pos;
                    match self.src[self.pos + 2..].find("*/") {
                        Some(i) => self.pos += 2 + i + 2,
                        None => return err(start, "comment not terminated"),
                    }
                }
                _ => return Ok(()),
            }
        }
    }

    fn next(&mut self) -> PResult<(usize, Tok<'a>)> {
        self.skip_space_and_comments()?;
        let start = self.pos;
        let Some(c) = self.peek() else {
            return Ok((start, Tok::Eof));
        };
        let one = |lx: &mut Self, t: Tok<'a>| {
            lx.pos += 1;
            Ok((start, t))
        };
        match c {
            b'(' => one(self, Tok::LParen),
            b')' => one(self, Tok::RParen),
            b'[' => one(self, Tok::LBrack),
            b']' => one(self, Tok::RBrack),
            b',' => one(self, Tok::Comma),
            b'~' => one(self, Tok::Unary(UnOp::Tilde)),
            b'.' => {
                if self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) {
                    return self.number(start);
                }
                if self.peek_at(1) == Some(b'.') && self.peek_at(2) == Some(b'.') {
                    self.pos += 3;
                    return Ok((start, Tok::Ellipsis));
                }
                one(self, Tok::Period)
            }
            b'0'..=b'9' => self.number(start),
            b'"' => self.string(start),
            b'`' => self.raw_string(start),
            b'\'' => self.rune(start),
            c if is_ident_start(c) => {
                while self.peek().is_some_and(is_ident_char) {
                    self.pos += 1;
                }
                if self.peek().is_some_and(|c| c >= 0x80) {
                    // A Unicode letter or digit would extend the identifier
                    // into a name no value uses; anything else is illegal.
                    return err(self.pos, "identifier with non-ASCII characters");
                }
                Ok((start, Tok::Ident(&self.src[start..self.pos])))
            }
            b'-' | b'+' | b'!' | b'^' | b'&' | b'<' => {
                let next = self.peek_at(1);
                let (op, len) = match (c, next) {
                    (b'-', Some(b'-' | b'=')) | (b'+', Some(b'+' | b'=')) => (None, 2),
                    (b'!' | b'^', Some(b'=')) => (None, 2),
                    (b'&', Some(b'&' | b'=')) => (None, 2),
                    (b'&', Some(b'^')) => (None, 2),
                    (b'<', Some(b'-')) => (Some(UnOp::Arrow), 2),
                    (b'<', _) => (None, 1),
                    (b'-', _) => (Some(UnOp::Sub), 1),
                    (b'+', _) => (Some(UnOp::Add), 1),
                    (b'!', _) => (Some(UnOp::Not), 1),
                    (b'^', _) => (Some(UnOp::Xor), 1),
                    _ => (Some(UnOp::And), 1),
                };
                self.pos += len;
                Ok((
                    start,
                    match op {
                        Some(op) => Tok::Unary(op),
                        None => Tok::Other(&self.src[start..self.pos]),
                    },
                ))
            }
            b'*' | b'/' | b'%' | b'|' | b'=' | b'>' | b':' | b';' | b'{' | b'}' => {
                one(self, Tok::Other(&self.src[start..start + 1]))
            }
            _ => {
                let ch = self.src[start..].chars().next().unwrap();
                err(
                    start,
                    format!("illegal character U+{:04X} {:?}", ch as u32, ch),
                )
            }
        }
    }

    /// go/scanner's `digits`: returns bit 0 for a digit seen, bit 1 for `_`.
    fn digits(&mut self, base: u32, invalid: &mut Option<usize>) -> u32 {
        let mut digsep = 0;
        while let Some(c) = self.peek() {
            if base <= 10 {
                if !(c.is_ascii_digit() || c == b'_') {
                    break;
                }
                if c == b'_' {
                    digsep |= 2;
                } else {
                    digsep |= 1;
                    if digit_val(c) >= base && invalid.is_none() {
                        *invalid = Some(self.pos);
                    }
                }
            } else {
                if !(c.is_ascii_hexdigit() || c == b'_') {
                    break;
                }
                digsep |= if c == b'_' { 2 } else { 1 };
            }
            self.pos += 1;
        }
        digsep
    }

    /// go/scanner's `scanNumber`, errors included.
    fn number(&mut self, start: usize) -> PResult<(usize, Tok<'a>)> {
        let mut kind = LitKind::Int;
        let mut base = 10;
        let mut prefix = 0u8;
        let mut digsep = 0;
        let mut invalid = None;
        let lower = |c: Option<u8>| c.map(|c| c | 0x20);
        if self.peek() != Some(b'.') {
            if self.peek() == Some(b'0') {
                self.pos += 1;
                match lower(self.peek()) {
                    Some(b'x') => {
                        self.pos += 1;
                        base = 16;
                        prefix = b'x';
                    }
                    Some(b'o') => {
                        self.pos += 1;
                        base = 8;
                        prefix = b'o';
                    }
                    Some(b'b') => {
                        self.pos += 1;
                        base = 2;
                        prefix = b'b';
                    }
                    _ => {
                        base = 8;
                        prefix = b'0';
                        digsep = 1;
                    }
                }
            }
            digsep |= self.digits(base, &mut invalid);
        }
        let litname = match prefix {
            b'x' => "hexadecimal literal",
            b'o' | b'0' => "octal literal",
            b'b' => "binary literal",
            _ => "decimal literal",
        };
        if self.peek() == Some(b'.') {
            kind = LitKind::Float;
            if prefix == b'o' || prefix == b'b' {
                return err(self.pos, format!("invalid radix point in {litname}"));
            }
            self.pos += 1;
            digsep |= self.digits(base, &mut invalid);
        }
        if digsep & 1 == 0 {
            return err(self.pos, format!("{litname} has no digits"));
        }
        let e = lower(self.peek());
        if e == Some(b'e') || e == Some(b'p') {
            if e == Some(b'e') && prefix != 0 && prefix != b'0' {
                return err(self.pos, "'e' exponent requires decimal mantissa");
            }
            if e == Some(b'p') && prefix != b'x' {
                return err(self.pos, "'p' exponent requires hexadecimal mantissa");
            }
            self.pos += 1;
            kind = LitKind::Float;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.pos += 1;
            }
            let ds = self.digits(10, &mut None);
            digsep |= ds;
            if ds & 1 == 0 {
                return err(self.pos, "exponent has no digits");
            }
        } else if prefix == b'x' && kind == LitKind::Float {
            return err(self.pos, "hexadecimal mantissa requires a 'p' exponent");
        }
        if self.peek() == Some(b'i') {
            kind = LitKind::Imag;
            self.pos += 1;
        }
        let lit = &self.src[start..self.pos];
        if kind == LitKind::Int {
            if let Some(at) = invalid {
                return err(
                    at,
                    format!(
                        "invalid digit {:?} in {litname}",
                        self.src.as_bytes()[at] as char
                    ),
                );
            }
        }
        if digsep & 2 != 0 {
            if let Some(i) = invalid_sep(lit) {
                return err(start + i, "'_' must separate successive digits");
            }
        }
        Ok((start, Tok::Lit(kind, lit)))
    }

    /// go/scanner's `scanEscape`, after the backslash.
    fn escape(&mut self, quote: u8) -> PResult<()> {
        let offs = self.pos - 1;
        let (mut n, base, max) = match self.peek() {
            Some(c) if b"abfnrtv\\".contains(&c) || c == quote => {
                self.pos += 1;
                return Ok(());
            }
            Some(b'0'..=b'7') => (3, 8, 255),
            Some(b'x') => {
                self.pos += 1;
                (2, 16, 255)
            }
            Some(b'u') => {
                self.pos += 1;
                (4, 16, 0x10ffff)
            }
            Some(b'U') => {
                self.pos += 1;
                (8, 16, 0x10ffff)
            }
            None => return err(offs, "escape sequence not terminated"),
            Some(_) => return err(offs, "unknown escape sequence"),
        };
        let mut x: u32 = 0;
        while n > 0 {
            let d = self.peek().map_or(16, digit_val);
            if d >= base {
                return match self.peek() {
                    None => err(self.pos, "escape sequence not terminated"),
                    Some(_) => err(self.pos, "illegal character in escape sequence"),
                };
            }
            x = x * base + d;
            self.pos += 1;
            n -= 1;
        }
        if x > max || (0xd800..0xe000).contains(&x) {
            return err(offs, "escape sequence is invalid Unicode code point");
        }
        Ok(())
    }

    fn string(&mut self, start: usize) -> PResult<(usize, Tok<'a>)> {
        self.pos += 1;
        loop {
            match self.peek() {
                None => return err(start, "string literal not terminated"),
                Some(b'"') => {
                    self.pos += 1;
                    break;
                }
                Some(b'\\') => {
                    self.pos += 1;
                    self.escape(b'"')?;
                }
                Some(_) => self.pos += 1,
            }
        }
        Ok((start, Tok::Lit(LitKind::String, &self.src[start..self.pos])))
    }

    fn raw_string(&mut self, start: usize) -> PResult<(usize, Tok<'a>)> {
        match self.src[start + 1..].find('`') {
            Some(i) => {
                self.pos = start + 1 + i + 1;
                Ok((start, Tok::Lit(LitKind::String, &self.src[start..self.pos])))
            }
            None => err(start, "raw string literal not terminated"),
        }
    }

    fn rune(&mut self, start: usize) -> PResult<(usize, Tok<'a>)> {
        self.pos += 1;
        let mut n = 0;
        loop {
            let Some(c) = self.peek() else {
                return err(start, "rune literal not terminated");
            };
            let width = self.src[self.pos..].chars().next().unwrap().len_utf8();
            self.pos += width;
            if c == b'\'' {
                break;
            }
            n += 1;
            if c == b'\\' {
                self.escape(b'\'')?;
            }
        }
        if n != 1 {
            return err(start, "illegal rune literal");
        }
        Ok((start, Tok::Lit(LitKind::Char, &self.src[start..self.pos])))
    }
}

/// go/scanner's `invalidSep`: the index of the first misplaced `_`.
fn invalid_sep(x: &str) -> Option<usize> {
    let x = x.as_bytes();
    let mut x1 = b' ';
    let mut d = b'.';
    let mut i = 0;
    if x.len() >= 2 && x[0] == b'0' {
        x1 = x[1] | 0x20;
        if x1 == b'x' || x1 == b'o' || x1 == b'b' {
            d = b'0';
            i = 2;
        }
    }
    while i < x.len() {
        let p = d;
        d = x[i];
        if d == b'_' {
            if p != b'0' {
                return Some(i);
            }
        } else if d.is_ascii_digit() || (x1 == b'x' && d.is_ascii_hexdigit()) {
            d = b'0';
        } else {
            if p == b'_' {
                return Some(i - 1);
            }
            d = b'.';
        }
        i += 1;
    }
    if d == b'_' {
        return Some(x.len() - 1);
    }
    None
}

/// The callee of a value line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Fun<'a> {
    /// `int64`, `string`, `custom`…
    Ident(&'a str),
    /// `[]byte`
    ByteSlice,
    /// `[]T` for another element, or `[N]T`
    OtherArray { has_len: bool },
    /// `X.Sel`
    Selector(&'a str, &'a str),
}

/// An argument of a value line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Arg<'a> {
    Lit(LitKind, &'a str),
    Ident(&'a str),
    /// One unary operator before a literal or identifier.
    Unary(UnOp, Box<Arg<'a>>),
    /// `[]byte("…")`, inside our `custom(…)` extension.
    ByteSliceOf(&'a str),
}

/// A parsed value line.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Call<'a> {
    pub fun: Fun<'a>,
    pub args: Vec<Arg<'a>>,
    pub ellipsis: bool,
}

struct Parser<'a> {
    lx: Lexer<'a>,
    tok: Tok<'a>,
    at: usize,
}

impl<'a> Parser<'a> {
    fn advance(&mut self) -> PResult<()> {
        let (at, tok) = self.lx.next()?;
        self.at = at;
        self.tok = tok;
        Ok(())
    }

    fn expect(&mut self, want: Tok<'a>, what: &str) -> PResult<()> {
        if self.tok != want {
            return err(
                self.at,
                format!("expected {what}, found {}", self.tok.describe()),
            );
        }
        self.advance()
    }

    fn fun(&mut self) -> PResult<Fun<'a>> {
        match self.tok.clone() {
            Tok::Ident(name) => {
                self.advance()?;
                if self.tok == Tok::Period {
                    self.advance()?;
                    let Tok::Ident(sel) = self.tok else {
                        return err(self.at, "expected selector after '.'");
                    };
                    self.advance()?;
                    return Ok(Fun::Selector(name, sel));
                }
                Ok(Fun::Ident(name))
            }
            Tok::LBrack => {
                self.advance()?;
                let has_len = self.tok != Tok::RBrack;
                if has_len {
                    return Ok(Fun::OtherArray { has_len });
                }
                self.advance()?;
                match self.tok {
                    Tok::Ident("byte") => {
                        self.advance()?;
                        Ok(Fun::ByteSlice)
                    }
                    _ => Ok(Fun::OtherArray { has_len: false }),
                }
            }
            Tok::Eof => err(self.at, "expected operand, found end of line"),
            _ => err(self.at, "expected call expression"),
        }
    }

    fn operand(&mut self) -> PResult<Arg<'a>> {
        let arg = match self.tok.clone() {
            Tok::Lit(kind, text) => Arg::Lit(kind, text),
            Tok::Ident(name) => Arg::Ident(name),
            Tok::LBrack => {
                self.advance()?;
                self.expect(Tok::RBrack, "']'")?;
                if self.tok != Tok::Ident("byte") {
                    return err(self.at, "expected []byte(\"…\")");
                }
                self.advance()?;
                self.expect(Tok::LParen, "'('")?;
                let Tok::Lit(LitKind::String, text) = self.tok else {
                    return err(self.at, "string literal required for type []byte");
                };
                self.advance()?;
                if self.tok == Tok::Comma {
                    self.advance()?;
                }
                if self.tok != Tok::RParen {
                    return err(self.at, "expected ')'");
                }
                Arg::ByteSliceOf(text)
            }
            Tok::Unary(op) => {
                self.advance()?;
                match self.tok.clone() {
                    Tok::Lit(kind, text) => Arg::Unary(op, Box::new(Arg::Lit(kind, text))),
                    Tok::Ident(name) => Arg::Unary(op, Box::new(Arg::Ident(name))),
                    _ => {
                        return err(
                            self.at,
                            format!("unsupported operation on int/float: {}", op.as_str()),
                        )
                    }
                }
            }
            other => {
                return err(
                    self.at,
                    format!(
                        "literal value required for primitive type, found {}",
                        other.describe()
                    ),
                )
            }
        };
        self.advance()?;
        Ok(arg)
    }
}

/// Parses one trimmed value line. `line` must be valid UTF-8 with no NUL
/// and no byte order mark but at its start (see [`check_chars`]).
pub fn parse_line(line: &str) -> PResult<Call<'_>> {
    let src = line.strip_prefix('\u{feff}').unwrap_or(line);
    let bom = line.len() - src.len();
    let mut p = Parser {
        lx: Lexer { src, pos: 0 },
        tok: Tok::Eof,
        at: 0,
    };
    let shift = |e: SyntaxError| SyntaxError {
        col: e.col + bom,
        msg: e.msg,
    };
    (|| {
        p.advance()?;
        let fun = p.fun()?;
        if p.tok != Tok::LParen {
            return err(
                p.at,
                match p.tok {
                    Tok::Eof => "expected call expression".to_string(),
                    _ => format!("expected '(' or end of line, found {}", p.tok.describe()),
                },
            );
        }
        p.advance()?;
        let mut args = Vec::new();
        let mut ellipsis = false;
        while p.tok != Tok::RParen {
            args.push(p.operand()?);
            if p.tok == Tok::Ellipsis {
                ellipsis = true;
                p.advance()?;
            }
            match p.tok {
                Tok::Comma => p.advance()?,
                Tok::RParen => break,
                _ => {
                    return err(
                        p.at,
                        format!(
                            "expected ',' or ')' in argument list, found {}",
                            p.tok.describe()
                        ),
                    )
                }
            }
            if ellipsis && p.tok != Tok::RParen {
                return err(p.at, "expected ')' after '...'");
            }
        }
        p.advance()?;
        if p.tok != Tok::Eof {
            return err(
                p.at,
                format!("expected end of line, found {}", p.tok.describe()),
            );
        }
        Ok(Call {
            fun,
            args,
            ellipsis,
        })
    })()
    .map_err(shift)
}

/// Go's scanner refuses, anywhere in a line (literals and comments
/// included): invalid UTF-8, NUL, and a byte order mark except at the very
/// start. Returns the line as text, or the error and its column.
pub fn check_chars(line: &[u8]) -> PResult<&str> {
    let text = match std::str::from_utf8(line) {
        Ok(t) => t,
        Err(e) => return err(e.valid_up_to(), "illegal UTF-8 encoding"),
    };
    for (i, c) in text.char_indices() {
        if c == '\0' {
            return err(i, "illegal character NUL");
        }
        if c == '\u{feff}' && i > 0 {
            return err(i, "illegal byte order mark");
        }
    }
    Ok(text)
}

/// `strconv.Unquote` of a string literal the lexer accepted: the bytes it
/// denotes. Raw strings lose their carriage returns, as Go's scanner drops
/// them.
pub fn unquote_string(lit: &str) -> Option<Vec<u8>> {
    let b = lit.as_bytes();
    if b.len() < 2 {
        return None;
    }
    match (b[0], b[b.len() - 1]) {
        (b'`', b'`') => Some(
            b[1..b.len() - 1]
                .iter()
                .copied()
                .filter(|&c| c != b'\r')
                .collect(),
        ),
        (b'"', b'"') => {
            let mut out = Vec::with_capacity(b.len());
            let mut rest = &lit[1..lit.len() - 1];
            while !rest.is_empty() {
                let (v, tail) = unquote_char(rest, b'"')?;
                match v {
                    Unquoted::Byte(x) => out.push(x),
                    Unquoted::Char(c) => {
                        let mut buf = [0u8; 4];
                        out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                    }
                }
                rest = tail;
            }
            Some(out)
        }
        _ => None,
    }
}

/// One unquoted character: a raw byte (`\xNN`, octal) or a code point.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unquoted {
    Byte(u8),
    Char(char),
}

impl Unquoted {
    pub fn code(self) -> u32 {
        match self {
            Unquoted::Byte(b) => b as u32,
            Unquoted::Char(c) => c as u32,
        }
    }
}

/// `strconv.UnquoteChar`: the first character of `s` and the rest.
pub fn unquote_char(s: &str, quote: u8) -> Option<(Unquoted, &str)> {
    let b = s.as_bytes();
    let c = *b.first()?;
    if c == quote && (quote == b'\'' || quote == b'"') {
        return None;
    }
    if c != b'\\' {
        let ch = s.chars().next()?;
        return Some((Unquoted::Char(ch), &s[ch.len_utf8()..]));
    }
    let e = *b.get(1)?;
    let simple = |ch: char| Some((Unquoted::Char(ch), &s[2..]));
    match e {
        b'a' => simple('\x07'),
        b'b' => simple('\x08'),
        b'f' => simple('\x0c'),
        b'n' => simple('\n'),
        b'r' => simple('\r'),
        b't' => simple('\t'),
        b'v' => simple('\x0b'),
        b'\\' => simple('\\'),
        b'\'' | b'"' => {
            if e != quote {
                return None;
            }
            simple(e as char)
        }
        b'x' | b'u' | b'U' => {
            let n = match e {
                b'x' => 2,
                b'u' => 4,
                _ => 8,
            };
            let digits = s.get(2..2 + n)?;
            let v = u32::from_str_radix(digits, 16).ok()?;
            if !digits.bytes().all(|d| d.is_ascii_hexdigit()) {
                return None;
            }
            let rest = &s[2 + n..];
            if e == b'x' {
                return Some((Unquoted::Byte(v as u8), rest));
            }
            Some((Unquoted::Char(char::from_u32(v)?), rest))
        }
        b'0'..=b'7' => {
            let digits = s.get(1..4)?;
            if !digits.bytes().all(|d| (b'0'..=b'7').contains(&d)) {
                return None;
            }
            let v = u32::from_str_radix(digits, 8).ok()?;
            if v > 255 {
                return None;
            }
            Some((Unquoted::Byte(v as u8), &s[4..]))
        }
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(line: &str) -> Call<'_> {
        parse_line(line).unwrap_or_else(|e| panic!("{line}: {e:?}"))
    }

    fn bad(line: &str) {
        assert!(parse_line(line).is_err(), "{line} should not parse");
    }

    #[test]
    fn shapes_go_accepts() {
        let c = ok("int64(5)");
        assert_eq!(c.fun, Fun::Ident("int64"));
        assert_eq!(c.args, vec![Arg::Lit(LitKind::Int, "5")]);
        ok("int64 ( - /* c */ 5 , ) // trailing");
        assert!(ok("int64(5 ...)").ellipsis);
        assert_eq!(ok("[ ]byte(`x`)").fun, Fun::ByteSlice);
        assert_eq!(
            ok("math.Float64frombits(0x1)").fun,
            Fun::Selector("math", "Float64frombits")
        );
        assert_eq!(
            ok("float64(!Inf)").args,
            vec![Arg::Unary(UnOp::Not, Box::new(Arg::Ident("Inf")))]
        );
        ok("\u{feff}int(1)");
    }

    #[test]
    fn shapes_go_refuses() {
        for l in [
            "int64(5...)",
            "int64(--5)",
            "int64((5))",
            "(int64)(5)",
            "int64(5);",
            "int64(5) int64(6)",
            "int64(5",
            "// c",
            "int64(5) /* open",
            "int64(0x)",
            "int64(1__0)",
            "int64(09)",
            "int64(0b12)",
            "float64(0x1.8)",
            "float64(1p5)",
            "string(\"\\q\")",
            "string(\"\\ud800\")",
            "rune('ab')",
            "rune('')",
            "string(\"abc)",
            "int64(5)#",
            "int64(5 + 1)",
            "int64(*5)",
            "int64(- -5)",
            "intö(5)",
        ] {
            bad(l);
        }
        ok("float64(09.5)");
        ok("int64(0_7)");
    }

    #[test]
    fn chars_checked_everywhere() {
        assert!(check_chars(b"string(\"\xff\")").is_err());
        assert!(check_chars(b"string(\"\0\")").is_err());
        assert!(check_chars("int(1) // \u{feff}".as_bytes()).is_err());
        assert!(check_chars("\u{feff}int(1)".as_bytes()).is_ok());
    }

    #[test]
    fn unquoting() {
        assert_eq!(
            unquote_string(r#""\x00\u00e9\377\n\"""#).unwrap(),
            b"\x00\xc3\xa9\xff\n\""
        );
        assert_eq!(unquote_string("`a\r\\n`").unwrap(), b"a\\n");
        assert_eq!(unquote_char("\\'", b'\'').unwrap().0, Unquoted::Char('\''));
        assert!(unquote_char("'a", b'\'').is_none());
    }
}
