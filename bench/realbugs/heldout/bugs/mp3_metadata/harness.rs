//! bench/realbugs mp3_metadata: read the input as an MP3 file (frames and
//! ID3 tags) with mp3-metadata's read_from_slice.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let _ = mp3_metadata::read_from_slice(input);
    0
}
