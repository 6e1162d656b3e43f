//! bench/realbugs toml_edit_header: parse the input as a TOML document with
//! toml_edit (the format-preserving parser under cargo's manifests).
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let Ok(text) = std::str::from_utf8(input) else {
        return 0;
    };
    let _ = text.parse::<toml_edit::DocumentMut>();
    0
}
