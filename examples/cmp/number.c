/*
 * Example: a C libFuzzer target whose bug hides behind a number written
 * as text and compared as a number, as JSON, SQL and script parsers do.
 * The digits at the start of the input are read into a running value; the
 * planted bug: abort() when that value is 4096000000017. The input never
 * holds the constant's binary form, so copying comparison operands as
 * bytes does not get there: the operand's decimal digits must replace the
 * number's. Trigger: "4096000000017". Built with -DFIXED, no abort.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile int reached;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    uint64_t v = 0;
    size_t i = 0;
    while (i < size && data[i] >= '0' && data[i] <= '9' && i < 19) {
        v = v * 10 + (uint64_t)(data[i] - '0');
        i++;
    }
    if (i > 0 && v == 4096000000017ULL) {
        reached = 1;
#ifndef FIXED
        abort();
#endif
    }
    return 0;
}
