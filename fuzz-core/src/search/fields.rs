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
//! donor, split at the same separator) or from the input itself:
//! - a field inserted before another or as a new last one,
//! - a field replaced by another,
//! - a field removed,
//! - a field written again right after itself.
//!
//! The separators are kept (a field inserted brings one), so the rest of
//! the list stays as it was. An argument without any of the separators is
//! left alone (false): one field is the byte mutators' work. `-lines` does
//! the same for lines, with what lines need besides.

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
    let Some(i) = crate::search::hints::pick_bytes_index(values, rng) else {
        return false;
    };
    // Entries share their argument types: the donor's is bytes too.
    let from_donor = donor
        .and_then(|d| d.get(i))
        .and_then(Value::as_bytes)
        .filter(|d| !d.is_empty());
    let (Value::Bytes(b) | Value::String(b)) = &mut values[i] else {
        return false;
    };
    match from_donor {
        Some(d) if rng.bool() => mutate_bytes(b, Some(d), rng, max_len),
        _ => mutate_bytes(b, None, rng, max_len),
    }
}

/// [`mutate`] on one argument: fields from `donor`, or from `b` itself.
pub fn mutate_bytes(b: &mut Vec<u8>, donor: Option<&[u8]>, rng: &mut Rng, max_len: usize) -> bool {
    let Some(sep) = pick_separator(b, rng) else {
        return false;
    };
    let own;
    let src: &[u8] = match donor {
        Some(d) => d,
        None => {
            own = b.clone();
            &own
        }
    };
    let theirs: Vec<&[u8]> = src.split(|&c| c == sep).collect();
    let field = theirs[rng.intn(theirs.len())];
    let mut fields: Vec<&[u8]> = b.split(|&c| c == sep).collect();
    let k = rng.intn(fields.len());
    let grows = field.len() + 1;
    match rng.intn(4) {
        0 => {
            if b.len() + grows > max_len {
                return false;
            }
            let at = rng.intn(fields.len() + 1);
            fields.insert(at, field);
        }
        1 => {
            if fields[k] == field || b.len() - fields[k].len() + field.len() > max_len {
                return false;
            }
            fields[k] = field;
        }
        2 => {
            // A list of one field has no separator: never the case here.
            fields.remove(k);
        }
        _ => {
            if b.len() + fields[k].len() + 1 > max_len {
                return false;
            }
            fields.insert(k, fields[k]);
        }
    }
    let joined = fields.join(&sep);
    if joined == *b {
        return false;
    }
    *b = joined;
    true
}

/// One of [`SEPARATORS`] that `b` holds, drawn uniformly among them.
fn pick_separator(b: &[u8], rng: &mut Rng) -> Option<u8> {
    let mut present = [0u8; SEPARATORS.len()];
    let mut n = 0;
    for &s in SEPARATORS {
        if b.contains(&s) {
            present[n] = s;
            n += 1;
        }
    }
    (n > 0).then(|| present[rng.intn(n)])
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::{any, prop_assert, proptest};

    fn fields_of(b: &[u8], sep: u8) -> Vec<Vec<u8>> {
        b.split(|&c| c == sep).map(<[u8]>::to_vec).collect()
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
    fn an_alternation_grows_by_whole_literals_of_the_donor() {
        // From `cat|dog` and a donor `fox|owl`, some mutation makes a list
        // of three whole literals with one of the donor's among them.
        let mut rng = Rng::new(7);
        let mut seen_three = false;
        for _ in 0..200 {
            let mut b = b"cat|dog".to_vec();
            if mutate_bytes(&mut b, Some(b"fox|owl"), &mut rng, 100) {
                let f = fields_of(&b, b'|');
                assert!(f
                    .iter()
                    .all(|x| [&b"cat"[..], b"dog", b"fox", b"owl"].contains(&&x[..])));
                if f.len() == 3 && f.iter().any(|x| x == b"fox" || x == b"owl") {
                    seen_three = true;
                }
            }
        }
        assert!(seen_three);
    }

    #[test]
    fn each_of_the_four_ways_happens() {
        let mut rng = Rng::new(3);
        let (mut longer, mut same, mut shorter, mut doubled) = (false, false, false, false);
        for _ in 0..400 {
            let mut b = b"a, bb, c".to_vec();
            if !mutate_bytes(&mut b, None, &mut rng, 100) {
                continue;
            }
            let before = fields_of(b"a, bb, c", b',');
            let after = fields_of(&b, b',');
            match after.len().cmp(&before.len()) {
                std::cmp::Ordering::Greater => {
                    longer = true;
                    doubled |= after.windows(2).any(|w| w[0] == w[1]);
                }
                std::cmp::Ordering::Equal => same = true,
                std::cmp::Ordering::Less => shorter = true,
            }
        }
        assert!(longer && same && shorter && doubled);
    }

    proptest! {
        #[test]
        fn never_longer_than_max_len_and_unchanged_when_false(
            b in proptest::collection::vec(any::<u8>(), 0..64),
            d in proptest::collection::vec(any::<u8>(), 0..64),
            seed in any::<u64>(),
            max_len in 0usize..80,
        ) {
            let mut rng = Rng::new(seed);
            let mut x = b.clone();
            let changed = mutate_bytes(&mut x, Some(&d), &mut rng, max_len.max(b.len()));
            prop_assert!(x.len() <= max_len.max(b.len()));
            if changed {
                prop_assert!(x != b);
            } else {
                prop_assert!(x == b);
            }
        }
    }
}
