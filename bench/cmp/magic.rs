//! bench/cmp-feedback.sh: the comparison of examples/cmp/rust as a
//! libFuzzer entry point, for libFuzzer's side of the table. Built with
//! rustc alone (no crates) as a static library with the SanitizerCoverage
//! flags of the examples, and linked with clang-19 -fsanitize=fuzzer.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    let payload = if size == 0 {
        &[][..]
    } else {
        // SAFETY: libFuzzer passes `size` readable bytes at `data`.
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    if payload == b"MAGIC_1234" {
        std::process::abort();
    }
    0
}
