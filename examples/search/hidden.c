// Hidden decisions: a chain of comparisons whose results are stored and
// computed with, never branched on (compiled to set-on-condition
// instructions: a select would be threaded into jumps). The value
// compared at each step is the next input byte only when every byte before
// it was right, so the steps are a ladder of eight rungs; but no edge tells
// an input with one byte right from one with none, so coverage alone gives
// the search nothing to climb: it would need all eight bytes at once.
// Counting each comparison's outcome (equal, below, above) as coverage
// (fuzz-run -cmp_outcomes 1) keeps every input that gets a step further.
// This is the shape of a state machine written branch-free, of a lookup
// whose result is stored, of a flag word built from comparisons. Built
// with clang's trace-cmp and fuzzed with -use_cmp 0, so that no comparison
// operand gives the answer away: only the outcomes can help.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

// The next byte when the step before holds, else that byte plus 256, a
// value no byte has.
#define STEP(x, want, next) ((next) | (unsigned)((x) != (want)) << 8)

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n < 8)
        return 0;
    unsigned x = d[0];
    x = STEP(x, 'h', d[1]);
    x = STEP(x, 'i', d[2]);
    x = STEP(x, 'd', d[3]);
    x = STEP(x, 'd', d[4]);
    x = STEP(x, 'e', d[5]);
    x = STEP(x, 'n', d[6]);
    x = STEP(x, '!', d[7]);
    if (x == '?')
        abort(); // the planted bug
    return 0;
}
