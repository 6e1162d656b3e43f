//! bench/realbugs exif_png_loop: read the Exif attributes of the input as
//! an image file (JPEG, TIFF, HEIF, PNG, WebP: found by its signature) with
//! kamadak-exif's Reader::read_from_container.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let _ = exif::Reader::new().read_from_container(&mut std::io::Cursor::new(input));
    0
}
