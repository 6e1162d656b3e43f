// Lines in the right order: the planted bug needs, one right after the
// other, the list line "- itemized", the definition line ": definition"
// and the heading line "# headings", each ended by a newline, as a
// Markdown parser's block structure depends on which kinds of line follow
// which. The start seed holds the three lines in the opposite order. The
// list line followed by the definition line is new coverage, so the way is
// a ladder of two rungs; what makes each rung hard for byte mutations is
// that they must copy a whole line, 11 to 13 bytes with its newline,
// exactly to the start of another: no line turns into another by a few
// changed bytes, and which line it is is decided outside the instrumented
// code, so a part of one is no coverage. fuzz-run moves whole lines
// (-lines). Built with gcc's trace-pc alone, so no comparison operand
// helps.
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#if defined(__clang__)
#define NO_COVERAGE __attribute__((no_sanitize("coverage"), noinline))
#else
#define NO_COVERAGE __attribute__((no_sanitize_coverage, noinline))
#endif

enum kind { OTHER, LIST, DEFINITION, HEADING };

NO_COVERAGE static int is(const uint8_t *d, size_t n, const char *line) {
    size_t i = 0;
    for (; i < n && line[i]; i++)
        if (d[i] != (uint8_t)line[i])
            return 0;
    return i == n && !line[i];
}

// The kind of the line d[0..n) (without its newline).
NO_COVERAGE static enum kind kind(const uint8_t *d, size_t n) {
    if (is(d, n, "- itemized"))
        return LIST;
    if (is(d, n, ": definition"))
        return DEFINITION;
    if (is(d, n, "# headings"))
        return HEADING;
    return OTHER;
}

// Stored only on the first rung, so that it keeps a branch of its own.
static volatile int rungs;

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
    // How many of list, definition, heading the last lines were, in order.
    int run = 0;
    size_t i = 0;
    while (i < size) {
        size_t end = i;
        while (end < size && data[end] != '\n')
            end++;
        if (end == size)
            break; // a last line without its newline is not a line
        switch (kind(data + i, end - i)) {
        case LIST:
            run = 1;
            break;
        case DEFINITION:
            if (run == 1) {
                rungs++; // a block of its own: the first rung's coverage
                run = 2;
            } else {
                run = 0;
            }
            break;
        case HEADING:
            if (run == 2)
                abort();
            run = 0;
            break;
        default:
            run = 0;
        }
        i = end + 1;
    }
    return 0;
}
