//! bench/realbugs alloy_json_abi: parse the input (UTF-8 only) as one
//! human-readable ABI item (`function ...`, `error ...`, `event ...`) with
//! alloy-json-abi's AbiItem::parse.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    if let Ok(text) = std::str::from_utf8(input) {
        let _ = alloy_json_abi::AbiItem::parse(text);
    }
    0
}
