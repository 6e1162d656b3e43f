//! bench/realbugs alloy_eip712: read the input (UTF-8 only) as EIP-712
//! typed data (JSON, serde_json) with alloy-dyn-abi's TypedData and compute
//! its eip712_signing_hash.
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
    if let Ok(typed) = serde_json::from_str::<alloy_dyn_abi::eip712::TypedData>(text) {
        let _ = typed.eip712_signing_hash();
    }
    0
}
