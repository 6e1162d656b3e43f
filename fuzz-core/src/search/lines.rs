//! Lines moved as wholes: a mutation for targets that read text made of
//! lines (fuzz-run `-lines`).
//!
//! Much text is block-structured: what a line means depends on how it
//! starts and on the lines around it (Markdown's quotes, lists and
//! definitions, YAML's indentation, TOML's tables, INI's sections, a
//! patch's hunks). A bug there wants a few short lines of the right kinds
//! together (`>m`, `>:` and an empty line), each of which the fuzzer may
//! already hold in some entry, but the byte mutators join pieces of
//! entries only at random offsets and move a line only as bytes that
//! happen to span it.
//!
//! [`mutate`] changes one `[]byte` or `string` argument a line at a time,
//! taking lines from another corpus entry (the donor) or from the input
//! itself, one of four ways:
//! - a donor's line inserted at the start of a line (or as a new last
//!   line),
//! - a line replaced by a donor's line,
//! - a line removed,
//! - the start of a donor's line, its leading blanks and punctuation
//!   (`> `, `- `, `  `, `#`, `:`; at most [`MAX_PREFIX`] bytes), written
//!   before a line, so that a line takes the kind of another.
//!
//! A line is the bytes up to and including a `\n`, or the bytes after the
//! last one. A line moved keeps its `\n` (one is added when it had none),
//! so the lines around it stay lines. An argument that neither it nor its
//! donor holds a `\n` in is left alone (false): one line is the byte
//! mutators' work. So is an argument that is not text (not valid UTF-8):
//! binary input holds a `\n` byte often, and moving "lines" of it is a
//! costly random splice (on zlib, -lines ran at about two thirds of the
//! default's executions per second until this guard, as `-fields` did);
//! and a donor that is not text gives no lines (the argument's own lines
//! move instead).

use crate::format::value::Value;
use crate::search::rng::Rng;
use std::ops::Range;

/// The longest line start [`mutate`] copies.
pub const MAX_PREFIX: usize = 8;

/// One line mutation of one `[]byte` or `string` argument of `values`,
/// with lines from the same argument of `donor` (or from the input itself
/// when there is no donor, or by a coin's toss), so that it stays at most
/// `max_len` bytes long; false when nothing changed.
pub fn mutate(
    values: &mut [Value],
    donor: Option<&[Value]>,
    rng: &mut Rng,
    max_len: usize,
) -> bool {
    crate::search::hints::with_donor_bytes(values, donor, rng, |b, d, rng| {
        mutate_bytes(b, d, rng, max_len)
    })
}

/// [`mutate`] on one argument: lines from `donor` (when it is text), or
/// from `b` itself; false, and `b` left alone, when `b` is not text.
pub fn mutate_bytes(b: &mut Vec<u8>, donor: Option<&[u8]>, rng: &mut Rng, max_len: usize) -> bool {
    let Some(donor) = crate::search::hints::text_donor(b, donor) else {
        return false;
    };
    let has_lines = |x: &[u8]| x.contains(&b'\n');
    if !has_lines(b) && !donor.is_some_and(has_lines) {
        return false;
    }
    let own;
    let src: &[u8] = match donor {
        Some(d) => d,
        None => {
            own = b.clone();
            &own
        }
    };
    match rng.intn(4) {
        0 => {
            let line = pick_line(src, rng);
            let at = pick_start(b, rng);
            insert_line(b, at, &src[line], max_len)
        }
        1 => {
            if b.is_empty() {
                return false;
            }
            let line = pick_line(src, rng);
            let old = pick_line(b, rng);
            let mut new = src[line].to_vec();
            if !new.ends_with(b"\n") && b[old.clone()].ends_with(b"\n") {
                new.push(b'\n');
            }
            if new == b[old.clone()] || b.len() - old.len() + new.len() > max_len {
                return false;
            }
            b.splice(old, new);
            true
        }
        2 => {
            if b.is_empty() {
                return false;
            }
            let old = pick_line(b, rng);
            b.drain(old);
            true
        }
        _ => {
            let line = pick_line(src, rng);
            let start = &src[line];
            let n = start
                .iter()
                .take(MAX_PREFIX)
                .take_while(|&&c| {
                    c != b'\n' && (c == b' ' || c == b'\t' || c.is_ascii_punctuation())
                })
                .count();
            if n == 0 || b.len() + n > max_len {
                return false;
            }
            let at = pick_start(b, rng);
            b.splice(at..at, start[..n].iter().copied());
            true
        }
    }
}

/// Inserts `line` at `at` (a line start of `b`, or its end) as a line of
/// its own: with a `\n` after it unless it goes last, and one before it
/// when `b`'s last line has none.
fn insert_line(b: &mut Vec<u8>, at: usize, line: &[u8], max_len: usize) -> bool {
    let mut new = Vec::with_capacity(line.len() + 2);
    if at == b.len() && !b.is_empty() && !b.ends_with(b"\n") {
        new.push(b'\n');
    }
    new.extend_from_slice(line);
    if at < b.len() && !new.ends_with(b"\n") {
        new.push(b'\n');
    }
    if new.is_empty() || b.len() + new.len() > max_len {
        return false;
    }
    b.splice(at..at, new);
    true
}

/// The number of lines of `b`: one per `\n`, and one more for bytes after
/// the last.
fn count_lines(b: &[u8]) -> usize {
    let newlines = b.iter().filter(|&&c| c == b'\n').count();
    newlines + usize::from(!b.is_empty() && !b.ends_with(b"\n"))
}

/// A line of `b` drawn uniformly, with its `\n`; empty when `b` is.
fn pick_line(b: &[u8], rng: &mut Rng) -> Range<usize> {
    let n = count_lines(b);
    if n == 0 {
        return 0..0;
    }
    let k = rng.intn(n);
    let start = nth_start(b, k);
    let end = b[start..]
        .iter()
        .position(|&c| c == b'\n')
        .map_or(b.len(), |p| start + p + 1);
    start..end
}

/// Where a line may go in `b`: the start of one of its lines, or its end,
/// drawn uniformly.
fn pick_start(b: &[u8], rng: &mut Rng) -> usize {
    let n = count_lines(b);
    let k = rng.intn(n + 1);
    if k == n {
        b.len()
    } else {
        nth_start(b, k)
    }
}

/// The offset of line `k` of `b` (`k` below [`count_lines`]).
fn nth_start(b: &[u8], k: usize) -> usize {
    if k == 0 {
        return 0;
    }
    b.iter()
        .enumerate()
        .filter(|&(_, &c)| c == b'\n')
        .nth(k - 1)
        .map_or(b.len(), |(i, _)| i + 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::rng::Rng;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest};

    fn lines_of(b: &[u8]) -> Vec<&[u8]> {
        b.split_inclusive(|&c| c == b'\n').collect()
    }

    #[test]
    fn lines_are_counted_and_found() {
        assert_eq!(count_lines(b""), 0);
        assert_eq!(count_lines(b"a"), 1);
        assert_eq!(count_lines(b"a\n"), 1);
        assert_eq!(count_lines(b"a\nb"), 2);
        assert_eq!(count_lines(b"\n\n"), 2);
        assert_eq!(nth_start(b"ab\ncd\nef", 0), 0);
        assert_eq!(nth_start(b"ab\ncd\nef", 1), 3);
        assert_eq!(nth_start(b"ab\ncd\nef", 2), 6);
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let r = pick_line(b"ab\ncd\nef", &mut rng);
            assert!([0..3, 3..6, 6..8].contains(&r), "{r:?}");
        }
    }

    #[test]
    fn a_quote_and_a_definition_line_meet() {
        // The pulldown-cmark 0.12.2 panic (bench/realbugs/text): ">m\n>:\n\n"
        // from an entry holding ">m\n\n" and a donor holding ":\n": a
        // donor's line inserted, then a quote's start written before it.
        let mut rng = Rng::new(7);
        let mut seen = false;
        for _ in 0..20_000 {
            let mut b = b">m\n\n".to_vec();
            mutate_bytes(&mut b, Some(b":\n"), &mut rng, 64);
            let d = b.clone();
            mutate_bytes(&mut b, Some(&d), &mut rng, 64);
            seen |= b == b">m\n>:\n\n";
        }
        assert!(seen);
    }

    #[test]
    fn a_single_line_argument_without_a_donor_is_left_alone() {
        let mut rng = Rng::new(3);
        for _ in 0..100 {
            let mut b = b"no newline here".to_vec();
            assert!(!mutate_bytes(&mut b, None, &mut rng, 100));
            assert!(!mutate_bytes(&mut b, Some(b"nor here"), &mut rng, 100));
            assert_eq!(b, b"no newline here");
        }
        let mut numbers = vec![Value::Int(1), Value::Bool(true)];
        assert!(!mutate(&mut numbers, None, &mut rng, 100));
    }

    #[test]
    fn a_moved_line_stays_a_line() {
        let mut rng = Rng::new(11);
        for _ in 0..2000 {
            let mut b = b"one\ntwo".to_vec();
            if mutate_bytes(&mut b, Some(b"x\ny\n"), &mut rng, 100) {
                // Every line of the result is a line of either, whole, or
                // a line with a copied start (blanks and punctuation only).
                for line in lines_of(&b) {
                    let body = line.strip_suffix(b"\n").unwrap_or(line);
                    assert!(
                        [&b"one"[..], b"two", b"x", b"y"].contains(&body),
                        "{:?} in {:?}",
                        String::from_utf8_lossy(line),
                        String::from_utf8_lossy(&b)
                    );
                }
            }
        }
    }

    /// Bytes of lines: letters, line starts, the newline.
    fn line_byte() -> impl proptest::strategy::Strategy<Value = u8> {
        crate::search::mostly_text(b"ab> -#:\n\n")
    }

    #[test]
    fn an_argument_that_is_not_text_is_left_alone() {
        let mut rng = Rng::new(2);
        for _ in 0..100 {
            let mut b = b"\x78\x9c\na\nb\n".to_vec();
            let before = b.clone();
            assert!(!mutate_bytes(&mut b, Some(b"x\ny\n"), &mut rng, 100));
            assert_eq!(b, before);
        }
        // Text beyond ASCII is text; a donor that is not text gives none
        // of its lines (here its only line, "\xff\n").
        let mut changed = false;
        for _ in 0..200 {
            let mut b = "é\nü\n".as_bytes().to_vec();
            changed |= mutate_bytes(&mut b, Some(b"\xff\n"), &mut rng, 100);
            assert!(std::str::from_utf8(&b).is_ok(), "{b:?}");
        }
        assert!(changed);
    }

    proptest! {
        #[test]
        fn never_longer_than_max_len(
            b in proptest::collection::vec(line_byte(), 0..40),
            d in proptest::collection::vec(line_byte(), 0..40),
            max_len in 0usize..48,
            seed in any::<u64>(),
        ) {
            let mut rng = Rng::new(seed);
            let mut v = b.clone();
            v.truncate(max_len);
            let before = v.len();
            let changed = mutate_bytes(&mut v, Some(&d), &mut rng, max_len);
            prop_assert!(v.len() <= max_len.max(before));
            if !changed {
                prop_assert_eq!(&v[..], &b[..before]);
            }
            let mut values = vec![Value::Int(3), Value::String(v), Value::Bytes(d.clone())];
            let donor = values.clone();
            mutate(&mut values, Some(&donor), &mut rng, max_len);
            for value in &values {
                if let Value::Bytes(x) | Value::String(x) = value {
                    prop_assert!(x.len() <= max_len.max(40));
                }
            }
        }
    }
}
