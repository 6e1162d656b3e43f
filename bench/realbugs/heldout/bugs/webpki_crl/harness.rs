//! bench/realbugs webpki_crl: parse the input as a DER certificate
//! revocation list with rustls-webpki's BorrowedCertRevocationList::from_der
//! (no crypto provider: parsing checks no signature).
#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let _ = webpki::BorrowedCertRevocationList::from_der(input);
    0
}
