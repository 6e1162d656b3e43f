// Emoji in text: the input must be valid UTF-8 (anything else is rejected,
// as a parser of text rejects it), and the planted bug needs three emoji
// (U+1F300..U+1FAFF, four bytes each in UTF-8: F0 9F 8C 80 to F0 9F AB BF).
// Each emoji found is new coverage (the hit counter of `emoji++` moves to
// the next bucket), so the way is a ladder of three rungs. What makes each
// rung hard for byte mutations is that they must write all four bytes of
// a valid sequence in one go, two of them exact: a change that writes part
// of one makes the input invalid, and the validation rewards no part of
// one (it is not instrumented, as Rust's str::from_utf8, in the
// uninstrumented standard library, is not). fuzz-run writes whole
// characters into text (-utf8). Built with gcc's trace-pc alone, so no
// comparison operand helps.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define NO_COVERAGE __attribute__((no_sanitize_coverage, noinline))
#endif

// The length of the UTF-8 sequence at d (n bytes left), 0 when it is not
// valid (overlong forms, surrogates and values past U+10FFFF are not); its
// value in *out.
// Not instrumented, as Rust's str::from_utf8 (in the uninstrumented
// standard library) is not: how far a broken sequence got is no coverage.
NO_COVERAGE static size_t sequence(const uint8_t *d, size_t n, uint32_t *out) {
    uint8_t c = d[0];
    *out = c;
    if (c < 0x80)
        return 1;
    size_t len;
    uint32_t v;
    if (c >= 0xc2 && c <= 0xdf) {
        len = 2;
        v = c & 0x1f;
    } else if (c >= 0xe0 && c <= 0xef) {
        len = 3;
        v = c & 0x0f;
    } else if (c >= 0xf0 && c <= 0xf4) {
        len = 4;
        v = c & 0x07;
    } else {
        return 0;
    }
    if (n < len)
        return 0;
    for (size_t k = 1; k < len; k++) {
        if ((d[k] & 0xc0) != 0x80)
            return 0;
        v = v << 6 | (d[k] & 0x3f);
    }
    if (len == 3 && (v < 0x800 || (v >= 0xd800 && v <= 0xdfff)))
        return 0;
    if (len == 4 && (v < 0x10000 || v > 0x10ffff))
        return 0;
    *out = v;
    return len;
}

// Written for each emoji, so that their count is coverage.
static volatile int seen;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    int emoji = 0;
    for (size_t i = 0; i < n;) {
        uint32_t c;
        size_t len = sequence(d + i, n - i, &c);
        if (len == 0)
            return 0; // not text
        if (c - 0x1f300 < 0x800) {
            emoji++;
            seen++;
        }
        i += len;
    }
    if (emoji >= 3)
        abort(); // the planted bug: three emoji
    return 0;
}
