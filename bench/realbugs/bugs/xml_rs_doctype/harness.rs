//! bench/realbugs xml_rs_doctype: read every event of the input as an XML
//! document with xml-rs's pull parser, until the end or the first error.
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let mut reader = xml::reader::EventReader::new(input);
    loop {
        match reader.next() {
            Ok(xml::reader::XmlEvent::EndDocument) | Err(_) => break,
            Ok(_) => {}
        }
    }
    0
}
