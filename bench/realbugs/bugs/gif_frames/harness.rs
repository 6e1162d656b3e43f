//! bench/realbugs gif_frames: decode every frame of the input as a GIF,
//! RGBA output, with gif's DecodeOptions (the gif crate's README usage).
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::RGBA);
    if let Ok(mut decoder) = options.read_info(input) {
        while let Ok(Some(_frame)) = decoder.read_next_frame() {}
    }
    0
}
