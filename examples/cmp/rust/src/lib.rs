//! Example: a typed Rust target whose bug hides behind a 10-byte slice
//! equality. With a constant this short, LLVM expands `payload ==
//! b"MAGIC_1234"` inline (loads, XORs, one compare with zero), so neither
//! coverage nor comparison operands show the way; a dictionary word does
//! (`fuzz-run -dict`). Longer or non-constant comparisons stay `bcmp`
//! calls, which fuzz-worker interposes.
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
