//! Compiles fuzz-worker's C runtime (fuzz-worker/c/sancov.c, and guard.c,
//! the call a known crash returns from) and links it
//! into fuzz-worker only, as objects rather than an archive so that every
//! callback is kept; `-rdynamic` exports them, and the worker's own
//! `#[no_mangle]` callbacks, to the target libraries it loads. The other
//! tools never see these symbols (an interposed memcmp has no business in
//! fuzz-corpus).

fn main() {
    println!("cargo:rerun-if-changed=fuzz-worker/c/sancov.c");
    println!("cargo:rerun-if-changed=fuzz-worker/c/guard.c");
    let objects = cc::Build::new()
        .file("fuzz-worker/c/sancov.c")
        .file("fuzz-worker/c/guard.c")
        .flag("-fno-builtin")
        .flag("-fPIC")
        .opt_level(2)
        // The release profile's debug info would otherwise keep frame
        // pointers: a frame set up in every comparison callback (tens of
        // thousands per SQLite execution) to read the return address.
        .force_frame_pointer(false)
        .warnings(true)
        .extra_warnings(true)
        .cargo_metadata(false)
        .compile_intermediates();
    for obj in objects {
        println!("cargo:rustc-link-arg-bin=fuzz-worker={}", obj.display());
    }
    println!("cargo:rustc-link-arg-bin=fuzz-worker=-rdynamic");
}
