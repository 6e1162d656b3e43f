//! bench/realbugs protobuf_groups: skip the input as the body of a protobuf
//! group (what follows a start-group tag) with protobuf's CodedInputStream,
//! skip_field(StartGroup): the public way to its private skip_group.
use protobuf::rt::WireType;
use protobuf::CodedInputStream;

#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let mut stream = CodedInputStream::from_bytes(input);
    let _ = stream.skip_field(WireType::StartGroup);
    0
}
