//! bench/realbugs rustls_acceptor: feed the input to rustls's server-side
//! Acceptor as the bytes a client sends, read_tls then accept until a
//! ClientHello is accepted, an error, or the end of the input (no crypto
//! provider: accept only parses the ClientHello).
use rustls::server::Acceptor;

#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let mut acceptor = Acceptor::default();
    let mut reader = std::io::Cursor::new(input);
    loop {
        // Each round reads at least one byte or ends the loop.
        let read = match acceptor.read_tls(&mut reader) {
            Ok(read) => read,
            Err(_) => break,
        };
        match acceptor.accept() {
            Ok(None) => {}
            Ok(Some(_)) | Err(_) => break,
        }
        if read == 0 {
            break;
        }
    }
    0
}
