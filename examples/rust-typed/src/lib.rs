//! Example: Go-style typed fuzz targets written with `fuzz_target!`.
//!
//! Each planted bug sits behind a few nested single-byte or small-value
//! checks, so that plain coverage feedback finds it in seconds from the zero
//! values. Building with `--features fixed` removes the bugs and keeps every
//! branch. examples/README.md lists the inputs that trigger them.

use fuzz_target::{fuzz_target, GoStr, Verdict};

/// Planted bug: panics when `name` starts with "ab", `count` is in 3..=6
/// and `payload` starts with '!'. Trigger: ("ab", 3, "!").
fn check_record(name: &str, count: i64, payload: &[u8]) -> usize {
    let b = name.as_bytes();
    let mut depth = 0;
    if !b.is_empty() && b[0] == b'a' {
        depth += 1;
        if b.len() >= 2 && b[1] == b'b' {
            depth += 1;
            if count >= 3 {
                depth += 1;
                if count <= 6 {
                    depth += 1;
                    if !payload.is_empty() && payload[0] == b'!' {
                        depth += 1;
                        if cfg!(not(feature = "fixed")) {
                            panic!(
                                "record {name:?} with count {count} has a bang payload ({} bytes)",
                                payload.len()
                            );
                        }
                    }
                }
            }
        }
    }
    depth
}

fuzz_target!(
    /// See `check_record`.
    FuzzRecord,
    |name: &str, count: i64, payload: &[u8]| {
        std::hint::black_box(check_record(name, count, payload));
    }
);

fuzz_target!(
    /// Planted bug: fails (an `Err`, not a panic) when `level` is 7,
    /// `strict` is set and `word` starts with 'z'. Trigger: (7, true, "z").
    FuzzFlags,
    |level: u8, strict: bool, word: String| -> Result<(), String> {
        if level == 7 && strict {
            if let Some(b'z') = word.bytes().next() {
                if cfg!(not(feature = "fixed")) {
                    return Err(format!("level {level} rejects strict word {word:?}"));
                }
            }
        }
        Ok(())
    }
);

fuzz_target!(
    /// No bug: takes one argument of every kind `fuzz_target!` supports, for
    /// the tools' signature listings. Rejects NaN floats (a `Verdict`).
    FuzzAllTypes,
    |a: i8, b: i16, c: i32, d: i64, e: isize, f: u8, g: u16, h: u32, i: u64, j: usize,
     k: f32, l: f64, m: char, n: bool, o: GoStr, p: Vec<u8>| {
        if k.is_nan() || l.is_nan() {
            return Verdict::Reject;
        }
        let sum = (a as i64)
            .wrapping_add(b as i64)
            .wrapping_add(c as i64)
            .wrapping_add(d)
            .wrapping_add(e as i64)
            .wrapping_add(f as i64 + g as i64 + h as i64)
            .wrapping_add(i as i64)
            .wrapping_add(j as i64);
        std::hint::black_box((sum, m, n, o.len(), p.len()));
        Verdict::Pass
    }
);
