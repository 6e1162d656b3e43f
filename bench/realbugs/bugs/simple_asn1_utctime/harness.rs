//! bench/realbugs simple_asn1_utctime: decode the input as DER with
//! simple_asn1's from_der.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let _ = simple_asn1::from_der(input);
    0
}
