//! bench/realbugs htmlstream_rest: iterate over the tags of the input
//! (UTF-8 only) with htmlstream's tag_iter, and over each tag's attributes
//! with attr_iter.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    if let Ok(html) = std::str::from_utf8(input) {
        for (_, tag) in htmlstream::tag_iter(html) {
            for _ in htmlstream::attr_iter(&tag.attributes) {}
        }
    }
    0
}
