//! bench/realbugs phonenumber_context: parse the input (UTF-8 only) as a
//! phone number with phonenumber's parse, no default country.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    if let Ok(text) = std::str::from_utf8(input) {
        let _ = phonenumber::parse(None, text);
    }
    0
}
