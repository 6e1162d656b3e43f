//! bench/realbugs boa_eval: evaluate the input (UTF-8 only) as a script with
//! boa_engine's Context::eval, then run the job queue (promise reactions),
//! a fresh context per input. Loops stop after LOOP_LIMIT iterations (a
//! RangeError), so that an endless loop is not a hang of the harness's own.
use boa_engine::{Context, Source};

const LOOP_LIMIT: u64 = 1_000_000;

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
    let mut context = Context::default();
    context
        .runtime_limits_mut()
        .set_loop_iteration_limit(LOOP_LIMIT);
    let _ = context.eval(Source::from_bytes(text));
    context.run_jobs();
    0
}
