//! bench/realbugs pgp_message: parse the input as a binary OpenPGP message
//! with pgp's Message::from_bytes.
use pgp::Deserializable;

#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let _ = pgp::Message::from_bytes(input);
    0
}
