//! bench/realbugs zlib_gzip_extra: inflate the input as a gzip stream with
//! zlib (libz-sys's bundled C source), keeping the header's extra field in
//! a 32-byte heap buffer (inflateGetHeader), the input fed in 64-byte reads as a
//! streaming reader does.
use libz_sys::*;
use std::os::raw::{c_int, c_void};

extern "C" {
    fn calloc(n: usize, size: usize) -> *mut c_void;
    fn free(p: *mut c_void);
}
unsafe extern "C" fn zalloc(_: voidpf, items: uInt, size: uInt) -> voidpf {
    calloc(items as usize, size as usize)
}
unsafe extern "C" fn zfree(_: voidpf, p: voidpf) {
    free(p)
}

#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    // SAFETY: the engine passes `size` readable bytes at `data`.
    let input = if size == 0 {
        &[][..]
    } else {
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let mut extra = vec![0u8; 32];
    let mut out = [0u8; 1024];
    unsafe {
        let mut strm = z_stream {
            next_in: std::ptr::null_mut(),
            avail_in: 0,
            total_in: 0,
            next_out: std::ptr::null_mut(),
            avail_out: 0,
            total_out: 0,
            msg: std::ptr::null_mut(),
            state: std::ptr::null_mut(),
            zalloc,
            zfree,
            opaque: std::ptr::null_mut(),
            data_type: 0,
            adler: 0,
            reserved: 0,
        };
        let size_of_stream = std::mem::size_of::<z_stream>() as c_int;
        if inflateInit2_(&mut strm, 15 + 16, zlibVersion(), size_of_stream) != Z_OK {
            return 0;
        }
        let mut head: gz_header = std::mem::zeroed();
        head.extra = extra.as_mut_ptr();
        head.extra_max = extra.len() as uInt;
        inflateGetHeader(&mut strm, &mut head);
        'read: for chunk in input.chunks(64) {
            strm.next_in = chunk.as_ptr() as *mut u8;
            strm.avail_in = chunk.len() as uInt;
            loop {
                strm.next_out = out.as_mut_ptr();
                strm.avail_out = out.len() as uInt;
                if inflate(&mut strm, Z_NO_FLUSH) != Z_OK {
                    break 'read;
                }
                if strm.avail_in == 0 && strm.avail_out != 0 {
                    break;
                }
            }
        }
        inflateEnd(&mut strm);
    }
    0
}
