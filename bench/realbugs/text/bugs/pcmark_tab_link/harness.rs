//! bench/realbugs pcmark_tab_link: parse the input as Markdown with
//! pulldown-cmark's default options and read every event.
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
    pulldown_cmark::Parser::new(text).for_each(drop);
    0
}
