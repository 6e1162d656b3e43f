//! Go's mutator (Go 1.19 `internal/fuzz/mutator.go` and
//! `mutators_byteslice.go`), for every v1 type.
//!
//! It exists so that our fuzzing explores inputs as Go's does, draw for
//! draw: from the same [`Rng`] state, [`Mutator::mutate`] makes the same
//! change Go's `mutate` makes, consuming the same random numbers in the same
//! order (the tests hold reference sequences printed by Go's own code). So a
//! seeded run is reproducible, and a worker can publish its generator state
//! before a chain of mutations and let the coordinator replay them.
//!
//! What it keeps true:
//! - one call makes exactly **one** mutation of **one** argument, picked
//!   uniformly (a `bool` that the coin leaves alone still counts, as in Go);
//! - a `[]byte`/`string` argument never ends longer than `max_len` (our
//!   `-max_len` flag): Go's byte mutators check their growth against the
//!   capacity of a scratch buffer, `len + n >= cap` declining; we run the
//!   same checks with `cap = max_len + 1`, so a value may grow to exactly
//!   `max_len`, and the draws match Go's mutator whose `maxPerVal` is
//!   `max_len + 1`. Go keeps its scratch-space conditions (DuplicateBytes
//!   declines when `len + 2n >= cap`, SwapBytes when `len + n >= cap`), and
//!   so do we. An argument already longer than `max_len` is first truncated
//!   to `max_len` (Go panics instead);
//! - numbers stay within their type, with Go's limits: signed types move
//!   within `[-MAX, MAX]`, so an `int8` never becomes -128 by mutation;
//! - it never panics and always returns, whatever the values: NaN and
//!   infinities, empty slices, `max_len` 0, an empty argument list, or
//!   arguments that are all [`Value::Custom`] (left unchanged for now: a
//!   pick that lands on one is that call's mutation).
//!
//! **Chaining is the caller's job.** Go's worker mutates a copy of the
//! corpus entry again and again, running the target after each mutation,
//! and restores the parent every [`CHAIN`] mutations (when its execution
//! count is a multiple of 5, saving the generator state there), so each
//! input it runs is 1 to 5 stacked mutations of the parent. The coordinator
//! replays `((count - 1) % 5) + 1` mutations from the saved state to
//! rebuild a worker's crashing input.

use crate::format::value::Value;
use crate::search::rng::Rng;

mod byteslice;
pub use byteslice::{ByteMutator, BYTE_MUTATORS};

/// How many mutations Go stacks on a parent before restoring it
/// (`chainedMutations`).
pub const CHAIN: u32 = 5;

/// Largest `max_len` honoured: lengths must fit the generator's `u32`
/// bound with room for `len + 1`.
const MAX_LEN_LIMIT: usize = (u32::MAX - 1) as usize;

/// Go's mutator: a generator, a size cap, and a scratch buffer.
#[derive(Clone, Debug)]
pub struct Mutator {
    rng: Rng,
    max_len: usize,
    scratch: Vec<u8>,
}

impl Mutator {
    /// A mutator whose generator is Go's first generator seeded with `seed`
    /// ([`Rng::new`]); `max_len` caps each `[]byte`/`string` argument, in
    /// bytes (values above 2³²−2 are treated as 2³²−2).
    pub fn new(seed: u64, max_len: usize) -> Mutator {
        Mutator::with_rng(Rng::new(seed), max_len)
    }

    /// A mutator drawing from `rng` (e.g. a state restored with
    /// [`Rng::from_parts`] to replay a worker's mutations).
    pub fn with_rng(rng: Rng, max_len: usize) -> Mutator {
        Mutator {
            rng,
            max_len: max_len.min(MAX_LEN_LIMIT),
            scratch: Vec::new(),
        }
    }

    /// The generator, to save its state ([`Rng::parts`]).
    pub fn rng(&self) -> &Rng {
        &self.rng
    }

    /// The generator, to restore a saved state or draw from it.
    pub fn rng_mut(&mut self) -> &mut Rng {
        &mut self.rng
    }

    /// The cap on each `[]byte`/`string` argument, in bytes.
    pub fn max_len(&self) -> usize {
        self.max_len
    }

    /// Changes the cap (length control grows it as fuzzing stalls).
    pub fn set_max_len(&mut self, max_len: usize) {
        self.max_len = max_len.min(MAX_LEN_LIMIT);
    }

    fn rand(&mut self, n: usize) -> usize {
        self.rng.intn(n)
    }

    /// Applies exactly one mutation to one argument picked uniformly, as
    /// Go's `mutate` does. Never panics; returns at once on an empty list.
    pub fn mutate(&mut self, values: &mut [Value]) {
        if values.is_empty() {
            return;
        }
        let i = self.rand(values.len().min(u32::MAX as usize));
        match &mut values[i] {
            Value::Int(v) | Value::Int64(v) => *v = self.mutate_int(*v, i64::MAX),
            Value::Int8(v) => *v = self.mutate_int(i64::from(*v), i64::from(i8::MAX)) as i8,
            Value::Int16(v) => *v = self.mutate_int(i64::from(*v), i64::from(i16::MAX)) as i16,
            Value::Int32(v) => *v = self.mutate_int(i64::from(*v), i64::from(i32::MAX)) as i32,
            Value::Uint(v) | Value::Uint64(v) => *v = self.mutate_uint(*v, u64::MAX),
            Value::Uint8(v) => *v = self.mutate_uint(u64::from(*v), u64::from(u8::MAX)) as u8,
            Value::Uint16(v) => *v = self.mutate_uint(u64::from(*v), u64::from(u16::MAX)) as u16,
            Value::Uint32(v) => *v = self.mutate_uint(u64::from(*v), u64::from(u32::MAX)) as u32,
            Value::Float32(v) => {
                *v = self.mutate_float(f64::from(*v), f64::from(f32::MAX)) as f32;
            }
            Value::Float64(v) => *v = self.mutate_float(*v, f64::MAX),
            Value::Bool(v) => {
                if self.rand(2) == 1 {
                    *v = !*v;
                }
            }
            Value::Bytes(b) | Value::String(b) => {
                self.mutate_bytes(b);
            }
            Value::Custom { .. } => {}
        }
    }

    /// Go's `mutateInt`: add or subtract `1 + rand(100)`, staying within
    /// `[-max_value, max_value]`; an impossible direction re-flips the coin.
    fn mutate_int(&mut self, mut v: i64, max_value: i64) -> i64 {
        loop {
            let mut max: i64 = 100;
            if self.rand(2) == 0 {
                if v >= max_value {
                    continue;
                }
                if v > 0 && max_value - v < max {
                    max = max_value - v;
                }
                v += 1 + self.rand(max as usize) as i64;
            } else {
                if v <= -max_value {
                    continue;
                }
                if v < 0 && max_value + v < max {
                    max = max_value + v;
                }
                v -= 1 + self.rand(max as usize) as i64;
            }
            return v;
        }
    }

    /// Go's `mutateUInt`: the same within `[0, max_value]`.
    fn mutate_uint(&mut self, mut v: u64, max_value: u64) -> u64 {
        loop {
            let mut max: u64 = 100;
            if self.rand(2) == 0 {
                if v >= max_value {
                    continue;
                }
                if v > 0 && max_value - v < max {
                    max = max_value - v;
                }
                v += 1 + self.rand(max as usize) as u64;
            } else {
                if v == 0 {
                    continue;
                }
                if v < max {
                    max = v;
                }
                v -= 1 + self.rand(max as usize) as u64;
            }
            return v;
        }
    }

    /// Go's `int(max)` for the float bounds, which are at most 100.
    fn rand_below_float(&mut self, max: f64) -> f64 {
        // `as` saturates (NaN and negatives give 0); Go's bounds here are
        // always finite and at least 1.
        (1 + self.rand((max as usize).min(100))) as f64
    }

    /// Go's `mutateFloat`: one of add, subtract, multiply, divide, the
    /// impossible ones re-drawn. NaN stays NaN; infinities can always be
    /// subtracted from or divided, so this returns.
    fn mutate_float(&mut self, mut v: f64, max_value: f64) -> f64 {
        loop {
            match self.rand(4) {
                0 => {
                    if v >= max_value {
                        continue;
                    }
                    let mut max = 100.0;
                    if v > 0.0 && max_value - v < max {
                        max = max_value - v;
                    }
                    v += self.rand_below_float(max);
                }
                1 => {
                    if v <= -max_value {
                        continue;
                    }
                    let mut max = 100.0;
                    if v < 0.0 && max_value + v < max {
                        max = max_value + v;
                    }
                    v -= self.rand_below_float(max);
                }
                2 => {
                    let abs = v.abs();
                    if v == 0.0 || abs >= max_value {
                        continue;
                    }
                    let mut max = 10.0;
                    if max_value / abs < max {
                        max = max_value / abs;
                    }
                    v *= self.rand_below_float(max);
                }
                _ => {
                    if v == 0.0 {
                        continue;
                    }
                    v /= (1 + self.rand(10)) as f64;
                }
            }
            return v;
        }
    }

    /// One of Go's 18 byte mutators on `b`, drawn uniformly and re-drawn
    /// until one applies. `b` is first truncated to `max_len`, and never
    /// grows past it. Returns the index in [`BYTE_MUTATORS`] of the one
    /// applied, or `None` when none can apply (`b` empty and `max_len` 0).
    pub fn mutate_bytes(&mut self, b: &mut Vec<u8>) -> Option<usize> {
        if b.len() > self.max_len {
            b.truncate(self.max_len);
        }
        if b.is_empty() && self.max_len == 0 {
            return None;
        }
        // Go compares against the scratch buffer's capacity, `maxPerVal`.
        let cap = self.max_len + 1;
        loop {
            let k = self.rand(BYTE_MUTATORS.len());
            let (_, mutator) = BYTE_MUTATORS[k];
            if mutator(self, b, cap) {
                return Some(k);
            }
        }
    }

    /// Go's `chooseLen`: a length in `[1, n]` (1 when `n` is 0), biased to
    /// short ones.
    fn choose_len(&mut self, n: usize) -> usize {
        let x = self.rand(100);
        if x < 90 {
            self.rand(n.min(8)) + 1
        } else if x < 99 {
            self.rand(n.min(32)) + 1
        } else {
            self.rand(n) + 1
        }
    }

    /// Two distinct positions in `[0, len)`, `len > 1`, drawn as Go does.
    fn two_positions(&mut self, len: usize) -> (usize, usize) {
        let src = self.rand(len);
        let mut dst = self.rand(len);
        while dst == src {
            dst = self.rand(len);
        }
        (src, dst)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sha2::{Digest, Sha256};

    /// The line format of the Go reference program (see `go_reference`).
    fn line(vals: &[Value]) -> String {
        let parts: Vec<String> = vals
            .iter()
            .map(|v| match v {
                Value::Bytes(b) => format!("b:{}", hex::encode(b)),
                Value::String(b) => format!("s:{}", hex::encode(b)),
                Value::Bool(x) => format!("t:{x}"),
                Value::Int(x) => format!("i:{x}"),
                Value::Int8(x) => format!("i8:{x}"),
                Value::Int16(x) => format!("i16:{x}"),
                Value::Int32(x) => format!("i32:{x}"),
                Value::Int64(x) => format!("i64:{x}"),
                Value::Uint(x) => format!("u:{x}"),
                Value::Uint8(x) => format!("u8:{x}"),
                Value::Uint16(x) => format!("u16:{x}"),
                Value::Uint32(x) => format!("u32:{x}"),
                Value::Uint64(x) => format!("u64:{x}"),
                Value::Float32(x) => format!("f32:{:08x}", x.to_bits()),
                Value::Float64(x) => format!("f64:{:016x}", x.to_bits()),
                Value::Custom { .. } => unreachable!(),
            })
            .collect();
        parts.join(" ")
    }

    /// Runs `n` mutations from `orig`, restoring it every `chain` (0:
    /// never), and returns the first three lines and the SHA-256 of all.
    fn run(
        seed: u64,
        max_len: usize,
        orig: &[Value],
        n: usize,
        chain: usize,
    ) -> (Vec<String>, String) {
        let mut m = Mutator::new(seed, max_len);
        let mut vals = orig.to_vec();
        let mut h = Sha256::new();
        let mut first = Vec::new();
        for i in 0..n {
            if chain > 0 && i % chain == 0 {
                vals = orig.to_vec();
            }
            m.mutate(&mut vals);
            let l = line(&vals);
            if i < 3 {
                first.push(l.clone());
            }
            h.update(l.as_bytes());
            h.update(b"\n");
        }
        (first, hex::encode(h.finalize()))
    }

    // The expected values below were printed by Go 1.19's own pcg.go,
    // mutator.go and mutators_byteslice.go, copied into a main package that
    // seeds the first generator like `GODEBUG=fuzzseed=SEED` and calls
    // `mutate(vals, (max_len+101)*len(vals))`, so that `maxPerVal` (the
    // scratch capacity) is `max_len + 1`.
    #[test]
    fn go_reference_bytes() {
        let (first, sum) = run(42, 64, &[Value::Bytes(b"hello, world".to_vec())], 2000, 0);
        assert_eq!(
            first,
            [
                "b:68656c6c6f2c31776f726c64",
                "b:68650000007f31776f726c64",
                "b:68650000007f31896f726c64"
            ]
        );
        assert_eq!(
            sum,
            "8289952c2afbf8476dbb2708d61a5b037974945bbea868af0465d319b070214f"
        );
    }

    #[test]
    fn go_reference_empty_chained() {
        let (first, sum) = run(7, 4096, &[Value::Bytes(vec![])], 2000, CHAIN as usize);
        assert_eq!(first[0], "b:4449e35f516126df");
        assert_eq!(
            sum,
            "7e46ad1e06f070aa9efa455521735f29a291f6bcc8939408af886ed056e8b168"
        );
    }

    #[test]
    fn go_reference_mixed() {
        let orig = [
            Value::Int8(0),
            Value::Uint16(65530),
            Value::Float64(1.5),
            Value::Bool(true),
            Value::String(b"abc".to_vec()),
            Value::Int64(i64::MIN),
            Value::Uint(0),
            Value::Float32(-2.25),
            Value::Int32(-5),
            Value::Uint8(250),
            Value::Int(i64::MAX),
            Value::Int16(-32767),
            Value::Uint32(4_000_000_000),
            Value::Uint64(u64::MAX),
            Value::Bytes(b"0123456789abcdef".to_vec()),
        ];
        let (first, sum) = run(1, 32, &orig, 5000, CHAIN as usize);
        assert!(first[2].contains("f64:3fc5555555555555"), "{}", first[2]);
        assert_eq!(
            sum,
            "35845022bbefaca276649bbd963650935f8a851129e6a88085917d6d51292847"
        );
    }

    #[test]
    fn go_reference_floats() {
        let orig = [
            Value::Float64(0.0),
            Value::Float32(f32::MAX),
            Value::Float64(f64::MAX),
            Value::Float64(-f64::MAX),
            Value::Float32(1e-40),
            Value::Float64(f64::INFINITY),
            Value::Float64(f64::from_bits(0x7ff8000000000001)),
            Value::Float64(5e-324),
        ];
        let (first, sum) = run(3, 16, &orig, 3000, 0);
        assert!(
            first[1].starts_with("f64:0000000000000000 f32:7e7fffff "),
            "{}",
            first[1]
        );
        assert_eq!(
            sum,
            "affa57b15852622923a3f46300842e7789e0f44f4ae167883a0b2a0df385450d"
        );
    }

    #[test]
    fn go_reference_ints() {
        let orig = [
            Value::Int8(-127),
            Value::Int8(127),
            Value::Int8(-128),
            Value::Int16(0),
            Value::Int32(i32::MIN),
            Value::Uint8(0),
            Value::Uint8(255),
            Value::Uint16(1),
        ];
        let (first, sum) = run(5, 16, &orig, 3000, 0);
        assert_eq!(
            first[0],
            "i8:-127 i8:127 i8:-128 i16:0 i32:-2147483648 u8:0 u8:215 u16:1"
        );
        assert_eq!(
            sum,
            "8705c3a234a46f58035c27676ed387d7df05fb645643227fb96e58feefe8ff2d"
        );
    }

    #[test]
    fn same_seed_same_sequence() {
        let orig = vec![
            Value::Bytes(b"seed".to_vec()),
            Value::Int(3),
            Value::Float32(0.5),
            Value::String(vec![]),
        ];
        let a = run(1234, 100, &orig, 3000, 5);
        let b = run(1234, 100, &orig, 3000, 5);
        let c = run(1235, 100, &orig, 3000, 5);
        assert_eq!(a, b);
        assert_ne!(a.1, c.1);
    }

    #[test]
    fn lengths_never_exceed_max_len() {
        for max_len in [0usize, 1, 2, 3, 8, 17, 64, 1000] {
            let mut m = Mutator::new(max_len as u64, max_len);
            let start = vec![
                Value::Bytes(vec![]),
                Value::String(b"xyz"[..max_len.min(3)].to_vec()),
            ];
            let mut vals = start.clone();
            for i in 0..20_000 {
                if i % 500 == 0 {
                    vals = start.clone();
                }
                m.mutate(&mut vals);
                for v in &vals {
                    assert!(v.as_bytes().unwrap().len() <= max_len, "max_len {max_len}");
                }
            }
        }
    }

    #[test]
    fn grows_up_to_exactly_max_len() {
        let mut m = Mutator::new(9, 16);
        let mut v = vec![Value::Bytes(vec![])];
        let mut longest = 0;
        for _ in 0..20_000 {
            m.mutate(&mut v);
            longest = longest.max(v[0].as_bytes().unwrap().len());
        }
        assert_eq!(longest, 16);
    }

    #[test]
    fn overlong_argument_is_truncated() {
        let mut m = Mutator::new(1, 10);
        let mut v = vec![Value::String(vec![b'a'; 100])];
        m.mutate(&mut v);
        assert!(v[0].as_bytes().unwrap().len() <= 10);
    }

    #[test]
    fn int8_never_reaches_minus_128() {
        for seed in 0..50 {
            let mut m = Mutator::new(seed, 16);
            let mut v = vec![Value::Int8(-100)];
            for _ in 0..2000 {
                m.mutate(&mut v);
                assert_ne!(v[0], Value::Int8(-128));
            }
            // From -128 itself, only addition is possible.
            let mut v = vec![Value::Int8(-128)];
            m.mutate(&mut v);
            assert!(matches!(v[0], Value::Int8(x) if x > -128));
        }
    }

    #[test]
    fn numbers_stay_in_range_and_move_a_little() {
        let mut m = Mutator::new(77, 16);
        for _ in 0..5000 {
            let mut v = vec![Value::Uint8(250)];
            m.mutate(&mut v);
            let Value::Uint8(x) = v[0] else {
                unreachable!()
            };
            assert!((150..=255).contains(&x) && x != 250);
            let mut v = vec![Value::Int64(i64::MIN)];
            m.mutate(&mut v);
            let Value::Int64(x) = v[0] else {
                unreachable!()
            };
            assert!(x > i64::MIN && x <= i64::MIN + 100);
            let mut v = vec![Value::Uint64(0)];
            m.mutate(&mut v);
            assert!(matches!(v[0], Value::Uint64(1..=100)));
            let mut v = vec![Value::Float32(f32::MAX)];
            m.mutate(&mut v);
            let Value::Float32(x) = v[0] else {
                unreachable!()
            };
            assert!(x.is_finite());
        }
    }

    #[test]
    fn special_floats_do_not_hang() {
        let mut m = Mutator::new(5, 16);
        for x in [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            0.0,
            -0.0,
            f64::MIN_POSITIVE,
        ] {
            for _ in 0..200 {
                let mut v = vec![Value::Float64(x), Value::Float32(x as f32)];
                m.mutate(&mut v);
            }
        }
        let mut v = vec![Value::Float64(f64::NAN)];
        m.mutate(&mut v);
        assert!(matches!(v[0], Value::Float64(x) if x.is_nan()));
    }

    #[test]
    fn bool_flips_about_half_the_time() {
        let mut m = Mutator::new(11, 16);
        let mut flips = 0;
        for _ in 0..10_000 {
            let mut v = vec![Value::Bool(false)];
            m.mutate(&mut v);
            flips += usize::from(v[0] == Value::Bool(true));
        }
        assert!((4_500..5_500).contains(&flips), "{flips}");
    }

    #[test]
    fn every_byte_mutator_is_reachable() {
        let mut m = Mutator::new(2024, 4096);
        let mut seen = [0u32; 18];
        for i in 0..50_000usize {
            let mut b: Vec<u8> = (0..(i % 40) as u8).collect();
            if let Some(k) = m.mutate_bytes(&mut b) {
                seen[k] += 1;
            }
        }
        for (k, n) in seen.iter().enumerate() {
            assert!(*n > 0, "{} never applied: {seen:?}", BYTE_MUTATORS[k].0);
        }
    }

    #[test]
    fn short_inputs_accept_only_gos_mutators() {
        let mut m = Mutator::new(8, 4096);
        for _ in 0..2000 {
            let mut b = vec![];
            assert_eq!(m.mutate_bytes(&mut b), Some(1));
            let mut b = vec![7];
            let k = m.mutate_bytes(&mut b).unwrap();
            assert!([1, 4, 5, 7, 11].contains(&k), "{}", BYTE_MUTATORS[k].0);
        }
    }

    #[test]
    fn degenerate_lists_return() {
        let mut m = Mutator::new(1, 0);
        m.mutate(&mut []);
        let mut v = vec![
            Value::Custom {
                name: "t".into(),
                data: b"abc".to_vec(),
            };
            3
        ];
        for _ in 0..100 {
            m.mutate(&mut v);
        }
        assert_eq!(v[0].as_bytes(), Some(&b"abc"[..]));
        let mut v = vec![Value::Bytes(vec![]), Value::String(b"abc".to_vec())];
        for _ in 0..100 {
            m.mutate(&mut v);
        }
        assert_eq!(v, [Value::Bytes(vec![]), Value::String(vec![])]);
        assert_eq!(m.mutate_bytes(&mut vec![]), None);
    }
}
