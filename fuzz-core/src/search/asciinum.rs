//! Numbers written as text, changed as numbers (fuzz-run `-ascii_num`).
//!
//! Text formats carry their numbers as decimal digits: a JSON number, a
//! SQL `LIMIT 10`, Lua's `string.rep("x", 3)`, a regex's `{2,5}`. Go's
//! byte mutators change one digit at a time or write binary integers over
//! them, so turning `10` into `-1`, `9999999999` or `1e308`'s neighbour
//! takes many lucky draws; the comparison hints only write numbers the
//! target compared against. AFL++ (`MUT_ASCIINUM`, `MUT_INSERTASCIINUM`)
//! and libFuzzer (`ChangeASCIIInteger`) have this mutation; Go has not.
//!
//! [`mutate`] picks a `[]byte` or `string` argument and, in it, a run of
//! decimal digits (with the `-` before it, if any) from a drawn position
//! onwards; it reads the run as a number, changes it (±1, ×2, ÷2, its
//! negation, ± a small amount, a random value of about its size, or a
//! value at a type's edge) and writes it back as decimal text in place of
//! the run, whose length may change. An argument without digits gets a
//! number inserted at a drawn position.

use crate::format::value::Value;
use crate::search::rng::Rng;

/// At most this many digits of a run are read (more would not fit an
/// `i64`); the rest of a longer run is left as it is.
const MAX_DIGITS: usize = 18;

/// Values at the edges of the integer types a parser stores numbers in.
const EDGES: [i64; 16] = [
    0,
    1,
    -1,
    127,
    128,
    255,
    256,
    32_767,
    65_535,
    65_536,
    2_147_483_647,
    2_147_483_648,
    4_294_967_295,
    4_294_967_296,
    i64::MAX,
    i64::MIN + 1,
];

/// Changes one number written as text in one `[]byte` or `string`
/// argument, keeping it at most `max_len` bytes long; false when there is
/// no such argument, no room, or the draw left the text as it was.
pub fn mutate(values: &mut [Value], rng: &mut Rng, max_len: usize) -> bool {
    match crate::search::hints::pick_bytes(values, rng) {
        Some(b) => change_number(b, rng, max_len),
        None => false,
    }
}

/// [`mutate`] on one argument.
fn change_number(b: &mut Vec<u8>, rng: &mut Rng, max_len: usize) -> bool {
    let (start, end, old) = match find_number(b, rng.intn(b.len() + 1)) {
        Some(found) => found,
        None => {
            // No number: one inserted, where the draw says.
            let at = rng.intn(b.len() + 1);
            (at, at, 0)
        }
    };
    let new = changed(old, rng);
    let text = new.to_string();
    if b.len() - (end - start) + text.len() > max_len || b[start..end] == *text.as_bytes() {
        return false;
    }
    b.splice(start..end, text.bytes());
    true
}

/// The first run of digits at or after `from` (wrapping round to the
/// start), with a `-` just before it: its bounds and its value, from at
/// most [`MAX_DIGITS`] digits.
fn find_number(b: &[u8], from: usize) -> Option<(usize, usize, i64)> {
    let first = (from..b.len())
        .chain(0..from.min(b.len()))
        .find(|&i| b[i].is_ascii_digit())?;
    // The whole run: back to its first digit, then forward.
    let mut start = first;
    while start > 0 && b[start - 1].is_ascii_digit() {
        start -= 1;
    }
    let mut end = start;
    while end < b.len() && end - start < MAX_DIGITS && b[end].is_ascii_digit() {
        end += 1;
    }
    let digits = std::str::from_utf8(&b[start..end]).ok()?;
    let mut value: i64 = digits.parse().ok()?;
    if start > 0 && b[start - 1] == b'-' {
        start -= 1;
        value = -value;
    }
    Some((start, end, value))
}

/// A new value for `v`, by one of eight changes drawn with equal chances.
fn changed(v: i64, rng: &mut Rng) -> i64 {
    match rng.intn(8) {
        0 => v.wrapping_add(1),
        1 => v.wrapping_sub(1),
        2 => v.wrapping_mul(2),
        3 => v / 2,
        4 => v.wrapping_neg(),
        5 => v.wrapping_add(1 + rng.intn(256) as i64),
        6 => {
            // A value of about its size, up to ten times it: digits drawn.
            let bound = v.unsigned_abs().saturating_mul(10).max(10);
            let r = (u64::from(rng.uint32()) << 32 | u64::from(rng.uint32())) % bound;
            r as i64
        }
        _ => EDGES[rng.intn(EDGES.len())],
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_run_from_a_position_with_its_sign_and_wraps_round() {
        let b = b"LIMIT -12 OFFSET 345";
        assert_eq!(find_number(b, 0), Some((6, 9, -12)));
        assert_eq!(find_number(b, 8), Some((6, 9, -12)));
        assert_eq!(find_number(b, 9), Some((17, 20, 345)));
        assert_eq!(find_number(b, 19), Some((17, 20, 345)));
        assert_eq!(find_number(b, 20), Some((6, 9, -12)));
        assert_eq!(find_number(b"no digits", 3), None);
        assert_eq!(find_number(b"", 0), None);
        // A run longer than an i64 holds is read from its first digits.
        let long = b"x12345678901234567890123";
        assert_eq!(find_number(long, 0), Some((1, 19, 123_456_789_012_345_678)));
    }

    #[test]
    fn rewrites_a_number_in_place_as_text() {
        let mut rng = Rng::new(7);
        let mut seen = std::collections::HashSet::new();
        for _ in 0..5_000 {
            let mut b = b"[10,\"x\"]".to_vec();
            if change_number(&mut b, &mut rng, 64) {
                let s = String::from_utf8(b).unwrap();
                let inner = s
                    .strip_prefix('[')
                    .unwrap()
                    .strip_suffix(",\"x\"]")
                    .unwrap();
                let n: i64 = inner.parse().unwrap_or_else(|_| panic!("{s}"));
                seen.insert(n);
            }
        }
        // Every change shows up: ±1, ×2, ÷2, negation, edges.
        for n in [11, 9, 20, 5, -10, 0, 255, 65_536, i64::MAX] {
            assert!(seen.contains(&n), "{n} never written: {seen:?}");
        }
    }

    #[test]
    fn inserts_a_number_into_text_without_one_and_keeps_max_len() {
        let mut rng = Rng::new(1);
        let mut inserted = 0;
        for _ in 0..200 {
            let mut b = b"abc".to_vec();
            if change_number(&mut b, &mut rng, 8) {
                assert!(b.len() <= 8, "{b:?}");
                assert!(b.iter().any(u8::is_ascii_digit));
                inserted += 1;
            }
        }
        assert!(inserted > 100, "{inserted}");
        // No room: the text is left alone.
        let mut b = b"abc".to_vec();
        for _ in 0..200 {
            assert!(!change_number(&mut b, &mut rng, 3));
            assert_eq!(b, b"abc");
        }
    }

    #[test]
    fn never_panics_and_never_passes_max_len() {
        let mut rng = Rng::new(3);
        for n in 0..5_000u32 {
            let len = (n % 24) as usize;
            let b: Vec<u8> = (0..len).map(|_| b"0123456789-x9"[rng.intn(13)]).collect();
            let max_len = len + (n % 5) as usize;
            let mut values = [Value::Bytes(b.clone())];
            mutate(&mut values, &mut rng, max_len);
            let Value::Bytes(after) = &values[0] else {
                unreachable!()
            };
            assert!(after.len() <= max_len, "{b:?} -> {after:?}");
        }
        assert!(!mutate(&mut [], &mut rng, 10));
        assert!(!mutate(&mut [Value::Int(3)], &mut rng, 10));
    }
}
