//! A small tokenizer in the spirit of tests/data/cover/tokens.c, for
//! tests/e2e/cover_llvm.rs: built at opt-level 1, its library once held a
//! PC table entry for a deleted block (a bare constant, no address).
use fuzz_target::{libfuzzer_target, Verdict};

struct Lexer<'a> {
    p: &'a [u8],
    at: usize,
    sum: i64,
    errors: u32,
    depth: u32,
    text: [u8; 32],
}

#[inline]
fn is_digit(c: u8) -> bool {
    c.is_ascii_digit()
}

fn hex_value(c: u8) -> Option<i64> {
    if c >= b'0' && c <= b'9' {
        return Some((c - b'0') as i64);
    }
    if c >= b'a' && c <= b'f' {
        return Some((c - b'a' + 10) as i64);
    }
    if c >= b'A' && c <= b'F' {
        return Some((c - b'A' + 10) as i64);
    }
    None
}

fn escape(c: u8) -> Option<u8> {
    match c {
        b'n' => Some(b'\n'),
        b't' => Some(b'\t'),
        b'\\' => Some(b'\\'),
        b'"' => Some(b'"'),
        _ => None,
    }
}

fn clamp(v: u32, lo: u32, hi: u32) -> u32 {
    if v < lo { lo } else if v > hi { hi } else { v }
}

impl<'a> Lexer<'a> {
    #[inline]
    fn peek(&self) -> Option<u8> {
        self.p.get(self.at).copied()
    }

    fn skip_space(&mut self) {
        while let Some(c) = self.peek() {
            if c != b' ' && c != b'\t' && c != b'\n' {
                break;
            }
            self.at += 1;
        }
    }

    fn number(&mut self) -> i64 {
        let mut negative = false;
        let mut v: i64 = 0;
        if self.peek() == Some(b'-') {
            negative = true;
            self.at += 1;
        }
        if self.peek() == Some(b'0') && self.p.get(self.at + 1) == Some(&b'x') {
            self.at += 2;
            let mut digits = 0;
            while self.at < self.p.len() {
                let h = match hex_value(self.p[self.at]) {
                    Some(h) => h,
                    None => break,
                };
                if v > 0x7ff_ffff {
                    self.errors += 1;
                    return 0;
                }
                v = v * 16 + h;
                self.at += 1;
                digits += 1;
            }
            if digits == 0 {
                self.errors += 1;
            }
        } else {
            while let Some(c) = self.peek().filter(|&c| is_digit(c)) {
                v = v.wrapping_mul(10).wrapping_add((c - b'0') as i64);
                self.at += 1;
            }
        }
        if negative { v.wrapping_neg() } else { v }
    }

    fn string(&mut self) -> Option<usize> {
        let mut len = 0usize;
        self.at += 1;
        while self.at < self.p.len() && self.p[self.at] != b'"' {
            let mut c = self.p[self.at];
            self.at += 1;
            if c == b'\\' {
                if self.at >= self.p.len() {
                    self.errors += 1;
                    return None;
                }
                c = match escape(self.p[self.at]) {
                    Some(e) => e,
                    None => {
                        self.errors += 1;
                        b'?'
                    }
                };
                self.at += 1;
            }
            if len + 1 < self.text.len() {
                self.text[len] = c;
                len += 1;
            }
        }
        self.text[len] = 0;
        if self.at >= self.p.len() {
            self.errors += 1;
            return None;
        }
        self.at += 1;
        Some(len)
    }

    fn word(&mut self) -> u32 {
        let d = &self.p[self.at.min(self.p.len())..];
        let n = d.len();
        if n > 0 && d[0] == b'q' {
            if n > 1 && d[1] == b'u' {
                if n > 2 && d[2] == b'i' {
                    if n > 3 && d[3] == b't' {
                        self.at += 4;
                        return 2;
                    }
                }
            }
        }
        if d.starts_with(b"true") {
            self.at += 4;
            self.sum += 1;
            return 1;
        }
        if n >= 5 && d[0] == b'f' && d[1] == b'a' && d[2] == b'l' && d[3] == b's' && d[4] == b'e' {
            self.at += 5;
            return 1;
        }
        self.at += 1;
        self.errors += 1;
        0
    }

    fn token(&mut self) -> bool {
        self.skip_space();
        let c = match self.peek() {
            None => return false,
            Some(c) => c,
        };
        match c {
            b'(' => {
                self.depth += 1;
                self.at += 1;
                true
            }
            b')' => {
                if self.depth == 0 {
                    self.errors += 1;
                } else {
                    self.depth -= 1;
                }
                self.at += 1;
                true
            }
            b'"' => self.string().is_some(),
            b'-' | b'0'..=b'9' => {
                let v = self.number();
                self.sum = self.sum.wrapping_add(v);
                true
            }
            b'#' => {
                while self.at < self.p.len() && self.p[self.at] != b'\n' {
                    self.at += 1;
                }
                true
            }
            _ => self.word() != 2,
        }
    }
}

/// Runs the lexer over `data`; the level of trouble it met.
pub fn lex(data: &[u8]) -> u32 {
    let mut lx = Lexer { p: data, at: 0, sum: 0, errors: 0, depth: 0, text: [0; 32] };
    let mut tokens = 0;
    while lx.token() {
        tokens += 1;
        if tokens > 1000 {
            break;
        }
    }
    let mut level = clamp(lx.errors, 0, 3);
    if lx.depth != 0 {
        level += 1;
    }
    let parity = if lx.sum % 2 == 0 { 0 } else { 1 };
    level + parity
}

libfuzzer_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return Verdict::Reject;
    }
    std::hint::black_box(lex(data));
    Verdict::Pass
});
