//! bench/suite: serde_json target. Parse the input as a
//! `serde_json::Value` and print it back (our own harness, the same job as
//! bench/vs-libfuzzer.sh's).
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    let input = if size == 0 {
        &[][..]
    } else {
        // SAFETY: the engine passes `size` readable bytes at `data`.
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    if let Ok(v) = serde_json::from_slice::<serde_json::Value>(input) {
        std::hint::black_box(serde_json::to_string(&v).ok());
    }
    0
}
