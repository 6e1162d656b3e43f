//! Example: typed Rust targets whose bugs hide from comparison feedback.
//!
//! `FuzzMagic`: with a constant this short, rustc compiles `payload ==
//! b"MAGIC_1234"` to one 80-bit comparison, which `trace-compares` skips
//! and the code generator splits into an 8-byte and a 2-byte immediate
//! (loads, XORs, one compare with zero), so neither coverage nor
//! comparison operands show the way. fuzz-run's automatic dictionary reads
//! the constant out of the machine code (`-auto_dict`, on by default), and
//! a `-dict` word finds it too. Longer or non-constant comparisons stay
//! `bcmp` calls, which fuzz-worker interposes.
//! Trigger: FuzzMagic([]byte("MAGIC_1234")).
//!
//! `FuzzParams`: `name=value` pairs split on `;` into a hashed map, then a
//! lookup of the key `session-token`. The map compares a name with the key
//! only when their hashes share a bucket, so the key's bytes reach the
//! interposed `bcmp` about once in a hundred names of its length; the
//! code hands the key to the lookup as a pointer and a length, and
//! `-code_strings` reads it from there. The compare itself may be inlined
//! as two overlapping 8-byte immediates ("session-", "on-token"), which
//! the automatic dictionary reads: a slower route, now and then.
//! Trigger: FuzzParams([]byte("session-token=")).
//!
//! `--features fixed` removes both bugs.

use fuzz_target::fuzz_target;
use std::collections::HashMap;

fuzz_target!(FuzzMagic, |payload: &[u8]| {
    if payload == b"MAGIC_1234" {
        if cfg!(not(feature = "fixed")) {
            panic!("magic payload reached");
        }
        std::hint::black_box(payload);
    }
});

fuzz_target!(FuzzParams, |payload: &[u8]| {
    let params: HashMap<&[u8], &[u8]> = payload
        .split(|&b| b == b';')
        .filter_map(|pair| {
            let eq = pair.iter().position(|&b| b == b'=')?;
            Some((&pair[..eq], &pair[eq + 1..]))
        })
        .collect();
    if let Some(token) = params.get(&b"session-token"[..]) {
        if token.is_empty() && cfg!(not(feature = "fixed")) {
            panic!("empty session token");
        }
        std::hint::black_box(token);
    }
});
