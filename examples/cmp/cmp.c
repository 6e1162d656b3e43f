/*
 * Example: a C libFuzzer target whose bug hides behind a 10-byte memcmp.
 * Plain coverage sees no partial progress through memcmp; comparison
 * feedback (the worker's interposed memcmp, or trace-cmp on an inlined
 * compare) is needed. The planted bug: abort() when the input starts with
 * "MAGIC_1234". Trigger: "MAGIC_1234". Built with -DFIXED, no abort.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile int reached;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size >= 10 && memcmp(data, "MAGIC_1234", 10) == 0) {
        reached = 1;
#ifndef FIXED
        abort();
#endif
    }
    return 0;
}
