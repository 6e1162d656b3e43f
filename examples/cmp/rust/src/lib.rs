//! Example: a typed Rust target whose bug hides behind a 10-byte slice
//! equality. Rust compiles `payload == b"MAGIC_1234"` to a `bcmp` call, so
//! plain coverage (and trace-cmp) cannot see partial progress; only
//! comparison feedback through the interposed `bcmp`/`memcmp` finds it.
//! Trigger: FuzzMagic([]byte("MAGIC_1234")). `--features fixed` removes it.

use fuzz_target::fuzz_target;

fuzz_target!(FuzzMagic, |payload: &[u8]| {
    if payload == b"MAGIC_1234" {
        if cfg!(not(feature = "fixed")) {
            panic!("magic payload reached");
        }
        std::hint::black_box(payload);
    }
});
