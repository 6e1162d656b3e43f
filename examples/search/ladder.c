// A ladder: eight byte comparisons, each its own branch, and a crash at
// the top. Coverage rewards every rung, so an engine that keeps mutating
// the entry on the highest rung climbs fast, and one that spreads its time
// evenly over a large corpus (Go's round-robin) climbs slowly. Built with
// gcc's trace-pc alone: no comparison operands to copy.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n < 8)
        return 0;
    if (d[0] != 'L')
        return 0;
    if (d[1] != 'a')
        return 0;
    if (d[2] != 'd')
        return 0;
    if (d[3] != 'd')
        return 0;
    if (d[4] != 'e')
        return 0;
    if (d[5] != 'r')
        return 0;
    if (d[6] != '!')
        return 0;
    if (d[7] != '!')
        return 0;
    abort(); // the planted bug: the top of the ladder
}
