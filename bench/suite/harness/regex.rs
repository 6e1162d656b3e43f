//! bench/suite: regex target. Compile the input (UTF-8 only) as a pattern,
//! with the compiled program and lazy DFA capped at 1 MiB each, and run it
//! over a fixed haystack: is_match, every match, and the first match's
//! capture groups (our own harness).
const HAYSTACK: &str = "The quick brown fox jumps over the lazy dog 1234567890 times.\n\
    2024-01-15T10:20:30Z user.name+tag@example.com http://example.org/a?b=c#d\n\
    3.14159 -42 0x1F \"quoted\" [brackets] (parens) {braces} tab\there\n\
    Ünïcödé ΑΒΓ δεζ Жж 日本語 😀 é e\u{301}\n";

#[no_mangle]
pub extern "C" fn LLVMFuzzerTestOneInput(data: *const u8, size: usize) -> i32 {
    let input = if size == 0 {
        &[][..]
    } else {
        // SAFETY: the engine passes `size` readable bytes at `data`.
        unsafe { std::slice::from_raw_parts(data, size) }
    };
    let Ok(pattern) = std::str::from_utf8(input) else {
        return 0;
    };
    let built = regex::RegexBuilder::new(pattern)
        .size_limit(1 << 20)
        .dfa_size_limit(1 << 20)
        .build();
    if let Ok(re) = built {
        std::hint::black_box(re.is_match(HAYSTACK));
        std::hint::black_box(re.find_iter(HAYSTACK).count());
        if let Some(caps) = re.captures(HAYSTACK) {
            std::hint::black_box(caps.iter().flatten().map(|m| m.len()).sum::<usize>());
        }
    }
    0
}
