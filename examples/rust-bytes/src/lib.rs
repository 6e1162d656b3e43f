//! Example: a libFuzzer entry point written with `libfuzzer_target!`.
//!
//! A tiny record parser: the magic "FUZ", a version byte, and for version
//! '2' a length byte followed by that many body bytes. The planted bug:
//! version '2' trusts the length byte (and its presence) without a bounds
//! check, so a short input panics with an index out of range, and a panic
//! in a libFuzzer entry aborts the process (a crash). Trigger: "FUZ2\x09".
//! Building with `--features fixed` adds the checks.

use fuzz_target::{libfuzzer_target, Verdict};

/// The parsed body length, or `None` when the input is not a record.
fn parse(data: &[u8]) -> Option<usize> {
    if data.len() < 4 || data[0] != b'F' {
        return None;
    }
    if data[1] != b'U' {
        return None;
    }
    if data[2] != b'Z' {
        return None;
    }
    match data[3] {
        b'1' => Some(data.len() - 4),
        b'2' => {
            if cfg!(feature = "fixed") {
                let n = *data.get(4)? as usize;
                data.get(5..5 + n).map(<[u8]>::len)
            } else {
                // The bug: no check that the length byte and body exist.
                let n = data[4] as usize;
                let body = &data[5..5 + n];
                Some(body.len())
            }
        }
        _ => None,
    }
}

libfuzzer_target!(|data: &[u8]| {
    if data.len() > 4096 {
        return Verdict::Reject;
    }
    std::hint::black_box(parse(data));
    Verdict::Pass
});
