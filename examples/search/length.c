// A length written as text, past what a 16-bit field holds: the input is
// a header "size=N" (anything else is rejected), and the planted bug is
// the classic one just past the boundary: a size from 65,536 to 65,599,
// which a 16-bit length would wrap to a small one. From the seed
// "size=100", byte mutations must write "6553" to "6559" before a fifth
// digit in one go, while keeping the prefix: a change of one digit
// at a time earns nothing, since no value below 65,536 is new coverage.
// fuzz-run changes numbers written as text as numbers (-ascii_num 1):
// 65,536 is one of the edge values it writes, and doubling
// 100 gets near it too. Built with gcc's trace-pc alone, so no comparison
// operand helps.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n) {
    if (n < 6 || memcmp(d, "size=", 5) != 0)
        return 0; // not a header
    uint64_t v = 0;
    size_t i = 5;
    for (; i < n && i < 5 + 12 && d[i] >= '0' && d[i] <= '9'; i++)
        v = v * 10 + (uint64_t)(d[i] - '0');
    if (i == 5 || i != n)
        return 0; // not a number, or something after it
    if (v > 65535 && v < 65600)
        abort(); // the planted bug: a size past 16 bits
    return 0;
}
