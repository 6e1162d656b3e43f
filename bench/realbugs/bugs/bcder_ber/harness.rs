//! bench/realbugs bcder_ber: walk the input as BER with bcder, skipping
//! over every value.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let _ = bcder::Mode::Ber.decode(input, |cons| cons.skip_all());
    0
}
