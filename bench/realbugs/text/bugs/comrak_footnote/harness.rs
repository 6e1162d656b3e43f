//! bench/realbugs comrak_footnote: render the input as HTML with comrak
//! (GitHub's Markdown), autolinks, footnotes and relaxed autolinks on.
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
    let mut options = comrak::Options::default();
    options.extension.autolink = true;
    options.extension.footnotes = true;
    options.parse.relaxed_autolinks = true;
    let _ = comrak::markdown_to_html(text, &options);
    0
}
