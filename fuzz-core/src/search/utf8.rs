//! Whole characters written into text: a mutation for targets that read
//! their input as UTF-8 (fuzz-run `-utf8 1`; off by default).
//!
//! A target that takes text (Rust's `str::from_utf8`, a `string` argument
//! that must be valid, a parser of UTF-8 source) rejects an input with a
//! broken multi-byte sequence before it does anything. Byte mutators
//! write a given character outside ASCII only by drawing its two to four
//! bytes in order (one chance in 65,536 for a two-byte one): in the
//! 600-second runs of the bench suite's regex target, no input fuzz-run
//! or libFuzzer kept held `é`, `Ж` or `日`, while the haystack the
//! patterns run over holds them, and AFL++'s inputs that matched them
//! reached code none of ours did.
//!
//! [`mutate`] writes one character, drawn with equal chances among the
//! two-, three- and four-byte encodings and uniformly within each (never
//! a surrogate), into a `[]byte` or `string` argument that is valid UTF-8,
//! at a character boundary: inserted, or in place of the character
//! there. An argument that is not valid UTF-8 is binary data: it is left
//! to the byte mutators. It is not a default because text whose grammar
//! is ASCII gains nothing from it and loses the mutations it takes
//! (SQLite and serde_json lose coverage; bench/README.md).

use crate::format::value::Value;
use crate::search::rng::Rng;

/// Writes one character into one `[]byte` or `string` argument holding
/// valid UTF-8, so that it stays valid and at most `max_len` bytes long;
/// false when there is none such, or no room.
pub fn mutate(values: &mut [Value], rng: &mut Rng, max_len: usize) -> bool {
    match crate::search::hints::pick_bytes(values, rng) {
        Some(b) => write_char(b, rng, max_len),
        None => false,
    }
}

/// [`mutate`] on one argument.
fn write_char(b: &mut Vec<u8>, rng: &mut Rng, max_len: usize) -> bool {
    if std::str::from_utf8(b).is_err() {
        return false;
    }
    let mut buf = [0u8; 4];
    let c = random_char(rng).encode_utf8(&mut buf).as_bytes();
    // A character boundary: a drawn position, moved back past
    // continuation bytes.
    let mut at = rng.intn(b.len() + 1);
    while at < b.len() && b[at] & 0xc0 == 0x80 {
        at -= 1;
    }
    let old = if at < b.len() { char_len(b[at]) } else { 0 };
    let insert = b.len() + c.len() <= max_len && (old == 0 || rng.bool());
    if insert {
        b.splice(at..at, c.iter().copied());
    } else if old > 0 && b.len() - old + c.len() <= max_len {
        b.splice(at..at + old, c.iter().copied());
    } else {
        return false;
    }
    true
}

/// A character of two, three or four bytes in UTF-8 (one chance in three
/// each), uniformly drawn among those.
fn random_char(rng: &mut Rng) -> char {
    let v = match rng.intn(3) {
        0 => 0x80 + rng.uint32n(0x800 - 0x80),
        // The surrogates (U+D800..U+DFFF) are not characters: draw among
        // the others and step over them.
        1 => match 0x800 + rng.uint32n(0x10000 - 0x800 - 0x800) {
            v if v >= 0xd800 => v + 0x800,
            v => v,
        },
        _ => 0x10000 + rng.uint32n(0x110000 - 0x10000),
    };
    char::from_u32(v).expect("a scalar value")
}

/// The length of the UTF-8 sequence led by `lead` (valid text assumed).
fn char_len(lead: u8) -> usize {
    match lead {
        0x00..=0x7f => 1,
        0xc0..=0xdf => 2,
        0xe0..=0xef => 3,
        _ => 4,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn text_stays_text_and_gains_a_wide_character() {
        let mut rng = Rng::new(1);
        let mut lengths = [0usize; 5];
        for i in 0..3000 {
            let mut v = vec![Value::String("aé日😀z".as_bytes().to_vec())];
            let before = v[0].as_bytes().unwrap().to_vec();
            assert!(mutate(&mut v, &mut rng, 64), "draw {i}");
            let after = v[0].as_bytes().unwrap();
            let text = std::str::from_utf8(after).expect("still UTF-8");
            assert_ne!(after, &before[..]);
            let was: Vec<char> = std::str::from_utf8(&before).unwrap().chars().collect();
            let now: Vec<char> = text.chars().collect();
            // Exactly one character inserted, or one replaced.
            let head = now.iter().zip(&was).take_while(|(a, b)| a == b).count();
            let added = now[head];
            if now.len() == was.len() + 1 {
                assert_eq!(now[head + 1..], was[head..], "{text:?}");
            } else {
                assert_eq!(now.len(), was.len(), "{text:?}");
                assert_eq!(now[head + 1..], was[head + 1..], "{text:?}");
            }
            lengths[added.len_utf8()] += 1;
        }
        assert_eq!(lengths[0] + lengths[1], 0);
        for n in 2..=4 {
            assert!((800..1200).contains(&lengths[n]), "{lengths:?}");
        }
    }

    #[test]
    fn surrogates_are_stepped_over_and_every_range_is_reached() {
        let mut rng = Rng::new(7);
        let (mut low, mut high) = (false, false);
        for _ in 0..200_000 {
            let c = random_char(&mut rng) as u32;
            assert!(c >= 0x80 && !(0xd800..0xe000).contains(&c));
            low |= (0xd000..0xd800).contains(&c);
            high |= (0xe000..0xe800).contains(&c);
        }
        assert!(low && high);
    }

    #[test]
    fn binary_data_and_no_room_are_left_alone() {
        let mut rng = Rng::new(3);
        let mut v = vec![Value::Bytes(vec![b'a', 0xff, b'b'])];
        let mut n = vec![Value::Int(4)];
        let mut full = vec![Value::Bytes(b"abc".to_vec())];
        for _ in 0..100 {
            assert!(!mutate(&mut v, &mut rng, 64));
            assert!(!mutate(&mut n, &mut rng, 64));
            // Three ASCII bytes at most 3 long: no wide character fits.
            assert!(!mutate(&mut full, &mut rng, 3));
        }
        assert_eq!(v[0].as_bytes(), Some(&[b'a', 0xff, b'b'][..]));
        assert_eq!(full[0].as_bytes(), Some(&b"abc"[..]));
    }

    #[test]
    fn an_empty_argument_gets_one_character() {
        let mut rng = Rng::new(5);
        let mut v = vec![Value::Bytes(Vec::new())];
        assert!(mutate(&mut v, &mut rng, 8));
        let s = std::str::from_utf8(v[0].as_bytes().unwrap()).unwrap();
        assert_eq!(s.chars().count(), 1);
    }
}
