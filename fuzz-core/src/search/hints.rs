//! Comparison feedback: mutations guided by what the target compared its
//! input against (input-to-state, as AFL++'s RedQueen and libFuzzer's
//! trace-cmp dictionary do). Go's engine has none of this.
//!
//! The worker records comparison operands (`trace-cmp*` callbacks and the
//! interposed `memcmp`/`strcmp` family) and hands them here as hints. One
//! hint mutation looks for one operand in the input (as bytes, both byte
//! orders for integers, as decimal text for integers, or as the value of a
//! number argument) and writes the other operand there in the same form,
//! or one off by one; when the operand is not found, it writes the other
//! operand somewhere, as a dictionary word.

use crate::format::value::Value;
use crate::search::dict;
use crate::search::rng::Rng;

/// An integer comparison: operands and width in bytes (1, 2, 4 or 8).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct IntHint {
    pub a: u64,
    pub b: u64,
    pub size: u8,
}

/// A comparison of byte strings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BytesHint {
    pub a: Vec<u8>,
    pub b: Vec<u8>,
}

/// The comparisons a target made recently.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Hints {
    pub ints: Vec<IntHint>,
    pub bytes: Vec<BytesHint>,
}

impl Hints {
    pub fn is_empty(&self) -> bool {
        self.ints.is_empty() && self.bytes.is_empty()
    }
}

fn width_mask(size: u8) -> u64 {
    if size >= 8 {
        u64::MAX
    } else {
        (1u64 << (size as u32 * 8)) - 1
    }
}

/// Replaces the first occurrence of `from` (searching from a random start)
/// with `to` in `data`, growing or shrinking it; false when absent or when
/// the result would pass `max_len`.
fn replace_in(data: &mut Vec<u8>, from: &[u8], to: &[u8], rng: &mut Rng, max_len: usize) -> bool {
    replace_where(data, from, to, rng, max_len, |_, _| true)
}

/// [`replace_in`] for occurrences at which `at(data, i)` holds.
fn replace_where(
    data: &mut Vec<u8>,
    from: &[u8],
    to: &[u8],
    rng: &mut Rng,
    max_len: usize,
    at: impl Fn(&[u8], usize) -> bool,
) -> bool {
    if from.is_empty() || from.len() > data.len() {
        return false;
    }
    let n = data.len() - from.len() + 1;
    let start = rng.intn(n);
    let found = (0..n)
        .map(|k| (start + k) % n)
        .find(|&i| &data[i..i + from.len()] == from && at(data, i));
    let Some(i) = found else { return false };
    if data.len() - from.len() + to.len() > max_len {
        return false;
    }
    data.splice(i..i + from.len(), to.iter().copied());
    true
}

/// Writes `word` into `data` at a random place, overwriting or inserting
/// ([`dict::place`]).
fn place(data: &mut Vec<u8>, word: &[u8], rng: &mut Rng, max_len: usize) -> bool {
    match dict::place(data.len(), word.len(), max_len, rng) {
        Some(at) => {
            at.apply(data, word);
            true
        }
        None => false,
    }
}

fn int_bytes(v: u64, size: u8, big: bool) -> Vec<u8> {
    let n = size.clamp(1, 8) as usize;
    if big {
        v.to_be_bytes()[8 - n..].to_vec()
    } else {
        v.to_le_bytes()[..n].to_vec()
    }
}

/// The decimal text of an integer, in place: the longest is 20 bytes
/// (`u64::MAX`, or `i64::MIN` with its sign), so a hint mutation writes
/// numbers without allocating.
struct Decimal {
    buf: [u8; 20],
    len: usize,
}

impl Decimal {
    /// `v` as the target would have read it from text: decimal, with a
    /// minus sign when it is negative as a signed integer of `size` bytes.
    fn of(v: u64, size: u8) -> Decimal {
        use std::io::Write;
        let v = v & width_mask(size);
        let signed = sign_extend(v, size);
        let mut buf = [0u8; 20];
        let mut rest = &mut buf[..];
        // 20 bytes hold any u64 or i64: the write cannot fail.
        let _ = if signed < 0 {
            write!(rest, "{signed}")
        } else {
            write!(rest, "{v}")
        };
        let len = 20 - rest.len();
        Decimal { buf, len }
    }

    fn bytes(&self) -> &[u8] {
        &self.buf[..self.len]
    }
}

/// Numbers written as text (JSON, SQL, scripts, `{n,m}` counts): the
/// digits of `from` where a number starts in `data`, replaced by the
/// digits of `to`. A number starts where no digit but leading zeros comes
/// before it; the digits after it may go on (a parser compares its running
/// value, a prefix of the run), except after a single digit, which must
/// stand alone: a lone digit inside a longer number is most often a loop
/// counter's coincidence.
fn replace_decimal(
    data: &mut Vec<u8>,
    from: u64,
    to: u64,
    size: u8,
    rng: &mut Rng,
    max_len: usize,
) -> Option<Decimal> {
    let from_t = Decimal::of(from, size);
    let to_t = Decimal::of(to, size);
    let from_t = from_t.bytes();
    let single = from_t.len() == 1;
    let starts_number = |d: &[u8], i: usize| {
        let before = d[..i].iter().rev().take_while(|c| c.is_ascii_digit());
        let after = d.get(i + from_t.len());
        before.into_iter().all(|&c| c == b'0') && !(single && after.is_some_and(u8::is_ascii_digit))
    };
    replace_where(data, from_t, to_t.bytes(), rng, max_len, starts_number).then_some(to_t)
}

/// One step away from `v`, or `v` itself: the other side of a `<` often
/// needs it.
fn nudge(v: u64, rng: &mut Rng, mask: u64) -> u64 {
    match rng.intn(4) {
        0 => v.wrapping_add(1) & mask,
        1 => v.wrapping_sub(1) & mask,
        _ => v,
    }
}

fn mutate_bytes(
    data: &mut Vec<u8>,
    hints: &Hints,
    rng: &mut Rng,
    max_len: usize,
    written: &mut Vec<u8>,
) -> bool {
    let total = hints.ints.len() + hints.bytes.len();
    let pick = rng.intn(total);
    if pick < hints.bytes.len() {
        let h = &hints.bytes[pick];
        let (from, to) = if rng.bool() {
            (&h.a, &h.b)
        } else {
            (&h.b, &h.a)
        };
        written.extend_from_slice(to);
        replace_in(data, from, to, rng, max_len) || place(data, to, rng, max_len)
    } else {
        let h = hints.ints[pick - hints.bytes.len()];
        let mask = width_mask(h.size);
        let (from, to) = if rng.bool() { (h.a, h.b) } else { (h.b, h.a) };
        let to = nudge(to, rng, mask);
        if h.size > 1 {
            if let Some(t) = replace_decimal(data, from, to, h.size, rng, max_len) {
                written.extend_from_slice(t.bytes());
                return true;
            }
        }
        let big = rng.bool();
        let from_b = int_bytes(from, h.size, big);
        let to_b = int_bytes(to, h.size, big);
        written.extend_from_slice(&to_b);
        // A one-byte operand found by chance says little: only write it.
        if h.size > 1 && replace_in(data, &from_b, &to_b, rng, max_len) {
            return true;
        }
        place(data, &to_b, rng, max_len)
    }
}

/// Sets a number to a hinted value: the other operand where the number
/// equals one of them, else one of the operands.
fn mutate_number(v: &mut Value, hints: &Hints, rng: &mut Rng) -> bool {
    if hints.ints.is_empty() {
        return false;
    }
    let h = hints.ints[rng.intn(hints.ints.len())];
    let mask = width_mask(h.size);
    let current: Option<u64> = match *v {
        Value::Int(x) | Value::Int64(x) => Some(x as u64),
        Value::Int8(x) => Some(x as u8 as u64),
        Value::Int16(x) => Some(x as u16 as u64),
        Value::Int32(x) => Some(x as u32 as u64),
        Value::Uint(x) | Value::Uint64(x) => Some(x),
        Value::Uint8(x) => Some(x as u64),
        Value::Uint16(x) => Some(x as u64),
        Value::Uint32(x) => Some(x as u64),
        Value::Float32(x) => Some(x.to_bits() as u64),
        Value::Float64(x) => Some(x.to_bits()),
        _ => None,
    };
    let Some(cur) = current else { return false };
    // The other operand where the number equals one of them; else either.
    let target = if cur & mask == h.a & mask || (cur & mask != h.b & mask && rng.bool()) {
        h.b
    } else {
        h.a
    };
    let t = nudge(target, rng, mask);
    *v = match *v {
        Value::Int(_) => Value::Int(sign_extend(t, h.size)),
        Value::Int64(_) => Value::Int64(sign_extend(t, h.size)),
        Value::Int8(_) => Value::Int8(t as i8),
        Value::Int16(_) => Value::Int16(t as i16),
        Value::Int32(_) => Value::Int32(t as i32),
        Value::Uint(_) => Value::Uint(t),
        Value::Uint64(_) => Value::Uint64(t),
        Value::Uint8(_) => Value::Uint8(t as u8),
        Value::Uint16(_) => Value::Uint16(t as u16),
        Value::Uint32(_) => Value::Uint32(t as u32),
        Value::Float32(_) => Value::Float32(f32::from_bits(t as u32)),
        Value::Float64(_) => Value::Float64(f64::from_bits(t)),
        ref other => other.clone(),
    };
    true
}

/// A compared value of `size` bytes, widened as the target's comparison
/// of a signed narrower integer would see it.
fn sign_extend(v: u64, size: u8) -> i64 {
    match size {
        1 => v as u8 as i8 as i64,
        2 => v as u16 as i16 as i64,
        4 => v as u32 as i32 as i64,
        _ => v as i64,
    }
}

/// One `[]byte` or `string` argument of `values`, drawn at random (the
/// byte mutations that are not Go's write into these); None when there
/// is none.
pub fn pick_bytes<'a>(values: &'a mut [Value], rng: &mut Rng) -> Option<&'a mut Vec<u8>> {
    match values.get_mut(pick_bytes_index(values, rng)?) {
        Some(Value::Bytes(b) | Value::String(b)) => Some(b),
        _ => None,
    }
}

/// The index of the argument [`pick_bytes`] draws (one draw, the same).
pub fn pick_bytes_index(values: &[Value], rng: &mut Rng) -> Option<usize> {
    let is_bytes = |v: &Value| matches!(v, Value::Bytes(_) | Value::String(_));
    let n = values.iter().filter(|v| is_bytes(v)).count();
    if n == 0 {
        return None;
    }
    let nth = rng.intn(n);
    values
        .iter()
        .enumerate()
        .filter(|(_, v)| is_bytes(v))
        .nth(nth)
        .map(|(i, _)| i)
}

/// Draws one `[]byte` or `string` argument of `values` (as
/// [`pick_bytes`]) and hands it to `f` with the same argument of `donor`
/// when that is not empty and a coin's toss says so (`None` otherwise: `f`
/// then takes its material from the argument itself); false when there is
/// no such argument, else what `f` says. The mutations that move whole
/// parts of text between entries (`lines`, `fields`) start so.
pub fn with_donor_bytes(
    values: &mut [Value],
    donor: Option<&[Value]>,
    rng: &mut Rng,
    f: impl FnOnce(&mut Vec<u8>, Option<&[u8]>, &mut Rng) -> bool,
) -> bool {
    let Some(i) = pick_bytes_index(values, rng) else {
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
        Some(d) if rng.bool() => f(b, Some(d), rng),
        _ => f(b, None, rng),
    }
}

/// For the mutations that move parts of text (`lines`, `fields`): `None`
/// when `b` is not text (not valid UTF-8), else the donor, kept only when
/// it is text too (a binary donor's parts would make the text binary).
pub fn text_donor<'a>(b: &[u8], donor: Option<&'a [u8]>) -> Option<Option<&'a [u8]>> {
    std::str::from_utf8(b).ok()?;
    Some(donor.filter(|d| std::str::from_utf8(d).is_ok()))
}

/// Writes a dictionary word into one `[]byte` or `string` argument,
/// over its bytes or inserted; false when there is no such argument.
pub fn place_word(values: &mut [Value], word: &[u8], rng: &mut Rng, max_len: usize) -> bool {
    match pick_bytes(values, rng) {
        Some(b) => place(b, word, rng, max_len),
        None => false,
    }
}

/// Applies one hint mutation to one argument; false when no hint applies
/// (the caller then mutates as Go does). `written` is set to the bytes
/// written into a `[]byte`/`string` argument (empty for a number), so
/// that a word which pays off can be kept as a dictionary word.
pub fn mutate(
    values: &mut [Value],
    hints: &Hints,
    rng: &mut Rng,
    max_len: usize,
    written: &mut Vec<u8>,
) -> bool {
    written.clear();
    if values.is_empty() || hints.is_empty() {
        return false;
    }
    let i = rng.intn(values.len());
    match &mut values[i] {
        Value::Bytes(b) | Value::String(b) => mutate_bytes(b, hints, rng, max_len, written),
        Value::Bool(_) | Value::Custom { .. } => false,
        v => mutate_number(v, hints, rng),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hints of one integer comparison.
    fn one_int(a: u64, b: u64, size: u8) -> Hints {
        Hints {
            ints: vec![IntHint { a, b, size }],
            bytes: vec![],
        }
    }

    fn run_until(values: &mut Vec<Value>, hints: &Hints, done: impl Fn(&[Value]) -> bool) -> usize {
        let mut rng = Rng::new(1);
        let start = values.clone();
        for i in 1..=2000 {
            *values = start.clone();
            mutate(values, hints, &mut rng, 4096, &mut Vec::new());
            if done(values) {
                return i;
            }
        }
        panic!("never reached: {values:?}");
    }

    #[test]
    fn memcmp_operand_replaces_what_was_compared() {
        let hints = Hints {
            ints: vec![],
            bytes: vec![BytesHint {
                a: b"ABCDEFGHIJ".to_vec(),
                b: b"MAGIC_1234".to_vec(),
            }],
        };
        let mut v = vec![Value::Bytes(b"ABCDEFGHIJtail".to_vec())];
        let tries = run_until(&mut v, &hints, |v| {
            v[0] == Value::Bytes(b"MAGIC_1234tail".to_vec())
        });
        assert!(tries < 20, "{tries}");
    }

    #[test]
    fn integers_are_found_in_either_byte_order() {
        let hints = one_int(0x0102_0304, 0xdead_beef, 4);
        let mut v = vec![Value::Bytes(vec![9, 1, 2, 3, 4, 9])];
        run_until(&mut v, &hints, |v| {
            v[0] == Value::Bytes(vec![9, 0xde, 0xad, 0xbe, 0xef, 9])
        });
        let mut v = vec![Value::Bytes(vec![9, 4, 3, 2, 1, 9])];
        run_until(&mut v, &hints, |v| {
            v[0] == Value::Bytes(vec![9, 0xef, 0xbe, 0xad, 0xde, 9])
        });
    }

    #[test]
    fn integers_written_as_text_take_the_other_operand_s_digits() {
        // serde_json's overflow check: the running value of the first 18
        // digits against u64::MAX / 10; the digits after it stay.
        let hints = one_int(999_999_999_999_999_999, u64::MAX / 10, 8);
        let mut v = vec![Value::Bytes(b"[9999999999999999999999]".to_vec())];
        run_until(&mut v, &hints, |v| {
            v[0] == Value::Bytes(b"[18446744073709551619999]".to_vec())
        });
        // Negative operands as signed text; a number's digits are only
        // matched where the number starts.
        let neg = one_int(12, (-300i32) as u32 as u64, 4);
        let mut v = vec![Value::Bytes(b"x{12}".to_vec())];
        run_until(&mut v, &neg, |v| v[0] == Value::Bytes(b"x{-300}".to_vec()));
        // Leading zeros are part of the number; a lone digit is matched
        // only where it stands alone.
        let mut v = vec![Value::Bytes(b"0012x".to_vec())];
        run_until(&mut v, &neg, |v| v[0] == Value::Bytes(b"00-300x".to_vec()));
        let one = one_int(1, 4_096_000_000_017, 8);
        let mut v = vec![Value::Bytes(b"1".to_vec())];
        run_until(&mut v, &one, |v| {
            v[0] == Value::Bytes(b"4096000000017".to_vec())
        });
        let mut rng = Rng::new(5);
        for _ in 0..500 {
            for (input, wrong) in [(&b"112"[..], &b"1-300"[..]), (b"12", b"4096000000017")] {
                let hints = if input == b"112" { &neg } else { &one };
                let mut v = vec![Value::Bytes(input.to_vec())];
                mutate(&mut v, hints, &mut rng, 64, &mut Vec::new());
                let got = v[0].as_bytes().unwrap();
                assert!(!got.starts_with(wrong), "{input:?} became {got:?}");
            }
        }
    }

    #[test]
    fn numbers_take_the_other_operand() {
        let hints = one_int(7, 42, 8);
        let mut v = vec![Value::Int64(7)];
        run_until(&mut v, &hints, |v| v[0] == Value::Int64(42));
        let neg = one_int(0, (-5i32) as u32 as u64, 4);
        let mut v = vec![Value::Int64(0)];
        run_until(&mut v, &neg, |v| v[0] == Value::Int64(-5));
    }

    #[test]
    fn respects_max_len_and_empty_hints() {
        let hints = Hints {
            ints: vec![],
            bytes: vec![BytesHint {
                a: b"zz".to_vec(),
                b: vec![b'x'; 64],
            }],
        };
        let mut rng = Rng::new(3);
        for _ in 0..500 {
            let mut v = vec![Value::Bytes(vec![1; 10])];
            mutate(&mut v, &hints, &mut rng, 32, &mut Vec::new());
            assert!(v[0].as_bytes().unwrap().len() <= 32);
        }
        let mut v = vec![Value::Bytes(vec![])];
        assert!(!mutate(
            &mut v,
            &Hints::default(),
            &mut rng,
            32,
            &mut Vec::new()
        ));
    }
}
