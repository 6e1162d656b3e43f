//! bench/realbugs jpeg_no_frame: decode the input as a JPEG image with
//! jpeg-decoder's Decoder (without its rayon feature: one thread).
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let mut decoder = jpeg_decoder::Decoder::new(input);
    let _ = decoder.decode();
    0
}
