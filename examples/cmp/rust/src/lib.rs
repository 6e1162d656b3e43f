//! Example: a typed Rust target whose bug hides behind a 10-byte slice
//! equality. With a constant this short, rustc compiles `payload ==
//! b"MAGIC_1234"` to one 80-bit comparison, which `trace-compares` skips
//! and the code generator splits into an 8-byte and a 2-byte immediate
//! (loads, XORs, one compare with zero), so neither coverage nor
//! comparison operands show the way. fuzz-run's automatic dictionary reads
//! the constant out of the machine code (`-auto_dict`, on by default), and
//! a `-dict` word finds it too. Longer or non-constant comparisons stay
//! `bcmp` calls, which fuzz-worker interposes.
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
