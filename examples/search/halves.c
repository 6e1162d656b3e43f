// Two halves: a ladder at the start of the input and another at its end,
// and a crash when both are complete. Each ladder is climbed by its own
// entries; once both are known, an input that completes one ladder and
// half of the other reaches nothing new, so mutation alone must write the
// missing rungs all at once. Splicing (-cross_over) joins the head of one
// entry to the tail of another. Built with gcc's trace-pc alone.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// Written on every rung, so that each rung is a branch of its own (without
// it gcc folds the last comparison of a ladder into its return value).
static volatile int rungs;

static int head(const uint8_t *d) {
    if (d[0] != 'H')
        return 0;
    if (d[1] != 'E')
        return 0;
    if (d[2] != 'A')
        return 0;
    if (d[3] != 'D')
        return 0;
    rungs++;
    return 1;
}

static int tail(const uint8_t *d) {
    if (d[3] != 'T')
        return 0;
    if (d[2] != 'A')
        return 0;
    if (d[1] != 'I')
        return 0;
    if (d[0] != 'L')
        return 0;
    rungs++;
    return 1;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n < 8)
        return 0;
    int h = head(d);
    int t = tail(d + n - 4);
    if (h && t)
        abort(); // the planted bug: both halves in one input
    return 0;
}
