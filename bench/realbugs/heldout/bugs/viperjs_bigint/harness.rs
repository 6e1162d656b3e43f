//! bench/realbugs viperjs_bigint: evaluate the input (UTF-8 only) as a
//! script with viperjs's Engine::eval, a fresh engine per input (no time
//! budget: set_time_budget would make a run depend on the clock).
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    if let Ok(text) = std::str::from_utf8(input) {
        let mut engine = viperjs::api::Engine::new();
        let _ = engine.eval(text);
    }
    0
}
