/*
 * Example: a libFuzzer target with a custom cross-over.
 *
 * The input is a configuration, lines "key=value\n", sealed with the CRC-32
 * of the lines (crc32.h). Byte-level mutation and plain splicing break the
 * checksum, so new valid configurations come only from
 * LLVMFuzzerCustomCrossOver below, which takes the first lines of one
 * configuration and the last lines of another and seals the result. Its
 * random choices come from `seed` alone.
 *
 * Planted bug: abort() when one configuration sets both mode=fast and
 * level=9. The seed corpus (examples/custom/testdata/fuzz/custom_config/)
 * has one configuration with each line: only crossing them over finds it.
 * Trigger: known-inputs/custom_config. Built with -DFIXED: no abort.
 *
 * With -DFIXED -DCROSS_OVER_BUG (libcustom_config_cross_over_crash.so) the
 * cross-over itself crashes on the calls whose seed is a multiple of 64,
 * after it writes the sizes of its two inputs to stderr: fuzz-run must
 * record both inputs of the call, the second one too.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "crc32.h"
#include "fuzz_target.h"

static volatile int seen;

static int line_is(const uint8_t *p, size_t n, const char *s) {
    size_t len = strlen(s);
    return n == len && memcmp(p, s, len) == 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    int fast = 0, nine = 0;
    size_t at = 0;
    if (!record_valid(data, size))
        return 0;
    size -= 4;
    while (at < size) {
        const uint8_t *nl = memchr(data + at, '\n', size - at);
        size_t end = nl ? (size_t)(nl - data) : size;
        if (line_is(data + at, end - at, "mode=fast"))
            fast = 1;
        else if (line_is(data + at, end - at, "level=9"))
            nine = 1;
        at = end + 1;
    }
    seen = fast + 2 * nine;
    if (fast && nine) {
#ifndef FIXED
        abort();
#endif
    }
    return 0;
}

/* The lines of a configuration (none when it is not valid): each ends
 * after its '\n', the last one at the end of the lines. */
static size_t line_ends(const uint8_t *d, size_t n, size_t *ends, size_t max) {
    size_t count = 0, i;
    if (!record_valid(d, n))
        return 0;
    n -= 4;
    for (i = 0; i < n && count < max; i++)
        if (d[i] == '\n' || i + 1 == n)
            ends[count++] = i + 1;
    return count;
}

#define MAX_LINES 256

size_t LLVMFuzzerCustomCrossOver(const uint8_t *data1, size_t size1,
                                 const uint8_t *data2, size_t size2,
                                 uint8_t *out, size_t max_out_size,
                                 unsigned int seed) {
#ifdef CROSS_OVER_BUG
    if (seed % 64 == 0) {
        fprintf(stderr, "cross-over of %zu and %zu bytes\n", size1, size2);
        *(volatile int *)0 = 0;
    }
#endif
    size_t ends1[MAX_LINES], ends2[MAX_LINES];
    size_t n1 = line_ends(data1, size1, ends1, MAX_LINES);
    size_t n2 = line_ends(data2, size2, ends2, MAX_LINES);
    fuzz_rng rng = fuzz_rng_init(seed);
    /* The first k lines of data1, then data2's from line j on. */
    size_t k = fuzz_rng_below(&rng, n1 + 1), j = fuzz_rng_below(&rng, n2 + 1);
    size_t head = k ? ends1[k - 1] : 0;
    size_t tail_at = j ? ends2[j - 1] : 0;
    size_t tail = n2 ? ends2[n2 - 1] - tail_at : 0;
    /* A last line without its '\n' gets one before more lines follow. */
    size_t newline = head && tail && data1[head - 1] != '\n';
    size_t size = head + newline + tail;
    if (size == 0 || size + 4 > max_out_size)
        return 0;
    memcpy(out, data1, head);
    if (newline)
        out[head] = '\n';
    memcpy(out + head + newline, data2 + tail_at, tail);
    return record_seal(out, size);
}
