//! Fields of a list moved as wholes: a mutation for targets whose text
//! holds lists with a separator (fuzz-run `-fields`).
//!
//! Much input is a list: a regular expression's alternation (`cat|dog`),
//! SQL's columns and values (`a, b, c`), a query string (`a=1&b=2`), a
//! path, words. What the target does often depends on how many items a
//! list has and which ones sit together (a regex with three literals or
//! more takes another searcher than one with two), and the byte mutators
//! make a list longer only one byte at a time or by copying bytes at
//! random offsets.
//!
//! [`mutate`] picks a separator that the `[]byte` or `string` argument
//! holds (one of [`SEPARATORS`]), splits the argument at it, and changes
//! the list one of four ways, with fields from another corpus entry (the
//! donor, split at the same separator: a donor without it is one field,
//! as a whole other pattern becomes one more alternative) or from the
//! input itself:
//! - a field inserted before another or as a new last one,
//! - a field replaced by another,
//! - a field removed,
//! - a field written again right after itself.
//!
//! The separators are kept (a field inserted brings one), so the rest of
//! the list stays as it was. An argument without any of the separators is
//! left alone (false): one field is the byte mutators' work. So is an
//! argument that is not text (not valid UTF-8): compressed or other binary
//! input holds a separator byte almost always, and splitting and joining
//! it at one is a costly random splice there (it halved zlib's executions
//! per second); and a donor that is not text gives no fields (the
//! argument's own fields move instead). `-lines` does the same for lines,
//! with what lines need besides.

use crate::format::value::Value;
use crate::search::rng::Rng;

/// The bytes [`mutate`] splits at, those lists are most often written
/// with.
pub const SEPARATORS: &[u8] = b"|,;& /:\t";

/// One field mutation of one `[]byte` or `string` argument of `values`,
/// with fields from the same argument of `donor` (or from the input
/// itself when there is no donor, or by a coin's toss), so that it stays
/// at most `max_len` bytes long; false when nothing changed.
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

/// The four ways of [`mutate_bytes`].
#[derive(Clone, Copy, Debug, PartialEq)]
enum Way {
    Insert,
    Replace,
    Remove,
    Repeat,
}

/// [`mutate`] on one argument: fields from `donor` (when it is text), or
/// from `b` itself; false, and `b` left alone, when `b` is not text.
pub fn mutate_bytes(b: &mut Vec<u8>, donor: Option<&[u8]>, rng: &mut Rng, max_len: usize) -> bool {
    // Binary input fails within its first bytes, mostly.
    let Some(donor) = crate::search::hints::text_donor(b, donor) else {
        return false;
    };
    mutate_way(b, donor, rng, max_len, |rng| match rng.intn(4) {
        0 => Way::Insert,
        1 => Way::Replace,
        2 => Way::Remove,
        _ => Way::Repeat,
    })
}

/// [`mutate_bytes`] the way `way` draws (after the separator, the field
/// and the place).
fn mutate_way(
    b: &mut Vec<u8>,
    donor: Option<&[u8]>,
    rng: &mut Rng,
    max_len: usize,
    way: impl FnOnce(&mut Rng) -> Way,
) -> bool {
    let Some(sep) = pick_separator(b, rng) else {
        return false;
    };
    let mut fields: Vec<&[u8]> = b.split(|&c| c == sep).collect();
    let field = match donor {
        Some(d) => {
            let theirs: Vec<&[u8]> = d.split(|&c| c == sep).collect();
            theirs[rng.intn(theirs.len())]
        }
        None => fields[rng.intn(fields.len())],
    };
    let k = rng.intn(fields.len());
    match way(rng) {
        Way::Insert => {
            if b.len() + field.len() + 1 > max_len {
                return false;
            }
            let at = rng.intn(fields.len() + 1);
            fields.insert(at, field);
        }
        Way::Replace => {
            if fields[k] == field || b.len() - fields[k].len() + field.len() > max_len {
                return false;
            }
            fields[k] = field;
        }
        // The separator is there: at least two fields, one is left.
        Way::Remove => {
            fields.remove(k);
        }
        Way::Repeat => {
            if b.len() + fields[k].len() + 1 > max_len {
                return false;
            }
            fields.insert(k, fields[k]);
        }
    }
    let joined = fields.join(&sep);
    // Every way changes the list: one separator more or fewer, or another
    // field in place of one.
    debug_assert!(joined != *b);
    *b = joined;
    true
}

/// One of [`SEPARATORS`] that `b` holds, drawn uniformly among them (in
/// one pass over `b`).
fn pick_separator(b: &[u8], rng: &mut Rng) -> Option<u8> {
    let mut held = [false; 256];
    for &c in b {
        held[c as usize] = true;
    }
    let mut present = [0u8; SEPARATORS.len()];
    let mut n = 0;
    for &s in SEPARATORS.iter().filter(|&&s| held[s as usize]) {
        present[n] = s;
        n += 1;
    }
    (n > 0).then(|| present[rng.intn(n)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::{any, prop_assert, prop_assert_eq, proptest};

    /// Bytes of lists: letters and every separator.
    fn list_byte() -> impl proptest::strategy::Strategy<Value = u8> {
        crate::search::mostly_text(b"ab|,;& /:\t")
    }

    fn fields_of(b: &[u8]) -> Vec<&[u8]> {
        b.split(|&c| c == b'|').collect()
    }

    #[test]
    fn an_argument_without_a_separator_is_left_alone() {
        let mut rng = Rng::new(1);
        for _ in 0..100 {
            let mut b = b"abcdef".to_vec();
            assert!(!mutate_bytes(&mut b, Some(b"x|y"), &mut rng, 100));
            assert_eq!(b, b"abcdef");
        }
    }

    #[test]
    fn an_argument_that_is_not_text_is_left_alone() {
        // A zlib stream's header (0x78 0x9c) and separator bytes further
        // on: binary, so no field of it moves.
        let mut rng = Rng::new(2);
        for _ in 0..100 {
            let mut b = b"\x78\x9c|,; /:&\tab".to_vec();
            let before = b.clone();
            assert!(!mutate_bytes(&mut b, Some(b"x|y"), &mut rng, 100));
            assert_eq!(b, before);
        }
        // Text beyond ASCII is text: `é|ü` grows, shrinks or changes; a
        // donor that is not text gives none of its fields.
        let mut changed = false;
        for _ in 0..100 {
            let mut b = "é|ü".as_bytes().to_vec();
            changed |= mutate_bytes(&mut b, Some(b"\xff|\xfe"), &mut rng, 100);
            assert!(std::str::from_utf8(&b).is_ok(), "{b:?}");
        }
        assert!(changed);
    }

    #[test]
    fn an_alternation_grows_by_whole_literals_of_the_donor() {
        // From `cat|dog` and a donor `fox|owl`, some mutation makes a list
        // of three whole literals with one of the donor's among them.
        let mut rng = Rng::new(7);
        let mut seen_three = false;
        for _ in 0..200 {
            let mut b = b"cat|dog".to_vec();
            if mutate_bytes(&mut b, Some(b"fox|owl"), &mut rng, 100) {
                let f = fields_of(&b);
                assert!(f
                    .iter()
                    .all(|x| [&b"cat"[..], b"dog", b"fox", b"owl"].contains(x)));
                seen_three |= f.len() == 3 && f.iter().any(|&x| x == b"fox" || x == b"owl");
            }
        }
        assert!(seen_three);
    }

    #[test]
    fn each_way_does_what_it_says() {
        let mut rng = Rng::new(3);
        for _ in 0..200 {
            let before = b"a|bb|c".to_vec();
            let old = fields_of(&before);
            let mut b = before.clone();
            assert!(mutate_way(&mut b, Some(b"x|yy"), &mut rng, 100, |_| {
                Way::Insert
            }));
            let new = fields_of(&b);
            assert_eq!(new.len(), 4, "{b:?}");
            // The old fields in their order, and one of the donor's.
            let kept: Vec<_> = new.iter().filter(|&&f| old.contains(&f)).copied().collect();
            assert_eq!(kept, old);
            assert!(new.iter().any(|&f| f == b"x" || f == b"yy"), "{b:?}");

            let mut b = before.clone();
            if mutate_way(&mut b, Some(b"x|yy"), &mut rng, 100, |_| Way::Replace) {
                let new = fields_of(&b);
                assert_eq!(new.len(), 3);
                let changed = (0..3).filter(|&i| new[i] != old[i]).count();
                assert_eq!(changed, 1, "{b:?}");
            }

            let mut b = before.clone();
            assert!(mutate_way(&mut b, None, &mut rng, 100, |_| Way::Remove));
            assert_eq!(fields_of(&b).len(), 2);
            assert!(fields_of(&b).iter().all(|f| old.contains(f)));

            let mut b = before.clone();
            assert!(mutate_way(&mut b, None, &mut rng, 100, |_| Way::Repeat));
            let new = fields_of(&b);
            assert_eq!(new.len(), 4);
            assert!(new.windows(2).any(|w| w[0] == w[1]), "{b:?}");
            let mut dedup = new.clone();
            dedup.dedup();
            assert_eq!(dedup, old);
        }
    }

    #[test]
    fn a_donor_without_the_separator_is_one_field() {
        // `a|b` with a donor split only at commas: the donor comes in
        // whole, as one more alternative, or not at all.
        let mut rng = Rng::new(5);
        let mut whole = false;
        for _ in 0..200 {
            let mut b = b"a|b".to_vec();
            if mutate_bytes(&mut b, Some(b"x,y"), &mut rng, 100) {
                let f = fields_of(&b);
                assert!(
                    f.iter().all(|&f| [&b"a"[..], b"b", b"x,y"].contains(&f)),
                    "{b:?}"
                );
                whole |= f.contains(&&b"x,y"[..]);
            }
        }
        assert!(whole);
    }

    proptest! {
        #[test]
        fn never_longer_than_max_len_and_unchanged_when_false(
            b in proptest::collection::vec(list_byte(), 0..40),
            d in proptest::collection::vec(list_byte(), 0..40),
            max_len in 0usize..48,
            seed in any::<u64>(),
            with_donor in any::<bool>(),
        ) {
            let mut rng = Rng::new(seed);
            let mut v = b.clone();
            v.truncate(max_len);
            let before = v.clone();
            let donor = with_donor.then_some(&d[..]);
            let changed = mutate_bytes(&mut v, donor, &mut rng, max_len);
            prop_assert!(v.len() <= max_len.max(before.len()));
            if changed {
                prop_assert!(v != before);
            } else {
                prop_assert_eq!(&v, &before);
            }
            // An argument already longer than max_len never grows.
            let mut long = b.clone();
            let len = long.len();
            mutate_bytes(&mut long, Some(&d), &mut rng, len / 2);
            prop_assert!(long.len() <= len);
            let mut values = vec![Value::Int(3), Value::String(b.clone()), Value::Bytes(d.clone())];
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
