/*
 * Example: a libFuzzer target whose seeds leave one branch unreached, for
 * fuzz-corpus cover's source view (cover -html, cover -lines): the lines
 * ending in "not reached by the seeds" are exactly those the seed corpus
 * in testdata/fuzz/c_stuck/ never runs; it reaches every other line.
 * tests/e2e/cover.rs holds the report to that. No planted bug.
 *
 * Input: a command byte and its operands. 'a' adds the operand bytes
 * after the second byte, 's' doubles the total, 'r' resets it when the
 * second byte is '!', which no seed has; anything else sets it to 1.
 */
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static volatile unsigned total;
static volatile unsigned resets;

__attribute__((noinline))
static void reset(unsigned how) { /* not reached by the seeds */
    total = 0;                    /* not reached by the seeds */
    resets += how;                /* not reached by the seeds */
}                                 /* not reached by the seeds */

__attribute__((noinline)) static void add(const uint8_t *ops, size_t n) {
    size_t i;
    for (i = 0; i < n; i++)
        total += ops[i];
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    if (size < 2)
        return 0;
    switch (data[0]) {
    case 'a':
        add(data + 2, size - 2);
        break;
    case 's':
        total = total * 2;
        break;
    case 'r':
        if (data[1] == '!')
            reset(data[0]); /* not reached by the seeds */
        break;
    default:
        total = 1;
        break;
    }
    return 0;
}
