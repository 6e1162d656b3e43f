//! bench/realbugs regex_empty_rep: compile the input (UTF-8 only) as a
//! pattern with regex's default limits, as a service taking untrusted
//! patterns does.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    if let Ok(pattern) = std::str::from_utf8(input) {
        let _ = regex::Regex::new(pattern);
    }
    0
}
