//! Compiles fuzz-worker's C runtime (c/sancov.c: the trace-pc callback and
//! the interposed libc comparisons; c/guard.c: the call a known crash
//! returns from) into this library, whole: nothing in the Rust code calls
//! most of these callbacks, and an archive's unreferenced members would
//! otherwise be left out of the binary. The fuzz-worker binary exports
//! them, and the library's own `#[no_mangle]` callbacks, to the target
//! libraries it loads (`-rdynamic`: the root package's build.rs). Only a
//! binary that links this library carries them: the other tools do not (an
//! interposed memcmp has no business in fuzz-corpus).

fn main() {
    println!("cargo:rerun-if-changed=c/sancov.c");
    println!("cargo:rerun-if-changed=c/guard.c");
    cc::Build::new()
        .file("c/sancov.c")
        .file("c/guard.c")
        .flag("-fno-builtin")
        .flag("-fPIC")
        .opt_level(2)
        // The release profile's debug info would otherwise keep frame
        // pointers: a frame set up in every comparison callback (tens of
        // thousands per SQLite execution) to read the return address.
        .force_frame_pointer(false)
        .warnings(true)
        .extra_warnings(true)
        .link_lib_modifier("+whole-archive")
        .compile("fuzz_worker_rt");
    // This package's own test binary (its unit tests) loads instrumented
    // libraries too: it exports the runtime as the fuzz-worker binary does.
    println!("cargo:rustc-link-arg=-rdynamic");
}
