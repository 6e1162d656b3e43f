//! bench/realbugs pg_hstore: decode the input as a binary hstore value with
//! postgres-protocol's types::hstore_from_sql and iterate its entries.
use fallible_iterator::FallibleIterator;

#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    if let Ok(mut entries) = postgres_protocol::types::hstore_from_sql(input) {
        // Each entry reads at least 4 bytes or fails: the loop ends.
        while let Ok(Some(_)) = entries.next() {}
    }
    0
}
