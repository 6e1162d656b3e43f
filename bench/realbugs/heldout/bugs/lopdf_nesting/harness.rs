//! bench/realbugs lopdf_nesting: load the input as a PDF document with
//! lopdf's Document::load_mem (without its rayon feature: objects are
//! parsed on the calling thread).
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let _ = lopdf::Document::load_mem(input);
    0
}
