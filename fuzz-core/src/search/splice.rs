//! Splicing: a new input made of two corpus entries (AFL's splice,
//! libFuzzer's CrossOver), so that what two inputs reached separately can
//! meet in one.
//!
//! Entries of a target share their argument types. For each `[]byte` or
//! `string` argument the bytes of the two are crossed (one of three ways,
//! below); each other argument is taken from either entry at random.

use crate::format::value::Value;
use crate::search::rng::Rng;

/// Crosses `other` into `values`, each byte argument at most `max_len`
/// long; false when nothing changed (no other entry, different shapes).
pub fn splice(values: &mut [Value], other: &[Value], rng: &mut Rng, max_len: usize) -> bool {
    if values.len() != other.len() || values.is_empty() {
        return false;
    }
    let mut changed = false;
    for (v, o) in values.iter_mut().zip(other) {
        match (v, o) {
            (Value::Bytes(a), Value::Bytes(b)) | (Value::String(a), Value::String(b)) => {
                changed |= cross_bytes(a, b, rng, max_len);
            }
            (Value::Custom { .. }, _) | (_, Value::Custom { .. }) => {}
            (v, o) => {
                if std::mem::discriminant(v) == std::mem::discriminant(o) && rng.bool() {
                    changed |= v != o;
                    *v = o.clone();
                }
            }
        }
    }
    changed
}

/// One crossing of `b` into `a`: `a`'s head with `b`'s tail, a piece of
/// `b` inserted into `a`, or a piece of `b` written over `a`. The cut
/// points are chosen to fit `max_len`, never by truncating (which would
/// cut off the tail that was wanted).
fn cross_bytes(a: &mut Vec<u8>, b: &[u8], rng: &mut Rng, max_len: usize) -> bool {
    if b.is_empty() || a.as_slice() == b || max_len == 0 {
        return false;
    }
    a.truncate(max_len);
    match rng.intn(3) {
        0 => {
            let cut_b = rng.intn(b.len()).max(b.len().saturating_sub(max_len));
            let tail = b.len() - cut_b;
            let cut_a = rng.intn(a.len().min(max_len - tail) + 1);
            a.truncate(cut_a);
            a.extend_from_slice(&b[cut_b..]);
        }
        1 if a.len() < max_len => {
            let from = rng.intn(b.len());
            let n = (1 + rng.intn(b.len() - from)).min(max_len - a.len());
            let at = rng.intn(a.len() + 1);
            a.splice(at..at, b[from..from + n].iter().copied());
        }
        _ => {
            if a.is_empty() {
                return false;
            }
            let from = rng.intn(b.len());
            let n = (1 + rng.intn(b.len() - from)).min(a.len());
            let at = rng.intn(a.len() - n + 1);
            a[at..at + n].copy_from_slice(&b[from..from + n]);
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn crossed_bytes_come_from_both_and_respect_max_len() {
        let mut rng = Rng::new(5);
        let mut saw_mix = false;
        for _ in 0..2000 {
            let mut v = vec![Value::Bytes(b"AAAAAAAA".to_vec()), Value::Int(1)];
            let o = vec![Value::Bytes(b"BBBBBBBBBBBB".to_vec()), Value::Int(2)];
            assert!(splice(&mut v, &o, &mut rng, 10));
            let Value::Bytes(b) = &v[0] else {
                panic!("type changed")
            };
            assert!(b.len() <= 10);
            assert!(b.iter().all(|&c| c == b'A' || c == b'B'));
            saw_mix |= b.contains(&b'A') && b.contains(&b'B');
            assert!(matches!(v[1], Value::Int(1) | Value::Int(2)));
        }
        assert!(saw_mix);
    }

    #[test]
    fn a_tail_is_kept_whole_within_max_len() {
        let mut rng = Rng::new(9);
        let mut joined = 0;
        for _ in 0..3000 {
            let mut v = vec![Value::Bytes(b"HEADxxxx".to_vec())];
            let o = [Value::Bytes(b"yyyyLIAT".to_vec())];
            splice(&mut v, &o, &mut rng, 8);
            let b = v[0].as_bytes().unwrap();
            assert!(b.len() <= 8);
            joined += (b == b"HEADLIAT") as usize;
        }
        // Head-and-tail is one way in three, its cut in `b` must be 4 (one
        // in eight) and then its cut in `a` too (one in five): ~25 in 3000.
        assert!(joined > 10, "{joined}");
    }

    #[test]
    fn shapes_that_differ_are_left_alone() {
        let mut rng = Rng::new(1);
        let mut v = vec![Value::Bytes(b"x".to_vec())];
        assert!(!splice(&mut v, &[], &mut rng, 10));
        assert!(!splice(&mut v, &[Value::Bytes(Vec::new())], &mut rng, 10));
        let mut e: Vec<Value> = Vec::new();
        assert!(!splice(&mut e, &[], &mut rng, 10));
    }
}
