//! Dictionaries in the AFL/libFuzzer format (`-dict FILE`): one quoted
//! word per line, optionally named (`kw_if="if"`), with `\\`, `\"` and
//! `\xNN` escapes; `#` starts a comment line; blank lines are skipped. The
//! mutator writes these words into inputs (see `hints.rs`), which finds
//! keywords no comparison operand reveals; [`place`] is where a word goes,
//! for the fuzzing loop and `LLVMFuzzerMutate` alike.

use crate::error::{Error, Result};
use crate::search::rng::Draw;

/// Where a word goes in an input.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Placement {
    /// Written over the input's bytes from this offset (the input keeps
    /// its length).
    Over(usize),
    /// Inserted at this offset (the input grows by the word's length).
    Insert(usize),
}

/// Where a word of `word_len` bytes goes in an input of `len` bytes that
/// may grow to `max_len`: over its bytes half of the time when it is long
/// enough, else inserted when there is room; None when it fits neither
/// way, or the word is empty.
pub fn place(
    len: usize,
    word_len: usize,
    max_len: usize,
    rng: &mut impl Draw,
) -> Option<Placement> {
    if word_len == 0 {
        return None;
    }
    if len >= word_len && rng.coin() {
        return Some(Placement::Over(rng.below(len - word_len + 1)));
    }
    if len + word_len > max_len {
        return None;
    }
    Some(Placement::Insert(rng.below(len + 1)))
}

impl Placement {
    /// Writes `word` into `data` here.
    pub fn apply(self, data: &mut Vec<u8>, word: &[u8]) {
        match self {
            Placement::Over(at) => data[at..at + word.len()].copy_from_slice(word),
            Placement::Insert(at) => {
                data.splice(at..at, word.iter().copied());
            }
        }
    }

    /// Writes `word` into the first `len` bytes of `buf`, which has room
    /// for the result; returns the new length.
    pub fn apply_in(self, buf: &mut [u8], len: usize, word: &[u8]) -> usize {
        match self {
            Placement::Over(at) => {
                buf[at..at + word.len()].copy_from_slice(word);
                len
            }
            Placement::Insert(at) => {
                buf.copy_within(at..len, at + word.len());
                buf[at..at + word.len()].copy_from_slice(word);
                len + word.len()
            }
        }
    }
}

/// Parses a dictionary; an error names the line.
pub fn parse(text: &[u8]) -> Result<Vec<Vec<u8>>> {
    let mut words = Vec::new();
    for (i, raw) in text.split(|&b| b == b'\n').enumerate() {
        let line_no = i + 1;
        let line = trim(raw);
        if line.is_empty() || line[0] == b'#' {
            continue;
        }
        let err = |reason: &str| Error::Codec {
            path: None,
            line: line_no,
            reason: reason.to_string(),
        };
        let start = line
            .iter()
            .position(|&b| b == b'"')
            .ok_or_else(|| err("expected a quoted word, like \"word\" or name=\"word\""))?;
        let name = trim(&line[..start]);
        if !name.is_empty() {
            let name = name
                .strip_suffix(b"=")
                .map(trim)
                .ok_or_else(|| err("expected name=\"word\": a name must be followed by '='"))?;
            let ok = !name.is_empty()
                && name
                    .iter()
                    .all(|&b| b.is_ascii_alphanumeric() || b == b'_' || b == b'@');
            if !ok {
                return Err(err(
                    "a word's name may hold letters, digits, '_' and '@' only",
                ));
            }
        }
        let body = &line[start + 1..];
        let end = body
            .iter()
            .rposition(|&b| b == b'"')
            .ok_or_else(|| err("the word's closing quote is missing"))?;
        if !trim(&body[end + 1..]).is_empty() {
            return Err(err("unexpected text after the closing quote"));
        }
        let word = unescape(&body[..end]).map_err(|r| err(&r))?;
        if word.is_empty() {
            return Err(err("empty word"));
        }
        words.push(word);
    }
    Ok(words)
}

fn trim(mut b: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = b {
        if first.is_ascii_whitespace() {
            b = rest;
        } else {
            break;
        }
    }
    while let [rest @ .., last] = b {
        if last.is_ascii_whitespace() {
            b = rest;
        } else {
            break;
        }
    }
    b
}

fn unescape(s: &[u8]) -> std::result::Result<Vec<u8>, String> {
    let mut out = Vec::with_capacity(s.len());
    let mut i = 0;
    while i < s.len() {
        match s[i] {
            b'\\' => {
                match s.get(i + 1) {
                    Some(b'\\') => out.push(b'\\'),
                    Some(b'"') => out.push(b'"'),
                    Some(b'x') => {
                        let hex = s
                            .get(i + 2..i + 4)
                            .and_then(|h| std::str::from_utf8(h).ok())
                            .and_then(|h| u8::from_str_radix(h, 16).ok())
                            .ok_or("\\x needs two hex digits")?;
                        out.push(hex);
                        i += 2;
                    }
                    _ => return Err("unknown escape: use \\\\, \\\" or \\xNN".into()),
                }
                i += 2;
            }
            b'"' => return Err("an unescaped quote inside the word".into()),
            b => {
                out.push(b);
                i += 1;
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::rng::Rng;

    #[test]
    fn words_go_over_or_in_and_never_past_max_len() {
        let mut rng = Rng::new(1);
        let (mut over, mut insert) = (0, 0);
        for _ in 0..1000 {
            let mut data = b"0123456789".to_vec();
            let mut buf = [0u8; 16];
            buf[..10].copy_from_slice(&data);
            match place(10, 4, 16, &mut rng) {
                Some(p @ Placement::Over(_)) => {
                    over += 1;
                    p.apply(&mut data, b"WORD");
                    assert_eq!(p.apply_in(&mut buf, 10, b"WORD"), 10);
                }
                Some(p @ Placement::Insert(_)) => {
                    insert += 1;
                    p.apply(&mut data, b"WORD");
                    assert_eq!(p.apply_in(&mut buf, 10, b"WORD"), 14);
                }
                None => unreachable!("a word that fits either way"),
            }
            assert_eq!(data, buf[..data.len()]);
            assert!(data.windows(4).any(|w| w == b"WORD"));
        }
        assert!(over > 400 && insert > 400, "{over} over, {insert} inserted");
        // Too long to go over a short input, no room to go in; or empty.
        assert_eq!(place(2, 4, 5, &mut rng), None);
        assert_eq!(place(10, 0, 16, &mut rng), None);
        assert!(matches!(
            place(2, 4, 6, &mut rng),
            Some(Placement::Insert(_))
        ));
    }

    #[test]
    fn afl_and_libfuzzer_syntax() {
        let text = b"# a comment\n\nkw1=\"if\"\n\"\\x00\\xffAB\"\n  kw_2 = \"say \\\"hi\\\"\"  \n\"back\\\\slash\"\n";
        let words = parse(text).unwrap();
        assert_eq!(
            words,
            vec![
                b"if".to_vec(),
                b"\x00\xffAB".to_vec(),
                b"say \"hi\"".to_vec(),
                b"back\\slash".to_vec()
            ]
        );
    }

    #[test]
    fn errors_name_the_line() {
        for (text, line) in [
            (&b"\"ok\"\nnoquotes\n"[..], 2),
            (b"\"ok\"\n\"open\n", 2),
            (b"\"\\q\"\n", 1),
            (b"\"\\x4\"\n", 1),
            (b"name \"x\"\n", 1),
            (b"\"\"\n", 1),
            (b"\"a\" trailing\n", 1),
        ] {
            match parse(text) {
                Err(Error::Codec { line: l, .. }) => assert_eq!(l, line, "{text:?}"),
                other => panic!("{text:?}: {other:?}"),
            }
        }
    }
}
