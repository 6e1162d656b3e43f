//! The minimizer: shrinks an entry while a caller-supplied predicate holds
//! (it still fails, it keeps its coverage, it keeps its crash site).
//!
//! It exists so that fuzz-run, fuzz-worker and fuzz-minimize shrink inputs
//! the same way, Go's way (Go 1.19 `internal/fuzz/minimize.go`), with Go's
//! known hang bounded and small steps beyond Go. It runs nothing itself:
//! `keep` executes the candidate and says whether it still has the property.
//!
//! What it keeps true:
//! - every value it returns was accepted by `keep` (as one whole entry), or
//!   is the original; the original is assumed to have the property and is
//!   never passed to `keep` (the caller checks that it reproduces);
//! - `keep` is called at most `max_execs` times, and not after the deadline:
//!   the budget is checked before every candidate and carries over from one
//!   argument to the next; when it runs out, the best entry so far is
//!   returned;
//! - types never change, and arguments are never added or removed.
//!
//! For each `string`/`[]byte` argument, in order, Go's steps:
//! 1. trim the tail in chunks of 1024, 512, …, 1 bytes, each size for as
//!    long as the shorter value is kept;
//! 2. delete single bytes, left to right (not the last one, as Go), retrying
//!    an index after a success;
//! 3. delete substrings `[i, j)` of two bytes or more. Go tries every `j`
//!    for every `i`, O(n²) candidates, which is why Go's minimization can
//!    seem stuck (golang/go#48820). We do exactly that only for values of at
//!    most [`EXHAUSTIVE_MAX`] bytes (≤ 8128 candidates when nothing can go).
//!    Above that, for each `i` we try only `j = len` (cut the rest) and
//!    `j = i + 2^k` for decreasing `k ≥ 1`: at most `1 + log2(n)`
//!    candidates per index, O(n log n) in all, retrying the index after a
//!    success. Substrings whose length is not a power of two are then only
//!    removed in pieces, if the pieces go one at a time;
//!    Beyond Go, when steps 2 and 3 deleted anything, step 1 runs again:
//!    the last byte may only have been needed for what they deleted;
//! 4. make it readable: replace each byte by the first of
//!    `0 1 2 7 8 9 A B C X Y Z a b c x y z ␠ ! " # $ % & ' ( ) * + , .`
//!    that is kept (Go's list and order; this is why Go's crashers are full
//!    of `0`). We stop at the byte's own character instead of trying it,
//!    which gives Go's result with one execution less per such byte.
//!
//! Beyond Go, once every byte argument is done, numbers move towards zero:
//! each integer or float argument tries 0, then halves the distance between
//! the smallest rejected and the smallest kept magnitude (a bisection: at
//! most 64 candidates for a 64-bit integer; a float of magnitude 1 or more
//! stays on integers, a smaller one bisects its bit pattern, at most 128
//! candidates); a `true` bool tries `false`. `custom` values are opaque and
//! left alone.
//!
//! Sizes in [`Stats`] are the total bytes of the `string` and `[]byte`
//! arguments. `progress` is called whenever a kept candidate made that size
//! smaller, and otherwise after every [`PROGRESS_EVERY`] candidates.

use crate::format::value::Value;
use std::time::Instant;

/// What a minimization may spend; `None` is no limit.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Stop starting candidates once this instant has passed.
    pub deadline: Option<Instant>,
    /// Call `keep` at most this many times.
    pub max_execs: Option<u64>,
}

/// Where a minimization stands.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Calls to `keep` so far.
    pub execs: u64,
    /// [`size`] of the original entry.
    pub before: usize,
    /// [`size`] of the best entry so far.
    pub after: usize,
}

/// Values of at most this many bytes get Go's exhaustive step 3.
pub const EXHAUSTIVE_MAX: usize = 128;

/// `progress` is called at least this often, in candidates.
pub const PROGRESS_EVERY: u64 = 1000;

/// Go's replacement characters for step 4, in Go's order.
pub const READABLE: &[u8] = b"012789ABCXYZabcxyz !\"#$%&'()*+,.";

/// Candidates a float may take in its bisection towards zero.
const FLOAT_STEPS: u32 = 128;

/// The size of an entry as [`Stats`] counts it: the total bytes of its
/// `string` and `[]byte` arguments.
pub fn size(values: &[Value]) -> usize {
    values
        .iter()
        .map(|v| match v {
            Value::Bytes(b) | Value::String(b) => b.len(),
            _ => 0,
        })
        .sum()
}

/// Shrinks `values` while `keep` holds, within `budget`; returns the
/// smallest entry found and what it took. See the module documentation for
/// the strategy and what is guaranteed.
pub fn minimize(
    values: &[Value],
    budget: &Budget,
    keep: &mut dyn FnMut(&[Value]) -> bool,
    progress: &mut dyn FnMut(&Stats),
) -> (Vec<Value>, Stats) {
    let before = size(values);
    let mut run = Run {
        work: values.to_vec(),
        budget,
        keep,
        progress,
        stats: Stats {
            execs: 0,
            before,
            after: before,
        },
        last_report: 0,
        stopped: false,
    };
    for idx in 0..run.work.len() {
        if matches!(run.work[idx], Value::Bytes(_) | Value::String(_)) {
            run.minimize_bytes(idx);
        }
    }
    for idx in 0..run.work.len() {
        run.minimize_scalar(idx);
    }
    let stats = run.stats;
    (run.work, stats)
}

struct Run<'a> {
    /// The best entry so far, except for the argument being worked on,
    /// which holds the candidate under test while `keep` runs.
    work: Vec<Value>,
    budget: &'a Budget,
    keep: &'a mut dyn FnMut(&[Value]) -> bool,
    progress: &'a mut dyn FnMut(&Stats),
    stats: Stats,
    last_report: u64,
    stopped: bool,
}

/// The bytes of a `string`/`[]byte` argument.
fn bytes_mut(v: &mut Value) -> &mut Vec<u8> {
    match v {
        Value::Bytes(b) | Value::String(b) => b,
        _ => unreachable!("only string and []byte arguments are minimized as bytes"),
    }
}

impl Run<'_> {
    /// True once the budget is spent; checked before every candidate.
    fn should_stop(&mut self) -> bool {
        if !self.stopped {
            let count_spent = self.budget.max_execs.is_some_and(|m| self.stats.execs >= m);
            let time_spent = self.budget.deadline.is_some_and(|d| Instant::now() >= d);
            self.stopped = count_spent || time_spent;
        }
        self.stopped
    }

    /// Runs `keep` on `work` as it stands.
    fn try_work(&mut self) -> bool {
        self.stats.execs += 1;
        let kept = (self.keep)(&self.work);
        if self.stats.execs - self.last_report >= PROGRESS_EVERY {
            self.report();
        }
        kept
    }

    fn report(&mut self) {
        self.last_report = self.stats.execs;
        (self.progress)(&self.stats);
    }

    /// Records a kept candidate; reports when it made the entry smaller.
    fn kept(&mut self) {
        let after = size(&self.work);
        let shrank = after < self.stats.after;
        self.stats.after = after;
        if shrank {
            self.report();
        }
    }

    /// Tries argument `idx` = the concatenation of `parts`. On success the
    /// caller updates its own copy; on failure `work[idx]` holds the
    /// rejected candidate until the caller restores it.
    fn try_bytes(&mut self, idx: usize, parts: &[&[u8]]) -> bool {
        let buf = bytes_mut(&mut self.work[idx]);
        buf.clear();
        for p in parts {
            buf.extend_from_slice(p);
        }
        let ok = self.try_work();
        if ok {
            self.kept();
        }
        ok
    }

    fn minimize_bytes(&mut self, idx: usize) {
        let mut v = bytes_mut(&mut self.work[idx]).clone();
        self.bytes_steps(idx, &mut v);
        // `v` is the last kept value (or the original).
        *bytes_mut(&mut self.work[idx]) = v;
        self.stats.after = size(&self.work);
    }

    /// Step 1: trim the tail in chunks of 1024, 512, …, 1 bytes; false
    /// when the budget ran out.
    fn trim_tail(&mut self, idx: usize, v: &mut Vec<u8>) -> bool {
        let mut n = 1024;
        while n != 0 {
            while v.len() > n {
                if self.should_stop() {
                    return false;
                }
                let shorter = v.len() - n;
                if !self.try_bytes(idx, &[&v[..shorter]]) {
                    break;
                }
                v.truncate(shorter);
            }
            n /= 2;
        }
        true
    }

    fn bytes_steps(&mut self, idx: usize, v: &mut Vec<u8>) {
        // 1. Trim the tail.
        if !self.trim_tail(idx, v) {
            return;
        }
        let trimmed = v.len();

        // 2. Delete single bytes.
        let mut i = 0;
        while i + 1 < v.len() {
            if self.should_stop() {
                return;
            }
            if self.try_bytes(idx, &[&v[..i], &v[i + 1..]]) {
                v.remove(i);
            } else {
                i += 1;
            }
        }

        // 3. Delete substrings.
        if v.len() <= EXHAUSTIVE_MAX {
            self.substrings_exhaustive(idx, v);
        } else {
            self.substrings_bounded(idx, v);
        }
        if self.stopped {
            return;
        }
        // Beyond Go: what steps 2 and 3 took out may have been what the
        // last byte was needed for (step 2 never deletes the last byte), so
        // the tail is trimmed once more when they took anything.
        if v.len() < trimmed && !self.trim_tail(idx, v) {
            return;
        }

        // 4. Make it readable.
        for i in 0..v.len() {
            let orig = v[i];
            for &c in READABLE {
                if c == orig {
                    break;
                }
                if self.should_stop() {
                    v[i] = orig;
                    return;
                }
                v[i] = c;
                if self.try_bytes(idx, &[&v[..]]) {
                    break;
                }
                v[i] = orig;
            }
        }
    }

    /// Go's step 3: every `[i, j)`, `j` from the end down to `i + 2`.
    fn substrings_exhaustive(&mut self, idx: usize, v: &mut Vec<u8>) {
        let mut i = 0;
        while i + 1 < v.len() {
            let mut j = v.len();
            while j > i + 1 {
                if self.should_stop() {
                    return;
                }
                if self.try_bytes(idx, &[&v[..i], &v[j..]]) {
                    v.drain(i..j);
                    // Go sets j = len(v), then its loop decrements it
                    // (so `[i, len)` is not tried again; len may now be 0).
                    j = v.len();
                }
                j = j.saturating_sub(1);
            }
            i += 1;
        }
    }

    /// Step 3 bounded: for each `i`, `j = len`, then `j = i + 2^k`.
    fn substrings_bounded(&mut self, idx: usize, v: &mut Vec<u8>) {
        let mut i = 0;
        'index: while i + 1 < v.len() {
            let mut ends = vec![v.len()];
            let mut span = 1usize << (usize::BITS - 1 - (v.len() - i).leading_zeros());
            while span >= 2 {
                if i + span < v.len() {
                    ends.push(i + span);
                }
                span /= 2;
            }
            for j in ends {
                if self.should_stop() {
                    return;
                }
                if self.try_bytes(idx, &[&v[..i], &v[j..]]) {
                    v.drain(i..j);
                    continue 'index;
                }
            }
            i += 1;
        }
    }

    /// Tries argument `idx` = `cand`; restores it when rejected. False,
    /// without a call, once the budget is spent.
    fn try_value(&mut self, idx: usize, cand: Value) -> bool {
        if self.should_stop() {
            return false;
        }
        let old = std::mem::replace(&mut self.work[idx], cand);
        if self.try_work() {
            true
        } else {
            self.work[idx] = old;
            false
        }
    }

    fn minimize_scalar(&mut self, idx: usize) {
        match self.work[idx] {
            Value::Bool(true) => {
                self.try_value(idx, Value::Bool(false));
            }
            Value::Int(v) => self.integer(idx, v.into(), |x| Value::Int(x as i64)),
            Value::Int64(v) => self.integer(idx, v.into(), |x| Value::Int64(x as i64)),
            Value::Int8(v) => self.integer(idx, v.into(), |x| Value::Int8(x as i8)),
            Value::Int16(v) => self.integer(idx, v.into(), |x| Value::Int16(x as i16)),
            Value::Int32(v) => self.integer(idx, v.into(), |x| Value::Int32(x as i32)),
            Value::Uint(v) => self.integer(idx, v.into(), |x| Value::Uint(x as u64)),
            Value::Uint64(v) => self.integer(idx, v.into(), |x| Value::Uint64(x as u64)),
            Value::Uint8(v) => self.integer(idx, v.into(), |x| Value::Uint8(x as u8)),
            Value::Uint16(v) => self.integer(idx, v.into(), |x| Value::Uint16(x as u16)),
            Value::Uint32(v) => self.integer(idx, v.into(), |x| Value::Uint32(x as u32)),
            Value::Float64(v) => self.float(idx, v, false),
            Value::Float32(v) => self.float(idx, v.into(), true),
            _ => {}
        }
    }

    /// 0, then bisection between the largest rejected magnitude (`lo`) and
    /// the smallest kept one (`hi`). Every candidate lies between 0 and the
    /// original, so `make` never truncates.
    fn integer(&mut self, idx: usize, v: i128, make: fn(i128) -> Value) {
        if v == 0 || self.should_stop() || self.try_value(idx, make(0)) {
            return;
        }
        let (mut lo, mut hi) = (0i128, v);
        loop {
            let mid = lo + (hi - lo) / 2;
            if mid == lo || self.should_stop() {
                return;
            }
            if self.try_value(idx, make(mid)) {
                hi = mid;
            } else {
                lo = mid;
            }
        }
    }

    /// 0, then a bisection on the magnitude (the sign is kept). From 1 up
    /// it stays on integers; below 1 it works on the bit patterns of the
    /// magnitudes, which order as the magnitudes do. `narrow` rounds to the
    /// argument's type (`single`: `float32`); NaN and infinities only try 0.
    fn float(&mut self, idx: usize, v: f64, single: bool) {
        let make = |x: f64| {
            if single {
                Value::Float32(x as f32)
            } else {
                Value::Float64(x)
            }
        };
        let narrow = |x: f64| if single { f64::from(x as f32) } else { x };
        // The midpoint of two magnitudes' bit patterns in the type's format.
        let bits_mid = |a: f64, b: f64| {
            if single {
                let (a, b) = ((a as f32).to_bits(), (b as f32).to_bits());
                f64::from(f32::from_bits(a / 2 + b / 2))
            } else {
                f64::from_bits(a.to_bits() / 2 + b.to_bits() / 2)
            }
        };
        if v == 0.0 || self.should_stop() || self.try_value(idx, make(0.0)) || !v.is_finite() {
            return;
        }
        let sign = v.signum();
        // `lo`: largest magnitude rejected, `hi`: smallest kept.
        let (mut lo, mut hi) = (0.0f64, v.abs());
        for _ in 0..FLOAT_STEPS {
            let c = if hi >= 1.0 {
                let a = lo.max(1.0);
                // Far apart: halve the exponent distance; near: the values'.
                let m = if hi > 4.0 * a {
                    bits_mid(a, hi)
                } else {
                    a + (hi - a) / 2.0
                };
                narrow(m.trunc())
            } else {
                narrow(bits_mid(lo, hi))
            };
            if c <= lo || c >= hi || self.should_stop() {
                return;
            }
            if self.try_value(idx, make(sign * c)) {
                hi = c;
            } else {
                lo = c;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    fn no_progress() -> impl FnMut(&Stats) {
        |_| {}
    }

    /// Deterministic junk without the letters of "BUG" and "X".
    fn junk(n: usize, seed: u64) -> Vec<u8> {
        let mut r = crate::search::rng::Rng::new(seed);
        (0..n)
            .map(|_| loop {
                let b = r.uint32() as u8;
                if !b"BUGX".contains(&b) {
                    break b;
                }
            })
            .collect()
    }

    fn contains(h: &[u8], n: &[u8]) -> bool {
        h.windows(n.len()).any(|w| w == n)
    }

    fn unlimited() -> Budget {
        Budget::default()
    }

    #[test]
    fn planted_bug_shrinks_to_exactly_bug() {
        let mut input = junk(4096, 1);
        input[2000..2003].copy_from_slice(b"BUG");
        let vals = [Value::Bytes(input)];
        let mut keep = |v: &[Value]| contains(v[0].as_bytes().unwrap(), b"BUG");
        let (out, stats) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, [Value::Bytes(b"BUG".to_vec())]);
        assert_eq!((stats.before, stats.after), (4096, 3));
    }

    /// Results of Go 1.19's own `minimizeBytes` (copied into a main
    /// package) on the first input `Rng::new(seed)` gives that has the
    /// property: `(predicate, length, seed, result)`. Inputs of at most
    /// `EXHAUSTIVE_MAX` bytes must minimize exactly as Go's do.
    #[test]
    fn a_tail_freed_by_later_steps_is_trimmed() {
        // The `Z` is needed while the `M` is there, so step 1 keeps it;
        // step 2 deletes the `M`, after which the `Z` can go too (without
        // trimming again, step 4 would turn it into a `0`: "A0").
        let mut keep = |v: &[Value]| {
            let b = v[0].as_bytes().unwrap();
            b.first() == Some(&b'A') && (b.last() == Some(&b'Z') || !b.contains(&b'M'))
        };
        let vals = [Value::Bytes(b"AMZ".to_vec())];
        let (out, _) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, [Value::Bytes(b"A".to_vec())]);
    }

    #[test]
    fn go_reference_minimize_bytes() {
        fn p1(b: &[u8]) -> bool {
            b.iter().filter(|&&x| x < 0x40).count() >= 3 && b.first().is_some_and(|x| x % 2 == 1)
        }
        fn p2(b: &[u8]) -> bool {
            let (mut seen, mut ok) = (false, false);
            for &x in b {
                if x < 0x30 {
                    seen = true;
                } else if seen && x > 0xd0 {
                    ok = true;
                }
            }
            ok && b.len() & 1 == 0
        }
        fn p3(b: &[u8]) -> bool {
            b.iter().map(|&x| u32::from(x)).sum::<u32>() % 7 == 3
        }
        let preds: [fn(&[u8]) -> bool; 3] = [p1, p2, p3];
        let go = [
            (0, 20, 2, "31303030"),
            (0, 60, 2, "31303030"),
            (0, 100, 2, "31303030"),
            (1, 20, 1, "20d1"),
            (1, 60, 1, "20d1"),
            (1, 100, 1, "20d1"),
            (2, 20, 7, "4132"),
            (2, 60, 1, "41414341"),
            (2, 100, 11, "59423232"),
        ];
        for (p, n, seed, want) in go {
            let mut r = crate::search::rng::Rng::new(seed);
            let input: Vec<u8> = (0..n).map(|_| r.uint32() as u8).collect();
            assert!(preds[p](&input));
            let mut keep = |v: &[Value]| preds[p](v[0].as_bytes().unwrap());
            let vals = [Value::Bytes(input)];
            let (out, _) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
            assert_eq!(
                hex::encode(out[0].as_bytes().unwrap()),
                want,
                "p{p} n{n} seed{seed}"
            );
        }
    }

    #[test]
    fn typed_entry_shrinks_every_argument() {
        let vals = [
            Value::String(b"hello, world".to_vec()),
            Value::Int64(-123_456_789),
            Value::Bytes(junk(300, 2)),
            Value::Bool(true),
            Value::Float64(1234.5),
            Value::Uint8(200),
        ];
        // Fails whenever the string has an 'o', whatever the rest.
        let mut keep = |v: &[Value]| v[0].as_bytes().unwrap().contains(&b'o');
        let (out, _) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(
            out,
            [
                Value::String(b"o".to_vec()),
                Value::Int64(0),
                // Go never trims a value to nothing: one byte, made `0`.
                Value::Bytes(b"0".to_vec()),
                Value::Bool(false),
                Value::Float64(0.0),
                Value::Uint8(0),
            ]
        );
    }

    #[test]
    fn numbers_bisect_towards_zero() {
        let vals = [
            Value::Int64(5000),
            Value::Int8(-100),
            Value::Uint64(u64::MAX),
            Value::Float64(-1e300),
            Value::Float32(3.75),
        ];
        let mut keep = |v: &[Value]| {
            matches!(v[0], Value::Int64(x) if x > 1000)
                && matches!(v[1], Value::Int8(x) if x <= -7)
                && matches!(v[2], Value::Uint64(x) if x >= 1 << 40)
                && matches!(v[3], Value::Float64(x) if x < -2.0)
                && matches!(v[4], Value::Float32(x) if x > 1.0)
        };
        let (out, stats) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out[0], Value::Int64(1001));
        assert_eq!(out[1], Value::Int8(-7));
        assert_eq!(out[2], Value::Uint64(1 << 40));
        assert_eq!(out[3], Value::Float64(-3.0));
        assert_eq!(out[4], Value::Float32(2.0));
        assert!(stats.execs < 300, "{}", stats.execs);
    }

    #[test]
    fn small_floats_reach_the_boundary() {
        let vals = [Value::Float64(0.3), Value::Float32(-0.75)];
        let mut keep = |v: &[Value]| {
            matches!(v[0], Value::Float64(x) if x > 0.1)
                && matches!(v[1], Value::Float32(x) if x < -0.5)
        };
        let (out, stats) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out[0], Value::Float64(f64::from_bits(0.1f64.to_bits() + 1)));
        assert_eq!(
            out[1],
            Value::Float32(-f32::from_bits(0.5f32.to_bits() + 1))
        );
        assert!(stats.execs <= 2 * 66, "{}", stats.execs);
    }

    #[test]
    fn readable_replacement_gives_zeros_like_go() {
        let vals = [Value::Bytes(vec![b'B', 0xff, 0x8f])];
        let mut keep = |v: &[Value]| {
            let b = v[0].as_bytes().unwrap();
            b.len() == 3 && b[0] == b'B'
        };
        let (out, _) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, [Value::Bytes(b"B00".to_vec())]);

        // Go's transcript: a crasher that needs "q" and two bytes.
        let vals = [Value::String(b"q\x8f".to_vec())];
        let mut keep = |v: &[Value]| {
            let b = v[0].as_bytes().unwrap();
            b.len() == 2 && b[0] == b'q'
        };
        let (out, _) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, [Value::String(b"q0".to_vec())]);
    }

    #[test]
    fn exec_budget_is_exact() {
        for max in [0u64, 1, 7, 10, 100, 1000] {
            let vals = [Value::Bytes(junk(2000, 3)), Value::Int(99)];
            let mut calls = 0u64;
            let mut keep = |v: &[Value]| {
                calls += 1;
                // Nothing ever shrinks: the minimizer would go on for long.
                v[0].as_bytes().unwrap().len() == 2000 && v[1] == Value::Int(99)
            };
            let budget = Budget {
                deadline: None,
                max_execs: Some(max),
            };
            let (out, stats) = minimize(&vals, &budget, &mut keep, &mut no_progress());
            assert_eq!(calls, max);
            assert_eq!(stats.execs, max);
            assert_eq!(out[1], Value::Int(99));
        }
    }

    #[test]
    fn deadline_is_respected() {
        let vals = [Value::Bytes(junk(4000, 4))];
        let start = Instant::now();
        let budget = Budget {
            deadline: Some(start + Duration::from_millis(150)),
            max_execs: None,
        };
        let mut keep = |v: &[Value]| {
            std::thread::sleep(Duration::from_millis(1));
            v[0].as_bytes().unwrap().len() >= 3990
        };
        let (out, stats) = minimize(&vals, &budget, &mut keep, &mut no_progress());
        let took = start.elapsed();
        assert!(took < Duration::from_millis(1000), "{took:?}");
        assert!(stats.execs > 10);
        assert!(out[0].as_bytes().unwrap().len() >= 3990);

        let past = Budget {
            deadline: Some(Instant::now()),
            max_execs: None,
        };
        let mut calls = 0;
        let mut keep = |_: &[Value]| {
            calls += 1;
            true
        };
        let (out, _) = minimize(&vals, &past, &mut keep, &mut no_progress());
        assert_eq!(calls, 0);
        assert_eq!(out, vals);
    }

    #[test]
    fn stopping_early_returns_an_accepted_entry() {
        let orig = vec![
            Value::Bytes(junk(500, 5)),
            Value::String(b"keep me KEEP".to_vec()),
            Value::Int32(77),
        ];
        for max in 0..400u64 {
            let mut accepted: Vec<Vec<Value>> = vec![orig.clone()];
            let mut keep = |v: &[Value]| {
                let a = v[0].as_bytes().unwrap();
                let ok =
                    a.len() > 50 && a.len() % 3 != 1 && v[1].as_bytes().unwrap().contains(&b'K');
                if ok {
                    accepted.push(v.to_vec());
                }
                ok
            };
            let budget = Budget {
                deadline: None,
                max_execs: Some(max * 7),
            };
            let (out, stats) = minimize(&orig, &budget, &mut keep, &mut no_progress());
            assert!(accepted.contains(&out), "budget {}", max * 7);
            assert_eq!(stats.after, size(&out));
        }
    }

    #[test]
    fn original_is_not_checked_first() {
        let vals = [Value::Bytes(b"abc".to_vec())];
        let mut seen = Vec::new();
        let mut keep = |v: &[Value]| {
            seen.push(v[0].clone());
            false
        };
        let (out, _) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, vals);
        assert!(!seen.contains(&vals[0]));
    }

    #[test]
    fn large_input_finishes_quickly() {
        let start = Instant::now();
        let mut input = junk(64 * 1024, 6);
        input[40_000] = b'X';
        let vals = [Value::Bytes(input)];
        let mut keep = |v: &[Value]| v[0].as_bytes().unwrap().contains(&b'X');
        let (out, stats) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, [Value::Bytes(b"X".to_vec())]);
        assert!(
            start.elapsed() < Duration::from_secs(20),
            "{:?}",
            start.elapsed()
        );
        assert!(stats.execs < 45_000, "{}", stats.execs);
    }

    #[test]
    fn step_three_is_bounded() {
        // Nothing can be deleted: Go's step 3 alone would try ~n²/2.
        let n = 2000;
        let vals = [Value::Bytes(junk(n, 7))];
        let mut keep = |v: &[Value]| v[0].as_bytes().unwrap().len() == n;
        let (out, stats) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out[0].as_bytes().unwrap(), vec![b'0'; n]);
        // tail 11 + single bytes n + substrings n·(1+log2 n) + readable n.
        assert!(stats.execs <= (n as u64) * 14, "{}", stats.execs);
    }

    #[test]
    fn exhaustive_step_three_finds_pairs() {
        // Bytes only go in pairs: "()" balanced strings with a marker.
        let vals = [Value::String(b"(()())!()".to_vec())];
        let mut keep = |v: &[Value]| {
            let b = v[0].as_bytes().unwrap();
            let mut depth = 0i32;
            for &c in b {
                match c {
                    b'(' => depth += 1,
                    b')' => depth -= 1,
                    _ => {}
                }
                if depth < 0 {
                    return false;
                }
            }
            depth == 0 && b.contains(&b'!') && b.len() % 2 == 1
        };
        let (out, _) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, [Value::String(b"!".to_vec())]);
    }

    #[test]
    fn step_three_may_empty_a_value_as_gos_does() {
        // Steps 1 and 2 never leave an empty value, step 3 can.
        let vals = [Value::Bytes(b"ab".to_vec()), Value::String(b"xyz".to_vec())];
        let mut keep = |v: &[Value]| v.iter().all(|x| x.as_bytes().unwrap().len() != 1);
        let (out, stats) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, [Value::Bytes(vec![]), Value::String(vec![])]);
        assert_eq!((stats.before, stats.after), (5, 0));
    }

    #[test]
    fn bounded_step_three_finds_pairs() {
        let mut b = Vec::new();
        for _ in 0..100 {
            b.extend_from_slice(b"ab");
        }
        b.push(b'!');
        let vals = [Value::Bytes(b)];
        // Only even-length, "ab"-aligned deletions keep it.
        let mut keep = |v: &[Value]| {
            let b = v[0].as_bytes().unwrap();
            b.last() == Some(&b'!') && b[..b.len() - 1].chunks(2).all(|c| c == b"ab")
        };
        let (out, _) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, [Value::Bytes(b"!".to_vec())]);
    }

    #[test]
    fn progress_is_reported() {
        let mut input = junk(3000, 8);
        input[1500] = b'X';
        let vals = [Value::Bytes(input)];
        let mut keep = |v: &[Value]| v[0].as_bytes().unwrap().contains(&b'X');
        let mut reports: Vec<Stats> = Vec::new();
        let mut progress = |s: &Stats| reports.push(*s);
        let (_, stats) = minimize(&vals, &unlimited(), &mut keep, &mut progress);
        assert!(!reports.is_empty());
        assert!(reports
            .windows(2)
            .all(|w| w[0].execs <= w[1].execs && w[0].after >= w[1].after));
        assert!(reports.iter().all(|s| s.before == 3000));
        assert_eq!(stats.after, 1);
        // Never more than PROGRESS_EVERY candidates without a report.
        let mut last = 0;
        for s in reports.iter().chain([&stats]) {
            assert!(s.execs - last <= PROGRESS_EVERY);
            last = s.execs;
        }
    }

    #[test]
    fn custom_and_empty_are_left_alone() {
        let vals = [
            Value::Custom {
                name: "t".into(),
                data: b"data".to_vec(),
            },
            Value::Bytes(vec![]),
            Value::Bool(false),
        ];
        let mut calls = 0;
        let mut keep = |_: &[Value]| {
            calls += 1;
            true
        };
        let (out, stats) = minimize(&vals, &unlimited(), &mut keep, &mut no_progress());
        let (out2, _) = minimize(&[], &unlimited(), &mut keep, &mut no_progress());
        assert_eq!(out, vals);
        assert_eq!((calls, stats.execs), (0, 0));
        assert!(out2.is_empty());
    }
}
