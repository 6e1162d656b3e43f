//! bench/realbugs bcrypt_hash: verify a fixed password against the input
//! (UTF-8 only) as a bcrypt hash with bcrypt's verify. An input whose cost
//! field (bytes 4..6) reads as a number above 10 is skipped: a well-formed
//! hash of cost up to 31 is 2^31 rounds, a hang of the harness's own.
const PASSWORD: &[u8] = b"password";
const MAX_COST: u32 = 10;

#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let cost = input
        .get(4..6)
        .and_then(|field| std::str::from_utf8(field).ok())
        .and_then(|field| field.parse::<u32>().ok());
    if cost.is_some_and(|cost| cost > MAX_COST) {
        return 0;
    }
    if let Ok(text) = std::str::from_utf8(input) {
        let _ = bcrypt::verify(PASSWORD, text);
    }
    0
}
