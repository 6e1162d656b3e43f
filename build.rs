//! The fuzz-worker binary exports its runtime (the SanitizerCoverage
//! callbacks and interposed libc calls of fuzz-worker's library, see
//! fuzz-worker/build.rs) to the target libraries it loads.

fn main() {
    println!("cargo:rustc-link-arg-bin=fuzz-worker=-rdynamic");
}
